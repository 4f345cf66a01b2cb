"""Streamlit glue shared by every page: cached data and models, URL state, shared controls.

The only package in ``core`` that imports Streamlit. Pages stay thin: read the controls
(``start``, the widget helpers, ``finish``), get cached models, build figures, show them.
Pages import the package (``from core import ui``) and call every helper as ``ui.<name>``;
the modules below hold them by responsibility:

- :mod:`core.ui.cached`: the catalogue, datasets and splits, fitted trees and forests, curves.
- :mod:`core.ui.url_state`: the sidebar's page list, URL state (``start``, ``current``,
  ``collect``, ``finish``), notices about a link, the share link.
- :mod:`core.ui.controls`: the shared widgets, keyed by the settings' field names.
- :mod:`core.ui.display`: callouts, source listings, SVG diagrams, charts, the failure guard.

The Streamlit-free helpers the pages call through ``ui`` (``ui.path_in_words``...) live in
:mod:`core.explain`, where they are unit-tested.

A name re-exported here is bound in two places: to replace one in a test, patch the module
that uses it (``core.ui.display.clicked_sample``), not ``core.ui``.
"""

from __future__ import annotations

# The estimators were reachable as ``ui.DecisionTreeClassifier``... and named in __all__;
# kept so that nothing written against the single ui module breaks.
from core import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from core.engine.runtime import tune_allocator
from core.explain import (
    accuracy,
    clicked_sample,
    columns,
    differing_nodes,
    legend_below,
    mark_sample,
    md,
    path_in_words,
    regression_criterion,
)
from core.ui.cached import (
    CURVE_TREES,
    TEST_SIZE,
    ForestSpec,
    TreeSpec,
    catalogue,
    dataset,
    dataset_infos,
    depth_curve,
    fit_forest,
    fit_tree,
    forest_curve,
    split,
    svg,
)
from core.ui.controls import (
    ccp_alpha_control,
    criterion_control,
    dataset_select,
    fit_control,
    max_depth_control,
    min_samples_leaf_control,
    pair_controls,
    sample_control,
    seed_control,
)
from core.ui.display import (
    Guard,
    chart,
    clickable_chart,
    diagram_downloads,
    guard,
    how_computed,
    show_svg,
    tree_diagram,
    what_to_notice,
)
from core.ui.url_state import (
    NAVIGATION,
    collect,
    current,
    finish,
    navigation,
    share_box,
    share_link,
    show_notices,
    start,
)

# Every page imports this package, so the app's server process gets the faster allocator
# settings here, whichever page a visitor opens first (see core.engine.runtime).
tune_allocator()

__all__ = [
    "CURVE_TREES",
    "NAVIGATION",
    "TEST_SIZE",
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
    "ForestSpec",
    "Guard",
    "RandomForestClassifier",
    "RandomForestRegressor",
    "TreeSpec",
    "accuracy",
    "catalogue",
    "ccp_alpha_control",
    "chart",
    "clickable_chart",
    "clicked_sample",
    "collect",
    "columns",
    "criterion_control",
    "current",
    "dataset",
    "dataset_infos",
    "dataset_select",
    "depth_curve",
    "diagram_downloads",
    "differing_nodes",
    "finish",
    "fit_control",
    "fit_forest",
    "fit_tree",
    "forest_curve",
    "guard",
    "how_computed",
    "legend_below",
    "mark_sample",
    "max_depth_control",
    "md",
    "min_samples_leaf_control",
    "navigation",
    "pair_controls",
    "path_in_words",
    "regression_criterion",
    "sample_control",
    "seed_control",
    "share_box",
    "share_link",
    "show_notices",
    "show_svg",
    "split",
    "start",
    "svg",
    "tree_diagram",
    "what_to_notice",
]
