"""scikit-learn's own API conformance checks, one test per check and estimator.

The only checks allowed to fail are those scikit-learn expects to fail on its own tree or
forest of the same name (its table of known failures, read below); nothing is skipped here.
"""

from __future__ import annotations

from typing import Any

import sklearn.ensemble
import sklearn.tree
from conftest import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.utils.estimator_checks import parametrize_with_checks

try:  # scikit-learn's private table of the checks its own estimators are known to fail
    from sklearn.utils._test_common.instance_generator import _get_expected_failed_checks
except ImportError:  # moved or gone: then every check must pass

    def _get_expected_failed_checks(estimator: Any) -> dict[str, str]:
        return {}


def sklearn_expected_failures(estimator: Any) -> dict[str, str]:
    """The known failures scikit-learn lists for its own estimator of the same name."""
    name = type(estimator).__name__
    module = sklearn.ensemble if name.startswith("RandomForest") else sklearn.tree
    theirs = getattr(module, name)(**estimator.get_params())
    return _get_expected_failed_checks(theirs)


def estimators() -> list[Any]:
    # A missing estimator fails at collection, where it is plain to see.
    return [
        DecisionTreeClassifier(random_state=0),
        DecisionTreeRegressor(random_state=0),
        RandomForestClassifier(n_estimators=5, random_state=0),
        RandomForestRegressor(n_estimators=5, random_state=0),
    ]


@parametrize_with_checks(estimators(), expected_failed_checks=sklearn_expected_failures)
def test_sklearn_estimator_checks(estimator: Any, check: Any) -> None:
    check(estimator)
