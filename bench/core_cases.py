"""The cases of ``make bench`` (:mod:`bench.bench_core`): what is timed, on which data, against
which reference, with which target.

The cases and their targets are those of the engine issue (issue 18); a ratio is ours / reference,
and the reference is scikit-learn with ``n_jobs=1`` unless the case's name says otherwise:

- single-tree fit, ratio <= 0.3: iris, wine, breast cancer, sine, 5000 x 20 and 20,000 x 20,
  each with ``max_depth`` None and 5;
- 100-tree forest fit, one thread: <= 0.3 on iris, wine, breast cancer and sine, <= 0.5 on
  5000 x 20 and 20,000 x 20;
- the same forests with ``n_jobs=-1`` on our side, against ours with ``n_jobs=1`` (the speed-up
  on this machine) and against scikit-learn's with ``n_jobs=-1``: printed, no target;
- ``predict_proba`` of a 100-tree forest, <= 0.5: 200 x 200 grids over two breast-cancer and
  two iris features, and 5000 perturbed breast-cancer rows;
- data with 5% gaps (NaN), 20,000 x 27: a tree and a 20-tree forest, <= 0.5 each.

A case the installed libraries cannot run (our forests without ``n_jobs``, a scikit-learn that
rejects NaN) is still listed, with the reason it is skipped. Listing the cases builds nothing:
each case's data and estimators are made when it runs.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sklearn
from numpy.typing import NDArray
from sklearn import ensemble as sk_ensemble
from sklearn import tree as sk_tree
from sklearn.datasets import make_classification

from core import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from core.data.catalogue import load_dataset

FloatArray = NDArray[np.float64]
Run = Callable[[], object]

#: The catalogue's datasets, then the generated tables (all classification, ``random_state=0``).
CATALOGUE = ("iris", "wine", "breast_cancer", "sine")
GAPS = "20000x27 5% NaN"
GENERATED = {"5000x20": (5000, 20, 0.0), "20000x20": (20_000, 20, 0.0), GAPS: (20_000, 27, 0.05)}


@dataclass(frozen=True)
class Table:
    """A dataset as both libraries receive it."""

    X: FloatArray
    y: NDArray[Any]
    classification: bool


@dataclass(frozen=True)
class Case:
    """One timed comparison.

    Attributes
    ----------
    name : str
        What is timed; the reference is scikit-learn with ``n_jobs=1`` unless it says otherwise.
    target : float or None
        The largest ratio ours / reference the engine issue accepts; None: printed only.
    prepare : callable
        Builds the data and the estimators and returns the two runs to time, ours first.
        Nothing is built before a case runs, so listing the cases costs nothing.
    big : bool, default False
        Seconds per run: at most :data:`bench.bench_core.BIG_REPEATS` timed runs, and left
        out by ``--quick``.
    skipped : str, default ""
        Why the installed libraries cannot run the case; "" when they can.
    """

    name: str
    target: float | None
    prepare: Callable[[], tuple[Run, Run]]
    big: bool = False
    skipped: str = ""


# -- data and estimators ---------------------------------------------------------------------


@functools.cache
def table(name: str) -> Table:
    """A catalogue dataset by name, or a generated one (:data:`GENERATED`: rows, columns, and
    the share of entries set to NaN by ``np.random.default_rng(0)``)."""
    if name in GENERATED:
        n_samples, n_features, gaps = GENERATED[name]
        X, y = make_classification(n_samples=n_samples, n_features=n_features, random_state=0)
        X[np.random.default_rng(0).random(X.shape) < gaps] = np.nan
        return Table(X, y, classification=True)
    dataset = load_dataset(name)
    return Table(dataset.X, dataset.y, classification=dataset.task == "classification")


def our_tree(classification: bool, *, max_depth: int | None) -> Any:
    """Our tree for the task."""
    estimator = DecisionTreeClassifier if classification else DecisionTreeRegressor
    return estimator(max_depth=max_depth, random_state=0)


def their_tree(classification: bool, *, max_depth: int | None) -> Any:
    """scikit-learn's tree for the task."""
    estimator = sk_tree.DecisionTreeClassifier if classification else sk_tree.DecisionTreeRegressor
    return estimator(max_depth=max_depth, random_state=0)


