"""Cached data and models: the catalogue, datasets and their splits, fitted trees and forests.

Data goes in ``st.cache_data``; fitted models in ``st.cache_resource`` with ``max_entries``,
keyed by the frozen :class:`TreeSpec` and :class:`ForestSpec`. Cached models are shared by
every visitor: read them, never change them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Any

import streamlit as st

from core import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
    state,
)
from core.data.catalogue import list_datasets, load_dataset
from core.data.datasets import Dataset, DatasetInfo, Split
from core.data.datasets import train_test_split as split_dataset
from core.figures import (
    DepthCurve,
    ForestCurve,
    compute_depth_curve,
    compute_forest_curve,
    render_svg,
)
from core.state import DatasetShape

TEST_SIZE = 0.25

# --- data ----------------------------------------------------------------------------------


@st.cache_data(max_entries=1, show_spinner=False)
def dataset_infos() -> tuple[DatasetInfo, ...]:
    """The catalogue, in display order."""
    return list_datasets()


@st.cache_data(max_entries=1, show_spinner=False)
def catalogue() -> dict[str, DatasetShape]:
    """What URL parsing needs to know about each dataset."""
    return state.default_catalogue()


@st.cache_data(max_entries=8, show_spinner=False)
def dataset(name: str) -> Dataset:
    return load_dataset(name)


@st.cache_data(max_entries=32, show_spinner=False)
def split(name: str, seed: int) -> Split:
    """Train and test rows; the seed moves the split too, so trees meet new data."""
    return split_dataset(dataset(name), test_size=TEST_SIZE, random_state=seed)


# --- models --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TreeSpec:
    """Everything that decides a fitted tree; the cache key of :func:`fit_tree`."""

    dataset: str
    columns: tuple[int, ...]
    criterion: str
    max_depth: int | None
    min_samples_leaf: int
    ccp_alpha: float
    seed: int


@dataclass(frozen=True)
class ForestSpec:
    """Everything that decides a fitted forest; the cache key of :func:`fit_forest`."""

    dataset: str
    columns: tuple[int, ...]
    criterion: str
    max_depth: int | None
    n_estimators: int
    max_features: str
    bootstrap: bool
    seed: int


# Trees are small (kilobytes); a forest of 500 deep trees is tens of megabytes, so fewer.
@st.cache_resource(max_entries=64, show_spinner=False)
def fit_tree(spec: TreeSpec) -> Any:
    """A fitted tree, shared by every visitor: read it, never change it."""
    data, rows = dataset(spec.dataset), split(spec.dataset, spec.seed)
    model_type = DecisionTreeClassifier if data.task == "classification" else DecisionTreeRegressor
    model = model_type(
        criterion=spec.criterion,
        max_depth=spec.max_depth,
        min_samples_leaf=spec.min_samples_leaf,
        ccp_alpha=spec.ccp_alpha,
        random_state=spec.seed,
    )
    return model.fit(rows.X_train[:, list(spec.columns)], rows.y_train)


# Forest sizes up to 500 are on the curve; the curve's forest is the biggest one, whose first
# k trees are exactly the forest of k trees (same seed), so one fit draws the whole curve.
CURVE_TREES = state.N_ESTIMATORS_LIMIT


@st.cache_resource(max_entries=8, show_spinner=False)
def fit_forest(spec: ForestSpec) -> Any:
    """A fitted forest with out-of-bag scores when bootstrapping; shared, never changed."""
    data, rows = dataset(spec.dataset), split(spec.dataset, spec.seed)
    classify = data.task == "classification"
    model_type = RandomForestClassifier if classify else RandomForestRegressor
    model = model_type(
        n_estimators=spec.n_estimators,
        criterion=spec.criterion,
        max_depth=spec.max_depth,
        max_features=None if spec.max_features == "all" else spec.max_features,
        bootstrap=spec.bootstrap,
        oob_score=spec.bootstrap,
        random_state=spec.seed,
    )
    return model.fit(rows.X_train[:, list(spec.columns)], rows.y_train)


def forest_curve(spec: ForestSpec) -> ForestCurve:
    """Train, test and out-of-bag score after each of the first 500 trees of ``spec``."""
    return _forest_curve(replace(spec, n_estimators=CURVE_TREES))


@st.cache_data(max_entries=16, show_spinner=False)
def _forest_curve(spec: ForestSpec) -> ForestCurve:
    rows = split(spec.dataset, spec.seed)
    forest = fit_forest(spec)
    cols = list(spec.columns)
    return compute_forest_curve(
        forest, rows.X_train[:, cols], rows.y_train, X_test=rows.X_test[:, cols], y_test=rows.y_test
    )


@st.cache_data(max_entries=16, show_spinner=False)
def depth_curve(spec: TreeSpec) -> DepthCurve:
    """Train and test accuracy at depths 1 to 10, gini and entropy, else as ``spec``."""
    rows = split(spec.dataset, spec.seed)
    cols = list(spec.columns)
    make = functools.partial(
        DecisionTreeClassifier, min_samples_leaf=spec.min_samples_leaf, random_state=spec.seed
    )
    return compute_depth_curve(
        make, rows.X_train[:, cols], rows.y_train, rows.X_test[:, cols], rows.y_test
    )


@st.cache_data(max_entries=256, show_spinner=False)
def svg(dot: str) -> str:
    """The diagram ``dot`` rendered to SVG by Graphviz, remembered by its DOT text.

    Most reruns (a new test sample elsewhere on the page, a chart click) leave the tree as it
    was; rendering it again would cost 10-20 ms each time.
    """
    return render_svg(dot)
