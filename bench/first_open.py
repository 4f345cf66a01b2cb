"""What the first open of each costly lesson costs the server, per page and dataset.

Run with ``python -m bench.first_open``. Each case opens its page on a dataset (its default,
breast cancer, the lesson link's own) through ``AppTest`` (in this process, so Streamlit's
caches are the server's), with the lesson closed, and runs it once more (the page alone,
warm). Then it opens the lesson from "More to see" (first open: the lesson's caches are cold),
closes it and opens it again (the second open: what every other student of a class meets),
and moves the test set size one step (another split: every cache misses, as on a student's
change). It is a measurement, not a test: the numbers are printed, nothing fails. The first
cases of the run warm the compiled loops on another dataset, so that no case's first open is
the compiler's.

The browser's own drawing is not counted: compare with ``bench.bench_latency``.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.app import pages

ROOT = Path(__file__).resolve().parents[1]
#: (page, view), the lessons that grow more than the page's own models.
CASES: tuple[tuple[pages.Page, str], ...] = (
    (pages.SINGLE_TREE, "map"),
    (pages.SINGLE_TREE, "what-if"),
    (pages.RANDOM_FOREST, "variance"),
    (pages.GINI_VS_ENTROPY, "criterion-matters"),
    (pages.GINI_VS_ENTROPY, "map"),
)


def _timed_run(app: AppTest) -> float:
    start = time.perf_counter()
    app.run()
    if app.exception:
        raise RuntimeError([e.value for e in app.exception])
    return time.perf_counter() - start


def first_open(
    page: pages.Page, view: str, query: dict[str, str]
) -> tuple[float, float, float, float]:
    """Seconds of the page alone (warm), its lesson's first open, its second open, and a change
    of the test set size with the lesson open (every cache misses: another split)."""
    app = AppTest.from_file(str(ROOT / page.path), default_timeout=300)
    for name, value in query.items():
        app.query_params[name] = value
    app.run()
    page_alone = _timed_run(app)
    app.segmented_control(key="view").set_value(view)
    first = _timed_run(app)
    app.segmented_control(key="view").set_value(None)
    app.run()
    app.segmented_control(key="view").set_value(view)
    second = _timed_run(app)
    app.select_slider(key="test_size").set_value(0.3)  # one step of the slider up
    change = _timed_run(app)
    return page_alone, first, second, change


#: The datasets of the lessons' own links (``core.app.lessons``), beside each page's default.
LESSON_QUERIES: dict[str, dict[str, str]] = {
    "map": {"dataset": "breast_cancer", "fit": "all"},
    "what-if": {"dataset": "breast_cancer", "max_depth": "4"},
    "variance": {"dataset": "sine", "max_depth": "none"},
    "criterion-matters": {"dataset": "wine", "max_depth": "4"},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cold",
        action="store_true",
        help="no warm-up: the first case also loads the compiled loops and the modules, as the "
        "first student after a server starts meets them",
    )
    parser.add_argument("--only", help="run only the cases of this view")
    arguments = parser.parse_args()
    cases = [(page, view) for page, view in CASES if arguments.only in (None, view)]
    if not arguments.cold:
        for page, view in cases:  # compile and import everything once, on another dataset
            first_open(page, view, {"dataset": "penguins"})
    print(f"load average {os.getloadavg()[0]:.2f}; seconds, in this process, through AppTest")
    columns = ("page", "first", "again", "change")
    print(f"{'page':<16} {'view':<18} {'link':<30} " + " ".join(f"{c:>6}" for c in columns))
    for page, view in cases:
        queries = [{}, {"dataset": "breast_cancer"}, LESSON_QUERIES[view]]
        if page is pages.GINI_VS_ENTROPY and view == "map":
            queries.pop()
        for query in queries:
            alone, first, again, change = first_open(page, view, query)
            link = ",".join(f"{k}={v}" for k, v in query.items()) or "(default)"
            print(
                f"{page.url_path:<16} {view:<18} {link:<30} {alone:6.2f} {first:6.2f} "
                f"{again:6.2f} {change:6.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