def our_forest(classification: bool, *, n_estimators: int, n_jobs: int) -> Any:
    """Our forest for the task; ``n_jobs`` is passed only where our forests accept it (before
    that they use one thread, which is what ``n_jobs=1`` asks for)."""
    estimator = RandomForestClassifier if classification else RandomForestRegressor
    forest = estimator(n_estimators, random_state=0)
    if "n_jobs" in forest.get_params():
        forest.set_params(n_jobs=n_jobs)
    return forest


def their_forest(classification: bool, *, n_estimators: int, n_jobs: int) -> Any:
    """scikit-learn's forest for the task."""
    estimator = (
        sk_ensemble.RandomForestClassifier if classification else sk_ensemble.RandomForestRegressor
    )
    return estimator(n_estimators, random_state=0, n_jobs=n_jobs)


def our_forests_take_n_jobs() -> bool:
    """Whether our forests accept scikit-learn's ``n_jobs`` (None or 1: one thread, -1: all)."""
    return all(
        "n_jobs" in f().get_params() for f in (RandomForestClassifier, RandomForestRegressor)
    )


def sklearn_takes_nan(estimator: Any) -> bool:
    """Whether this scikit-learn estimator fits on data with NaN (forests: scikit-learn 1.4)."""
    try:
        estimator.fit(np.array([[0.0], [np.nan], [1.0], [2.0]]), np.array([0, 0, 1, 1]))
    except ValueError:
        return False
    return True


def grid(X: FloatArray, side: int = 200) -> FloatArray:
    """A decision-boundary grid: ``side`` x ``side`` points, row by row.

    Parameters
    ----------
    X : ndarray of shape (n_samples, 2)
    side : int, default 200
        Points per axis, evenly spaced over each column's range plus 5% of it on both ends.

    Returns
    -------
    ndarray of shape (side * side, 2)
    """
    axes = []
    for column in X.T:
        pad = 0.05 * (column.max() - column.min())
        axes.append(np.linspace(column.min() - pad, column.max() + pad, side))
    xx, yy = np.meshgrid(*axes)
    return np.column_stack([xx.ravel(), yy.ravel()])


def perturbed(X: FloatArray, n_rows: int = 5000) -> FloatArray:
    """``n_rows`` random rows around the data, shape ``(n_rows, n_features)``: each column
    drawn from a normal law with that column's mean and standard deviation
    (``np.random.default_rng(0)``). Unlike a grid's, neighbouring rows rarely end in the same
    leaves, so prediction cannot profit from order."""
    rng = np.random.default_rng(0)
    return rng.normal(X.mean(0), X.std(0), size=(n_rows, X.shape[1]))


# -- cases -----------------------------------------------------------------------------------


def fit_case(
    name: str,
    target: float | None,
    data: str,
    ours: Callable[[bool], Any],
    theirs: Callable[[bool], Any],
    *,
    big: bool = False,
    skipped: str = "",
) -> Case:
    """Time ``fit`` of two estimators on the same data.

    Parameters
    ----------
    name : str
    target : float or None
        The largest ratio accepted; None for a case that is printed only.
    data : str
        A :func:`table` name.
    ours, theirs : callable
        Make the estimators, given whether the data is a classification task.
    big : bool, default False
    skipped : str, default ""
        See :class:`Case`.
    """

    def prepare() -> tuple[Run, Run]:
        t = table(data)
        mine, reference = ours(t.classification), theirs(t.classification)
        return (lambda: mine.fit(t.X, t.y)), (lambda: reference.fit(t.X, t.y))

    return Case(name, target, prepare, big=big, skipped=skipped)


