"""Single tree: grow one decision tree, see its boundary, and trace a test sample through it."""

from dataclasses import replace

import numpy as np
import streamlit as st

from core import ui
from core.engine import criteria
from core.engine.builder import grow_trees
from core.figures import (
    boundary_figure,
    build_tree_diagram,
    compute_boundary,
    compute_regression_lines,
    compute_split_scan,
    regression_figure,
    split_scan_figure,
    to_dot,
)
from core.state import SingleTreeSettings

st.set_page_config(page_title="Single tree · Arboretum", page_icon="🌳", layout="wide")
ui.start(SingleTreeSettings)

with st.sidebar:
    st.header("Grow one tree")
    shape = ui.dataset_select(SingleTreeSettings)
    data = ui.dataset(st.session_state["dataset"])
    classify = shape.task == "classification"
    if classify:
        ui.criterion_control()
    ui.max_depth_control()
    ui.min_samples_leaf_control()
    ui.ccp_alpha_control(shape.task)
    if classify:
        ui.pair_controls(data)
        ui.fit_control()
    ui.seed_control()

st.title("Single tree")
top = st.container()
rows = ui.split(data.name, int(st.session_state["seed"]))
plot_column, trace_column = st.columns([3, 2], gap="large")
with trace_column:
    st.subheader("Trace a test sample")
    sample = ui.sample_control(rows, data)
    ui.current("test_on_tree")
    st.toggle(
        "Show the test data on the tree",
        key="test_on_tree",
        help="Each node then also says how many test samples reach it and how well the tree "
        "does on them.",
    )

settings = ui.collect(SingleTreeSettings)
ui.finish(settings)
with st.sidebar:
    st.divider()
    ui.share_box(settings)

columns = ui.columns(settings, shape)
names = [data.feature_names[c] for c in columns]
spec = ui.TreeSpec(
    dataset=settings.dataset,
    columns=columns,
    criterion=ui.regression_criterion(shape.task, settings.criterion),
    max_depth=settings.max_depth,
    min_samples_leaf=settings.min_samples_leaf,
    ccp_alpha=settings.ccp_alpha,
    seed=settings.seed,
)
X_train, X_test = rows.X_train[:, list(columns)], rows.X_test[:, list(columns)]

with top:
    ui.show_notices(settings)
    if classify:
        ui.what_to_notice(
            "Each split is one yes/no question about one feature, so the boundary is made of "
            "straight, axis-parallel steps. Let the tree grow deeper: training accuracy climbs "
            "towards 100%, but test accuracy stops improving, and then falls: the tree is "
            "learning the noise of its training samples (overfitting). Pruning (ccp_alpha) and "
            "min_samples_leaf pull it back."
        )
    else:
        ui.what_to_notice(
            "A regression tree predicts one number per leaf, the mean of its training samples, "
            "so its fit is a staircase. Each extra level of depth can double the steps: at "
            "first they follow the wave, then they start chasing single noisy points, and the "
            "test R² stops improving. Pruning (ccp_alpha) and min_samples_leaf pull it back."
        )
    with ui.guard("the tree") as growing:
        model = ui.fit_tree(spec)
        score = "accuracy" if classify else "R²"
        metrics = st.columns(4)
        metrics[0].metric(
            f"Train {score.lower()}", f"{ui.accuracy(model, X_train, rows.y_train):.3f}"
        )
        metrics[1].metric(f"Test {score}", f"{ui.accuracy(model, X_test, rows.y_test):.3f}")
        metrics[2].metric("Depth", model.get_depth())
        metrics[3].metric("Leaves", model.get_n_leaves())

if growing.failed:
    st.stop()

with trace_column, ui.guard("the sample's path"):
    steps, answer = ui.path_in_words(model, X_test[sample], names, data.class_names)
    truth = (
        data.class_names[int(rows.y_test[sample])]
        if classify
        else f"{float(rows.y_test[sample]):.4g}"
    )
    with st.container(key="sample-path"):
        if steps:
            st.markdown("\n".join(f"{i}. {step}" for i, step in enumerate(steps, 1)))
        st.markdown(f"{answer.capitalize()} The true answer is **{ui.md(truth)}**.")

