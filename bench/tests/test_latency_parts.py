"""The latency benchmark's ratio to its floor and the profile's sums, on hand-made inputs."""

from __future__ import annotations

import pytest
from streamlit.proto.Block_pb2 import Block
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from bench.bench_latency import CASES, Change, report
from bench.latency_profile import _kind, js_by_file, server_side

SINGLE_TREE = next(case for case in CASES if case.name == "single-tree")


def _changes(*ms: float, fits: int = 0) -> list[Change]:
    return [Change("1", m, 0.0, m, fits, False) for m in ms]


def test_the_report_divides_the_case_by_the_floor_measured_beside_it() -> None:
    line = report(SINGLE_TREE, _changes(100, 120, 140), _changes(20, 40, 30), verbose=False)
    # median 120 over the floor's median 30
    assert line.split()[-3:-1] == ["30", "4.0"]


def test_the_profile_sums_the_server_side_of_one_change() -> None:
    lines = [
        {"back": 10.000, "type": "widget_state_changed"},  # not a rerun: ignored
        {"back": 10.010, "type": "rerun_script"},
        {"run": 10.011},
        {"msg": "plotly_chart", "bytes": 2048},
        {"msg": "markdown", "bytes": 100},
        {"msg": "markdown", "bytes": 60},
        {"end": 10.071, "cpu": 0.030},
    ]
    server = server_side(lines)
    assert server["wall"] == pytest.approx(61.0)  # from the rerun's BackMsg to the end
    assert server["cpu"] == pytest.approx(30.0)
    assert server["runs"] == 1
    assert server["counts"] == {"plotly_chart": 1, "markdown": 2}
    assert server["sizes"] == {"plotly_chart": 2048, "markdown": 160}


def test_the_profile_adds_the_javascript_samples_by_file() -> None:
    profile = {
        "nodes": [
            {"id": 1, "callFrame": {"url": "", "functionName": "(root)"}},
            {
                "id": 2,
                "callFrame": {"url": "http://x/static/js/PlotlyChart.abc.js", "functionName": "E"},
            },
            {
                "id": 3,
                "callFrame": {"url": "http://x/static/js/PlotlyChart.abc.js", "functionName": "L"},
            },
            {"id": 4, "callFrame": {"url": "", "functionName": "(program)"}},
        ],
        "samples": [2, 3, 4, 2],
        "timeDeltas": [1000, 2000, 500, 1500],  # microseconds
    }
    assert js_by_file(profile) == {"PlotlyChart": 4.5, "((program))": 0.5}


def test_a_message_is_named_by_what_it_adds() -> None:
    element = ForwardMsg()
    element.delta.new_element.markdown.body = "hello"
    block = ForwardMsg()
    block.delta.add_block.CopyFrom(Block())
    status = ForwardMsg()
    status.script_finished = ForwardMsg.FINISHED_SUCCESSFULLY
    assert _kind(element) == "markdown"
    assert _kind(block) == "block:vertical"
    assert _kind(status) == "script_finished"


def test_the_verdict_reads_the_ratio_to_the_floor_not_milliseconds() -> None:
    # The same 120 ms meets issue 40's 4.5x beside a 30 ms floor, and misses it beside 20 ms.
    assert report(SINGLE_TREE, _changes(120), _changes(30), verbose=False).endswith("ok")
    assert report(SINGLE_TREE, _changes(120), _changes(20), verbose=False).endswith("MISS")
