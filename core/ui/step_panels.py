"""The step page's panels: the step buttons, the tree after k splits over the data, the
newest split in words and the split history.

Everything is read from ONE fitted tree: the steps are :func:`core.engine.replay.growth_steps`
of it (cached by ``ui.growth``) and a step's tree is
:func:`~core.engine.replay.estimator_after`. Nothing is refitted.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from core.app.models import ModelView
from core.app.settings import from_widget, to_widget
from core.app.words import md
from core.engine.replay import GrowthPrefix, GrowthSteps, estimator_of, prefix_after
from core.figures import boundary_figure, regression_figure
from core.figures.growth import (
    add_split_segment,
    boundary_split_segment,
    history_rows,
    rule_text,
)
from core.figures.overlays import add_vertical_line
from core.figures.palette import FONT_COLOR
from core.figures.wire import wire_form
from core.ui.built import built_once
from core.ui.controls import Controls
from core.ui.display import chart, table
from core.ui.growth_panels import _NUMBER

# --- the step buttons ------------------------------------------------------------------------

_MOVES: tuple[tuple[str, str, str], ...] = (
    ("first", "First", ":material/first_page:"),
    ("back", "Back", ":material/chevron_left:"),
    ("next", "Next", ":material/chevron_right:"),
    ("end", "Grow to the end", ":material/last_page:"),
)


def _move_step(move: str, n_steps: int) -> None:
    """A step button's callback: move the step slider's value, always within 0..n_steps.

    It runs before the next run of the page and reads the slider's value as it is then, so a
    burst of clicks moves one step per click and never leaves the range.
    """
    held = from_widget("step", st.session_state.get("step"))
    valid = isinstance(held, int) and not isinstance(held, bool) and 0 <= held < n_steps
    k = held if valid else n_steps
    target = {"first": 0, "back": k - 1, "next": k + 1, "end": n_steps}[move]
    target = min(max(target, 0), n_steps)
    st.session_state["step"] = to_widget("step", None if target == n_steps else target)


def step_bar(controls: Controls, n_steps: int) -> int:
    """First, back, next and grow-to-the-end buttons over the step slider; returns the step.

    The step (0 to ``n_steps``) is a setting, so it lives in the URL: a link opens at it.
    """
    if n_steps == 0:
        st.info(
            "This tree makes no split: its root is already a leaf. Loosen the stopping rules "
            "(a deeper max_depth, a smaller min_samples_leaf) to let it grow.",
            icon=":material/info:",
        )
        return 0
    with st.container(key="step-bar"):
        buttons = st.container(horizontal=True)
        shown = controls.step(n_steps)
    k = n_steps if shown is None else shown
    with buttons:
        for move, label, icon in _MOVES:
            st.button(
                label,
                key=f"step-{move}",
                icon=icon,
                on_click=_move_step,
                args=(move, n_steps),
                disabled=(k == 0) if move in ("first", "back") else (k == n_steps),
                type="primary" if move == "next" else "secondary",
            )
    return k


# --- the tree after k splits ----------------------------------------------------------------


def after_step(model: Any, steps: GrowthSteps, k: int) -> tuple[GrowthPrefix, Any]:
    """The fitted ``model`` cut back to its first ``k`` splits: the prefix and its estimator.

    Remembered beside the model (:func:`~core.ui.built.built_once`): the same step on a
    rerun is the same estimator, so the scores and figures kept beside it are found again.
    """

    def cut() -> tuple[GrowthPrefix, Any]:
        prefix = prefix_after(model.tree_, k, steps)
        return prefix, estimator_of(model, prefix)

    return built_once([model], ("after step", k), cut)


#: The newest split's line on a regression's fit.
_NEWEST_LINE = {"color": FONT_COLOR, "width": 3, "dash": "dash"}


def step_fit(
    view: ModelView,
    grown: Any,
    prefix: GrowthPrefix,
    pair: tuple[int, int],
    *,
    key: str = "step-boundary",
    height: int = 520,
) -> str:
    """The tree after ``prefix.k`` splits over the data, its newest split drawn as a line.

    Classification: the decision regions in the plotted ``pair``; regression: the fit over the
    one feature. Returns a caption that names the newest split.
    """
    newest = prefix.newest
    threshold = None if newest is None else float(prefix.tree.threshold[newest])
    rule = ""
    if newest is not None and threshold is not None:
        rule = md(
            rule_text(view.names, int(prefix.tree.feature[newest]), threshold, view.categories)
        )
    if not view.classify:

        def fit() -> dict[str, Any]:
            lines = view.regression_lines({f"after {prefix.k} splits": grown})
            figure = regression_figure(lines, target_name=view.data.target_name, height=height)
            if threshold is not None:
                add_vertical_line(figure, threshold, _NEWEST_LINE)
            return wire_form(figure)

        # Built once per step, as the classification's: a class's followers each drew the
        # same fit, and the line made Plotly's objects of the whole figure every run.
        chart(built_once([grown], ("step fit", height, newest), fit), key=key)
        if threshold is None:
            return "No split yet: the root alone predicts the mean of every sample."
        return f"The dashed line is the newest split, **{rule}**."

    def draw() -> tuple[dict[str, Any], Any]:
        data = view.boundary(grown, pair)
        figure = boundary_figure(data, height=height, legend_below=True)
        if newest is None:
            return wire_form(figure), None
        segment = boundary_split_segment(data, prefix.tree, newest)
        if segment is not None:
            add_split_segment(figure, segment)
        return wire_form(figure), segment

    form, segment = built_once([grown], ("step fit", pair, height, newest), draw)
    chart(form, key=key)
    if newest is None:
        return "No split yet: the root alone predicts its majority class everywhere."
    if segment is None:
        return f"The newest split, **{rule}**, is on a feature that is not plotted."
    return f"The thick line is the newest split, **{rule}**, drawn across the box of its node."


def newest_split(steps: GrowthSteps, view: ModelView, k: int) -> str:
    """Step ``k``'s split in words (Markdown): where, what it asks, what it gains."""
    if k == 0:
        return "The root holds every training sample and predicts for all of them alike."
    i = k - 1
    rule = md(
        rule_text(view.names, int(steps.feature[i]), float(steps.threshold[i]), view.categories)
    )
    return (
        f"Node {int(steps.node[i])} held {int(steps.n_samples[i])} training samples with an "
        f"impurity of {steps.impurity[i]:.3f}. It now asks **{rule}**: its two children "
        f"weigh in at {steps.child_impurity[i]:.3f}, a gain of **{steps.gain[i]:.3f}**."
    )


def split_history(steps: GrowthSteps, view: ModelView, k: int) -> None:
    """The first ``k`` splits as a table, in the order they were made."""
    rows = history_rows(steps, view.names, upto=k, categories=view.categories)
    with st.container(key="split-history"):
        if not rows:
            st.caption("No split yet.")
            return
        table(
            rows,
            column_config={
                "impurity before": _NUMBER,
                "weighted impurity after": _NUMBER,
                "gain": _NUMBER,
                "weighted decrease": st.column_config.NumberColumn(
                    format="%.4f", help="samples / all samples × gain: the order's key"
                ),
            },
        )
