"""core/app/settings/table.py: every entry goes somewhere, and an estimator's reaches the fit.

An entry declares where its value goes: an estimator argument (``estimator``, for the models
in ``models``), a data step (``reads="data"``: the rows, their split, the columns a model
sees) or a view (``reads="view"``: read by a page or a panel). A setting that goes nowhere
would be a slider that silently changes nothing; these tests fail on one.
"""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from core.app.models import columns, data_spec, forest_spec, tree_spec
from core.app.settings import (
    FOREST,
    SETTINGS,
    TABLE,
    DatasetShape,
    Form,
    Model,
    RandomForestSettings,
    Setting,
    SingleTreeSettings,
    estimator_names,
)
from core.app.settings import table as settings_table
from core.engine import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)

ROOT = Path(__file__).resolve().parents[2]
ESTIMATORS: dict[Model, tuple[type[Any], ...]] = {
    "tree": (DecisionTreeClassifier, DecisionTreeRegressor),
    "forest": (RandomForestClassifier, RandomForestRegressor),
}
IRIS = DatasetShape("classification", 150, 4, (0, 1))
# A generated set of three features: "all" of them is not the plotted pair.
PUZZLE = DatasetShape("classification", 200, 3, (0, 1), noise=0.2, noise_max=1.0, kind="generated")


def _id(entry: Setting) -> str:
    return f"{entry.name}@{'+'.join(entry.defaults)}"


def _entries(where: str | None = None) -> list[Setting]:
    if where == "estimator":
        return [entry for entry in TABLE if entry.estimator is not None]
    return [entry for entry in TABLE if where is None or entry.reads == where]


def _pages_of(entry: Setting) -> list[Form]:
    return [form for form in SETTINGS if form.key in entry.defaults]


def _another(entry: Setting, form: Form) -> Any:
    """A value of ``entry`` other than its default on ``form``, one a model can tell apart."""
    default = entry.defaults[form.key]
    candidates = [*entry.options, entry.low, entry.high, (entry.low + entry.high) / 2]
    candidates += [int(entry.low) + 1, True, False, None]
    for value in candidates:
        if entry.kind == "float" and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if value != default and entry.accepts(value):
            return value
    raise AssertionError(f"no value of {entry.name} other than {default!r}")


# --- every entry declares where it goes ------------------------------------------------------


@pytest.mark.parametrize("entry", TABLE, ids=_id)
def test_every_entry_declares_one_place_its_value_goes(entry):
    declared = [entry.estimator is not None, entry.reads is not None]
    assert declared.count(True) == 1, (
        f"{entry.name} must name an estimator argument or what reads it (reads='data' or "
        "'view'), and only one of them"
    )


@pytest.mark.parametrize("entry", _entries("estimator"), ids=_id)
def test_an_estimator_argument_is_one_every_estimator_of_its_models_takes(entry):
    assert entry.models, f"{entry.name} names an estimator argument for no model"
    for model in entry.models:
        for estimator in ESTIMATORS[model]:
            assert entry.estimator in estimator().get_params(), (
                f"{entry.name}: {estimator.__name__} takes no argument {entry.estimator!r}"
            )


@pytest.mark.parametrize("entry", _entries("estimator"), ids=_id)
def test_an_estimator_setting_reaches_the_arguments_of_the_model_it_feeds(entry):
    for form in _pages_of(entry):
        value = _another(entry, form)
        settings = form(**{entry.name: value})
        for model, spec_of in (("tree", tree_spec), ("forest", forest_spec)):
            arguments = spec_of(settings, IRIS).arguments()
            if model in entry.models:
                assert arguments[entry.estimator] == entry.argument(value), (entry.name, model)
            else:  # a forest's own, not the lone tree's beside it
                default = spec_of(form(), IRIS).arguments().get(entry.estimator)
                assert arguments.get(entry.estimator) == default, (entry.name, model)


@pytest.mark.parametrize("entry", _entries("data"), ids=_id)
def test_a_data_setting_changes_the_rows_or_the_columns_a_model_sees(entry):
    for form in _pages_of(entry):
        shape = PUZZLE
        before = form(dataset="moons") if "dataset" in form.entries else form()
        if entry.name == "dataset":
            after, shape = before.replace(dataset="wine"), IRIS
        else:
            after = before.replace(**{entry.name: _another(entry, form)})
        assert (data_spec(after, shape), columns(after, shape)) != (
            data_spec(before, shape),
            columns(before, shape),
        ), f"{entry.name} on {form.key} changes neither the rows nor the columns"


