"""What the Random forest page's test sample and tree number move: the boundaries, the vote,
the forest at a glance and any one tree. Each reruns alone (``st.fragment``) when they move.

The forest at a glance is a :class:`~core.ui.views.Section` of the forest view, declared here.
"""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from core import ui
from core.app.models import ModelView, plotted_pair
from core.app.words import score
from core.figures.glance import glance_figure
from core.ui.variance_panel import GLANCE_OPENED, forest_glance
from core.ui.views import Section


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
    glance = GLANCE.box(trees=min(ui.GLANCE_TREES, n_trees)) if view.classify else None
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

    if glance is not None:
        GLANCE.fill(glance, forest, view, plotted_pair(settings), settings.tree)


def at_a_glance(forest: Any, view: ModelView, pair: tuple[int, int], opened: int) -> None:
    """Inside "the forest at a glance": the first trees' maps side by side, a click on one
    opening that tree below (its map framed)."""
    with ui.guard("the trees at a glance"):
        st.caption(
            "Each map colours the plane by the class one tree predicts. Grown on resamples, "
            "with a few features per split, the trees agree in the middle of each class and "
            "differ at the edges; the forest averages those differences away. Click a map "
            "to open that tree below; the framed map is the tree open there."
        )
        ui.forest_glance(forest, view, pair, opened)


def _bring_into_view(key: str) -> None:
    """Scroll the keyed container to the top of the screen, once, on the run that asked.

    Streamlit has no call to scroll: a click on a map at a glance opened its tree below the
    fold, and nothing on screen moved. Each call's script differs (a count), so a second
    click runs it again rather than finding the first one's element unchanged.
    """
    count = st.session_state.get("scrolls", 0) + 1
    st.session_state["scrolls"] = count
    target = json.dumps(f".st-key-{key}")
    script = (
        f"<script>/* {count} */ setTimeout(() => document.querySelector({target})"
        "?.scrollIntoView({block: 'start', behavior: 'smooth'}), 300);</script>"
    )
    st.html(script, unsafe_allow_javascript=True)


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
    with st.container(key="open-tree"):
        st.subheader("Open any tree of the forest")
    tree_pick, tree_note = st.columns([2, 3], gap="large", vertical_alignment="bottom")
    with tree_pick:
        tree_index = controls.tree(n_trees)
    # The tree beside its own fit over the data, so each split shows as a step of it on a
    # 1280x720 screen. On a phone the columns stack; a fit over one feature, a wide low
    # chart, goes above the tree.
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
    if st.session_state.pop(GLANCE_OPENED, False):  # opened by a click on its map above
        _bring_into_view("open-tree")


GLANCE = Section(
    "The forest at a glance",
    "glance",
    ":material/grid_view:",
    "`forest_glance` lays a grid over the plotted plane (the other features at their "
    "medians) and asks each of the first trees for its class in every cell; `glance_figure` "
    "draws the maps side by side.",
    (forest_glance, glance_figure),
    at_a_glance,
    label="{title}: {trees} of its trees side by side",
)

__all__ = ["GLANCE", "forest_parts", "one_tree"]
