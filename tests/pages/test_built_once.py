"""Figures built once beside their models (core.ui.built.built_once), and pages reusing them."""

from __future__ import annotations

import contextlib
import gc
import json
import threading
import weakref
from typing import Any

import numpy as np
import pytest
from sklearn.datasets import load_wine

from core import DecisionTreeClassifier, RandomForestClassifier
from core.app.pages import GROW_STEP_BY_STEP
from core.app.words import why_leaf_sentence
from core.engine.node_splits import split_candidates, why_leaf
from core.figures import boundary_figure, compute_boundary, compute_split_scan, split_scan_figure
from core.figures.votes import compute_votes, vote_figure
from core.ui import criterion_panel, diagram_panel, panels, step_panels
from core.ui.built import BUILT_PER_MODEL, built_once
from core.ui.cached import clear_caches
from core.ui.views import criteria_parts
from core.ui.views import forest as forest_view
from tests.pages.page_helpers import (
    GINI_VS_ENTROPY,
    RANDOM_FOREST,
    ROOT,
    SINGLE_TREE,
    assert_healthy,
    block,
    count_calls,
    open_page,
    svg,
)


class Model:
    """A stand-in for a fitted model: built_once() needs only identity and weak references."""


def counting(calls: list[str], name: str, value: Any = None) -> Any:
    def draw() -> Any:
        calls.append(name)
        return value if value is not None else object()

    return draw


def test_a_value_is_built_once_per_model_and_key() -> None:
    model, calls = Model(), []
    first = built_once([model], ("boundary", 0), counting(calls, "a"))
    again = built_once([model], ("boundary", 0), counting(calls, "b"))
    other_key = built_once([model], ("boundary", 1), counting(calls, "c"))
    other_model = built_once([Model()], ("boundary", 0), counting(calls, "d"))
    assert again is first
    assert other_key is not first and other_model is not first
    assert calls == ["a", "c", "d"]


def test_the_other_models_count_too() -> None:
    tree, forest, calls = Model(), Model(), []
    pair = built_once([tree, forest], "fit", counting(calls, "pair"))
    assert built_once([tree, forest], "fit", counting(calls, "again")) is pair
    built_once([tree, Model()], "fit", counting(calls, "new forest"))
    built_once([tree], "fit", counting(calls, "tree alone"))
    assert calls == ["pair", "new forest", "tree alone"]


def test_built_values_go_with_their_model() -> None:
    model, drawing = Model(), Model()
    kept = weakref.ref(drawing)
    assert built_once([model], "k", counting([], "k", drawing)) is drawing
    del drawing
    gc.collect()
    assert kept() is not None  # the cache holds it while the model lives
    del model
    gc.collect()
    assert kept() is None  # and lets it go with the model


def test_no_real_drawing_holds_its_model() -> None:
    """What the panels remember must not keep the model alive (it would never be freed)."""
    wine = load_wine()
    X, y = wine.data, wine.target
    forest = RandomForestClassifier(n_estimators=5, random_state=0).fit(X, y)
    tree = DecisionTreeClassifier(max_depth=2).fit(X, y)
    leaf = int(np.flatnonzero(tree.tree_.children_left == -1)[0])
    data = compute_boundary(tree, X, y, features=(0, 1))
    counted = compute_votes(forest, X[0], 0.0, ["a", "b", "c"])
    drawings = [
        (data, boundary_figure(data)),
        (counted, vote_figure(counted)),
        (split_candidates(tree, X, y, 0), split_scan_figure(compute_split_scan(tree, X, y, 0))),
        # As the leaf panel remembers it: the reason in words.
        (split_candidates(tree, X, y, leaf), why_leaf_sentence(why_leaf(tree, X, y, leaf))),
    ]
    models = [weakref.ref(forest), weakref.ref(tree)]
    del forest, tree
    gc.collect()
    assert [model() for model in models] == [None, None]
    assert len(drawings) == 4  # still alive here


