"""Grow it step by step, and "why this split?" on both tree pages, run in-process (AppTest)."""

from __future__ import annotations

import inspect
import re
import textwrap
from typing import Any

import numpy as np
import pytest
from page_helpers import (
    ROOT,
    SINGLE_TREE,
    assert_healthy,
    block,
    chart_spec,
    count_calls,
    how_computed_code,
    open_page,
    query_of,
    svg,
    warnings,
)

from core import DecisionTreeClassifier, ui
from core.app.pages import GROW_STEP_BY_STEP
from core.app.settings import TEST_SIZE
from core.app.words import why_leaf_sentence
from core.data.catalogue import load_dataset
from core.data.datasets import train_test_split
from core.engine.node_splits import why_leaf
from core.engine.replay import growth_steps
from core.engine.structure import TREE_LEAF
from core.ui import growth_panels
from core.ui.cached import clear_caches

STEP_PAGE = ROOT / GROW_STEP_BY_STEP.path
WINE_PAIR = (6, 12)  # flavanoids and proline, the manifest's suggested pair


@pytest.fixture(scope="module")
def wine() -> tuple[Any, np.ndarray, np.ndarray]:
    """The page's default tree, grown here with the engine: wine, its pair, depth 4, seed 0."""
    rows = train_test_split(load_dataset("wine"), test_size=TEST_SIZE, random_state=0)
    X, y = rows.X_train[:, list(WINE_PAIR)], rows.y_train
    return DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y), X, y


def metric(app: Any, label: str) -> str:
    (value,) = [m.value for m in app.metric if m.label == label]
    return str(value)


def drawn_nodes(app: Any) -> int:
    return svg(app).count('class="node"')


def texts(app: Any) -> list[str]:
    """The words of the diagram, without the step page's node numbers and the traced sample."""
    words = re.findall(r"<text[^>]*>([^<]*)</text>", svg(app))
    return [w for w in words if not re.fullmatch(r"node \d+|test sample #\d+ lands here", w)]


def unescaped(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown)


# --- stepping ------------------------------------------------------------------------------


def test_a_link_opens_at_its_step_and_next_grows_one_split(wine: Any) -> None:
    model, _, _ = wine
    n_steps = len(growth_steps(model.tree_))
    app = open_page(STEP_PAGE, step="2")
    assert_healthy(app)
    assert not app.warning
    assert metric(app, "Splits made") == f"2 of {n_steps}"
    assert drawn_nodes(app) == 5  # 2k + 1: every split turns one leaf into two
    assert len(block(app, "split-history").dataframe[0].value) == 2

    app.button(key="step-next").click().run()
    assert_healthy(app)
    assert query_of(app)["step"] == "3"
    assert metric(app, "Splits made") == f"3 of {n_steps}"
    assert (drawn_nodes(app), metric(app, "Leaves")) == (7, "4")

    app.button(key="step-back").click().run()
    app.button(key="step-back").click().run()
    assert (query_of(app)["step"], drawn_nodes(app)) == ("1", 3)
    app.button(key="step-first").click().run()
    assert (query_of(app)["step"], drawn_nodes(app)) == ("0", 1)
    assert app.button(key="step-back").disabled and app.button(key="step-first").disabled
    app.button(key="step-end").click().run()
    assert query_of(app)["step"] == "none"
    app.segmented_control(key="tree-diagram-size").set_value("whole").run()  # nothing folded
    assert drawn_nodes(app) == model.tree_.node_count
    assert app.button(key="step-next").disabled and app.button(key="step-end").disabled


def test_a_link_without_a_step_opens_at_the_first_split(wine: Any) -> None:
    # The sidebar's link names no step: the page starts growing, not at the finished tree.
    model, _, _ = wine
    n_steps = len(growth_steps(model.tree_))
    app = open_page(STEP_PAGE)
    assert_healthy(app)
    assert not app.warning
    assert metric(app, "Splits made") == f"1 of {n_steps}"
    assert (drawn_nodes(app), metric(app, "Leaves")) == (3, "2")
    whole = open_page(STEP_PAGE, step="none")  # a link to the finished tree still opens it
    assert metric(whole, "Splits made") == f"{n_steps} of {n_steps}"


