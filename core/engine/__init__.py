"""The engine: decision trees and random forests, from scratch, as the textbook writes them.

Read in this order:

1. :mod:`core.engine.criteria`: the impurity formulas (``node_gini``, ``node_entropy``,
   ``node_squared_error``, ``node_absolute_error``); :mod:`core.engine.scan`:
   ``score_splits``, how one feature's thresholds are scored at one node, plainly: one row at
   a time from the right side to the left.
2. :mod:`core.engine.grow`: the loop that grows every tree, a single one or a forest's, node
   by node: measure the node, stop or try the features, cut, and go on with the children.
   When a node stops is :mod:`core.engine.stopping` (one rule, which the pages ask too); how
   a node's rows stay sorted without sorting again is :mod:`core.engine.sorting`.
3. :mod:`core.engine.structure`: a fitted tree as flat arrays, and how rows walk down it
   (:mod:`core.engine.walk`).
4. :mod:`core.engine.tree` and :mod:`core.engine.forest`: the estimators (scikit-learn's
   contract; what both forests share is :mod:`core.engine.forest_base`, their bootstrap
   samples and out-of-bag rows :mod:`core.engine.bagging`); :mod:`core.engine.predict` walks
   a forest's trees; :mod:`core.engine.pruning` is cost-complexity pruning;
   :mod:`core.engine.params` checks hyperparameters; :mod:`core.engine.replay` replays a
   fitted tree's splits best first, :mod:`core.engine.node_splits` says which rows reach a
   node and why it split as it did or stopped, and :mod:`core.engine.splits` scores a
   student's split against the best.
5. :mod:`core.engine.compat`: the only module that imports scikit-learn (the estimator
   contract: ``BaseEstimator``, input validation, tags); :mod:`core.engine.arrays`: the one
   kind of array the loops are given; :mod:`core.engine.compiled`: numba's cache of machine
   code, kept in step with these files.

The hot loops are plain Python compiled by numba (``@njit``): the code a student reads is the
code that runs. Nothing here imports Streamlit or Plotly (``tests/engine/test_engine_imports.py``).
"""

from core.engine.compiled import forget_stale_machine_code

forget_stale_machine_code()  # before anything below is compiled or loaded from the cache

from core.engine.forest import RandomForestClassifier, RandomForestRegressor  # noqa: E402
from core.engine.tree import DecisionTreeClassifier, DecisionTreeRegressor  # noqa: E402

__all__ = [
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
    "RandomForestClassifier",
    "RandomForestRegressor",
]
