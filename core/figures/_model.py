"""The slice of our estimators' interface the figure builders read, and small helpers on it.

The builders take our own fitted models (:mod:`core.engine`), described here as Protocols: what
a fitted tree, a fitted forest and a classifier answer. Our estimators derive from
scikit-learn's untyped base classes, so mypy accepts them for any Protocol; the runtime checks
(:func:`trees_of`, :func:`classes_of`) are what turn a wrong model into a clear error.

Those checks ask for the attributes by name (:func:`_answers`) rather than ``isinstance`` on a
runtime-checkable Protocol, which asks for the same attributes but first lists the Protocol's
members again on every call under Python 3.11: 18-20 microseconds against 0.1, and the
builders ask once per tree, on every run of a page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, cast, runtime_checkable

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.sparse import csr_matrix

from core.data.datasets import Task
from core.engine.criteria import Criterion
from core.engine.structure import Tree

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]


class FittedTree(Protocol):
    """A fitted tree of ours: :class:`~core.engine.tree.DecisionTreeClassifier` or ``...Regressor``.

    Its flat arrays (``tree_``), the hyperparameters the figures explain, and the row-wise
    queries. A forest's trees (``estimators_``) are fitted trees too.
    """

    tree_: Tree  # an attribute, not read-only: the pruning walk swaps it on a private copy

    @property
    def criterion(self) -> Criterion: ...  # checked by fit
    @property
    def min_samples_split(self) -> int | float: ...
    @property
    def min_samples_leaf(self) -> int | float: ...
    @property
    def n_features_in_(self) -> int: ...
    @property
    def feature_importances_(self) -> FloatArray: ...
    def apply(self, X: ArrayLike) -> NDArray[np.int64]: ...
    def decision_path(self, X: ArrayLike) -> csr_matrix: ...
    def predict(self, X: ArrayLike) -> NDArray[Any]: ...
    def score(self, X: ArrayLike, y: ArrayLike) -> float: ...


class _Ensemble(Protocol):
    """Anything with trees in ``estimators_``: how a forest is told from a tree at run time."""

    @property
    def estimators_(self) -> Sequence[FittedTree]: ...


class FittedForest(_Ensemble, Protocol):
    """A fitted forest of ours: its trees, and the per-tree and staged queries.

    ``staged_scores(X, y)`` is the one staged-score implementation: the score of the first
    ``k`` trees for every ``k``, its last entry equal to ``score(X, y)``.
    """

    @property
    def feature_importances_(self) -> FloatArray: ...
    def predict(self, X: ArrayLike) -> NDArray[Any]: ...
    def predict_per_tree(self, X: ArrayLike) -> FloatArray: ...
    def staged_scores(self, X: ArrayLike, y: ArrayLike) -> FloatArray: ...
    def score(self, X: ArrayLike, y: ArrayLike) -> float: ...


#: A fitted tree or forest of ours.
FittedModel = FittedTree | FittedForest


@runtime_checkable  # for a check made once per figure (``compute_boundary``)
class Classifier(Protocol):
    """What a fitted classifier adds, tree or forest: its sorted labels and probabilities."""

    @property
    def classes_(self) -> NDArray[Any]: ...
    def predict(self, X: ArrayLike) -> NDArray[Any]: ...
    def predict_proba(self, X: ArrayLike) -> FloatArray: ...


#: The members of :class:`_Ensemble` and :class:`Classifier`, asked for by name.
_ENSEMBLE = ("estimators_",)
_CLASSIFIER = ("classes_", "predict", "predict_proba")


def _answers(model: object, members: tuple[str, ...]) -> bool:
    """Whether ``model`` has every one of ``members``: the test ``isinstance`` makes against a
    runtime-checkable Protocol of those members, without its cost (see the module's notes)."""
    return all(hasattr(model, name) for name in members)


def is_forest(model: object) -> bool:
    """True when ``model`` is a fitted ensemble (it has ``estimators_``)."""
    return _answers(model, _ENSEMBLE)


def is_classifier(model: object) -> bool:
    """True when ``model`` is a fitted classifier (``classes_``, ``predict_proba``...)."""
    return _answers(model, _CLASSIFIER)


def trees_of(model: FittedModel) -> Sequence[FittedTree]:
    """The trees of ``model``: a forest's ``estimators_``, or the tree itself alone."""
    if is_forest(model):
        return cast(_Ensemble, model).estimators_
    return [cast(FittedTree, model)]


def task_of(model: object) -> Task:
    """``"classification"`` for a classifier (it has ``classes_``), else ``"regression"``."""
    return "classification" if is_classifier(model) else "regression"


def score(model: Any, X: FloatArray, y: ArrayLike) -> float:
    """``model.score(X, y)`` by its formula: accuracy, or R².

    Accuracy is the share of rows predicted right. R² is :math:`1 - \\sum (y - \\hat y)^2 /
    \\sum (y - \\bar y)^2`; when every target is equal (the denominator is 0) it is 1 if all
    are hit, else 0, as scikit-learn's ``r2_score`` gives. scikit-learn's metric functions check
    their inputs on every call, which costs several times the formula's work on a test set,
    and a depth curve scores forty trees or more.

    Parameters
    ----------
    model : fitted tree or forest
    X : ndarray of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        True labels (classification) or values (regression).
    """
    y, predicted = np.asarray(y), model.predict(X)
    if task_of(model) == "classification":
        return float(np.mean(predicted == y))
    residual = float(np.sum((y - predicted) ** 2))
    spread = float(np.sum((y - np.mean(y)) ** 2))
    if spread == 0.0:
        return 1.0 if residual == 0.0 else 0.0
    return 1.0 - residual / spread


def score_name(task: Task) -> str:
    """What a model's ``score`` measures for a task: ``"accuracy"``, or ``"R²"`` for regression."""
    return "accuracy" if task == "classification" else "R²"


def classes_of(model: object) -> NDArray[Any]:
    """The class labels of a fitted classifier, sorted (``classes_``).

    Raises
    ------
    TypeError
        When ``model`` is not a fitted classifier.
    """
    if not is_classifier(model):
        raise TypeError(f"model must be a fitted classifier, got {type(model).__name__}")
    return np.asarray(cast(Classifier, model).classes_)


def n_trees(model: FittedModel) -> int:
    """Number of trees in ``model``: ``len(estimators_)`` for a forest, 1 for a tree."""
    return len(trees_of(model))


def select_tree(model: FittedModel, tree_index: int | None) -> FittedTree:
    """The tree to draw: ``model`` itself, or ``model.estimators_[tree_index]`` for a forest.

    Raises
    ------
    ValueError
        When ``tree_index`` is out of range, or given for a single tree, or missing for a forest.
    TypeError
        When the chosen object has no ``tree_``.
    """
    if is_forest(model):
        estimators = trees_of(model)
        if tree_index is None:
            raise ValueError("tree_index is required for a forest: which tree should be drawn?")
        if not 0 <= tree_index < len(estimators):
            raise ValueError(
                f"tree_index must be in [0, {len(estimators) - 1}] for this forest, "
                f"got {tree_index}"
            )
        tree = estimators[tree_index]
    else:
        if tree_index not in (None, 0):
            raise ValueError(f"tree_index must be None (or 0) for a single tree, got {tree_index}")
        tree = trees_of(model)[0]
    if not hasattr(tree, "tree_"):
        raise TypeError(
            "model must be a fitted decision tree or forest (with tree_), "
            f"got {type(tree).__name__}"
        )
    return tree


def as_2d(X: ArrayLike, name: str = "X") -> FloatArray:
    """``X`` as a 2-D float array, with a clear message when it is not one."""
    array = np.asarray(X, dtype=float)
    if array.ndim == 1:
        array = array.reshape(1, -1)
    if array.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n_samples, n_features), got shape {array.shape}")
    return array


def encode_labels(classes: np.ndarray, y: ArrayLike) -> IntArray:
    """Positions of the labels ``y`` in ``classes`` (sorted, as ``classes_`` always is).

    Raises
    ------
    ValueError
        When a label is not one of ``classes``.
    """
    labels = np.asarray(y)
    codes = np.searchsorted(classes, labels)
    codes = np.clip(codes, 0, len(classes) - 1)
    if not np.array_equal(np.asarray(classes)[codes], labels):
        unknown = sorted(set(labels.tolist()) - set(np.asarray(classes).tolist()))
        raise ValueError(f"y has labels the model was not fitted on: {unknown[:5]}")
    return codes.astype(np.intp)
