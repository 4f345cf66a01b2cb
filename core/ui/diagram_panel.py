"""A tree's diagram as a panel: its size choice, as many levels as a class can read, the
zoom and the downloads.

The levels are chosen on an estimate of the layout (:mod:`core.figures.fold`), checked on
Graphviz's own when it is there, and the choice is remembered beside the model
(:func:`~core.ui.built.built_once`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import streamlit as st

from core.app.models import ModelView
from core.figures import (
    build_tree_diagram,
    to_dot,
)
from core.figures.diagram import TreeDiagram
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
from core.figures.tree_dot import Detail, estimated_size
from core.ui.built import built_once
from core.ui.cached import svg
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
    deeper levels fold into grey "+ n more nodes" boxes (leaves never do). **Whole tree**
    draws every level, fitted into a box 70% of the window tall. Both zoom and pan. Full node
    details while the tree has at most ``detailed_up_to`` leaves, unless rules and class bars
    alone show more levels; only those beyond. ``node_numbers`` and ``selected`` go to
    :func:`~core.figures.to_dot`; ``unfold`` (node ids shown at any depth, with their path and
    children; the selected node always) to :func:`~core.figures.build_tree_diagram`.
    Returns the diagram and the SVG shown (None when the browser drew it).
    """
    whole = _whole(key)
    tree = model if tree_index is None else model.estimators_[tree_index]
    deepest = tree.get_depth()
    details: tuple[Detail, ...] = ("beginner",)
    if tree.get_n_leaves() <= detailed_up_to:
        details = ("detailed", "beginner")  # beginner's shorter nodes when deeper levels fit
    kept = (*unfold, *(() if selected is None else (selected,)))
    layout = _Layout(
        model=model,
        view=view,
        tree_index=tree_index,
        sample=sample,
        test_on_tree=test_on_tree,
        highlight=tuple(highlight),
        node_numbers=node_numbers,
        selected=selected,
        kept=kept,
    )
    drawn_as = layout.drawn_as(whole, detailed_up_to)
    # A rerun that leaves this drawing as it was (another section's control, a chart click)
    # takes the drawing made before.
    drawn, dot = built_once(
        [tree],  # a forest's tree by itself: the forest's own memo keeps its charts
        ("diagram", sample, *drawn_as),
        lambda: layout.lay_out(tree, whole, deepest, details, drawn_as),
    )
    shown = tree_diagram(dot, key=key, name=name, whole=whole)
    if drawn.collapsed:
        levels = max(node.depth for node in drawn.nodes) + 1
        st.caption(
            f"The first {levels} of the tree's {deepest + 1} levels, as large as a class can "
            "read them; the grey stacked boxes hold the rest. Choose **Whole tree** to see "
            "every level, then zoom in on any part."
        )
    return drawn, shown


def _whole(key: str) -> bool:
    """The diagram's size choice above it: whether to draw the whole tree."""
    size = st.segmented_control(
        "Diagram size",
        list(_SIZES),
        format_func=_SIZES.__getitem__,
        default="fit",
        required=True,
        key=f"{key}-size",
        label_visibility="collapsed",
    )
    return bool(size == "whole")


