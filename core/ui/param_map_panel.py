"""The parameter map panel (issue 20, part 3): which ``max_depth`` and ``min_samples_leaf``
score best on this data, as a heat map; a click on a cell grows that tree.

One source of truth, as in the pruning walk: the page's ``max_depth`` and
``min_samples_leaf`` settings. The map marks them, and a click writes the clicked cell's pair
into them (before the next run draws the sidebar), so the sliders, the tree, the boundary and
the URL all follow.
"""

from __future__ import annotations

import functools

import streamlit as st

from core.app.models import ModelView, TreeSpec
from core.figures.param_map import ParamMap, clicked_setting, param_grid, param_map_figure
from core.ui.cached import param_map as cached_param_map
from core.ui.url_state import _to_widget

#: Folds of the cross-validated map.
N_FOLDS = 5
_CHART_KEY = "param-map-chart"


def _load_cell(pmap: ParamMap) -> None:
    """A cell was clicked: its ``max_depth`` and ``min_samples_leaf`` become the page's."""
    event = st.session_state.get(_CHART_KEY)
    points = list(event["selection"]["points"]) if event else []
    setting = clicked_setting(points, pmap)
    if setting is None:
        return
    depth, leaf = setting
    st.session_state["max_depth"] = _to_widget("max_depth", depth)  # None is "no limit"
    st.session_state["min_samples_leaf"] = leaf


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
        st.plotly_chart(
            param_map_figure(pmap, title="", height=520),
            key=_CHART_KEY,
            on_select=functools.partial(_load_cell, pmap),
            selection_mode="points",
            width="stretch",
            theme=None,  # the figure carries its own projector-friendly look
        )
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


def param_map_notice(pmap: ParamMap, n_test: int) -> None:
    """What to notice on the map, in the page's callout style (keyed ``param-map-notice``)."""
    steadier = (
        f"One test set of {n_test} rows moves a score in steps of 1/{n_test} "
        f"({1 / n_test:.1%}): switch on cross-validation for steadier numbers, and to choose "
        "without looking at the test set."
        if pmap.n_folds is None
        else "Cross-validation chooses without looking at the test set; the test score of the "
        "chosen tree, above, is then an honest estimate."
    )
    text = (
        "Read down a column: deeper trees score better at first, then level off or fall as "
        "they learn the noise of their training rows. Read along a row: larger leaves pull a "
        "deep tree back, as a smaller depth does. The best cells are a region, not one point; "
        f"among equals, prefer the simpler tree (shallower, larger leaves). {steadier}"
    )
    with st.container(key="param-map-notice"):
        st.info(f"**What to notice.** {text}", icon=":material/visibility:")
