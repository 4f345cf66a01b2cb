"""Every setting of the app, declared once, and a page's settings read from and written to the URL.

:data:`TABLE` holds one :class:`Setting` per name: its rule (kind and limits, read from a URL
and written back as text), its default on each page that shows it, its label and help, the
widget that shows it and the estimator argument it feeds. A :class:`Form` is one page's
settings: the entries whose defaults name that page. :class:`Settings` is one value of a
form, checked once, where the values enter (from a URL, from the widgets, from code).

``parse`` turns a query string (as ``st.query_params`` or ``AppTest.query_params`` hands it
over: ``str`` or ``list[str]`` per key) into settings plus a list of short notices for
whatever had to fall back to its default; ``to_query`` is the inverse, and leaves out what
equals the page's default, so links stay short. Parsing never raises on user input: a stale
or hostile URL gives the defaults and a notice, and a notice never echoes markup from the URL.

Adding a setting is one entry here (with the pages that show it) and one control line on the
page. The module is pure: no Streamlit, so it is unit-tested on its own.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from core.app.edits import (
    NO_EDITS,
    VALUE_LIMIT,
    Edits,
    edits_are_valid,
    edits_words,
    read_edits,
    write_edits,
)
from core.data.datasets import SINE_NOISE, Task
from core.data.puzzles import NOISE_LIMIT, noise_scale

Query: TypeAlias = Mapping[str, str | list[str]]
Kind: TypeAlias = Literal["int", "float", "choice", "bool", "features", "values"]
#: The widget that shows a setting; "custom" ones are drawn by a control of their own (their
#: options depend on the dataset or the fitted model).
Widget: TypeAlias = Literal[
    "slider", "select_slider", "selectbox", "segmented", "radio", "toggle", "number", "custom"
]

#: Where a dataset comes from: a ready-made table, a generator (the sine, the 2-D puzzles),
#: or this session's own data (an uploaded table, points drawn by hand).
DataKind: TypeAlias = Literal["table", "generated", "upload", "drawn"]
#: The kinds a link can carry: the session's own data lives only in the session.
SHAREABLE_KINDS: tuple[DataKind, ...] = ("table", "generated")
#: How a session's own datasets are named in settings and links (``upload-3fa9c2d1``,
#: ``drawn``). A link naming one cannot be followed anywhere else; parsing says so.
OWN_DATA_NAMES = re.compile(r"upload-[0-9a-f]{1,32}|drawn")

# The forms (pages) an entry's defaults name.
SINGLE, FOREST, GINI, STEP = "single_tree", "random_forest", "gini_vs_entropy", "grow_step"
ALL_PAGES = (SINGLE, FOREST, GINI, STEP)
# Longer values are not read at all: nothing valid is this long, and it bounds the work.
_MAX_VALUE_LENGTH = 64
_TRUE, _FALSE = ("true", "1", "yes", "on"), ("false", "0", "no", "off")


class Invalid(ValueError):
    """A value that breaks its setting's rule; the message is the rule in words."""


