"""Arboretum's engine: decision trees and random forests in NumPy, and the figures built on them.

Public surface
--------------
Estimators follow scikit-learn's contract (``fit``/``predict``/``get_params``...):

- :class:`DecisionTreeClassifier`, :class:`DecisionTreeRegressor`
- :class:`RandomForestClassifier`, :class:`RandomForestRegressor`

Where to read how a split is chosen: :mod:`core.engine.criteria` (one feature, one node, plainly),
then :mod:`core.engine.builder` (every node of a depth at once).
"""

from core.engine import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)

__all__ = [
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
    "RandomForestClassifier",
    "RandomForestRegressor",
]
