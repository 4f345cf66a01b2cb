"""What if this sample changed? (``Single_tree?view=what-if``), and a forest's vote taken apart.

The traced test sample's values become inputs; change any of them and its path, its
prediction, its contributions and its star on the boundary follow. The contributions come
from :mod:`core.figures.contributions`: the root's value, then the change each question on the
path makes, summing exactly to the prediction.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import streamlit as st

from core.app.edits import VALUE_LIMIT, apply_edits, edits_between
from core.app.models import ModelView
from core.app.settings import SAMPLE_SETTINGS, Settings, edits_to_keep
from core.app.words import md, path_in_words
from core.figures import boundary_figure, regression_figure
from core.figures.contributions import (
    Contributions,
    forest_contributions,
    path_contributions,
    waterfall_figure,
)
from core.figures.overlays import mark_sample
from core.figures.wire import wire_form
from core.ui.binding import Binding
from core.ui.built import built_once
from core.ui.display import chart
from core.ui.internals import unread_browser_states
from core.ui.visit import visit

#: The sample (by the settings that pick it) and the edits the inputs showed last run.
_SHOWN = "what-if-shown"


def edited_row(controls: Binding, view: ModelView, sample: int) -> np.ndarray:
    """One input per model column, starting from test sample ``sample``'s values with the
    setting ``edit`` applied; empty means missing. Holds the inputs' edits as the setting
    (so the link carries them) and returns the edited row.

    Call before ``controls.finish()``. The inputs hold the truth, except when the settings
    the previous run ended on (the full run's or the fragment's, see :func:`_ended_on`) bring
    other edits than the inputs showed (a link, the back button) or the traced sample changed
    (another sample, dataset, seed or test size: edits belong to their sample, and it starts
    again from its own values): then the inputs are set again.
    """
    session = st.session_state
    now = controls.settings
    start = edits_to_keep(_ended_on(controls), now)
    # The sample, and which of its features the inputs show: with the plotted pair the
    # inputs follow x and y, so an input keyed by its place may now show another feature.
    sample_is = (tuple(now.values()[name] for name in SAMPLE_SETTINGS), view.columns)
    original = view.X_test[sample]
    # Keyed by the sample: another sample starts from its own values.
    keys = [f"what-if-{sample}-{i}" for i in range(len(view.names))]
    unset = session.get(_SHOWN) != (sample_is, start) or any(key not in session for key in keys)
    if unset and not _browser_holds(keys):
        shown = apply_edits(original, view.columns, start)
        for key, value in zip(keys, shown, strict=True):
            session[key] = None if math.isnan(value) else float(value)

    st.caption(
        f"Test sample #{sample}'s values: change any of them (leave one empty for a missing "
        "value) and watch its path, its prediction and its star move. The link keeps them."
    )
    columns = st.columns(min(4, len(view.names)))
    values = []
    for i, (name, key) in enumerate(zip(view.names, keys, strict=True)):
        held = session.get(key)
        # Wide enough for any value a link may hold, and for the sample's own.
        low = min(-VALUE_LIMIT, held) if isinstance(held, float) else -VALUE_LIMIT
        high = max(VALUE_LIMIT, held) if isinstance(held, float) else VALUE_LIMIT
        with columns[i % len(columns)]:
            value = st.number_input(
                name, low, high, value=None, format="%.4g", key=key, placeholder="missing"
            )
        values.append(np.nan if value is None else float(value))
    edits = controls.hold("edit", edits_between(original, np.asarray(values), view.columns))
    session[_SHOWN] = (sample_is, edits)
    return apply_edits(original, view.columns, edits)


def _ended_on(controls: Binding) -> Settings:
    """The settings the previous run ended on, which the inputs show.

    A full run starts from them (``controls.last``). A rerun of the page's fragment finds the
    ``Controls`` of the last full run, whose ``last`` is older than the fragment's own last
    run: taking that run's edits as news from a link would put the inputs back to them after
    every edit the fragment's reruns made since.
    """
    ended = visit().last
    return controls.last if ended is None else ended


def _browser_holds(keys: list[str]) -> bool:
    """Whether a browser that reconnected to this fresh session sent these inputs' values:
    they are newer than the link's (see ``core.ui.url_state.arrive``)."""
    return _SHOWN not in st.session_state and bool(set(keys) & set(unread_browser_states()))