@dataclass(frozen=True)
class Setting:
    """One setting: its rule, its defaults, how it is shown and what it feeds.

    Attributes
    ----------
    name : the URL's name, the widget's key and the attribute of :class:`Settings`
    defaults : its default on each page (form key) that shows it
    kind : ``int``, ``float`` (both from ``low`` to ``high``), ``choice`` (one of
        ``options``), ``bool``, or ``features`` (one of ``options`` or a whole number
        from ``low`` to ``high``), or ``values`` (feature values, each a number from ``low`` to
        ``high`` or missing: :mod:`core.app.edits`)
    none : when not None, None is allowed too: in a URL it is ``none``, and a control shows
        it under this label ("no limit"; "" when no control offers it)
    most : per task, the largest value that task allows (a link may ask up to ``high``)
    scale : per task, the top of the control's range (the pruning walk may go beyond it)
    labels : how the control names some of its options
    steps, format : a number chosen on a select slider: how many steps up to the top of its
        range, and the format of their labels (Python's format spec)
    estimator : the keyword argument of the estimator it feeds, if any
    """

    name: str
    defaults: Mapping[str, Any]
    kind: Kind
    low: float = 0
    high: float = 0
    options: tuple[Any, ...] = ()
    none: str | None = None
    label: str = ""
    help: str = ""
    widget: Widget = "custom"
    estimator: str | None = None
    most: Mapping[Task, float] | None = None
    scale: Mapping[Task, float] | None = None
    labels: Mapping[Any, str] | None = None
    steps: int = 20
    format: str = ""

    @property
    def words(self) -> str:
        """The rule, in words."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "one of " + ", ".join(self.options)
        if self.kind == "values":
            return edits_words(self.high)
        span = f"{self.low:g} to {self.high:g}"
        if self.kind in ("int", "features"):
            span = f"{int(self.low)} to {int(self.high)}"
        if self.kind == "features":
            return f"{', '.join(self.options)} or a whole number from {span}"
        number = "a whole number" if self.kind == "int" else "a number"
        return f"{number} from {span}" + (", or none" if self.none is not None else "")

    def accepts(self, value: object) -> bool:
        """Whether ``value`` (not text) is one this setting can hold."""
        if self.kind == "values":
            return edits_are_valid(value, self.high)
        if value is None:
            return self.none is not None
        if isinstance(value, bool):
            return self.kind == "bool"
        if self.kind in ("choice", "features") and isinstance(value, str):
            return value in self.options
        if self.kind in ("int", "features") and isinstance(value, int):
            return self.low <= value <= self.high
        if self.kind == "float" and isinstance(value, (int, float)):
            return math.isfinite(value) and self.low <= value <= self.high
        return False

    def read(self, raw: str) -> Any:
        """The value ``raw`` (URL text) stands for; raises :class:`Invalid` with the rule."""
        if self.kind == "values":  # a list, longer than any single value
            try:
                return read_edits(raw, self.high)
            except ValueError as error:
                raise Invalid(str(error)) from None
        text = raw.strip().lower()
        if len(raw) > _MAX_VALUE_LENGTH:
            raise Invalid(self.words)
        if self.none is not None and text in ("none", "null", ""):
            return None
        value: Any = text
        if self.kind == "bool":
            if text not in _TRUE + _FALSE:
                raise Invalid(self.words)
            value = text in _TRUE
        elif self.kind == "float":
            try:
                value = float(text)
            except ValueError:
                raise Invalid(self.words) from None
        elif re.fullmatch(r"[+-]?\d{1,12}", text) and self.kind != "choice":
            value = int(text)
        if not self.accepts(value):
            raise Invalid(self.words)
        return round(value, 6) if self.kind == "float" else value

    def write(self, value: Any) -> str:
        """``value`` as URL text; :meth:`read` gives it back."""
        if self.kind == "values":
            return write_edits(value)
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, float):
            return f"{value:.6g}"
        return str(value)

    def top(self, task: Task) -> float:
        """The top of the control's range for ``task``."""
        return self.scale[task] if self.scale else self.high

    def show(self, value: Any) -> str:
        """How the control names ``value``."""
        if value is None:
            return self.none or "none"
        return (self.labels or {}).get(value, str(value))


# --- the table ----------------------------------------------------------------------------

