"""Grow it step by step's view: the Single tree's tree after k of its splits, and why each."""

from __future__ import annotations

from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from core import ui
from core.app.models import ModelView, plotted_pair
from core.app.settings import Settings
from core.app.words import why_leaf_sentence
from core.engine.grow import grow_tree
from core.engine.node_splits import split_candidates, why_leaf
from core.engine.replay import GrowthPrefix, GrowthSteps, growth_steps, prefix_after
from core.engine.stopping import stop_reason
from core.ui.views import View


@st.fragment
def step_by_step(controls: ui.Controls, view: ModelView, model: Any, steps: GrowthSteps) -> None:
    """Everything a step or a node moves: the step bar, the tree after k splits and why.

    Moving the step bar or picking a node reruns this part alone; the sidebar and the fitted
    tree stay as they are.
    """
    top, stepper = st.container(), st.container()
    with stepper:
        k = ui.step_bar(controls, len(steps))
        scores = st.container()
    # Boundary and tree side by side, so a step shows on both at once on a 1280x720 screen;
    # the newest split in words and the history follow. On a phone the columns stack; a fit
    # over one feature, a wide low chart, goes above the tree.
    plot_column, diagram_box = (
        st.columns(2, gap="large") if view.classify else (st.container(), st.container())
    )
    # The newest split in words, then the history at the page's full width: beside the words,
    # its eight columns needed 730 px of a 460 px column at 1280x720 and the gains scrolled
    # out of sight.
    table_column, history_box = st.container(), st.container()
    st.subheader("Why this split? (any node)")
    node = controls.node(ui.describe_node(model, view), int(model.tree_.node_count))
    settings = controls.finish()

    with top:
        ui.show_notices(settings)
        # A class's "where will the tree split next?": its answer stays hidden until revealed.
        hidden = ui.split_poll(model, view, steps, k)
        STEPS.what_to_notice()
    with ui.guard("the tree after this step") as stepping:
        prefix, grown = ui.after_step(model, steps, k)  # the fitted tree cut back to k splits
        with scores:
            leaves = ("Leaves", k + 1)
            ui.metrics([*ui.scores(grown, view), ("Splits made", f"{k} of {len(steps)}"), leaves])
    if stepping.failed:
        return
    newest = ""  # the figure's caption; none when the figure itself could not be shown
    with plot_column, ui.guard("the decision boundary"):
        st.subheader("Decision boundary" if view.classify else "The fit over the data")
        pair, height = plotted_pair(settings), 480 if view.classify else 300
        newest = ui.step_fit(view, grown, prefix, pair, height=height)
    newest_split(table_column, history_box, view, steps, k, newest)
    with diagram_box, ui.guard("the tree diagram"):
        diagram(settings, view, grown, prefix, k, len(steps), node)
    why_this_node(model, view, node, hidden)


def newest_split(
    table_column: DeltaGenerator,
    history_box: DeltaGenerator,
    view: ModelView,
    steps: GrowthSteps,
    k: int,
    newest: str,
) -> None:
    """Split k in words and what it changed, then the splits so far."""
    with table_column:
        st.subheader(f"Split {k}" if k else "The root alone")
        st.markdown(ui.newest_split(steps, view, k))
        st.markdown(newest)
        st.caption(
            "Gain: the node's impurity minus its children's, weighted by their sizes. The order "
            "follows the weighted decrease, the gain times the node's share of all samples: a "
            "big gain on a few samples can wait behind a smaller gain on many."
        )
    with history_box, ui.guard("the split history"):
        st.subheader("Splits so far")
        ui.split_history(steps, view, k)


def diagram(
    settings: Settings,
    view: ModelView,
    grown: Any,
    prefix: GrowthPrefix,
    k: int,
    n_steps: int,
    node: int,
) -> None:
    """The tree after k splits, numbered as the finished tree, the asked-about node outlined."""
    grown_id = int(prefix.prefix_id[node])  # -1: the node is not grown yet at this step
    st.subheader(f"The tree after {k} of {n_steps} splits")
    ui.diagram(
        grown,
        view,
        key="tree-diagram",
        name=f"arboretum-step-{k}-{settings.dataset}",
        highlight=() if prefix.newest is None else (prefix.newest,),
        node_numbers=prefix.final_id.tolist(),
        selected=grown_id if grown_id >= 0 else None,
        # The step's newest split stays in sight, however deep (the selected node always does).
        unfold=() if prefix.newest is None else (prefix.newest,),
    )
    st.caption(
        "The box with a thick dashed border is the newest split; a grey stacked box, where "
        "there is one, holds levels folded to keep the text readable. Nodes keep the numbers "
        "of the finished tree; "
        f"node {node}, asked about below, has a double blue border"
        + ("." if grown_id >= 0 else f", once it grows: at step {k} it is not there yet.")
    )


def why_this_node(model: Any, view: ModelView, node: int, hidden: bool) -> None:
    """Why the finished tree splits ``node`` (or stops there), and a student's own split
    against it; hidden while a class answers where the tree splits next."""
    if hidden:
        st.info(
            "Hidden while the class answers the teacher's question: it would give the answer away.",
            icon=":material/visibility_off:",
        )
        return
    with ui.guard("why this split"):
        ui.why_this_split(model, view, node)
    st.subheader("Your split against the tree's")
    with ui.guard("your split"):
        ui.your_split(model, view, node)


STEPS = View(
    None,
    "Grow it step by step",
    "The tree is grown one split at a time, always splitting the leaf whose split "
    "lowers the impurity of the whole tree the most: its gain, weighted by the share of "
    "the samples the leaf holds. Each split is the one the finished tree makes at that "
    "node, so after the last split this is exactly the Single tree page's tree with the "
    "same settings. The first splits sort out large groups and lift the accuracy most; "
    "the last ones tidy up a few samples.",
    "The tree is fitted once. `growth_steps` orders its splits best first; `prefix_after` "
    "keeps the first k of them and turns every other node into a leaf holding its own "
    "samples, so no tree is refitted per step. `split_candidates` and `why_leaf` answer "
    "for one node from its training rows, in numbers; `why_leaf_sentence` puts a leaf's "
    "answer into words. `grow_tree` is the loop that grew it; `why_leaf` asks the loop's own "
    "stopping rule, `stop_reason`, in the same order.",
    (
        growth_steps,
        prefix_after,
        split_candidates,
        why_leaf,
        why_leaf_sentence,
        grow_tree,
        stop_reason,
    ),
    step_by_step,
)

__all__ = ["STEPS"]
