"""Why averaging works (``Random_forest?view=variance``): K resampled trees over each other;
and the forest at a glance, twelve of its trees side by side.

The trees are a forest of ``resamples`` trees with the page's settings, grown on the plotted
features only (two to classify, the first to regress), so each one's boundary or staircase is
exactly what it predicts. :mod:`core.figures.variance` computes and draws; this module fits,
asks the trees for their predictions on a grid and the test rows, and lays the view out.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import streamlit as st

from core.app.models import ModelView, affordable, forest_spec
from core.app.settings import DatasetShape, Settings
from core.app.words import averaging_numbers
from core.data.datasets import sine_curve
from core.figures.glance import glance_figure, mark_opened
from core.figures.node_label import format_alike
from core.figures.variance import Decomposition, Spread, compute_spread
from core.figures.variance_plot import averaging_figure, decomposition_figure, spread_figure
from core.figures.wire import wire_form
from core.ui.built import built_once
from core.ui.cached import fit_forest, view_of
from core.ui.display import chart, plotly_chart

#: Grid points per axis of the plane (classification) and along x (regression).
GRID = 100
CURVE_POINTS = 400


def _shares(forest: Any, X: np.ndarray, n_classes: int) -> np.ndarray:
    """Each tree's class shares for each row, (K, n, n_classes), in the dataset's classes.

    A resample may lack a class; the forest then knows fewer classes than the data has.
    """
    values = forest.predict_per_tree(X)
    full = np.zeros((values.shape[0], values.shape[1], n_classes))
    full[:, :, np.asarray(forest.classes_, dtype=int)] = values
    return full


def spread_of(forest: Any, view: ModelView, dataset: str) -> Spread:
    """What the forest's trees say over the plotted plane (or line) and on the test rows."""
    X = np.vstack([view.X_train, view.X_test])
    low, high = X.min(axis=0), X.max(axis=0)
    margin = 0.05 * np.where(high > low, high - low, 1.0)
    low, high = low - margin, high + margin
    if not view.classify:
        xs = np.linspace(low[0], high[0], CURVE_POINTS)
        truth = sine_curve(view.X_test[:, 0]) if dataset == "sine" else None
        return compute_spread(
            "regression",
            grid_values=forest.predict_per_tree(xs.reshape(-1, 1)),
            test_values=forest.predict_per_tree(view.X_test),
            X_test=view.X_test,
            y_test=view.y_test,
            xs=xs,
            feature_names=view.names,
            truth=truth,
        )
    xs, ys = np.linspace(low[0], high[0], GRID), np.linspace(low[1], high[1], GRID)
    plane = np.column_stack([np.tile(xs, GRID), np.repeat(ys, GRID)])  # y outer, x inner
    n_classes = len(view.class_names)
    return compute_spread(
        "classification",
        grid_values=_shares(forest, plane, n_classes),
        test_values=_shares(forest, view.X_test, n_classes),
        X_test=view.X_test,
        y_test=view.y_test,
        xs=xs,
        ys=ys,
        feature_names=view.names,
        class_names=view.class_names,
    )


def variance_view(settings: Settings, shape: DatasetShape) -> Spread:
    """The view: the trees over each other, the numbers, and error against trees averaged.

    Returns what the trees say, for words above the view to state what its numbers show.
    """
    columns = (settings.x, settings.y) if shape.task == "classification" else (0,)
    view = view_of(settings, columns)
    forest, spread = resampled_trees(settings, shape, view, columns)
    picture, numbers = st.columns([3, 2], gap="large")
    with picture:
        figure = built_once(
            [forest],
            ("spread-figure", settings.average),
            lambda: spread_figure(spread, average=settings.average),
        )
        chart(figure, key="variance-trees")
    with numbers:
        if spread.parts is not None:
            error_parts(spread, spread.parts)
        else:
            agreement(spread)
        chart(averaging_figure(spread), key="variance-curve")
    st.caption(
        f"{spread.n_trees} trees with this page's settings (max_depth, max_features, criterion), "
        f"each grown on its own bootstrap resample of the training rows, on the plotted "
        f"{'features' if view.classify else 'feature'} only: "
        f"{', '.join(view.names)}."
    )
    return spread


def resampled_trees(
    settings: Settings, shape: DatasetShape, view: ModelView, columns: tuple[int, ...]
) -> tuple[Any, Spread]:
    """The forest of ``resamples`` trees on the plotted ``columns``, and what they say."""
    wanted = forest_spec(
        settings, shape, columns=columns, n_estimators=settings.resamples, bootstrap=True
    )
    spec, cost = affordable(wanted, view)
    points = f"{GRID * GRID:,} points of the plane" if view.classify else f"{CURVE_POINTS} xs"
    # Shown only when it takes longer than half a second: a first open, for the whole server.
    with st.spinner(
        f"Growing {spec.n_estimators} trees on resamples of the training rows and asking each "
        f"one about {points} and the {len(view.y_test)} test rows…",
        show_time=True,
    ):
        forest = fit_forest(spec, cost, show_progress=False)
        spread = built_once(
            [forest],
            ("spread", settings.dataset),
            lambda: spread_of(forest, view, settings.dataset),
        )
    return forest, spread