#: The criteria a classification page offers ("log_loss" grows the same tree as "entropy").
CRITERIA: tuple[str, ...] = ("gini", "entropy")
MAX_FEATURES: tuple[str, ...] = ("sqrt", "log2", "all")
FIT_ON: tuple[str, ...] = ("pair", "all")
#: The lessons a page opens beside its usual figures (issue 20), by the name a link gives them
#: (``Random_forest?view=variance``). Each page offers its own; None is none of them.
VIEWS: tuple[str, ...] = ("variance", "criterion-matters", "map", "what-if")
#: The share of rows held out for testing: the slider's range and the default, which every
#: link made before the setting existed still means.
TEST_SIZE_RANGE = (0.1, 0.5)
TEST_SIZE = 0.25
N_SAMPLES_RANGE = (20, 2000)
SEED_LIMIT = 2**31 - 1
SAMPLE_LIMIT = 100_000
#: More splits than any tree of these datasets makes; a step beyond a tree's last shows it whole.
STEP_LIMIT = 10_000
#: More nodes than any tree of these datasets has (a tree of n samples has fewer than 2n).
NODE_LIMIT = 2 * SAMPLE_LIMIT
N_ESTIMATORS_LIMIT = 1000
# Pruning strength and minimum gain are in units of impurity: below 1 (Gini) or 2 (entropy,
# four classes) for classes, but a squared error in y's units for regression (the sine's
# spread is about 15, its variance about 250; its first splits gain 177, 39, 7.6, then
# below 5). The pruning walk can go up to the cut that leaves the root alone.
CCP_ALPHA_LIMITS: Mapping[Task, float] = {"classification": 0.1, "regression": 30.0}
CCP_ALPHA_MAX: Mapping[Task, float] = {"classification": 2.0, "regression": 1000.0}
MIN_IMPURITY_DECREASE_LIMITS: Mapping[Task, float] = {"classification": 0.1, "regression": 10.0}


def _on(default: Any, *pages: str) -> dict[str, Any]:
    return dict.fromkeys(pages or ALL_PAGES, default)


