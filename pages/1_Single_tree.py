"""Single tree: grow one decision tree, see its boundary, and trace a test sample through it."""

import streamlit as st

from core import ui
from core.app.edits import NO_EDITS
from core.app.models import ModelView, plotted_pair, tree_spec
from core.app.pages import SINGLE_TREE
from core.app.settings import DatasetShape
from core.app.words import md, path_in_words
from core.engine.grow import grow_tree
from core.engine.scan import score_splits
from core.engine.stopping import stop_reason
from core.figures.contributions import path_contributions
from core.figures.leaves import compute_leaves, leaves_figure
from core.figures.param_map import column_scores, compute_param_map

controls = ui.start(SINGLE_TREE)
with st.sidebar:
    shape = ui.tree_controls(controls, "Grow one tree")
    lesson = controls.view({"map": "Parameter map", "what-if": "What if this sample changed?"})
view = ui.view(controls.settings)

st.title("Single tree")


@st.fragment
def tree_and_sample(
    controls: ui.Controls, view: ModelView, shape: DatasetShape, lesson: str | None
) -> None:
    """Everything under the title: the scores, the boundary, the tree, the test sample's path,
    the lesson opened from the link and the expanders.

    The test sample, the lesson's own controls and the expanders rerun this part alone; the
    sidebar's controls rerun the page.
    """
    top = st.container()
    lesson_box = st.container()  # a lesson opened from the link (?view=map), above the figures
    if lesson == "map":
        with lesson_box:
            st.subheader("The parameter map: which settings score best?")
            cross_validate = controls.show("map_cv")
    # Boundary and tree side by side: each split is a step of the boundary, so both must be on a
    # 1280x720 screen at once (issue 12). On a phone the columns stack. A fit over one feature is
    # a wide, low chart: it goes above the tree, which keeps the page's width for its leaves.
    plot_column, tree_column = (
        st.columns(2, gap="large") if view.classify else (st.container(), st.container())
    )
    st.subheader("Trace a test sample")
    pick_column, trace_column = st.columns([2, 3], gap="large")
    with pick_column:
        sample = controls.sample(view)
        test_on_tree = controls.show("test_on_tree")
    if lesson == "what-if":  # the inputs first: their edits are a setting, in the link
        with lesson_box:
            st.subheader("What if this sample changed?")
            ui.what_to_notice(
                "Only the features the path asks about matter: change any other and "
                "nothing moves. Change one it asks about across its threshold and the sample "
                "takes another branch, and its star crosses into another region. The bars "
                "show how the answer is built: the training rows' answer at the root, then "
                "what each question adds.",
                key="what-if-notice",
            )
            edited = ui.edited_row(controls, view, sample)
    else:
        controls.hold("edit", NO_EDITS)  # edits belong to the what-if view, and close with it
    settings = controls.finish()

    with top:
        ui.show_notices(settings)
        ui.what_to_notice(
            "Each split is one yes/no question about one feature, so the boundary is made of "
            "straight, axis-parallel steps. Let the tree grow deeper: training accuracy climbs "
            "towards 100%, but test accuracy stops improving, and then falls: the tree is "
            "learning the noise of its training samples (overfitting). Pruning (ccp_alpha) and "
            "min_samples_leaf pull it back."
            if view.classify
            else "A regression tree predicts one number per leaf, the mean of its training "
            "samples, so its fit is a staircase. Each extra level of depth can double the steps: "
            "at first they follow the wave, then they start chasing single noisy points, and the "
            "test R² stops improving. Pruning (ccp_alpha) and min_samples_leaf pull it back."
        )
        with ui.guard("the tree") as growing:
            model = ui.fit_tree(tree_spec(settings, shape))
            depth = ("Depth", model.get_depth())
            ui.metrics([*ui.scores(model, view), depth, ("Leaves", model.get_n_leaves())])
    if growing.failed:
        return

    if lesson == "map":
        with lesson_box, ui.guard("the parameter map"):  # computed only while the map is open
            parameter_map = ui.param_map(tree_spec(settings, shape), view, cross_validate)
            ui.param_map_notice(parameter_map, len(view.y_test))
    elif lesson == "what-if":
        with lesson_box, ui.guard("the edited sample"):
            ui.what_if(model, view, sample, plotted_pair(settings), edited)

    with trace_column, ui.guard("the sample's path"), st.container(key="sample-path"):
        steps, answer = path_in_words(
            model, view.X_test[sample], view.names, view.class_names, view.categories
        )
        truth = view.y_test[sample]
        shown = view.class_names[int(truth)] if view.classify else f"{float(truth):.4g}"
        if steps:
            st.markdown("\n".join(f"{i}. {step}" for i, step in enumerate(steps, 1)))
        st.markdown(f"{answer[:1].upper() + answer[1:]} The true answer is **{md(shown)}**.")

    with plot_column, ui.guard("the decision boundary"):
        st.subheader("Decision boundary" if view.classify else "The fit over the data")
        pair = plotted_pair(settings)
        ui.model_fit(
            view,
            {"this tree": model},
            pair=pair,
            sample=sample,
            height=480 if view.classify else 300,
        )
        st.caption(
            "Filled dots are training samples, rings are test samples, crosses are mistakes. "
            "Click a ring to trace that sample through the tree."
            if view.classify
            else "The tree predicts one number per leaf, so its fit is a staircase. Filled dots "
            "are training samples, rings are test samples: click a ring to trace it."
        )
        if not view.classify:
            depths = st.expander(
                "The classic picture: depths 1, 2, 4 and 8 on the same data",
                icon=":material/stacked_line_chart:",
                key="depth-overlay",
                on_change="rerun",
            )
            if depths.open:  # four fits and a chart: only once asked for
                with depths:
                    trees = {
                        f"depth {d}": ui.fit_tree(tree_spec(settings, shape, max_depth=d))
                        for d in (1, 2, 4, 8)
                    }
                    ui.model_fit(view, trees, pair=pair, sample=None, key="depth-overlay-chart")
                    st.caption(
                        "Depth 1 is one step; every extra level can double the steps. By depth 8 "
                        "the staircase chases single noisy points instead of the wave."
                    )

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
        name = f"arboretum-tree-{settings.dataset}"
        ui.diagram(
            model,
            view,
            key="tree-diagram",
            name=name,
            sample=sample,
            test_on_tree=test_on_tree,
            node_numbers=range(model.tree_.node_count) if why.open else None,
            selected=node,
        )
        if why.open:
            st.caption(f"Node {node} has a double blue border; every node shows its number.")

    with tree_column:
        held = st.expander(
            "Leaves: what each leaf holds",
            icon=":material/bar_chart:",
            key="leaves",
            on_change="rerun",
        )
    with held, ui.guard("the leaves"):
        if held.open:  # the training rows sent down the tree: only once asked for
            leaves = compute_leaves(model, view.X_train, view.y_train)
            ui.chart(
                leaves_figure(
                    leaves,
                    class_names=view.class_names,
                    target_name=view.data.target_name,
                    height=400,
                ),
                key="leaves-chart",
            )
            st.caption(
                "One bar per leaf, left to right as in the tree: the training samples that end "
                "there, by class. The leaf predicts the class with the most."
                if view.classify
                else "One column per leaf, left to right as in the tree: the training targets "
                "that end there. The diamond, their mean, is what the leaf predicts."
            )

    walk = st.expander(
        "Walk the pruning path", icon=":material/content_cut:", key="pruning", on_change="rerun"
    )
    with walk, ui.guard("the pruning walk"):
        if walk.open:  # the full tree and a score per step: only once asked for
            ui.pruning_walk(tree_spec(settings, shape), view, settings.ccp_alpha)


tree_and_sample(controls, view, shape, lesson)

ui.how_computed(
    "`grow_tree` is the whole algorithm, the loop that grew this tree: take a node, measure "
    "it, stop or try every feature, cut it in two, go on with the children; `stop_reason` is "
    "its stopping rule. `score_splits` "
    "scores one feature's thresholds at one node, moving one sample at a time from the right "
    "side to the left; the impurity formulas are `node_gini` and `node_entropy` "
    "(`core/engine/criteria.py`). Both are plain Python, compiled by numba to run fast. The "
    "path above is read from the fitted tree's flat arrays."
    + (
        " `compute_param_map` scores the map one column at a time (`column_scores`): one "
        "full tree per min_samples_leaf (and fold), cut at each depth and then pruned, which "
        "is the very tree that depth grows."
        if lesson == "map"
        else " `path_contributions` builds the edited sample's prediction: the root's value, "
        "then the change at each node of its path, which add up to the leaf's value exactly."
        if lesson == "what-if"
        else ""
    ),
    [
        grow_tree,
        stop_reason,
        score_splits,
        path_in_words,
        *((compute_param_map, column_scores) if lesson == "map" else ()),
        *((path_contributions,) if lesson == "what-if" else ()),
    ],
)
