"""A few real students in Chromium, riding along with the simulated ones.

They confirm what a person sees while the server is loaded: each opens a link in its own
browser context, then presses an arrow key on one of the page's sliders, waits until the page
has settled with the new value in its URL, and checks that no exception is shown. Their time
per change is taken on Python's clock, so it includes Playwright's round trips (tens of ms).
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from classroom_load.classroom_students import Interaction
from tests.live_app import SETTLED_FN, VIEWPORT, chromium_path, launch_chromium

if TYPE_CHECKING:  # Playwright is imported only when riders ride.
    from playwright.sync_api import Page

_SETTLED_WITH = f"""
(before) => {{
  {SETTLED_FN}
  return settled([]) && window.location.search !== before;
}}
"""
_OPENED = f"() => {{ {SETTLED_FN} return settled(['[data-testid=\"stSlider\"]']); }}"


@dataclass
class BrowserRiders:
    """``count`` Chromium students, each opening one link and making ``changes`` changes.

    Run with :meth:`start` (a thread) and :meth:`join`; ``log`` holds their interactions,
    with the student numbers ``1000 + i``. Before each change a rider thinks as the simulated
    students do: uniformly between ``think``'s bounds, in seconds.
    """

    base_url: str
    links: list[tuple[str, dict[str, str]]]
    changes: int = 10
    think: tuple[float, float] = (2.0, 6.0)
    timeout_ms: int = 120_000
    log: list[Interaction] = field(default_factory=list)
    _thread: threading.Thread | None = None

    def start(self) -> BrowserRiders:
        self._thread = threading.Thread(target=self._ride, daemon=True)
        self._thread.start()
        return self

    def join(self) -> None:
        if self._thread is not None:
            self._thread.join()

    def _record(self, who: int, page: str, action: str, began: float, error: str) -> None:
        self.log.append(Interaction(who, page, action, began, time.monotonic() - began, error))

    def _ride(self) -> None:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright

        rng = random.Random(1000)
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright, chromium_path())
            tabs = []
            for i, (path, query) in enumerate(self.links):
                page = browser.new_context(viewport=VIEWPORT).new_page()
                began = time.monotonic()
                try:
                    page.goto(f"{self.base_url}/{path}?{urlencode(query)}", timeout=self.timeout_ms)
                    page.wait_for_function(_OPENED, timeout=self.timeout_ms)
                    error = self._shown_error(page)
                except PlaywrightError as failure:
                    error = f"browser: {str(failure).splitlines()[0][:160]}"
                self._record(1000 + i, path, "open", began, error)
                tabs.append((1000 + i, path, page))
            for _ in range(self.changes):
                for who, path, page in tabs:
                    time.sleep(rng.uniform(*self.think))
                    self._change(who, path, page, rng)
            browser.close()

    def _change(self, who: int, path: str, page: Page, rng: random.Random) -> None:
        from playwright.sync_api import Error as PlaywrightError

        began = time.monotonic()
        try:
            before = page.evaluate("() => window.location.search")
            sliders = page.locator('[data-testid="stSidebar"] input[type="range"]')
            slider = sliders.nth(rng.randrange(max(1, sliders.count())))
            slider.focus()
            key = rng.choice(["ArrowRight", "ArrowLeft"])
            began = time.monotonic()
            slider.press(key)
            try:
                page.wait_for_function(_SETTLED_WITH, arg=before, timeout=5_000)
            except PlaywrightError:  # at the end of its range: the other way
                began = time.monotonic()
                slider.press("ArrowLeft" if key == "ArrowRight" else "ArrowRight")
                page.wait_for_function(_SETTLED_WITH, arg=before, timeout=self.timeout_ms)
            error = self._shown_error(page)
        except PlaywrightError as failure:
            error = f"browser: {str(failure).splitlines()[0][:160]}"
        self._record(who, path, "slider", began, error)

    @staticmethod
    def _shown_error(page: Page) -> str:
        if page.locator('[data-testid="stException"]').count():
            return "exception shown in Chromium"
        return ""