@dataclass
class _Layout:
    """One diagram's drawings of its tree, each depth built once per call of :func:`diagram`,
    and the choice of how many levels to show.

    ``kept`` (node ids kept in sight at any depth, with their path and children) is drawn
    or not per drawing: the choice tries each depth with and without them.
    """

    model: Any
    view: ModelView
    tree_index: int | None
    sample: int | None
    test_on_tree: bool
    highlight: tuple[int, ...]
    node_numbers: Sequence[int] | None
    selected: int | None
    kept: tuple[int, ...]
    diagrams: dict[tuple[int | None, bool], TreeDiagram] = field(default_factory=dict)
    #: A node's label is the same at any depth: its size is estimated once.
    node_sizes: dict[tuple[int, Detail], Size] = field(default_factory=dict)

    def drawn_as(self, whole: bool, detailed_up_to: int) -> tuple[Any, ...]:
        """What this drawing is, but for the sample's own number: its memo's key."""
        return (
            whole,
            self.tree_index,
            self.test_on_tree,
            self.highlight,
            None if self.node_numbers is None else tuple(self.node_numbers),
            self.selected,
            self.kept,
            detailed_up_to,
            dot_available(),
        )

    def lay_out(
        self,
        tree: Any,
        whole: bool,
        deepest: int,
        details: tuple[Detail, ...],
        drawn_as: tuple[Any, ...],
    ) -> tuple[TreeDiagram, str]:
        """The drawing to show and its DOT text: the whole tree, or as many levels as fit."""
        if whole:
            drawn = self.drawing(None, False)
            return drawn, to_dot(
                drawn, detail=details[0], node_numbers=self.node_numbers, selected=self.selected
            )
        # Choosing the levels costs a few Graphviz layouts. Two samples that
        # reach the same leaf light the same path, and labels of as many characters take the
        # same room (a digit is as wide as any other): the choice made for one serves both.
        reach = None
        if self.sample is not None:
            at = self.view.X_test[self.sample : self.sample + 1]
            reach = int(tree.apply(at)[0]), len(str(self.sample))
        choice = ("diagram-fold", reach, *drawn_as)
        fold = built_once([tree], choice, lambda: self.choose(deepest, details))
        return self.drawing(fold.depth, fold.unfold), self.dot_of(fold)

    def drawing(self, depth: int | None, keep: bool) -> TreeDiagram:
        """The tree cut at ``depth`` (None: whole), with the kept nodes in sight if ``keep``."""
        if (depth, keep) not in self.diagrams:
            view, sample, on_tree = self.view, self.sample, self.test_on_tree
            self.diagrams[depth, keep] = build_tree_diagram(
                self.model,
                tree_index=self.tree_index,
                feature_names=list(view.names),
                class_names=list(view.class_names) or None,
                max_depth=depth,
                sample=None if sample is None else view.X_test[sample],
                sample_label=None if sample is None else f"test sample #{sample}",
                X_test=view.X_test if on_tree else None,
                y_test=view.y_test if on_tree else None,
                highlight=self.highlight,
                categories=view.categories,
                # A forest's tree saw only its bootstrap rows: no "(missing → ...)" note.
                X_train=view.X_train if self.tree_index is None else None,
                unfold=self.kept if keep else (),
            )
        return self.diagrams[depth, keep]

    def dot_of(self, fold: Fold) -> str:
        """The DOT text of ``fold``'s drawing."""
        return to_dot(
            self.drawing(fold.depth, fold.unfold),
            detail=fold.detail,
            node_numbers=self.node_numbers,
            selected=self.selected,
        )

    def estimate(self, fold: Fold) -> Size:
        """``fold``'s drawing's size, estimated without laying it out."""
        width, height = estimated_size(
            self.drawing(fold.depth, fold.unfold),
            detail=fold.detail,
            node_numbers=self.node_numbers,
            known=self.node_sizes,
        )
        return width, height * (1.0 if dot_available() else BROWSER_TALLER)

    def choose(self, deepest: int, details: tuple[Detail, ...]) -> Fold:
        """The levels and the detail to draw: from the estimate (no drawing needed), then,
        when Graphviz is there, its real layout has the last word (a level more or less,
        usually)."""
        fold = choose_fold(self.estimate, deepest, details, unfold=bool(self.kept))
        if not dot_available():
            return fold

        def measured(depth: int) -> Size:
            # Far from the threshold the estimate decides as the layout would: only a drawing
            # near it is laid out (about half of those the search looks at).
            guess = self.estimate(replace(fold, depth=depth))
            if settled(guess):
                return guess
            return svg_size(svg(self.dot_of(replace(fold, depth=depth))))

        return replace(fold, depth=fold_depth(measured, deepest, start=fold.depth))
