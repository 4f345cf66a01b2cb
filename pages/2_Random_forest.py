"""Random forest: many trees on resampled data, their vote, their curve, any one of them."""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from core import ui
from core.figures import (
    BACKGROUND,
    FONT_COLOR,
    boundary_figure,
    build_tree_diagram,
    class_color,
    compute_boundary,
    compute_importances,
    compute_regression_lines,
    forest_curve_figure,
    importance_figure,
    regression_figure,
    to_dot,
)
from core.state import MAX_FEATURES, N_ESTIMATORS_LIMIT, RandomForestSettings

st.set_page_config(page_title="Random forest · Arboretum", page_icon="🌲", layout="wide")
ui.start(RandomForestSettings)

with st.sidebar:
    st.header("Grow a forest")
    shape = ui.dataset_select(RandomForestSettings)
    data = ui.dataset(st.session_state["dataset"])
    classify = shape.task == "classification"
    ui.current("n_estimators")
    st.slider(
        "n_estimators (trees)",
        1,
        N_ESTIMATORS_LIMIT,
        key="n_estimators",
        help="How many trees vote. More trees never overfit more; they only average better.",
    )
    ui.current("max_features")
    st.segmented_control(
        "max_features",
        MAX_FEATURES,
        default=None,
        required=True,
        key="max_features",
        help="How many features each split may choose from, drawn at random per split: "
        "√d, log₂ d, or all d. Fewer makes the trees more different from one another.",
    )
    ui.current("bootstrap")
    st.toggle(
        "bootstrap",
        key="bootstrap",
        help="Grow each tree on a resample of the training rows (drawn with replacement). "
        "The rows a tree never saw give the out-of-bag score.",
    )
    ui.max_depth_control("How many questions each tree may ask in a row.")
    if classify:
        ui.criterion_control()
        ui.pair_controls(data)
        ui.fit_control()
    ui.seed_control()

st.title("Random forest")
top = st.container()
rows = ui.split(data.name, int(st.session_state["seed"]))
n_trees = int(st.session_state["n_estimators"])
if ui.current("tree") >= n_trees:
    st.session_state["tree"] = 0

curve_area, boundary_area = st.container(), st.container()
st.subheader("How each tree voted")
vote_text, vote_area = st.columns([2, 3], gap="large")
with vote_text:
    sample = ui.sample_control(rows, data, label="Sample to vote on")
# The tree gets the full width: squeezed into half of it, its text was too small to read.
st.subheader("Open any tree of the forest")
tree_pick, tree_note = st.columns([2, 3], gap="large", vertical_alignment="bottom")
with tree_pick:
    tree_index = st.number_input(
        "Tree number", min_value=0, max_value=n_trees - 1, step=1, key="tree"
    )
tree_area = st.container()

settings = ui.collect(RandomForestSettings)
ui.finish(settings)
with st.sidebar:
    st.divider()
    ui.share_box(settings)

columns = ui.columns(settings, shape)
cols = list(columns)
names = [data.feature_names[c] for c in columns]
X_train, X_test = rows.X_train[:, cols], rows.X_test[:, cols]
criterion = ui.regression_criterion(shape.task, settings.criterion)
spec = ui.ForestSpec(
    dataset=settings.dataset,
    columns=columns,
    criterion=criterion,
    max_depth=settings.max_depth,
    n_estimators=settings.n_estimators,
    max_features=settings.max_features,
    bootstrap=settings.bootstrap,
    seed=settings.seed,
)
lone_spec = ui.TreeSpec(
    dataset=settings.dataset,
    columns=columns,
    criterion=criterion,
    max_depth=settings.max_depth,
    min_samples_leaf=1,
    ccp_alpha=0.0,
    seed=settings.seed,
)

with top:
    ui.show_notices(settings)
    ui.what_to_notice(
        "Test accuracy climbs quickly over the first trees, then flattens: adding trees "
        "does not overfit, it only steadies the vote. The forest's boundary is smoother than "
        "one tree's because it averages many different trees. The out-of-bag curve follows "
        "the test curve without ever looking at the test set."
    )
    with ui.guard("the forest") as growing:
        with st.spinner(f"Growing {settings.n_estimators} trees…", show_time=True):
            forest = ui.fit_forest(spec)
            lone = ui.fit_tree(lone_spec)
        score = "accuracy" if classify else "R²"
        metrics = st.columns(4)
        metrics[0].metric(f"Train {score}", f"{ui.accuracy(forest, X_train, rows.y_train):.3f}")
        metrics[1].metric(f"Test {score}", f"{ui.accuracy(forest, X_test, rows.y_test):.3f}")
        oob = f"{forest.oob_score_:.3f}" if settings.bootstrap else "–"
        metrics[2].metric(f"Out-of-bag {score}", oob, help="Needs bootstrap.")
        metrics[3].metric(
            f"One tree's test {score}", f"{ui.accuracy(lone, X_test, rows.y_test):.3f}"
        )
if growing.failed:
    st.stop()

curve_column, importance_column = curve_area.columns([3, 2], gap="large")
with curve_column, ui.guard("the curve"):
    st.subheader(f"Test {score} as trees are added")
    with st.spinner("Scoring forests of 1 to 500 trees…", show_time=True):
        curve = ui.forest_curve(spec)
    ui.chart(
        forest_curve_figure(curve, current=settings.n_estimators, title="", height=400),
        key="forest-curve",
    )
    if not settings.bootstrap:
        st.caption("No out-of-bag curve: without bootstrap every tree sees every row.")
with importance_column, ui.guard("the feature importances"):
    st.subheader("Feature importances")
    importances = compute_importances(forest, feature_names=names, top=10)
    ui.chart(importance_figure(importances, title=""), key="importances")