def _building_at_once(fail_first: bool) -> tuple[list[str], list[Any]]:
    """Two visitors ask for the same value while the first one's build is still going."""
    model, calls, got = Model(), [], []
    started, release = threading.Event(), threading.Event()

    def slow() -> Any:
        calls.append("first")
        started.set()
        release.wait(timeout=10)
        if fail_first:
            raise RuntimeError("the first build failed")
        return "first's"

    def first() -> None:
        with contextlib.suppress(RuntimeError):
            got.append(built_once([model], "curve", slow))

    thread = threading.Thread(target=first, daemon=True)
    thread.start()
    assert started.wait(timeout=10)
    second = threading.Thread(
        target=lambda: got.append(built_once([model], "curve", counting(calls, "second", "2nd"))),
        daemon=True,
    )
    second.start()
    second.join(timeout=0.2)
    assert second.is_alive(), "the second visitor waits for the build in progress"
    release.set()
    thread.join(timeout=10)
    second.join(timeout=10)
    return calls, got


def test_a_value_being_built_is_waited_for_not_built_again() -> None:
    calls, got = _building_at_once(fail_first=False)
    assert calls == ["first"]
    assert got == ["first's", "first's"]


def test_a_failed_build_is_made_by_the_one_who_waited_for_it() -> None:
    calls, got = _building_at_once(fail_first=True)
    assert calls == ["first", "second"]
    assert got == ["2nd"]


def test_a_build_that_asks_for_its_own_value_does_not_wait_for_itself() -> None:
    model, calls = Model(), []

    def outer() -> Any:
        calls.append("outer")
        return built_once([model], "same", counting(calls, "inner", "inner's"))

    got: list[Any] = []
    thread = threading.Thread(
        target=lambda: got.append(built_once([model], "same", outer)), daemon=True
    )
    thread.start()
    thread.join(timeout=10)
    assert not thread.is_alive(), "the build waits for itself"
    assert got == ["inner's"]
    assert calls == ["outer", "inner"]


def test_a_model_keeps_its_latest_built_values_only() -> None:
    model, calls = Model(), []
    for k in range(BUILT_PER_MODEL + 1):
        built_once([model], k, counting(calls, f"first {k}"))
    # Key 0 was the oldest: dropped. Key 1 (and the newest) are still there.
    built_once([model], 1, counting(calls, "again 1"))
    built_once([model], BUILT_PER_MODEL, counting(calls, "again last"))
    built_once([model], 0, counting(calls, "again 0"))
    assert calls == [f"first {k}" for k in range(BUILT_PER_MODEL + 1)] + ["again 0"]


def test_a_value_asked_for_again_outlives_newer_ones() -> None:
    # A page's scores are asked for on every rerun while samples are clicked in turn: the
    # scores must not be dropped as the oldest value.
    model, calls = Model(), []
    built_once([model], "scores", counting(calls, "scores"))
    for k in range(2 * BUILT_PER_MODEL):
        built_once([model], k, counting(calls, f"sample {k}"))
        built_once([model], "scores", counting(calls, "scores again"))
    assert "scores again" not in calls
    built_once([model], 0, counting(calls, "sample 0 again"))
    assert calls[-1] == "sample 0 again"  # the least recently used was dropped


