"""core.engine.runtime: the allocator settings apply on glibc and are harmless to repeat."""

import platform

import numpy as np
import pytest

from core import RandomForestClassifier
from core.engine.runtime import tune_allocator


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt is glibc's")
def test_settings_apply_on_glibc() -> None:
    tune_allocator.cache_clear()
    assert tune_allocator() is True
    assert tune_allocator() is True  # cached: the second call does nothing


def test_results_do_not_depend_on_the_allocator() -> None:
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(300, 5)), rng.integers(0, 2, 300)
    before = RandomForestClassifier(20, random_state=0).fit(X, y).predict_proba(X)
    tune_allocator()
    after = RandomForestClassifier(20, random_state=0).fit(X, y).predict_proba(X)
    np.testing.assert_array_equal(before, after)
