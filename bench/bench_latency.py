"""Latency of the live app: from a slider change to the updated page, in headless Chromium.

Run with ``make bench-latency`` (or ``python -m bench.bench_latency [--steps N] [--verbose]``).
It starts its own Streamlit servers, drives them with Playwright in Debian's Chromium
(``/usr/bin/chromium``, or ``ARBORETUM_CHROMIUM``), and prints a table. It is a measurement,
not a test: nothing fails on a slow machine, and the load average is printed beside the numbers.

Cases
-----
- ``floor``: Streamlit's own floor, a page that does nothing but read a slider and echo it,
  written to a temporary directory and served the same way. Read the others against it.
- ``page-floor``: Streamlit alone drawing a page of the Single tree's shape, its element count
  and one chart like its boundary drawn anew at every change (:mod:`bench.latency_floors`): what
  of a page's time is Streamlit's own for a page of this kind, whatever the app does.
- ``single-tree``: the Single tree page on breast cancer, walking ``max_depth``.
- ``random-forest``: the Random forest page at 100 trees (iris, its default view), walking
  ``n_estimators``.
- ``random-forest-depth`` (only when asked for): the Random forest page at 100 trees on
  breast cancer, walking ``max_depth``; every new depth also fits the 500-tree forest behind
  the score curve.

Each page is measured beside the floor: the floor's server runs for the whole benchmark, both
pages are open, and the changes alternate, one on the floor's page, one on the case's. The
table gives the floor's median over the changes made beside each case and the case's ratio to
it: on a shared machine the load moves from minute to minute, and a page run needs many times
the floor's CPU, so only a floor measured at the same time says how far the page is from it.

Each case opens its page, then presses ArrowRight ``--steps`` times on the slider, ArrowLeft
as many times, and ArrowRight once more (15 changes by default): ``max_depth`` 1..8..1..2,
``n_estimators`` 100..107..100..101. The way up meets new settings, so the server has to fit
a model; the way back may find it in Streamlit's caches. Whether it did is not guessed: the
benchmark's server counts every ``fit`` of a tree or forest (outermost calls only, so a forest
counts once), and a change that fitted nothing was served from cache.

What "updated" means
--------------------
Both ends are read from the page's own clock (``performance.now``), so Playwright's round
trips are not counted.

- Start: the ``timeStamp`` of the slider's ``keydown`` event.
- End: the first animation frame after all of these hold at once:

  1. the watched element's inner HTML differs from what it was before the key press (the
     tree diagram's SVG, the forest boundary's title, the floor's echo);
  2. the script is no longer running: ``data-test-script-state="notRunning"`` on ``stApp``;
  3. no element is stale (``data-stale="true"``): everything the new run sent is in the DOM;
  4. no status widget (``[data-testid="stStatusWidget"]``) is shown.

Why (2) and not the status widget alone: Streamlit shows that widget only after a run has
lasted 500 ms, so it says nothing about short runs. And why (3): the script state turns to
``notRunning`` before the last elements are drawn. Plotly charts other than the watched one
may still be drawing their last frame at the end.

``--verbose`` prints every change, with when the page saw the script start and finish. The
finish is not the server's share of the time: the browser applies a run's messages in order,
so it sees the finish only after drawing most of what came before.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.latency_floors import write_script
from bench.latency_server import Server
from tests.live_app import (
    ROOT,
    SETTLED_FN,
    VIEWPORT,
    chromium_path,
    launch_chromium,
)

OPEN_TIMEOUT_MS = 120_000
CHANGE_TIMEOUT_MS = 60_000
PAUSE_S = 0.3  # between changes, so the last one's stragglers do not land in the next

# A page is settled when its run is over and every element of it is drawn.
SETTLED_JS = f"""
(selectors) => {{
  {SETTLED_FN}
  return settled(selectors);
}}
"""

# Armed before each key press; fills window.__latency with page-clock times (ms):
# start (keydown), runStart (script state leaves notRunning), runEnd (back to notRunning),
# end (the updated page's frame).
ARM_JS = """
(selector) => {
  const app = document.querySelector('[data-testid="stApp"]');
  const before = document.querySelector(selector)?.innerHTML ?? null;
  const result = { start: null, runStart: null, runEnd: null, end: null, sawStatus: false };
  window.__latency = result;
  document.addEventListener("keydown", (event) => { result.start = event.timeStamp; },
                            { capture: true, once: true });
  const check = () => {
    if (result.start === null) return;
    const running = app.dataset.testScriptState !== "notRunning";
    if (running && result.runStart === null) result.runStart = performance.now();
    if (!running && result.runStart !== null && result.runEnd === null) {
      result.runEnd = performance.now();
    }
    if (document.querySelector('[data-testid="stStatusWidget"]')) result.sawStatus = true;
    if (running || result.end !== null) return;
    if (document.querySelector('[data-stale="true"], [data-testid="stStatusWidget"]')) return;
    const element = document.querySelector(selector);
    if (element === null || element.innerHTML === before) return;
    observer.disconnect();
    requestAnimationFrame(() => { result.end = performance.now(); });
  };
  const observer = new MutationObserver(check);
  observer.observe(document.documentElement,
                   { subtree: true, childList: true, attributes: true, characterData: true });
}
"""


# The change is measured, or its run ended long ago without changing the watched element.
OVER_JS = """
() => window.__latency.end !== null
  || (window.__latency.runEnd !== null && performance.now() - window.__latency.runEnd > 5000)
