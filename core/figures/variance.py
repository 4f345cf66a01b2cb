"""Why a forest beats one tree: K trees, each grown on its own resample, drawn over each other.

A deep tree follows its training rows closely, so trees grown on different resamples of the
same data differ wildly (variance); their average is steady. This module takes the K trees'
predictions (computed by the caller, as a forest's ``predict_per_tree`` gives them) and works
out what a class should see:

* regression: each tree's staircase, their mean, and the split of the trees' mean squared
  error on the test rows into the average's own error and the trees' spread around it;
* classification: each tree's boundary, how much the trees disagree at each point of the plane,
  and how often two trees give a test row the same class;
* for both: the test error of the average of the first k trees, k = 1..K, against one tree's.

:mod:`core.figures.variance_plot` draws them.

The decomposition is exact on the rows it is measured on. With ``P[k, i]`` tree k's prediction
for test row i, ``m[i]`` their mean and ``y[i]`` the truth,

    mean_k mean_i (y_i - P_ki)^2  =  mean_i (y_i - m_i)^2  +  mean_i mean_k (P_ki - m_i)^2
    (the trees' error)             (the average's error)    (variance)

and, where the noise-free curve ``f`` is known (the generated sine), the average's error splits
into ``bias^2 = mean_i (f_i - m_i)^2``, ``noise = mean_i (y_i - f_i)^2`` and what is left,
``2 mean_i (y_i - f_i)(f_i - m_i)``, which is zero on average and small on any one test set.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.data.datasets import Task

__all__ = ["Decomposition", "Spread", "compute_spread", "decomposition"]

FloatArray = np.ndarray


@dataclass(frozen=True)
class Decomposition:
    """The trees' mean squared error on the test rows, taken apart (see the module).

    Attributes
    ----------
    trees_error : float
        ``mean_k mean_i (y_i - P_ki)^2``: what one tree gets wrong, on average.
    average_error : float
        ``mean_i (y_i - m_i)^2``: what their average gets wrong.
    variance : float
        ``mean_i mean_k (P_ki - m_i)^2``: how far the trees stray from their average.
    bias2, noise, rest : float or None
        The average's error split where the noise-free curve is known, else None:
        ``bias2 + noise + rest == average_error``.
    """

    trees_error: float
    average_error: float
    variance: float
    bias2: float | None = None
    noise: float | None = None
    rest: float | None = None


def decomposition(
    per_tree: FloatArray, y: FloatArray, truth: FloatArray | None = None
) -> Decomposition:
    """Take the trees' squared error apart.

    Parameters
    ----------
    per_tree : ndarray of shape (n_trees, n_rows)
        Each tree's prediction for each test row.
    y : ndarray of shape (n_rows,)
        The test rows' targets.
    truth : ndarray of shape (n_rows,), optional
        The noise-free value at each test row, when the data were generated from a known curve.
    """
    P = np.asarray(per_tree, dtype=float)
    target = np.asarray(y, dtype=float)
    mean = P.mean(axis=0)
    trees_error = float(np.mean((target[None, :] - P) ** 2))
    average_error = float(np.mean((target - mean) ** 2))
    variance = float(np.mean((P - mean[None, :]) ** 2))
    if truth is None:
        return Decomposition(trees_error, average_error, variance)
    f = np.asarray(truth, dtype=float)
    bias2 = float(np.mean((f - mean) ** 2))
    noise = float(np.mean((target - f) ** 2))
    rest = float(2.0 * np.mean((target - f) * (f - mean)))
    return Decomposition(trees_error, average_error, variance, bias2, noise, rest)


@dataclass(frozen=True)
class Spread:
    """What K resampled trees say, ready to draw.

    Attributes
    ----------
    task : {"classification", "regression"}
    n_trees : int
        K.
    feature_names : tuple of str
        The plotted feature (regression) or pair (classification).
    class_names : tuple of str
        Empty for regression.
    xs, ys : ndarray
        Grid: x positions (n_x,), and for classification y positions (n_y,).
    tree_values : ndarray
        Regression: each tree's prediction over ``xs``, shape (K, n_x). Classification: each
        tree's class (an index into ``class_names``) at each grid point, shape (K, n_y, n_x).
    average : ndarray
        Regression: the mean of the trees over ``xs``, (n_x,). Classification: the class of
        the averaged class shares (the forest's rule), (n_y, n_x).
    disagreement : ndarray or None
        Classification: ``1 - (share of the trees voting for the most voted class)`` at each
        grid point, (n_y, n_x); 0 where all agree. None for regression.
    test_x, test_y : ndarray
        The test rows to plot: (n, 1) or (n, 2) feature values, and their targets or classes.
    error_by_k : ndarray of shape (K,)
        Test error (1 - accuracy, or mean squared error) of the average of the first k trees.
    tree_error : float
        One tree's test error, averaged over the K trees.
    agreement : float or None
        Classification: the share of (pair of trees, test row) where both trees give the same
        class; None with one tree or for regression.
    parts : Decomposition or None
        Regression only.
    """

    task: Task
    n_trees: int
    feature_names: tuple[str, ...]
    class_names: tuple[str, ...]
    xs: FloatArray
    ys: FloatArray
    tree_values: FloatArray
    average: FloatArray
    disagreement: FloatArray | None
    test_x: FloatArray
    test_y: FloatArray
    error_by_k: FloatArray
    tree_error: float
    agreement: float | None
    parts: Decomposition | None


def compute_spread(
    task: Task,
    *,
    grid_values: FloatArray,
    test_values: FloatArray,
    X_test: FloatArray,
    y_test: FloatArray,
    xs: FloatArray,
    ys: FloatArray | None = None,
    feature_names: tuple[str, ...],
    class_names: tuple[str, ...] = (),
    truth: FloatArray | None = None,
) -> Spread:
    """Everything :class:`Spread` holds, from the trees' predictions.

    Parameters
    ----------
    task : {"classification", "regression"}
    grid_values : ndarray
        Each tree's prediction over the grid: regression (K, n_x), values over ``xs``;
        classification (K, n_y * n_x, n_classes), class shares at the grid points in row-major
        order (y outer, x inner).
    test_values : ndarray
        The same for the test rows: (K, n) or (K, n, n_classes).
    X_test, y_test : ndarray
        The test rows (the plotted columns) and their targets (class indices to classify).
    xs, ys : ndarray
        The grid's axes; ``ys`` only to classify.
    feature_names, class_names : tuple of str
    truth : ndarray of shape (n,), optional
        The noise-free value at each test row (regression on generated data).
    """
    grid = np.asarray(grid_values, dtype=float)
    tests = np.asarray(test_values, dtype=float)
    if task == "regression":
        return _regression_spread(grid, tests, X_test, y_test, xs, feature_names, truth)
    assert ys is not None, "a classification grid has y positions"
    return _classification_spread(grid, tests, X_test, y_test, xs, ys, feature_names, class_names)


def _regression_spread(
    grid: FloatArray,
    tests: FloatArray,
    X_test: FloatArray,
    y_test: FloatArray,
    xs: FloatArray,
    feature_names: tuple[str, ...],
    truth: FloatArray | None,
) -> Spread:
    """The K staircases, their mean, and the squared error of the first k trees' mean."""
    n_trees = int(grid.shape[0])
    counts = np.arange(1, n_trees + 1, dtype=float)
    target = np.asarray(y_test, dtype=float)
    running = np.cumsum(tests, axis=0) / counts[:, None]
    error_by_k = np.mean((running - target[None, :]) ** 2, axis=1)
    tree_error = float(np.mean((tests - target[None, :]) ** 2))
    return Spread(
        "regression",
        n_trees,
        feature_names,
        (),
        np.asarray(xs, dtype=float),
        np.zeros(0),
        grid,
        grid.mean(axis=0),
        None,
        np.asarray(X_test, dtype=float),
        target,
        error_by_k,
        tree_error,
        None,
        decomposition(tests, target, truth),
    )


def _pair_agreement(tree_classes: FloatArray, n_classes: int) -> float | None:
    """The share of (ordered pair of trees, test row) where both trees give the same class.

    Counted per row from how many trees vote for each class: ``sum_c v_c (v_c - 1)`` ordered
    pairs agree, of ``K (K - 1)``. None with one tree: there is no pair.
    """
    n_trees, n_rows = tree_classes.shape
    if n_trees < 2:
        return None
    per_class = np.stack([(tree_classes == c).sum(axis=0) for c in range(n_classes)])
    pairs_agreeing = (per_class * (per_class - 1)).sum(axis=0)  # ordered pairs, per row
    return float(pairs_agreeing.sum() / (n_trees * (n_trees - 1) * n_rows))


def _classification_spread(
    grid: FloatArray,
    tests: FloatArray,
    X_test: FloatArray,
    y_test: FloatArray,
    xs: FloatArray,
    ys: FloatArray,
    feature_names: tuple[str, ...],
    class_names: tuple[str, ...],
) -> Spread:
    """Each tree's class over the plane, how much the trees disagree there, the averaged
    shares' class, and the test error of the first k trees' averaged shares."""
    n_trees = int(grid.shape[0])
    counts = np.arange(1, n_trees + 1, dtype=float)
    shape = (len(ys), len(xs))
    n_classes = grid.shape[2]
    votes = grid.argmax(axis=2)  # (K, n_grid): each tree's class
    tally = np.stack([(votes == c).sum(axis=0) for c in range(n_classes)])  # (C, n_grid)
    disagreement = 1.0 - tally.max(axis=0) / n_trees
    truth_classes = np.asarray(y_test).astype(int)
    running = np.cumsum(tests, axis=0) / counts[:, None, None]
    error_by_k = np.mean(running.argmax(axis=2) != truth_classes[None, :], axis=1)
    tree_classes = tests.argmax(axis=2)  # (K, n)
    tree_error = float(np.mean(tree_classes != truth_classes[None, :]))
    return Spread(
        "classification",
        n_trees,
        feature_names,
        class_names,
        np.asarray(xs, dtype=float),
        np.asarray(ys, dtype=float),
        votes.reshape(n_trees, *shape),
        grid.mean(axis=0).argmax(axis=1).reshape(shape),
        disagreement.reshape(shape),
        np.asarray(X_test, dtype=float),
        truth_classes,
        error_by_k,
        tree_error,
        _pair_agreement(tree_classes, n_classes),
        None,
    )
