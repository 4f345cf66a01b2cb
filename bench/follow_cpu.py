"""A follower's run: the server's CPU for one student's page run after a teacher's move.

Run with ``.venv/bin/python -m bench.follow_cpu [--followers 3] [--rounds 2] [--profile]``,
or ``--lesson how-a-tree-grows`` for a lesson's screen changes instead of the class's moves.

In class mode each move of the teacher costs one run of the page per follower, one after
another on a replica's script threads, so a class's follow latency is about that run's CPU
times the followers on one replica. Here a teacher and ``--followers`` students are sessions
of ``AppTest`` in this process, sharing the server's in-memory class store as the sessions
of one server do. The teacher opens the first classroom link, starts a class, the students
join by its code, and the teacher makes :data:`TEACHER_MOVES` (the class bench's script:
``max_depth``, the dataset, the step page and its buttons, a forest's size, another page)
``--rounds`` times. After each move every student runs once (what the page's check asks for)
and that run's CPU is counted on ``time.process_time`` (see :mod:`bench.page_cpu` on the
clock); the teacher's own run, which fits what is new, is not.

The students' runs are checked: each must end on the teacher's page with the teacher's
query, or the benchmark stops. With ``--lesson NAME`` the teacher opens the shipped lesson's
first screen and starts the class; the moves are Next through its screens and Previous back to
the first, each labelled by the screen it opens. ``--profile`` runs the same under ``cProfile``,
in the students' script threads only, and prints the top functions.

The yardstick its table divides by is read beside the runs (:class:`bench.yardstick.Beside`):
a short loop after every student's run, whose median goes with the runs' median. The long loop
before and after, which catches whatever speed the machine has in that second, is printed too.

It is a measurement, not a test: nothing fails on a slow machine.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import os
import pstats
import statistics
import sys
import threading
import time
from dataclasses import dataclass

from streamlit.testing.v1 import AppTest

from bench.changes import Change, press, select, select_slider, slider, switch
from bench.page_cpu import ROOT, new_profiler, profile_script, shared_script_cache
from bench.yardstick import Beside, loop_seconds, yardstick_line
from core.app import pages
from core.app.lessons import classroom_links
from core.app.settings import default_catalogue, to_query
from core.classroom.shipped import shipped_plans
from core.ui.cached import clear_caches

#: The class bench's teacher, move for move (``classroom_load.classroom_class``), from the
#: first classroom link (Single tree, iris, depth 1).
TEACHER_MOVES: tuple[Change, ...] = (
    select_slider("max_depth", 2),
    select("dataset", "wine"),
    select_slider("max_depth", 3),
    switch("Grow_it_step_by_step"),
    press("step-first"),
    press("step-next"),
    press("step-next"),
    select_slider("max_depth", 4),
    switch("Random_forest"),
    slider("n_estimators", 101),
    switch("Single_tree"),
    select_slider("max_depth", 4),
)


@dataclass(frozen=True)
class FollowCpu:
    """The CPU seconds of every student's run after each teacher move, by the move's page."""

    runs: tuple[tuple[str, str, float], ...]  # (page, move, seconds)

    def by_page(self) -> dict[str, list[float]]:
        """Each page's runs, in the order the teacher reached the pages."""
        table: dict[str, list[float]] = {}
        for page, _, seconds in self.runs:
            table.setdefault(page, []).append(seconds)
        return table


#: The address's names of a lesson and its screen: the teacher's address carries both, a
#: student's the screen alone, so they are left out where the two are compared.
LESSON_NAMES = frozenset({"lesson", "screen"})


def _where(app: AppTest) -> tuple[str, str]:
    """The page a session shows and its settings' query string, as the class compares them."""
    held = app.session_state["_arboretum"]
    query = sorted((k, v) for k, v in app.query_params.items() if k not in LESSON_NAMES)
    return str(held.page), "&".join(f"{k}={v}" for k, v in query)


def _check(app: AppTest, what: str) -> None:
    if app.exception:
        raise RuntimeError(f"{what}: {[e.value for e in app.exception]}")


def _opened(url_path: str, query: dict[str, str]) -> AppTest:
    """A session that opened ``url_path`` with ``query``, as a link opens it (from app.py)."""
    app = AppTest.from_file(str(ROOT / pages.HOME.path), default_timeout=300).run()
    path = next(p.path for p in pages.PAGES if p.url_path == url_path)
    app.switch_page(path)
    for name, value in query.items():
        app.query_params[name] = value
    return app.run()


