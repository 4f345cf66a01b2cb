"""Server CPU per control change, page by page, without a server: each page run by ``AppTest``.

Run with ``.venv/bin/python -m bench.page_cpu [--pages Single_tree,...] [--profile PAGE]``.

For every page with settings it opens the page once (not counted: imports, first fits), then
makes the page's scripted changes below (slider steps on ``max_depth``, ``n_estimators`` or
``step``, a seed change, a criterion switch...) and measures the CPU each rerun costs. Each
page starts with Streamlit's caches cleared, so its numbers do not depend on the pages before.

Which clock
-----------
``AppTest.run`` hands the script to a thread of its own and waits for it, so the calling
thread's ``time.thread_time`` sees almost nothing of the run. ``time.process_time`` counts
every thread of the process: the script thread's work plus the caller's wait (a blocked
wait costs no CPU). That is the clock used here; ``--check-clock`` prints both for one run.

``--section`` makes moves that keep the page's models instead (:data:`SECTION_CHANGES`: a
sample, the forest's tree, a step, a diagram's size); ``--per-control`` moves each selectbox,
slider, number input and toggle of each page three times and gives the median CPU per control.

One script cache for every run
------------------------------
A server compiles each script once (Streamlit's ``ScriptCache``, emptied only by the file
watcher, which the app serves without). ``AppTest`` makes a new cache for every run, so each
of its reruns would parse the scripts again and rewrite them for "magic" (about 0.04 s a rerun
on this machine, more than half of a cheap move). :func:`shared_script_cache` gives every run
here one cache, as a server has.

``--profile PAGE`` runs that page's changes again under ``cProfile`` installed in the script
thread (``threading.setprofile`` starts the profiler in each new script thread), on that
thread's CPU clock, and prints the functions with the most cumulative time. A follower's run
in class mode has its own benchmark, :mod:`bench.follow_cpu`.

It is a measurement, not a test: nothing fails on a slow machine; the load average is printed.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import functools
import os
import pstats
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit.testing.v1.app_test as app_test_module
import streamlit.testing.v1.local_script_runner as local_runner_module
from streamlit.runtime.scriptrunner.script_cache import ScriptCache
from streamlit.testing.v1 import AppTest

from bench.changes import Change, number, segmented, select, select_slider, slider, toggle
from bench.yardstick import loop_seconds, yardstick_line
from core.app import pages
from core.ui.cached import clear_caches

ROOT = Path(__file__).resolve().parents[1]

#: What a student does on each page: steps up a slider, back, a seed, a criterion.
CHANGES: dict[str, list[Change]] = {
    "Single_tree": [
        select_slider("max_depth", 4),
        select_slider("max_depth", 5),
        select_slider("max_depth", 6),
        number("seed", 1),
        segmented("criterion", "entropy"),
        select_slider("max_depth", 5),
        number("seed", 2),
        segmented("criterion", "gini"),
    ],
    "Random_forest": [
        slider("n_estimators", 101),
        slider("n_estimators", 102),
        slider("n_estimators", 103),
        number("seed", 1),
        select_slider("max_depth", 5),
        segmented("criterion", "entropy"),
        slider("n_estimators", 102),
        number("seed", 2),
    ],
    "Gini_vs_entropy": [
        select_slider("max_depth", 5),
        select_slider("max_depth", 6),
        select_slider("max_depth", 3),
        number("seed", 1),
        slider("min_samples_leaf", 2),
        select_slider("max_depth", 4),
        number("seed", 2),
        select_slider("max_depth", 5),
    ],
    "Grow_it_step_by_step": [
        select_slider("step", 1),
        select_slider("step", 2),
        select_slider("step", 3),
        select_slider("step", 4),
        number("seed", 1),
        segmented("criterion", "entropy"),
        select_slider("max_depth", 3),
        select_slider("step", 2),
    ],
}


#: Moves that leave the page's models as they were: a section's own control (the sample
#: voted on, the forest's tree, the step, a view toggle, a diagram's size). ``--section``.
SECTION_CHANGES: dict[str, list[Change]] = {
    "Single_tree": [
        select("sample", 3),
        select("sample", 7),
        toggle("test_on_tree", True),
        segmented("tree-diagram-size", "whole"),
        segmented("tree-diagram-size", "fit"),
        select("sample", 12),
    ],
    "Random_forest": [
        number("tree", 3),
        number("tree", 4),
        select("sample", 5),
        select("sample", 9),
        toggle("log_trees", True),
        number("tree", 5),
    ],
    "Gini_vs_entropy": [
        segmented("tree-gini-size", "whole"),
        segmented("tree-gini-size", "fit"),
        segmented("tree-entropy-size", "whole"),
        segmented("tree-entropy-size", "fit"),
    ],
    "Grow_it_step_by_step": [
        select_slider("step", 1),
        select_slider("step", 2),
        select_slider("step", 3),
        select_slider("step", 2),
        select("node", 1),
        select("node", 2),
    ],
}


@dataclass(frozen=True)
class PageCpu:
    """The CPU seconds of each counted rerun of one page."""

    page: str
    first: float
    per_change: tuple[float, ...]


@contextlib.contextmanager
def shared_script_cache() -> Iterator[ScriptCache]:
    """Inside, every ``AppTest`` run of this process uses one script cache, as a server's
    runs do; the cache is yielded. Without it each run compiles the page's scripts again, a
    cost a server pays once per script (see the module's notes)."""
    shared = ScriptCache()
    modules = (app_test_module, local_runner_module)
    before = [module.ScriptCache for module in modules]
    for module in modules:
        module.ScriptCache = lambda: shared  # type: ignore[attr-defined]
    try:
        yield shared
    finally:
        for module, original in zip(modules, before, strict=True):
            module.ScriptCache = original  # type: ignore[attr-defined]


def _clear_caches() -> None:
    clear_caches()


def _check(app: AppTest, what: str) -> None:
    if app.exception:
        raise RuntimeError(f"{what}: {[e.value for e in app.exception]}")


def measure(page: str, changes: dict[str, list[Change]] = CHANGES) -> PageCpu:
    """Open ``page``, make its ``changes``, and time each run on the process's CPU clock."""
    path = ROOT / next(p.path for p in pages.PAGES if p.url_path == page)
    _clear_caches()
    app = AppTest.from_file(str(path), default_timeout=300)
    start = time.process_time()
    app.run()
    first = time.process_time() - start
    _check(app, f"{page} first run")
    spent = []
    for label, change in changes[page]:
        change(app)
        start = time.process_time()
        app.run()
        spent.append(time.process_time() - start)
        _check(app, f"{page} {label}")
    return PageCpu(page, first, tuple(spent))


def check_clock(page: str) -> None:
    """Print what each clock sees of one rerun: only the process clock sees the script."""
    path = ROOT / next(p.path for p in pages.PAGES if p.url_path == page)
    app = AppTest.from_file(str(path), default_timeout=300).run()
    label, change = CHANGES[page][0]
    change(app)
    thread0, process0, wall0 = time.thread_time(), time.process_time(), time.perf_counter()
    app.run()
    print(
        f"{page} {label}: thread_time {time.thread_time() - thread0:.3f} s, "
        f"process_time {time.process_time() - process0:.3f} s, "
        f"wall {time.perf_counter() - wall0:.3f} s"
    )


def profile_script(profiler: cProfile.Profile, *_: Any) -> None:
    """A ``threading.setprofile`` hook: profile the new thread if it runs the script.

    Runs once, at the thread's first event; the C profiler, once started, replaces it. A
    spinner's timer thread is left out: its waits would count as the script's.
    """
    if threading.current_thread().name == "ScriptRunner.scriptThread":
        profiler.enable()


def new_profiler() -> cProfile.Profile:
    """A profiler on the thread's CPU clock: on the wall clock, a function that held the
    interpreter while another thread ran (``AppTest``'s own waiting) was charged its time."""
    return cProfile.Profile(time.thread_time)


def profile(page: str, top: int, changes: dict[str, list[Change]] = CHANGES) -> None:
    """Run ``page``'s changes with cProfile in the script thread; print the top functions."""
    path = ROOT / next(p.path for p in pages.PAGES if p.url_path == page)
    _clear_caches()
    app = AppTest.from_file(str(path), default_timeout=300).run()
    profiler = new_profiler()
    threading.setprofile(functools.partial(profile_script, profiler))
    try:
        for _, change in changes[page]:
            change(app)
            app.run()
    finally:
        threading.setprofile(None)
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(top)


#: The widget kinds ``--per-control`` moves. Select sliders and segmented buttons hold values
#: AppTest can only set by value, not by position, so they are left to :data:`CHANGES`
#: (``max_depth``, ``criterion``, ``step``).
_MOVABLE = ("selectbox", "slider", "number_input", "toggle")


def _move(widget: Any) -> None:
    """Move ``widget`` next to what it shows: the option after it, one step up (or back to the
    lowest at the top), the other side of a toggle; as a student's next move would be."""
    kind = type(widget).__name__
    if kind == "Toggle":
        widget.set_value(not widget.value)
    elif kind == "Selectbox":
        widget.select_index(((widget.index or 0) + 1) % len(widget.options))
    else:  # Slider, NumberInput
        step = widget.step or 1
        high = widget.max if widget.max is not None else widget.value + step
        widget.set_value(widget.value + step if widget.value + step <= high else widget.min)


def per_control(page: str, moves: int = 3) -> dict[str, float]:
    """The median CPU of moving each of ``page``'s controls ``moves`` times, by widget key."""
    path = ROOT / next(p.path for p in pages.PAGES if p.url_path == page)
    _clear_caches()
    app = AppTest.from_file(str(path), default_timeout=300).run()
    _check(app, f"{page} first run")
    costs: dict[str, float] = {}
    keys = [
        (kind, w.key)
        for kind in _MOVABLE
        for w in getattr(app, kind)
        if w.key and not w.key.startswith(("class-", "$$"))
    ]
    for kind, key in keys:
        spent = []
        for _ in range(moves):
            try:
                widget = getattr(app, kind)(key=key)
            except KeyError:  # gone after an earlier move (a view closed)
                break
            if getattr(widget.proto, "disabled", False):
                break
            _move(widget)
            start = time.process_time()
            app.run()
            spent.append(time.process_time() - start)
            _check(app, f"{page} {key}")
        if spent:
            costs[key] = statistics.median(spent)
    return costs


def table(results: list[PageCpu]) -> str:
    """The results as a Markdown table."""
    lines = [
        "| page | changes | first open | median CPU / change | mean CPU / change | max |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in results:
        lines.append(
            f"| {r.page.replace('_', ' ')} | {len(r.per_change)} | {r.first:.2f} s "
            f"| {statistics.median(r.per_change):.3f} s | {statistics.fmean(r.per_change):.3f} s "
            f"| {max(r.per_change):.3f} s |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", default=",".join(CHANGES), help="comma-separated url paths")
    parser.add_argument("--profile", metavar="PAGE", help="profile this page's changes")
    parser.add_argument("--top", type=int, default=40, help="rows of the profile")
    parser.add_argument("--check-clock", metavar="PAGE", help="compare the clocks on one run")
    parser.add_argument("--verbose", action="store_true", help="every change's CPU")
    parser.add_argument(
        "--section", action="store_true", help="moves that keep the models (SECTION_CHANGES)"
    )
    parser.add_argument(
        "--per-control", action="store_true", help="each control of each page, moved 3 times"
    )
    args = parser.parse_args(argv)
    with shared_script_cache():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    changes = SECTION_CHANGES if args.section else CHANGES
    if args.check_clock:
        check_clock(args.check_clock)
        return 0
    if args.profile:
        profile(args.profile, args.top, changes)
        return 0
    if args.per_control:
        print("| page | control | median CPU / move |\n| --- | --- | ---: |")
        for page in args.pages.split(","):
            for key, cpu in sorted(per_control(page).items(), key=lambda kv: -kv[1]):
                print(f"| {page.replace('_', ' ')} | `{key}` | {cpu:.3f} s |")
        _print_machine()
        return 0
    results = []
    for page in args.pages.split(","):
        result = measure(page, changes)
        results.append(result)
        if args.verbose:
            for (label, _), cpu in zip(changes[page], result.per_change, strict=True):
                print(f"{page} {label}: {cpu:.3f} s", file=sys.stderr)
    print(table(results))
    _print_machine()
    return 0


def _print_machine() -> None:
    """How busy and how fast the machine was: its load average and the yardstick."""
    print(f"\nload average {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores")
    print(yardstick_line(loop_seconds()))


if __name__ == "__main__":
    sys.exit(main())
