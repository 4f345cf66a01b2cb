"""The main pages on a phone (390 px wide) and on a large screen (1920x1080): nothing of the
page's content runs off the side, and the controls stay usable.

A page may hold something wider than a phone on purpose: a wide tree or a table scrolls inside
its own box. What must not happen is the page itself growing wider than the screen, so that
the whole page slides sideways under a thumb.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import (
    EVERY_PAGE,
    LARGE,
    PHONE,
    PageCase,
    show_sidebar,
    tab,
)

from deploy.process import LiveServer

pytestmark = pytest.mark.browser


# How far the page and its main column reach beyond the window, in CSS pixels, and the
# elements of the main column whose right edge lies beyond it (the first few, to find them).
OVERFLOW = """() => {
  const width = window.innerWidth;
  const main = document.querySelector('[data-testid="stMain"]');
  const beyond = [...main.querySelectorAll('[data-testid="stElementContainer"]')]
    .filter((element) => element.getBoundingClientRect().right > width + 1
      && element.getBoundingClientRect().width > 0)
    .slice(0, 5)
    .map((element) => (element.className.match(/st-key-[\\w-]+/) || [""])[0]
      + " " + (element.querySelector("[data-testid]") || element).dataset.testid
      + " right=" + Math.round(element.getBoundingClientRect().right));
  return {
    page: document.documentElement.scrollWidth - width,
    main: main.scrollWidth - main.clientWidth,
    beyond,
  };
}"""


@pytest.mark.parametrize(
    ("viewport", "case"),
    [(PHONE, case) for case in EVERY_PAGE] + [(LARGE, case) for case in EVERY_PAGE],
    ids=[f"phone-{case.name}" for case in EVERY_PAGE]
    + [f"large-{case.name}" for case in EVERY_PAGE],
)
def test_the_page_fits_the_screen_across(
    browser: Any,
    server: LiveServer,
    screenshot_dirs: list[Path],
    viewport: dict[str, int],
    case: PageCase,
) -> None:
    with tab(browser, server, viewport=viewport) as app:
        app.open(case.path, case.ready)
        app.assert_healthy()
        app.page.wait_for_timeout(500)  # charts resize to their column once drawn
        reach = app.page.evaluate(OVERFLOW)
        shot = f"viewport-{viewport['width']}-{case.name}.png"
        for folder in screenshot_dirs[:1]:
            folder.mkdir(parents=True, exist_ok=True)
            app.page.screenshot(path=str(folder / shot), full_page=True)
        assert reach == {"page": 0, "main": 0, "beyond": []}, (case.path, reach)
        if viewport is PHONE:
            # On a phone the sidebar folds away; its button opens it, and once it has slid in
            # it lies within the screen, with the controls there.
            assert show_sidebar(app), "on a phone the sidebar must fold away behind its button"
            sidebar = app.page.locator('[data-testid="stSidebar"]')
            link = sidebar.locator("a", has_text="Random forest")
            link.wait_for(timeout=10_000)
            assert link.bounding_box() is not None
            for folder in screenshot_dirs[:1]:
                app.page.screenshot(path=str(folder / f"viewport-390-{case.name}-sidebar.png"))
