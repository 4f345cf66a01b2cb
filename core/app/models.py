"""What a model is grown from: plain, hashable specs, the cache keys of fitted models.

A spec holds everything that decides a fitted model, so two visitors asking for the same
spec share one cached fit. The specs are built from a page's settings here, once, instead
of in every page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Self

import numpy as np

from core.app.cost import ForestCost, forest_cost
from core.app.settings import (
    TEST_SIZE,
    DatasetShape,
    Model,
    Settings,
    estimator_arguments,
    estimator_names,
)
from core.data.datasets import Dataset, Split
from core.data.source import Source
from core.engine import DecisionTreeClassifier, RandomForestClassifier
from core.figures import BoundaryData, RegressionLines, compute_boundary, compute_regression_lines


def source_of(settings: Settings, shape: DatasetShape) -> Source:
    """The rows ``settings`` show: how they are generated, for a generated set only.

    Settings left over from a generated set (noise, points, data seed) are no part of a
    table's source, so they make no second cache entry of its rows.
    """
    if shape.rows_key:
        return Source(shape.kind, shape.rows_key)
    if shape.noise is not None:
        return Source.generated(
            settings.dataset, settings.noise, settings.n_samples, settings.data_seed
        )
    return Source.table(settings.dataset)


@dataclass(frozen=True)
class DataSpec:
    """Which rows a model sees: the dataset's source and its train/test split."""

    source: Source
    seed: int = 0
    test_size: float = TEST_SIZE


def data_spec(settings: Settings, shape: DatasetShape) -> DataSpec:
    """The rows and split ``settings`` ask for."""
    return DataSpec(source_of(settings, shape), settings.seed, settings.test_size)


@dataclass(frozen=True, init=False)
class ModelSpec:
    """Everything that decides a fitted model: its rows and its estimator's arguments.

    The rows are fields (``source``, ``columns``, ``seed``, ``test_size``); the estimator's
    arguments are exactly those the settings table feeds the model
    (:func:`core.app.settings.table.estimator_names`), read as attributes (``spec.max_depth``)
    and changed as fields (``spec.replace(max_depth=2)``). An argument not given is the
    estimator's own default, so two specs of the same model compare equal (one cache entry)
    whichever page built them. No argument is declared here: a new table entry naming one
    reaches the estimator with no edit in this module.

    Raises
    ------
    TypeError
        On an argument the table does not feed this model (a misspelt name, a forest's
        ``n_estimators`` given to a tree).
    """

    #: The model whose table entries this spec holds.
    model: ClassVar[Model]
    #: Its estimator for defaults (a regression names its criterion: ``criterion_for``).
    estimator: ClassVar[type[Any]]

    source: Source
    columns: tuple[int, ...]
    seed: int
    test_size: float
    #: The estimator's arguments, ``(name, value)`` sorted by name: hashable, one order.
    hyperparameters: tuple[tuple[str, Any], ...]

    def __init__(
        self,
        source: Source,
        columns: tuple[int, ...],
        seed: int = 0,
        test_size: float = TEST_SIZE,
        hyperparameters: tuple[tuple[str, Any], ...] = (),
        **arguments: Any,
    ) -> None:
        given = {**dict(hyperparameters), **arguments}
        names = estimator_names(self.model)
        unknown = sorted(given.keys() - names)
        if unknown:
            raise TypeError(
                f"{type(self).__name__} takes the estimator arguments the settings table feeds "
                f"a {self.model} ({', '.join(sorted(names))}); got {', '.join(unknown)}"
            )
        defaults = self.estimator().get_params()  # scikit-learn's: the estimator's own
        held = tuple((name, given.get(name, defaults[name])) for name in sorted(names))
        # Frozen: the fields are set once, here (dataclasses.replace comes back through here).
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "columns", tuple(columns))
        object.__setattr__(self, "seed", seed)
        object.__setattr__(self, "test_size", test_size)
        object.__setattr__(self, "hyperparameters", held)

    def __getattr__(self, name: str) -> Any:
        # Only for names that are no field: an estimator argument (``spec.max_depth``).
        if not name.startswith("_") and name not in _FIELDS:
            for key, value in self.hyperparameters:
                if key == name:
                    return value
        raise AttributeError(f"{type(self).__name__} has no {name!r}")

    def replace(self, **changes: Any) -> Self:
        """This spec with ``changes``: rows or estimator arguments, by name."""
        return replace(self, **changes)

    def arguments(self) -> dict[str, Any]:
        """The estimator's keyword arguments (``random_state`` is the seed)."""
        return {**dict(self.hyperparameters), "random_state": self.seed}

    @property
    def data(self) -> DataSpec:
        """The rows this model is grown on and scored with."""
        return DataSpec(self.source, self.seed, self.test_size)