@pytest.mark.parametrize("step", ["3", "5", "7"])
def test_the_readable_tree_never_folds_a_single_leaf(step: str) -> None:
    # A step's new leaves are its point: none hides in a "+ 1 more node (1 leaf)" box.
    app = open_page(STEP_PAGE, step=step)
    assert_healthy(app)
    assert "1 more node" not in svg(app)
    single = open_page(SINGLE_TREE, dataset="wine")  # the same tree, finished
    assert "1 more node" not in svg(single)


def test_each_step_shows_the_scores_of_the_tree_after_it(wine: Any) -> None:
    model, _, _ = wine
    app = open_page(STEP_PAGE, step="0")
    # The root alone predicts its majority class for every wine.
    majority = np.bincount(wine[2]).max() / len(wine[2])
    assert metric(app, "Train accuracy") == f"{majority:.3f}"
    assert any("No split yet" in m.value for m in app.markdown)
    history = growth_steps(model.tree_)
    app.button(key="step-next").click().run()
    rule = f"proline ≤ {history.threshold[0]:.4g}"  # the first split, and its line
    lines = [t for t in chart_spec(app, "step-boundary")["data"] if t.get("name") == "newest split"]
    assert len(lines) == 1
    assert rule in lines[0]["hovertemplate"]


def test_the_last_step_is_the_single_tree_pages_tree() -> None:
    query = {"dataset": "iris", "max_depth": "none", "criterion": "entropy"}
    single = open_page(SINGLE_TREE, **query)
    grown = open_page(STEP_PAGE, **query, step="none")
    for app in (single, grown):
        assert_healthy(app)
        app.segmented_control(key="tree-diagram-size").set_value("whole").run()
    for label in ("Train accuracy", "Test accuracy", "Leaves"):
        assert metric(grown, label) == metric(single, label), label
    assert texts(grown) == texts(single)  # the same nodes, rules, counts and impurities
    # The last step reached with the buttons is that tree too.
    stepped = open_page(STEP_PAGE, **query, step="0")
    stepped.button(key="step-end").click().run()
    stepped.segmented_control(key="tree-diagram-size").set_value("whole").run()
    assert texts(stepped) == texts(single)


def test_a_step_beyond_the_tree_shows_the_whole_tree_with_a_notice(wine: Any) -> None:
    model, _, _ = wine
    n_steps = len(growth_steps(model.tree_))
    app = open_page(STEP_PAGE, step="50")
    assert_healthy(app)
    (notice,) = warnings(app)
    assert f"grown in {n_steps} splits, fewer than 50" in notice
    assert metric(app, "Splits made") == f"{n_steps} of {n_steps}"
    assert query_of(app)["step"] == "none"


@pytest.mark.parametrize("raw", ["<script>alert(1)</script>", "-3", "2.5", "x" * 200])
def test_a_hostile_step_gives_a_notice_not_a_traceback(raw: str) -> None:
    app = open_page(STEP_PAGE, step=raw, node="nope")
    assert_healthy(app)
    (notice,) = warnings(app)
    assert "step" in notice and "node" in notice and "<script" not in notice
    assert query_of(app)["step"] == "1"  # the default: the first split


def test_a_stale_step_after_a_smaller_tree_stays_in_range() -> None:
    app = open_page(STEP_PAGE, step="9")
    app.select_slider(key="max_depth").set_value(2).run()  # 3 splits now
    assert_healthy(app)
    assert metric(app, "Splits made") == "3 of 3"
    assert not app.warning, "only a link's own step gets a notice"
    app.button(key="step-back").click().run()
    assert metric(app, "Splits made") == "2 of 3"


def test_the_sine_grows_step_by_step_too() -> None:
    app = open_page(STEP_PAGE, dataset="sine", step="1")
    assert_healthy(app)
    figure = chart_spec(app, "step-boundary")
    assert any(t.get("name") == "after 1 splits" for t in figure["data"])
    (line,) = figure["layout"]["shapes"]
    assert line["x0"] == line["x1"]  # the newest split, a vertical line at its threshold
    assert drawn_nodes(app) == 3


# --- why this split -------------------------------------------------------------------------


