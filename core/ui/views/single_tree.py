"""Single tree's views: the tree, its boundary and a test sample's path; the parameter map
(``?view=map``) and "what if this sample changed?" (``?view=what-if``) above them.

The page's expanders (why this split, the leaves, the pruning walk, the depth overlay) are
sections of the tree view, declared in :mod:`core.ui.views.tree_parts`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import streamlit as st

from core import ui
from core.app.edits import NO_EDITS
from core.app.models import ModelView, plotted_pair, tree_spec
from core.app.settings import DatasetShape, Settings
from core.app.words import md, path_in_words
from core.engine.grow import grow_tree
from core.engine.scan import score_splits
from core.engine.stopping import stop_reason
from core.figures.contributions import path_contributions
from core.figures.param_map import column_scores, compute_param_map
from core.ui.views import View
from core.ui.views.tree_parts import DEPTH_OVERLAY, LEAVES, PRUNING, WHY_SPLIT, tree_with_why


@dataclass(frozen=True)
class Fitted:
    """What a lesson draws from, once the page's tree is fitted."""

    settings: Settings
    shape: DatasetShape
    view: ModelView
    model: Any
    sample: int


#: What a lesson's controls return: what draws the lesson once the tree is fitted.
Then = Callable[[Fitted], None]


@st.fragment
def tree_page(
    controls: ui.Controls, view: ModelView, shape: DatasetShape, lesson: View | None
) -> None:
    """Everything under the title: the scores, the boundary, the tree, the test sample's path,
    the lesson opened from the link and the expanders.

    The test sample, the lesson's own controls and the expanders rerun this part alone; the
    sidebar's controls rerun the page.
    """
    top = st.container()
    lesson_box = st.container()  # a lesson opened from the link (?view=map), above the figures
    # The what-if view draws the boundary (or fit) itself, with the edited sample's star: a
    # second one here showed the unedited sample's star beside it.
    fit_shown = lesson is not WHAT_IF
    # Boundary and tree side by side: each split is a step of the boundary, so both must be on a
    # 1280x720 screen at once. On a phone the columns stack. A fit over one feature is a wide,
    # low chart: it goes above the tree, which keeps the page's width for its leaves.
    plot_column, tree_column = (
        st.columns(2, gap="large")
        if view.classify and fit_shown
        else (st.container(), st.container())
    )
    st.subheader("Trace a test sample")
    pick_column, trace_column = st.columns([2, 3], gap="large")
    with pick_column:
        sample = controls.sample(view)
        test_on_tree = controls.show("test_on_tree")
    then: Then | None = None
    if lesson is not None:
        with lesson_box:
            then = lesson.show(controls, view, sample)
    if lesson is not WHAT_IF:
        controls.hold("edit", NO_EDITS)  # edits belong to the what-if view, and close with it
    settings = controls.finish()

    with top:
        model = fitted_tree(settings, shape, view)
    if model is None:
        return
    if then is not None:
        with lesson_box:
            then(Fitted(settings, shape, view, model, sample))
    with trace_column, ui.guard("the sample's path"), st.container(key="sample-path"):
        trace(model, view, sample)
    if fit_shown:
        with plot_column, ui.guard("the decision boundary"):
            fit_over_data(settings, shape, view, model, sample)
    tree_with_why(tree_column, settings, view, model, sample, test_on_tree)
    PRUNING.draw(settings, shape, view)


def fitted_tree(settings: Settings, shape: DatasetShape, view: ModelView) -> Any | None:
    """The notices, what to notice and the tree's scores; the tree, or None if it failed."""
    ui.show_notices(settings)
    TREE.what_to_notice(view.classify)
    with ui.guard("the tree") as growing:
        model = ui.fit_tree(tree_spec(settings, shape))
        depth = ("Depth", model.get_depth())
        ui.metrics([*ui.scores(model, view), depth, ("Leaves", model.get_n_leaves())])
    return None if growing.failed else model


def trace(model: Any, view: ModelView, sample: int) -> None:
    """The test sample's path through the tree in words, and the true answer."""
    steps, answer = path_in_words(
        model, view.X_test[sample], view.names, view.class_names, view.categories
    )
    truth = view.y_test[sample]
    shown = view.class_names[int(truth)] if view.classify else f"{float(truth):.4g}"
    if steps:
        st.markdown("\n".join(f"{i}. {step}" for i, step in enumerate(steps, 1)))
    st.markdown(f"{answer[:1].upper() + answer[1:]} The true answer is **{md(shown)}**.")