def error_parts(spread: Spread, parts: Decomposition) -> None:
    """To regress: one tree's error and their average's, and the parts the gap is made of."""
    one, average = averaging_numbers(spread)
    st.metric(f"One tree's test MSE (mean of the {spread.n_trees} trees)", one)
    st.metric("Their average's test MSE", average)
    chart(decomposition_figure(parts), key="variance-parts")
    if parts.bias2 is not None:
        # Four digits: the three parts' sum and one tree's error differ by the small rest.
        total, trees, rest = format_alike(
            [
                parts.bias2 + parts.variance + (parts.noise or 0.0),
                parts.trees_error,
                parts.rest or 0.0,
            ],
            significant=4,
        )
        st.caption(
            f"On these {len(spread.test_y)} test rows bias², variance and noise add up "
            f"to {total}; one tree's error is {trees}. The difference, {rest}, is "
            "chance: the noise and the average's miss happen to line up a little on "
            "these rows; over many test sets it averages to zero."
        )
    else:
        st.caption(
            "One tree's error = the average's error + the variance, exactly, on these "
            "rows. The average's error holds the bias² and the noise together: without "
            "the noise-free curve they cannot be told apart."
        )


def agreement(spread: Spread) -> None:
    """To classify: one tree's accuracy and their average's, and how often two trees agree."""
    agree = "–" if spread.agreement is None else f"{spread.agreement:.1%}"
    one, average = averaging_numbers(spread)
    st.metric(f"One tree's test accuracy (mean of the {spread.n_trees} trees)", one)
    st.metric("Their average's test accuracy", average)
    st.metric(
        "Two trees agree on a test row",
        agree,
        help=f"Over every pair of the {spread.n_trees} trees and every test row: the share "
        "where both trees give the same class.",
    )
    st.caption(
        "Grey shading: how many trees disagree there (white: all agree). Each thin line "
        "is one tree's boundary; the thick one is their average's."
    )


# --- the forest at a glance ------------------------------------------------------------------

#: Trees shown at a glance, and the grid each is drawn on.
GLANCE_TREES = 12
GLANCE_GRID = 60
#: Set by a click on a map, taken by the run it starts: bring the opened tree into view.
GLANCE_OPENED = "glance-opened"


def _open_clicked_tree(key: str) -> None:
    """A panel was clicked: its tree becomes the one opened below (the ``tree`` setting)."""
    points = st.session_state[key].selection.points
    if points and points[0].get("customdata") is not None:
        number = points[0]["customdata"]
        st.session_state["tree"] = int(number[0] if isinstance(number, list) else number)
        st.session_state[GLANCE_OPENED] = True  # the run shows the opened tree: scroll to it


def forest_glance(
    forest: Any, view: ModelView, pair: tuple[int, int], opened: int | None = None
) -> None:
    """Twelve of the forest's trees as small maps of the plotted plane; a click opens one.

    The map of tree ``opened``, the one open below, is framed. On more than the two plotted
    features, each map is the slice through the training rows' medians: a tree's own map,
    which a click opens, not a stand-in grown again.
    """
    X = view.X_train
    low, high = X[:, list(pair)].min(axis=0), X[:, list(pair)].max(axis=0)
    xs = np.linspace(low[0], high[0], GLANCE_GRID)
    ys = np.linspace(low[1], high[1], GLANCE_GRID)
    plane = np.tile(np.nanmedian(X, axis=0), (GLANCE_GRID * GLANCE_GRID, 1))
    plane[:, pair[0]] = np.tile(xs, GLANCE_GRID)
    plane[:, pair[1]] = np.repeat(ys, GLANCE_GRID)
    numbers = list(range(min(GLANCE_TREES, len(forest.estimators_))))
    classes = np.asarray(forest.classes_, dtype=int)

    def draw() -> Any:
        maps = np.stack(
            [
                classes[forest.estimators_[k].predict_proba(plane).argmax(axis=1)].reshape(
                    GLANCE_GRID, GLANCE_GRID
                )
                for k in numbers
            ]
        )
        return glance_figure(maps, xs, ys, numbers, len(view.class_names))

    form = built_once([forest], ("glance form", pair), lambda: wire_form(draw()))
    if opened is not None and opened < len(numbers):
        form = mark_opened(form, opened)
    with st.container(key="forest-glance"):
        plotly_chart(
            form,
            key="forest-glance-plot",
            on_select=lambda: _open_clicked_tree("forest-glance-plot"),
            selection_mode="points",
        )
