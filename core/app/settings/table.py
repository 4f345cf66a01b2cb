"""Every setting of the app, declared once: :data:`TABLE`, one :class:`Setting` per entry.

An entry holds the setting's rule (kind and limits), its default on each page (form) that
shows it, its label and help, the widget that shows it, and where its value goes: the
estimator argument it feeds (scikit-learn's name), or the data step or view that reads it.
Adding a setting is one entry here (with the pages that show it) and one control line on the
page (``controls.show``): the model specs are built from the entries naming an estimator
argument, so such a setting reaches the fitted estimator with no third edit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.app.edits import NO_EDITS, VALUE_LIMIT
from core.app.settings.values import Model, Setting
from core.data.datasets import SINE_NOISE, Task
from core.data.puzzles import NOISE_LIMIT

# The forms (pages) an entry's defaults name.
SINGLE, FOREST, GINI, STEP = "single_tree", "random_forest", "gini_vs_entropy", "grow_step"
ALL_PAGES = (SINGLE, FOREST, GINI, STEP)

#: The criteria a classification page offers ("log_loss" grows the same tree as "entropy").
CRITERIA: tuple[str, ...] = ("gini", "entropy")
MAX_FEATURES: tuple[str, ...] = ("sqrt", "log2", "all")
FIT_ON: tuple[str, ...] = ("pair", "all")
#: The lessons a page opens beside its usual figures, by the name a link gives them
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
# limits, then how it is shown and where it goes: the estimator argument it feeds (and for
# which models), or what reads it ("data", "view"). Kept as a table, one block per setting,
# rather than one argument per line.
# fmt: off
TABLE: tuple[Setting, ...] = (
    # The dataset's options are the catalogue's names, checked against it by parse and merge.
    Setting("dataset", {**_on("iris"), STEP: "wine"}, "choice", reads="data"),
    Setting("x", _on(0), "int", 0, 9999, label="Feature on the x axis", reads="data"),
    Setting("y", _on(1), "int", 0, 9999, label="Feature on the y axis", reads="data"),
    Setting(
        "n_samples", _on(200), "int", *N_SAMPLES_RANGE, label="Number of points",
        widget="slider", reads="data",
        help="How many points the rule makes, before the test set is held out.",
    ),
    Setting(
        "noise", _on(SINE_NOISE), "float", 0.0, NOISE_LIMIT, label="Noise", format="g",
        reads="data",
        help="How far the points scatter from the rule's shape (a standard deviation, in the "
        "features' units; for the sine, in y's). 0 is the bare shape.",
    ),
    Setting(
        "data_seed", _on(0), "int", 0, SEED_LIMIT, label="Data seed", widget="number",
        reads="data",
        help="Draws the points. The Seed further down only picks the train/test split and "
        "the model's random choices, so changing it grows new trees on the very same points; "
        "change this one for a fresh draw of the same puzzle. Both are in the link.",
    ),
    Setting(
        "n_estimators", _on(100, FOREST), "int", 1, N_ESTIMATORS_LIMIT,
        label="n_estimators (trees)", widget="slider", estimator="n_estimators",
        models=("forest",),
        help="How many trees vote. More trees never overfit more; they only average better.",
    ),
    Setting(  # a forest's: a rule by name
        "max_features", _on("sqrt", FOREST), "choice", options=MAX_FEATURES,
        label="max_features", widget="segmented", estimator="max_features",
        models=("forest",), passed_as={"all": None},
        help="How many features each split may choose from, drawn at random per split: √d, "
        "log₂ d, or all d. Fewer makes the trees more different from one another.",
    ),
    Setting(
        "bootstrap", _on(True, FOREST), "bool", label="bootstrap", widget="toggle",
        estimator="bootstrap", models=("forest",),
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
        label="Grow the model on", widget="radio", reads="data",
        labels={"pair": "the two plotted features", "all": "all features"},
        help="With two features the boundary is the whole model. With all of them a plane "
        "cannot show it: the boundary is that of a model with the same settings grown on the "
        "two plotted features alone, as its title says.",
    ),
    Setting(  # a single tree's: a rule by name, or a number of features per split
        "max_features", _on("all", SINGLE, STEP), "features", 1, 9999,
        options=("all", "sqrt", "log2"),
        labels={"all": "all features", "sqrt": "√d", "log2": "log₂ d"},
        label="max_features", estimator="max_features", passed_as={"all": None},
        help="How many features each split may choose from, drawn at random at every split "
        "with the seed below: all of them, √d or log₂ d of the d features, or a number. Fewer "
        "makes the tree's questions less greedy.",
    ),
    Setting(
        "seed", _on(0), "int", 0, SEED_LIMIT, label="Seed", widget="number", reads="data",
        help="Picks the train/test split and the model's random choices. Same seed, same "
        "result.",
    ),
    Setting(
        "test_size", _on(TEST_SIZE), "float", *TEST_SIZE_RANGE, label="Test set size",
        widget="select_slider", steps=8, format=".0%", reads="data",
        help="The share of rows set aside before growing, to score the model on data it never "
        "saw. The seed picks which rows.",
    ),
    Setting(
        "tree", _on(0, FOREST), "int", 0, N_ESTIMATORS_LIMIT - 1, label="Tree number",
        reads="view",
    ),
    Setting("sample", _on(0, SINGLE, FOREST, STEP), "int", 0, SAMPLE_LIMIT, none="", reads="view"),
    Setting(
        "view", _on(None, SINGLE, FOREST, GINI), "choice", options=VIEWS, none="",
        label="More to see", reads="view",
        help="A lesson of its own on this page's data and settings, shown above the page's "
        "usual figures. It is in the link too.",
    ),
    Setting(
        "resamples", _on(20, FOREST), "int", 1, 100, label="Trees drawn over each other",
        widget="slider", reads="view",
        help="How many trees to grow, each on its own resample of the training rows, with "
        "the forest's settings, on the plotted features only.",
    ),
    *(
        Setting(
            f"{side}_{cls}", _on(default, GINI), "int", 0, 100, widget="slider", reads="view",
            label=f"{side.capitalize()} side: class {cls.upper()}",
            help="Training rows of this class the split sends to this side.",
        )
        for side, cls, default in (
            ("left", "a", 30), ("left", "b", 5), ("right", "a", 10), ("right", "b", 55)
        )
    ),
    Setting(
        "average", _on(True, FOREST), "bool", label="Average them", widget="toggle", reads="view",
        help="Draw the trees' average over them: what a forest of these trees predicts.",
    ),
    Setting(
        "map_cv", _on(False, SINGLE, GINI), "bool", label="Cross-validate (5 folds)",
        widget="toggle", reads="view",
        help="Score each cell of the parameter map by 5-fold cross-validation on the training "
        "rows (the mean of five scores) instead of on the test rows: steadier numbers, and the "
        "test set stays unseen while you choose.",
    ),
    Setting(
        "test_on_tree", _on(False, SINGLE, STEP), "bool",
        label="Show the test data on the tree", widget="toggle", reads="view",
        help="Each node then also says how many test samples reach it and how well the tree "
        "does on them.",
    ),
    Setting(
        "log_trees", _on(False, FOREST), "bool", label="Log scale for the number of trees",
        widget="toggle", reads="view",
        help="Gives 1-10, 10-100 and 100-1000 trees the same room, as in studies that measured "
        "forests of 1 to 1000 trees: the first few trees change the most.",
    ),
    Setting(  # the what-if view's changes to the traced sample; they belong to that sample
        "edit", _on(NO_EDITS, SINGLE), "values", -VALUE_LIMIT, VALUE_LIMIT,
        label="Edited values", reads="view",
        help="The traced test sample's values changed in the what-if view, by feature number.",
    ),
    # A visit starts at the first split, so that the page grows the tree as its title says;
    # the whole tree is a link away (step=none) and one click (Grow to the end).
    Setting("step", _on(1, STEP), "int", 0, STEP_LIMIT, none="the whole tree", reads="view"),
    Setting("node", _on(0, STEP), "int", 0, NODE_LIMIT, label="Node", reads="view"),
)
# fmt: on


#: The entries of each page, by name (a name has one entry per page).
BY_PAGE: dict[str, dict[str, Setting]] = {
    page: {s.name: s for s in TABLE if page in s.defaults} for page in ALL_PAGES
}


def estimator_names(model: Model) -> frozenset[str]:
    """The estimator arguments the table feeds ``model``, on any page.

    A model spec (:mod:`core.app.models`) holds exactly these, each at the estimator's own
    default on a page that has no setting for it.
    """
    return frozenset(
        entry.estimator
        for entries in BY_PAGE.values()
        for entry in entries.values()
        if entry.estimator is not None and model in entry.models
    )


def _entry(name: str) -> Setting | None:
    # Every entry of a name shows None under the same label, so any page's will do.
    return next((entries[name] for entries in BY_PAGE.values() if name in entries), None)


def to_widget(name: str, value: Any) -> Any:
    """``value`` of setting ``name`` as its widget holds it (:meth:`Setting.to_widget`)."""
    entry = _entry(name)
    return value if entry is None else entry.to_widget(value)


def from_widget(name: str, value: Any) -> Any:
    """The value of setting ``name`` that its widget's ``value`` stands for (the inverse)."""
    entry = _entry(name)
    return value if entry is None else entry.from_widget(value)
