"""The classroom benchmark's protocol client sees what Chromium sees (classroom_load/st_client.py).

Chromium's own websocket frames are read with the same :class:`RunReader` the client uses, so
both sides are compared message for message: the same page runs, with the same kinds and
numbers of elements, no exception, and the same URL written back after a slider change.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl, urlencode

import pytest

from classroom_load.st_client import StudentSession
from classroom_load.st_reader import Run, RunReader
from core.app import settings as app_settings
from core.app.lessons import classroom_links
from tests.browser.browser_helpers import AppPage, url_query
from tests.live_app import run_beside_playwright

pytestmark = pytest.mark.browser

# "One question sorts out setosa": the Single tree on iris at max_depth 1.
LESSON = classroom_links(app_settings.default_catalogue())[0]


class FrameRuns:
    """Every run Chromium's websocket received, read from its frames."""

    def __init__(self, page: Any) -> None:
        self.reader = RunReader()
        self.runs: list[Run] = []
        page.on("websocket", self._attach)

    def _attach(self, socket: Any) -> None:
        if socket.url.endswith("/_stcore/stream"):
            socket.on("framereceived", self._frame)

    def _frame(self, payload: Any) -> None:
        if isinstance(payload, bytes):
            run = self.reader.feed(payload)
            if run is not None:
                self.runs.append(run)

    def wait_for(self, page: Any, count: int, timeout_ms: int = 30_000) -> None:
        """Wait until ``count`` runs have finished, in small steps.

        Playwright's sync API hands its events (these frames) over only while one of its calls
        waits, so the page's new content can be on screen before the frame that ends the run
        has reached us.
        """
        waited = 0
        while len(self.runs) < count and waited < timeout_ms:
            page.wait_for_timeout(50)
            waited += 50


async def _client_runs(url: str, path: str, query: dict[str, str], key: str) -> list[Any]:
    session = await StudentSession(url, timeout=120).connect()
    try:
        opened = await session.open(path, query)
        options = list(opened.widgets()[key].proto.options)
        changed = await session.change(key, options[options.index(session.shown(key)) + 1])
        return [opened, changed, session.pages, dict(parse_qsl(session._reader.query))]
    finally:
        await session.close()


def test_the_client_and_chromium_get_the_same_page_and_the_same_rerun(app: AppPage):
    path = LESSON.page.url_path
    query = app_settings.to_query(LESSON.settings)
    frames = FrameRuns(app.page)
    app.open(f"/{path}?{urlencode(query)}", ready=(".st-key-max_depth", ".st-key-tree-diagram"))
    before = app.html(".st-key-tree-diagram")
    app.nudge_slider("max_depth")  # 1 -> 2, as the client does below
    app.wait_for_new_content(".st-key-tree-diagram", before)
    frames.wait_for(app.page, 2)
    browser_url = dict(parse_qsl(app.page.evaluate("() => window.location.search")[1:]))

    client = _client_runs(app.server.url, path, query, "max_depth")
    opened, changed, pages, client_url = run_beside_playwright(client)

    assert [run.status for run in frames.runs] == [0, 0]
    for seen, ours in zip(frames.runs, (opened, changed), strict=True):
        assert ours.page_hash == seen.page_hash == pages[path]
        assert ours.kinds() == seen.kinds()
        assert ours.headings() == seen.headings()
        assert ours.exceptions() == seen.exceptions() == []
    assert opened.kinds()["plotly_chart"] >= 1  # a whole page, not a fragment of one
    assert sum(opened.kinds().values()) > 30
    assert client_url == browser_url
    assert (query["max_depth"], client_url["max_depth"]) == ("1", "2")
    assert app.exceptions() == []


async def _client_move(
    url: str, path: str, query: dict[str, str], key: str, value: Any
) -> tuple[Any, Any, dict[str, str]]:
    """The client opens ``path?query`` and sets widget ``key`` to ``value`` (or to
    ``value(widget)`` when it is a function of the widget opened): both runs, and the URL's
    query after the move."""
    session = await StudentSession(url, timeout=120).connect()
    try:
        opened = await session.open(path, query)
        picked = value(opened.widgets()[key]) if callable(value) else value
        moved = await session.change(key, picked)
        return opened, moved, dict(parse_qsl(session._reader.query))
    finally:
        await session.close()


def _client_moves(
    app: AppPage, path: str, query: dict[str, str], key: str, value: Any
) -> tuple[Any, Any, dict[str, str]]:
    return run_beside_playwright(_client_move(app.server.url, path, query, key, value))


def _redrawn(app: AppPage, frames: FrameRuns, act: Any, runs: int) -> Run:
    """Do ``act()``, wait until the tree diagram has changed and Chromium has received
    ``runs`` runs in all; the last of them."""
    before = app.html(".st-key-tree-diagram")
    act()
    app.wait_for_new_content(".st-key-tree-diagram", before)
    frames.wait_for(app.page, runs)
    app.settle()
    return frames.runs[-1]