# One setting per entry: name, its default on each page (the pages that show it), kind and
# limits, then how it is shown and the estimator argument it feeds. Kept as a table, one
# block per setting, rather than one argument per line.
# fmt: off
TABLE: tuple[Setting, ...] = (
    Setting("dataset", {**_on("iris"), STEP: "wine"}, "choice"),  # options: the catalogue
    Setting("x", _on(0), "int", 0, 9999, label="Feature on the x axis"),
    Setting("y", _on(1), "int", 0, 9999, label="Feature on the y axis"),
    Setting(
        "n_samples", _on(200), "int", *N_SAMPLES_RANGE, label="Number of points",
        widget="slider",
        help="How many points the rule makes, before the test set is held out.",
    ),
    Setting(
        "noise", _on(SINE_NOISE), "float", 0.0, NOISE_LIMIT, label="Noise", format="g",
        help="How far the points scatter from the rule's shape (a standard deviation, in the "
        "features' units; for the sine, in y's). 0 is the bare shape.",
    ),
    Setting(
        "data_seed", _on(0), "int", 0, SEED_LIMIT, label="Data seed", widget="number",
        help="Draws the points. The Seed further down only picks the train/test split and "
        "the model's random choices, so changing it grows new trees on the very same points; "
        "change this one for a fresh draw of the same puzzle. Both are in the link.",
    ),
    Setting(
        "n_estimators", _on(100, FOREST), "int", 1, N_ESTIMATORS_LIMIT,
        label="n_estimators (trees)", widget="slider", estimator="n_estimators",
        help="How many trees vote. More trees never overfit more; they only average better.",
    ),
    Setting(  # a forest's: a rule by name
        "max_features", _on("sqrt", FOREST), "choice", options=MAX_FEATURES,
        label="max_features", widget="segmented", estimator="max_features",
        help="How many features each split may choose from, drawn at random per split: √d, "
        "log₂ d, or all d. Fewer makes the trees more different from one another.",
    ),
    Setting(
        "bootstrap", _on(True, FOREST), "bool", label="bootstrap", widget="toggle",
        estimator="bootstrap",
        help="Grow each tree on a resample of the training rows (drawn with replacement). "
        "The rows a tree never saw give the out-of-bag score.",
    ),
    Setting(
        "criterion", _on("gini", SINGLE, FOREST, STEP), "choice", options=CRITERIA,
        label="Split criterion", widget="segmented", estimator="criterion",
        help="How a node measures how mixed its classes are.",
    ),
    Setting(
        "max_depth", {SINGLE: 3, FOREST: None, GINI: 4, STEP: 4}, "int", 1, 20,
        none="no limit", label="max_depth", widget="select_slider", estimator="max_depth",
        help="How many questions a tree may ask in a row.",
    ),
    Setting(
        "min_samples_leaf", _on(1, SINGLE, GINI, STEP), "int", 1, 50,
        label="min_samples_leaf", widget="slider", estimator="min_samples_leaf",
        help="A split is only made when each side keeps at least this many training rows.",
    ),
    Setting(
        "min_samples_split", _on(2, SINGLE, STEP), "int", 2, 100,
        label="min_samples_split", widget="slider", estimator="min_samples_split",
        help="A node is only split when it holds at least this many training rows; smaller "
        "nodes stay leaves.",
    ),
    Setting(
        "min_impurity_decrease", _on(0.0, SINGLE, STEP), "float", 0.0, 10.0,
        label="minimum gain (min_impurity_decrease)", widget="slider",
        estimator="min_impurity_decrease",
        most=MIN_IMPURITY_DECREASE_LIMITS, scale=MIN_IMPURITY_DECREASE_LIMITS,
        help="A split is only made when it lowers the impurity enough, counted over the whole "
        "training set:\n\nN_t / N · (impurity − N_L / N_t · impurity_L − N_R / N_t · "
        "impurity_R) ≥ this value\n\nN counts all training rows, N_t those at the node, N_L "
        "and N_R those sent left and right. 0 takes any gain.",
    ),
    Setting(
        "ccp_alpha", _on(0.0, SINGLE, STEP), "float", 0.0, 1000.0,
        label="ccp_alpha (pruning)", widget="select_slider", estimator="ccp_alpha", steps=100,
        most=CCP_ALPHA_MAX, scale=CCP_ALPHA_LIMITS,
        help="Cost-complexity pruning: cut back every branch that does not lower the impurity "
        "by at least this much per leaf. 0 keeps the whole tree.",
    ),
    Setting(
        "fit", _on("pair", SINGLE, FOREST, GINI, STEP), "choice", options=FIT_ON,
        label="Grow the model on", widget="radio",
        labels={"pair": "the two plotted features", "all": "all features"},
        help="With two features the boundary is the whole model; with all of them, the plot "
        "is a slice through it, the other features held at their medians.",
    ),
    Setting(  # a single tree's: a rule by name, or a number of features per split
        "max_features", _on("all", SINGLE, STEP), "features", 1, 9999,
        options=("all", "sqrt", "log2"),
        labels={"all": "all features", "sqrt": "√d", "log2": "log₂ d"},
        label="max_features", estimator="max_features",
        help="How many features each split may choose from, drawn at random at every split "
        "with the seed below: all of them, √d or log₂ d of the d features, or a number. Fewer "
        "makes the tree's questions less greedy.",
    ),
    Setting(
        "seed", _on(0), "int", 0, SEED_LIMIT, label="Seed", widget="number",
        help="Picks the train/test split and the model's random choices. Same seed, same "
        "result.",
    ),
    Setting(
        "test_size", _on(TEST_SIZE), "float", *TEST_SIZE_RANGE, label="Test set size",
        widget="select_slider", steps=8, format=".0%",
        help="The share of rows set aside before growing, to score the model on data it never "
        "saw. The seed picks which rows.",
    ),
    Setting("tree", _on(0, FOREST), "int", 0, N_ESTIMATORS_LIMIT - 1, label="Tree number"),
    Setting("sample", _on(0, SINGLE, FOREST, STEP), "int", 0, SAMPLE_LIMIT, none=""),
    Setting(
        "view", _on(None, SINGLE, FOREST, GINI), "choice", options=VIEWS, none="",
        label="More to see",
        help="A lesson of its own on this page's data and settings, shown above the page's "
        "usual figures. It is in the link too.",
    ),
    Setting(
        "resamples", _on(20, FOREST), "int", 1, 100, label="Trees drawn over each other",
        widget="slider",
        help="How many trees to grow, each on its own resample of the training rows, with "
        "the forest's settings, on the plotted features only.",
    ),
    *(
        Setting(
            f"{side}_{cls}", _on(default, GINI), "int", 0, 100, widget="slider",
            label=f"{side.capitalize()} side: class {cls.upper()}",
            help="Training rows of this class the split sends to this side.",
        )
        for side, cls, default in (
            ("left", "a", 30), ("left", "b", 5), ("right", "a", 10), ("right", "b", 55)
        )
    ),
    Setting(
        "average", _on(True, FOREST), "bool", label="Average them", widget="toggle",
        help="Draw the trees' average over them: what a forest of these trees predicts.",
    ),
    Setting(
        "map_cv", _on(False, SINGLE, GINI), "bool", label="Cross-validate (5 folds)",
        widget="toggle",
        help="Score each cell of the parameter map by 5-fold cross-validation on the training "
        "rows (the mean of five scores) instead of on the test rows: steadier numbers, and the "
        "test set stays unseen while you choose.",
    ),
    Setting(
        "test_on_tree", _on(False, SINGLE, STEP), "bool",
        label="Show the test data on the tree", widget="toggle",
        help="Each node then also says how many test samples reach it and how well the tree "
        "does on them.",
    ),
    Setting(
        "log_trees", _on(False, FOREST), "bool", label="Log scale for the number of trees",
        widget="toggle",
        help="Gives 1-10, 10-100 and 100-1000 trees the same room, as in studies that measured "
        "forests of 1 to 1000 trees: the first few trees change the most.",
    ),
    Setting(  # the what-if view's changes to the traced sample; they belong to that sample
        "edit", _on(NO_EDITS, SINGLE), "values", -VALUE_LIMIT, VALUE_LIMIT,
        label="Edited values",
        help="The traced test sample's values changed in the what-if view, by feature number.",
    ),
    Setting("step", _on(None, STEP), "int", 0, STEP_LIMIT, none="the whole tree"),
    Setting("node", _on(0, STEP), "int", 0, NODE_LIMIT, label="Node"),
)
# fmt: on


