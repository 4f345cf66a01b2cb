"""Random forest: many trees on resampled data, their vote, their curve, any one of them."""

from typing import Any

import streamlit as st

from core import ui
from core.app.models import ModelView, affordable, forest_spec, plotted_pair, tree_spec
from core.app.pages import RANDOM_FOREST
from core.app.words import score, score_name
from core.engine.bagging import bootstrap_weights, grow_trees
from core.engine.grow import grow_tree
from core.engine.walk import forest_path_changes
from core.figures import forest_curve_figure
from core.figures.contributions import forest_contributions
from core.figures.variance import compute_spread, decomposition

controls = ui.start(RANDOM_FOREST)
with st.sidebar:
    st.header("Grow a forest")
    shape = controls.dataset()
    controls.show("n_estimators")
    controls.show("max_features")
    controls.show("bootstrap")
    controls.show("max_depth", help="How many questions each tree may ask in a row.")
    if shape.task == "classification":
        controls.show("criterion")
        controls.pair()
        controls.show("fit")
    controls.show("seed")
    controls.show("test_size")
    lesson = controls.view({"variance": "Why averaging works"})
view = ui.view(controls.settings)
# A forest too big for a shared server grows only its first trees (cost.notice() says so).
spec, cost = affordable(forest_spec(controls.settings, shape), view)
n_trees = spec.n_estimators

st.title("Random forest")
name = score_name(view.data.task)
top, lesson_area, curve_area, boundary_area = (st.container() for _ in range(4))
if lesson == "variance":
    with lesson_area:
        st.subheader("Why averaging works: trees on resampled data, over each other")
        many, averaged = st.columns([3, 2], vertical_alignment="bottom")
        with many:
            controls.show("resamples")
        with averaged:
            controls.show("average")
curve_column, importance_column = curve_area.columns([3, 2], gap="large")
with curve_column:
    st.subheader(f"Test {name} as trees are added")
    log_trees = controls.show("log_trees")
notices = top.container()
with top, ui.guard("the forest") as growing:
    settings = controls.settings  # all but the sample and the tree, drawn by forest_parts
    forest = ui.fit_forest(spec, cost)  # a long fit shows its own progress bar
    lone = ui.fit_tree(tree_spec(settings, shape, min_samples_leaf=1, ccp_alpha=0.0))
    lone_score = score(lone, view.X_test, view.y_test)
if growing.failed:
    controls.finish()
    st.stop()


@st.fragment
def forest_parts(
    controls: ui.Controls,
    view: ModelView,
    forest: Any,
    lone: Any,
    n_trees: int,
    lone_score: float,
) -> None:
    """Everything the test sample moves: the boundaries, the vote, the glance and the opened
    tree. Moving the sample reruns this part alone; the forest, its curve and its importances
    stay as they are."""
    st.subheader("The forest beside a single tree")
    boundary_area = st.container()
    st.subheader("How each tree voted")
    vote_text, vote_area = st.columns([2, 3], gap="large")
    with vote_text:
        sample = controls.sample(view, label="Sample to vote on")
    vote_parts = st.container()
    glance = (
        st.expander(
            f"The forest at a glance: {min(ui.GLANCE_TREES, n_trees)} of its trees side by side",
            icon=":material/grid_view:",
            key="glance",
            on_change="rerun",
        )
        if view.classify
        else None
    )
    one_tree(controls, view, forest, n_trees, sample, lone_score)  # the last control: finishes
    settings = controls.settings

    with boundary_area, ui.guard("the decision boundaries"):
        models = {"One tree": lone, f"Forest of {n_trees}": forest}
        ui.model_fit(view, models, pair=plotted_pair(settings), sample=sample, height=540)
        st.caption("Click a test sample (a ring) to see how the trees voted on it.")

    with vote_area, ui.guard("the votes"):
        verdict = ui.votes(forest, view, sample)
        vote_text.markdown(verdict)
    with vote_parts, ui.guard("the vote taken apart"):
        st.markdown("#### The forest's answer, feature by feature")
        ui.forest_vote_parts(forest, view, sample)

    if glance is not None and glance.open:
        with glance, ui.guard("the trees at a glance"):
            st.caption(
                "Each map colours the plane by the class one tree predicts. Grown on resamples, "
                "with a few features per split, the trees agree in the middle of each class and "
                "differ at the edges; the forest averages those differences away. Click a map "
                "to open that tree below."
            )
            ui.forest_glance(forest, view, plotted_pair(settings))


