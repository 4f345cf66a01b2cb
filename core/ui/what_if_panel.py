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

from core.app.models import ModelView
from core.app.words import md, path_in_words
from core.figures import boundary_figure, regression_figure
from core.figures.contributions import (
    Contributions,
    forest_contributions,
    path_contributions,
    waterfall_figure,
)
from core.figures.overlays import mark_sample
from core.ui.cached import built_once
from core.ui.display import chart


def _edited_row(view: ModelView, sample: int) -> np.ndarray:
    """One input per feature, starting from test sample ``sample``; empty means missing."""
    original = view.X_test[sample]
    columns = st.columns(min(4, len(view.names)))
    values = []
    for i, name in enumerate(view.names):
        start = float(original[i])
        with columns[i % len(columns)]:
            value = st.number_input(
                name,
                value=None if math.isnan(start) else start,
                format="%.4g",
                # Keyed by the sample: another sample starts from its own values.
                key=f"what-if-{sample}-{i}",
                placeholder="missing",
            )
        values.append(np.nan if value is None else float(value))
    return np.asarray(values, dtype=float)


def what_if(model: Any, view: ModelView, sample: int, pair: tuple[int, int]) -> np.ndarray:
    """The view: the inputs, then the boundary (or fit) with the edited star, the path and its
    contributions. Returns the edited row.
    """
    st.caption(
        f"Test sample #{sample}'s values: change any of them (leave one empty for a missing "
        "value) and watch its path, its prediction and its star move."
    )
    row = _edited_row(view, sample)
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
    return row


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

    def build() -> tuple[Contributions, Any]:
        parts = forest_contributions(forest, row, list(view.names), class_name=name)
        return parts, waterfall_figure(parts)

    parts, figure = built_once([forest], ("vote-contributions", sample), build)
    chart(figure, key="vote-contributions")
    st.caption(
        f"The trees' root values, averaged ({parts.start:.3g}), then what each feature's "
        f"questions add, averaged over the trees: they sum to the forest's "
        f"{parts.what}, {parts.prediction:.3g}."
    )