"""


@dataclass(frozen=True)
class Case:
    """One page, one slider, and the element that must change when it moves."""

    name: str
    label: str
    path: str  # with its query: the page in its starting state
    slider: str  # widget key
    watch: str  # CSS selector of the element that must change
    ready: tuple[str, ...]  # selectors that exist once the page is drawn
    # The goal, in floors measured beside the case (the machine's speed moves, the ratio
    # holds); None: printed only.
    target_ratio: float | None
    script: str = ""  # serve this one of bench.latency_floors' scripts instead of the app

    @property
    def floor(self) -> bool:
        """Whether this is Streamlit's floor, the page every other case is measured beside."""
        return self.script == "floor"


CASES = (
    Case(
        "floor",
        "Streamlit floor · one slider, echoed",
        "/",
        "value",
        ".st-key-echo",
        (".st-key-echo",),
        None,
        script="floor",
    ),
    Case(
        "page-floor",
        "Streamlit alone · Single tree's elements, a boundary",
        "/",
        "value",
        ".st-key-echo",
        (".st-key-echo", ".st-key-chart .main-svg"),
        None,
        script="page-floor",
    ),
    Case(
        "single-tree",
        "Single tree · breast cancer · max_depth",
        "/Single_tree?dataset=breast_cancer&max_depth=1",
        "max_depth",
        ".st-key-tree-diagram",
        (".st-key-tree-diagram svg", ".st-key-boundary-chart .main-svg"),
        4.5,  # 150 ms over the 33 ms floor the issue measured
    ),
    Case(
        "random-forest",
        "Random forest · iris, 100 trees · n_estimators",
        "/Random_forest?dataset=iris&n_estimators=100",
        "n_estimators",
        ".st-key-boundary .gtitle",
        (".st-key-tree-diagram svg", ".st-key-boundary .gtitle", ".st-key-votes .main-svg"),
        7.5,  # 250 ms over that floor
    ),
    Case(
        "random-forest-depth",
        "Random forest · breast cancer, 100 trees · max_depth",
        # Breast cancer's trees keep growing past depth 8; iris's stop changing at about 5.
        "/Random_forest?dataset=breast_cancer&n_estimators=100&max_depth=1",
        "max_depth",
        ".st-key-tree-diagram",
        (".st-key-tree-diagram svg", ".st-key-boundary .gtitle", ".st-key-votes .main-svg"),
        None,
    ),
)
DEFAULT_CASES = ("floor", "page-floor", "single-tree", "random-forest")