def test_the_forests_tree_number_reruns_its_own_part_in_chromium_and_in_the_client(app: AppPage):
    # Moving the tree number reruns the opened tree's part alone (st.fragment), not the page;
    # the URL and the sidebar's share link still follow the move. The protocol client sends
    # the same fragment rerun as Chromium.
    frames = FrameRuns(app.page)
    app.open("/Random_forest?dataset=iris", ready=(".st-key-tree-diagram svg",))
    frames.wait_for(app.page, 1)
    step_up = app.page.locator('.st-key-tree button[data-testid="stNumberInputStepUp"]')
    moved = _redrawn(app, frames, step_up.click, 2)

    opened = frames.runs[0]
    assert opened.whole_page and not moved.whole_page
    assert dict(parse_qsl(app.page.evaluate("() => window.location.search")[1:])) == {
        "dataset": "iris",
        "tree": "1",
    }
    assert app.page.locator(".st-key-share-link").count() == 1
    assert app.page.locator(".st-key-share-link code").inner_text().endswith("dataset=iris&tree=1")
    assert "Tree 1 of the forest" in app.page.locator("body").inner_text()

    # The sample reruns the part around the tree's (the boundaries and the vote, which the tree
    # number does not move), with the tree's part inside it.
    picker = app.page.locator('.st-key-sample input[role="combobox"]')
    picker.click()
    picker.fill("#3 ")
    option = app.page.get_by_role("option", name=re.compile(r"^#3 "))
    sampled = _redrawn(app, frames, option.click, 3)  # the sample's path moved
    assert not sampled.whole_page and sampled.fragment_ids != moved.fragment_ids
    assert url_query(app)["sample"] == "3" and url_query(app)["tree"] == "1"
    assert app.page.locator(".st-key-share-link").count() == 1
    assert app.page.get_by_text("Open any tree of the forest").count() == 1
    assert "test sample #3 lands here" in app.html(".st-key-tree-diagram")
    app.assert_healthy()

    ours = _client_moves(app, "Random_forest", {"dataset": "iris"}, "tree", 3)
    client_opened, client_moved, client_url = ours
    assert client_opened.whole_page and client_moved.fragment_ids == moved.fragment_ids
    assert client_moved.widgets()["tree"].fragment_id in moved.fragment_ids
    assert not client_opened.widgets()["max_depth"].fragment_id  # the sidebar is the page's
    assert client_url == {"dataset": "iris", "tree": "3"}
    assert client_moved.exceptions() == []


def test_a_step_reruns_the_step_by_step_part_alone_in_chromium_and_in_the_client(app: AppPage):
    frames = FrameRuns(app.page)
    app.open("/Grow_it_step_by_step?dataset=iris&step=1", ready=(".st-key-tree-diagram svg",))
    frames.wait_for(app.page, 1)
    stepped_here = _redrawn(app, frames, app.page.locator(".st-key-step-next button").click, 2)

    assert frames.runs[0].whole_page and not stepped_here.whole_page
    assert url_query(app)["step"] == "2"
    assert app.page.locator(".st-key-share-link").count() == 1
    assert app.page.locator(".st-key-share-link code").inner_text().endswith("step=2")
    assert app.heading() == "Grow it step by step"
    app.assert_healthy()

    path, link = "Grow_it_step_by_step", {"dataset": "iris", "step": "1"}
    opened, stepped, query = _client_moves(app, path, link, "step-next", True)
    assert opened.whole_page and stepped.fragment_ids == stepped_here.fragment_ids
    assert query == {"dataset": "iris", "step": "2"}
    assert stepped.exceptions() == []


def test_the_single_trees_sample_reruns_the_part_under_the_title_in_chromium_and_the_client(
    app: AppPage,
):
    # The test sample moves the boundary's star, the path in words and the diagram: the part
    # under the title reruns (st.fragment), not the sidebar; the URL and the share link follow.
    frames = FrameRuns(app.page)
    app.open("/Single_tree?dataset=iris", ready=(".st-key-tree-diagram svg",))
    frames.wait_for(app.page, 1)
    picker = app.page.locator('.st-key-sample input[role="combobox"]')
    picker.click()
    picker.fill("#4 ")
    option = app.page.get_by_role("option", name=re.compile(r"^#4 "))
    sampled = _redrawn(app, frames, option.click, 2)

    assert frames.runs[0].whole_page and not sampled.whole_page
    app.page.wait_for_function("() => location.search.includes('sample=4')")
    address = dict(parse_qsl(app.page.evaluate("() => window.location.search")[1:]))
    assert address == {"dataset": "iris", "sample": "4"}
    assert app.page.locator(".st-key-share-link").count() == 1
    assert app.page.locator(".st-key-share-link code").inner_text().endswith("sample=4")
    assert "test sample #4 lands here" in app.html(".st-key-tree-diagram")
    assert "The true answer is" in app.page.locator(".st-key-sample-path").inner_text()
    app.assert_healthy()

    fourth = _client_moves(  # a selectbox sends its option's label
        app, "Single_tree", {"dataset": "iris"}, "sample", lambda widget: widget.proto.options[4]
    )
    opened, moved, query = fourth
    assert opened.whole_page and moved.fragment_ids == sampled.fragment_ids
    assert not opened.widgets()["max_depth"].fragment_id  # the sidebar is the page's
    assert query == {"dataset": "iris", "sample": "4"}
    assert moved.exceptions() == []
