"""Arboretum's engine: decision trees and random forests in NumPy, and the figures built on them.

Public surface
--------------
Estimators follow scikit-learn's contract (``fit``/``predict``/``get_params``...):

- :class:`DecisionTreeClassifier`, :class:`DecisionTreeRegressor`
- :class:`RandomForestClassifier`, :class:`RandomForestRegressor`
"""
