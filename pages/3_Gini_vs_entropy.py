"""Gini vs entropy: two trees that differ only in how they measure a node's mix of classes."""

import numpy as np
import streamlit as st

from core import ui
from core.app.models import plotted_pair, tree_spec
from core.app.pages import GINI_VS_ENTROPY
from core.app.settings import CRITERIA
from core.app.words import differing_nodes, md
from core.engine import criteria, scan
from core.engine.grow import grow_tree
from core.figures import (
    compute_impurity_curves,
    depth_curve_figure,
    impurity_figure,
    node_proportion,
)
from core.figures.criterion import first_parting, seed_study

controls = ui.start(GINI_VS_ENTROPY)
with st.sidebar:
    st.header("Two criteria, same data")
    shape = controls.dataset()
    controls.show("max_depth")
    controls.show("min_samples_leaf")
    controls.pair()
    controls.show("fit")
    controls.show("seed")
    controls.show("test_size")
    lesson = controls.view(
        {"criterion-matters": "Does the criterion matter?", "map": "Parameter map"}
    )
st.title("Gini vs entropy")
top, lesson_area = st.container(), st.container()
if lesson == "criterion-matters":
    with lesson_area:
        st.subheader("Does the criterion matter?")
        lesson_top = st.container()
        st.markdown("#### One split, counted by hand")
        st.caption("Two classes, A and B: how many rows of each the split sends to each side.")
        sliders = st.columns(4)
        for column, name in zip(sliders, ("left_a", "left_b", "right_a", "right_b"), strict=True):
            with column:
                controls.show(name)
        lab = st.container()
elif lesson == "map":
    with lesson_area:
        st.subheader("The parameter maps: does the criterion change which settings score best?")
        cross_validate = controls.show("map_cv")
        maps_area = st.container()
settings = controls.finish()
view = ui.view(settings)

with top:
    ui.show_notices(settings)
    ui.what_to_notice(
        "Gini impurity and entropy rise and fall together, so the two trees often ask the same "
        "questions. When they part ways (outlined nodes), everything below differs too, yet they "
        "still agree on most samples and their test accuracies stay close. Depth matters far more "
        "than the criterion: compare the two colours in the depth chart."
    )

with ui.guard("the two trees") as growing:
    trees = {c: ui.fit_tree(tree_spec(settings, shape, criterion=c)) for c in CRITERIA}
    # One grid for both, cut at the split points of either tree: every cell is then a
    # constant region of both trees, and they can be compared cell by cell.
    boundaries = ui.boundaries_on_one_grid(view, trees, plotted_pair(settings))
if growing.failed:
    st.stop()

if lesson == "criterion-matters":
    with lesson_top, ui.guard("whether the criterion matters"):
        ui.what_to_notice(
            "Where the two trees part, each question removes nearly as much of the other "
            "criterion's measure as its own pick: the criterion only tips a close call. Over "
            "many splits the trees may part often, yet they classify few test rows differently "
            "and their test accuracies stay within a few points of each other, either way.",
            key="criterion-notice",
        )
        ui.criterion_view(settings, view, trees, tree_spec(settings, shape), lab)
elif lesson == "map":
    with maps_area, ui.guard("the parameter maps"):  # computed only while the maps are open
        specs = {c: tree_spec(settings, shape, criterion=c) for c in CRITERIA}
        ui.criterion_maps(specs, view, cross_validate)

gini, entropy = trees["gini"], trees["entropy"]
only_gini, only_entropy = differing_nodes(gini, entropy)
agree_test = np.mean(gini.predict(view.X_test) == entropy.predict(view.X_test))
# Share of the plotted area where both trees predict the same class (cells differ in size).
grids = boundaries["gini"].grid, boundaries["entropy"].grid
agree_area = np.sum(grids[0].cell_areas() * (grids[0].predicted == grids[1].predicted))
area = "this slice" if grids[0].is_slice else "the plot"
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
                f", with the other features held at {grids[0].through}: a slice of the trees, "
                "not what they do on real samples (that is the test samples' figure)."
                if grids[0].is_slice
                else "."
            ),
        },
    )

# One row per tree, its boundary beside its diagram: side by side, the two trees' columns
# stacked boundary over tree, and no 1280x720 screen held both (issue 12).
for criterion, differing in zip(CRITERIA, (only_gini, only_entropy), strict=True):
    tree = trees[criterion]
    with ui.guard(f"the {criterion} tree"):
        st.subheader("Gini tree" if criterion == "gini" else "Entropy tree")
        with st.container(key=f"side-{criterion}"):  # the browser tests find metrics here
            ui.metrics([*ui.scores(tree, view), ("Leaves", tree.get_n_leaves())])
        plot_side, tree_side = st.columns(2, gap="large")
        with plot_side:
            ui.boundary(
                boundaries[criterion],
                view,
                key=f"boundary-{criterion}",
                height=480,
                model=tree,
            )
        with tree_side:
            name = f"arboretum-{criterion}-tree-{settings.dataset}"
            ui.diagram(
                tree,
                view,
                key=f"tree-{criterion}",
                name=name,
                detailed_up_to=6,
                highlight=differing,
            )

st.caption(
    "Outlined nodes have no identical counterpart in the other tree: a different "
    "question, or a question the other tree never asks. Choose **Whole tree** above a tree "
    "to see every level, and zoom in on any part."
)

curve_column, depth_column = st.columns(2, gap="large")
with curve_column, ui.guard("the impurity curves"):
    st.subheader("Two ways to measure a mix")
    majority = view.class_names[int(np.argmax(gini.tree_.value[0][0]))]
    curves = compute_impurity_curves(marker_p=node_proportion(gini, 0), class_name=majority)
    # Legends below: beside the plot they took ~40% of a half-width chart.
    ui.chart(
        impurity_figure(curves, title="", height=460, legend_below=True), key="impurity-curves"
    )
    st.caption(
        f"Impurity of a node where a share p of the samples are {md(majority)} (and the "
        "rest are not). The dots mark the root of the Gini tree. Entropy is measured in bits; "
        "both are 0 for a pure node and largest for an even mix."
    )
with depth_column, ui.guard("the depth curves"):
    st.subheader("Accuracy against depth")
    with st.spinner("Growing trees of depth 1 to 10 with both criteria…"):
        depth = ui.depth_curve(tree_spec(settings, shape))
    figure = depth_curve_figure(
        depth, current=settings.max_depth, title="", height=460, legend_below=True
    )
    ui.chart(figure, key="depth-curves")
    st.caption(
        "Dashed: training accuracy, solid: test accuracy. Training accuracy keeps rising with "
        "depth; test accuracy does not. The two colours stay close."
    )

ui.how_computed(
    "Both trees grow by the same loop and score splits with the same `score_splits`; only "
    "the impurity function differs. "
    "Gini: 1 − Σ pₖ². Entropy: −Σ pₖ log₂ pₖ. A split is chosen to lower the samples-weighted "
    "impurity of the two children the most."
    + (
        " `first_parting` walks both trees level by level to the first node where they ask "
        "different questions; `seed_study` grows both on 50 train/test splits."
        if lesson == "criterion-matters"
        else ""
    ),
    [
        criteria.node_gini,
        criteria.node_entropy,
        scan.score_splits,
        grow_tree,
        differing_nodes,
        *((first_parting, seed_study) if lesson == "criterion-matters" else ()),
    ],
)