def _counting_boundaries(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    # New model objects, so no drawing from an earlier test is found for them.
    clear_caches()
    return count_calls(monkeypatch, panels, "boundary_figure")


def test_a_new_tree_index_redraws_no_boundary(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting_boundaries(monkeypatch)
    app = open_page(RANDOM_FOREST, n_estimators="30")
    assert len(calls) == 3  # the lone tree, the forest, and the opened tree 0
    before = {c.proto.id: json.loads(c.proto.spec) for c in app.get("plotly_chart")}
    app.number_input(key="tree").set_value(3).run()
    assert_healthy(app)
    assert len(calls) == 4  # only tree 3's own fit is new
    after = {c.proto.id: json.loads(c.proto.spec) for c in app.get("plotly_chart")}
    changed = [key for key in before if after.get(key) != before[key]]
    # Every chart but the opened tree's fit is the same, from the remembered figures.
    assert len(changed) == 1 and "forest-tree" in changed[0]


def test_the_forests_curve_is_built_once_for_its_forest(monkeypatch: pytest.MonkeyPatch) -> None:
    # A follower of a class, and a move of the sample or the tree, meet the same forest: its
    # curve, figure and wire form, is found beside it.
    clear_caches()
    calls = count_calls(monkeypatch, forest_view, "forest_curve_figure")
    app = open_page(RANDOM_FOREST, n_estimators="30")
    curve = json.loads(block(app, "forest-curve").get("plotly_chart")[0].proto.spec)
    app.number_input(key="tree").set_value(3).run()
    app.selectbox(key="sample").set_value(4).run()
    assert_healthy(app)
    assert len(calls) == 1
    assert json.loads(block(app, "forest-curve").get("plotly_chart")[0].proto.spec) == curve
    app.toggle(key="log_trees").set_value(True).run()  # another figure of the same forest
    assert_healthy(app)
    assert len(calls) == 2


def _specs(app: Any) -> list[dict[str, Any]]:
    return [json.loads(c.proto.spec) for c in app.get("plotly_chart")]


def test_a_new_sample_moves_the_star_over_the_same_regions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A tree on the two plotted features draws the same regions whatever the sample: only
    # the star is the sample's own, so nothing is built again.
    calls = _counting_boundaries(monkeypatch)
    app = open_page(SINGLE_TREE)
    first = _specs(app)[0]
    app.selectbox(key="sample").set_value(4).run()
    assert_healthy(app)
    assert len(calls) == 1
    moved = _specs(app)[0]
    assert moved["data"][:-1] == first["data"][:-1] and moved["layout"] == first["layout"]
    assert (first["data"][-1]["name"], moved["data"][-1]["name"]) == (
        "test sample #0",
        "test sample #4",
    )
    assert moved["data"][-1]["x"] != first["data"][-1]["x"] or (
        moved["data"][-1]["y"] != first["data"][-1]["y"]
    )


def test_a_tree_on_all_features_is_drawn_once_for_every_sample(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A tree on all four features is drawn by its stand-in, grown on the two plotted features
    # (a slice through the traced sample was often one colour): no sample draws it again.
    calls = _counting_boundaries(monkeypatch)
    app = open_page(SINGLE_TREE, fit="all")
    app.selectbox(key="sample").set_value(4).run()
    assert_healthy(app)
    assert len(calls) == 1
    app.selectbox(key="sample").set_value(0).run()
    assert len(calls) == 1
    star = _specs(app)[0]["data"][-1]
    assert star["name"] == "test sample #0"
    title = _specs(app)[0]["layout"]["title"]["text"].replace("<br>", " ")
    assert "a tree with the same settings grown on these 2 of the 4 features" in title


def test_samples_that_reach_one_leaf_share_the_diagrams_levels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The levels a diagram shows are chosen once per leaf the traced sample reaches (and the
    # length of its number): a second sample down the same path takes that choice, and its
    # drawing is the one a fresh choice gives.
    choices = count_calls(monkeypatch, diagram_panel, "choose_fold")
    clear_caches()
    app = open_page(SINGLE_TREE, max_depth="4")
    drawn = {0: svg(app)}
    for sample in range(1, 10):
        app.selectbox(key="sample").set_value(sample).run()
        assert_healthy(app)
        drawn[sample] = svg(app)
        assert f"test sample #{sample}" in drawn[sample]
    assert len(choices) < 10  # ten samples, fewer leaves: some choices were shared
    for sample in (3, 9):  # drawn from a shared choice or not: as if chosen afresh
        clear_caches()
        assert svg(open_page(SINGLE_TREE, max_depth="4", sample=str(sample))) == drawn[sample]


def test_a_regressions_step_is_drawn_once_for_every_run(monkeypatch: pytest.MonkeyPatch) -> None:
    # A class's followers each run the step page for the same step: the fit with its newest
    # split's line is drawn once, as a classification's regions are, and found again.
    clear_caches()
    calls = count_calls(monkeypatch, step_panels, "regression_figure")
    app = open_page(ROOT / GROW_STEP_BY_STEP.path, dataset="sine", step="2")
    first = _specs(app)
    app.run()
    assert_healthy(app)
    assert len(calls) == 1
    assert _specs(app) == first
    app.button(key="step-next").click().run()  # a new step: a new fit, a new line
    assert_healthy(app)
    assert len(calls) == 2


def test_the_criterion_views_figures_are_drawn_once_for_every_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Where the two trees part, the impurity curves and accuracy against depth: a follower's
    # run of the same view finds them beside the trees.
    clear_caches()
    drawn = {
        name: count_calls(monkeypatch, owner, name)
        for owner, name in (
            (criterion_panel, "first_parting"),
            (criteria_parts, "compute_impurity_curves"),
            (criteria_parts, "depth_curve_figure"),
        )
    }
    app = open_page(GINI_VS_ENTROPY, dataset="wine", max_depth="4", view="criterion-matters")
    first = _specs(app)
    app.run()
    assert_healthy(app)
    assert {name: len(calls) for name, calls in drawn.items()} == dict.fromkeys(drawn, 1)
    assert _specs(app) == first
