"""The parameter map panel: which ``max_depth`` and ``min_samples_leaf``
score best on this data, as a heat map; a click on a cell grows that tree. On Gini vs entropy,
the two trees' maps and their difference (:func:`criterion_maps`).

One source of truth, as in the pruning walk: the page's ``max_depth`` and
``min_samples_leaf`` settings. The map marks them, and a click writes the clicked cell's pair
into them (before the next run draws the sidebar), so the sliders, the tree, the boundary and
the URL all follow.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from core.app.models import ModelView, TreeSpec
from core.app.settings import to_widget
from core.figures.map_difference import MapDifference, param_map_difference_figure, points_text
from core.figures.param_map import ParamMap, param_grid
from core.figures.param_map_plot import clicked_setting, param_map_figure
from core.ui.cached_curves import param_map as cached_param_map
from core.ui.display import plotly_chart

#: How a criterion is named in words, where not as it is spelt.
_NAMES = {"gini": "Gini"}
#: Folds of the cross-validated map.
N_FOLDS = 5
_CHART_KEY = "param-map-chart"


def _load_cell(pmap: ParamMap, key: str = _CHART_KEY) -> None:
    """A cell of the chart ``key`` was clicked: its ``max_depth`` and ``min_samples_leaf``
    become the page's."""
    event = st.session_state.get(key)
    points = list(event["selection"]["points"]) if event else []
    setting = clicked_setting(points, pmap)
    if setting is None:
        return
    depth, leaf = setting
    st.session_state["max_depth"] = to_widget("max_depth", depth)  # None is "no limit"
    st.session_state["min_samples_leaf"] = leaf


def _clickable(figure: go.Figure, pmap: ParamMap, key: str) -> None:
    """A map's chart whose click loads the clicked cell's setting (read against ``pmap``)."""
    plotly_chart(
        figure, key=key, on_select=functools.partial(_load_cell, pmap, key), selection_mode="points"
    )


def _setting_words(pmap: ParamMap, cell: tuple[int, int]) -> str:
    depth, leaf = pmap.setting(cell)
    return f"max_depth {'none' if depth is None else depth}, min_samples_leaf {leaf}"


def param_map(spec: TreeSpec, view: ModelView, cross_validate: bool) -> ParamMap:
    """The parameter map of the page's tree ``spec``, clickable, with what it says in words.

    Every cell is ``spec``'s tree with that cell's two settings, scored on ``view``'s test
    rows, or with ``cross_validate`` by 5-fold cross-validation on its training rows. Returns
    the map shown.
    """
    n_folds = N_FOLDS if cross_validate else None
    depths, leaf_sizes = param_grid((spec.max_depth, spec.min_samples_leaf))
    trees = len(leaf_sizes) * (n_folds or 1)
    with st.spinner(
        f"Growing {trees} trees and cutting each at {len(depths)} depths…", show_time=True
    ):
        pmap = cached_param_map(spec, n_folds)
    with st.container(key="param-map"):
        # Titled with what is scored ("Test accuracy"): the figure has no colour bar to say it.
        title = pmap.scored_on[:1].upper() + pmap.scored_on[1:]
        _clickable(param_map_figure(pmap, title=title, height=520), pmap, _CHART_KEY)
    best = pmap.best_cells
    best_score = float(pmap.scores[best[0]])
    others = f" ({len(best)} cells share it)" if len(best) > 1 else ""
    rows = (
        f"on the {len(view.y_test)} test rows"
        if n_folds is None
        else f"by {n_folds}-fold cross-validation on the {len(view.y_train)} training rows (the "
        f"mean of {n_folds} scores, each on one fold by a tree grown on the other "
        f"{n_folds - 1})"
    )
    current = pmap.current_cell
    yours = (
        f" Yours (outlined): **{float(pmap.scores[current]):.3f}**." if current is not None else ""
    )
    st.caption(
        f"Each cell is this page's tree grown with that max_depth and min_samples_leaf, scored "
        f"{rows}. Best (bold): **{best_score:.3f}**, first at {_setting_words(pmap, best[0])}"
        f"{others}.{yours} Click a cell to grow that tree."
    )
    return pmap


def steadier(pmap: ParamMap, n_test: int) -> str:
    """How far to trust the map's scores: the words that end the map's "what to notice"."""
    if pmap.n_folds is None:
        return (
            f"One test set of {n_test} rows moves a score in steps of 1/{n_test} "
            f"({1 / n_test:.1%}): switch on cross-validation for steadier numbers, and to choose "
            "without looking at the test set."
        )
    return (
        "Cross-validation chooses without looking at the test set; the test score of the "
        "chosen tree, above, is then an honest estimate."
    )


