"""core.engine.criteria: every impurity against values worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from core.engine import criteria


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ([10, 0], 0.0),  # pure
        ([5, 5], 0.5),  # 1 - (1/4 + 1/4)
        ([3, 1], 0.375),  # 1 - (9 + 1) / 16
        ([1, 1, 1], 2 / 3),  # 1 - 3 / 9
        ([2, 1, 1], 0.625),  # 1 - (4 + 1 + 1) / 16
        ([0, 0], 0.0),  # empty node
    ],
)
def test_gini_by_hand(counts: list[int], expected: float) -> None:
    assert_allclose(criteria.gini(counts), expected, rtol=1e-15, atol=1e-15)


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ([7, 0], 0.0),
        ([1, 1], 1.0),  # one bit
        ([2, 2, 2, 2], 2.0),  # log2(4)
        ([3, 1], 0.8112781244591328),  # 3/4 log2(4/3) + 1/4 log2(4)
        ([2, 1, 1], 1.5),  # 1/2 * 1 + 2 * (1/4 * 2)
        ([0, 0, 0], 0.0),
    ],
)
def test_entropy_in_bits_by_hand(counts: list[int], expected: float) -> None:
    assert_allclose(criteria.entropy(counts), expected, rtol=1e-15, atol=1e-15)


def test_class_impurities_work_row_by_row() -> None:
    rows = np.array([[3, 1], [5, 5], [4, 0]])
    assert_allclose(criteria.gini(rows), [0.375, 0.5, 0.0])
    assert_allclose(criteria.entropy(rows), [0.8112781244591328, 1.0, 0.0])
    # A column-major array (how the builder stores its statistics) gives the same numbers.
    assert_array_equal(criteria.gini(np.asfortranarray(rows)), criteria.gini(rows))


def test_gini_is_exactly_equal_for_permuted_counts() -> None:
    # The builder's tie rule compares scores with ==: permuted counts must give the same float.
    assert criteria.gini([1, 2, 4]) == criteria.gini([4, 1, 2]) == criteria.gini([2, 4, 1])


def test_squared_error_by_hand() -> None:
    # mean 2.5; deviations 2.25, 0.25, 0.25, 2.25 -> 5 / 4
    assert criteria.squared_error([1, 2, 3, 4]) == pytest.approx(1.25, rel=1e-15)
    # weights 3, 1: mean 2.5; (3 * 6.25 + 56.25) / 4
    assert criteria.squared_error([0, 10], sample_weight=[3, 1]) == pytest.approx(18.75)
    assert criteria.squared_error([7.3, 7.3, 7.3]) == 0.0
    assert criteria.squared_error([]) == 0.0


def test_squared_error_of_moments_by_hand() -> None:
    # y = 1, 2, 3, 4 uncentred: w = 4, s = 10, q = 30 -> (30 - 100 / 4) / 4
    # and centred on 2.5: w = 4, s = 0, q = 5 -> 5 / 4
    assert_allclose(criteria.squared_error_of_moments([[4, 10, 30], [4, 0, 5], [0, 0, 0]]),
                    [1.25, 1.25, 0.0])  # fmt: skip
    assert_allclose(criteria.moments([1, 2, 3, 4]), [4, 0, 5])


@pytest.mark.parametrize(
    ("y", "weight", "expected"),
    [
        ([3, 1, 2], None, 2.0),
        ([1, 2, 3, 4], None, 2.5),  # even count: the two middle values averaged
        ([1, 2, 3], [1, 1, 5], 3.0),  # cumulative weights 1, 2, 7: half (3.5) reached at 3
        ([1, 2, 3], [2, 1, 1], 1.5),  # cumulative weight exactly half (2) at 1: average 1, 2
        ([5.0], None, 5.0),
    ],
)
def test_weighted_median_by_hand(y: list[float], weight: list[int] | None, expected: float) -> None:
    assert criteria.weighted_median(y, weight) == expected


def test_absolute_error_by_hand() -> None:
    # median 2.5; deviations 1.5, 0.5, 0.5, 7.5 -> 10 / 4
    assert criteria.absolute_error([1, 2, 3, 10]) == pytest.approx(2.5)
    # weighted median 3; deviations 2, 1, 0 with weights 1, 1, 5 -> 3 / 7
    assert criteria.absolute_error([1, 2, 3], [1, 1, 5]) == pytest.approx(3 / 7)


def test_prefix_absolute_deviation_by_hand() -> None:
    # prefixes: {}, {1}, {1, 3} (median 2: 1 + 1), {1, 3, 2} (median 2: 1 + 1 + 0)
    out = criteria.prefix_absolute_deviation(np.array([1.0, 3.0, 2.0]), np.array([1, 1, 1]))
    assert_allclose(out, [0.0, 0.0, 2.0, 2.0])


def test_registry_names_the_public_functions() -> None:
    assert criteria.IMPURITY["gini"] is criteria.gini
    assert criteria.IMPURITY["entropy"] is criteria.entropy
    assert criteria.IMPURITY["log_loss"] is criteria.entropy
    assert criteria.IMPURITY["squared_error"] is criteria.squared_error_of_moments