#: The entries of each page, by name (a name has one entry per page).
_BY_PAGE: dict[str, dict[str, Setting]] = {
    page: {s.name: s for s in TABLE if page in s.defaults} for page in ALL_PAGES
}


# --- a page's settings ---------------------------------------------------------------------


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
        return _BY_PAGE[self.key]

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


def estimator_arguments(settings: Settings) -> dict[str, Any]:
    """The estimator's keyword arguments the settings feed, as the table says.

    "all" features per split is ``None`` to the estimator. The criterion is the one chosen;
    a regression's is squared error whatever it is (``core.app.models.criterion_for``).
    """
    arguments = {
        entry.estimator: getattr(settings, name)
        for name, entry in settings.form.entries.items()
        if entry.estimator is not None
    }
    if arguments.get("max_features") == "all":
        arguments["max_features"] = None
    return arguments


def _fit_to(settings: Settings, shape: DatasetShape) -> tuple[dict[str, Any], list[str]]:
    """Values to reset because they do not fit ``shape``, with one notice each."""
    resets: dict[str, Any] = {}
    notices: list[str] = []
    task, values = shape.task, settings.values()
    if shape.noise is not None and shape.noise_max is not None and settings.noise > shape.noise_max:
        resets["noise"] = shape.noise
        notices.append(
            f"noise: {settings.noise:g} is more than {shape.noise_max:g}, the most for this "
            f"dataset; using {shape.noise:g}."
        )
    n = shape.n_features
    if task == "regression":
        # A regression dataset is drawn as a fit over its one feature; no pair to choose.
        resets.update(x=shape.pair[0], y=shape.pair[1])
    elif not (settings.x < n and settings.y < n and settings.x != settings.y):
        resets.update(x=shape.pair[0], y=shape.pair[1])
        notices.append(
            f"x and y must be two different feature numbers below {n} for this dataset; "
            "using its suggested pair."
        )
    for name, entry in settings.form.entries.items():
        if entry.most is not None and values[name] > entry.most[task]:
            resets[name] = 0.0
            notices.append(
                f"{name}: {values[name]:g} is more than {entry.most[task]:g}, the most for a "
                f"{task} dataset; using 0."
            )
    n_columns = n_tree_columns(settings, shape)
    features = values.get("max_features")
    if isinstance(features, int) and features > n_columns:
        resets["max_features"] = "all"
        notices.append(
            f"max_features: {features} is more than the {n_columns} features the tree is "
            "grown on; using all."
        )
    edits = values.get("edit", NO_EDITS)
    kept = tuple((feature, value) for feature, value in edits if feature < shape.n_features)
    if kept != edits:
        resets["edit"] = kept
        notices.append(
            f"edit: this dataset's features are numbered 0 to {shape.n_features - 1}; the "
            "edits of any other are left out."
        )
    if values.get("tree", 0) >= values.get("n_estimators", N_ESTIMATORS_LIMIT):
        resets["tree"] = 0
        notices.append(
            f"tree must be below n_estimators ({settings.n_estimators}); showing tree 0."
        )
    return resets, notices