def _read_in(paths: list[Path]) -> set[str]:
    """Names read in ``paths``: attributes (``settings.tree``), and texts passed to a call or
    used as an index (``controls.show("log_trees")``, ``session["step"]``)."""
    read: set[str] = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute):
                read.add(node.attr)
            texts: list[ast.expr] = []
            if isinstance(node, ast.Call):
                texts = list(node.args)
            elif isinstance(node, ast.Subscript):
                texts = [node.slice]
            read.update(
                text.value
                for text in texts
                if isinstance(text, ast.Constant) and isinstance(text.value, str)
            )
    return read


@pytest.mark.parametrize("entry", _entries("view"), ids=_id)
def test_a_view_setting_is_read_by_a_page_or_a_panel(entry):
    shown = [*(ROOT / "pages").glob("*.py"), *(ROOT / "core" / "ui").rglob("*.py")]
    assert entry.name in _read_in(shown), f"no page or panel reads {entry.name}"


def test_a_spec_holds_exactly_the_arguments_the_table_feeds_its_model():
    for model, spec_of in (("tree", tree_spec), ("forest", forest_spec)):
        held = {name for name, _ in spec_of(SingleTreeSettings(), IRIS).hyperparameters}
        assert held == estimator_names(model)
    assert "n_estimators" not in estimator_names("tree")


# --- a new estimator setting is one entry ----------------------------------------------------


def _toy() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    return X, (X[:, 0] > 0).astype(int)


@pytest.fixture
def forest_with_max_samples(monkeypatch: pytest.MonkeyPatch) -> Setting:
    """The forest page with one setting more, ``max_samples``, declared only in the table."""
    entry = Setting(
        "max_samples", {FOREST: 0.5}, "float", 0.1, 1.0, label="max_samples", widget="slider",
        estimator="max_samples", models=("forest",),
    )  # fmt: skip
    monkeypatch.setattr(settings_table, "TABLE", (*TABLE, entry))
    monkeypatch.setitem(settings_table.BY_PAGE, FOREST, {**settings_table.BY_PAGE[FOREST]})
    monkeypatch.setitem(settings_table.BY_PAGE[FOREST], "max_samples", entry)
    return entry


@pytest.mark.filterwarnings("ignore:Some rows were in every tree")
def test_a_setting_added_to_the_table_reaches_the_fitted_estimator(forest_with_max_samples):
    settings = RandomForestSettings(max_samples=0.7, n_estimators=5)
    spec = forest_spec(settings, IRIS)
    assert spec.max_samples == 0.7
    forest = RandomForestClassifier(**spec.arguments()).fit(*_toy())
    assert forest.get_params()["max_samples"] == 0.7
    # Another value is another spec, so another cached forest.
    assert forest_spec(settings.replace(max_samples=0.5), IRIS) != spec
    # Not a tree's argument: the lone tree beside the forest knows nothing of it.
    assert "max_samples" not in tree_spec(settings, IRIS).arguments()


def test_a_spec_refuses_an_argument_the_table_does_not_feed_its_model():
    spec = tree_spec(SingleTreeSettings(), IRIS)
    with pytest.raises(TypeError, match=r"TreeSpec takes .*; got n_estimators"):
        spec.replace(n_estimators=5)
    with pytest.raises(TypeError, match="got max_leaf_count"):  # a misspelt name
        forest_spec(RandomForestSettings(), IRIS, max_leaf_count=8)


def test_a_spec_fills_what_a_page_lacks_with_the_estimators_defaults():
    # The forest page's lone tree and the single tree page's, with the same settings, are
    # one tree: one cache entry, whichever page grew it first.
    lone = tree_spec(RandomForestSettings(max_depth=3, max_features="log2"), IRIS)
    assert lone == tree_spec(SingleTreeSettings(max_depth=3), IRIS)
    assert (lone.min_samples_leaf, lone.ccp_alpha, lone.max_features) == (1, 0.0, None)
    assert lone == replace(lone, max_depth=3) and hash(lone) == hash(replace(lone, max_depth=3))
