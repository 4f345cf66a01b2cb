"""The classroom benchmark's parts that need no server: the protocol's values, the students'
choices, the numbers read from /proc. (The client against a real server and Chromium is
test_browser_protocol_client.py beside it.)"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time

import pytest
from streamlit.proto.Element_pb2 import Element

from classroom_load.classroom_server import children_of, cpu_seconds, memory_breakdown, rss_mib
from classroom_load.classroom_students import PAGE_BY_PATH, new_value, random_settings, start_link
from classroom_load.classroom_summary import percentile
from classroom_load.st_reader import Run
from classroom_load.st_widgets import Widget, shown_value, widget_key, widget_state
from core.app import settings as app_settings

CATALOGUE = app_settings.default_catalogue()


def select_slider(key: str, options: list[str], default: int) -> Widget:
    element = Element()
    element.slider.id = f"$$ID-0123abcd-{key}"
    element.slider.options.extend(options)
    element.slider.default.append(default)
    return Widget(key, "slider", element.slider)


def test_widget_key_is_the_end_of_a_keyed_id():
    assert widget_key("$$ID-4ad30c37a7b55bbcfa9e9f7962da4c8c-max_depth") == "max_depth"
    assert widget_key("$$ID-4ad30c37-tree-diagram-size") == "tree-diagram-size"
    assert widget_key("plain-id") == ""


def test_widget_state_carries_the_value_the_way_streamlit_reads_it():
    depth = select_slider("max_depth", ["1", "2", "3"], 0)
    assert list(widget_state(depth, "3").string_array_value.data) == ["3"]
    element = Element()
    element.number_input.id = "$$ID-ab-seed"
    assert widget_state(Widget("seed", "number_input", element.number_input), 7).double_value == 7
    element.checkbox.id = "$$ID-ab-bootstrap"
    toggle = widget_state(Widget("bootstrap", "checkbox", element.checkbox), False)
    assert toggle.HasField("bool_value") and toggle.bool_value is False
    element.text_input.id = "$$ID-ab-class-question"
    typed = widget_state(Widget("class-question", "text_input", element.text_input), "Why?")
    assert typed.string_value == "Why?"
    with pytest.raises(ValueError, match="widget kind must be one of"):
        widget_state(Widget("x", "color_picker", element.color_picker), "#fff")


def test_shown_value_prefers_what_the_script_set_then_what_was_sent_then_the_default():
    depth = select_slider("max_depth", ["1", "2", "3"], 1)
    assert shown_value(depth) == "2"
    assert shown_value(depth, widget_state(depth, "3")) == "3"
    depth.proto.set_value = True
    depth.proto.raw_value.append("1")
    assert shown_value(depth, widget_state(depth, "3")) == "1"


def test_a_run_lists_its_widgets_by_key_and_its_exceptions():
    heading, slider, exception = Element(), Element(), Element()
    heading.heading.body = "Single tree"
    slider.slider.id = "$$ID-ff-max_depth"
    exception.exception.type = "TypeError"
    exception.exception.message = "boom"
    run = Run("hash", (heading, slider, exception), 0.1, 0)
    assert list(run.widgets()) == ["max_depth"]
    assert run.exceptions() == ["TypeError: boom"]
    assert run.headings() == ["Single tree"]
    assert run.kinds() == {"heading": 1, "slider": 1, "exception": 1}


def test_a_student_moves_a_control_to_another_of_its_options():
    depth = select_slider("max_depth", [str(d) for d in range(1, 21)], 0)
    rng = random.Random(0)
    for shown in ("1", "7", "20"):
        moved = {new_value(depth, shown, rng) for _ in range(50)}
        assert shown not in moved
        assert moved <= set(depth.proto.options)


@pytest.mark.parametrize("path", sorted(PAGE_BY_PATH))
def test_random_links_are_valid_settings_that_parse_without_a_notice(path):
    page = PAGE_BY_PATH[path]
    rng = random.Random(3)
    for _ in range(20):
        settings = random_settings(page, rng, CATALOGUE)
        again, notices = app_settings.parse(settings.form, app_settings.to_query(settings))
        assert (again, notices) == (settings, [])


def test_start_links_are_lessons_or_random_and_open_real_pages():
    rng = random.Random(5)
    links = [start_link(rng, CATALOGUE) for _ in range(40)]
    assert {path for path, _ in links} <= set(PAGE_BY_PATH)
    assert len({tuple(sorted(query.items())) for _, query in links}) > 20


def test_percentile_is_the_nearest_rank():
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.95) == 95.0
    assert percentile(values, 0.5) == 50.0
    assert percentile([3.0], 0.95) == 3.0
    assert percentile([], 0.95) == 0.0


def test_proc_numbers_of_this_process():
    before = cpu_seconds(os.getpid())
    deadline = time.process_time() + 0.3
    while time.process_time() < deadline:
        pass
    assert cpu_seconds(os.getpid()) - before >= 0.2
    kinds = memory_breakdown(os.getpid())
    assert set(kinds) == {"main_heap", "thread_arenas", "other_anonymous", "files"}
    # smaps and status are read a moment apart: their totals agree to within a few MiB.
    assert abs(sum(kinds.values()) - rss_mib(os.getpid())) < 8
    assert rss_mib(2**22 + 12345) == 0.0  # a process that does not exist


def test_a_running_childs_cpu_counts_as_the_servers():
    # A child that works 0.4 s, says so, and waits alive (as a kept dot process does).
    busy = (
        "import time\n"
        "end = time.process_time() + 0.4\n"
        "while time.process_time() < end: pass\n"
        "print('done', flush=True)\n"
        "input()\n"
    )
    before = cpu_seconds(os.getpid())
    child = subprocess.Popen(
        [sys.executable, "-c", busy], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        assert child.stdout is not None and child.stdout.readline() == b"done\n"
        assert child.pid in children_of(os.getpid())
        assert child.poll() is None  # running: none of its time is in this process's cutime
        assert cpu_seconds(os.getpid()) - before >= 0.35
    finally:
        child.communicate(b"\n")