# --- links ---------------------------------------------------------------------------------


def _shown(raw: str) -> str:
    """A received value, safe to put in a Markdown notice: plain words only, or nothing."""
    if re.fullmatch(r"[A-Za-z0-9.+-]{1,24}", raw):
        return f'"{raw}"'
    return "the value given"


def parse(
    form: Form, query: Query, catalogue: Catalogue | None = None
) -> tuple[Settings, list[str]]:
    """Read a page's settings from a query string, falling back to defaults value by value.

    Parameters
    ----------
    form : one of :data:`SETTINGS`
    query : mapping of name to ``str`` or ``list[str]`` (the last of a repeated name wins,
        as in ``st.query_params``). Names the page does not use are ignored.
    catalogue : the datasets, by name; :func:`default_catalogue` when omitted.

    Returns
    -------
    settings : always valid for its dataset
    notices : one short sentence per value that was ignored, safe to show as Markdown
    """
    catalogue = default_catalogue() if catalogue is None else catalogue
    names = [name for name in catalogue if form.shows(catalogue[name])]
    default_name = form.entries["dataset"].defaults[form.key]
    first = default_name if default_name in names else names[0]
    values: dict[str, Any] = {}
    notices: list[str] = []
    raw_name = _last(query.get("dataset"))
    if raw_name is not None:
        name = raw_name.strip().lower()
        if name in names:
            values["dataset"] = name
        elif name in catalogue:
            notices.append(
                f"{name} is a regression dataset and this page compares classifiers; using {first}."
            )
        elif OWN_DATA_NAMES.fullmatch(name):
            notices.append(
                "This link was made on an uploaded table or on points drawn by hand. They "
                "stay in the browser session that made them, so a link cannot carry them; "
                f"showing {catalogue[first].title or first} instead."
            )
        else:
            notices.append(
                f"dataset: {_shown(raw_name)} is not one of {', '.join(names)}; using {first}."
            )
    shape = catalogue[values.setdefault("dataset", first)]
    defaults = dataset_defaults(shape)
    for name, entry in form.entries.items():
        raw = _last(query.get(name)) if name != "dataset" else None
        if raw is None:
            if name in defaults:
                values[name] = defaults[name]
            continue
        try:
            values[name] = entry.read(raw)
        except Invalid:
            default = defaults.get(name, entry.defaults[form.key])
            notices.append(
                f"{name}: {_shown(raw)} is not {entry.words}; using "
                f"{entry.write(default) or 'none'}."
            )
            if name in defaults:
                values[name] = default
    settings = form(**values)
    resets, more = _fit_to(settings, shape)
    return settings.replace(**resets), notices + more


def _last(value: str | list[str] | None) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return value[-1] if value else None


