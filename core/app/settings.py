"""What a page shows, as plain settings that survive a trip through the URL.

Each page has one frozen dataclass of settings. ``parse`` turns a query string (as
``st.query_params`` or ``AppTest.query_params`` hands it over: ``str`` or ``list[str]`` per
key) into settings plus a list of short notices for whatever had to fall back to its
default; ``to_query`` is the inverse. Parsing never raises on user input: a stale or hostile
URL gives the defaults and a notice, and a notice never echoes markup from the URL.

The module is pure: no Streamlit, so it is unit-tested on its own.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from types import MappingProxyType
from typing import Any, ClassVar, Literal, TypeAlias, TypeVar, get_args

from core.data.datasets import SINE_NOISE, Task
from core.engine.criteria import ClassificationCriterion

MaxFeatures: TypeAlias = Literal["sqrt", "log2", "all"]
#: A single tree's ``max_features``: a rule by name, or a number of features per split.
TreeFeatures: TypeAlias = MaxFeatures | int
FitOn: TypeAlias = Literal["pair", "all"]
Query: TypeAlias = Mapping[str, str | list[str]]

#: The criteria a classification page offers ("log_loss" grows the same tree as "entropy").
CRITERIA: tuple[ClassificationCriterion, ...] = ("gini", "entropy")
MAX_FEATURES: tuple[MaxFeatures, ...] = get_args(MaxFeatures)
FIT_ON: tuple[FitOn, ...] = get_args(FitOn)

MAX_DEPTH_LIMIT = 20
MIN_SAMPLES_LEAF_LIMIT = 50
# Pruning strength is in units of impurity: a Gini or entropy below 1 for classes, but a
# squared error in the target's units for regression (the sine's spread is about 15).
CCP_ALPHA_LIMITS: dict[Task, float] = {"classification": 0.1, "regression": 30.0}
# The pruning walk can go further, up to the cut that leaves the root alone: its effective
# alpha is at most the root's impurity (log2 of the classes for entropy, so below 2 for up to
# four classes; the sine's variance is about 250). A link may ask for up to these.
CCP_ALPHA_MAX: dict[Task, float] = {"classification": 2.0, "regression": 1000.0}
# Minimum gain is in the same units: iris's second split gains 0.26, its third 0.03; the
# sine's first splits gain 177, 39, 7.6, then below 5.
MIN_IMPURITY_DECREASE_LIMITS: dict[Task, float] = {"classification": 0.1, "regression": 10.0}
MIN_SAMPLES_SPLIT_LIMIT = 100
N_ESTIMATORS_LIMIT = 1000
SEED_LIMIT = 2**31 - 1
SAMPLE_LIMIT = 100_000
#: The share of rows held out for testing: the slider's range and the default, which every
#: link made before the setting existed still means.
TEST_SIZE_RANGE = (0.1, 0.5)
TEST_SIZE = 0.25
#: The most noise a link may ask of any generated dataset; each set has its own, smaller scale
#: (``DatasetShape.noise_max``): the sine's noise is in y's units (its swing is about 20), a
#: 2-D puzzle's in those of its two features (a unit or so).
NOISE_LIMIT = 10.0
#: The noise scale of a generated set whose manifest gives none: a puzzle's points lie within
#: a unit or two of the origin, so more than this hides its shape entirely.
PUZZLE_NOISE_MAX = 0.5
#: How many points a generated set may be asked for: enough to split, few enough to grow a
#: forest on at once.
N_SAMPLES_RANGE = (20, 2000)
#: What a generated dataset is when the manifest says nothing: the sine's 200 points.
GENERATED_N_SAMPLES = 200
# Longer values are not read at all: nothing valid is this long, and it bounds the work.
_MAX_VALUE_LENGTH = 64


#: Where a dataset comes from: a ready-made table, a generator (the sine, the 2-D puzzles),
#: or this session's own data (an uploaded table, points drawn by hand).
DataKind: TypeAlias = Literal["table", "generated", "upload", "drawn"]
#: The kinds a link can carry: the session's own data lives only in the session.
SHAREABLE_KINDS: tuple[DataKind, ...] = ("table", "generated")
#: How a session's own datasets are named in settings and links (``upload-3fa9c2d1``,
#: ``drawn``). A link naming one cannot be followed anywhere else; parsing says so.
OWN_DATA_NAMES = re.compile(r"upload-[0-9a-f]{1,32}|drawn")


@dataclass(frozen=True)
class DatasetShape:
    """What parsing needs to know about a dataset to check the settings that refer to it.

    ``pair`` is the two feature indices the boundary plot starts with (the manifest's
    ``suggested_pair``). ``noise`` is a generated dataset's default noise, None for a table
    (whose rows no noise setting can change), and ``noise_max`` the most it may be set to;
    ``n_samples`` is a generated dataset's default number of points. ``rows_key`` names the
    rows in the caches when it differs from the dataset's name: a session's own data is
    cached under a private key (see ``core.ui.own_data``), never under its public name.
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


