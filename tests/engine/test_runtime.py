"""core.engine.runtime: the allocator tuning changes speed only, never a result.

Each side runs in its own process: glibc's settings are process-wide, so the untuned run must
never have been tuned.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FIT_AND_DESCRIBE = """
import hashlib, json, sys
import numpy as np
if sys.argv[1] == "tuned":
    from core.engine.runtime import tune_allocator
    applied = tune_allocator()
else:
    applied = None
from core import DecisionTreeRegressor, RandomForestClassifier
from core.engine import runtime

rng = np.random.default_rng(0)
X, y = rng.normal(size=(400, 6)), rng.integers(0, 3, 400)
forest = RandomForestClassifier(30, random_state=0).fit(X, y)
tree = DecisionTreeRegressor(max_depth=6).fit(X, X[:, 0] + rng.normal(size=400))
digest = hashlib.sha256()
for estimator in [*forest.estimators_, tree]:
    for name in ("children_left", "feature", "threshold", "impurity", "value"):
        digest.update(np.ascontiguousarray(getattr(estimator.tree_, name)).tobytes())
digest.update(forest.predict_proba(X).tobytes())
print(json.dumps({"applied": applied, "calls": runtime.tune_allocator.cache_info().currsize,
                  "digest": digest.hexdigest()}))
"""


def run(mode: str) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", FIT_AND_DESCRIBE, mode],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout)


def test_results_are_identical_with_and_without_the_tuning() -> None:
    untuned, tuned = run("plain"), run("tuned")
    assert untuned["calls"] == 0  # importing and using the engine tunes nothing by itself
    assert tuned["calls"] == 1
    assert untuned["digest"] == tuned["digest"]


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt is glibc's")
def test_settings_apply_on_glibc() -> None:
    assert run("tuned")["applied"] is True


COUNT_ARENAS = """
import ctypes, ctypes.util, sys, threading
if sys.argv[1] == "tuned":
    from core.engine.runtime import tune_allocator
    tune_allocator()
import numpy as np

# Twelve threads allocate while all of them are alive, as a class's sessions do.
barrier = threading.Barrier(12)
kept = []

def session():
    kept.append(np.ones(50_000))
    barrier.wait()

threads = [threading.Thread(target=session) for _ in range(12)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
ctypes.CDLL(ctypes.util.find_library("c")).malloc_stats()  # "Arena N:" per arena, on stderr
"""


def arenas(mode: str, env: dict[str, str] | None = None) -> int:
    result = subprocess.run(
        [sys.executable, "-c", COUNT_ARENAS, mode],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"} | (env or {}),
    )
    return result.stderr.count("Arena ")


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="arenas are glibc's")
def test_threads_share_at_most_arena_max_arenas_when_tuned() -> None:
    from core.engine.runtime import ARENA_MAX

    assert arenas("plain") > ARENA_MAX + 2  # glibc's default gives threads their own
    assert 1 <= arenas("tuned") <= ARENA_MAX


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="arenas are glibc's")
def test_malloc_arena_max_in_the_environment_wins() -> None:
    assert arenas("tuned", {"MALLOC_ARENA_MAX": "4"}) > 2
