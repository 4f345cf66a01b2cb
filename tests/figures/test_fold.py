"""How deep a fitted tree diagram is drawn: readable text first (issue 24)."""

from __future__ import annotations

import pytest
from sklearn.datasets import load_breast_cancer, load_iris, load_wine

from core.engine.tree import DecisionTreeClassifier
from core.figures import dot_available, render_svg
from core.figures.fold import (
    MAX_GROWTH,
    MIN_TEXT_PX,
    PROJECTOR_COLUMN,
    Fold,
    choose_fold,
    fold_depth,
    readable,
    shown_scale,
    svg_size,
    text_px,
)
from core.figures.tree_diagram import build_tree_diagram
from core.figures.tree_dot import LEGEND_PER_ROW, estimated_size, to_dot

needs_dot = pytest.mark.skipif(not dot_available(), reason="Graphviz's dot is not installed")


def test_the_tighter_side_sets_the_scale_and_growth_has_a_limit() -> None:
    assert shown_scale((852.0, 100.0), (426.0, 504.0)) == pytest.approx(0.5)  # width
    assert shown_scale((100.0, 1008.0), (426.0, 504.0)) == pytest.approx(0.5)  # height
    assert shown_scale((10.0, 10.0), (426.0, 504.0)) == pytest.approx(MAX_GROWTH)
    # 12 pt text at 10 px needs 0.833 px per point: 426 / 0.833 = 511 pt wide at most.
    assert readable((511.0, 100.0)) and not readable((512.0, 100.0))
    assert text_px((511.2, 100.0), PROJECTOR_COLUMN) == pytest.approx(MIN_TEXT_PX)


def widths(per_level: list[float]) -> object:
    """A drawing ``per_level[d]`` points wide when levels 0..d are shown, 100 pt tall."""
    calls: list[int] = []

    def size_at(depth: int) -> tuple[float, float]:
        calls.append(depth)
        return per_level[depth], 100.0

    size_at.calls = calls  # type: ignore[attr-defined]
    return size_at


@pytest.mark.parametrize(
    ("per_level", "start", "expected"),
    [
        ([300, 400, 500, 900, 1800], 2, 2),  # level 3 is too wide: stop at 2
        ([300, 400, 500, 900, 1800], 0, 2),  # walks up from the root
        ([300, 400, 500, 900, 1800], 4, 2),  # walks down from the bottom
        ([300, 400, 500], 2, 2),  # the whole tree fits: nothing folds
        ([600, 900, 1800], 2, 0),  # not even the root fits: the root alone, as small as it is
    ],
)
def test_fold_depth_finds_the_deepest_readable_level(
    per_level: list[float], start: int, expected: int
) -> None:
    size_at = widths(per_level)
    assert fold_depth(size_at, len(per_level) - 1, start=start) == expected  # type: ignore[arg-type]
    assert len(size_at.calls) <= 4  # type: ignore[attr-defined]  # a few candidates, not all


def test_choose_fold_prefers_readable_then_kept_nodes_then_depth_then_details() -> None:
    def size_of(fold: Fold) -> tuple[float, float]:
        # Beginner nodes are shorter; keeping a deep node in sight costs two levels' height.
        per_level = 150.0 if fold.detail == "detailed" else 90.0
        levels = fold.depth + 1 + (2 if fold.unfold else 0)
        return 300.0 + 60.0 * fold.depth, per_level * levels

    # Detailed: 605 pt tall at most -> 4 levels; with the kept node, 2 of them are its path.
    assert choose_fold(size_of, 8) == Fold(3, "detailed", False)
    chosen = choose_fold(size_of, 8, unfold=True)
    assert chosen.unfold and readable(size_of(chosen))
    # Beginner reaches deeper than detailed here: it wins on depth.
    assert chosen == Fold(3, "beginner", True)
    # Only beginner allowed (a tree with many leaves).
    assert choose_fold(size_of, 8, ("beginner",)).detail == "beginner"


def test_choose_fold_when_nothing_is_readable_takes_the_largest_text() -> None:
    def size_of(fold: Fold) -> tuple[float, float]:
        return 300.0, 900.0 if fold.detail == "detailed" else 700.0  # both too tall

    assert choose_fold(size_of, 3) == Fold(0, "beginner", False)