with plot_column, ui.guard("the decision boundary"):
    if classify:
        st.subheader("Decision boundary")
        boundary = compute_boundary(
            model,
            X_train,
            rows.y_train,
            X_test=X_test,
            y_test=rows.y_test,
            features=(0, 1) if settings.fit == "pair" else (settings.x, settings.y),
            feature_names=names,
            class_names=data.class_names,
            train_ids=rows.train_index,
            test_ids=rows.test_index,
        )
        # Legend below, as on the other pages: the plot keeps the full width.
        figure = ui.legend_below(boundary_figure(boundary, height=560))
        axes = boundary.grid.features
        ui.mark_sample(figure, X_test[sample], axes, f"test sample #{sample}")
        test_xy = X_test[:, list(axes)]
        ui.clickable_chart(figure, key="boundary", test_index=rows.test_index, test_xy=test_xy)
        st.caption(
            "Filled dots are training samples, rings are test samples, crosses are mistakes. "
            "Click a ring to trace that sample through the tree."
        )
    else:
        st.subheader("The fit over the data")
        lines = compute_regression_lines(
            {"this tree": model},
            X_train,
            rows.y_train,
            X_test=X_test,
            y_test=rows.y_test,
            feature_name=names[0],
            train_ids=rows.train_index,
            test_ids=rows.test_index,
        )
        figure = regression_figure(lines, target_name=data.target_name, height=520)
        point = [X_test[sample][0], float(rows.y_test[sample])]
        ui.mark_sample(figure, point, (0, 1), f"test sample #{sample}")
        test_xy = np.column_stack([X_test[:, 0], rows.y_test])
        ui.clickable_chart(figure, key="boundary", test_index=rows.test_index, test_xy=test_xy)
        st.caption(
            "The tree predicts one number per leaf, so its fit is a staircase. Filled dots are "
            "training samples, rings are test samples: click a ring to trace it."
        )
        depths = st.expander(
            "The classic picture: depths 1, 2, 4 and 8 on the same data",
            icon=":material/stacked_line_chart:",
            key="depth-overlay",
            on_change="rerun",
        )
        if depths.open:  # four fits and a chart: only once asked for
            with depths:
                trees = {
                    f"depth {d}": ui.fit_tree(replace(spec, max_depth=d)) for d in (1, 2, 4, 8)
                }
                overlay = compute_regression_lines(
                    trees,
                    X_train,
                    rows.y_train,
                    X_test=X_test,
                    y_test=rows.y_test,
                    feature_name=names[0],
                    train_ids=rows.train_index,
                    test_ids=rows.test_index,
                )
                figure = regression_figure(overlay, target_name=data.target_name, height=520)
                ui.chart(ui.legend_below(figure), key="depth-overlay-chart")
                st.caption(
                    "Depth 1 is one step; every extra level can double the steps. By depth 8 the "
                    "staircase chases single noisy points instead of the wave."
                )

st.subheader("The tree")
with ui.guard("the tree diagram"):
    diagram = build_tree_diagram(
        model,
        feature_names=names,
        class_names=data.class_names or None,
        max_depth=8,
        sample=X_test[sample],
        sample_label=f"test sample #{sample}",
        X_test=X_test if settings.test_on_tree else None,
        y_test=rows.y_test if settings.test_on_tree else None,
    )
    # Full node details while they stay readable; a big tree shows rules and class bars only.
    dot = to_dot(diagram, detail="detailed" if model.get_n_leaves() <= 16 else "beginner")
    ui.tree_diagram(dot, key="tree-diagram", name=f"arboretum-tree-{settings.dataset}")
    if diagram.collapsed:
        st.caption(
            "Dashed boxes stand for branches deeper than 8 levels, folded to keep it legible."
        )

why = st.expander(
    "Why does the root ask this question?",
    icon=":material/search:",
    key="why-root",
    on_change="rerun",
)
with why, ui.guard("the split scan"):
    if not why.open:
        pass  # computed only when opened: the scan and its chart cost more than the page
    elif model.get_depth() == 0:
        st.info("This tree has no split: its root is a leaf.")
    else:
        scan = compute_split_scan(model, X_train, rows.y_train, 0, feature_names=names)
        ui.chart(split_scan_figure(scan, title=""), key="split-scan")
        st.caption(
            "For every feature and every threshold between two training values: the "
            "impurity the two children would have, weighted by their sizes. The tree takes "
            "the lowest point of all (the star); the dotted line is the root's own impurity, "
            "so the gap below it is what the split gains."
        )

ui.how_computed(
    "`fit` checks its input and grows the tree level by level with `grow_trees`, which "
    "scores every candidate split of a level at once. `scan_feature` does the same for one "
    "feature at one node, plainly. The path above is read from the fitted tree's flat arrays.",
    [type(model).fit, grow_trees, criteria.scan_feature, ui.path_in_words],
)