def predict_case(
    name: str, data: str, columns: Sequence[int] | None, rows: Callable[[FloatArray], FloatArray]
) -> Case:
    """Time ``predict_proba`` of two fitted 100-tree forests (one thread each), target 0.5.

    Parameters
    ----------
    name : str
    data : str
        A :func:`table` name; both forests are fit on it when the case runs (not timed).
    columns : sequence of int or None
        The columns both forests are fit on; None: all of them.
    rows : callable
        Makes the rows to predict from the fitting data restricted to ``columns``.
    """

    def prepare() -> tuple[Run, Run]:
        t = table(data)
        X = t.X if columns is None else t.X[:, list(columns)]
        mine = our_forest(True, n_estimators=100, n_jobs=1).fit(X, t.y)
        reference = their_forest(True, n_estimators=100, n_jobs=1).fit(X, t.y)
        points = rows(X)
        return (lambda: mine.predict_proba(points)), (lambda: reference.predict_proba(points))

    return Case(name, 0.5, prepare)


def tree_cases() -> list[Case]:
    """Single trees, both depths, target 0.3."""
    out = []
    for data in (*CATALOGUE, "5000x20", "20000x20"):
        for depth in (None, 5):
            ours = functools.partial(our_tree, max_depth=depth)
            theirs = functools.partial(their_tree, max_depth=depth)
            out.append(fit_case(f"tree fit {data} max_depth={depth}", 0.3, data, ours, theirs))
    return out


def forest_cases() -> list[Case]:
    """100-tree forests: one thread (target 0.3, or 0.5 from 5000 rows), then all cores on
    our side against ours on one thread and against scikit-learn on all cores (no target)."""
    skipped = "" if our_forests_take_n_jobs() else "our forests do not accept n_jobs yet"
    ours_1 = functools.partial(our_forest, n_estimators=100, n_jobs=1)
    ours_all = functools.partial(our_forest, n_estimators=100, n_jobs=-1)
    theirs_1 = functools.partial(their_forest, n_estimators=100, n_jobs=1)
    theirs_all = functools.partial(their_forest, n_estimators=100, n_jobs=-1)
    out = []
    for data in (*CATALOGUE, "5000x20", "20000x20"):
        big = data in GENERATED
        name = f"forest fit {data} 100 trees"
        out.append(fit_case(name, 0.5 if big else 0.3, data, ours_1, theirs_1, big=big))
        for label, reference in (
            ("ours n_jobs=1", ours_1),
            ("scikit-learn n_jobs=-1", theirs_all),
        ):
            out.append(
                fit_case(
                    f"{name} n_jobs=-1 / {label}",
                    None,
                    data,
                    ours_all,
                    reference,
                    big=big,
                    skipped=skipped,
                )
            )
    return out


def predict_cases() -> list[Case]:
    """``predict_proba`` of 100-tree forests: two boundary grids and arbitrary rows."""
    return [
        predict_case(
            "forest predict_proba 200x200 grid breast_cancer features 0,1",
            "breast_cancer",
            (0, 1),
            grid,
        ),
        predict_case(
            "forest predict_proba 200x200 grid iris petals (features 2,3)", "iris", (2, 3), grid
        ),
        predict_case(
            "forest predict_proba 5000 perturbed breast_cancer rows",
            "breast_cancer",
            None,
            perturbed,
        ),
    ]


def gap_cases() -> list[Case]:
    """A tree and a 20-tree forest on 20,000 x 27 with 5% NaN, target 0.5 each."""
    tree = (
        f"tree fit {GAPS}",
        functools.partial(our_tree, max_depth=None),
        functools.partial(their_tree, max_depth=None),
    )
    forest = (
        f"forest fit {GAPS} 20 trees",
        functools.partial(our_forest, n_estimators=20, n_jobs=1),
        functools.partial(their_forest, n_estimators=20, n_jobs=1),
    )
    out = []
    for name, ours, theirs in (tree, forest):
        takes_nan = sklearn_takes_nan(theirs(True))
        skipped = "" if takes_nan else f"scikit-learn {sklearn.__version__} rejects NaN here"
        out.append(fit_case(name, 0.5, GAPS, ours, theirs, big=True, skipped=skipped))
    return out


def cases() -> list[Case]:
    """Every comparison the engine issue asks for, in the order they run."""
    return tree_cases() + forest_cases() + predict_cases() + gap_cases()