def test_the_candidates_best_is_the_nodes_own_split_at_every_split_node(wine: Any) -> None:
    model, _, _ = wine
    tree = model.tree_
    names = ("flavanoids", "proline")
    w = tree.weighted_n_node_samples
    app = open_page(STEP_PAGE)
    split_nodes = [n for n in range(tree.node_count) if tree.children_left[n] != TREE_LEAF]
    assert len(split_nodes) == 10
    for node in split_nodes:
        app.selectbox(key="node").set_value(node).run()
        assert_healthy(app)
        assert query_of(app)["node"] == str(node)
        table = block(app, "split-candidates").dataframe[0].value
        best = table.iloc[0]
        assert bool(best["tree's split"])
        assert best["rule"] == f"{names[tree.feature[node]]} ≤ {tree.threshold[node]:.4g}"
        left, right = tree.children_left[node], tree.children_right[node]
        after = (w[left] * tree.impurity[left] + w[right] * tree.impurity[right]) / w[node]
        assert best["weighted impurity"] == pytest.approx(after)
        assert best["gain"] == pytest.approx(tree.impurity[node] - after)
        assert best["gain"] == pytest.approx(table["gain"].max())
        assert chart_spec(app, "split-scan")["data"], "the impurity-vs-threshold curves"


def test_a_leaf_says_why_it_stopped(wine: Any) -> None:
    model, X, y = wine
    tree = model.tree_
    for code in ("max_depth", "pure"):
        leaf = next(
            n
            for n in range(tree.node_count)
            if tree.children_left[n] == TREE_LEAF and why_leaf(model, X, y, n).code == code
        )
        app = open_page(STEP_PAGE, node=str(leaf))
        assert_healthy(app)
        shown = unescaped(block(app, "leaf-reason").info[0].value)
        reason = why_leaf(model, X, y, leaf)
        assert shown == why_leaf_sentence(reason, ["flavanoids", "proline"], model.classes_)
        assert ("max_depth=4" if code == "max_depth" else "is pure") in shown


def test_a_leaf_names_its_best_split_by_the_pages_feature_names() -> None:
    # min_impurity_decrease=0.02 stops node 10 of the page's tree: its best split, on
    # flavanoids, would decrease the impurity by less. The page names the feature as it does.
    rows = train_test_split(load_dataset("wine"), test_size=TEST_SIZE, random_state=0)
    X, y = rows.X_train[:, list(WINE_PAIR)], rows.y_train
    model = DecisionTreeClassifier(max_depth=4, random_state=0, min_impurity_decrease=0.02)
    model.fit(X, y)
    assert why_leaf(model, X, y, 10).code == "min_impurity_decrease"
    app = open_page(STEP_PAGE, node="10", min_impurity_decrease="0.02")
    assert_healthy(app)
    assert unescaped(block(app, "leaf-reason").info[0].value) == (
        "Node 10 stops: its best split, on flavanoids, decreases the weighted impurity by "
        "0.0139, less than min_impurity_decrease=0.02."
    )


def test_how_it_is_computed_shows_the_leaf_reason_in_numbers_and_in_words() -> None:
    # The engine answers with a code and numbers, the words turn them into the sentence shown:
    # a student reading the source sees both halves.
    app = open_page(STEP_PAGE)
    sources = how_computed_code(app)
    for function in (why_leaf, why_leaf_sentence):
        assert textwrap.dedent(inspect.getsource(function)).strip() in sources


