"""The drawing area in real Chromium with real mouse clicks, on the small app ``draw_app.py``.

Three clicks add three points where they land, a click on a point removes it, a burst of
clicks keeps every one, and points replaced by Python (clear, start from a puzzle) stay
replaced. The app prints what ``draw_points`` returned, and the test reads it back.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import AppPage, serve, tab

from deploy.process import LiveServer
from tests.live_app import ROOT

pytestmark = pytest.mark.browser

APP = ROOT / "tests" / "browser" / "draw_app.py"
# The plot area's rectangle, corners (-3, 3) and (3, -3). It lives in the component's shadow
# root, which Playwright's locators enter and document.querySelector (so settle()) does not.
AREA = ".arb-draw .arb-area"
POINTS = '[data-testid="stCode"]'
SPAN = (-3.0, 3.0)
TOLERANCE = 0.03  # a pixel is 6 / ~500 units; a click lands on a whole pixel


@pytest.fixture(scope="module")
def draw_server(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with serve(APP, tmp_path_factory.mktemp(APP.stem)) as running:
        yield running


@pytest.fixture
def drawing(browser: Any, draw_server: LiveServer) -> Iterator[AppPage]:
    """A fresh tab on the drawing app; fails if the server logged a traceback meanwhile."""
    with tab(browser, draw_server, forbidden="Traceback") as app:
        app.open("/", (POINTS,))
        app.page.locator(AREA).wait_for()  # Playwright's locators see into the shadow root
        yield app
        app.assert_healthy()


def shown_points(app: AppPage) -> list[tuple[float, float, int]]:
    """What ``draw_points`` returned in the last run, as the app printed it."""
    count, *lines = app.page.locator(POINTS).inner_text().strip().splitlines()
    points = [(float(x), float(y), int(label)) for x, y, label in (s.split() for s in lines)]
    assert count == f"{len(points)} points"
    return points


def wait_for_points(app: AppPage, count: int) -> list[tuple[float, float, int]]:
    app.page.wait_for_function(
        "([selector, first]) => { const code = document.querySelector(selector);"
        " return code !== null && code.innerText.trim().split('\\n')[0] === first; }",
        arg=[POINTS, f"{count} points"],
        timeout=60_000,
    )
    app.settle((POINTS,))
    points = shown_points(app)
    assert len(points) == count
    assert app.page.locator(".arb-draw circle.arb-point").count() == count
    return points


def choose_class(app: AppPage, index: int) -> None:
    """Pick a class with the radio, and wait until the drawing area was told (the next run)."""
    app.page.locator('[data-testid="stRadioOption"]').nth(index).click()
    area = app.page.locator(".arb-draw")
    deadline = time.monotonic() + 60
    while area.evaluate("host => host.arbMemory.data.chosen") != index:
        assert time.monotonic() < deadline, "the drawing area never heard of the new class"
        app.page.wait_for_timeout(100)
    app.settle((POINTS,))


def near(point: tuple[float, float, int], x: float, y: float, label: int) -> bool:
    return abs(point[0] - x) <= TOLERANCE and abs(point[1] - y) <= TOLERANCE and point[2] == label


def test_three_clicks_add_three_points_and_a_click_on_a_point_removes_it(
    drawing: AppPage,
) -> None:
    assert wait_for_points(drawing, 0) == []
    drawing.click_at(AREA, SPAN, -1.5, 2.0)
    first = wait_for_points(drawing, 1)
    assert near(first[0], -1.5, 2.0, 0), first
    drawing.click_at(AREA, SPAN, 0.5, -0.25)
    wait_for_points(drawing, 2)
    choose_class(drawing, 1)
    drawing.click_at(AREA, SPAN, 2.0, -2.0)
    points = wait_for_points(drawing, 3)
    expected = [(-1.5, 2.0, 0), (0.5, -0.25, 0), (2.0, -2.0, 1)]
    assert all(near(p, *e) for p, e in zip(points, expected, strict=True)), points
    assert points[0] == first[0]  # an earlier point does not move when another is added

    # The second point's circle, clicked with the mouse, takes it away and nothing else.
    drawing.page.locator(".arb-draw circle.arb-point").nth(1).click()
    left = wait_for_points(drawing, 2)
    assert left == [points[0], points[2]]
    # Its colour is its class's: the app's palette, blue then orange.
    fills = drawing.page.locator(".arb-draw circle.arb-point").evaluate_all(
        "dots => dots.map((dot) => dot.getAttribute('fill'))"
    )
    assert fills == ["#0072B2", "#E69F00"]


def test_a_burst_of_clicks_keeps_every_point(drawing: AppPage) -> None:
    spots = [(-2.5 + 0.9 * k, 1.0 - 0.4 * k) for k in range(6)]
    for x, y in spots:  # no waiting: the clicks overtake the reruns they ask for
        drawing.click_at(AREA, SPAN, x, y)
    points = wait_for_points(drawing, len(spots))
    assert all(near(p, x, y, 0) for p, (x, y) in zip(points, spots, strict=True)), points
    # Every click was answered, so none waits to be sent again.
    pending = drawing.page.locator(".arb-draw").evaluate("host => host.arbMemory.pending.length")
    assert pending == 0
    # A rerun for another reason (a new class) changes no point.
    choose_class(drawing, 2)
    assert shown_points(drawing) == points


def test_points_replaced_by_the_app_stay_replaced(drawing: AppPage, tmp_path: Path) -> None:
    drawing.click_at(AREA, SPAN, 1.0, 1.0)
    drawing.click_at(AREA, SPAN, -1.0, -1.0)
    wait_for_points(drawing, 2)
    drawing.page.locator(".st-key-clear button").click()
    wait_for_points(drawing, 0)
    choose_class(drawing, 1)  # the clicks before "Clear" must not come back on a later run
    assert shown_points(drawing) == []

    drawing.page.locator(".st-key-moons button").click()
    puzzle = wait_for_points(drawing, 20)
    assert {label for _, _, label in puzzle} == {0, 1}
    # A click on one of the puzzle's points removes exactly that one.
    drawing.page.locator(".arb-draw circle.arb-point").nth(5).click()
    assert wait_for_points(drawing, 19) == puzzle[:5] + puzzle[6:]
    png = drawing.screenshot(tmp_path / "draw.png")
    assert png.startswith(b"\x89PNG")