def test_svg_size_reads_the_view_box() -> None:
    assert svg_size('<svg viewBox="0.00 0.00 414.50 629.00">') == (414.5, 629.0)
    with pytest.raises(ValueError, match="viewBox"):
        svg_size("<svg>")


def test_unfold_keeps_a_deep_node_its_path_and_children_in_sight() -> None:
    iris = load_iris()
    model = DecisionTreeClassifier(random_state=0).fit(iris.data, iris.target)
    left, right = model.tree_.children_left, model.tree_.children_right
    deep = next(
        n for n in range(model.tree_.node_count) if model.tree_.depth[n] >= 3 and left[n] >= 0
    )
    folded = build_tree_diagram(model, max_depth=1)
    kept = build_tree_diagram(model, max_depth=1, unfold=[deep])
    shown = {node.node_id for node in kept.nodes}
    assert deep not in {node.node_id for node in folded.nodes}
    assert {deep, int(left[deep]), int(right[deep])} <= shown
    parent = {int(c): p for p in range(len(left)) for c in (left[p], right[p]) if c >= 0}
    node = deep
    while node in parent:
        node = parent[node]
        assert node in shown, "the path from the root"
    # Every visible split's children are drawn or folded, never lost; folds say their depth.
    drawn = shown | {marker.root for marker in kept.collapsed}
    for split in (n for n in kept.nodes if not n.is_leaf):
        assert {int(left[split.node_id]), int(right[split.node_id])} <= drawn
    for marker in kept.collapsed:
        assert marker.depth == model.tree_.depth[marker.root]
    with pytest.raises(ValueError, match="unfold names node"):
        build_tree_diagram(model, unfold=[10_000])


