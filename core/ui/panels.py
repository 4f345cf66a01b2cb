"""The panels that recur across pages, one call each: score metrics, a model's fit over the
data with clickable test points, a forest's vote, the pruning walk. A tree's diagram is in
:mod:`core.ui.diagram_panel`.

Each panel computes with the pure builders of :mod:`core.figures` (through the page's
:class:`~core.app.models.ModelView`) and shows the result with :mod:`core.ui.display`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import streamlit as st

from core.app import settings as state
from core.app.models import ModelView, TreeSpec
from core.app.words import md, score, score_name
from core.figures import (
    BoundaryData,
    boundary_figure,
    compute_importances,
    importance_figure,
    regression_figure,
)
from core.figures.overlays import sample_star
from core.figures.pruning_walk import pruning_walk_figure
from core.figures.rules import category_of
from core.figures.votes import Votes, compute_votes, vote_figure
from core.figures.wire import wire_form, with_traces
from core.ui.built import built_once
from core.ui.cached_curves import pruning_walk as cached_pruning_walk
from core.ui.display import chart, clickable_chart


def metrics(values: Sequence[tuple[str, Any]], *, help: Mapping[str, str] | None = None) -> None:
    """One row of ``st.metric``: (label, value) pairs, floats shown to three decimals."""
    for column, (label, value) in zip(st.columns(len(values)), values, strict=True):
        shown = f"{value:.3f}" if isinstance(value, float) else value
        column.metric(label, shown, help=(help or {}).get(label))


def scores(model: Any, view: ModelView, prefix: str = "") -> list[tuple[str, float]]:
    """Train and test score of ``model`` as metric pairs: ``("Train accuracy", 0.97)``..."""
    name = score_name(view.data.task)
    # A model is scored on the rows it was grown from, so the pair is remembered beside it
    # (the sizes only guard that): a forest's two scores walk every tree, every rerun.
    train, test = built_once(
        [model],
        ("scores", len(view.y_train), len(view.y_test)),
        lambda: (score(model, view.X_train, view.y_train), score(model, view.X_test, view.y_test)),
    )
    return [(f"{prefix}Train {name}", train), (f"{prefix}Test {name}", test)]


def importances(forest: Any, view: ModelView, *, key: str, top: int = 10) -> None:
    """The ``top`` feature importances of a fitted forest (or tree), largest first."""
    form = built_once(
        [forest],
        ("importances", view.names, top),
        lambda: wire_form(
            importance_figure(
                compute_importances(forest, feature_names=view.names, top=top), title=""
            )
        ),
    )
    chart(form, key=key)


def boundary(
    data: BoundaryData,
    view: ModelView,
    *,
    key: str,
    sample: int | None = None,
    title: str = "",
    height: int = 540,
    model: Any = None,
) -> None:
    """Decision regions with the points; with ``sample``, its star, and clicks pick samples.

    With ``model``, the one ``data`` was computed from, the figure is remembered beside it
    (:func:`~core.ui.built.built_once`): a rerun that keeps the model draws nothing again.
    """
    if model is None:
        form = _boundary_form(data, view, title, height)
    else:
        # The star is added as it is shown, so a figure that is no slice through the sample
        # serves every sample; a slice is another figure for each.
        through = sample if data.grid.is_slice else None
        form = built_once(
            [model],
            ("regions drawn", data.grid.features, data.grid.x.size, through, title, height),
            lambda: _boundary_form(data, view, title, height),
        )
    _show_boundary(form, data.grid.features, view, key, sample)


def boundaries_on_one_grid(
    view: ModelView, models: Mapping[str, Any], pair: tuple[int, int]
) -> dict[str, BoundaryData]:
    """Each model's decision regions in ``pair``, on one grid cut at every model's splits.

    Every cell is then a constant region of all the models, so they compare cell by cell.
    Remembered beside the models: a rerun that keeps them computes nothing.
    """
    both = tuple(models.values())

    def regions(model: Any) -> BoundaryData:
        return built_once(
            [model, *both],
            ("boundary on one grid", pair),
            lambda: view.boundary(model, pair, edges_from=both, stand_in=True),
        )

    return {name: regions(model) for name, model in models.items()}


def _boundary_form(data: BoundaryData, view: ModelView, title: str, height: int) -> dict[str, Any]:
    """The boundary figure, without a star, in the form the browser reads."""
    x, y = (category_of(view.categories, f) for f in data.grid.features)  # model columns
    figure = boundary_figure(data, title=title, height=height, categories=(x, y), legend_below=True)
    return wire_form(figure)


def _show_boundary(
    form: dict[str, Any],
    pair: tuple[int, int],
    view: ModelView,
    key: str,
    sample: int | None,
) -> None:
    """A figure of the ``pair`` plane; with ``sample``, its star, and clicks pick samples."""
    if sample is None:
        chart(form, key=key)
        return
    star = sample_star(view.sample_xy(sample, pair), f"test sample #{sample}")
    clickable_chart(
        with_traces(form, star),
        key=key,
        test_index=view.rows.test_index,
        test_xy=view.test_xy(pair),
    )


def model_fit(
    view: ModelView,
    models: Mapping[str, Any],
    *,
    pair: tuple[int, int],
    sample: int | None,
    key: str = "boundary",
    height: int = 540,
) -> None:
    """What the models learnt, with clickable test points and the traced ``sample``'s star.

    Classification: each model's decision boundary, side by side (keys ``key`` for the last,
    ``"lone-" + key`` for a first of two). Regression: the models' curves on one chart.
    With ``sample=None`` the chart is a plain one: no star, and clicks do nothing.

    The figures are remembered beside the models (:func:`~core.ui.built.built_once`), without
    the star, which is added as they are shown: a rerun that changed neither the models nor
    what is drawn of them builds nothing, and neither does a move to another sample. A model
    on more than the two plotted columns is drawn by its stand-in
    (:func:`~core.figures.boundary.grown_on_pair`), grown once beside it.
    """
    if not view.classify:
        names = tuple(models)
        form = built_once(
            list(models.values()),
            ("regression", names, pair, height),
            lambda: wire_form(
                regression_figure(
                    view.regression_lines(models),
                    target_name=view.data.target_name,
                    height=height,
                    legend_below=len(models) > 1,
                )
            ),
        )
        _show_boundary(form, pair, view, key, sample)
        return
    keys = [key] if len(models) == 1 else [f"lone-{key}", key]
    titled = len(models) > 1
    for column, (name, model), chart_key in zip(
        st.columns(len(models)), models.items(), keys, strict=True
    ):
        title = name if titled else ""

        def draw(model: Any = model, title: str = title) -> dict[str, Any]:
            # On more than two columns, the stand-in's regions: a slice through the sample
            # was often one colour, points of every class on it.
            data = view.boundary(model, pair, stand_in=True)
            return _boundary_form(data, view, title, height)

        with column:
            form = built_once([model], ("boundary", pair, title, height), draw)
            _show_boundary(form, pair, view, chart_key, sample)


def votes(forest: Any, view: ModelView, sample: int, *, key: str = "votes") -> str:
    """How the forest's trees voted on test sample ``sample``; returns the verdict in words."""
    truth = float(view.y_test[sample])

    def draw() -> tuple[Votes, dict[str, Any]]:
        counted = compute_votes(forest, view.X_test[sample], truth, view.class_names)
        return counted, wire_form(vote_figure(counted))

    counted, form = built_once([forest], ("votes", sample), draw)
    chart(form, key=key)
    if view.classify:
        names, n_trees = view.class_names, len(counted.per_tree)
        soft = int(counted.forest.argmax())
        hard = int(counted.winners.argmax()) if counted.winners is not None else soft
        hard_count = int(counted.winners[hard]) if counted.winners is not None else n_trees
        truth_name = md(names[int(truth)])
        agree = (
            "Both ways of counting name the same class."
            if hard == soft
            else "Here the two ways of counting disagree, and the forest answers with the average."
        )
        return (
            f"**{hard_count} of {n_trees} trees** vote for **{md(names[hard])}** (each tree "
            f"names the class with the largest share in its leaf). The forest itself averages "
            f"the trees' class shares: **{md(names[soft])}** with **{counted.forest[soft]:.0%}**"
            f". A tree whose leaf is 60/40 counts as a whole vote but adds only 0.6 to the "
            f"average, so the two percentages differ. {agree} The true class is "
            f"**{truth_name}**."
        )
    return (
        f"The forest predicts the mean of its trees, **{float(counted.forest):.4g}**; the true "
        f"value is **{truth:.4g}**."
    )


