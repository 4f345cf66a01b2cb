"""Arboretum: decision trees and random forests from scratch, and the figures built on them.

Public surface
--------------
Estimators follow scikit-learn's contract (``fit``/``predict``/``get_params``...):

- :class:`DecisionTreeClassifier`, :class:`DecisionTreeRegressor`
- :class:`RandomForestClassifier`, :class:`RandomForestRegressor`

Where to read how a split is chosen: :mod:`core.engine.criteria` (the formulas, and one feature's
thresholds scored at one node), then :mod:`core.engine.grow` (the loop that grows every tree).
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
