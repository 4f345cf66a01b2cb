"""Tests for the 2-D puzzles: shapes, balance, seeds, the bare geometry at noise 0,
scikit-learn's generators as a reference, the catalogue entries, and what each one teaches."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest
from sklearn import datasets as sk_datasets

from core import DecisionTreeClassifier, RandomForestClassifier
from core.app.settings import default_catalogue
from core.data import puzzles
from core.data.catalogue import list_datasets, load_dataset
from core.data.datasets import Dataset, train_test_split

GENERATORS: dict[str, Callable[..., Dataset]] = {
    "moons": puzzles.make_moons,
    "circles": puzzles.make_circles,
    "xor": puzzles.make_xor,
    "spirals": puzzles.make_spirals,
    "blobs": puzzles.make_blobs,
}
NAMES = sorted(GENERATORS)


def sorted_rows(X: np.ndarray) -> np.ndarray:
    """The rows in lexicographic order, rounded, so that two shuffles of one set compare equal."""
    rounded = np.round(X, 9) + 0.0  # + 0.0 turns -0.0 into 0.0
    return rounded[np.lexsort(rounded.T[::-1])]


def accuracy(model: DecisionTreeClassifier | RandomForestClassifier, data: Dataset) -> float:
    return float(np.mean(model.predict(data.X) == data.y))


# ---------------------------------------------------------------- shapes, balance, seeds


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("n_samples", [15, 200, 1001])
def test_shape_and_class_balance(name: str, n_samples: int) -> None:
    data = GENERATORS[name](n_samples)
    assert data.task == "classification" and data.name == name
    assert data.X.shape == (n_samples, 2) and data.feature_names == ("x1", "x2")
    assert np.all(np.isfinite(data.X))
    counts = np.bincount(data.y, minlength=data.n_classes)
    assert counts.sum() == n_samples and counts.max() - counts.min() <= 1
    assert len(set(data.class_names)) == data.n_classes >= 2
    assert data.description and data.provenance


@pytest.mark.parametrize("name", NAMES)
def test_a_seed_fixes_the_points(name: str) -> None:
    make = GENERATORS[name]
    first, again, other = make(random_state=7), make(random_state=7), make(random_state=8)
    np.testing.assert_array_equal(first.X, again.X)
    np.testing.assert_array_equal(first.y, again.y)
    assert not np.allclose(first.X, other.X)


@pytest.mark.parametrize("name", NAMES)
def test_noise_only_moves_the_points(name: str) -> None:
    # The seed fixes the base points and the standard-normal draws; the noise scales the draws,
    # so the jitter at noise 0.2 is exactly twice the jitter at noise 0.1, row for row.
    make = GENERATORS[name]
    bare, small, large = (make(noise=noise, random_state=3) for noise in (0.0, 0.1, 0.2))
    np.testing.assert_array_equal(bare.y, small.y)
    np.testing.assert_array_equal(bare.y, large.y)
    np.testing.assert_allclose(large.X - bare.X, 2 * (small.X - bare.X), atol=1e-12)
    assert np.abs(small.X - bare.X).max() > 0


def test_bad_arguments_get_messages_that_name_them() -> None:
    with pytest.raises(ValueError, match="n_samples must be >= 4, got 3"):
        puzzles.make_moons(3)
    with pytest.raises(TypeError, match="n_samples must be an integer"):
        puzzles.make_xor(10.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"noise must be finite and >= 0, got -0\.1"):
        puzzles.make_spirals(noise=-0.1)
    with pytest.raises(ValueError, match="noise must be finite and >= 0, got nan"):
        puzzles.make_circles(noise=math.nan)
    with pytest.raises(ValueError, match="factor must be strictly between 0 and 1, got 1"):
        puzzles.make_circles(factor=1)
    with pytest.raises(ValueError, match="n_classes must be between 2 and 5, got 6"):
        puzzles.make_blobs(n_classes=6)
    with pytest.raises(ValueError, match="n_classes must be >= 2, got 1"):
        puzzles.make_blobs(n_classes=1)
    with pytest.raises(ValueError, match="n_samples must be >= 10, got 9"):
        puzzles.make_blobs(9, n_classes=5)
    with pytest.raises(ValueError, match="random_state must be >= 0, got -1"):
        puzzles.make_blobs(random_state=-1)


# ---------------------------------------------------------------- geometry at noise 0


def test_circles_lie_on_their_two_radii() -> None:
    data = puzzles.make_circles(101, noise=0.0, factor=0.3)
    radius = np.hypot(data.X[:, 0], data.X[:, 1])
    np.testing.assert_allclose(radius[data.y == 0], 1.0)
    np.testing.assert_allclose(radius[data.y == 1], 0.3)
    assert data.class_names == ("outer ring", "inner ring")


def test_moons_lie_on_their_half_circles() -> None:
    data = puzzles.make_moons(100, noise=0.0)
    upper, lower = data.X[data.y == 0], data.X[data.y == 1]
    np.testing.assert_allclose(np.hypot(upper[:, 0], upper[:, 1]), 1.0)
    assert upper[:, 1].min() >= -1e-12
    np.testing.assert_allclose(np.hypot(lower[:, 0] - 1.0, lower[:, 1] - 0.5), 1.0)
    assert lower[:, 1].max() <= 0.5 + 1e-12


def test_xor_follows_the_quadrant_rule() -> None:
    data = puzzles.make_xor(400, noise=0.0, random_state=2)
    product = data.X[:, 0] * data.X[:, 1]
    np.testing.assert_array_equal(data.y, (product < 0).astype(int))
    assert np.abs(data.X).min() >= 0.1 and np.abs(data.X).max() <= 1.0
    quadrant = (data.X[:, 0] > 0).astype(int) * 2 + (data.X[:, 1] > 0)
    assert np.bincount(quadrant).tolist() == [100, 100, 100, 100]
    assert data.class_names == ("same sign", "opposite signs")


def test_spirals_are_one_arm_turned_half_a_turn() -> None:
    data = puzzles.make_spirals(300, noise=0.0, random_state=4)
    x1, x2 = data.X[:, 0], data.X[:, 1]
    radius = np.hypot(x1, x2)
    # Spiral A: r = 2.5 theta / (3.5 pi) with theta in [pi/2, 3.5 pi]; spiral B is A turned by pi.
    theta = radius * puzzles.SPIRAL_END / puzzles.SPIRAL_RADIUS
    assert theta.min() >= math.pi / 2 - 1e-9 and theta.max() <= puzzles.SPIRAL_END + 1e-9
    angle = theta + math.pi * data.y
    np.testing.assert_allclose(x1, radius * np.cos(angle), atol=1e-9)
    np.testing.assert_allclose(x2, radius * np.sin(angle), atol=1e-9)
    assert radius.max() <= puzzles.SPIRAL_RADIUS + 1e-12


@pytest.mark.parametrize("n_classes", [2, 3, 4, 5])
def test_blobs_sit_on_their_centres(n_classes: int) -> None:
    data = puzzles.make_blobs(10 * n_classes, n_classes=n_classes, noise=0.0)
    centres = puzzles.blob_centers(n_classes)
    np.testing.assert_allclose(data.X, centres[data.y])
    np.testing.assert_allclose(np.hypot(centres[:, 0], centres[:, 1]), 3.0)
    assert data.class_names == tuple(f"blob {letter}" for letter in "ABCDE"[:n_classes])


# ---------------------------------------------------------------- scikit-learn as a reference


@pytest.mark.parametrize("n_samples", [100, 101])
def test_bare_moons_and_circles_match_scikit_learn_up_to_order(n_samples: int) -> None:
    ours = puzzles.make_moons(n_samples, noise=0.0)
    X, y = sk_datasets.make_moons(n_samples, noise=None, shuffle=False)
    np.testing.assert_allclose(sorted_rows(ours.X), sorted_rows(X), atol=1e-9)
    for code in (0, 1):
        np.testing.assert_allclose(
            sorted_rows(ours.X[ours.y == code]), sorted_rows(X[y == code]), atol=1e-9
        )
    ours = puzzles.make_circles(n_samples, noise=0.0, factor=0.4)
    X, y = sk_datasets.make_circles(n_samples, noise=None, factor=0.4, shuffle=False)
    np.testing.assert_allclose(sorted_rows(ours.X), sorted_rows(X), atol=1e-9)
    for code in (0, 1):
        np.testing.assert_allclose(
            sorted_rows(ours.X[ours.y == code]), sorted_rows(X[y == code]), atol=1e-9
        )


@pytest.mark.parametrize("name", ["moons", "circles"])
def test_noisy_moons_and_circles_have_scikit_learns_statistics(name: str) -> None:
    ours = GENERATORS[name](4000, noise=0.1, random_state=1)
    make = getattr(sk_datasets, f"make_{name}")
    X, y = make(4000, noise=0.1, random_state=1, **({"factor": 0.5} if name == "circles" else {}))
    for code in (0, 1):
        np.testing.assert_allclose(
            ours.X[ours.y == code].mean(axis=0), X[y == code].mean(axis=0), atol=0.02
        )
        np.testing.assert_allclose(
            ours.X[ours.y == code].std(axis=0), X[y == code].std(axis=0), atol=0.02
        )


def test_blobs_match_scikit_learn_given_the_same_centres() -> None:
    centres = puzzles.blob_centers(4)
    bare = puzzles.make_blobs(40, n_classes=4, noise=0.0)
    X, y = sk_datasets.make_blobs(40, centers=centres, cluster_std=0.0, shuffle=False)
    np.testing.assert_allclose(sorted_rows(bare.X), sorted_rows(X))
    ours = puzzles.make_blobs(20000, n_classes=4, noise=0.7, random_state=5)
    X, y = sk_datasets.make_blobs(20000, centers=centres, cluster_std=0.7, random_state=5)
    for code in range(4):
        mine, theirs = ours.X[ours.y == code], X[y == code]
        np.testing.assert_allclose(mine.mean(axis=0), theirs.mean(axis=0), atol=0.06)
        np.testing.assert_allclose(mine.std(axis=0), theirs.std(axis=0), atol=0.05)


# ---------------------------------------------------------------- the catalogue


def test_puzzles_are_generated_sets_in_the_catalogue() -> None:
    infos = {info.name: info for info in list_datasets()}
    for name in NAMES:
        info = infos[name]
        assert info.task == "classification" and info.n_features == 2
        assert info.noise is not None and 0 < info.noise < puzzles.noise_scale(name, info.noise)
        assert "What to notice" in info.description
        data = load_dataset(name)
        assert data.n_samples == info.n_samples and data.n_classes == info.n_classes
        assert data.title == info.title and data.description == info.description


def test_load_dataset_takes_the_number_of_points_noise_and_seed() -> None:
    data = load_dataset("spirals", n_samples=60, noise=0.3, random_state=9)
    direct = puzzles.make_spirals(60, noise=0.3, random_state=9)
    np.testing.assert_array_equal(data.X, direct.X)
    np.testing.assert_array_equal(data.y, direct.y)
    assert data.title == "Two spirals"
    assert load_dataset("iris", n_samples=10).n_samples == 150  # a table ignores it
    assert load_dataset("sine", n_samples=30).n_samples == 30
    with pytest.raises(ValueError, match="n_samples must be >= 4"):
        load_dataset("moons", n_samples=2)


def test_each_noise_slider_goes_up_to_its_sets_noise_scale() -> None:
    defaults = {info.name: info.noise for info in list_datasets() if info.noise is not None}
    scales = {name: puzzles.noise_scale(name, noise) for name, noise in defaults.items()}
    # By hand, from the manifest's defaults: the sine 10; a puzzle twice its default, at least
    # 0.5: moons 2 * 0.2 -> 0.5, circles, xor and spirals 2 * 0.1 -> 0.5, blobs 2 * 1.0.
    assert scales == {
        "sine": 10.0,
        "moons": 0.5,
        "circles": 0.5,
        "xor": 0.5,
        "spirals": 0.5,
        "blobs": 2.0,
    }
    # The sliders' own range (data_controls reads DatasetShape.noise_max): the same.
    shapes = default_catalogue()
    assert {name: shapes[name].noise_max for name in scales} == scales


def test_a_puzzles_noise_scale_is_twice_its_default_between_the_floor_and_the_limit() -> None:
    assert puzzles.noise_scale("moons", 0.4) == 0.8
    assert puzzles.noise_scale("moons", 0.1) == puzzles.PUZZLE_NOISE_FLOOR == 0.5
    assert puzzles.noise_scale("blobs", 7.0) == puzzles.NOISE_LIMIT == 10.0
    assert puzzles.noise_scale("sine", 0.5) == 10.0


# ---------------------------------------------------------------- what each puzzle teaches


def test_xor_defeats_a_depth_1_tree_but_not_two_cuts_or_a_forest() -> None:
    depth_1, depth_2, forest = [], [], []
    for seed in range(6):
        train = puzzles.make_xor(200, random_state=seed)
        test = puzzles.make_xor(1000, random_state=100 + seed)
        depth_1.append(accuracy(DecisionTreeClassifier(max_depth=1).fit(train.X, train.y), test))
        depth_2.append(accuracy(DecisionTreeClassifier(max_depth=2).fit(train.X, train.y), test))
        model = RandomForestClassifier(n_estimators=50, random_state=0).fit(train.X, train.y)
        forest.append(accuracy(model, test))
        # Two levels are enough: the cuts x1 = 0 and then x2 = 0 make no mistake at noise 0.
        bare = puzzles.make_xor(200, noise=0.0, random_state=seed)
        assert np.array_equal((bare.X[:, 0] > 0) != (bare.X[:, 1] > 0), bare.y == 1)
    assert max(depth_1) < 0.6  # a coin toss
    assert min(forest) > 0.95
    assert np.mean(depth_2) < 0.8  # the greedy first cut is blind, as the description says


def test_circles_and_spirals_need_many_steps_and_a_forest_smooths_them() -> None:
    # (puzzle, a shallow depth, what that depth stays below, the leaves a full tree needs)
    for name, depth, ceiling, leaves in (("circles", 2, 0.8, 5), ("spirals", 4, 0.85, 15)):
        for seed in range(3):
            make = GENERATORS[name]
            train, test = make(300, random_state=seed), make(2000, random_state=50 + seed)
            shallow = DecisionTreeClassifier(max_depth=depth).fit(train.X, train.y)
            deep = DecisionTreeClassifier().fit(train.X, train.y)
            forest = RandomForestClassifier(n_estimators=100, random_state=0)
            forest.fit(train.X, train.y)
            assert accuracy(shallow, test) < ceiling
            assert deep.get_n_leaves() >= leaves
            assert accuracy(forest, test) >= max(accuracy(deep, test), 0.95)


def test_train_test_split_works_on_every_puzzle() -> None:
    for name in NAMES:
        split = train_test_split(GENERATORS[name](40), random_state=0)
        assert len(split.y_test) == 10 and len(set(split.y_train.tolist())) >= 2
