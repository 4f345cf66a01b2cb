"""The class mode run's parts that need no server (classroom_load/classroom_class.py): when a
student's page shows the teacher's view, the class code and the poll's counts read off the
teacher's page, the table row. (The run itself: ``python -m classroom_load.classroom
--class-mode``; the client's timers against a real server: test_st_client_timers.py.)"""

from __future__ import annotations

import base64
import json

import numpy as np
from streamlit.proto.Element_pb2 import Element

from classroom_load.class_members import (
    Member,
    Seen,
    caught_up,
    choice_counts,
    class_code,
    heard,
    same_view,
)
from classroom_load.classroom_report import CLASS_MODE_HEADER, class_row, heard_line
from classroom_load.classroom_summary import class_latency
from classroom_load.page_check import PageCheck
from classroom_load.st_reader import Run


def test_the_same_view_is_the_same_page_and_the_same_settings_in_any_order() -> None:
    assert same_view("p1", "a=1&b=2", "p1", "b=2&a=1")
    assert not same_view("p1", "a=1&b=2", "p2", "a=1&b=2")
    assert not same_view("p1", "a=1&b=2", "p1", "a=1&b=3")
    assert not same_view("p1", "a=1", "p1", "a=1&b=2")


def test_a_student_caught_up_at_the_first_page_run_showing_the_view_after_the_change() -> None:
    seen = [
        Seen(9.0, True, "p1", "max_depth=3"),  # before the change: does not count
        Seen(10.4, False, "p1", "max_depth=3"),  # a check (a fragment run): not a page
        Seen(10.9, True, "p1", "max_depth=2"),  # a page run, but another view
        Seen(11.2, True, "p1", "max_depth=3"),
        Seen(11.5, True, "p1", "max_depth=3"),
    ]
    assert caught_up(seen, 10.0, "p1", "max_depth=3") == 11.2 - 10.0
    assert caught_up(seen, 10.0, "p2", "max_depth=3") is None


def markdown(body: str) -> Element:
    element = Element()
    element.markdown.body = body
    return element


def chart(key: str, xs: object) -> Element:
    element = Element()
    element.plotly_chart.id = f"$$ID-0a1b-{key}-plot"
    element.plotly_chart.spec = json.dumps({"data": [{"x": xs, "type": "bar"}]})
    return element


def test_the_class_code_and_the_counts_are_read_off_the_teachers_page() -> None:
    counts = np.array([12, 10, 8], dtype="i1")
    typed = {"dtype": "i1", "bdata": base64.b64encode(counts.tobytes()).decode()}
    run = Run(
        "p1",
        (
            markdown("**:material/co_present: You teach class `KX39P`**"),
            chart("class-choice-chart-2", [1, 2, 3]),
            chart("class-choice-chart-1", typed),
        ),
        0.1,
        0,
    )
    assert class_code(run) == "KX39P"
    assert choice_counts(run, 1) == [12, 10, 8]
    assert choice_counts(run, 2) == [1, 2, 3]
    assert choice_counts(run, 3) is None


def test_the_row_says_miss_above_two_seconds_and_counts_errors() -> None:
    result = {
        "changes": [
            {
                "action": "max_depth = 2",
                "latency_s": [0.5, 0.7, 2.5],
                "heard_s": [0.2, 0.3, 0.4],
                "servers_cpu_s": 1.5,
                "driver_cpu_s": 0.25,
            },
            {"action": "step-next", "skipped": "the view did not change"},
        ],
    }
    latency = class_latency(result)
    assert latency == {
        "samples": 3,
        "median_s": 0.7,
        "p95_s": 2.5,
        "max_s": 2.5,
        "missed": 0,
        "heard_median_s": 0.3,
        "heard_p95_s": 0.4,
        "move_servers_cpu_s": 1.5,
        "move_driver_cpu_s": 0.25,
    }
    row = {
        "students": 3,
        "replicas": 1,
        "store": "memory",
        "load_before": "1.00 1.00 1.00",
        "load_after": "1.00 1.00 1.00",
        "join": {"following": 3},
        **latency,
        **result,
        "poll": {"counted": 3, "answers_sent": 3, "exact": True},
        "idle": {
            "checks_per_s": 3.0,
            "cpu_ms_per_check": 3.9,
            "cpu_ms_per_check_over_quiet": 0.25,
            "page_runs": 0,
        },
        "connections": {
            "websocket_closures": 4,
            "check_503": 2,
            "join_503": 1,
            "checks_failed": 0,
        },
        "rss_peak_mib": {"1": 386.0},
        "rss_end_mib": {"1": 380.0},
        "errors": [],
    }
    line = class_row(row)
    assert "| 0.70 / 2.50 MISS / 2.50 s |" in line
    assert "| 3 / 3 exact |" in line
    assert "| 0.25 / 3.90 ms |" in line  # over students who do not check / all the class adds
    assert "| 1 |" in line  # one change measured, the skipped one not
    assert "median 0.30 s, p95 0.40 s" in heard_line(row)[-1]
    assert "servers 1.50 s, the benchmark's own browsers 0.25 s" in heard_line(row)[-1]
    # Websockets closed by the server side, then 503s to the checks and the joins together.
    assert "| 0 | 4 | 3 | 386 / 380 |" in line
    assert line.count("|") == CLASS_MODE_HEADER.splitlines()[0].count("|")


def test_a_student_hears_of_a_move_when_its_check_first_asks_for_a_run_after_it() -> None:
    member = Member(0, None)  # type: ignore[arg-type]
    assert heard(member, 10.0) is None  # no check drawn yet
    member.check = PageCheck(None, asked_at=[4.0, 10.25, 11.0])  # type: ignore[arg-type]
    assert heard(member, 10.0) == 0.25
    assert heard(member, 12.0) is None
