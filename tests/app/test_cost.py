"""core/app/cost.py: the estimated cost of a forest fit, its ceiling, and the one-at-a-time gate."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from core import DecisionTreeClassifier
from core.app.cost import (
    CACHE_ROWS,
    CEILING_SECONDS,
    SECONDS_PER_SCAN,
    SECONDS_PER_TREE,
    Gate,
    expected_levels,
    forest_cost,
    forest_seconds,
)


@pytest.mark.parametrize("n_features", [1, 2, 5, 30])
@pytest.mark.parametrize("max_features", ["sqrt", "log2", None, 1, 0.5])
def test_the_estimate_counts_the_features_a_fitted_tree_draws(max_features, n_features):
    # The features per split are what the engine resolves when it fits, so the estimate
    # with max_features equals the one with the count the fitted tree reports.
    X = np.random.default_rng(0).uniform(size=(40, n_features))
    tree = DecisionTreeClassifier(max_features=max_features).fit(X, X[:, 0] > 0.5)
    per_split = tree.max_features_
    assert forest_seconds(10, 100, n_features, max_features, 4) == forest_seconds(
        10, 100, n_features, per_split, 4
    )
    # And by hand, for 30 features: floor(sqrt 30) = 5, floor(log2 30) = 4, half = 15.
    if n_features == 30:
        expected = {"sqrt": 5, "log2": 4, None: 30, 1: 1, 0.5: 15}[max_features]
        assert per_split == expected


def test_the_estimate_refuses_what_the_engine_refuses():
    with pytest.raises(ValueError, match="max_features must be"):
        forest_seconds(10, 100, 4, 7, None)
    with pytest.raises(ValueError, match="max_features must be"):
        forest_seconds(10, 100, 4, "all", None)


def test_levels_are_a_balanced_trees_capped_by_max_depth():
    assert expected_levels(426, None) == 9  # 2**9 = 512 >= 426 > 256
    assert expected_levels(426, 3) == 3
    assert expected_levels(1, None) == 1


def test_the_estimate_is_the_formula_by_hand():
    # 10 trees, 100 rows, all 4 features, 7 levels:
    # 10 * (per tree + per scan * (1 + 100 / CACHE_ROWS) * 100 * 4 * 7).
    by_hand = 10 * (SECONDS_PER_TREE + SECONDS_PER_SCAN * (1 + 100 / CACHE_ROWS) * 2800)
    assert forest_seconds(10, 100, 4, None, None) == pytest.approx(by_hand)


@pytest.mark.parametrize(
    ("n_train", "n_features", "max_features", "measured"),
    # CPU seconds a tree, measured on 25 November 2026 (see the constants in core/app/cost.py).
    [
        (112, 4, "sqrt", 0.10e-3),
        (426, 30, "sqrt", 0.55e-3),
        (426, 30, None, 2.3e-3),
        (3750, 20, "sqrt", 6.5e-3),
        (15_000, 20, "sqrt", 46e-3),
    ],
)
def test_the_estimate_is_within_a_factor_of_one_and_a_half_of_the_measured_fits(
    n_train, n_features, max_features, measured
):
    per_tree = forest_seconds(100, n_train, n_features, max_features, None) / 100
    assert measured / 1.5 <= per_tree <= measured * 1.5


def test_the_estimate_grows_with_trees_rows_features_and_depth():
    base = forest_seconds(100, 400, 30, "sqrt", None)
    assert forest_seconds(200, 400, 30, "sqrt", None) == pytest.approx(2 * base)
    assert forest_seconds(100, 800, 30, "sqrt", None) > base
    assert forest_seconds(100, 400, 30, None, None) > base
    assert forest_seconds(100, 400, 30, "sqrt", 3) < base


def test_a_big_uploads_forest_is_too_big_and_the_everyday_ones_are_not():
    # 1000 trees on the largest upload (20,000 rows, 20 features): minutes of a core.
    big = forest_cost(1000, 15_000, 20, "sqrt", None)
    assert big.too_big and big.seconds > CEILING_SECONDS
    assert 1 <= big.grown < 1000
    assert forest_cost(big.grown, 15_000, 20, "sqrt", None).seconds <= CEILING_SECONDS
    assert forest_cost(big.grown + 1, 15_000, 20, "sqrt", None).seconds > CEILING_SECONDS
    assert "1000 trees" in big.notice() and f"{big.grown} trees" in big.notice()
    iris = forest_cost(1000, 112, 2, "sqrt", None)
    assert not iris.too_big and not iris.heavy and iris.notice() is None
    assert iris.grown == 1000
    # Issue 12's 500 trees of all 30 breast cancer features took 40 s of a busy core then;
    # the engine is faster now, and 1000 of them fit under the ceiling.
    assert not forest_cost(1000, 426, 30, None, None).too_big


def test_a_forest_whose_first_tree_is_over_the_ceiling_still_grows_one():
    cost = forest_cost(10, 10_000, 100, None, None, ceiling=1e-6)
    assert cost.grown == 1 and cost.too_big


def test_heavy_is_judged_on_the_trees_actually_grown():
    cost = forest_cost(1000, 426, 30, None, None, ceiling=2.0, heavy=1.5)
    assert cost.too_big and cost.heavy
    assert not forest_cost(1000, 426, 30, None, None, ceiling=2.0, heavy=2.5).heavy


def test_a_forest_cut_to_its_ceiling_is_not_cut_again():
    # The page's forest is estimated once; its cut spec, estimated again for the curve or by
    # a second caller, must keep every tree, or the curve would lose the page's forest.
    for n_train, n_features in [(15_000, 20), (426, 30), (3750, 7), (112, 4)]:
        for ceiling in (1e-3, 0.05, 0.7, 3.0):
            cut = forest_cost(1000, n_train, n_features, "sqrt", None, ceiling=ceiling)
            again = forest_cost(cut.grown, n_train, n_features, "sqrt", None, ceiling=ceiling)
            assert again.grown == cut.grown and not again.too_big
            assert again.seconds == pytest.approx(cut.grown_seconds)
            assert again.heavy == cut.heavy


def test_the_grown_trees_cost_their_share_of_the_estimate():
    cost = forest_cost(1000, 426, 30, None, None, ceiling=2.0)
    assert cost.grown_seconds == pytest.approx(cost.seconds * cost.grown / 1000)
    assert cost.grown_seconds <= 2.0 < cost.seconds


def test_the_gate_lets_one_fit_through_at_a_time():
    gate = Gate(slots=1)
    inside, most, lock = [0], [0], threading.Lock()

    def fit() -> None:
        with gate.turn():
            with lock:
                inside[0] += 1
                most[0] = max(most[0], inside[0])
            time.sleep(0.05)
            with lock:
                inside[0] -= 1

    threads = [threading.Thread(target=fit) for _ in range(4)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most[0] == 1
    assert time.perf_counter() - start >= 4 * 0.05  # they waited for one another
    assert not gate.busy


def test_the_gate_says_busy_while_held_and_frees_its_slot_after_an_error():
    gate = Gate()
    assert not gate.busy
    with pytest.raises(RuntimeError), gate.turn():
        assert gate.busy
        raise RuntimeError("the fit failed")
    assert not gate.busy
    with gate.turn():  # the slot came back: this does not block
        pass


def test_a_waiting_fit_starts_as_soon_as_the_other_ends():
    gate = Gate()
    started = threading.Event()
    release = threading.Event()
    waited: list[float] = []

    def first() -> None:
        with gate.turn():
            started.set()
            release.wait(5)

    def second() -> None:
        t = time.perf_counter()
        with gate.turn():
            waited.append(time.perf_counter() - t)

    a = threading.Thread(target=first)
    a.start()
    started.wait(5)
    b = threading.Thread(target=second)
    b.start()
    time.sleep(0.1)
    assert gate.busy and not waited  # still waiting its turn
    release.set()
    a.join()
    b.join()
    assert len(waited) == 1 and waited[0] >= 0.1


def test_a_gate_needs_a_slot():
    with pytest.raises(ValueError, match="slots must be an int >= 1; got 0"):
        Gate(slots=0)