def _class(followers: int, lesson: str | None = None) -> tuple[AppTest, list[AppTest]]:
    """A teacher who started a class, and ``followers`` students who joined it by its code.
    The teacher is on the first classroom link, or on ``lesson``'s first screen."""
    if lesson is None:
        link = classroom_links(default_catalogue())[0]
        teacher = _opened(link.page.url_path, to_query(link.settings))
    else:
        first = shipped_plans()[lesson].screens[0]
        teacher = _opened(first.page.url_path, {**dict(first.query), "lesson": lesson})
    teacher.button(key="class-start").click().run()
    _check(teacher, "start a class")
    code = teacher.session_state["_arboretum"].seat.code
    students = []
    for _ in range(followers):
        student = AppTest.from_file(str(ROOT / pages.HOME.path), default_timeout=300)
        student.query_params["class"] = code
        students.append(student.run())
        _check(student, "join")
    return teacher, students


def _follow(student: AppTest, profiler: cProfile.Profile | None) -> float:
    """One run of ``student``'s page (what its check asks for); its CPU seconds."""
    if profiler is not None:
        threading.setprofile(functools.partial(profile_script, profiler))
    start = time.process_time()
    try:
        student.run()
    finally:
        spent = time.process_time() - start
        threading.setprofile(None)
    return spent


def _lesson_moves(lesson: str) -> tuple[Change, ...]:
    """Next through ``lesson``'s screens, each labelled by the screen it opens, then Previous
    back to the first, so rounds repeat the same changes."""
    count = len(shipped_plans()[lesson].screens)
    _, next_screen = press("lesson-next")
    _, previous = press("lesson-previous")
    ahead = [(f"screen {n}", next_screen) for n in range(2, count + 1)]
    back = [(f"back to screen {n}", previous) for n in range(count - 1, 0, -1)]
    return (*ahead, *back)


def teach(
    followers: int,
    rounds: int,
    profiler: cProfile.Profile | None = None,
    beside: Beside | None = None,
    lesson: str | None = None,
) -> FollowCpu:
    """Start a class, have ``followers`` students join, make :data:`TEACHER_MOVES` (or Next and
    Previous through ``lesson``'s screens) ``rounds`` times and time each student's run after
    each move (profiled in ``profiler`` if given; the yardstick read after each run in
    ``beside`` if given)."""
    clear_caches()
    teacher, students = _class(followers, lesson)
    moves = TEACHER_MOVES if lesson is None else _lesson_moves(lesson)
    runs = []
    for _ in range(rounds):
        for label, move in moves:
            move(teacher)
            teacher.run()
            _check(teacher, f"teacher {label}")
            shown = _where(teacher)
            page = next(p.url_path for p in pages.PAGES if p.path == shown[0])
            for student in students:
                spent = _follow(student, profiler)
                _check(student, f"student after {label}")
                if _where(student) != shown:
                    raise RuntimeError(f"after {label} a student shows {_where(student)}")
                runs.append((page if lesson is None else f"{page}, {label}", label, spent))
                if beside is not None:
                    beside.read()
    return FollowCpu(tuple(runs))


def table(result: FollowCpu, yardstick: float) -> str:
    """Per page: the students' runs, their median and mean CPU in ms and in yardsticks."""
    lines = [
        "| page | runs | median CPU / run | in yardsticks | mean | max |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    every = [seconds for _, _, seconds in result.runs]
    for page, spent in [*result.by_page().items(), ("all", every)]:
        median = statistics.median(spent)
        lines.append(
            f"| {page.replace('_', ' ')} | {len(spent)} | {1000 * median:.1f} ms "
            f"| {median / yardstick:.3f} | {1000 * statistics.fmean(spent):.1f} ms "
            f"| {1000 * max(spent):.1f} ms |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--followers", type=int, default=3, help="students following")
    parser.add_argument("--rounds", type=int, default=2, help="times through the moves")
    parser.add_argument("--profile", action="store_true", help="cProfile the students' runs")
    parser.add_argument("--top", type=int, default=40, help="rows of the profile")
    parser.add_argument("--verbose", action="store_true", help="every run's CPU")
    parser.add_argument("--lesson", choices=sorted(shipped_plans()), help="a lesson's screens")
    args = parser.parse_args(argv)
    before = loop_seconds()
    with shared_script_cache():
        if args.profile:
            profiler = new_profiler()
            teach(args.followers, args.rounds, profiler, lesson=args.lesson)
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(args.top)
            return 0
        beside = Beside()
        result = teach(args.followers, args.rounds, beside=beside, lesson=args.lesson)
    after = loop_seconds()
    if args.verbose:
        for page, label, seconds in result.runs:
            where = page if page.endswith(label) else f"{page} after {label}"
            print(f"{where}: {1000 * seconds:.1f} ms", file=sys.stderr)
    print(table(result, beside.seconds()))
    print(f"\nload average {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores")
    print(
        yardstick_line(beside.seconds()),
        f"(the median of {len(beside.samples)} short loops, one after each run);",
        f"{before:.2f} s before and {after:.2f} s after",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
