"""The engine: decision trees and random forests, from scratch in NumPy.

Read in this order:

1. :mod:`core.engine.criteria`: impurity functions, the ``IMPURITY`` registry, and
   ``scan_feature``, how one feature's best threshold is found at one node, plainly.
2. :mod:`core.engine.builder`: the same search for every node of a depth (and every tree of a
   forest) at once, one function per step, scoring with the same ``IMPURITY`` functions. Its
   docstring lists the steps; they live in :mod:`core.engine.samples`,
   :mod:`core.engine.blocks`, :mod:`core.engine.scores`, :mod:`core.engine.splits` and
   :mod:`core.engine.assembly`, and ``builder`` names them all. A single tree trying every
   feature grows on :mod:`core.engine.grid`: the same steps, one table per depth.
3. :mod:`core.engine.structure`: a fitted tree as flat arrays, walked by all rows at once.
4. :mod:`core.engine.tree` and :mod:`core.engine.forest`: the estimators (scikit-learn's
   contract); :mod:`core.engine.predict` walks many trees at once; :mod:`core.engine.pruning`
   is cost-complexity pruning; :mod:`core.engine.params` checks hyperparameters.
5. :mod:`core.engine.compat`: the only module that imports scikit-learn (the estimator
   contract: ``BaseEstimator``, input validation, tags); :mod:`core.engine.runtime`: allocator
   tuning, called explicitly where the app and the benchmark start.

Nothing here imports Streamlit or Plotly (``tests/engine/test_engine_imports.py``).
"""

from core.engine.forest import RandomForestClassifier, RandomForestRegressor
from core.engine.tree import DecisionTreeClassifier, DecisionTreeRegressor

__all__ = [
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
    "RandomForestClassifier",
    "RandomForestRegressor",
]
