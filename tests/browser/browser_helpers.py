"""Driving the real app: a page that knows when a run ends, and what each page must show.

The server and the browser's launch are ``tests.live_app``'s, shared with the latency
benchmark; so is the meaning of "settled" (``SETTLED_FN``). Here a page also stops waiting
when it shows an exception or a friendly failure, and after a control changes, the element we
watch must also differ from before.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

import pytest

from core.app import pages as app_pages
from core.app.settings import link_meaning
from deploy.process import LiveServer
from tests.live_app import SETTLED_FN, VIEWPORT, free_port, streamlit_command

#: A classroom projector: the size the app must read well at.
PROJECTOR = {"width": 1280, "height": 720}
#: A phone held upright, and a large screen: the other sizes a class opens the app at.
PHONE = {"width": 390, "height": 844}
LARGE = {"width": 1920, "height": 1080}

if TYPE_CHECKING:  # Playwright is imported by the fixtures, which fail clearly without it.
    from playwright.sync_api import Page

# Generous: two cores shared with other test suites, and a first visit fits a 500-tree forest.
OPEN_TIMEOUT_MS = 90_000
RERUN_TIMEOUT_MS = 60_000

_STATE = (
    SETTLED_FN
    + """
// An exception or a friendly failure will not go away by waiting: stop and report it.
const broken = () => document.querySelector('[data-testid="stException"]') !== null
  || [...document.querySelectorAll('[data-testid="stAlert"]')]
    .some((alert) => alert.innerText.includes("could not show"));
