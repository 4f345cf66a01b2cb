"""The builder's speed-ups give the very numbers of the plain computations they replace.

Each speed-up here rests on an exactness argument (whole-number counts and weights add up
without rounding); these tests check the argument on random data, bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from core.engine import blocks, builder, criteria, scores


def plain_gini(counts: np.ndarray) -> np.ndarray:
    """``1 - sum_k c_k**2 / n**2`` written the obvious way (0 for an empty node)."""
    total = counts.sum(axis=-1)
    share = np.divide(
        (counts * counts).sum(axis=-1), total * total, out=np.ones_like(total), where=total > 0
    )
    return 1.0 - share


@pytest.mark.parametrize("n_classes", [1, 2, 3, 7])
def test_gini_class_by_class_is_bitwise_the_plain_formula(n_classes: int) -> None:
    rng = np.random.default_rng(n_classes)
    counts = rng.integers(0, 40, size=(500, n_classes)).astype(np.float64)
    counts[:7] = 0.0  # empty nodes
    counts[7:20, 1:] = 0.0  # pure nodes
    expected = plain_gini(counts)
    assert_array_equal(criteria.gini(counts), expected)
    # The builder's layout: stored class by class (the transpose of a C-ordered array).
    assert_array_equal(criteria.gini(np.ascontiguousarray(counts.T).T), expected)
    # Hand-checked rows: empty -> 0, pure -> 0.
    assert criteria.gini(counts)[0] == 0.0
    assert criteria.gini(counts)[10] == 0.0


def test_gini_keeps_the_shape_and_returns_a_scalar_for_one_node() -> None:
    assert criteria.gini(np.ones((4, 5, 2))).shape == (4, 5)
    one = criteria.gini([3, 1])
    assert np.ndim(one) == 0
    assert one == 0.375  # 1 - (9 + 1) / 16
    assert criteria.gini(np.zeros((3, 0))).shape == (3,)


def _first_depth(
    X: np.ndarray, y: np.ndarray, weights: np.ndarray, params: builder.GrowthParams
) -> tuple[builder.Samples, builder.Blocks, np.ndarray]:
    """The root's blocks and left statistics, as the first depth of ``grow_trees`` makes them."""
    samples = builder.prepare_samples(X, y, weights[None, :])
    rows = np.arange(samples.tree.size)
    nodes = builder.node_statistics(samples, rows, np.array([rows.size]), params)
    rng = [np.random.default_rng(0)]
    blocks = builder.candidate_blocks(samples, rows, nodes, params, rng)
    left = builder.cumulative_statistics(samples, blocks, nodes, params)
    return samples, blocks, left


@pytest.mark.parametrize("criterion", ["gini", "entropy", "squared_error"])
def test_left_weight_from_the_statistics_equals_summing_the_weights(criterion: str) -> None:
    rng = np.random.default_rng(3)
    n = 300
    X = rng.integers(0, 5, size=(n, 3)).astype(np.float64)  # many ties
    classification = criterion != "squared_error"
    y = rng.integers(0, 3, n) if classification else rng.normal(size=n)
    weights = rng.integers(0, 4, n)  # a bootstrap's counts: zeros and repeats
    params = builder.GrowthParams(
        criterion=criterion,  # type: ignore[arg-type]
        n_classes=3 if classification else 0,
        max_depth=5,
        min_samples_split=2,
        min_samples_leaf=1,
        min_impurity_decrease=0.0,
        max_features=3,
    )
    samples, blocks, left = _first_depth(X, y, weights, params)
    assert not samples.unit_weights
    w = samples.weight[blocks.rows]
    expected = np.zeros(w.size)
    for a, size in zip(blocks.start, blocks.size, strict=True):
        expected[a : a + size] = np.concatenate([[0.0], np.cumsum(w[a : a + size])[:-1]])
    got = scores._left_weight(samples, blocks, left, params)
    assert_array_equal(got, expected)
    at = np.array([0, 5, w.size - 1])
    assert_array_equal(scores._left_weight(samples, blocks, left, params, at=at), expected[at])
    # Hand check: the first entry of every block has nothing above it.
    assert np.all(got[blocks.start] == 0.0)


