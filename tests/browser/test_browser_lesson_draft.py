"""The lesson being built survives a reload in Chromium: the address keeps it."""

from __future__ import annotations

import pytest
from browser_helpers import AppPage

pytestmark = pytest.mark.browser


def test_the_lesson_being_built_comes_back_after_a_reload(app: AppPage) -> None:
    app.open("/Single_tree?dataset=sine&max_depth=3", ("h1",))
    app.page.get_by_text("Prepare a lesson", exact=True).click()
    app.page.get_by_role("button", name="Add this view as a screen").click()
    app.page.wait_for_url("**draft=**")
    app.settle()
    app.page.reload()
    app.settle(("h1",))
    app.page.get_by_text("Prepare a lesson", exact=True).click()
    app.page.get_by_text("1 screen so far").wait_for()
    app.page.locator(".st-key-app-navigation a", has_text="Home").click()
    app.page.locator(".st-key-lesson-actions").wait_for()
    assert "draft=" in app.page.url
    app.assert_healthy()