"""
)

_SETTLED = f"""
(selectors) => {{
  {_STATE}
  return settled([]) && (broken() || settled(selectors));
}}
"""

_CHANGED = f"""
([selector, before]) => {{
  {_STATE}
  const element = document.querySelector(selector);
  return settled([]) && (broken() || (element !== null && element.innerHTML !== before));
}}
"""


# --- the page ------------------------------------------------------------------------------


@dataclass
class AppPage:
    """A browser tab on the app, with what went wrong in it recorded as it happens."""

    page: Page
    server: LiveServer
    page_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.page.on("pageerror", lambda error: self.page_errors.append(str(error)))

        def dismiss(dialog: Any) -> None:
            self.dialogs.append(dialog.message)
            dialog.dismiss()

        self.page.on("dialog", dismiss)

    def box(self, selector: str, *, tries: int = 40) -> dict[str, float]:
        """The on-screen box of ``selector``, scrolled into view.

        An element a run redraws (the drawing area's SVG) can be replaced between finding it
        and measuring it: look again until it holds still.
        """
        from playwright.sync_api import Error as PlaywrightError

        for _ in range(tries):
            try:
                found = self.page.locator(selector).first
                found.scroll_into_view_if_needed(timeout=5000)
                box = found.bounding_box(timeout=5000)
            except PlaywrightError:
                box = None
            if box is not None:
                return dict(box)
            self.page.wait_for_timeout(250)
        raise AssertionError(f"{selector} never held still long enough to be clicked")

    def click_at(self, selector: str, span: tuple[float, float], x: float, y: float) -> None:
        """A real mouse click where a square plot area ``selector`` shows data point (x, y).

        ``span`` is the (low, high) data range of both axes; y grows upwards, as on a plot.
        """
        box = self.box(selector)
        low, high = span
        self.page.mouse.click(
            box["x"] + (x - low) / (high - low) * box["width"],
            box["y"] + (high - y) / (high - low) * box["height"],
        )

    def open(self, path: str, ready: tuple[str, ...]) -> None:
        """Go to ``path`` (with its query) and wait until the run is over and ``ready`` shown."""
        self.page.goto(self.server.url + path)
        self.settle(ready, timeout=OPEN_TIMEOUT_MS)

    def settle(self, ready: tuple[str, ...] = (), *, timeout: float = RERUN_TIMEOUT_MS) -> None:
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        try:
            self.page.wait_for_function(_SETTLED, arg=list(ready), timeout=timeout)
        except PlaywrightTimeout:
            raise AssertionError(self._stuck("the page did not settle")) from None
        missing = [selector for selector in ready if self.page.locator(selector).count() == 0]
        if missing:
            raise AssertionError(self._stuck(f"the page settled without {missing}"))

    def html(self, selector: str) -> str:
        inner: str = self.page.locator(selector).first.inner_html()
        return inner

    def wait_for_new_content(self, selector: str, before: str) -> str:
        """Wait until the run is over and ``selector``'s inner HTML differs from ``before``."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        try:
            self.page.wait_for_function(_CHANGED, arg=[selector, before], timeout=RERUN_TIMEOUT_MS)
        except PlaywrightTimeout:
            raise AssertionError(self._stuck(f"{selector} did not change")) from None
        after = self.html(selector) if self.page.locator(selector).count() else ""
        if after in ("", before):
            raise AssertionError(self._stuck(f"the run ended without changing {selector}"))
        return after

    def nudge_slider(self, key: str, press: str = "ArrowRight") -> None:
        """Move the slider with widget key ``key`` one step, from the keyboard."""
        thumb = self.page.locator(f'.st-key-{key} input[type="range"]')
        thumb.focus()
        thumb.press(press)

    def slider_value(self, key: str) -> str:
        """The value the slider shows on its thumb (checked against what it tells a reader)."""
        shown = self.page.locator(f'.st-key-{key} [data-testid="stSliderThumbValue"]')
        text = shown.inner_text().strip()
        spoken = self.page.locator(f'.st-key-{key} input[type="range"]')
        assert spoken.get_attribute("aria-valuetext") == text, "thumb and aria-valuetext differ"
        return text

    def selectbox_value(self, key: str) -> str:
        value: str = self.page.locator(f'.st-key-{key} input[role="combobox"]').input_value()
        return value

    def metric(self, label: str, within: str = "") -> str:
        """The value of the metric labelled exactly ``label`` (inside ``within``, if given)."""
        metrics = self.page.locator(f'{within} [data-testid="stMetric"]'.strip())
        found = [
            m.locator('[data-testid="stMetricValue"]').inner_text().strip()
            for m in metrics.all()
            if m.locator('[data-testid="stMetricLabel"]').inner_text().strip() == label
        ]
        assert len(found) == 1, f"expected one metric {label!r}, found {len(found)}"
        return found[0]

    def heading(self) -> str:
        text: str = self.page.locator("h1").first.inner_text().strip()
        return text

    def exceptions(self) -> list[str]:
        return self.page.locator('[data-testid="stException"]').all_inner_texts()

    def alerts(self) -> list[str]:
        return self.page.locator('[data-testid="stAlert"]').all_inner_texts()

    def notices(self) -> list[str]:
        """Warnings about the link (the friendly notice), not other messages."""
        return [a for a in self.alerts() if "could not be used" in a]

    def failures(self) -> list[str]:
        """Friendly failure messages: something on the page could not be drawn."""
        return [a for a in self.alerts() if "could not show" in a]

    def assert_healthy(self) -> None:
        assert self.exceptions() == [], self.exceptions()
        assert self.failures() == [], self.failures()
        assert self.page_errors == [], self.page_errors
        assert self.dialogs == [], self.dialogs

    def svg_nodes(self, key: str) -> int:
        """Nodes of the Graphviz diagram in the keyed container."""
        return self.page.locator(f".st-key-{key} svg g.node").count()

    def chart_traces(self, key: str) -> int:
        """Data traces Plotly drew in the keyed container (0 if the chart is not drawn)."""
        return self.page.locator(f".st-key-{key} .js-plotly-plot g.trace").count()

    def screenshot(self, path: Path) -> bytes:
        """The whole page, however long: the app scrolls inside ``stMain``, not the document."""
        page = self.page
        height = page.evaluate(
            "() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight"
        )
        page.set_viewport_size({"width": VIEWPORT["width"], "height": max(height, 900)})
        try:
            self.settle()
            page.evaluate("() => document.fonts.ready.then(() => true)")
            # CSS fades (elements appearing, charts resizing) leave no DOM trace to wait on.
            page.wait_for_timeout(600)
            path.parent.mkdir(parents=True, exist_ok=True)
            return page.screenshot(path=str(path), full_page=True)
        finally:
            page.set_viewport_size(VIEWPORT)

    def _stuck(self, what: str) -> str:
        state = self.page.evaluate(
            "() => { const app = document.querySelector('[data-testid=\"stApp\"]');"
            " return app ? [app.dataset.testScriptState, app.dataset.testConnectionState,"
            " document.querySelectorAll('[data-stale=\"true\"]').length] : null; }"
        )
        return (
            f"{what} (script state, connection, stale elements: {state}; "
            f"exceptions: {self.exceptions()}; alerts: {self.alerts()}).\n"
            f"Server log:\n{self.server.log_tail()}"
        )


# --- what each page must show ----------------------------------------------------------------


@dataclass(frozen=True)
class PageCase:
    """A page as a visitor opens it by URL, and what it must show then."""

    name: str
    path: str
    title: str
    document_title: str
    diagrams: tuple[str, ...]  # keys of containers holding a Graphviz SVG
    charts: tuple[str, ...]  # keys of containers holding a Plotly chart
    last: str  # key of the page's last element: once it is drawn, so is all before it
    screenshot: str

    @property
    def ready(self) -> tuple[str, ...]:
        """Selectors that exist once the page is drawn, the slowest parts included."""
        return (
            "h1",
            f".st-key-{self.last}",
            *(f".st-key-{key} svg g.node" for key in self.diagrams),
            *(f".st-key-{key} .js-plotly-plot .main-svg" for key in self.charts),
        )


HOME = PageCase("home", "/", "Arboretum", "Arboretum", (), (), "dataset-sine", "page-home.png")
SINGLE_TREE = PageCase(
    "single-tree",
    "/Single_tree",
    "Single tree",
    "Single tree · Arboretum",
    ("tree-diagram",),
    ("boundary-chart",),
    "how-computed",
    "page-single-tree.png",
)
RANDOM_FOREST = PageCase(
    "random-forest",
    "/Random_forest",
    "Random forest",
    "Random forest · Arboretum",
    ("tree-diagram",),
    ("forest-curve", "importances", "lone-boundary-chart", "boundary-chart", "votes"),
    "how-computed",
    "page-random-forest.png",
)
GINI_VS_ENTROPY = PageCase(
    "gini-vs-entropy",
    "/Gini_vs_entropy",
    "Gini vs entropy",
    "Gini vs entropy · Arboretum",
    ("tree-gini", "tree-entropy"),
    ("boundary-gini", "boundary-entropy", "impurity-curves", "depth-curves"),
    "how-computed",
    "page-gini-vs-entropy.png",
)
GROW_STEP_BY_STEP = PageCase(
    "grow-step-by-step",
    "/Grow_it_step_by_step",
    "Grow it step by step",
    "Grow it step by step · Arboretum",
    ("tree-diagram",),
    ("step-boundary", "split-scan", "your-split-bars"),
    "how-computed",
    "page-grow-step-by-step.png",
)
PAGES = (HOME, SINGLE_TREE, RANDOM_FOREST, GINI_VS_ENTROPY)
#: Home and every page of the app, the step page included.
EVERY_PAGE = (*PAGES, GROW_STEP_BY_STEP)


def chart_drawn(key: str) -> str:
    """The selector that matches once the chart in the container keyed ``key`` is drawn."""
    return f".st-key-{key} .js-plotly-plot .main-svg"


#: Every page as it opens, then the views a link opens, each with the selectors that show it
#: is drawn: what the page-wide checks (axe, the text alternatives) go through.
EVERY_VIEW: tuple[tuple[str, tuple[str, ...]], ...] = (
    *((case.path, case.ready) for case in EVERY_PAGE),
    (f"{SINGLE_TREE.path}?view=map", ("h1", chart_drawn("param-map"))),
    (f"{SINGLE_TREE.path}?view=what-if", ("h1", chart_drawn("what-if-contributions"))),
    (f"{RANDOM_FOREST.path}?view=variance", ("h1", chart_drawn("variance-trees"))),
    (f"{GINI_VS_ENTROPY.path}?view=criterion-matters", ("h1", chart_drawn("criterion-seeds"))),
    (f"{GINI_VS_ENTROPY.path}?view=map", ("h1", chart_drawn("gve-map-difference"))),
)


@contextmanager
def serve(
    script: Path,
    folder: Path,
    *,
    environment: Mapping[str, str] | None = None,
    without_dot: bool = False,
) -> Iterator[LiveServer]:
    """Serve ``script`` with Streamlit on a free port until the block ends; its log goes to
    ``folder``.

    ``environment`` is added to the server's. ``without_dot``: the server's PATH holds only
    Python's own folder, so Graphviz's ``dot`` is not found and the browser lays trees out, as
    after a pip-only install. The test fails, saying why, when the server does not start.
    """
    added = dict(environment or {})
    if without_dot:
        added["PATH"] = str(Path(sys.executable).parent)
    port = free_port()
    command = streamlit_command(script, port)
    if added:
        command = ["/usr/bin/env", *(f"{name}={value}" for name, value in added.items()), *command]
    try:
        running = LiveServer.start(command, port, folder / "server.log")
    except RuntimeError as error:
        pytest.fail(str(error), pytrace=False)
    try:
        yield running
    finally:
        running.stop()


def show_sidebar(app: AppPage) -> bool:
    """Open the sidebar where it folds away (a phone), and wait until it lies in the screen;
    whether it had to be opened.

    On a wider screen it is open already and this does nothing.
    """
    button = app.page.locator('[data-testid="stExpandSidebarButton"]')
    if not button.is_visible():
        return False
    button.click()
    app.page.wait_for_function(
        """() => {
          const box = document.querySelector('[data-testid="stSidebar"]').getBoundingClientRect();
          return box.left >= 0 && box.right <= window.innerWidth && box.width > 200;
        }""",
        timeout=10_000,
    )
    return True


def start_class(teacher: AppPage, path: str | None = None, *, shows: str | None = None) -> str:
    """The teacher opens ``path`` (or stays on the page it has open) and starts a class; its code.

    ``shows`` is a selector the teacher's sidebar must hold once the class has started (a
    lesson's class panel, say), for a test that goes on from it.
    """
    if path is not None:
        teacher.open(path, ("h1",))
    show_sidebar(teacher)  # where Class mode is, folded away on a phone
    teacher.page.get_by_text("Class mode", exact=True).click()
    teacher.page.locator(".st-key-class-start button").click()
    sidebar = teacher.page.locator('[data-testid="stSidebar"]', has_text="You teach class")
    sidebar.wait_for(timeout=RERUN_TIMEOUT_MS)
    if shows is not None:
        sidebar.locator(shows).wait_for(timeout=RERUN_TIMEOUT_MS)
    teacher.settle()
    found = re.search(r"You teach class\s+([A-Z0-9]{6})", teacher.page.inner_text("body"))
    assert found is not None
    return found.group(1)


@contextmanager
def tab(
    browser: Any,
    server: LiveServer,
    *,
    forbidden: str = "Uncaught app execution",
    viewport: Any = VIEWPORT,
) -> Iterator[AppPage]:
    """A fresh tab, and so a fresh Streamlit session: nothing carries over between tests.

    The test fails when the server logged ``forbidden`` while it ran, even if the page hid it
    from the visitor.
    """
    start = server.log.stat().st_size if server.log.exists() else 0
    context = browser.new_context(viewport=viewport)
    try:
        yield AppPage(context.new_page(), server)
    finally:
        context.close()
    with server.log.open("rb") as log:
        log.seek(start)
        logged = log.read().decode(errors="replace")
    if forbidden in logged:
        pytest.fail(f"the app raised on the server:\n{logged[-4000:]}", pytrace=False)


def url_query(app: AppPage) -> dict[str, str]:
    """What the link in the address bar means: every setting of its page, as text.

    A link leaves out what equals its default; this writes the defaults back in
    (``link_meaning``), so a test can read any setting from it.
    """
    parts = urlsplit(app.page.url)
    raw = {name: values[-1] for name, values in parse_qs(parts.query).items()}
    path = parts.path.rstrip("/").rsplit("/", 1)[-1]
    form = next((p.settings for p in app_pages.PAGES if p.settings and p.url_path == path), None)
    return raw if form is None else link_meaning(form, raw)
