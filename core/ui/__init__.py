"""The app's Streamlit side, the one package in ``core`` that imports Streamlit.

A page reads top to bottom: ``controls = ui.start(PAGE)`` and its controls (each returns its
value), ``ui.view(settings)``, then its view, which lays out the cached models and the panels,
and ``views.explain`` ("How this is computed"). Pages and views import the package
(``from core import ui``) and call everything as ``ui.<name>``:

- :mod:`core.ui.controls`: ``start``, the :class:`Controls` of a page, ``tree_controls``.
- :mod:`core.ui.views`: each page's views as data (:class:`~core.ui.views.View`: its
  notice, its code for "How this is computed", what draws it), one module per page.
- :mod:`core.ui.cached`: the catalogue, datasets, the model view, fitted trees and forests,
  rendered diagrams; :mod:`core.ui.cached_curves`: the curves and studies over many trees.
- :mod:`core.ui.panels`: the recurring panels (metrics, a model's fit, votes, the pruning
  walk); :mod:`core.ui.diagram_panel`: a tree's diagram.
- :mod:`core.ui.param_map_panel`: the parameter map, a click on a cell loading its setting;
  Gini vs entropy's two maps and their difference.
- :mod:`core.ui.step_panels`: a tree grown step by step.
- :mod:`core.ui.growth_panels`: "why this split?" at any node, and a student's own split
  against the tree's.
- :mod:`core.ui.display`: callouts, source listings, SVG, charts, the failure guard.
- :mod:`core.ui.url_state`: the sidebar's page list, URL state, notices, the share link.
- :mod:`core.ui.home`: the home page's own start.
- :mod:`core.ui.classroom`: class mode (start, join, follow, the questions), joined to every
  page through :mod:`core.ui.page_hooks`; ``split_poll`` is the step page's question.

To replace a name in a test, patch the module that uses it (``core.ui.display.clicked_sample``),
not ``core.ui``.
"""

from __future__ import annotations

from core.ui.cached import (
    article_links,
    catalogue,
    clear_caches,
    curve_trees,
    dataset_infos,
    fit_forest,
    fit_tree,
    growth,
    lessons,
    view,
)
from core.ui.cached_curves import depth_curve, forest_curve
from core.ui.classroom import split_poll
from core.ui.classroom.lesson_home import lesson_cards, own_lessons
from core.ui.controls import Controls, start, tree_controls
from core.ui.criterion_panel import criterion_view
from core.ui.diagram_panel import diagram
from core.ui.display import (
    chart,
    guard,
    how_computed,
    show_svg,
    what_to_notice,
)
from core.ui.growth_panels import describe_node, pick_node, why_this_split, your_split
from core.ui.home import link_cards, start_home
from core.ui.panels import (
    boundaries_on_one_grid,
    boundary,
    importances,
    metrics,
    model_fit,
    pruning_walk,
    scores,
    votes,
)
from core.ui.param_map_panel import criterion_maps, param_map, steadier
from core.ui.step_panels import after_step, newest_split, split_history, step_bar, step_fit
from core.ui.url_state import show_notices
from core.ui.variance_panel import GLANCE_TREES, forest_glance, variance_view
from core.ui.what_if_panel import edited_row, forest_vote_parts, what_if

__all__ = [
    "GLANCE_TREES",
    "Controls",
    "after_step",
    "article_links",
    "boundaries_on_one_grid",
    "boundary",
    "catalogue",
    "chart",
    "clear_caches",
    "criterion_maps",
    "criterion_view",
    "curve_trees",
    "dataset_infos",
    "depth_curve",
    "describe_node",
    "diagram",
    "edited_row",
    "fit_forest",
    "fit_tree",
    "forest_curve",
    "forest_glance",
    "forest_vote_parts",
    "growth",
    "guard",
    "how_computed",
    "importances",
    "lesson_cards",
    "lessons",
    "link_cards",
    "metrics",
    "model_fit",
    "newest_split",
    "own_lessons",
    "param_map",
    "pick_node",
    "pruning_walk",
    "scores",
    "show_notices",
    "show_svg",
    "split_history",
    "split_poll",
    "start",
    "start_home",
    "steadier",
    "step_bar",
    "step_fit",
    "tree_controls",
    "variance_view",
    "view",
    "votes",
    "what_if",
    "what_to_notice",
    "why_this_split",
    "your_split",
]
