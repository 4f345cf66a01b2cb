"""Tree diagrams: traced data checked by hand, golden DOT, paths, collapsing, test figures."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from core import DecisionTreeClassifier, DecisionTreeRegressor, RandomForestClassifier
from core.figures import build_tree_diagram, to_dot
from core.figures.node_label import escape_html, format_alike, format_number

from .conftest import HandTree

GOLDEN = Path(__file__).parent / "golden"
EDGE = re.compile(r"^n(\d+) -> ([nc])(\d+) \[label=<([^>]*)>, penwidth=([\d.]+)", re.MULTILINE)
NODE = re.compile(r"^([nc])(\d+) \[label=.*penwidth=([\d.]+)\];$", re.MULTILINE)


def test_hand_tree_numbers(hand_tree: HandTree) -> None:
    diagram = build_tree_diagram(hand_tree)
    root = diagram.node(0)
    assert root.counts == (3.0, 2.0)
    assert root.majority == 0
    assert root.purity == pytest.approx(0.2)  # (0.6 - 1/2) / (1 - 1/2)
    assert root.fill == "#F9E8C2"  # 24 % of #E69F00 on white
    assert diagram.node(2).feature_name == "x[1]"
    assert diagram.node(2).threshold == 0.5
    assert [n.is_leaf for n in diagram.nodes] == [False, True, False, True, True]
    assert [(e.parent, e.child, e.is_left) for e in diagram.edges] == [
        (0, 1, True),
        (0, 2, False),
        (2, 3, True),
        (2, 4, False),
    ]


def test_golden_dot_detailed(hand_tree: HandTree) -> None:
    diagram = build_tree_diagram(
        hand_tree, feature_names=["size & <weight>", "b"], class_names=['"no"', "yes"]
    )
    expected = (GOLDEN / "hand_tree_detailed.dot").read_text(encoding="utf-8")
    assert to_dot(diagram, edge_labels="inequality") == expected


def test_golden_dot_beginner_with_path(hand_tree: HandTree) -> None:
    diagram = build_tree_diagram(hand_tree, sample=[5, 1], sample_label="row 4")
    expected = (GOLDEN / "hand_tree_beginner_path.dot").read_text(encoding="utf-8")
    dot = to_dot(diagram, detail="beginner", legend=False)
    assert dot == expected
    assert "gini =" not in dot and "samples =" not in dot


def test_escaping_of_names() -> None:
    assert escape_html("a<b & \"c\" 'd'\nnext") == "a&lt;b &amp; &quot;c&quot; &#39;d&#39; next"
    assert format_number(2.4500001) == "2.45"
    assert format_number(-0.0001) == "0"
    assert format_number(700.0) == "700"


@pytest.mark.parametrize("in_forest", [False, True], ids=["tree", "forest tree 2"])
def test_every_edge_is_labelled(iris: Any, in_forest: bool) -> None:
    X, y = iris.data, iris.target
    if in_forest:
        forest_class = RandomForestClassifier
        model = forest_class(n_estimators=3, random_state=0).fit(X, y)
        tree_index: int | None = 2
        node_count = model.estimators_[2].tree_.node_count
    else:
        model = DecisionTreeClassifier(random_state=0).fit(X, y)
        tree_index = None
        node_count = model.tree_.node_count
    diagram = build_tree_diagram(model, tree_index=tree_index, feature_names=iris.feature_names)
    assert len(diagram.nodes) == node_count
    for labels in ("truefalse", "inequality"):
        dot = to_dot(diagram, edge_labels=labels)
        edges = EDGE.findall(dot)
        assert len(edges) == node_count - 1
        assert all(label.strip() for *_, label, _ in edges)
        assert dot.count("-> ") == node_count - 1


def test_edge_width_grows_with_samples(iris: Any) -> None:
    tree_class = DecisionTreeClassifier
    model = tree_class(max_depth=1, random_state=0).fit(iris.data, iris.target)
    dot = to_dot(build_tree_diagram(model))
    widths = {int(child): float(w) for _, _, child, _, w in EDGE.findall(dot)}
    # 50 setosa go left, 100 go right: widths 1 + 7 * share
    assert widths == {
        1: pytest.approx(1 + 7 * 50 / 150, abs=0.01),
        2: pytest.approx(1 + 7 * 100 / 150, abs=0.01),
    }


@pytest.mark.parametrize("row", [0, 70, 77, 120])
def test_path_marks_exactly_the_decision_path(iris: Any, row: int) -> None:
    tree_class = DecisionTreeClassifier
    model = tree_class(random_state=0).fit(iris.data, iris.target)
    sample = iris.data[row]
    expected = set(model.decision_path(sample.reshape(1, -1)).indices.tolist())
    diagram = build_tree_diagram(model, sample=sample, sample_label=f"sample #{row}")
    assert {n.node_id for n in diagram.nodes if n.on_path} == expected
    assert diagram.path_leaf == int(model.apply(sample.reshape(1, -1))[0])
    dot = to_dot(diagram)
    outlined = {int(i) for kind, i, width in NODE.findall(dot) if kind == "n" and width == "4"}
    assert outlined == expected
    bold = {int(child) for _, _, child, _, _ in EDGE.findall(dot)} & expected
    assert {
        int(c)
        for line in dot.splitlines()
        if 'style="bold"' in line
        for c in re.findall(r"-> n(\d+)", line)
    } == bold
    assert dot.count(f"sample #{row} lands here") == 1


def _subtree(model: Any, node: int) -> tuple[int, int]:
    left, right = model.tree_.children_left, model.tree_.children_right
    if left[node] == -1:
        return 1, 1
    a, b = _subtree(model, left[node]), _subtree(model, right[node])
    return 1 + a[0] + b[0], a[1] + b[1]


@pytest.mark.parametrize("cap", [0, 1, 2, 3])
def test_collapsed_markers_count_hidden_nodes(iris: Any, cap: int) -> None:
    tree_class = DecisionTreeClassifier
    model = tree_class(random_state=0).fit(iris.data, iris.target)
    diagram = build_tree_diagram(model, max_depth=cap)
    # Below the cap only leaves show (a leaf never folds into a box of its own).
    assert all(n.depth <= cap or (n.is_leaf and n.depth == cap + 1) for n in diagram.nodes)
    for marker in diagram.collapsed:
        assert (marker.hidden_nodes, marker.hidden_leaves) == _subtree(model, marker.root)
    hidden = sum(m.hidden_nodes for m in diagram.collapsed)
    assert len(diagram.nodes) + hidden == model.tree_.node_count
    visible_leaves = sum(n.is_leaf for n in diagram.nodes)
    n_leaves = int(np.sum(model.tree_.children_left == -1))
    assert visible_leaves + sum(m.hidden_leaves for m in diagram.collapsed) == n_leaves
    dot = to_dot(diagram)
    for marker in diagram.collapsed:
        nodes = "node" if marker.hidden_nodes == 1 else "nodes"
        assert f"+ {marker.hidden_nodes} more {nodes}" in dot
        assert f"-> c{marker.root} [label=<" in dot


def test_collapsed_marker_on_path(iris: Any) -> None:
    model = DecisionTreeClassifier(random_state=0).fit(iris.data, iris.target)
    diagram = build_tree_diagram(model, max_depth=1, sample=iris.data[70])
    on_path = [m for m in diagram.collapsed if m.on_path]
    assert len(on_path) == 1
    assert "sample continues here" in to_dot(diagram)


def test_test_figures_per_node(iris: Any) -> None:
    X, y = iris.data, iris.target
    tree_class = DecisionTreeClassifier
    model = tree_class(max_depth=2, random_state=0).fit(X[::2], y[::2])
    X_test, y_test = X[1::2], y[1::2]
    diagram = build_tree_diagram(model, X_test=X_test, y_test=y_test)
    root = diagram.node(0)
    assert root.test_samples == len(X_test)
    assert root.test_score == pytest.approx(np.mean(model.predict(X_test) == y_test))
    leaves = [n for n in diagram.nodes if n.is_leaf]
    assert sum(n.test_samples or 0 for n in leaves) == len(X_test)
    reached = model.apply(X_test)
    for leaf in leaves:
        mask = reached == leaf.node_id
        assert leaf.test_samples == int(mask.sum())
        if mask.any():
            assert leaf.test_score == pytest.approx(np.mean(y_test[mask] == leaf.majority))
    assert f"test: {len(X_test)} samples, accuracy" in to_dot(diagram)


@pytest.mark.parametrize("regression", [False, True], ids=["classification", "regression"])
def test_the_test_data_shows_on_a_big_tree_in_the_short_detail_too(regression: bool) -> None:
    # Issue 24: "Show the test data on the tree" changed nothing on a tree of more than 16
    # leaves, drawn with rules only ("beginner"): the test line was a detailed row.
    rng = np.random.default_rng(1)
    X = rng.uniform(0, 6, size=(300, 2))
    noisy = X.sum(axis=1) + rng.normal(0, 1.0, 300)
    y = np.sin(X[:, 0]) + rng.normal(0, 0.3, 300) if regression else (noisy > 6) * 1
    model = (DecisionTreeRegressor if regression else DecisionTreeClassifier)(random_state=0)
    model.fit(X[:200], y[:200])
    assert model.get_n_leaves() > 16
    diagram = build_tree_diagram(model, X_test=X[200:], y_test=y[200:])
    short = to_dot(diagram, detail="beginner")
    score = "MSE" if regression else "accuracy"
    assert f"test: 100 samples, {score}" in short, "the root counts every test sample"
    assert short.count("test: ") == len(diagram.nodes)
    assert "test: " not in to_dot(build_tree_diagram(model), detail="beginner")


def test_regression_tree() -> None:
    rng = np.random.default_rng(0)
    X = rng.uniform(0, 6, size=(80, 1))
    y = np.sin(X[:, 0])
    model = DecisionTreeRegressor(max_depth=2, random_state=0).fit(X, y)
    diagram = build_tree_diagram(model, feature_names=["x"], X_test=X[:20], y_test=y[:20])
    assert diagram.task == "regression"
    assert diagram.impurity_name == "squared error"
    root = diagram.node(0)
    assert root.value == pytest.approx(y.mean())
    assert root.test_score == pytest.approx(np.mean((model.predict(X[:20]) - y[:20]) ** 2))
    dot = to_dot(diagram)
    assert "squared error = " in dot and "mean = " in dot and "MSE" in dot
    leaf_values = [n.value for n in diagram.nodes if n.is_leaf]
    fills = [n.fill for n in diagram.nodes if n.is_leaf]
    # the sequential scale darkens with the value: darkest fill at the largest mean
    darkness = [sum(int(f[k : k + 2], 16) for k in (1, 3, 5)) for f in fills]
    assert int(np.argmin(darkness)) == int(np.argmax(leaf_values))


def test_entropy_named_in_bits(iris: Any) -> None:
    tree_class = DecisionTreeClassifier
    model = tree_class(criterion="entropy", max_depth=1).fit(iris.data, iris.target)
    diagram = build_tree_diagram(model)
    assert diagram.impurity_name == "entropy (bits)"
    assert diagram.node(0).impurity == pytest.approx(np.log2(3))


def test_highlight_set_is_dashed(iris: Any) -> None:
    model = DecisionTreeClassifier(max_depth=3, random_state=0).fit(iris.data, iris.target)
    dot = to_dot(build_tree_diagram(model, highlight={0, 3}))
    dashed = {int(m) for m in re.findall(r'^n(\d+) \[.*style="[^"]*dashed', dot, re.MULTILINE)}
    assert dashed == {0, 3}


def test_forest_tree_and_validation(iris: Any) -> None:
    forest_class = RandomForestClassifier
    forest = forest_class(n_estimators=3, random_state=0).fit(iris.data, iris.target)
    diagram = build_tree_diagram(forest, tree_index=1)
    assert len(diagram.nodes) == forest.estimators_[1].tree_.node_count
    root = diagram.node(0)
    assert sum(root.counts) == pytest.approx(root.samples)  # bootstrap draws
    with pytest.raises(ValueError, match="tree_index is required"):
        build_tree_diagram(forest)
    with pytest.raises(ValueError, match=r"tree_index must be in \[0, 2\]"):
        build_tree_diagram(forest, tree_index=3)
    with pytest.raises(ValueError, match="max_depth must be None or >= 0"):
        build_tree_diagram(forest, tree_index=0, max_depth=-1)
    with pytest.raises(ValueError, match="class_names must have 3 names"):
        build_tree_diagram(forest, tree_index=0, class_names=["a"])
    with pytest.raises(ValueError, match="X_test and y_test must be given together"):
        build_tree_diagram(forest, tree_index=0, X_test=iris.data)
    with pytest.raises(ValueError, match="detail must be"):
        to_dot(diagram, detail="expert")  # type: ignore[arg-type]


def test_golden_dot_with_node_numbers_and_a_selected_node(hand_tree: HandTree) -> None:
    # Numbers from another numbering (a growth step shows the whole tree's ids).
    diagram = build_tree_diagram(hand_tree)
    dot = to_dot(diagram, detail="beginner", legend=False, node_numbers=[0, 1, 7, 8, 9], selected=2)
    expected = (GOLDEN / "hand_tree_numbered_selected.dot").read_text(encoding="utf-8")
    assert dot == expected
    # Without the options the output is the same as before, node for node.
    plain = to_dot(diagram, detail="beginner", legend=False)
    assert "node 7" not in plain and "peripheries" not in plain
    unnumbered = re.sub(r"<TR><TD>node \d+</TD></TR>", "", dot)
    unselected = unnumbered.replace(
        'color="#0072B2", penwidth=2.5, peripheries=2', 'color="#4D4D4D", penwidth=1'
    )
    assert unselected == plain


def test_node_numbers_must_cover_every_node(hand_tree: HandTree) -> None:
    with pytest.raises(ValueError, match="node_numbers must have a number for every node id"):
        to_dot(build_tree_diagram(hand_tree), node_numbers=[0, 1, 2])


def test_a_colour_keys_two_ends_have_one_precision() -> None:
    assert format_alike([-6.93, 51.696]) == ["-6.9", "51.7"]
    assert format_alike([12.04, 6.99]) == ["12.0", "7.0"]
    assert format_alike([0.0123, 0.0456]) == ["0.0123", "0.0456"]
    assert format_alike([3400.2, 2900.7]) == ["3400", "2901"]
    assert format_alike([-0.001, 51.7]) == ["0.0", "51.7"], "no minus on a zero"
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([-6.93, -6.93, 51.696, 51.696])
    diagram = build_tree_diagram(DecisionTreeRegressor(max_depth=1).fit(X, y))
    key = re.findall(r'POINT-SIZE="14">([^<]*)</FONT>', to_dot(diagram))
    assert key == ["mean -6.9", "51.7"], "the key's ends, each to one decimal"
