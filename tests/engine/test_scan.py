"""core.engine.scan: one feature's splits at one node, scored by hand."""

from __future__ import annotations

import pytest
from numpy.testing import assert_allclose

from core.engine.scan import scan_feature


def test_scan_feature_by_hand() -> None:
    scan = scan_feature([1, 2, 3, 4], [0, 0, 1, 1], criterion="gini")
    assert_allclose(scan.thresholds, [1.5, 2.5, 3.5])
    # left {0}, right {0, 1, 1}: 3/4 * (1 - 5/9) = 1/3; then 0; then 1/3 again
    assert_allclose(scan.child_impurity, [1 / 3, 0.0, 1 / 3], atol=1e-15)
    assert scan.best_threshold == 2.5
    assert scan.parent_impurity == 0.5


def test_scan_feature_squared_error_by_hand() -> None:
    scan = scan_feature([1, 2, 3, 4], [1.0, 1.0, 5.0, 5.0], criterion="squared_error")
    assert scan.best_threshold == 2.5
    assert scan.best_impurity == pytest.approx(0.0, abs=1e-15)
    assert scan.parent_impurity == pytest.approx(4.0)  # mean 3, every deviation 2
