"""Gini vs entropy: two trees that differ only in how they measure a node's mix of classes."""

import numpy as np
import streamlit as st

from core import ui
from core.engine import criteria
from core.figures import (
    boundary_figure,
    build_tree_diagram,
    compute_boundary,
    compute_impurity_curves,
    depth_curve_figure,
    impurity_figure,
    node_proportion,
    to_dot,
)
from core.state import CRITERIA, GiniEntropySettings

st.set_page_config(page_title="Gini vs entropy · Arboretum", page_icon="⚖️", layout="wide")
ui.start(GiniEntropySettings)

with st.sidebar:
    st.header("Two criteria, same data")
    shape = ui.dataset_select(GiniEntropySettings)
    data = ui.dataset(st.session_state["dataset"])
    ui.max_depth_control()
    ui.min_samples_leaf_control()
    ui.pair_controls(data)
    ui.fit_control()
    ui.seed_control()

settings = ui.collect(GiniEntropySettings)
ui.finish(settings)
with st.sidebar:
    st.divider()
    ui.share_box(settings)

st.title("Gini vs entropy")
ui.show_notices(settings)
ui.what_to_notice(
    "Gini impurity and entropy rise and fall together, so the two trees often ask the same "
    "questions. When they part ways (outlined nodes), everything below differs too, yet they "
    "still agree on most samples and their test accuracies stay close. Depth matters far more "
    "than the criterion: compare the two colours in the depth chart."
)

rows = ui.split(settings.dataset, settings.seed)
columns = ui.columns(settings, shape)
cols = list(columns)
names = [data.feature_names[c] for c in columns]
X_train, X_test = rows.X_train[:, cols], rows.X_test[:, cols]


def spec(criterion: str) -> ui.TreeSpec:
    return ui.TreeSpec(
        dataset=settings.dataset,
        columns=columns,
        criterion=criterion,
        max_depth=settings.max_depth,
        min_samples_leaf=settings.min_samples_leaf,
        ccp_alpha=0.0,
        seed=settings.seed,
    )


with ui.guard("the two trees") as growing:
    trees = {criterion: ui.fit_tree(spec(criterion)) for criterion in CRITERIA}
    pair = (0, 1) if settings.fit == "pair" else (settings.x, settings.y)
    boundaries = {
        criterion: compute_boundary(
            tree,
            X_train,
            rows.y_train,
            X_test=X_test,
            y_test=rows.y_test,
            features=pair,
            feature_names=names,
            class_names=data.class_names,
            train_ids=rows.train_index,
            test_ids=rows.test_index,
            # One grid for both, cut at the split points of either tree: every cell is then
            # a constant region of both trees, and they can be compared cell by cell.
            edges_from=tuple(trees.values()),
        )
        for criterion, tree in trees.items()
    }
if growing.failed:
    st.stop()

gini, entropy = trees["gini"], trees["entropy"]
agree_test = float(np.mean(gini.predict(X_test) == entropy.predict(X_test)))
# Share of the plotted area where both trees predict the same class (cells differ in size).
same = boundaries["gini"].grid.predicted == boundaries["entropy"].grid.predicted
agree_grid = float(np.sum(boundaries["gini"].grid.cell_areas() * same))
only_gini, only_entropy = ui.differing_nodes(gini, entropy)

with st.container(key="agreement"):
    metrics = st.columns(4)
    metrics[0].metric("They agree on test samples", f"{agree_test:.1%}")
    metrics[1].metric(
        "They agree on the plotted area",
        f"{agree_grid:.1%}",
        help="Share of the plotted area that both trees put in the same class.",
    )
    metrics[2].metric("Nodes only the Gini tree has", len(only_gini))
    metrics[3].metric("Nodes only the entropy tree has", len(only_entropy))

sides = st.columns(2, gap="large")
details = st.container()
drawings: dict[str, str] = {}
folded = False
for side, criterion, differing in zip(sides, CRITERIA, (only_gini, only_entropy), strict=True):
    tree = trees[criterion]
    with side, ui.guard(f"the {criterion} tree"):
        st.subheader("Gini tree" if criterion == "gini" else "Entropy tree")
        with st.container(key=f"side-{criterion}"):  # the browser tests find metrics here
            small = st.columns(3)
        small[0].metric("Train accuracy", f"{ui.accuracy(tree, X_train, rows.y_train):.3f}")
        small[1].metric("Test accuracy", f"{ui.accuracy(tree, X_test, rows.y_test):.3f}")
        small[2].metric("Leaves", tree.get_n_leaves())
        figure = ui.legend_below(boundary_figure(boundaries[criterion], title="", height=500))
        ui.chart(figure, key=f"boundary-{criterion}")
        diagram = build_tree_diagram(
            tree,
            feature_names=names,
            class_names=data.class_names,
            max_depth=6,
            highlight=differing,
        )
        folded = folded or bool(diagram.collapsed)
        dot = to_dot(diagram, detail="detailed" if tree.get_n_leaves() <= 6 else "beginner")
        name = f"arboretum-{criterion}-tree-{settings.dataset}"
        drawing = ui.tree_diagram(dot, key=f"tree-{criterion}", name=name)
        if drawing is not None:
            drawings[criterion] = drawing

with details:
    st.caption(
        "Outlined nodes have no identical counterpart in the other tree: a different "
        "question, or a question the other tree never asks."
        + (" Dashed boxes stand for levels below 6, folded to keep it legible." if folded else "")
    )
    full_size = st.expander(
        "Read the trees at full size",
        icon=":material/zoom_in:",
        key="full-size-trees",
        on_change="rerun",
    )
    if drawings and full_size.open:
        with full_size:
            for name, drawing in drawings.items():
                st.markdown(f"**{name.capitalize()} tree**")
                ui.show_svg(drawing, key=f"tree-{name}-full", min_scale=0.8)

curve_column, depth_column = st.columns(2, gap="large")
with curve_column, ui.guard("the impurity curves"):
    st.subheader("Two ways to measure a mix")
    share = node_proportion(gini, 0)
    majority = data.class_names[int(np.argmax(gini.tree_.value[0][0]))]
    curves = compute_impurity_curves(marker_p=share, class_name=majority)
    # Legends below: beside the plot they took ~40% of a half-width chart.
    figure = ui.legend_below(impurity_figure(curves, title="", height=460))
    ui.chart(figure, key="impurity-curves")
    st.caption(
        f"Impurity of a node where a share p of the samples are {ui.md(majority)} (and the "
        "rest are not). The dots mark the root of the Gini tree. Entropy is measured in bits; "
        "both are 0 for a pure node and largest for an even mix."
    )
with depth_column, ui.guard("the depth curves"):
    st.subheader("Accuracy against depth")
    with st.spinner("Growing trees of depth 1 to 10 with both criteria…"):
        depth = ui.depth_curve(spec("gini"))
    figure = depth_curve_figure(depth, current=settings.max_depth, title="", height=460)
    ui.chart(ui.legend_below(figure), key="depth-curves")
    st.caption(
        "Dashed: training accuracy, solid: test accuracy. Training accuracy keeps rising with "
        "depth; test accuracy does not. The two colours stay close."
    )

ui.how_computed(
    "Both trees use the same split search; only the impurity function differs. "
    "Gini: 1 − Σ pₖ². Entropy: −Σ pₖ log₂ pₖ. A split is chosen to lower the samples-weighted "
    "impurity of the two children the most.",
    [criteria.gini, criteria.entropy, criteria.scan_feature, ui.differing_nodes],
)