_FIELDS = frozenset({"source", "columns", "seed", "test_size", "hyperparameters"})


class TreeSpec(ModelSpec):
    """Everything that decides a fitted tree; the cache key of ``ui.fit_tree``."""

    model: ClassVar[Model] = "tree"
    estimator: ClassVar[type[Any]] = DecisionTreeClassifier


class ForestSpec(ModelSpec):
    """Everything that decides a fitted forest; the cache key of ``ui.fit_forest``."""

    model: ClassVar[Model] = "forest"
    estimator: ClassVar[type[Any]] = RandomForestClassifier

    def arguments(self) -> dict[str, Any]:
        """The estimator's keyword arguments: out-of-bag scores whenever it bootstraps."""
        return {**super().arguments(), "oob_score": self.bootstrap}


def columns(settings: Settings, shape: DatasetShape) -> tuple[int, ...]:
    """Feature columns a model is grown on: the plotted pair, all, or the one of a regression."""
    if shape.task == "regression" or getattr(settings, "fit", "pair") == "all":
        return tuple(range(shape.n_features))
    return (settings.x, settings.y)


def criterion_for(settings: Settings, shape: DatasetShape) -> str:
    """The criterion a tree is grown with: the chosen one to classify, squared error to regress."""
    if shape.task == "regression":
        return "squared_error"
    return str(getattr(settings, "criterion", "gini"))


def _spec_values(settings: Settings, shape: DatasetShape, model: Model) -> dict[str, Any]:
    """A spec's values from ``settings``: its rows, columns and the estimator's arguments."""
    return {
        **estimator_arguments(settings, model),
        "criterion": criterion_for(settings, shape),
        "source": source_of(settings, shape),
        "columns": columns(settings, shape),
        "seed": settings.seed,
        "test_size": settings.test_size,
    }


def tree_spec(settings: Settings, shape: DatasetShape, **changes: Any) -> TreeSpec:
    """The tree ``settings`` describe; ``changes`` override single fields (``max_depth=2``).

    The estimator's arguments are the settings the table says feed a tree
    (:func:`core.app.settings.estimator_arguments`); those a page does not have keep the
    tree's defaults (no pruning, leaves of one, every feature at every split).
    """
    return TreeSpec(**{**_spec_values(settings, shape, "tree"), **changes})


def forest_spec(settings: Settings, shape: DatasetShape, **changes: Any) -> ForestSpec:
    """The forest ``settings`` describe; ``changes`` override single fields."""
    return ForestSpec(**{**_spec_values(settings, shape, "forest"), **changes})


def affordable(spec: ForestSpec, view: ModelView) -> tuple[ForestSpec, ForestCost]:
    """``spec`` with no more trees than a shared server grows (``core.app.cost``), and its cost.

    This is the one estimate of a forest's cost: from the rows it is grown on, ``view``'s
    training rows (``ui.view`` of the same settings), on its columns. The forest asked for is
    kept when its estimate is under the ceiling; otherwise the first ``cost.grown`` trees of
    it (the same trees: a seeded forest's prefix). ``ui.fit_forest`` and ``ui.forest_curve``
    take the pair as it is returned, and estimate nothing again.

    Raises
    ------
    ValueError
        If ``view`` does not show ``spec``'s columns.
    """
    if view.columns != spec.columns:
        raise ValueError(
            f"view must show the forest's columns {spec.columns}; got columns {view.columns}"
        )
    cost = forest_cost(
        spec.n_estimators,
        len(view.y_train),
        len(view.columns),
        spec.max_features,
        spec.max_depth,
    )
    return spec.replace(n_estimators=cost.grown), cost


