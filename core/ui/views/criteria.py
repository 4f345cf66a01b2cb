"""Gini vs entropy's views: two trees that differ only in their criterion, side by side;
"does the criterion matter?" (``?view=criterion-matters``) and the two parameter maps
(``?view=map``) above them.

The parts under the lesson (the agreement, the two trees, the curves) are in
:mod:`core.ui.views.criteria_parts`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from core import ui
from core.app.models import ModelView, plotted_pair, tree_spec
from core.app.settings import CRITERIA, DatasetShape, Settings
from core.app.words import differing_nodes
from core.engine import criteria, scan
from core.engine.grow import grow_tree
from core.figures.criterion import first_parting, seed_study
from core.ui.views import View
from core.ui.views.criteria_parts import agreement, curves, two_trees


@dataclass(frozen=True)
class Grown:
    """What a lesson draws from, once the page's two trees are grown."""

    settings: Settings
    shape: DatasetShape
    view: ModelView
    trees: dict[str, Any]


#: What a lesson's controls return: what draws the lesson once the trees are grown.
Then = Callable[[Grown], None]


def criteria_page(controls: ui.Controls, shape: DatasetShape, lesson: View | None) -> None:
    """Everything under the title: the lesson's controls first, then the two trees, how far
    they agree, each beside its boundary, and the curves."""
    top, lesson_area = st.container(), st.container()
    then: Then | None = None
    if lesson is not None:
        with lesson_area:
            then = lesson.show(controls)
    settings = controls.finish()
    view = ui.view(settings)
    with top:
        ui.show_notices(settings)
        CRITERIA_VIEW.what_to_notice()

    with ui.guard("the two trees") as growing:
        trees = {c: ui.fit_tree(tree_spec(settings, shape, criterion=c)) for c in CRITERIA}
        # One grid for both, cut at the split points of either tree: every cell is then a
        # constant region of both trees, and they can be compared cell by cell.
        boundaries = ui.boundaries_on_one_grid(view, trees, plotted_pair(settings))
    if growing.failed:
        st.stop()
    if then is not None:
        then(Grown(settings, shape, view, trees))
    differing = agreement(view, trees, boundaries)
    two_trees(settings, view, trees, boundaries, differing)
    curves(settings, view, trees["gini"], tree_spec(settings, shape))


def criterion_lesson(controls: ui.Controls) -> Then:
    """Does the criterion matter: a split counted by hand, its four counts now; where the
    trees part and how often over many splits once they are grown."""
    st.subheader("Does the criterion matter?")
    lesson_top = st.container()
    st.markdown("#### One split, counted by hand")
    st.caption("Two classes, A and B: how many rows of each the split sends to each side.")
    sliders = st.columns(4)
    for column, name in zip(sliders, ("left_a", "left_b", "right_a", "right_b"), strict=True):
        with column:
            controls.show(name)
    lab = st.container()

    def then(grown: Grown) -> None:
        with lesson_top, ui.guard("whether the criterion matters"):
            MATTERS.what_to_notice()
            spec = tree_spec(grown.settings, grown.shape)
            ui.criterion_view(grown.settings, grown.view, grown.trees, spec, lab)

    return then


def maps_lesson(controls: ui.Controls) -> Then:
    """The two parameter maps: the cross-validation switch now, the maps once the trees are
    grown (computed only while the maps are open)."""
    st.subheader("The parameter maps: does the criterion change which settings score best?")
    cross_validate = controls.show("map_cv")
    maps_area = st.container()

    def then(grown: Grown) -> None:
        with maps_area, ui.guard("the parameter maps"):
            specs = {c: tree_spec(grown.settings, grown.shape, criterion=c) for c in CRITERIA}
            ui.criterion_maps(specs, grown.view, cross_validate)

    return then


CRITERIA_VIEW = View(
    None,
    "Gini vs entropy",
    "Gini impurity and entropy rise and fall together, so the two trees often ask the same "
    "questions. When they part ways (outlined nodes), everything below differs too, yet they "
    "still agree on most samples and their test accuracies stay close. Depth matters far more "
    "than the criterion: compare the two colours in the depth chart.",
    "Both trees grow by the same loop and score splits with the same `score_splits`; only "
    "the impurity function differs. "
    "Gini: 1 − Σ pₖ². Entropy: −Σ pₖ log₂ pₖ. A split is chosen to lower the samples-weighted "
    "impurity of the two children the most.",
    (criteria.node_gini, criteria.node_entropy, scan.score_splits, grow_tree, differing_nodes),
    criteria_page,
)
MATTERS = View(
    "criterion-matters",
    "Does the criterion matter?",
    "Where the two trees part, each question removes nearly as much of the other "
    "criterion's measure as its own pick: the criterion only tips a close call. Over "
    "many splits the trees may part often, yet they classify few test rows differently "
    "and their test accuracies stay within a few points of each other, either way.",
    "`first_parting` walks both trees level by level to the first node where they ask "
    "different questions; `seed_study` grows both on 50 train/test splits.",
    (first_parting, seed_study),
    criterion_lesson,
    notice_key="criterion-notice",
)
MAPS = View(
    "map",
    "Parameter map",
    None,  # the maps say it themselves, under each
    "",
    (),
    maps_lesson,
)

__all__ = ["CRITERIA_VIEW", "MAPS", "MATTERS", "Grown"]