@dataclass(frozen=True)
class Change:
    """One measured slider change."""

    value: str  # what the slider shows afterwards
    ms: float
    # When the page saw the script start and finish. Not the server's share: the browser
    # applies a run's messages in order, so the finish is seen after most of the drawing.
    run_start_ms: float
    run_end_ms: float
    fits: int  # models the server fitted during it; 0 means served from cache
    saw_status: bool


# --- measuring ---------------------------------------------------------------------------------


def walk(steps: int) -> list[str]:
    """Keys to press: up ``steps`` times, back down as many, and up once more."""
    return ["ArrowRight"] * steps + ["ArrowLeft"] * steps + ["ArrowRight"]


class Session:
    """One case's page, open in its own browser context, changed one key press at a time."""

    def __init__(self, browser: Any, server: Server, case: Case) -> None:
        self.server, self.case = server, case
        self.context = browser.new_context(viewport=VIEWPORT)
        self.page = self.context.new_page()
        self.page.goto(server.url + case.path)
        self.page.wait_for_function(SETTLED_JS, arg=list(case.ready), timeout=OPEN_TIMEOUT_MS)
        _check_healthy(self.page, case)
        self.thumb = self.page.locator(f'.st-key-{case.slider} input[type="range"]')

    def change(self, key: str) -> Change:
        """Press ``key`` on the slider and time the page's answer."""
        page, case, thumb = self.page, self.case, self.thumb
        time.sleep(PAUSE_S)
        page.wait_for_function(SETTLED_JS, arg=list(case.ready), timeout=CHANGE_TIMEOUT_MS)
        shown = thumb.get_attribute("aria-valuetext")
        fits = self.server.fits()
        thumb.focus()
        page.evaluate(ARM_JS, case.watch)
        thumb.press(key)
        page.wait_for_function(OVER_JS, timeout=CHANGE_TIMEOUT_MS)
        result = page.evaluate("() => window.__latency")
        if result["end"] is None:
            _check_healthy(page, case)
            raise RuntimeError(f"{case.name}: the run after {key} left {case.watch} unchanged")
        value = thumb.get_attribute("aria-valuetext") or ""
        if value == shown:
            raise RuntimeError(f"{case.name}: {key} did not move {case.slider} from {shown}")
        _check_healthy(page, case)
        # A run too short for its states to be seen apart counts as ending with the page.
        start, end = float(result["start"]), float(result["end"])
        run_start = float(result["runStart"] if result["runStart"] is not None else end)
        run_end = float(result["runEnd"] if result["runEnd"] is not None else end)
        return Change(
            value,
            end - start,
            run_start - start,
            run_end - start,
            self.server.fits() - fits,
            bool(result["sawStatus"]),
        )

    def close(self) -> None:
        self.context.close()


def measure(browser: Any, sessions: list[tuple[Server, Case]], steps: int) -> list[list[Change]]:
    """Walk every session's slider, one change of each in turn: side by side, a busy machine
    slows them alike, and the ratios between them hold."""
    opened = [Session(browser, server, case) for server, case in sessions]
    try:
        changes: list[list[Change]] = [[] for _ in opened]
        for key in walk(steps):
            for session, measured in zip(opened, changes, strict=True):
                measured.append(session.change(key))
        return changes
    finally:
        for session in opened:
            session.close()


def _check_healthy(page: Any, case: Case) -> None:
    problems = page.locator('[data-testid="stException"]').all_inner_texts()
    problems += [
        text
        for text in page.locator('[data-testid="stAlert"]').all_inner_texts()
        if "could not show" in text
    ]
    if problems:
        raise RuntimeError(f"{case.name}: the page shows {problems}")


# --- reporting ---------------------------------------------------------------------------------


def p90(values: list[float]) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=10, method="inclusive")[-1]


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values):7.0f}" if values else f"{'-':>7s}"