def to_query(
    settings: Settings, catalogue: Catalogue | None = None, *, full: bool = False
) -> dict[str, str]:
    """The settings as URL text, leaving out each value that equals its default.

    The dataset is always written, so a link is never empty. The defaults of the pair, the
    noise and the number of points are the dataset's own (from ``catalogue``, by default
    :func:`default_catalogue`); for a dataset it lacks, every value of those is written.
    ``full`` writes every value.
    """
    form = settings.form
    if full:
        return {name: form.entries[name].write(value) for name, value in settings.items}
    catalogue = default_catalogue() if catalogue is None else catalogue
    shape = catalogue.get(settings.dataset)
    defaults = {name: entry.defaults[form.key] for name, entry in form.entries.items()}
    if shape is None:
        for name in ("x", "y", "noise", "n_samples"):
            defaults.pop(name)
    else:
        defaults.update(dataset_defaults(shape))
    entries = form.entries
    return {
        name: entries[name].write(value)
        for name, value in settings.items
        if name not in defaults or value != defaults[name] or name == "dataset"
    }


def link_meaning(form: Form, query: Query, catalogue: Catalogue | None = None) -> dict[str, str]:
    """What a short link says about each setting: its own text, else the default's.

    The defaults of the pair, the noise and the number of points are the dataset's own, when
    ``catalogue`` (by default :func:`default_catalogue`) has the dataset. Nothing is checked:
    this is the inverse of :func:`to_query`'s shortening, not :func:`parse`.
    """
    catalogue = default_catalogue() if catalogue is None else catalogue
    raw = {name: _last(value) or "" for name, value in query.items()}
    defaults = {name: entry.defaults[form.key] for name, entry in form.entries.items()}
    shape = catalogue.get(raw.get("dataset", defaults["dataset"]))
    if shape is not None:
        defaults.update(dataset_defaults(shape))
    return {
        **{name: form.entries[name].write(value) for name, value in defaults.items()},
        **raw,
    }


def with_dataset(settings: Settings, name: str, catalogue: Catalogue) -> Settings:
    """``settings`` moved to another dataset: its suggested pair, and the first test sample.

    A generated dataset starts from its own noise and number of points (a puzzle's noise
    scale is not the sine's); a table keeps them, unused, as they were. Values the new
    dataset's task does not allow go back to 0.
    """
    shape = catalogue[name]
    values = settings.values()
    changes: dict[str, Any] = {"dataset": name, **dataset_defaults(shape)}
    if values.get("sample") is not None:
        changes["sample"] = 0
    if values.get("node"):  # another dataset's node number means nothing here
        changes["node"] = 0
    if values.get("edit"):  # edits belong to a sample of the old dataset
        changes["edit"] = NO_EDITS
    for key, entry in settings.form.entries.items():
        if entry.scale is not None and values[key] > entry.scale[shape.task]:
            changes[key] = 0.0
    moved = settings.replace(**changes)
    features = values.get("max_features")
    if isinstance(features, int) and features > n_tree_columns(moved, shape):
        moved = moved.replace(max_features="all")
    return moved


def fit_sample(settings: Settings, n_test: int) -> tuple[Settings, list[str]]:
    """Check ``settings.sample`` against the test set, which parsing cannot see."""
    sample = getattr(settings, "sample", None)
    if sample is None or sample < n_test:
        return settings, []
    notice = f"sample must be below {n_test}, the size of this test set; showing sample 0."
    return settings.replace(sample=0), [notice]


#: The settings that pick the traced test sample's row: another value of any is another sample.
SAMPLE_SETTINGS = ("dataset", "n_samples", "noise", "data_seed", "seed", "test_size", "sample")


def edits_to_keep(last: Settings, now: Settings) -> Edits:
    """The edits a run of the what-if view starts from: ``last``'s while ``now`` traces the
    same test sample, none once another one is traced.

    Edits belong to the sample they were made on: another sample, dataset, seed or test size
    starts again from that sample's own values.
    """
    before, after = last.values(), now.values()
    if all(before.get(name) == after.get(name) for name in SAMPLE_SETTINGS):
        return tuple(before.get("edit", NO_EDITS))
    return NO_EDITS


