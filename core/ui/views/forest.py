"""Random forest's views: the forest, its curve, its importances and any one of its trees;
"why averaging works" (``?view=variance``) above them.

What the test sample and the tree number move is in :mod:`core.ui.views.forest_parts`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from core import ui
from core.app.cost import ForestCost
from core.app.models import ForestSpec, ModelView, affordable, forest_spec, tree_spec
from core.app.settings import DatasetShape, Settings
from core.app.words import averaging_sentence, score, score_name
from core.engine.bagging import bootstrap_weights, grow_trees
from core.engine.forest_base import BaseForest
from core.engine.grow import grow_tree
from core.engine.walk import forest_path_changes
from core.figures import forest_curve_figure
from core.figures.contributions import forest_contributions
from core.figures.variance import compute_spread, decomposition
from core.figures.wire import wire_form
from core.ui.built import built_once
from core.ui.views import View
from core.ui.views.forest_parts import GLANCE, forest_parts

#: What a lesson's controls return: what draws the lesson once the forest is grown.
Then = Callable[[Settings, DatasetShape, ModelView], None]


def forest_page(
    controls: ui.Controls, view: ModelView, shape: DatasetShape, lesson: View | None
) -> None:
    """Everything under the title, the scores first: a browser draws what it receives in
    order, and they do not wait on the sample or the tree."""
    # A forest too big for a shared server grows only its first trees (cost.notice() says so).
    spec, cost = affordable(forest_spec(controls.settings, shape), view)
    n_trees = spec.n_estimators
    top, lesson_area, curve_area, boundary_area = (st.container() for _ in range(4))
    then: Then | None = None
    if lesson is not None:
        with lesson_area:
            then = lesson.show(controls)
    curve_column, importance_column = curve_area.columns([3, 2], gap="large")
    with curve_column:
        st.subheader(f"Test {score_name(view.data.task)} as trees are added")
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

    with top:
        scores(settings, view, forest, cost, lone_score)
    with boundary_area:
        forest_parts(controls, view, forest, lone, n_trees, lone_score)
    settings = controls.settings
    with notices:
        ui.show_notices(settings)
    if then is not None:
        with lesson_area, ui.guard("the resampled trees"):
            then(settings, shape, view)
    with curve_column, ui.guard("the curve"):
        curve(spec, cost, forest, log_trees, settings.bootstrap)
    with importance_column, ui.guard("the feature importances"):
        st.subheader("Feature importances")
        ui.importances(forest, view, key="importances")


def scores(
    settings: Settings, view: ModelView, forest: Any, cost: ForestCost, lone_score: float
) -> None:
    """A cut-down forest's warning, what to notice, and the forest's and the lone tree's
    scores."""
    name = score_name(view.data.task)
    if cost.too_big:
        st.warning(cost.notice(), icon=":material/speed:")
    FOREST.what_to_notice(view.classify)
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


def curve(spec: ForestSpec, cost: ForestCost, forest: Any, log_x: bool, bootstrap: bool) -> None:
    """Test (and out-of-bag) score against the number of trees, with this forest's marked.

    The figure is kept beside ``forest`` (``built_once``): each follower of a class, and each
    move of the sample or the tree, finds it made, as neither the curve nor the mark moved.
    """
    n_trees = spec.n_estimators

    def build() -> dict[str, Any]:
        scoring = f"Scoring forests of 1 to {ui.curve_trees(n_trees)} trees…"
        with st.spinner(scoring, show_time=True):
            forest_curve = ui.forest_curve(spec, cost)
        figure = forest_curve_figure(
            forest_curve, current=n_trees, title="", height=400, log_x=log_x
        )
        return wire_form(figure)

    ui.chart(built_once([forest], ("forest curve", log_x), build), key="forest-curve")
    if not bootstrap:
        st.caption("No out-of-bag curve: without bootstrap every tree sees every row.")


def variance_lesson(controls: ui.Controls) -> Then:
    """Why averaging works: how many resampled trees and whether to draw their average now,
    the trees over each other once the page's forest is grown."""
    st.subheader("Why averaging works: trees on resampled data, over each other")
    many, averaged = st.columns([3, 2], vertical_alignment="bottom")
    with many:
        controls.show("resamples")
    with averaged:
        controls.show("average")

    def then(settings: Settings, shape: DatasetShape, view: ModelView) -> None:
        notice = st.container()  # above the view, with words on the numbers it shows
        spread = ui.variance_view(settings, shape)
        with notice:
            VARIANCE.what_to_notice(view.classify, more=averaging_sentence(spread))

    return then


FOREST = View(
    None,
    "Random forest",
    (
        "Test accuracy climbs quickly over the first trees, then flattens: adding trees "
        "does not overfit, it only steadies the vote. The forest's boundary is smoother than "
        "one tree's because it averages many different trees. The out-of-bag curve follows "
        "the test curve without ever looking at the test set.",
        "Test R² climbs quickly over the first trees, then flattens: adding trees does "
        "not overfit, it only steadies the average. The forest's fit over the data is a finer, "
        "smoother staircase than one tree's because it averages many different trees. The "
        "out-of-bag curve follows the test curve without ever looking at the test set.",
    ),
    "Each tree is grown on its own bootstrap sample (`bootstrap_weights`, then `grow_trees`) "
    "with its own random feature draws; the "
    "forest averages the trees' class shares (or numbers). The curve comes from one pass "
    "over the trees: the forest of k trees is the running mean of the first k. Every tree "
    "grows by the same loop as a single tree, `grow_tree`, trying `max_features` features "
    "drawn at random at each node. `forest_contributions` takes the voted sample's answer "
    "apart: `forest_path_changes` walks the sample down every tree, crediting each "
    "question's change in value to the feature it asks about, and the sums are averaged "
    "over the trees.",
    (
        BaseForest.fit,
        bootstrap_weights,
        grow_trees,
        grow_tree,
        BaseForest.staged_scores,
        BaseForest.predict_per_tree,
        forest_contributions,
        forest_path_changes,
    ),
    forest_page,
    sections=(GLANCE,),
)
VARIANCE = View(
    "variance",
    "Why averaging works",
    (
        "Deep trees grown on resamples of the same rows differ wildly: their boundaries "
        "cross everywhere the classes meet (variance). Their average is steady and, on most "
        "data, scores better than a typical one of them. Fewer features per split "
        "(max_features) makes the trees less alike, and their average better; a shallow "
        "max_depth makes them alike and all a little wrong (bias).",
        "Deep trees grown on resamples of the same rows differ wildly: each staircase "
        "chases its own noise (variance). Their average is steady: its error is the trees' "
        "error minus their variance. Shallow trees agree more but all miss the curve "
        "(bias).",
    ),
    "`compute_spread` and `decomposition` turn the resampled trees' predictions into "
    "the view above: their disagreement, the error of their average, and its parts.",
    (compute_spread, decomposition),
    variance_lesson,
    notice_key="variance-notice",
)

__all__ = ["FOREST", "VARIANCE"]
