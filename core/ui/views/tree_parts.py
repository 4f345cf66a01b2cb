"""Single tree's expanders: why this split at any node, what each leaf holds, the pruning walk,
and the depth overlay of a regression tree. Each opens on a click and computes only then.

Each is a :class:`~core.ui.views.Section` (its words and code for "How this is computed",
what draws it), named in the tree view's ``sections``; the functions here place them.
"""

from __future__ import annotations

from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from core import ui
from core.app.models import ModelView, tree_spec
from core.app.settings import DatasetShape, Settings
from core.engine.grow import grow_tree
from core.engine.node_splits import split_candidates, why_leaf
from core.engine.pruning import prune, pruning_path
from core.engine.splits import compare_with_best, evaluate_split
from core.figures import compute_split_scan
from core.figures.leaves import compute_leaves, leaves_figure
from core.figures.pruning_walk import compute_pruning_walk
from core.figures.regression import compute_regression_lines
from core.ui.views import Section


def tree_with_why(
    tree_column: DeltaGenerator,
    settings: Settings,
    view: ModelView,
    model: Any,
    sample: int,
    test_on_tree: bool,
) -> None:
    """The tree's diagram in ``tree_column`` with its leaves below, and "why this split?"
    under the page's columns: an opened node is numbered and outlined on the diagram.

    While "why this split?" or the leaves are open, every node shows its number: both name
    nodes by it, and a name the diagram does not show would send a student nowhere.
    """
    tree_column.subheader("The tree")
    why = WHY_SPLIT.box()
    node: int | None = WHY_SPLIT.fill(why, model, view)
    numbered = bool(why.open) or LEAVES.is_open()

    with tree_column, ui.guard("the tree diagram"):
        ui.diagram(
            model,
            view,
            key="tree-diagram",
            name=f"arboretum-tree-{settings.dataset}",
            sample=sample,
            test_on_tree=test_on_tree,
            node_numbers=range(model.tree_.node_count) if numbered else None,
            selected=node,
        )
        if why.open:
            st.caption(f"Node {node} has a double blue border; every node shows its number.")
        elif numbered:
            st.caption("Every node shows its number, the name its leaf has in the chart below.")
    with tree_column:
        LEAVES.draw(view, model)


def why_split(model: Any, view: ModelView) -> int | None:
    """Inside "why this split?": a node to ask about, why the tree splits it so, and a
    student's own split against it; the node asked about (None if that failed)."""
    node: int | None = None
    with ui.guard("why this split"):
        node = ui.pick_node(model, view, key="why-node")
        ui.why_this_split(model, view, node)
        st.markdown("**Your split against the tree's**")
        ui.your_split(model, view, node)
    return node


def leaves(view: ModelView, model: Any) -> None:
    """What each leaf holds: the training rows sent down the tree, once asked for."""
    with ui.guard("the leaves"):
        figure = leaves_figure(
            compute_leaves(model, view.X_train, view.y_train),
            class_names=view.class_names,
            target_name=view.data.target_name,
            height=400,
        )
        ui.chart(figure, key="leaves-chart")
        st.caption(
            "One bar per leaf, left to right as in the tree and named by its node number on "
            "it: the training samples that end there, by class. The leaf predicts the class "
            "with the most."
            if view.classify
            else "One column per leaf, left to right as in the tree and named by its node "
            "number on it: the training targets that end there. The diamond, their mean, is "
            "what the leaf predicts."
        )


def pruning_walk(settings: Settings, shape: DatasetShape, view: ModelView) -> None:
    """Walk the pruning path: the full tree and a score per step, once asked for."""
    with ui.guard("the pruning walk"):
        ui.pruning_walk(tree_spec(settings, shape), view, settings.ccp_alpha)


def depth_overlay(
    settings: Settings, shape: DatasetShape, view: ModelView, pair: tuple[int, int]
) -> None:
    """The classic picture of a regression tree: depths 1, 2, 4 and 8 on the same data."""
    trees = {
        f"depth {d}": ui.fit_tree(tree_spec(settings, shape, max_depth=d)) for d in (1, 2, 4, 8)
    }
    ui.model_fit(view, trees, pair=pair, sample=None, key="depth-overlay-chart")
    st.caption(
        "Depth 1 is one step; every extra level can double the steps. By depth 8 "
        "the staircase chases single noisy points instead of the wave."
    )


WHY_SPLIT = Section(
    "Why this split? (any node)",
    "why-split",
    ":material/search:",
    "`split_candidates` takes the node's training rows and finds each feature's best split "
    "there, as the growing loop did; at a leaf, `why_leaf` names the stopping rule that "
    "held. `compute_split_scan` scores every threshold of every feature for the chart. "
    "Your own split is scored by `evaluate_split` and set against the best by "
    "`compare_with_best`.",
    (split_candidates, why_leaf, compute_split_scan, evaluate_split, compare_with_best),
    why_split,
)
LEAVES = Section(
    "Leaves: what each leaf holds",
    "leaves",
    ":material/bar_chart:",
    "`compute_leaves` sends the training rows down the fitted tree and gathers, for each "
    "leaf from left to right, the classes (or targets) that end there.",
    (compute_leaves,),
    leaves,
)
PRUNING = Section(
    "Walk the pruning path",
    "pruning",
    ":material/content_cut:",
    "`compute_pruning_walk` grows the tree in full, then cuts it at each alpha of its "
    "pruning path and scores each pruned tree. `pruning_path` finds those alphas, the "
    "weakest link first; `prune` keeps the subtree an alpha leaves.",
    (compute_pruning_walk, pruning_path, prune),
    pruning_walk,
)
DEPTH_OVERLAY = Section(
    "The classic picture: depths 1, 2, 4 and 8 on the same data",
    "depth-overlay",
    ":material/stacked_line_chart:",
    "Four trees are grown by `grow_tree` on the same rows, each stopped at its depth, and "
    "`compute_regression_lines` reads each one's prediction along the feature.",
    (grow_tree, compute_regression_lines),
    depth_overlay,
)

__all__ = ["DEPTH_OVERLAY", "LEAVES", "PRUNING", "WHY_SPLIT", "tree_with_why"]
