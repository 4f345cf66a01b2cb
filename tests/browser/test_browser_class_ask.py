"""The teacher's "Ask the class a question" popover closes once the question went, at 1280x720,
1920x1080 and on a 390 px phone.

Its open state lives in the browser unless the page takes it over: it stayed open after Ask,
over the page the teacher shows. The page test sees the state the server holds; only a browser
shows whether the popover is still on screen.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import (
    LARGE,
    PHONE,
    PROJECTOR,
    RERUN_TIMEOUT_MS,
    SINGLE_TREE,
    start_class,
    tab,
)

from deploy.process import LiveServer

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    "viewport", [PROJECTOR, LARGE, PHONE], ids=["1280x720", "1920x1080", "390x844"]
)
def test_the_ask_popover_closes_once_the_question_went(
    browser: Any, server: LiveServer, viewport: dict[str, int]
) -> None:
    with tab(browser, server, viewport=viewport) as teacher:
        start_class(teacher, SINGLE_TREE.path)
        sidebar = teacher.page.locator('[data-testid="stSidebar"]')
        sidebar.get_by_role("button", name="Ask the class a question").click()
        body = teacher.page.locator('[data-testid="stPopoverBody"]')
        body.wait_for(state="visible", timeout=RERUN_TIMEOUT_MS)
        box = body.bounding_box()
        assert box is not None and 0 <= box["x"] <= box["x"] + box["width"] <= viewport["width"]
        body.get_by_label("Question").first.fill("Will a deeper tree score better on the test?")
        body.get_by_role("button", name="Ask").first.click()
        # The question went: the teacher's page shows it, and the popover has closed.
        teacher.page.locator(".st-key-class-choice").wait_for(timeout=RERUN_TIMEOUT_MS)
        teacher.settle()
        assert not body.is_visible(), "the popover stays open over the page after Ask"
        teacher.assert_healthy()