boundary_area.subheader("The forest beside a single tree")
with boundary_area, ui.guard("the decision boundaries"):
    star = f"sample #{sample}"
    if classify:
        pair = (0, 1) if settings.fit == "pair" else (settings.x, settings.y)
        boundaries = {}
        for name, model in (("One tree", lone), (f"Forest of {settings.n_estimators}", forest)):
            boundaries[name] = compute_boundary(
                model,
                X_train,
                rows.y_train,
                X_test=X_test,
                y_test=rows.y_test,
                features=pair,
                feature_names=names,
                class_names=data.class_names,
                train_ids=rows.train_index,
                test_ids=rows.test_index,
            )
        left, right = st.columns(2)
        for column, (name, boundary), key in zip(
            (left, right), boundaries.items(), ("lone-boundary", "boundary"), strict=True
        ):
            with column:
                figure = ui.legend_below(boundary_figure(boundary, title=name, height=540))
                axes = boundary.grid.features
                ui.mark_sample(figure, X_test[sample], axes, star)
                ui.clickable_chart(
                    figure,
                    key=key,
                    test_index=rows.test_index,
                    test_xy=X_test[:, list(axes)],
                )
    else:
        lines = compute_regression_lines(
            {"one tree": lone, f"forest of {settings.n_estimators}": forest},
            X_train,
            rows.y_train,
            X_test=X_test,
            y_test=rows.y_test,
            feature_name=names[0],
            train_ids=rows.train_index,
            test_ids=rows.test_index,
        )
        figure = regression_figure(lines, target_name=data.target_name, height=480)
        ui.mark_sample(figure, [X_test[sample][0], float(rows.y_test[sample])], (0, 1), star)
        test_xy = np.column_stack([X_test[:, 0], rows.y_test])
        ui.clickable_chart(figure, key="boundary", test_index=rows.test_index, test_xy=test_xy)
    st.caption("Click a test sample (a ring) to see how the trees voted on it.")


def vote_figure(per_tree: np.ndarray) -> go.Figure:
    """Classification: trees per winning class. Regression: the spread of tree predictions."""
    figure = go.Figure()
    if classify:
        winners = np.bincount(per_tree.argmax(axis=1), minlength=len(data.class_names))
        figure.add_bar(
            x=list(data.class_names),
            y=winners,
            marker_color=[class_color(k) for k in range(len(data.class_names))],
            text=winners,
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{x}: %{y} trees<extra></extra>",
        )
        # Headroom above a full bar, so its count label is not cut off.
        figure.update_layout(
            yaxis={"title": "trees voting for it", "range": [0, 1.15 * len(per_tree)]},
            showlegend=False,
        )
    else:
        figure.add_histogram(x=per_tree, nbinsx=30, name="one tree's prediction")
        mean, truth = float(per_tree.mean()), float(rows.y_test[sample])
        figure.add_vline(
            x=mean,
            line_width=3,
            annotation_text="forest (mean)",
            annotation_position="top right" if mean >= truth else "top left",
        )
        figure.add_vline(
            x=truth,
            line_dash="dash",
            annotation_text="true value",
            annotation_position="top left" if mean >= truth else "top right",
        )
        figure.update_layout(xaxis_title="prediction", yaxis_title="trees", showlegend=False)
    figure.update_layout(
        height=320,
        margin={"t": 30, "b": 40, "l": 60, "r": 20},
        template="none",
        paper_bgcolor=BACKGROUND,
        plot_bgcolor=BACKGROUND,
        font={"size": 16, "color": FONT_COLOR},
    )
    return figure


with vote_area, ui.guard("the votes"):
    per_tree = forest.predict_per_tree(X_test[sample : sample + 1])[:, 0]
    ui.chart(vote_figure(per_tree), key="votes")
with vote_text:
    if classify:
        mean = per_tree.mean(axis=0)
        k = int(mean.argmax())
        truth = data.class_names[int(rows.y_test[sample])]
        st.markdown(
            f"Averaging the trees' class shares gives **{ui.md(data.class_names[k])}** "
            f"({mean[k]:.0%}); the true class is **{ui.md(truth)}**."
        )
    else:
        st.markdown(
            f"The forest predicts the mean of its trees, **{per_tree.mean():.4g}**; the true "
            f"value is **{float(rows.y_test[sample]):.4g}**."
        )

with tree_area, ui.guard("that tree"):
    one = forest.estimators_[int(tree_index)]
    diagram = build_tree_diagram(
        forest,
        tree_index=int(tree_index),
        feature_names=names,
        class_names=data.class_names or None,
        max_depth=4,
        sample=X_test[sample],
        sample_label=f"sample #{sample}",
    )
    folded = " Dashed boxes stand for levels deeper than 4, folded." if diagram.collapsed else ""
    tree_note.caption(
        f"Tree {tree_index} alone scores {ui.accuracy(one, X_test, rows.y_test):.3f} on the "
        f"test set; the forest scores {ui.accuracy(forest, X_test, rows.y_test):.3f}.{folded}"
    )
    dot = to_dot(diagram, detail="beginner")
    name = f"arboretum-forest-{settings.dataset}-tree-{int(tree_index)}"
    ui.tree_diagram(dot, key="tree-diagram", name=name)

ui.how_computed(
    "Each tree is grown on its own bootstrap sample with its own random feature draws; the "
    "forest averages the trees' class shares (or numbers). The curve comes from one pass "
    "over the trees: the forest of k trees is the running mean of the first k.",
    [type(forest).fit, type(forest).staged_scores, type(forest).predict_per_tree],
)
