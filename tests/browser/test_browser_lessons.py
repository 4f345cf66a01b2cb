"""Prepared lessons in Chromium: one runs from Home screen by screen, its words above the
figures, and comes back after a reload; a teacher builds one from two pages, downloads it,
and opens it again from the file and from its link."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_helpers import AppPage, url_query

from core.classroom.plans import read_plan

pytestmark = pytest.mark.browser


# The address shows the page (its path's end) and, when asked, the lesson's screen.
_SHOWS = """([page, screen]) => window.location.pathname.endsWith(page)
  && (screen === null || new URLSearchParams(window.location.search).get("screen") === screen)"""


def _go(app: AppPage, act: object, page: str, screen: int | None = None) -> None:
    """Act, then wait until the address shows ``page`` (and ``screen``) and the run is over.

    A move to another screen can write the address twice, the screen on the page it leaves and
    then the next page's path, so waiting for any change of address could read the page between
    the two.
    """
    act()  # type: ignore[operator]
    wanted = None if screen is None else str(screen)
    app.page.wait_for_function(_SHOWS, arg=[page, wanted])
    app.settle(("h1",))


def _bar_text(app: AppPage) -> str:
    return app.page.locator(".st-key-lesson-bar").inner_text()


def test_a_shipped_lesson_runs_screen_by_screen_and_survives_a_reload(app: AppPage) -> None:
    app.open("/", ("h1", ".st-key-lesson-cards"))
    _go(app, app.page.locator(".st-key-lesson-start-how-a-tree-grows button").click, "/Single_tree")
    assert app.page.url.split("?")[0].endswith("/Single_tree")
    assert "screen 1 of 5" in _bar_text(app)
    # The words sit above the page's own heading, inside the first screen of a projector.
    bar, title = app.box(".st-key-lesson-bar"), app.box("h1")
    assert bar["y"] < title["y"]
    app.page.evaluate("() => window.scrollTo(0, 0)")
    assert app.page.locator(".st-key-lesson-bar").bounding_box()["y"] < 720  # type: ignore[index]
    for screen, page in ((2, "/Single_tree"), (3, "/Grow_it_step_by_step")):
        _go(app, app.page.get_by_role("button", name="Next screen").click, page, screen)
        assert app.page.url.split("?")[0].endswith(page)
        assert f"screen {screen} of 5" in _bar_text(app)
        assert url_query(app)["screen"] == str(screen)
    assert url_query(app)["step"] == "1"
    app.page.reload()
    app.settle(("h1", ".st-key-lesson-bar"))
    assert "screen 3 of 5" in _bar_text(app)
    _go(app, app.page.get_by_role("button", name="Previous screen").click, "/Single_tree", 2)
    assert url_query(app)["max_depth"] == "2"
    app.page.get_by_role("button", name="End lesson").click()
    app.page.locator(".st-key-lesson-bar").wait_for(state="detached")
    app.assert_healthy()


def _add_view(app: AppPage, screen: int) -> None:
    """Add the view on screen as screen number ``screen``, and wait for its own toast: the
    previous add's toast can still be up, and a move made before the add's run ends can
    overtake it."""
    add = app.page.get_by_role("button", name="Add this view as a screen")
    if not add.is_visible():
        app.page.get_by_text("Prepare a lesson", exact=True).click()
    add.wait_for(state="visible")
    add.click()
    app.page.locator('[data-testid="stToast"]', has_text=f"Screen {screen} added").wait_for()
    app.settle()


def test_a_teacher_builds_a_lesson_downloads_it_and_opens_it_again(
    app: AppPage, tmp_path: Path
) -> None:
    app.open("/Single_tree?dataset=sine&max_depth=3", ("h1",))
    _add_view(app, 1)
    nav = app.page.locator(".st-key-app-navigation a", has_text="Random forest")
    _go(app, nav.click, "/Random_forest")
    _add_view(app, 2)
    _go(app, app.page.locator(".st-key-app-navigation a", has_text="Home").click, "/")
    actions = app.page.locator(".st-key-lesson-actions")
    actions.wait_for()
    with app.page.expect_download() as download:
        app.page.get_by_role("button", name="Download the lesson file").click()
    saved = tmp_path / "lesson.toml"
    download.value.save_as(saved)
    plan, problems = read_plan(saved.read_bytes())
    assert problems == [] and plan is not None
    # A link leaves out what equals the page's default (max_depth 3 is the sine's), and the
    # sidebar carried the tree's settings to the forest's page.
    links = [screen.link for screen in plan.screens]
    assert links[0] == "Single_tree?dataset=sine"
    assert links[1].startswith("Random_forest?dataset=sine&")
    assert len(links) == 2
    link = app.page.locator(".st-key-lesson-editor-link code, [data-testid='stCode'] code")
    shared = link.last.inner_text().strip()
    assert "?lesson=" in shared

    # Opened again from its file, in a new session.
    app.open("/", ("h1",))
    app.page.get_by_text("Your own lesson", exact=False).click()
    app.page.locator("[data-testid='stFileUploaderDropzoneInput']").set_input_files(str(saved))
    app.page.get_by_role("button", name="Run it").wait_for()
    _go(app, app.page.get_by_role("button", name="Run it").click, "/Single_tree")
    assert "My lesson · screen 1 of 2" in _bar_text(app).replace("\n", " ")
    assert url_query(app)["dataset"] == "sine"

    # And from its link.
    app.page.goto(shared)
    app.page.wait_for_url("**/Single_tree?**")
    app.settle(("h1", ".st-key-lesson-bar"))
    assert "screen 1 of 2" in _bar_text(app)
    _go(app, app.page.get_by_role("button", name="Next screen").click, "/Random_forest", 2)
    assert app.page.url.split("?")[0].endswith("/Random_forest")
    app.assert_healthy()
