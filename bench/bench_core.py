"""Speed of Arboretum's trees and forests, as ratios against scikit-learn in the same run.

Run with ``make bench`` (or ``python -m bench.bench_core [--quick] [--repeats N]``). Each case
times our estimator and scikit-learn's (``n_jobs=1``) alternately, on the same data in the same
process, and reports the median time of each and the ratio ours / scikit-learn: below 1.0 we
are faster. Interleaving means a busy machine slows both sides alike.

What is timed is what ``import core`` gives a library user: no process settings are changed
first (the app tunes glibc's allocator where it starts, :mod:`core.engine.runtime`; a library
user's program does not).

This is a measurement, not a test: nothing here fails on a slow machine. The targets from the
engine issue are printed beside each ratio for reference.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from sklearn import ensemble as sk_ensemble
from sklearn import tree as sk_tree
from sklearn.datasets import make_classification

from core import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from core.data.catalogue import load_dataset


@dataclass(frozen=True)
class Case:
    """One timed comparison: build both estimators, then time ``run`` on each."""

    name: str
    target: float
    ours: Callable[[], Any]
    theirs: Callable[[], Any]


@dataclass(frozen=True)
class Result:
    name: str
    ours_ms: float
    theirs_ms: float
    target: float

    @property
    def ratio(self) -> float:
        return self.ours_ms / self.theirs_ms


def _time(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1e3


def measure(case: Case, repeats: int) -> Result:
    """Alternate our run and theirs ``repeats`` times (after one warm-up each); medians."""
    case.ours()
    case.theirs()
    ours, theirs = [], []
    for _ in range(repeats):
        ours.append(_time(case.ours))
        theirs.append(_time(case.theirs))
    return Result(case.name, float(np.median(ours)), float(np.median(theirs)), case.target)


def _fit(model: Any, X: np.ndarray, y: np.ndarray) -> Callable[[], Any]:
    return lambda: model.fit(X, y)


def _data() -> dict[str, tuple[np.ndarray, np.ndarray, bool]]:
    """name -> (X, y, is_classification)."""
    sets: dict[str, tuple[np.ndarray, np.ndarray, bool]] = {}
    for name in ("iris", "wine", "breast_cancer", "sine"):
        ds = load_dataset(name)
        sets[name] = (ds.X, ds.y, ds.task == "classification")
    X, y = make_classification(n_samples=5000, n_features=20, random_state=0)
    sets["5000x20"] = (X, y, True)
    # The largest upload the app accepts.
    X, y = make_classification(n_samples=20_000, n_features=20, random_state=0)
    sets["20000x20"] = (X, y, True)
    return sets


def cases(quick: bool) -> list[Case]:
    """Every comparison the engine issue sets a target for."""
    out: list[Case] = []
    data = _data()
    for name, (X, y, clf) in data.items():
        if name == "20000x20":
            continue  # only a forest target at this size
        for depth in (None, 5):
            ours = DecisionTreeClassifier if clf else DecisionTreeRegressor
            theirs = sk_tree.DecisionTreeClassifier if clf else sk_tree.DecisionTreeRegressor
            target = 0.7 if name == "5000x20" else 1.0
            out.append(
                Case(
                    f"tree fit      {name:14s} max_depth={depth}",
                    target,
                    _fit(ours(max_depth=depth, random_state=0), X, y),
                    _fit(theirs(max_depth=depth, random_state=0), X, y),
                )
            )
    for name, (X, y, clf) in data.items():
        if quick and name in ("5000x20", "20000x20"):
            continue
        forest = RandomForestClassifier if clf else RandomForestRegressor
        sk_forest = sk_ensemble.RandomForestClassifier if clf else sk_ensemble.RandomForestRegressor
        out.append(
            Case(
                f"forest fit    {name:14s} 100 trees",
                0.6 if name in ("5000x20", "20000x20") else 0.2,
                _fit(forest(100, random_state=0), X, y),
                _fit(sk_forest(100, random_state=0, n_jobs=1), X, y),
            )
        )
    # The decision-boundary grid: a forest on two iris features, predicted on 200 x 200 points.
    iris = load_dataset("iris")
    X2 = iris.X[:, :2]
    ours_f = RandomForestClassifier(100, random_state=0).fit(X2, iris.y)
    theirs_f = sk_ensemble.RandomForestClassifier(100, random_state=0, n_jobs=1).fit(X2, iris.y)
    gx, gy = np.meshgrid(
        np.linspace(X2[:, 0].min() - 0.5, X2[:, 0].max() + 0.5, 200),
        np.linspace(X2[:, 1].min() - 0.5, X2[:, 1].max() + 0.5, 200),
    )
    grid = np.column_stack([gx.ravel(), gy.ravel()])
    out.append(
        Case(
            "forest predict_proba  200x200 grid, 100 trees",
            1.0,
            lambda: ours_f.predict_proba(grid),
            lambda: theirs_f.predict_proba(grid),
        )
    )
    # Arbitrary rows with many features: no two rows share a cell, so every row is walked.
    bc = load_dataset("breast_cancer")
    ours_b = RandomForestClassifier(100, random_state=0).fit(bc.X, bc.y)
    theirs_b = sk_ensemble.RandomForestClassifier(100, random_state=0, n_jobs=1).fit(bc.X, bc.y)
    rows = np.random.default_rng(0).normal(bc.X.mean(0), bc.X.std(0), size=(5000, bc.X.shape[1]))
    out.append(
        Case(
            "forest predict_proba  5000 random breast-cancer rows (no grid)",
            1.0,
            lambda: ours_b.predict_proba(rows),
            lambda: theirs_b.predict_proba(rows),
        )
    )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15, help="timed runs per side (median)")
    parser.add_argument("--quick", action="store_true", help="skip the slowest cases")
    parser.add_argument("--only", default="", help="run the cases whose name contains this")
    args = parser.parse_args(argv)
    print(f"{'case':62s} {'ours ms':>9s} {'sklearn ms':>10s} {'ratio':>6s} {'target':>7s}")
    worst_miss = 0
    for case in cases(args.quick):
        if args.only not in case.name:
            continue
        repeats = max(3, args.repeats // 3) if "forest fit" in case.name else args.repeats
        if "20000x20" in case.name:
            repeats = 3
        r = measure(case, repeats)
        flag = "" if np.isnan(r.target) else ("ok" if r.ratio <= r.target else "MISS")
        worst_miss += flag == "MISS"
        target = "" if np.isnan(r.target) else f"<={r.target:.1f}"
        print(
            f"{r.name:62s} {r.ours_ms:9.2f} {r.theirs_ms:10.2f} {r.ratio:6.2f} {target:>7s} {flag}",
            flush=True,
        )
    print(f"\n{worst_miss} case(s) above target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