def fit_over_data(
    settings: Settings, shape: DatasetShape, view: ModelView, model: Any, sample: int
) -> None:
    """The tree's boundary (or its fit over one feature), and the depth overlay to regress."""
    st.subheader("Decision boundary" if view.classify else "The fit over the data")
    pair = plotted_pair(settings)
    ui.model_fit(
        view, {"this tree": model}, pair=pair, sample=sample, height=480 if view.classify else 300
    )
    st.caption(
        "Filled dots are training samples, rings are test samples, crosses are mistakes. "
        "Click a ring to trace that sample through the tree."
        if view.classify
        else "The tree predicts one number per leaf, so its fit is a staircase. Filled dots "
        "are training samples, rings are test samples: click a ring to trace it."
    )
    if not view.classify:
        DEPTH_OVERLAY.draw(settings, shape, view, pair)


def map_view(controls: ui.Controls, view: ModelView, sample: int) -> Then:
    """The parameter map: its cross-validation switch now, the map once the tree is fitted."""
    st.subheader("The parameter map: which settings score best?")
    cross_validate = controls.show("map_cv")

    def then(fitted: Fitted) -> None:
        with ui.guard("the parameter map"):  # computed only while the map is open
            spec = tree_spec(fitted.settings, fitted.shape)
            parameter_map = ui.param_map(spec, fitted.view, cross_validate)
            MAP.what_to_notice(more=ui.steadier(parameter_map, len(fitted.view.y_test)))

    return then


def what_if_view(controls: ui.Controls, view: ModelView, sample: int) -> Then:
    """What if the sample changed: its inputs now (their edits are a setting, in the link),
    the edited sample's boundary, path and contributions once the tree is fitted."""
    st.subheader("What if this sample changed?")
    WHAT_IF.what_to_notice()
    edited: np.ndarray = ui.edited_row(controls, view, sample)

    def then(fitted: Fitted) -> None:
        with ui.guard("the edited sample"):
            pair = plotted_pair(fitted.settings)
            ui.what_if(fitted.model, fitted.view, fitted.sample, pair, edited)

    return then


TREE = View(
    None,
    "Single tree",
    (
        "Each split is one yes/no question about one feature, so the boundary is made of "
        "straight, axis-parallel steps. Let the tree grow deeper: training accuracy climbs "
        "towards 100%, but test accuracy stops improving, and then falls: the tree is "
        "learning the noise of its training samples (overfitting). Pruning (ccp_alpha) and "
        "min_samples_leaf pull it back.",
        "A regression tree predicts one number per leaf, the mean of its training "
        "samples, so its fit is a staircase. Each extra level of depth can double the steps: "
        "at first they follow the wave, then they start chasing single noisy points, and the "
        "test R² stops improving. Pruning (ccp_alpha) and min_samples_leaf pull it back.",
    ),
    "`grow_tree` is the whole algorithm, the loop that grew this tree: take a node, measure "
    "it, stop or try every feature, cut it in two, go on with the children; `stop_reason` is "
    "its stopping rule. `score_splits` "
    "scores one feature's thresholds at one node, moving one sample at a time from the right "
    "side to the left; the impurity formulas are `node_gini` and `node_entropy` "
    "(`core/engine/criteria.py`). Both are plain Python, compiled by numba to run fast. The "
    "path above is read from the fitted tree's flat arrays.",
    (grow_tree, stop_reason, score_splits, path_in_words),
    tree_page,
    sections=(WHY_SPLIT, LEAVES, PRUNING, DEPTH_OVERLAY),
)
MAP = View(
    "map",
    "Parameter map",
    "Read down a column: deeper trees score better at first, then level off or fall as "
    "they learn the noise of their training rows. Read along a row: larger leaves pull a "
    "deep tree back, as a smaller depth does. The best cells are a region, not one point; "
    "among equals, prefer the simpler tree (shallower, larger leaves).",
    "`compute_param_map` scores the map one column at a time (`column_scores`): one "
    "full tree per min_samples_leaf (and fold), cut at each depth and then pruned, which "
    "is the very tree that depth grows.",
    (compute_param_map, column_scores),
    map_view,
    notice_key="param-map-notice",
)
WHAT_IF = View(
    "what-if",
    "What if this sample changed?",
    "Only the features the path asks about matter: change any other and "
    "nothing moves. Change one it asks about across its threshold and the sample "
    "takes another branch, and its star crosses into another region. The bars "
    "show how the answer is built: the training rows' answer at the root, then "
    "what each question adds.",
    "`path_contributions` builds the edited sample's prediction: the root's value, "
    "then the change at each node of its path, which add up to the leaf's value exactly.",
    (path_contributions,),
    what_if_view,
    notice_key="what-if-notice",
)

__all__ = ["MAP", "TREE", "WHAT_IF", "Fitted"]
