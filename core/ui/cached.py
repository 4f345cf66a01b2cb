"""Cached data and models: the catalogue, datasets and their splits, fitted trees and forests.

Data goes in ``st.cache_data``; fitted trees in ``st.cache_resource`` with ``max_entries``,
and forests in a :class:`~core.app.shelf.Shelf` (a long fit shows a progress bar), all keyed
by the frozen specs of :mod:`core.app.models`. Cached models are shared by every visitor:
read them, never change them.

Every dataset, built-in, generated, uploaded or drawn, is a :class:`~core.data.source.Source`
and comes through one cached :func:`rows`. A session's own data (uploads, drawn points) is
named there, and in everything cached from it, by a private key only that session holds (see
:mod:`core.app.own_data`). The curves and studies over many trees are in
:mod:`core.ui.cached_curves`.
"""

from __future__ import annotations

import contextlib
import copy
import functools
from collections.abc import Callable
from typing import Any

import streamlit as st

from core import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from core.app import settings as app_settings
from core.app.cost import ForestCost, Gate
from core.app.lessons import ARTICLES, ClassroomLink, classroom_links
from core.app.models import (
    DataSpec,
    ForestSpec,
    ModelView,
    TreeSpec,
    data_spec,
    source_of,
)
from core.app.models import columns as model_columns
from core.app.settings import DatasetShape, Settings
from core.app.shelf import Shelf
from core.data.catalogue import list_datasets
from core.data.datasets import Dataset, DatasetInfo, Split
from core.data.datasets import train_test_split as split_dataset
from core.data.source import Source
from core.engine.replay import GrowthSteps, growth_steps
from core.figures import (
    render_svg,
)
from core.ui.visit import own_catalogue

#: The cache keys of the frozen specs (``hash_funcs`` of every cached function that takes one):
#: their ``repr``, which names the type and every field exactly (strings, whole numbers,
#: floats written to round-trip, None). Streamlit's own key for a dataclass deep-copies it
#: into a dict and hashes that field by field, many times the work, on every call of every
#: run, cached or not.
SPEC_KEYS: dict[str | type[Any], Callable[[Any], Any]] = {
    kind: repr for kind in (Source, DataSpec, TreeSpec, ForestSpec)
}


# --- data ----------------------------------------------------------------------------------


@st.cache_data(max_entries=1, show_spinner=False)
def dataset_infos() -> tuple[DatasetInfo, ...]:
    """The catalogue, in display order."""
    return list_datasets()


@functools.cache
def builtin_catalogue() -> dict[str, DatasetShape]:
    """The built-in datasets, the same for every visitor: read it, never change it.

    Made once per process and shared: a page asks for the catalogue a score of times a run,
    ``st.cache_data`` would unpickle a fresh copy each time, and even ``st.cache_resource``
    costs a cache key, a lookup and its statistics per call, for a value that never changes
    while the server runs.
    """
    return app_settings.default_catalogue()


def catalogue() -> dict[str, DatasetShape]:
    """What URL parsing needs to know about each dataset this session can show.

    The built-in ones, then the session's own (uploads, drawn points), which no other
    session sees.
    """
    return {**builtin_catalogue(), **own_catalogue()}


@st.cache_data(max_entries=1, show_spinner=False)
def lessons() -> tuple[ClassroomLink, ...]:
    """The ready-made classroom links, on the built-in datasets."""
    return classroom_links(builtin_catalogue())


@st.cache_data(max_entries=1, show_spinner=False)
def article_links() -> tuple[ClassroomLink, ...]:
    """The source articles' own experiments, as links that reproduce their numbers."""
    return classroom_links(builtin_catalogue(), ARTICLES)


@st.cache_resource(max_entries=16, show_spinner=False, hash_funcs=SPEC_KEYS)
def rows(source: Source) -> Dataset:
    """The rows ``source`` names, loaded once per server and shared: read them, never change them.

    A resource, not data: the rows are read-only, and a page reads them several times a run.
    """
    return source.load()


def data_of(settings: Settings) -> Dataset:
    """The whole dataset ``settings`` show (names, task, description)."""
    return rows(source_of(settings, catalogue()[settings.dataset]))


