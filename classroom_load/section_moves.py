"""Server CPU per move of one control, the way a browser sends it: the moves a section reruns.

Run with ``.venv/bin/python -m classroom_load.section_moves [--moves 20] [--label NAME]``.

It starts one server as ``make run`` does (``serve.py``, no file watcher), then, for each case
below, one student session of the protocol client (:mod:`classroom_load.st_client`) opens the page,
makes three moves to warm what they use, and makes ``--moves`` more, measured. A widget a
fragment drew (``st.fragment``) reruns that fragment alone, as in Chromium; the table says
how many of the measured moves were fragment runs. The server's CPU per move counts the
server and its children (the kept ``dot`` processes) from just before the move until 0.3 s
after it finished, so the run's last messages are sent and nothing else is running.

Cases: the forest's tree number and test sample (iris, 100 trees), the Single tree's test
sample (iris), the step page's Next (wine), and for reference a move that reruns the whole
page and finds its models in the caches (the forest's ``max_depth`` over three depths fitted
during the warm-up). A sample move checks that the sample moved: a selectbox takes its
option's label, and a number would be ignored.

It is a measurement, not a test: nothing fails on a slow machine; the load average is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from bench.yardstick import loop_seconds, yardstick_line
from classroom_load.classroom_server import cpu_seconds
from classroom_load.st_client import StudentSession
from classroom_load.st_widgets import Widget
from deploy.process import LiveServer
from tests.live_app import ROOT, free_port, streamlit_command

AFTER_S = 0.3  # after a move's run has finished: its last messages leave, then CPU is read


@dataclass(frozen=True)
class Case:
    """One control moved again and again on one page."""

    name: str
    path: str
    query: dict[str, str]
    key: str
    value: Callable[[int, Widget], Any]  # the value of move i, as the widget takes it
    again: Callable[[StudentSession], Any] | None = None  # a reset before move i, when due


def _first_step(session: StudentSession) -> Any:
    """The step slider back at 0, so Next has somewhere to go."""
    return "0 of " + str(session.shown("step")).split(" of ")[1]


def _sample_number(i: int) -> int:
    """The test sample move ``i`` picks."""
    return i % 30 + 1


def _sample(i: int, widget: Widget) -> Any:
    """Test sample :func:`_sample_number` ``(i)``: a selectbox sends its option's label, never a
    number."""
    return widget.proto.options[_sample_number(i)]


CASES = (
    Case("tree number", "Random_forest", {"dataset": "iris"}, "tree", lambda i, w: i % 20 + 1),
    Case("test sample", "Random_forest", {"dataset": "iris"}, "sample", _sample),
    Case("Single tree: test sample", "Single_tree", {"dataset": "iris"}, "sample", _sample),
    Case(
        "step: Next",
        "Grow_it_step_by_step",
        {"dataset": "wine"},
        "step-next",
        lambda i, w: True,
        _first_step,
    ),
    Case(
        "max_depth (whole page)",
        "Random_forest",
        {"dataset": "iris"},
        "max_depth",
        lambda i, w: (3, 4, 5)[i % 3],
    ),
)


@dataclass(frozen=True)
class Result:
    case: str
    page: str
    moves: int
    fragment_runs: int
    cpu_median_s: float
    cpu_mean_s: float
    wall_median_s: float


async def measure(url: str, pid: int, case: Case, moves: int) -> Result:
    session = await StudentSession(url, timeout=120).connect()
    try:
        await session.open(case.path, case.query)
        cpus, walls, fragments = [], [], 0
        for i in range(-3, moves):  # three to warm, then the measured ones
            if case.again is not None and i % 6 == 0:
                await session.change("step", case.again(session))
            started = cpu_seconds(pid)
            assert session.last is not None
            widget = session.last.widgets()[case.key]
            run = await session.change(case.key, case.value(i, widget))
            moved_to = dict(parse_qsl(session.query)).get("sample")
            if case.key == "sample" and moved_to != str(_sample_number(i)):
                raise RuntimeError(f"{case.name}: the sample did not move ({session.query})")
            await asyncio.sleep(AFTER_S)
            if i >= 0:
                cpus.append(cpu_seconds(pid) - started)
                walls.append(run.seconds)
                fragments += bool(run.fragment_ids)
            if run.exceptions():
                raise RuntimeError(f"{case.name}: the page raised {run.exceptions()}")
    finally:
        await session.close()
    return Result(
        case.name,
        case.path,
        len(cpus),
        fragments,
        round(statistics.median(cpus), 4),
        round(statistics.mean(cpus), 4),
        round(statistics.median(walls), 4),
    )


def table(results: list[Result]) -> str:
    rows = [
        "| move | page | fragment runs | server CPU / move, median (mean) | time, median |",
        "| --- | --- | ---: | ---: | ---: |",
    ]
    for r in results:
        rows.append(
            f"| {r.case} | {r.page} | {r.fragment_runs} of {r.moves} | "
            f"{r.cpu_median_s:.3f} s ({r.cpu_mean_s:.3f} s) | {r.wall_median_s:.3f} s |"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20, help="measured moves per case")
    parser.add_argument("--label", default="section-moves", help="name of the result files")
    args = parser.parse_args(argv)
    port = free_port()
    log = Path(tempfile.mkdtemp(prefix="section-moves-")) / "server.log"
    load = os.getloadavg()[0]
    with LiveServer.start(streamlit_command(ROOT / "serve.py", port), port, log) as server:
        results = [
            asyncio.run(measure(server.url, server.process.pid, case, args.moves)) for case in CASES
        ]
    text = (
        table(results)
        + f"\n\n(load average {load:.1f} before, {os.getloadavg()[0]:.1f} after; "
        + f"{yardstick_line(loop_seconds())})"
    )
    print(text)
    out = ROOT / "build" / "section-moves"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{args.label}.md").write_text(text + "\n")
    (out / f"{args.label}.json").write_text(json.dumps([asdict(r) for r in results], indent=2))
    print(f"\nwritten: {out / args.label}.md and .json", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
