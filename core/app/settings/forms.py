"""A page's settings: the :class:`Form` of a page, its :class:`Settings`, and what parsing
needs to know about a dataset (:class:`DatasetShape`).

A :class:`Form` is one page's settings: the entries of the table whose defaults name that
page. :class:`Settings` is one value of a form, checked once, where the values enter (from a
URL, from the widgets, from code).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from core.app.settings.table import BY_PAGE, FOREST, GINI, SINGLE, STEP
from core.app.settings.values import Model, Setting
from core.data.datasets import Task
from core.data.puzzles import noise_scale

#: Where a dataset comes from: a ready-made table, a generator (the sine, the 2-D puzzles),
#: or this session's own data (an uploaded table, points drawn by hand).
DataKind: TypeAlias = Literal["table", "generated", "upload", "drawn"]
#: The kinds a link can carry: the session's own data lives only in the session.
SHAREABLE_KINDS: tuple[DataKind, ...] = ("table", "generated")


@dataclass(frozen=True)
class DatasetShape:
    """What parsing needs to know about a dataset to check the settings that refer to it.

    ``pair`` is the two feature indices the boundary plot starts with (the manifest's
    ``suggested_pair``). ``noise`` is a generated dataset's default noise, None for a table
    (whose rows no noise setting can change), and ``noise_max`` the most it may be set to;
    ``n_samples`` is a generated dataset's default number of points. ``rows_key`` is a
    session's own data's private key, its :class:`~core.data.source.Source`'s key and so the
    caches' (see :mod:`core.app.own_data`), never its public name; empty for the catalogue's.
    """

    task: Task
    n_samples: int
    n_features: int
    pair: tuple[int, int] = (0, 1)
    noise: float | None = None
    noise_max: float | None = None
    kind: DataKind = "table"
    title: str = ""
    rows_key: str = ""

    @property
    def generated(self) -> bool:
        """Whether points, noise and data seed settings make its rows."""
        return self.kind == "generated"


Catalogue: TypeAlias = Mapping[str, DatasetShape]


def dataset_defaults(shape: DatasetShape) -> dict[str, Any]:
    """The settings whose default is the dataset's own: its suggested pair and, for a generated
    set, its noise and number of points (a link before these settings existed means them)."""
    own: dict[str, Any] = {"x": shape.pair[0], "y": shape.pair[1]}
    if shape.generated and shape.noise is not None:
        own.update(noise=shape.noise, n_samples=shape.n_samples)
    return own


@dataclass(frozen=True)
class Form:
    """One page's settings: the entries of :data:`TABLE` that name it, with its defaults.

    Calling a form makes its :class:`Settings` from values (the rest are its defaults), and
    raises ``ValueError`` on a value its entry does not accept: code, not users, gets that
    far (user input goes through :func:`parse` and :func:`merge`).
    """

    key: str
    classification_only: bool = False

    @property
    def entries(self) -> Mapping[str, Setting]:
        return BY_PAGE[self.key]

    def shows(self, shape: DatasetShape) -> bool:
        """Whether this page can show a dataset of ``shape`` (a regression set or not)."""
        return shape.task == "classification" or not self.classification_only

    def __call__(self, **values: Any) -> Settings:
        entries = self.entries
        held: dict[str, Any] = {}
        for name, entry in entries.items():
            value = values.pop(name, entry.defaults[self.key])
            if entry.kind == "float" and isinstance(value, (int, float)):
                value = round(float(value), 6)  # slider arithmetic gives 0.15000000000000002
            if entry.kind == "values" and isinstance(value, (list, tuple)):
                value = _as_edits(value)
            if name != "dataset" and not entry.accepts(value):
                raise ValueError(f"{name} must be {entry.words}; got {value!r}")
            held[name] = value
        if values:
            raise ValueError(f"{self.key} has no settings {sorted(values)}")
        return Settings(self, tuple(held.items()))


def _as_edits(value: Sequence[Any]) -> Any:
    """Edits in their one form: ``(feature, float or None)`` pairs, as a tuple, by feature.

    Anything that is not pairs comes back as a tuple, for :meth:`Setting.accepts` to refuse.
    """
    try:
        pairs = sorted((tuple(pair) for pair in value), key=lambda pair: pair[0])
        return tuple((f, float(v) if type(v) is int else v) for f, v in pairs)
    except (TypeError, ValueError):  # not pairs, or features that do not compare
        return tuple(value)


@dataclass(frozen=True)
class Settings:
    """One value of a :class:`Form`: read its settings as attributes (``settings.max_depth``)."""

    form: Form
    items: tuple[tuple[str, Any], ...]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("form", "items"):
            raise AttributeError(name)
        for key, value in self.items:
            if key == name:
                return value
        raise AttributeError(f"{self.form.key} settings have no {name!r}")

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={value!r}" for name, value in self.items)
        return f"{self.form.key}({values})"

    def values(self) -> dict[str, Any]:
        return dict(self.items)

    def replace(self, **changes: Any) -> Settings:
        """These settings with ``changes``, checked as the form checks."""
        return self.form(**{**dict(self.items), **changes})


SingleTreeSettings = Form(SINGLE)
RandomForestSettings = Form(FOREST)
GiniEntropySettings = Form(GINI, classification_only=True)
GrowStepSettings = Form(STEP)
SETTINGS: tuple[Form, ...] = (
    SingleTreeSettings,
    RandomForestSettings,
    GiniEntropySettings,
    GrowStepSettings,
)


def default_catalogue() -> dict[str, DatasetShape]:
    """The built-in datasets, as ``core.data.catalogue`` lists them."""
    from core.data.catalogue import list_datasets

    shapes = {}
    for info in list_datasets():
        generated = info.noise is not None
        shapes[info.name] = DatasetShape(
            info.task,
            info.n_samples,
            info.n_features,
            info.pair,
            info.noise,
            noise_scale(info.name, info.noise) if info.noise is not None else None,
            "generated" if generated else "table",
            info.title,
        )
    return shapes


def n_tree_columns(settings: Settings, shape: DatasetShape) -> int:
    """How many features a page's model is grown on: the plotted pair, or all of them."""
    if shape.task == "regression" or getattr(settings, "fit", "pair") == "all":
        return shape.n_features
    return 2


def estimator_arguments(settings: Settings, model: Model) -> dict[str, Any]:
    """The keyword arguments ``settings`` give ``model``'s estimator, as the table says.

    Every entry of the page naming an estimator argument for ``model`` gives its value, as the
    estimator takes it (:meth:`Setting.argument`: "all" features per split is ``None``). The
    criterion is the one chosen; a regression's is squared error whatever it is
    (``core.app.models.criterion_for``).
    """
    return {
        entry.estimator: entry.argument(getattr(settings, name))
        for name, entry in settings.form.entries.items()
        if entry.estimator is not None and model in entry.models
    }