_WALK_KEY = "pruning-walk-step"


def _walk_to_step() -> None:
    """The walk's slider moved: its alpha becomes the page's ``ccp_alpha`` setting."""
    st.session_state["ccp_alpha"] = st.session_state[_WALK_KEY]


def pruning_walk(spec: TreeSpec, view: ModelView, ccp_alpha: float) -> None:
    """The pruning path of ``spec``'s full tree, and a slider that prunes the page's tree.

    One source of truth: the ``ccp_alpha`` setting. The slider is set from it before it is
    drawn, and moving it writes the chosen effective alpha (as a link holds it, see
    :func:`~core.app.settings.alpha_at_least`) into that setting, so the sidebar, the tree,
    the boundary and the URL all follow.
    """
    walk = replace(cached_pruning_walk(spec), current_alpha=ccp_alpha)
    task = view.data.task
    most = state.CCP_ALPHA_MAX[task]
    stops = state.pruning_stops(walk.ccp_alphas.tolist(), walk.n_leaves.tolist(), most)
    if len(stops) < 2:
        st.info("This tree has no split to prune: its root is a leaf.")
        return
    alphas = [alpha for alpha, _ in stops]
    leaves = dict(stops)
    # The stop showing the tree this alpha keeps: the last one it reaches.
    st.session_state[_WALK_KEY] = max((a for a in alphas if a <= ccp_alpha), default=alphas[0])
    st.select_slider(
        "Prune to",
        alphas,
        format_func=lambda a: f"α = {a:.6g}: {_leaves(leaves[a])}",
        key=_WALK_KEY,
        on_change=_walk_to_step,
        help="Each step is one effective alpha of the path: the alpha at which the weakest "
        "remaining branch is cut. Choosing it sets ccp_alpha, so the tree above is pruned to it.",
    )
    chart(pruning_walk_figure(walk, title="", height=520), key="pruning-walk")
    left_out = len(walk.ccp_alphas) - len(stops)
    st.caption(
        "Top: leaves of the tree that pruning at each alpha keeps; bottom: its train and test "
        f"{walk.metric}. The dotted line is the current ccp_alpha. Each cut removes the "
        "branch that buys the least impurity per leaf, so the tree shrinks in steps; test "
        f"{walk.metric} often holds or improves at first, then falls when pruning cuts real "
        "structure."
        + (
            f" Not offered on the slider: {left_out} of the path's {len(walk.ccp_alphas)} "
            "steps, closer to the next one than a link's six decimals tell apart, or beyond "
            "the largest alpha a link may hold."
            if left_out
            else ""
        )
    )


def _leaves(n: int) -> str:
    return "1 leaf" if n == 1 else f"{n} leaves"