@pytest.mark.parametrize("features", [[0, 1, 2, 3], [1, 3]])
def test_root_order_is_the_order_the_general_sort_gives(features: list[int]) -> None:
    # Ties (few distinct values), NaN, and a tree whose instances carry repeated weights.
    rng = np.random.default_rng(11)
    n = 80
    X = rng.integers(0, 4, size=(n, 4)).astype(np.float64)
    X[rng.random((n, 4)) < 0.15] = np.nan
    y = rng.integers(0, 2, n)
    samples = builder.prepare_samples(X, y, rng.integers(1, 3, size=(1, n)))
    rows = rng.permutation(n)  # any order of the node's instances
    feature = np.array(features)
    draw = builder.FeatureDraw(np.zeros(feature.size, dtype=np.int64), feature)
    shortcut = builder.sort_blocks(samples, rows, np.array([n]), draw)
    # Two copies of the node take the general path (a key sort); the first copy is the node.
    two = builder.FeatureDraw(np.repeat([0, 1], feature.size), np.tile(feature, 2))
    general = builder.sort_blocks(samples, np.r_[rows, rows], np.array([n, n]), two)
    m = n * feature.size
    assert_array_equal(shortcut.rows, general.rows[:m])
    assert_array_equal(shortcut.x, general.x[:m])
    # By hand: every block is sorted, NaN last, ties in sample order.
    for b, f in enumerate(feature):
        block = shortcut.rows[b * n : (b + 1) * n]
        assert_array_equal(block, np.argsort(X[:, f], kind="stable"))


def test_trees_grown_in_batches_are_the_trees_grown_together() -> None:
    rng = np.random.default_rng(5)
    n, d = 120, 5
    X = rng.integers(0, 6, size=(n, d)).astype(np.float64)  # ties
    X[rng.random((n, d)) < 0.1] = np.nan
    y = rng.integers(0, 3, n)
    weights = rng.multinomial(n, np.full(n, 1 / n), size=7).astype(np.int64)  # bootstraps
    params = builder.GrowthParams(
        criterion="gini",
        n_classes=3,
        max_depth=30,
        min_samples_split=2,
        min_samples_leaf=1,
        min_impurity_decrease=0.0,
        max_features=2,
    )

    def grow(batch_entries: int, calls: list[float]) -> list:
        rngs = [np.random.default_rng(s) for s in range(7)]
        return builder.grow_trees(X, y, weights, params, rngs, calls.append, batch_entries)

    together: list[float] = []
    batched: list[float] = []
    one = grow(10**9, together)
    many = grow(150, batched)  # about one tree per batch: 7 batches
    assert len(one) == len(many) == 7
    for a, b in zip(one, many, strict=True):
        for field in ("children_left", "children_right", "feature", "threshold", "value"):
            assert_array_equal(getattr(a, field), getattr(b, field))
    # Progress over all the batches only grows and ends at 1, as for one batch.
    assert batched == sorted(batched) and batched[-1] == 1.0 and together[-1] == 1.0
    assert len(batched) > len(together)  # every batch reports its own depths


@pytest.mark.parametrize(
    ("n_samples", "n_blocks"),
    [(5000, 80), (300, 70_000), (70_000, 5), (10, 1), (2, 3)],
)
def test_the_radix_block_order_is_the_comparison_sorts(n_samples: int, n_blocks: int) -> None:
    # Every block holds distinct ranks, as a node's instances do along one feature; more than
    # 2**16 blocks takes a second block digit, more than 2**16 samples the comparison sort.
    rng = np.random.default_rng(n_blocks)
    size = rng.integers(1, min(n_samples, 40) + 1, size=n_blocks)
    block = np.repeat(np.arange(n_blocks), size)
    rank = np.concatenate([rng.permutation(n_samples)[:s] for s in size])
    expected = np.argsort(block * n_samples + rank, kind="stable")
    assert_array_equal(blocks.block_order(block, rank, n_samples), expected)