def noise_max(name: str, noise: float) -> float:
    """The noise scale of a generated set: the sine's is :data:`NOISE_LIMIT`, a puzzle's smaller.

    At least twice its default noise, so the default sits well inside the slider.
    """
    if name == "sine":
        return NOISE_LIMIT
    return min(NOISE_LIMIT, max(PUZZLE_NOISE_MAX, 2 * noise))


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
            noise_max(info.name, info.noise) if info.noise is not None else None,
            "generated" if generated else "table",
            info.title,
        )
    return shapes


# --- reading one value ---------------------------------------------------------------------


class _Invalid(ValueError):
    """A query value that breaks its rule; the message is the rule in words."""


@dataclass(frozen=True)
class _Rule:
    """How to read one query value: a parser and the rule it enforces, in words."""

    read: Callable[[str], Any]
    words: str


def _int_rule(lo: int, hi: int, *, none: bool = False) -> _Rule:
    words = f"a whole number from {lo} to {hi}" + (", or none" if none else "")

    def read(raw: str) -> int | None:
        text = raw.strip().lower()
        if none and text in ("none", "null", ""):
            return None
        if not re.fullmatch(r"[+-]?\d{1,12}", text):
            raise _Invalid(words)
        value = int(text)
        if not lo <= value <= hi:
            raise _Invalid(words)
        return value

    return _Rule(read, words)


def _float_rule(lo: float, hi: float) -> _Rule:
    words = f"a number from {lo:g} to {hi:g}"

    def read(raw: str) -> float:
        try:
            value = float(raw.strip())
        except ValueError:
            raise _Invalid(words) from None
        if not math.isfinite(value) or not lo <= value <= hi:
            raise _Invalid(words)
        return value

    return _Rule(read, words)


def _choice_rule(options: tuple[str, ...]) -> _Rule:
    words = "one of " + ", ".join(options)

    def read(raw: str) -> str:
        text = raw.strip().lower()
        if text not in options:
            raise _Invalid(words)
        return text

    return _Rule(read, words)


def _features_rule() -> _Rule:
    words = "all, sqrt, log2 or a whole number from 1 to 9999"
    names = _choice_rule(MAX_FEATURES)
    count = _int_rule(1, 9999)

    def read(raw: str) -> TreeFeatures:
        try:
            named: MaxFeatures = names.read(raw)
            return named
        except _Invalid:
            pass
        try:
            number: int = count.read(raw)
            return number
        except _Invalid:
            raise _Invalid(words) from None

    return _Rule(read, words)


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


_TRUE = ("true", "1", "yes", "on")
_FALSE = ("false", "0", "no", "off")


def _bool_rule() -> _Rule:
    words = "true or false"

    def read(raw: str) -> bool:
        text = raw.strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise _Invalid(words)

    return _Rule(read, words)


def _shown(raw: str) -> str:
    """A received value, safe to put in a Markdown notice: plain words only, or nothing."""
    if re.fullmatch(r"[A-Za-z0-9.+-]{1,24}", raw):
        return f'"{raw}"'
    return "the value given"


def _last(value: str | list[str]) -> str | None:
    if isinstance(value, str):
        return value
    return value[-1] if value else None