def what_if(
    model: Any, view: ModelView, sample: int, pair: tuple[int, int], row: np.ndarray
) -> None:
    """The view's pictures for the edited ``row`` (:func:`edited_row`'s): the boundary (or fit)
    with its star, its path in words and its contributions."""
    original = view.X_test[sample]
    changed = [
        view.names[i]
        for i in range(len(row))
        if not (row[i] == original[i] or (np.isnan(row[i]) and np.isnan(original[i])))
    ]
    picture, words = st.columns(2, gap="large")
    with picture:
        if view.classify:
            data = view.boundary(
                model,
                pair,
                through_row=np.nan_to_num(row, nan=0.0),
                through_name="the edited sample",
            )
            figure = boundary_figure(data, title="", height=460, legend_below=True)
            star = (row[pair[0]], row[pair[1]])
        else:
            figure = regression_figure(
                view.regression_lines({"the tree": model}), title="", height=360, legend_below=True
            )
            star = (row[0], float(model.predict(row.reshape(1, -1))[0]))
        if all(np.isfinite(star)):
            mark_sample(figure, star, "the edited sample")
        chart(figure, key="what-if-boundary")
        shown = view.X_train[:, list(pair)] if view.classify else view.X_train[:, :1]
        inside = [
            low <= value <= high
            for value, low, high in zip(star, shown.min(axis=0), shown.max(axis=0), strict=False)
        ]
        if not all(inside):
            st.caption(
                "The edited sample lies outside the plotted area: its star is off the chart."
            )
    with words:
        steps, answer = path_in_words(
            model, row, list(view.names), list(view.class_names), view.categories
        )
        changes = (
            f"Changed: {', '.join(md(c) for c in changed)}." if changed else "As in the test set."
        )
        st.markdown(changes + "\n\n" + "\n".join(f"1. {s}" for s in steps) + f"\n\n{answer}")
        parts = path_contributions(
            model, row, list(view.names), class_name=_predicted_name(model, row, view)
        )
        chart(waterfall_figure(parts), key="what-if-contributions")
        st.caption(contribution_words(parts))


def _predicted_name(model: Any, row: np.ndarray, view: ModelView) -> str:
    if not view.classify:
        return ""
    return str(view.class_names[int(model.predict(row.reshape(1, -1))[0])])


def contribution_words(parts: Contributions) -> str:
    """The waterfall in one sentence."""
    if not parts.steps:
        return f"At the root the {parts.what} is {parts.start:.3g}, and no question follows."
    biggest = max(parts.steps, key=lambda step: abs(step[1]))
    return (
        f"At the root the {parts.what} is {parts.start:.3g} (the training rows'). Each bar is "
        f"what one step adds; the largest, {md(biggest[0])}, adds {biggest[1]:+.3g}. Together "
        f"they come to the prediction, {parts.prediction:.3g}, exactly."
    )


def forest_vote_parts(forest: Any, view: ModelView, sample: int) -> None:
    """The forest's prediction for a test sample, by feature, averaged over its trees."""
    row = view.X_test[sample]
    name = ""
    if view.classify:
        proba = forest.predict_proba(row.reshape(1, -1))[0]
        name = str(view.class_names[int(forest.classes_[int(np.argmax(proba))])])

    def build() -> tuple[Contributions, dict[str, Any]]:
        parts = forest_contributions(forest, row, list(view.names), class_name=name)
        return parts, wire_form(waterfall_figure(parts))

    parts, form = built_once([forest], ("vote-contributions", sample), build)
    chart(form, key="vote-contributions")
    st.caption(
        f"The trees' root values, averaged ({parts.start:.3g}), then what each feature's "
        f"questions add, averaged over the trees: they sum to the forest's "
        f"{parts.what}, {parts.prediction:.3g}."
    )
