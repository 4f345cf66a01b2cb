"""Speed of Arboretum's trees and forests, as ratios against scikit-learn in the same run.

Run with ``make bench`` (or ``python -m bench.bench_core [--quick] [--repeats N] [--only TEXT]
[--json PATH]``). Each case (:mod:`bench.core_cases`: the engine issue's cases and targets)
times our estimator and a reference alternately, on the same data in the same process, and
reports the median time of each and the ratio ours / reference: below 1.0 we are faster.
Interleaving means a busy machine slows both sides alike.

What is timed is what a library user gets: ``import core``, then ``fit`` or ``predict_proba``
as a user calls them, input checks included. No process settings are changed first.

This is a measurement, not a test: nothing here fails on a slow machine. ``--json`` writes the
printed rows (and the versions above the table) for a note or a README table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import sklearn

from bench.core_cases import Case, Run, cases

#: Timed runs per side for a case of seconds per run (the forests on 5000 and more rows).
BIG_REPEATS = 3


@dataclass(frozen=True)
class Result:
    """Median times of one case, in milliseconds."""

    name: str
    ours_ms: float
    theirs_ms: float
    target: float | None

    @property
    def ratio(self) -> float:
        """ours / reference: below 1.0 we are faster."""
        return self.ours_ms / self.theirs_ms

    @property
    def ok(self) -> bool | None:
        """Whether the ratio meets the target; None for a case without one."""
        return None if self.target is None else self.ratio <= self.target

    def as_dict(self) -> dict[str, Any]:
        """The row ``--json`` writes."""
        return {
            "name": self.name,
            "ours_ms": self.ours_ms,
            "theirs_ms": self.theirs_ms,
            "ratio": self.ratio,
            "target": self.target,
            "ok": self.ok,
        }


def _time_ms(run: Run) -> float:
    start = time.perf_counter()
    run()
    return (time.perf_counter() - start) * 1e3


def measure(case: Case, repeats: int) -> Result:
    """Time one case: our run and the reference's, alternately.

    Parameters
    ----------
    case : Case
        Its ``prepare`` builds the data and both estimators (not timed).
    repeats : int
        Timed runs per side, after one untimed warm-up each (numba compiles, or loads its
        cache, on a first call).

    Returns
    -------
    Result
        The median of each side's runs.
    """
    ours, theirs = case.prepare()
    ours()
    theirs()
    ours_ms, theirs_ms = [], []
    for _ in range(repeats):
        ours_ms.append(_time_ms(ours))
        theirs_ms.append(_time_ms(theirs))
    return Result(case.name, float(np.median(ours_ms)), float(np.median(theirs_ms)), case.target)


def environment() -> dict[str, Any]:
    """The versions and settings that change the numbers."""
    versions = {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scikit-learn": sklearn.__version__,
    }
    try:
        import numba
    except ImportError:
        pass  # the engine before numba: nothing to report
    else:
        versions["numba"] = numba.__version__
    return {
        "versions": versions,
        "cpus": os.cpu_count(),
        "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE"),
    }


def format_row(result: Result, width: int) -> str:
    """One line of the printed table: name (padded to ``width``), both medians in ms, the
    ratio, the target and "ok" or "MISS" (nothing for a case without a target)."""
    target = "" if result.target is None else f"<={result.target:.1f}"
    flag = {None: "", True: "ok", False: "MISS"}[result.ok]
    return (
        f"{result.name:{width}s} {result.ours_ms:10.2f} {result.theirs_ms:10.2f} "
        f"{result.ratio:6.2f} {target:>6s} {flag}"
    ).rstrip()


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"--repeats must be at least 1, got {value}")
    return value


def main(argv: list[str] | None = None) -> int:
    """Run the selected cases and print a table; the exit status.

    Parameters
    ----------
    argv : list of str or None, default None
        The command line without the program's name; None reads ``sys.argv``.

    Returns
    -------
    int
        0: a measurement never fails, whatever the ratios.
    """
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeats", type=_positive, default=15, help="timed runs per side")
    parser.add_argument("--quick", action="store_true", help="leave out the cases of seconds")
    parser.add_argument("--only", default="", help="run the cases whose name contains this")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    args = parser.parse_args(argv)
    start = time.perf_counter()

    env = environment()
    print(", ".join(f"{name} {version}" for name, version in env["versions"].items()))
    coretype = env["OPENBLAS_CORETYPE"]
    coretype_text = "not set" if coretype is None else f"= {coretype!r}"
    print(f"{env['cpus']} CPUs; OPENBLAS_CORETYPE {coretype_text}")
    selected = [c for c in cases() if args.only in c.name and not (args.quick and c.big)]
    width = max([len(c.name) for c in selected] + [4])
    print(f"\n{'case':{width}s} {'ours ms':>10s} {'ref ms':>10s} {'ratio':>6s} {'target':>6s}")
    results: list[Result] = []
    skipped: list[dict[str, str]] = []
    for case in selected:
        if case.skipped:
            print(f"{case.name:{width}s} skipped: {case.skipped}", flush=True)
            skipped.append({"name": case.name, "reason": case.skipped})
            continue
        repeats = min(args.repeats, BIG_REPEATS) if case.big else args.repeats
        results.append(measure(case, repeats))
        print(format_row(results[-1], width), flush=True)

    misses = sum(r.ok is False for r in results)
    wall_s = time.perf_counter() - start
    print(f"\n{misses} of {len(results)} case(s) above target, {len(skipped)} skipped")
    print(f"total wall time {wall_s:.1f} s")
    if args.json is not None:
        report = {
            **env,
            "argv": list(sys.argv[1:] if argv is None else argv),
            "wall_s": wall_s,
            "results": [r.as_dict() for r in results],
            "skipped": skipped,
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
