"""Cached curves and studies: what a page computes over many trees of one setting.

The forest's curve over its first trees, the pruning walk, the parameter map, accuracy against
depth and the criterion study, each in ``st.cache_data`` keyed by the frozen specs of
:mod:`core.app.models`, with what the computation grows itself cleared from the key. The
models they start from are :mod:`core.ui.cached`'s.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any

import streamlit as st

from core import DecisionTreeClassifier, DecisionTreeRegressor
from core.app.cost import ForestCost
from core.app.models import ForestSpec, TreeSpec, affordable
from core.data.datasets import train_test_split as split_dataset
from core.figures import DepthCurve, ForestCurve, compute_depth_curve, compute_forest_curve
from core.figures.criterion import SeedStudy, seed_study
from core.figures.param_map import ParamMap, compute_param_map, param_grid
from core.figures.pruning_walk import PruningWalk, compute_pruning_walk
from core.ui.cached import SPEC_KEYS, _view, curve_trees, fit_forest, fit_tree, rows


def forest_curve(spec: ForestSpec, cost: ForestCost) -> ForestCurve:
    """Train, test and out-of-bag score after each of the first ``curve_trees`` trees.

    ``spec`` and ``cost`` as :func:`core.app.models.affordable` returned them. A curve of more
    trees than ``spec`` is another forest, estimated (and cut to the ceiling) on its own.
    """
    if curve_trees(spec.n_estimators) > spec.n_estimators:
        longer = spec.replace(n_estimators=curve_trees(spec.n_estimators))
        spec, cost = affordable(longer, _view(spec.data, spec.columns))
    return _forest_curve(spec, cost)


@st.cache_data(max_entries=16, show_spinner=False, hash_funcs=SPEC_KEYS)
def _forest_curve(spec: ForestSpec, _cost: ForestCost) -> ForestCurve:
    # The leading underscore keeps the cost out of the cache key: spec decides it.
    rows = _view(spec.data, spec.columns)
    return compute_forest_curve(
        fit_forest(spec, _cost, show_progress=False),  # inside a cached function: draws nothing
        rows.X_train,
        rows.y_train,
        X_test=rows.X_test,
        y_test=rows.y_test,
    )


def pruning_walk(spec: TreeSpec) -> PruningWalk:
    """Every step of the pruning path of ``spec``'s tree grown in full, scored; no alpha marked.

    The walk starts from the full tree (``ccp_alpha=0``), so one cached walk serves every
    alpha of the same tree.
    """
    return _pruning_walk(spec.replace(ccp_alpha=0.0))


@st.cache_data(max_entries=16, show_spinner=False, hash_funcs=SPEC_KEYS)
def _pruning_walk(full: TreeSpec) -> PruningWalk:
    rows = _view(full.data, full.columns)
    return compute_pruning_walk(
        fit_tree(full), rows.X_train, rows.y_train, rows.X_test, rows.y_test
    )


def param_map(spec: TreeSpec, n_folds: int | None = None) -> ParamMap:
    """The test score (``n_folds``: cross-validated) of ``spec``'s tree at every cell of the
    parameter map, ``spec``'s own ``max_depth`` and ``min_samples_leaf`` marked.

    The map grows its own depths and leaf sizes, so ``spec``'s two are left out of the cache
    key while they are on the usual grid (:func:`~core.figures.param_map.param_grid`): moving
    either slider from cell to cell, or clicking a cell, finds the map already scored.
    """
    current = (spec.max_depth, spec.min_samples_leaf)
    depths, leaf_sizes = param_grid(current)
    base = spec.replace(max_depth=None, min_samples_leaf=1)
    return replace(_param_map(base, depths, leaf_sizes, n_folds), current=current)


@st.cache_data(max_entries=16, show_spinner=False, hash_funcs=SPEC_KEYS)
def _param_map(
    base: TreeSpec,
    depths: tuple[int | None, ...],
    leaf_sizes: tuple[int, ...],
    n_folds: int | None,
) -> ParamMap:
    rows = _view(base.data, base.columns)
    model_type = DecisionTreeClassifier if rows.classify else DecisionTreeRegressor
    arguments = base.arguments()
    del arguments["max_depth"], arguments["min_samples_leaf"]  # the map's own, cell by cell
    return compute_param_map(
        functools.partial(model_type, **arguments),
        rows.X_train,
        rows.y_train,
        rows.X_test,
        rows.y_test,
        depths=depths,
        leaf_sizes=leaf_sizes,
        n_folds=n_folds,
        seed=base.seed,
    )


def depth_curve(spec: TreeSpec) -> DepthCurve:
    """Train and test accuracy at depths 1 to 10, gini and entropy, else as ``spec``.

    The curve grows its own depths and criteria and reads only ``spec``'s rows, columns,
    ``min_samples_leaf`` and seed, so the rest is cleared from the cache key: moving the depth
    slider finds the curve already drawn (two deep fits, cut to each depth, and 40 scorings).
    """
    # Every other estimator argument at the tree's default: one curve for all their values.
    read = TreeSpec(
        spec.source, spec.columns, spec.seed, spec.test_size, min_samples_leaf=spec.min_samples_leaf
    )
    return _depth_curve(read)


@st.cache_data(max_entries=16, show_spinner=False, hash_funcs=SPEC_KEYS)
def _depth_curve(spec: TreeSpec) -> DepthCurve:
    rows = _view(spec.data, spec.columns)
    make = functools.partial(
        DecisionTreeClassifier, min_samples_leaf=spec.min_samples_leaf, random_state=spec.seed
    )
    return compute_depth_curve(make, rows.X_train, rows.y_train, rows.X_test, rows.y_test)


#: Train/test splits the criterion study grows both trees on.
STUDY_SEEDS = 50


def criterion_study(spec: TreeSpec) -> SeedStudy:
    """Both criteria's trees on :data:`STUDY_SEEDS` splits of ``spec``'s rows (seed = split).

    The study grows its own criteria and seeds, so ``spec``'s two are cleared from the cache
    key: another page seed finds the study already grown (a hundred trees).
    """
    return _criterion_study(spec.replace(criterion="gini", seed=0))


@st.cache_data(max_entries=8, show_spinner=False, hash_funcs=SPEC_KEYS)
def _criterion_study(spec: TreeSpec) -> SeedStudy:
    # The trees are fitted here, not through fit_tree: a hundred of them would push every
    # page's own trees out of its cache.
    data = rows(spec.data.source)
    chosen = list(spec.columns)

    def grow(criterion: str, seed: int) -> tuple[Any, Any, Any]:
        part = split_dataset(data, test_size=spec.test_size, random_state=seed)
        arguments = spec.replace(criterion=criterion, seed=seed).arguments()
        tree = DecisionTreeClassifier(**arguments).fit(part.X_train[:, chosen], part.y_train)
        return tree, part.X_test[:, chosen], part.y_test

    return seed_study(grow, range(STUDY_SEEDS))