def criterion_maps(
    specs: Mapping[str, TreeSpec], view: ModelView, cross_validate: bool
) -> MapDifference:
    """The parameter maps of two trees that differ only in criterion, and their difference.

    ``specs`` maps each criterion's name (``"gini"``, ``"entropy"``) to the page's tree with
    it; each map is that tree's (the same cache as Single tree's map), on one grid, scored as
    :func:`param_map` scores. The two maps side by side, then their difference (second minus
    first) beside what it shows, with the share of cells within a point computed here. A click
    on a cell of any of the three grows the two trees of that cell.
    """
    n_folds = N_FOLDS if cross_validate else None
    first_spec = next(iter(specs.values()))
    depths, leaf_sizes = param_grid((first_spec.max_depth, first_spec.min_samples_leaf))
    trees = len(specs) * len(leaf_sizes) * (n_folds or 1)
    with st.spinner(
        f"Growing {trees} trees and cutting each at {len(depths)} depths…", show_time=True
    ):
        maps = {criterion: cached_param_map(spec, n_folds) for criterion, spec in specs.items()}
    # One colour range for both: a colour then means one score on either map.
    ranges = [pmap.colour_range for pmap in maps.values()]
    shared = (min(low for low, _ in ranges), max(best for _, best in ranges))
    for column, (criterion, pmap) in zip(st.columns(2), maps.items(), strict=True):
        with column, st.container(key=f"gve-map-{criterion}"):
            figure = param_map_figure(
                pmap,
                title=f"{_NAMES.get(criterion, criterion).capitalize()} tree: {pmap.scored_on}",
                height=500,
                compact=True,
                colour_range=shared,
            )
            _clickable(figure, pmap, f"gve-map-{criterion}-chart")
    (first_name, first), (second_name, second) = maps.items()
    difference = MapDifference(first, second)
    names = (_NAMES.get(first_name, first_name), _NAMES.get(second_name, second_name))
    chart_column, words_column = st.columns(2)
    with chart_column, st.container(key="gve-map-difference"):
        figure = param_map_difference_figure(
            first,
            second,
            names=names,
            title=f"{names[1].capitalize()} \u2212 {names[0]}, points of {first.scored_on}",
            height=500,
        )
        _clickable(figure, first, "gve-map-difference-chart")
    with words_column:
        _difference_words(difference, view, names)
    return difference


def _difference_words(difference: MapDifference, view: ModelView, names: tuple[str, str]) -> None:
    """What the difference map shows: a callout, then its numbers in a caption."""
    first, second = difference.first, difference.second
    points = 100 * difference.scores
    same_everywhere = bool(np.all(points == 0))
    spans = [100 * float(np.ptp(pmap.scores)) for pmap in (first, second)]
    pattern = (
        "Here the map is white: the criterion changes no score at all."
        if same_everywhere
        else "Where the two differ, look for a pattern; a lone cell is one close call going "
        "the other way."
    )
    with st.container(key="gve-map-notice"):
        st.info(
            f"**What to notice.** Each cell of the third map is the {names[1]} tree's score "
            f"minus the {names[0]} tree's, with the same max_depth and min_samples_leaf: green "
            f"where {names[1]} scores higher, purple where {names[0]} does. That it is mostly "
            "white or pale is typical: the criterion moves a score less than max_depth and "
            f"min_samples_leaf do (compare the spans below). {pattern}",
            icon=":material/visibility:",
        )
    if same_everywhere:
        numbers = (
            f"The two criteria score the same in every one of the {points.size} cells: "
            f"{names[0]} and {names[1]} trees differ nowhere on {first.scored_on}. Both maps' "
            f"scores span {spans[0]:.1f} points (a point: a hundredth of {first.scored_on}): "
            "here max_depth and min_samples_leaf matter, the criterion does not."
        )
    else:
        numbers = _difference_numbers(difference, view, names, spans)
    st.caption(f"{numbers} Click a cell of any map to grow those two trees.")


def _difference_numbers(
    difference: MapDifference, view: ModelView, names: tuple[str, str], spans: list[float]
) -> str:
    """How many cells differ and by how much, and where the largest difference is."""
    first = difference.first
    points = 100 * difference.scores
    largest = np.unravel_index(int(np.argmax(np.abs(points))), points.shape)
    # On the test rows a score moves in steps of one row: "within a point" may mean "equal".
    step = 100 / len(view.y_test) if first.n_folds is None else 1.0
    within = f"one test row ({step:.1f} points)" if first.n_folds is None else "1 point"
    return (
        f"Of the {points.size} cells, **{float(np.mean(points == 0)):.0%}** score the same, "
        f"**{difference.share_within(step):.0%}** differ by at most {within} and "
        f"**{difference.share_within(5):.0%}** by at most 5 points (a point: a hundredth of "
        f"{first.scored_on}). The largest difference is "
        f"**{points_text(float(points[largest]))}** points ({names[1]} minus {names[0]}), at "
        f"{_setting_words(first, (int(largest[0]), int(largest[1])))}. Within each map the "
        f"scores span {spans[0]:.1f} ({names[0]}) and {spans[1]:.1f} ({names[1]}) points."
    )