@dataclass(frozen=True, eq=False)
class ModelView:
    """What a page's models are grown on and scored with, sliced to the chosen columns once.

    The slices are made when the view is made (``ui.view`` caches views, so once per dataset,
    split and columns), not on every read: a page reads ``X_test`` several times a run. They
    are read-only, like the split they come from, because every visitor shares them.

    Attributes
    ----------
    data : Dataset
        The whole dataset (names, task, description).
    rows : Split
        Its train/test split, all columns.
    columns : tuple of int
        The columns the models see; ``X_train`` and ``X_test`` hold only these.
    names : tuple of str
        Their feature names.
    categories : tuple of (tuple of str, str) or None
        Per model column, ``(text column, level)`` for a one-hot column, else None.
    X_train : ndarray of shape (n_train, len(columns))
        The training rows, these columns only; read-only.
    X_test : ndarray of shape (n_test, len(columns))
        The test rows, these columns only; read-only.
    """

    data: Dataset
    rows: Split
    columns: tuple[int, ...]
    names: tuple[str, ...] = field(init=False)
    categories: tuple[tuple[str, str] | None, ...] = field(init=False, repr=False)
    X_train: np.ndarray = field(init=False, repr=False)
    X_test: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # The class is frozen, so the slices are set here, once, with object.__setattr__.
        chosen = list(self.columns)
        X_train = self.rows.X_train[:, chosen]  # a list of columns picks a copy, ours alone
        X_test = self.rows.X_test[:, chosen]
        X_train.setflags(write=False)
        X_test.setflags(write=False)
        categories = self.data.categories or (None,) * self.data.n_features
        object.__setattr__(self, "names", tuple(self.data.feature_names[c] for c in chosen))
        object.__setattr__(self, "categories", tuple(categories[c] for c in chosen))
        object.__setattr__(self, "X_train", X_train)
        object.__setattr__(self, "X_test", X_test)

    @property
    def y_train(self) -> np.ndarray:
        return self.rows.y_train

    @property
    def y_test(self) -> np.ndarray:
        return self.rows.y_test

    @property
    def classify(self) -> bool:
        return self.data.task == "classification"

    @property
    def class_names(self) -> tuple[str, ...]:
        return tuple(self.data.class_names)

    def boundary(
        self,
        model: Any,
        pair: tuple[int, int],
        *,
        edges_from: Sequence[Any] = (),
        through_sample: int | None = None,
        through_row: np.ndarray | None = None,
        through_name: str = "",
        stand_in: bool = False,
    ) -> BoundaryData:
        """``model``'s decision regions over the columns ``pair`` (positions in ``columns``).

        On more than two columns the picture is a slice; with ``through_sample`` it passes
        through that test sample, so the sample's star sits in the region of the class the
        model gives it; ``through_row`` (values of ``columns``, named ``through_name``) does
        the same for any row, an edited one. Without, through the training medians. With
        ``stand_in``, it is no slice but the regions of the same estimator grown on ``pair``
        alone (:func:`~core.figures.boundary.grown_on_pair`), which a class can read.
        """
        through = through_row
        if through_sample is not None:
            through, through_name = self.X_test[through_sample], f"test sample #{through_sample}"
        return compute_boundary(
            model,
            self.X_train,
            self.y_train,
            X_test=self.X_test,
            y_test=self.y_test,
            features=pair,
            feature_names=list(self.names),
            class_names=list(self.class_names),
            train_ids=self.rows.train_index,
            test_ids=self.rows.test_index,
            edges_from=tuple(edges_from) or None,
            through=through,
            through_name=through_name,
            stand_in=stand_in,
        )

    def regression_lines(self, models: Mapping[str, Any]) -> RegressionLines:
        """The fitted curves of ``models`` (by legend name) over the one feature."""
        return compute_regression_lines(
            dict(models),
            self.X_train,
            self.y_train,
            X_test=self.X_test,
            y_test=self.y_test,
            feature_name=self.names[0],
            train_ids=self.rows.train_index,
            test_ids=self.rows.test_index,
        )

    def sample_xy(self, sample: int, pair: tuple[int, int]) -> tuple[float, float]:
        """Plot coordinates of test sample ``sample``: two features, or x and y for a fit."""
        if not self.classify:
            return float(self.X_test[sample, 0]), float(self.y_test[sample])
        return float(self.X_test[sample, pair[0]]), float(self.X_test[sample, pair[1]])

    def test_xy(self, pair: tuple[int, int]) -> np.ndarray:
        """Plot coordinates of every test sample, shape ``(n_test, 2)``."""
        if not self.classify:
            return np.column_stack([self.X_test[:, 0], self.y_test])
        return self.X_test[:, list(pair)]


def plotted_pair(settings: Settings) -> tuple[int, int]:
    """Positions, in a model's columns, of the two features the boundary plots."""
    if getattr(settings, "fit", "pair") == "all":
        return (settings.x, settings.y)
    return (0, 1)


__all__ = [
    "DataSpec",
    "ForestSpec",
    "ModelSpec",
    "ModelView",
    "TreeSpec",
    "affordable",
    "columns",
    "criterion_for",
    "data_spec",
    "forest_spec",
    "plotted_pair",
    "source_of",
    "tree_spec",
]
