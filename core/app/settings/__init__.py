"""Every setting of the app, declared once, and a page's settings read from and written to the URL.

One module per job, read in this order:

- :mod:`~core.app.settings.values`: a setting's rule (:class:`Setting`): its kind and limits,
  read from a URL and written back as text.
- :mod:`~core.app.settings.table`: :data:`TABLE`, one :class:`Setting` per name: its rule, its
  default on each page that shows it, its label and help, the widget that shows it and the
  estimator argument it feeds.
- :mod:`~core.app.settings.forms`: a page's settings: a :class:`Form` is the entries whose
  defaults name that page, :class:`Settings` one value of a form, checked once, where the
  values enter (from a URL, from the widgets, from code).
- :mod:`~core.app.settings.links`: ``parse`` and ``to_query``, a page's settings read from a
  query string and written back, short.
- :mod:`~core.app.settings.resets`: values reset because they do not fit the dataset, the
  test set or the tree, and the widgets' values merged into the last good settings.

Adding a setting is one entry in the table (with the pages that show it) and one control line
on the page. The package is pure: no Streamlit, so it is unit-tested on its own. Import it
whole (``from core.app import settings as state``); the names below are its public surface.
"""

from core.app.settings.forms import (
    SETTINGS,
    SHAREABLE_KINDS,
    Catalogue,
    DataKind,
    DatasetShape,
    Form,
    GiniEntropySettings,
    GrowStepSettings,
    RandomForestSettings,
    Settings,
    SingleTreeSettings,
    dataset_defaults,
    default_catalogue,
    estimator_arguments,
    n_tree_columns,
)
from core.app.settings.links import (
    OWN_DATA_NAMES,
    Query,
    alpha_at_least,
    link_meaning,
    parse,
    pruning_stops,
    to_query,
)
from core.app.settings.resets import (
    SAMPLE_SETTINGS,
    edits_to_keep,
    field_is_valid,
    fit_growth,
    fit_sample,
    merge,
    with_dataset,
)
from core.app.settings.table import (
    ALL_PAGES,
    CCP_ALPHA_LIMITS,
    CCP_ALPHA_MAX,
    CRITERIA,
    FIT_ON,
    FOREST,
    GINI,
    MAX_FEATURES,
    MIN_IMPURITY_DECREASE_LIMITS,
    N_ESTIMATORS_LIMIT,
    N_SAMPLES_RANGE,
    NODE_LIMIT,
    SAMPLE_LIMIT,
    SEED_LIMIT,
    SINGLE,
    STEP,
    STEP_LIMIT,
    TABLE,
    TEST_SIZE,
    TEST_SIZE_RANGE,
    VIEWS,
    estimator_names,
    from_widget,
    to_widget,
)
from core.app.settings.values import Invalid, Kind, Model, Reader, Setting, Widget

__all__ = [
    "ALL_PAGES",
    "CCP_ALPHA_LIMITS",
    "CCP_ALPHA_MAX",
    "CRITERIA",
    "FIT_ON",
    "FOREST",
    "GINI",
    "MAX_FEATURES",
    "MIN_IMPURITY_DECREASE_LIMITS",
    "NODE_LIMIT",
    "N_ESTIMATORS_LIMIT",
    "N_SAMPLES_RANGE",
    "OWN_DATA_NAMES",
    "SAMPLE_LIMIT",
    "SAMPLE_SETTINGS",
    "SEED_LIMIT",
    "SETTINGS",
    "SHAREABLE_KINDS",
    "SINGLE",
    "STEP",
    "STEP_LIMIT",
    "TABLE",
    "TEST_SIZE",
    "TEST_SIZE_RANGE",
    "VIEWS",
    "Catalogue",
    "DataKind",
    "DatasetShape",
    "Form",
    "GiniEntropySettings",
    "GrowStepSettings",
    "Invalid",
    "Kind",
    "Model",
    "Query",
    "RandomForestSettings",
    "Reader",
    "Setting",
    "Settings",
    "SingleTreeSettings",
    "Widget",
    "alpha_at_least",
    "dataset_defaults",
    "default_catalogue",
    "edits_to_keep",
    "estimator_arguments",
    "estimator_names",
    "field_is_valid",
    "fit_growth",
    "fit_sample",
    "from_widget",
    "link_meaning",
    "merge",
    "n_tree_columns",
    "parse",
    "pruning_stops",
    "to_query",
    "to_widget",
    "with_dataset",
]