def test_a_long_legend_wraps_into_rows() -> None:
    iris = load_iris()
    model = DecisionTreeClassifier(max_depth=1, random_state=0).fit(iris.data, iris.target % 2)
    names = [f"class number {i}" for i in range(2)]
    dot = to_dot(build_tree_diagram(model, class_names=names))
    legend = dot[dot.index("label=<<TABLE") : dot.index("</TABLE>>;")]
    assert legend.count("<TR>") == -(-len(names) // LEGEND_PER_ROW)


@needs_dot
@pytest.mark.parametrize("loader", [load_iris, load_wine, load_breast_cancer])
@pytest.mark.parametrize("detail", ["detailed", "beginner"])
def test_the_estimate_is_close_to_dots_layout(loader: object, detail: str) -> None:
    # Without dot, the browser lays the tree out: the fold then rests on this estimate.
    data = loader()  # type: ignore[operator]
    model = DecisionTreeClassifier(random_state=0).fit(data.data, data.target)
    names = [str(n) for n in data.target_names]
    for depth in (0, 1, 2, 3, None):
        diagram = build_tree_diagram(
            model, feature_names=list(data.feature_names), class_names=names, max_depth=depth
        )
        real = svg_size(render_svg(to_dot(diagram, detail=detail)))  # type: ignore[arg-type]
        guess = estimated_size(diagram, detail=detail)  # type: ignore[arg-type]
        assert 0.85 * real[0] <= guess[0] <= 1.35 * real[0], (depth, real, guess)
        assert 0.92 * real[1] <= guess[1] <= 1.08 * real[1], (depth, real, guess)


def test_sizes_known_from_other_depths_give_the_same_estimates(monkeypatch) -> None:
    # One dict shared by the drawings of one tree at several depths: each node measured once.
    import core.figures.tree_dot as tree_dot

    data = load_wine()
    model = DecisionTreeClassifier(random_state=0).fit(data.data, data.target)
    common = {
        "feature_names": list(data.feature_names),
        "class_names": [str(n) for n in data.target_names],
        "sample": data.data[7],
        "X_test": data.data[::3],
        "y_test": data.target[::3],
    }
    drawings = [build_tree_diagram(model, max_depth=d, **common) for d in (1, 2, 3, None)]
    alone = [estimated_size(d, detail=kind) for d in drawings for kind in ("detailed", "beginner")]
    measured: list[int] = []
    real_rows = tree_dot.node_rows

    def counting(diagram, node, *args):  # type: ignore[no-untyped-def]
        measured.append(node.node_id)
        return real_rows(diagram, node, *args)

    monkeypatch.setattr(tree_dot, "node_rows", counting)
    known: dict = {}
    shared = [
        estimated_size(d, detail=kind, known=known)
        for d in drawings
        for kind in ("detailed", "beginner")
    ]
    assert shared == alone
    whole = drawings[-1]
    assert sorted(measured) == sorted(2 * [node.node_id for node in whole.nodes])
    assert set(known) == {
        (n.node_id, kind) for n in whole.nodes for kind in ("detailed", "beginner")
    }


def test_settled_is_far_from_the_threshold_on_either_side() -> None:
    from core.figures.fold import ESTIMATE_ERROR, settled

    low, high = ESTIMATE_ERROR
    width_at = lambda px: (PROJECTOR_COLUMN[0] * 12.0 / px, 50.0)  # noqa: E731
    assert settled(width_at(MIN_TEXT_PX / low + 0.01))  # readable, whatever dot draws
    assert settled(width_at(MIN_TEXT_PX / high - 0.01))  # unreadable, whatever dot draws
    for px in (MIN_TEXT_PX / low - 0.05, MIN_TEXT_PX, MIN_TEXT_PX / high + 0.05):
        assert not settled(width_at(px)), px


@needs_dot
@pytest.mark.parametrize("loader", [load_iris, load_wine, load_breast_cancer])
def test_dots_text_size_stays_within_the_estimates_error(loader: object) -> None:
    # The tree diagram trusts the estimate outside ESTIMATE_ERROR: dot's layout must never be
    # further from it, with a sample's badge, test rows and node numbers in the labels too.
    import numpy as np

    from core.engine import RandomForestClassifier
    from core.figures.fold import ESTIMATE_ERROR

    data = loader()  # type: ignore[operator]
    names = [str(n) for n in data.target_names]
    forest = RandomForestClassifier(n_estimators=4, random_state=2).fit(data.data, data.target)
    low, high = ESTIMATE_ERROR
    ratios = []
    for index in range(4):
        tree = forest.estimators_[index]
        numbers = np.arange(tree.tree_.node_count) * 7
        for depth in range(min(tree.get_depth(), 5) + 1):
            diagram = build_tree_diagram(
                forest,
                tree_index=index,
                feature_names=list(data.feature_names),
                class_names=names,
                max_depth=depth,
                sample=data.data[3],
                sample_label="test sample #3",
                X_test=data.data[::5],
                y_test=data.target[::5],
            )
            for detail in ("detailed", "beginner"):
                for shown in (None, numbers):
                    dot = to_dot(diagram, detail=detail, node_numbers=shown)  # type: ignore[arg-type]
                    real = text_px(svg_size(render_svg(dot)), PROJECTOR_COLUMN)
                    guess = estimated_size(diagram, detail=detail, node_numbers=shown)  # type: ignore[arg-type]
                    ratios.append(real / text_px(guess, PROJECTOR_COLUMN))
    assert low <= min(ratios) and max(ratios) <= high, (min(ratios), max(ratios))


@pytest.mark.parametrize("cap", [0, 1, 2, 3])
@pytest.mark.parametrize("load", [load_iris, load_wine])
def test_a_single_leaf_never_folds_into_a_box(cap: int, load: object) -> None:
    # A box for one leaf saves no room and hides what the leaf predicts.
    data = load()  # type: ignore[operator]
    model = DecisionTreeClassifier(random_state=0).fit(data.data, data.target)
    left = model.tree_.children_left
    diagram = build_tree_diagram(model, max_depth=cap)
    assert all(left[marker.root] >= 0 for marker in diagram.collapsed)
    assert all(marker.hidden_nodes > 1 for marker in diagram.collapsed)
    assert "+ 1 more node" not in to_dot(diagram)
    # Below the cap, only leaves hanging from a drawn split are drawn.
    for node in diagram.nodes:
        if node.depth > cap:
            assert node.is_leaf and node.depth == cap + 1


def test_a_folded_box_is_not_dashed_like_a_highlighted_node() -> None:
    iris = load_iris()
    model = DecisionTreeClassifier(random_state=0).fit(iris.data, iris.target)
    dot = to_dot(build_tree_diagram(model, max_depth=1, highlight=[0]))
    folded = [line for line in dot.splitlines() if line.startswith("c")]
    highlighted = next(line for line in dot.splitlines() if line.startswith("n0 ["))
    assert folded, "this drawing folds"
    assert "dashed" in highlighted
    assert all("dashed" not in line for line in folded)