COLUMNS = (
    ("case", "", 52),
    ("target", "x floor", 7),
    ("median", "ms", 7),
    ("p90", "ms", 7),
    ("fit/hit", "", 7),
    ("fitted", "median", 7),
    ("cached", "median", 7),
    ("floor", "median", 7),
    ("ratio", "x floor", 7),
)


def header() -> str:
    top = " ".join(f"{name:{'<' if i == 0 else '>'}{w}s}" for i, (name, _, w) in enumerate(COLUMNS))
    unit = " ".join(f"{u:{'<' if i == 0 else '>'}{w}s}" for i, (_, u, w) in enumerate(COLUMNS))
    return f"{top}\n{unit}"


def report(case: Case, changes: list[Change], floor: list[Change], verbose: bool) -> str:
    """One case's row; ``floor`` holds the floor's changes measured beside it."""
    times = [c.ms for c in changes]
    floor_ms = statistics.median(c.ms for c in floor)
    fitted = [c.ms for c in changes if c.fits]
    cached = [c.ms for c in changes if not c.fits]
    target = f"<={case.target_ratio:.1f}" if case.target_ratio else "-"
    verdict = ""
    if case.target_ratio:
        verdict = "ok" if statistics.median(times) / floor_ms <= case.target_ratio else "MISS"
    line = (
        f"{case.label:52s} {target:>7s} {statistics.median(times):7.0f} {p90(times):7.0f} "
        f"{f'{len(fitted)}/{len(cached)}':>7s} {_ms(fitted)} {_ms(cached)} "
        f"{floor_ms:7.0f} {statistics.median(times) / floor_ms:7.1f}  {verdict}"
    )
    if any(c.saw_status for c in changes):
        line += f"  (status widget shown in {sum(c.saw_status for c in changes)})"
    if verbose:
        for c in changes:
            line += (
                f"\n    -> {c.value:>9s} {c.ms:7.0f} ms (run from {c.run_start_ms:4.0f} "
                f"to {c.run_end_ms:5.0f}) fits: {c.fits}"
            )
    return line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=7, help="steps up (and back): 2N+1 changes")
    parser.add_argument(
        "--cases",
        nargs="+",
        default=list(DEFAULT_CASES),
        choices=[case.name for case in CASES],
        help="which cases to run (default: %(default)s)",
    )
    parser.add_argument("--verbose", action="store_true", help="print every change")
    args = parser.parse_args(argv)

    chromium = chromium_path()
    if not os.access(chromium, os.X_OK):
        print(
            f"Chromium was not found at {chromium}: install it with "
            "`sudo apt-get install -y chromium` (or `make system-browser`), "
            "or point ARBORETUM_CHROMIUM at a Chromium binary.",
            file=sys.stderr,
        )
        return 2
    from playwright.sync_api import sync_playwright

    changes = 2 * args.steps + 1
    print(f"Slider change -> updated page, {changes} changes per case, headless Chromium")
    print(f"load average before: {_load()}")
    print(header())
    with tempfile.TemporaryDirectory(prefix="arboretum-latency-") as tmp:
        workdir = Path(tmp)
        floor = write_script("floor", workdir)
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright, chromium)
            try:
                floor_case = next(case for case in CASES if case.floor)
                floor_server = Server.start(floor, workdir)
                with floor_server.live:
                    for case in (c for c in CASES if c.name in args.cases):
                        if case.floor:
                            alone = measure(browser, [(floor_server, case)], args.steps)[0]
                            print(report(case, alone, alone, args.verbose), flush=True)
                            continue
                        script = write_script(case.script, workdir) if case.script else None
                        server = Server.start(script or ROOT / "serve.py", workdir)
                        with server.live:
                            both = [(floor_server, floor_case), (server, case)]
                            beside, measured = measure(browser, both, args.steps)
                        print(report(case, measured, beside, args.verbose), flush=True)
            finally:
                browser.close()
    print(f"load average after: {_load()}  ({os.cpu_count()} CPUs)")
    print("fit/hit: changes that fitted a model / changes served from Streamlit's caches")
    return 0


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    sys.exit(main())