def test_your_split_numbers_are_the_hand_computed_ones(wine: Any) -> None:
    model, X, y = wine
    tree = model.tree_
    node = 1  # proline <= 900.5: 94 wines of all three classes
    at = model.decision_path(X).toarray()[:, node].astype(bool)
    app = open_page(STEP_PAGE, node=str(node))
    app.selectbox(key="your-split-feature").set_value(0).run()  # flavanoids
    app.slider(key=f"your-split-threshold-{node}-0").set_value(1.5).run()
    assert_healthy(app)
    table = block(app, "your-split").dataframe[0].value.set_index("split")
    yours, best = table.loc["yours"], table.loc["the tree's best"]

    # By hand: counts on each side, Gini 1 - sum p^2, children weighted by their sizes.
    def gini(labels: np.ndarray) -> float:
        p = np.bincount(labels, minlength=3) / len(labels)
        return float(1 - (p**2).sum())

    goes_left = X[at, 0] <= 1.5
    left, right = y[at][goes_left], y[at][~goes_left]
    n = at.sum()
    weighted = (len(left) * gini(left) + len(right) * gini(right)) / n
    assert yours["rule"] == "flavanoids ≤ 1.5"
    assert yours["left"] == f"{len(left)} ({'/'.join(map(str, np.bincount(left, minlength=3)))})"
    assert yours["right"] == f"{len(right)} ({'/'.join(map(str, np.bincount(right, minlength=3)))})"
    assert yours["left impurity"] == pytest.approx(gini(left))
    assert yours["right impurity"] == pytest.approx(gini(right))
    assert yours["weighted impurity"] == pytest.approx(weighted)
    assert yours["gain"] == pytest.approx(gini(y[at]) - weighted)
    # The tree's best is the node's own split.
    assert best["rule"] == f"flavanoids ≤ {tree.threshold[node]:.4g}"
    assert best["gain"] == pytest.approx(tree.impurity[node] - best["weighted impurity"])
    sentence = unescaped(block(app, "your-split").markdown[0].value)
    assert f"Your split gains {gini(y[at]) - weighted:.3g}" in sentence
    assert f"the tree's best gains {best['gain']:.3g}" in sentence


def test_a_new_step_asks_nothing_again_about_the_same_node(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # "Why this split?" and "your split" are about the finished tree's node, whatever the
    # step: Next redraws the tree after one more split and recomputes neither.
    clear_caches()
    rows = count_calls(monkeypatch, growth_panels, "node_rows")
    comparisons = count_calls(monkeypatch, growth_panels, "compare_with_best")
    app = open_page(STEP_PAGE, node="1", step="1")
    table = block(app, "your-split").dataframe[0].value
    assert (len(rows), len(comparisons)) == (1, 1)
    for _ in range(2):
        app.button(key="step-next").click().run()
        assert_healthy(app)
    assert query_of(app)["step"] == "3"
    assert (len(rows), len(comparisons)) == (1, 1)
    assert block(app, "your-split").dataframe[0].value.equals(table)
    app.slider(key="your-split-threshold-1-0").set_value(1.5).run()  # another split: compared
    assert len(comparisons) == 2 and len(rows) == 1


def test_the_root_of_iris_invites_to_beat_the_tree() -> None:
    app = open_page(STEP_PAGE, dataset="iris", node="0")
    assert_healthy(app)
    assert "Beat the tree" in block(app, "your-split").markdown[0].value


# --- the same panels on the Single tree page ----------------------------------------------


def test_single_tree_asks_why_at_any_node_once_opened() -> None:
    app = open_page(SINGLE_TREE, dataset="wine")
    assert "node 0" not in svg(app), "numbers only once asked"
    app.session_state["why-split"] = True  # what clicking the expander open does
    app.run()
    app.selectbox(key="why-node").set_value(4).run()
    assert_healthy(app)
    drawing = svg(app)
    assert "node 4" in drawing and "node 0" in drawing
    assert 'stroke="#0072b2"' in drawing, "the selected node's double border"
    assert block(app, "split-candidates").dataframe or block(app, "leaf-reason").info
    assert block(app, "your-split").dataframe


def test_single_tree_picks_the_root_again_when_the_tree_shrinks() -> None:
    app = open_page(SINGLE_TREE, dataset="wine", max_depth="5")
    app.session_state["why-split"] = True
    app.run()
    app.selectbox(key="why-node").set_value(20).run()
    app.select_slider(key="max_depth").set_value(1).run()  # 3 nodes now
    assert_healthy(app)
    assert app.selectbox(key="why-node").value == 0


def test_a_boundary_that_fails_leaves_the_rest_of_the_step_page_standing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The figure's failure is the guard's friendly message; the split in words, the history
    and the tree still show (its caption once went unset, and the page raised)."""

    def broken(*args: Any, **kwargs: Any) -> str:
        raise ValueError("no boundary today")

    monkeypatch.setattr(ui, "step_fit", broken)
    app = open_page(STEP_PAGE)
    assert not app.exception, [e.value for e in app.exception]
    assert [w for w in warnings(app) if "could not show the decision boundary" in w]
    headings = [h.value for h in app.subheader]
    assert "Splits so far" in headings
    assert any(h.startswith("The tree after") for h in headings)
    assert drawn_nodes(app) > 1