def fit_growth(settings: Settings, n_steps: int, n_nodes: int) -> tuple[Settings, list[str]]:
    """Check ``step`` and ``node`` against the fitted tree, which parsing cannot see.

    The last step and any beyond it show the whole tree (None), the latter with a notice; a
    node the tree does not have shows the root. Settings without these come back unchanged.
    """
    changes: dict[str, Any] = {}
    notices: list[str] = []
    step = getattr(settings, "step", None)
    if step is not None and step >= n_steps:
        changes["step"] = None
    if step is not None and step > n_steps:
        notices.append(
            f"step: this tree is grown in {n_steps} splits, fewer than {step}; showing the "
            "whole tree."
        )
    node = getattr(settings, "node", None)
    if node is not None and node >= n_nodes:
        changes["node"] = 0
        notices.append(f"node must be below {n_nodes}, the nodes of this tree; showing node 0.")
    return settings.replace(**changes), notices


def field_is_valid(form: Form, name: str, value: object) -> bool:
    """True when ``value`` is one ``form`` accepts for ``name``.

    A widget can hand back a value of the wrong kind (a stale browser tab sends an old label
    where a number belongs, a segmented control arrives empty): such a value must never reach
    a model. The dataset is checked against the catalogue by :func:`merge`.
    """
    if name == "dataset":
        return isinstance(value, str)
    entry = form.entries.get(name)
    if entry is None:
        return False
    if entry.kind == "float" and isinstance(value, float):
        value = round(value, 6)
    return entry.accepts(value)


def merge(
    form: Form, last: Settings, values: Mapping[str, object], catalogue: Catalogue
) -> tuple[Settings, list[str]]:
    """Settings from the controls' ``values``, falling back to ``last`` value by value.

    A value its entry does not accept (see :func:`field_is_valid`), or a dataset this page
    cannot show, keeps its value from ``last``; the others apply. The result is then fitted
    to its dataset, as :func:`parse` does.

    Returns
    -------
    settings : of ``form``
    rejected : names of the settings that kept their last value
    """
    merged: dict[str, Any] = {}
    rejected: list[str] = []
    for name, held in last.items:
        value = values.get(name, held)
        valid = field_is_valid(form, name, value)
        if name == "dataset":
            shape = catalogue.get(str(value))
            valid = valid and shape is not None and form.shows(shape)
        if valid:
            merged[name] = value
        else:
            merged[name] = held
            rejected.append(name)
    settings = form(**merged)
    resets, _ = _fit_to(settings, catalogue[settings.dataset])
    return settings.replace(**resets), rejected


# --- the pruning path in a link -------------------------------------------------------------


def alpha_at_least(alpha: float) -> float:
    """The smallest ``ccp_alpha`` a link can hold that is not below ``alpha``.

    Links keep 6 decimals and 6 significant digits. An effective alpha rounded down would
    stop just short of its cut and keep the bigger tree, so it is rounded up instead.
    """
    if alpha <= 0.0:
        return 0.0
    decimals = min(6, 5 - math.floor(math.log10(alpha)))
    held = round(alpha, decimals)
    if held < alpha:
        held = round(held + 10.0**-decimals, decimals)
    return held


def pruning_stops(
    ccp_alphas: Sequence[float], n_leaves: Sequence[int], most: float
) -> tuple[tuple[float, int], ...]:
    """The steps of a pruning path a link can hold: ``(ccp_alpha, leaves kept)`` pairs.

    Parameters
    ----------
    ccp_alphas : non-decreasing effective alphas, 0 first (a pruning path's)
    n_leaves : leaves of the tree kept at each of them
    most : the largest ``ccp_alpha`` allowed (:data:`CCP_ALPHA_MAX` of the task)

    Returns
    -------
    One pair per distinct :func:`alpha_at_least` of an effective alpha up to ``most``, in
    order; its leaves are those of the tree pruning at that value keeps (the last step
    whose effective alpha it reaches, when two cuts round to the same value).
    """
    stops: dict[float, int] = {}
    for alpha, leaves in zip(ccp_alphas, n_leaves, strict=True):
        held = alpha_at_least(float(alpha))
        if held <= most:
            stops[held] = int(leaves)  # a later step rounding to the same value wins
    return tuple(stops.items())
