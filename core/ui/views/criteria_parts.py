"""What Gini vs entropy shows under its lesson: how much the two trees agree, each tree beside
its boundary, the two impurity curves and accuracy against depth.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import streamlit as st

from core import ui
from core.app.models import ModelView, TreeSpec
from core.app.settings import CRITERIA, Settings
from core.app.words import differing_nodes, md
from core.figures import (
    compute_impurity_curves,
    depth_curve_figure,
    impurity_figure,
    node_proportion,
)
from core.figures.wire import wire_form
from core.ui.built import built_once


def agreement(
    view: ModelView, trees: dict[str, Any], boundaries: dict[str, Any]
) -> dict[str, set[int]]:
    """How far the two trees agree, on the test rows and on the plot, and the nodes only one
    of them has; returns those nodes by criterion, for :func:`two_trees` to outline."""
    gini, entropy = trees["gini"], trees["entropy"]
    only_gini, only_entropy = differing_nodes(gini, entropy)
    agree_test = np.mean(gini.predict(view.X_test) == entropy.predict(view.X_test))
    # Share of the plotted area where both trees predict the same class (cells differ in size).
    grids = boundaries["gini"].grid, boundaries["entropy"].grid
    agree_area = np.sum(grids[0].cell_areas() * (grids[0].predicted == grids[1].predicted))
    area = (
        "this slice"
        if grids[0].is_slice
        else "the 2-feature plot"
        if grids[0].stand_in
        else "the plot"
    )
    with st.container(key="agreement"):
        ui.metrics(
            [
                ("Agree on test samples", f"{agree_test:.1%}"),
                (f"Agree on {area}", f"{agree_area:.1%}"),
                ("Nodes only the Gini tree has", len(only_gini)),
                ("Nodes only the entropy tree has", len(only_entropy)),
            ],
            help={
                "Agree on test samples": "Share of the test samples both trees put in the same "
                "class, each predicted from all its features.",
                f"Agree on {area}": "Share of the plotted area that both trees put in the same "
                "class"
                + (
                    f", with the other features held at {grids[0].through}: a slice of the "
                    "trees, not what they do on real samples (that is the test samples' figure)."
                    if grids[0].is_slice
                    else ": the same two trees grown on the two plotted features alone, not "
                    "the trees on all features (those are the test samples' figure)."
                    if grids[0].stand_in
                    else "."
                ),
            },
        )
    return {"gini": only_gini, "entropy": only_entropy}


def two_trees(
    settings: Settings,
    view: ModelView,
    trees: dict[str, Any],
    boundaries: dict[str, Any],
    differing: dict[str, set[int]],
) -> None:
    """One row per tree, its boundary beside its diagram, the nodes only it has outlined.

    Side by side, the two trees' columns stacked boundary over tree, and no 1280x720 screen
    held both.
    """
    for criterion in CRITERIA:
        tree = trees[criterion]
        with ui.guard(f"the {criterion} tree"):
            st.subheader("Gini tree" if criterion == "gini" else "Entropy tree")
            with st.container(key=f"side-{criterion}"):  # the browser tests find metrics here
                ui.metrics([*ui.scores(tree, view), ("Leaves", tree.get_n_leaves())])
            plot_side, tree_side = st.columns(2, gap="large")
            with plot_side:
                ui.boundary(
                    boundaries[criterion], view, key=f"boundary-{criterion}", height=480, model=tree
                )
            with tree_side:
                ui.diagram(
                    tree,
                    view,
                    key=f"tree-{criterion}",
                    name=f"arboretum-{criterion}-tree-{settings.dataset}",
                    detailed_up_to=6,
                    highlight=differing[criterion],
                )
    st.caption(
        "Outlined nodes have no identical counterpart in the other tree: a different "
        "question, or a question the other tree never asks. Choose **Whole tree** above a tree "
        "to see every level, and zoom in on any part."
    )


def curves(settings: Settings, view: ModelView, gini: Any, spec: TreeSpec) -> None:
    """The two impurity measures over a node's mix, and accuracy against depth for both."""
    curve_column, depth_column = st.columns(2, gap="large")
    with curve_column, ui.guard("the impurity curves"):
        st.subheader("Two ways to measure a mix")
        majority = view.class_names[int(np.argmax(gini.tree_.value[0][0]))]

        def impurity() -> dict[str, Any]:
            marked = compute_impurity_curves(marker_p=node_proportion(gini, 0), class_name=majority)
            # Legends below: beside the plot they took ~40% of a half-width chart.
            return wire_form(impurity_figure(marked, title="", height=460, legend_below=True))

        # Built once beside the tree, as the page's other figures: a class's followers each
        # drew both curves again.
        ui.chart(built_once([gini], ("impurity curves", majority), impurity), key="impurity-curves")
        st.caption(
            f"Impurity of a node where a share p of the samples are {md(majority)} (and the "
            "rest are not). The dots mark the root of the Gini tree. Entropy is measured in "
            "bits; both are 0 for a pure node and largest for an even mix."
        )
    with depth_column, ui.guard("the depth curves"):
        st.subheader("Accuracy against depth")
        with st.spinner("Growing trees of depth 1 to 10 with both criteria…"):
            depth = ui.depth_curve(spec)

        def against_depth() -> dict[str, Any]:
            return wire_form(
                depth_curve_figure(
                    depth, current=settings.max_depth, title="", height=460, legend_below=True
                )
            )

        key = ("depth curves", repr(spec), settings.max_depth)
        ui.chart(built_once([gini], key, against_depth), key="depth-curves")
        st.caption(
            "Dashed: training accuracy, solid: test accuracy. Training accuracy keeps rising "
            "with depth; test accuracy does not. The two colours stay close."
        )


__all__ = ["agreement", "curves", "two_trees"]