def _format(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


# --- settings ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Settings:
    """Fields and checks every page shares. Subclasses add their own fields.

    ``test_size`` is the share of rows held out for testing. ``noise``, ``n_samples`` and
    ``data_seed`` make a generated dataset's points (the sine, a 2-D puzzle): a link holds
    them, so it reproduces the very same points. While a table is shown they are kept and
    ignored; moving to a generated set starts from its own defaults. ``data_seed`` draws the
    points and ``seed`` the train/test split and the models' random choices, so a new
    ``seed`` grows other trees on the same points.
    """

    dataset: str = "iris"
    x: int = 0
    y: int = 1
    seed: int = 0
    test_size: float = TEST_SIZE
    noise: float = SINE_NOISE
    n_samples: int = GENERATED_N_SAMPLES
    data_seed: int = 0

    classification_only: ClassVar[bool] = False

    def __post_init__(self) -> None:
        # Slider arithmetic gives 0.15000000000000002; keep the key (and the URL) tidy.
        for name in ("test_size", "noise"):
            object.__setattr__(self, name, round(float(getattr(self, name)), 6))
        for f in fields(self):
            rule = rules_of(type(self)).get(f.name)
            value = getattr(self, f.name)
            if rule is None:
                continue
            try:
                if rule.read(_format(value)) != value:
                    raise _Invalid(rule.words)
            except _Invalid:
                raise ValueError(f"{f.name} must be {rule.words}; got {value!r}") from None

    @classmethod
    def rules(cls) -> dict[str, _Rule]:
        return {
            "x": _int_rule(0, 9999),
            "y": _int_rule(0, 9999),
            "seed": _int_rule(0, SEED_LIMIT),
            "test_size": _float_rule(*TEST_SIZE_RANGE),
            "noise": _float_rule(0.0, NOISE_LIMIT),
            "n_samples": _int_rule(*N_SAMPLES_RANGE),
            "data_seed": _int_rule(0, SEED_LIMIT),
        }

    def check(self, shape: DatasetShape) -> tuple[dict[str, Any], list[str]]:
        """Fields to reset because they do not fit ``shape``, with one notice each."""
        resets: dict[str, Any] = {}
        notices: list[str] = []
        noise_max = shape.noise_max
        if shape.noise is not None and noise_max is not None and self.noise > noise_max:
            resets["noise"] = shape.noise
            notices.append(
                f"noise: {self.noise:g} is more than {noise_max:g}, the most for this "
                f"dataset; using {shape.noise:g}."
            )
        n = shape.n_features
        if shape.task == "regression":
            # A regression dataset is drawn as a fit over its one feature; no pair to choose.
            if (self.x, self.y) != shape.pair:
                resets.update(x=shape.pair[0], y=shape.pair[1])
        elif not (self.x < n and self.y < n and self.x != self.y):
            resets.update(x=shape.pair[0], y=shape.pair[1])
            notices.append(
                f"x and y must be two different feature numbers below {n} for this dataset; "
                "using its suggested pair."
            )
        return resets, notices


S = TypeVar("S", bound=_Settings)


def n_tree_columns(settings: _Settings, shape: DatasetShape) -> int:
    """How many features a page's model is grown on: the plotted pair, or all of them."""
    if shape.task == "regression" or getattr(settings, "fit", "pair") == "all":
        return shape.n_features
    return 2


@dataclass(frozen=True)
class SingleTreeSettings(_Settings):
    """Single tree page: one tree, its boundary and a traced test sample."""

    criterion: ClassificationCriterion = "gini"
    max_depth: int | None = 3
    min_samples_leaf: int = 1
    ccp_alpha: float = 0.0
    fit: FitOn = "pair"
    sample: int | None = 0
    test_on_tree: bool = False
    min_samples_split: int = 2
    min_impurity_decrease: float = 0.0
    max_features: TreeFeatures = "all"

    def __post_init__(self) -> None:
        # Slider arithmetic gives 0.007000000000000001; keep the key (and the URL) tidy.
        object.__setattr__(self, "ccp_alpha", round(float(self.ccp_alpha), 6))
        gain = round(float(self.min_impurity_decrease), 6)
        object.__setattr__(self, "min_impurity_decrease", gain)
        super().__post_init__()

    @classmethod
    def rules(cls) -> dict[str, _Rule]:
        return {
            **super().rules(),
            "criterion": _choice_rule(CRITERIA),
            "max_depth": _int_rule(1, MAX_DEPTH_LIMIT, none=True),
            "min_samples_leaf": _int_rule(1, MIN_SAMPLES_LEAF_LIMIT),
            "ccp_alpha": _float_rule(0.0, max(CCP_ALPHA_MAX.values())),
            "fit": _choice_rule(FIT_ON),
            "sample": _int_rule(0, SAMPLE_LIMIT, none=True),
            "test_on_tree": _bool_rule(),
            "min_samples_split": _int_rule(2, MIN_SAMPLES_SPLIT_LIMIT),
            "min_impurity_decrease": _float_rule(0.0, max(MIN_IMPURITY_DECREASE_LIMITS.values())),
            "max_features": _features_rule(),
        }

    def check(self, shape: DatasetShape) -> tuple[dict[str, Any], list[str]]:
        resets, notices = super().check(shape)
        for name, limits in (
            ("ccp_alpha", CCP_ALPHA_MAX),
            ("min_impurity_decrease", MIN_IMPURITY_DECREASE_LIMITS),
        ):
            value, limit = getattr(self, name), limits[shape.task]
            if value > limit:
                resets[name] = 0.0
                notices.append(
                    f"{name}: {value:g} is more than {limit:g}, the most for a "
                    f"{shape.task} dataset; using 0."
                )
        n_columns = n_tree_columns(self, shape)
        if isinstance(self.max_features, int) and self.max_features > n_columns:
            resets["max_features"] = "all"
            notices.append(
                f"max_features: {self.max_features} is more than the {n_columns} features "
                "the tree is grown on; using all."
            )
        return resets, notices


@dataclass(frozen=True)
class RandomForestSettings(_Settings):
    """Random forest page: the forest, its curves, one of its trees, one sample's votes."""

    criterion: ClassificationCriterion = "gini"
    max_depth: int | None = None
    n_estimators: int = 100
    max_features: MaxFeatures = "sqrt"
    bootstrap: bool = True
    fit: FitOn = "pair"
    tree: int = 0
    sample: int | None = 0
    log_trees: bool = False

    @classmethod
    def rules(cls) -> dict[str, _Rule]:
        return {
            **super().rules(),
            "criterion": _choice_rule(CRITERIA),
            "max_depth": _int_rule(1, MAX_DEPTH_LIMIT, none=True),
            "n_estimators": _int_rule(1, N_ESTIMATORS_LIMIT),
            "max_features": _choice_rule(MAX_FEATURES),
            "bootstrap": _bool_rule(),
            "fit": _choice_rule(FIT_ON),
            "tree": _int_rule(0, N_ESTIMATORS_LIMIT - 1),
            "sample": _int_rule(0, SAMPLE_LIMIT, none=True),
            "log_trees": _bool_rule(),
        }

    def check(self, shape: DatasetShape) -> tuple[dict[str, Any], list[str]]:
        resets, notices = super().check(shape)
        if self.tree >= self.n_estimators:
            resets["tree"] = 0
            notices.append(
                f"tree must be below n_estimators ({self.n_estimators}); showing tree 0."
            )
        return resets, notices


@dataclass(frozen=True)
class GiniEntropySettings(_Settings):
    """Gini vs entropy page: two trees that differ only in their criterion."""

    max_depth: int | None = 4
    min_samples_leaf: int = 1
    fit: FitOn = "pair"

    classification_only: ClassVar[bool] = True

    @classmethod
    def rules(cls) -> dict[str, _Rule]:
        return {
            **super().rules(),
            "max_depth": _int_rule(1, MAX_DEPTH_LIMIT, none=True),
            "min_samples_leaf": _int_rule(1, MIN_SAMPLES_LEAF_LIMIT),
            "fit": _choice_rule(FIT_ON),
        }


#: More splits than any tree of these datasets makes; a step beyond a tree's last shows it whole.
STEP_LIMIT = 10_000
#: More nodes than any tree of these datasets has (a tree of n samples has fewer than 2n).
NODE_LIMIT = 2 * SAMPLE_LIMIT


@dataclass(frozen=True)
class GrowStepSettings(SingleTreeSettings):
    """Grow it step by step: the Single tree's tree, one split at a time, and one node asked.

    ``step`` is the number of splits made (0 is the root alone); None is the whole tree, and
    so is any step beyond the tree's last (:func:`fit_growth`). ``node`` is the node asked
    "why this split?", numbered as in the whole tree.
    """

    dataset: str = "wine"
    max_depth: int | None = 4
    step: int | None = None
    node: int = 0

    @classmethod
    def rules(cls) -> dict[str, _Rule]:
        return {
            **super().rules(),
            "step": _int_rule(0, STEP_LIMIT, none=True),
            "node": _int_rule(0, NODE_LIMIT),
        }


SETTINGS: tuple[type[_Settings], ...] = (
    SingleTreeSettings,
    RandomForestSettings,
    GiniEntropySettings,
    GrowStepSettings,
)
Settings: TypeAlias = _Settings


def parse(
    settings_type: type[S], query: Query, catalogue: Catalogue | None = None
) -> tuple[S, list[str]]:
    """Read a page's settings from a query string, falling back to defaults field by field.

    Parameters
    ----------
    settings_type : one of :data:`SETTINGS`
    query : mapping of name to ``str`` or ``list[str]`` (the last of a repeated name wins,
        as in ``st.query_params``). Names the page does not use are ignored.
    catalogue : the datasets, by name; :func:`default_catalogue` when omitted.

    Returns
    -------
    settings : ``settings_type``, always valid for its dataset
    notices : one short sentence per value that was ignored, safe to show as Markdown
    """
    catalogue = default_catalogue() if catalogue is None else catalogue
    defaults = settings_type()
    values: dict[str, Any] = {}
    notices: list[str] = []

    names = [name for name in catalogue if _allowed(settings_type, catalogue[name])]
    # The page's own default dataset when the catalogue has it, else the catalogue's first.
    first = defaults.dataset if defaults.dataset in names else names[0]
    rules = {"dataset": _choice_rule(tuple(names)), **rules_of(settings_type)}
    for name, rule in rules.items():
        raw = _last(query[name]) if name in query else None
        if raw is None:
            continue
        if name == "dataset":
            default: Any = first
        elif name in ("x", "y"):  # the dataset's own suggested pair
            default = catalogue[values.get("dataset", first)].pair["xy".index(name)]
        else:
            default = getattr(defaults, name)
        try:
            if len(raw) > _MAX_VALUE_LENGTH:
                raise _Invalid(rule.words)
            values[name] = rule.read(raw)
        except _Invalid:
            if name == "dataset" and raw.strip().lower() in catalogue:
                notices.append(
                    f"{raw.strip().lower()} is a regression dataset and this page "
                    f"compares classifiers; using {default}."
                )
            elif name == "dataset" and OWN_DATA_NAMES.fullmatch(raw.strip().lower()):
                notices.append(
                    "This link was made on an uploaded table or on points drawn by hand. "
                    "They stay in the browser session that made them, so a link cannot "
                    f"carry them; showing {_title(catalogue, default)} instead."
                )
            else:
                notices.append(
                    f"{name}: {_shown(raw)} is not {rule.words}; using {_format(default)}."
                )
    values.setdefault("dataset", first)

    shape = catalogue[values["dataset"]]
    values.setdefault("x", shape.pair[0])
    values.setdefault("y", shape.pair[1])
    if shape.generated and shape.noise is not None:  # a link before these settings existed
        values.setdefault("noise", shape.noise)
        values.setdefault("n_samples", shape.n_samples)
    settings = settings_type(**values)
    resets, more = settings.check(shape)
    return replace(settings, **resets), notices + more


def _title(catalogue: Catalogue, name: str) -> str:
    return catalogue[name].title or name


def _allowed(settings_type: type[_Settings], shape: DatasetShape) -> bool:
    return shape.task == "classification" or not settings_type.classification_only


def to_query(settings: _Settings) -> dict[str, str]:
    """Every field of ``settings`` as text, so a link keeps meaning the same view."""
    return {f.name: _format(getattr(settings, f.name)) for f in fields(settings)}


def with_dataset(settings: S, name: str, catalogue: Catalogue) -> S:
    """``settings`` moved to another dataset: its suggested pair, and the first test sample.

    A generated dataset starts from its own noise and number of points (a puzzle's noise
    scale is not the sine's); a table keeps them, unused, as they were.
    """
    shape = catalogue[name]
    changes: dict[str, Any] = {"dataset": name, "x": shape.pair[0], "y": shape.pair[1]}
    if shape.generated and shape.noise is not None:
        changes.update(noise=shape.noise, n_samples=shape.n_samples)
    if getattr(settings, "sample", None) is not None:
        changes["sample"] = 0
    if getattr(settings, "node", 0):  # another dataset's node number means nothing here
        changes["node"] = 0
    for name, limits in (
        ("ccp_alpha", CCP_ALPHA_LIMITS),
        ("min_impurity_decrease", MIN_IMPURITY_DECREASE_LIMITS),
    ):
        if getattr(settings, name, 0.0) > limits[shape.task]:
            changes[name] = 0.0
    features = getattr(settings, "max_features", None)
    if isinstance(features, int) and features > n_tree_columns(settings, shape):
        changes["max_features"] = "all"
    return replace(settings, **changes)


def fit_sample(settings: S, n_test: int) -> tuple[S, list[str]]:
    """Check ``settings.sample`` against the test set, which parsing cannot see."""
    sample = getattr(settings, "sample", None)
    if sample is None or sample < n_test:
        return settings, []
    notice = f"sample must be below {n_test}, the size of this test set; showing sample 0."
    changes: dict[str, Any] = {"sample": 0}
    return replace(settings, **changes), [notice]


def fit_growth(settings: S, n_steps: int, n_nodes: int) -> tuple[S, list[str]]:
    """Check ``step`` and ``node`` against the fitted tree, which parsing cannot see.

    The last step and any beyond it show the whole tree (None), the latter with a notice; a
    node the tree does not have shows the root. Settings without these fields come back
    unchanged.
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
    return replace(settings, **changes), notices


_RULES: dict[type, Mapping[str, _Rule]] = {}


def rules_of(settings_type: type[_Settings]) -> Mapping[str, _Rule]:
    """``settings_type.rules()``, built once per class and read-only.

    Every settings object checks each field against its rule, and every control checks its
    widget's value: a page run asks for the rules a few hundred times, and building the
    dictionary of rules each time was about a tenth of a Single tree run's CPU.
    """
    if settings_type not in _RULES:
        _RULES[settings_type] = MappingProxyType(settings_type.rules())
    return _RULES[settings_type]


def field_is_valid(settings_type: type[_Settings], name: str, value: object) -> bool:
    """True when ``value`` is one ``settings_type`` accepts for its field ``name``.

    A widget can hand back a value of the wrong kind (a stale browser tab sends an old label
    where a number belongs, a segmented control arrives empty): such a value must never reach
    a model. The dataset field is checked against the catalogue by :func:`merge`.
    """
    if name == "dataset":
        return isinstance(value, str)
    rule = rules_of(settings_type).get(name)
    if rule is None or not isinstance(value, (type(None), bool, int, float, str)):
        return False
    try:
        return bool(rule.read(_format(value)) == value)
    except _Invalid:
        return False


def merge(
    settings_type: type[S], last: S, values: Mapping[str, object], catalogue: Catalogue
) -> tuple[S, list[str]]:
    """Settings from the controls' ``values``, falling back to ``last`` field by field.

    A field whose value breaks its rule (see :func:`field_is_valid`), or names a dataset this
    page cannot show, keeps its value from ``last``; the other fields apply. The result is
    then fitted to its dataset (``check``), as :func:`parse` does.

    Returns
    -------
    settings : ``settings_type``
    rejected : names of the fields that kept their last value
    """
    merged: dict[str, Any] = {}
    rejected: list[str] = []
    for f in fields(last):
        value = values.get(f.name, getattr(last, f.name))
        valid = field_is_valid(settings_type, f.name, value)
        if f.name == "dataset":
            shape = catalogue.get(str(value))
            valid = valid and shape is not None and _allowed(settings_type, shape)
        if valid:
            merged[f.name] = value
        else:
            merged[f.name] = getattr(last, f.name)
            rejected.append(f.name)
    settings = settings_type(**merged)
    resets, _ = settings.check(catalogue[settings.dataset])
    return replace(settings, **resets), rejected


__all__ = [
    "CCP_ALPHA_LIMITS",
    "CCP_ALPHA_MAX",
    "CRITERIA",
    "FIT_ON",
    "GENERATED_N_SAMPLES",
    "MAX_FEATURES",
    "MIN_IMPURITY_DECREASE_LIMITS",
    "MIN_SAMPLES_SPLIT_LIMIT",
    "NOISE_LIMIT",
    "N_SAMPLES_RANGE",
    "OWN_DATA_NAMES",
    "PUZZLE_NOISE_MAX",
    "SETTINGS",
    "SHAREABLE_KINDS",
    "TEST_SIZE",
    "TEST_SIZE_RANGE",
    "Catalogue",
    "DataKind",
    "DatasetShape",
    "GiniEntropySettings",
    "GrowStepSettings",
    "RandomForestSettings",
    "Settings",
    "SingleTreeSettings",
    "TreeFeatures",
    "alpha_at_least",
    "default_catalogue",
    "field_is_valid",
    "fit_growth",
    "fit_sample",
    "merge",
    "n_tree_columns",
    "noise_max",
    "parse",
    "pruning_stops",
    "to_query",
    "with_dataset",
]
