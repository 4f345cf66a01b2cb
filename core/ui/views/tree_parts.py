"""Single tree's expanders: why this split at any node, what each leaf holds, the pruning walk,
and the depth overlay of a regression tree. Each opens on a click and computes only then.
"""

from __future__ import annotations

from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from core import ui
from core.app.models import ModelView, tree_spec
from core.app.settings import DatasetShape, Settings
from core.figures.leaves import compute_leaves, leaves_figure


def tree_with_why(
    tree_column: DeltaGenerator,
    settings: Settings,
    view: ModelView,
    model: Any,
    sample: int,
    test_on_tree: bool,
) -> None:
    """The tree's diagram in ``tree_column`` with its leaves below, and "why this split?"
    under the page's columns: an opened node is numbered and outlined on the diagram."""
    tree_column.subheader("The tree")
    why = st.expander(
        "Why this split? (any node)",
        icon=":material/search:",
        key="why-split",
        on_change="rerun",
    )
    node: int | None = None
    with why, ui.guard("why this split"):
        if why.open:  # computed only when opened: the scan and its tables cost more than the page
            node = ui.pick_node(model, view, key="why-node")
            ui.why_this_split(model, view, node)
            st.markdown("**Your split against the tree's**")
            ui.your_split(model, view, node)

    with tree_column, ui.guard("the tree diagram"):
        ui.diagram(
            model,
            view,
            key="tree-diagram",
            name=f"arboretum-tree-{settings.dataset}",
            sample=sample,
            test_on_tree=test_on_tree,
            node_numbers=range(model.tree_.node_count) if why.open else None,
            selected=node,
        )
        if why.open:
            st.caption(f"Node {node} has a double blue border; every node shows its number.")
    with tree_column:
        leaves(view, model)


def leaves(view: ModelView, model: Any) -> None:
    """What each leaf holds: the training rows sent down the tree, once asked for."""
    held = st.expander(
        "Leaves: what each leaf holds",
        icon=":material/bar_chart:",
        key="leaves",
        on_change="rerun",
    )
    with held, ui.guard("the leaves"):
        if not held.open:
            return
        figure = leaves_figure(
            compute_leaves(model, view.X_train, view.y_train),
            class_names=view.class_names,
            target_name=view.data.target_name,
            height=400,
        )
        ui.chart(figure, key="leaves-chart")
        st.caption(
            "One bar per leaf, left to right as in the tree: the training samples that end "
            "there, by class. The leaf predicts the class with the most."
            if view.classify
            else "One column per leaf, left to right as in the tree: the training targets "
            "that end there. The diamond, their mean, is what the leaf predicts."
        )


def pruning(settings: Settings, shape: DatasetShape, view: ModelView) -> None:
    """Walk the pruning path: the full tree and a score per step, once asked for."""
    walk = st.expander(
        "Walk the pruning path", icon=":material/content_cut:", key="pruning", on_change="rerun"
    )
    with walk, ui.guard("the pruning walk"):
        if walk.open:
            ui.pruning_walk(tree_spec(settings, shape), view, settings.ccp_alpha)


def depth_overlay(
    settings: Settings, shape: DatasetShape, view: ModelView, pair: tuple[int, int]
) -> None:
    """The classic picture of a regression tree: depths 1, 2, 4 and 8 on the same data."""
    depths = st.expander(
        "The classic picture: depths 1, 2, 4 and 8 on the same data",
        icon=":material/stacked_line_chart:",
        key="depth-overlay",
        on_change="rerun",
    )
    if not depths.open:  # four fits and a chart: only once asked for
        return
    with depths:
        trees = {
            f"depth {d}": ui.fit_tree(tree_spec(settings, shape, max_depth=d)) for d in (1, 2, 4, 8)
        }
        ui.model_fit(view, trees, pair=pair, sample=None, key="depth-overlay-chart")
        st.caption(
            "Depth 1 is one step; every extra level can double the steps. By depth 8 "
            "the staircase chases single noisy points instead of the wave."
        )


__all__ = ["depth_overlay", "leaves", "pruning", "tree_with_why"]