@st.fragment
def one_tree(
    controls: ui.Controls,
    view: ModelView,
    forest: Any,
    n_trees: int,
    sample: int,
    lone_score: float,
) -> None:
    """One tree of the forest, beside its own fit over the data. Moving the tree number
    reruns this part alone, inside :func:`forest_parts` (whose run redraws it too)."""
    st.subheader("Open any tree of the forest")
    tree_pick, tree_note = st.columns([2, 3], gap="large", vertical_alignment="bottom")
    with tree_pick:
        tree_index = controls.tree(n_trees)
    # The tree beside its own fit over the data, so each split shows as a step of it on a
    # 1280x720 screen (issue 12). On a phone the columns stack; a fit over one feature, a wide
    # low chart, goes above the tree.
    tree_fit, tree_area = (
        st.columns(2, gap="large") if view.classify else (st.container(), st.container())
    )
    settings = controls.finish()

    with tree_fit, ui.guard("that tree's fit"):
        picked = {f"Tree {tree_index}": forest.estimators_[tree_index]}
        ui.model_fit(
            view,
            picked,
            pair=plotted_pair(settings),
            sample=sample,
            key="forest-tree",
            height=480 if view.classify else 300,
        )
        tree_fit.caption(
            f"Tree {tree_index} alone over the same data: the forest above averages {n_trees} "
            "such trees."
        )

    with tree_area, ui.guard("that tree"):
        ui.diagram(
            forest,
            view,
            key="tree-diagram",
            name=f"arboretum-forest-{settings.dataset}-tree-{tree_index}",
            detailed_up_to=0,
            tree_index=tree_index,
            sample=sample,
        )
        one = score(forest.estimators_[tree_index], view.X_test, view.y_test)
        rows = "its own bootstrap sample" if settings.bootstrap else "all rows"
        tree_note.caption(
            f"Tree {tree_index} of the forest, grown on {rows} with "
            f"max_features={settings.max_features}, scores {one:.3f} on the test set on its "
            f"own. The lone tree beside the forest above, grown on all rows with every "
            f"feature, scores {lone_score:.3f}; the forest scores "
            f"{score(forest, view.X_test, view.y_test):.3f}."
        )


# The scores first: a browser draws what it receives in order, and they do not wait on the
# sample or the tree.
with top:
    if cost.too_big:
        st.warning(cost.notice(), icon=":material/speed:")
    ui.what_to_notice(
        "Test accuracy climbs quickly over the first trees, then flattens: adding trees "
        "does not overfit, it only steadies the vote. The forest's boundary is smoother than "
        "one tree's because it averages many different trees. The out-of-bag curve follows "
        "the test curve without ever looking at the test set."
        if view.classify
        else "Test R² climbs quickly over the first trees, then flattens: adding trees does "
        "not overfit, it only steadies the average. The forest's fit over the data is a finer, "
        "smoother staircase than one tree's because it averages many different trees. The "
        "out-of-bag curve follows the test curve without ever looking at the test set."
    )
    with ui.guard("the scores"):
        oob = f"{forest.oob_score_:.3f}" if settings.bootstrap else "–"
        lone_test = (f"Lone tree's test {name}", lone_score)
        ui.metrics(
            [*ui.scores(forest, view), (f"Out-of-bag {name}", oob), lone_test],
            help={
                f"Out-of-bag {name}": "Needs bootstrap.",
                lone_test[0]: "One tree grown on all the training rows with every feature at "
                "every split: the one drawn beside the forest below. The forest's own trees "
                "differ: each sees a bootstrap sample and a few features per split.",
            },
        )

with boundary_area:
    forest_parts(controls, view, forest, lone, n_trees, lone_score)
settings = controls.settings

with notices:
    ui.show_notices(settings)
if lesson == "variance":
    with lesson_area, ui.guard("the resampled trees"):
        ui.what_to_notice(
            "Deep trees grown on resamples of the same rows differ wildly: their boundaries "
            "cross everywhere the classes meet (variance). Their average is steady and scores "
            "better than a typical one of them. Fewer features per split (max_features) makes "
            "the trees less alike, and their average better; a shallow max_depth makes them "
            "alike and all a little wrong (bias)."
            if view.classify
            else "Deep trees grown on resamples of the same rows differ wildly: each staircase "
            "chases its own noise (variance). Their average is steady: its error is the trees' "
            "error minus their variance. Shallow trees agree more but all miss the curve "
            "(bias).",
            key="variance-notice",
        )
        ui.variance_view(settings, shape)

with curve_column, ui.guard("the curve"):
    n_curve = ui.curve_trees(n_trees)
    with st.spinner(f"Scoring forests of 1 to {n_curve} trees…", show_time=True):
        curve = ui.forest_curve(spec, cost)
    figure = forest_curve_figure(curve, current=n_trees, title="", height=400, log_x=log_trees)
    ui.chart(figure, key="forest-curve")
    if not settings.bootstrap:
        st.caption("No out-of-bag curve: without bootstrap every tree sees every row.")
with importance_column, ui.guard("the feature importances"):
    st.subheader("Feature importances")
    ui.importances(forest, view, key="importances")

ui.how_computed(
    "Each tree is grown on its own bootstrap sample (`bootstrap_weights`, then `grow_trees`) "
    "with its own random feature draws; the "
    "forest averages the trees' class shares (or numbers). The curve comes from one pass "
    "over the trees: the forest of k trees is the running mean of the first k. Every tree "
    "grows by the same loop as a single tree, `grow_tree`, trying `max_features` features "
    "drawn at random at each node. `forest_contributions` takes the voted sample's answer "
    "apart: `forest_path_changes` walks the sample down every tree, crediting each "
    "question's change in value to the feature it asks about, and the sums are averaged "
    "over the trees."
    + (
        " `compute_spread` and `decomposition` turn the resampled trees' predictions into "
        "the view above: their disagreement, the error of their average, and its parts."
        if lesson == "variance"
        else ""
    ),
    [
        type(forest).fit,
        bootstrap_weights,
        grow_trees,
        grow_tree,
        type(forest).staged_scores,
        type(forest).predict_per_tree,
        forest_contributions,
        forest_path_changes,
        *((compute_spread, decomposition) if lesson == "variance" else ()),
    ],
)
