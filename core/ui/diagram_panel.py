"""A tree's diagram as a panel: its size choice, as many levels as a class can read, the
zoom and the downloads.

The levels are chosen on an estimate of the layout (:mod:`core.figures.fold`), checked on
Graphviz's own when it is there, and the choice is remembered beside the model
(:func:`~core.ui.cached.built_once`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace
from typing import Any

import streamlit as st

from core.app.models import ModelView
from core.figures import (
    build_tree_diagram,
    to_dot,
)
from core.figures.fold import (
    BROWSER_TALLER,
    Fold,
    Size,
    choose_fold,
    fold_depth,
    settled,
    svg_size,
)
from core.figures.render import dot_available
from core.figures.tree_diagram import TreeDiagram
from core.figures.tree_dot import Detail, estimated_size
from core.ui.cached import built_once, svg
from core.ui.display import tree_diagram

_SIZES = {"fit": "Readable", "whole": "Whole tree"}


def diagram(
    model: Any,
    view: ModelView,
    *,
    key: str,
    name: str,
    detailed_up_to: int = 16,
    tree_index: int | None = None,
    sample: int | None = None,
    test_on_tree: bool = False,
    highlight: Collection[int] = (),
    node_numbers: Sequence[int] | None = None,
    selected: int | None = None,
    unfold: Collection[int] = (),
) -> tuple[TreeDiagram, str | None]:
    """A tree (or tree ``tree_index`` of a forest) drawn with its size choice and downloads.

    **Readable** (the default) draws as many levels as keep the smallest text at 10 px or more
    in a column beside the boundary on a 1280x720 projector (:func:`~core.figures.fold.
    fold_depth` on an estimate of the layout, checked on Graphviz's own when it is there);
    deeper levels fold into dashed "+ n more nodes" boxes. **Whole tree** draws every level,
    fitted into a box 70% of the window tall. Both zoom and pan. Full node details while the
    tree has at most ``detailed_up_to`` leaves, unless rules and class bars alone show more
    levels; only those beyond. ``node_numbers`` and ``selected`` go to
    :func:`~core.figures.to_dot`; ``unfold`` (node ids shown at any depth, with their path and
    children; the selected node always) to :func:`~core.figures.build_tree_diagram`.
    Returns the diagram and the SVG shown (None when the browser drew it).
    """
    size = st.segmented_control(
        "Diagram size",
        list(_SIZES),
        format_func=_SIZES.__getitem__,
        default="fit",
        required=True,
        key=f"{key}-size",
        label_visibility="collapsed",
    )
    whole = size == "whole"
    tree = model if tree_index is None else model.estimators_[tree_index]
    deepest = tree.get_depth()
    details: tuple[Detail, ...] = ("beginner",)
    if tree.get_n_leaves() <= detailed_up_to:
        details = ("detailed", "beginner")  # beginner's shorter nodes when deeper levels fit
    kept = [*unfold, *(() if selected is None else (selected,))]
    diagrams: dict[tuple[int | None, bool], TreeDiagram] = {}

    def drawing(depth: int | None, keep: bool) -> TreeDiagram:
        if (depth, keep) not in diagrams:
            diagrams[depth, keep] = build_tree_diagram(
                model,
                tree_index=tree_index,
                feature_names=list(view.names),
                class_names=list(view.class_names) or None,
                max_depth=depth,
                sample=None if sample is None else view.X_test[sample],
                sample_label=None if sample is None else f"test sample #{sample}",
                X_test=view.X_test if test_on_tree else None,
                y_test=view.y_test if test_on_tree else None,
                highlight=highlight,
                categories=view.categories,
                # A forest's tree saw only its bootstrap rows: no "(missing → ...)" note.
                X_train=view.X_train if tree_index is None else None,
                unfold=kept if keep else (),
            )
        return diagrams[depth, keep]

    def dot_of(fold: Fold) -> str:
        return to_dot(
            drawing(fold.depth, fold.unfold),
            detail=fold.detail,
            node_numbers=node_numbers,
            selected=selected,
        )

    node_sizes: dict[tuple[int, Detail], Size] = {}  # a node's label is the same at any depth

    def estimate(fold: Fold) -> Size:
        width, height = estimated_size(
            drawing(fold.depth, fold.unfold),
            detail=fold.detail,
            node_numbers=node_numbers,
            known=node_sizes,
        )
        return width, height * (1.0 if dot_available() else BROWSER_TALLER)

    def choose() -> Fold:
        # Levels and detail from the estimate (no drawing needed); Graphviz, when present, has
        # the last word on its real layout, from there: a level more or less, usually.
        fold = choose_fold(estimate, deepest, details, unfold=bool(kept))
        if dot_available():

            def measured(depth: int) -> Size:
                # Far from the threshold the estimate decides as the layout would: only a
                # drawing near it is laid out (about half of those the search looks at).
                guess = estimate(replace(fold, depth=depth))
                if settled(guess):
                    return guess
                return svg_size(svg(dot_of(replace(fold, depth=depth))))

            fold = replace(fold, depth=fold_depth(measured, deepest, start=fold.depth))
        return fold

    drawn_as = (  # what this drawing is, but for the sample's own number
        whole,
        tree_index,
        test_on_tree,
        tuple(highlight),
        None if node_numbers is None else tuple(node_numbers),
        selected,
        tuple(kept),
        detailed_up_to,
        dot_available(),
    )

    def lay_out() -> tuple[TreeDiagram, str]:
        if whole:
            drawn = drawing(None, False)
            return drawn, to_dot(
                drawn, detail=details[0], node_numbers=node_numbers, selected=selected
            )
        # Choosing the levels costs a few layouts (10-30 ms with Graphviz's). Two samples that
        # reach the same leaf light the same path, and labels of as many characters take the
        # same room (a digit is as wide as any other): the choice made for one serves both.
        reach = None
        if sample is not None:
            reach = int(tree.apply(view.X_test[sample : sample + 1])[0]), len(str(sample))
        fold = built_once([tree], ("diagram-fold", reach, *drawn_as), choose)
        return drawing(fold.depth, fold.unfold), dot_of(fold)

    # A rerun that leaves this drawing as it was (another section's control, a chart click)
    # takes the drawing made before.
    drawn, dot = built_once(
        [tree],  # a forest's tree by itself: the forest's own memo keeps its charts
        ("diagram", sample, *drawn_as),
        lay_out,
    )
    shown = tree_diagram(dot, key=key, name=name, whole=whole)
    if drawn.collapsed:
        levels = max(node.depth for node in drawn.nodes) + 1
        st.caption(
            f"The first {levels} of the tree's {deepest + 1} levels, as large as a class can "
            "read them; dashed boxes hold the rest. Choose **Whole tree** to see every level, "
            "then zoom in on any part."
        )
    return drawn, shown