@st.cache_data(max_entries=32, show_spinner=False, hash_funcs=SPEC_KEYS)
def split(data: DataSpec) -> Split:
    """Train and test rows; the seed moves the split too, so trees meet new data."""
    return split_dataset(rows(data.source), test_size=data.test_size, random_state=data.seed)


def view(settings: Settings) -> ModelView:
    """The rows a page's models see: its dataset, split by its seed, sliced to its columns."""
    shape = catalogue()[settings.dataset]
    return _view(data_spec(settings, shape), model_columns(settings, shape))


def view_of(settings: Settings, columns: tuple[int, ...]) -> ModelView:
    """The rows of ``settings``' data and split, sliced to ``columns`` (dataset positions)."""
    return _view(data_spec(settings, catalogue()[settings.dataset]), columns)


@st.cache_resource(max_entries=32, show_spinner=False, hash_funcs=SPEC_KEYS)
def _view(data: DataSpec, columns: tuple[int, ...]) -> ModelView:
    return ModelView(rows(data.source), split(data), columns)


# --- models --------------------------------------------------------------------------------


# Trees are small (kilobytes); a forest of 1000 deep trees is megabytes, so fewer.
@st.cache_resource(max_entries=64, show_spinner=False, hash_funcs=SPEC_KEYS)
def fit_tree(spec: TreeSpec) -> Any:
    """A fitted tree, shared by every visitor: read it, never change it."""
    rows = _view(spec.data, spec.columns)
    data = rows.data
    model_type = DecisionTreeClassifier if data.task == "classification" else DecisionTreeRegressor
    return model_type(**spec.arguments()).fit(rows.X_train, rows.y_train)


# The curve's forest is the one on screen, or CURVE_FLOOR trees when fewer are asked for (as
# many as the server's ceiling allows): the first k trees of a seeded forest are exactly the
# forest of k trees, so one fit draws the whole curve, and from CURVE_FLOOR trees up it is the
# very fit the page shows (one cache entry, not a second, bigger forest grown only for the
# curve).
CURVE_FLOOR = 100


def curve_trees(n_estimators: int) -> int:
    """How many trees the curve of a forest of ``n_estimators`` trees asks for.

    :func:`forest_curve` grows fewer when that many would pass the server's ceiling, never
    fewer than ``n_estimators`` of a forest that passed it.
    """
    return max(n_estimators, CURVE_FLOOR)


#: Big forests grow one at a time in this process, whoever asks (see core.app.cost).
HEAVY_FITS = Gate(slots=1)

#: Fitted forests, shared by every visitor: a forest of 1000 deep trees is megabytes, so few.
#: Not ``st.cache_resource``: a fit there may not move a progress bar (see core.app.shelf).
FORESTS: Shelf[ForestSpec, Any] = Shelf(max_entries=8)

#: A forest estimated to take longer than this (seconds of one core) shows a progress bar.
PROGRESS_SECONDS = 0.5


class GrowthBar:
    """A progress bar for a fit, fed by the engine's progress hook (a fraction, 0 to 1).

    The engine reports after every depth; the bar moves only by whole percents, so a long
    fit sends a hundred small messages at most.
    """

    def __init__(self, label: str) -> None:
        self.label = label
        self.shown = 0
        self.bar = st.progress(0, text=label)

    def __call__(self, fraction: float) -> None:
        percent = min(100, max(0, int(fraction * 100)))
        if percent > self.shown:
            self.shown = percent
            self.bar.progress(percent, text=f"{self.label} {percent}%")

    def close(self) -> None:
        self.bar.empty()


def clear_caches() -> None:
    """Forget every cached dataset, model and drawing (tests and benchmarks start afresh)."""
    st.cache_data.clear()
    st.cache_resource.clear()
    builtin_catalogue.cache_clear()
    FORESTS.clear()


def fit_forest(spec: ForestSpec, cost: ForestCost, *, show_progress: bool = True) -> Any:
    """A fitted forest with out-of-bag scores when bootstrapping; shared, never changed.

    ``spec`` and ``cost`` are the pair :func:`core.app.models.affordable` returned: the cost
    is estimated there, once, and read here. A forest already fitted is returned at once.
    Otherwise a long fit (estimated above :data:`PROGRESS_SECONDS`) shows a progress bar where
    it is called, unless ``show_progress`` is false, and a shorter one a spinner. A heavy fit
    (``ForestCost.heavy``) waits for any other heavy fit to finish, and says so while it
    waits. Visitors asking for the same forest at once share one fit; those who wait for it
    see a spinner.

    Raises
    ------
    ValueError
        If ``cost`` is not that of ``spec`` (its trees to grow differ).
    """
    if cost.grown != spec.n_estimators:
        raise ValueError(
            f"cost must be the cost affordable() returned with spec: it grows {cost.grown} "
            f"trees; got a spec of {spec.n_estimators}"
        )
    rows = _view(spec.data, spec.columns)
    long_fit = show_progress and cost.grown_seconds > PROGRESS_SECONDS

    def grow() -> Any:
        model_type = RandomForestClassifier if rows.classify else RandomForestRegressor
        more, fewer = kept_with_other_trees(spec)
        if more is not None:  # this forest is its first trees: nothing to grow
            return more.first_trees(spec.n_estimators, rows.X_train, rows.y_train)
        if fewer is None:
            model = model_type(**spec.arguments())
        else:  # its trees are this forest's first ones: grow only those it lacks
            model = copy.copy(fewer).set_params(n_estimators=spec.n_estimators, warm_start=True)
        with contextlib.ExitStack() as stack:
            if cost.heavy:
                stack.enter_context(HEAVY_FITS.turn())
            bar = None
            if long_fit:
                bar = GrowthBar(f"Growing {spec.n_estimators} trees…")
                stack.callback(bar.close)
            return model.fit(rows.X_train, rows.y_train, progress=bar).set_params(warm_start=False)

    if spec in FORESTS:
        return FORESTS.get_or_make(spec, grow)
    if cost.heavy and HEAVY_FITS.busy:
        waiting = "Another big forest is growing; yours is next…"
    elif long_fit and not FORESTS.making(spec):
        return FORESTS.get_or_make(spec, grow)  # this call grows it, under its progress bar
    else:  # a quick fit, or the same forest already growing for another visitor
        waiting = f"Growing {spec.n_estimators} trees…"
    with st.spinner(waiting, show_time=True):
        return FORESTS.get_or_make(spec, grow)


def kept_with_other_trees(spec: ForestSpec) -> tuple[Any | None, Any | None]:
    """Kept forests of ``spec`` but another number of trees: the one with the fewest trees
    above ``spec``'s, and the one with the most below (None where there is none).

    A seeded forest's first ``k`` trees are the forest of ``k`` trees (each tree's random
    stream depends on its index, not on how many trees there are). So when a student moves
    the number of trees from 150 to 100, :func:`fit_forest` takes the first 100 trees of the
    150 (``first_trees``), and from 100 to 150 it grows the 50 new trees onto a copy of the
    100 (``warm_start``, as scikit-learn calls it). A kept forest is never changed: other
    visitors are reading it.
    """
    n = spec.n_estimators
    same = {  # the kept forests of these settings, by their number of trees
        kept.n_estimators: forest
        for kept, forest in FORESTS.items()
        if kept.replace(n_estimators=n) == spec
    }
    more = min((k for k in same if k > n), default=None)
    fewer = max((k for k in same if k < n), default=None)
    return (None if more is None else same[more]), (None if fewer is None else same[fewer])


@st.cache_data(max_entries=256, show_spinner=False)
def svg(dot: str) -> str:
    """The diagram ``dot`` rendered to SVG by Graphviz, remembered by its DOT text.

    Most reruns (a new test sample elsewhere on the page, a chart click) leave the tree as it
    was; rendering it again would cost a Graphviz layout each time.
    """
    return render_svg(dot)


@st.cache_resource(max_entries=64, show_spinner=False, hash_funcs=SPEC_KEYS)
def growth(spec: TreeSpec) -> GrowthSteps:
    """The splits of the tree ``spec`` describes, best first: one fit serves every step."""
    return growth_steps(fit_tree(spec).tree_)
