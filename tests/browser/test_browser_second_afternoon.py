"""What a class met on its second afternoon, at 1280x720 (and at 1920x1080 and on a 390 px
phone): the step page's leaves in sight, full screen with its own controls, and the lessons on
the first screen of every page.

A step's leaves are its point, but a readable view folded single leaves into "+ 1 more
node" boxes; full screen showed the tree with no way to zoom or leave it but the keyboard;
"More to see" began 1,655 px down the Single tree sidebar.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import (
    GINI_VS_ENTROPY,
    GROW_STEP_BY_STEP,
    HOME,
    LARGE,
    PHONE,
    PROJECTOR,
    RANDOM_FOREST,
    SINGLE_TREE,
    AppPage,
    PageCase,
    serve,
    show_sidebar,
    tab,
)

from deploy.process import LiveServer
from tests.live_app import ROOT

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server_without_dot(
    chromium: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    with serve(ROOT / "serve.py", tmp_path_factory.mktemp("serve"), without_dot=True) as running:
        yield running


@pytest.fixture(params=["dot", "browser layout"])
def either_server(
    request: pytest.FixtureRequest, server: LiveServer, server_without_dot: LiveServer
) -> LiveServer:
    return server if request.param == "dot" else server_without_dot


def open_tree(app: AppPage, case: PageCase, query: str, key: str = "tree-diagram") -> None:
    app.open(case.path + query, case.ready)
    # The browser's layout arrives after the page; so does the zoom bar.
    app.page.wait_for_selector(f".st-key-{key} button[data-zoom='in']")
    app.page.wait_for_timeout(500)


# The texts of the diagram's SVG, one per <text>.
_TEXTS = """
(key) => [...document.querySelectorAll(
  `.st-key-${key}-drawing .arboretum-svg svg text, ` +
  `.st-key-${key}-drawing [data-testid="stGraphVizChart"] svg text`)]
  .map((t) => t.textContent.trim())
"""


#: The other screens a class opens the app on, beside the projector.
OTHER_SCREENS = pytest.mark.parametrize("viewport", [LARGE, PHONE], ids=["1920x1080", "390x844"])


@pytest.mark.parametrize("step", [3, 5])
def test_the_step_page_shows_the_leaves_of_its_step(
    either_server: LiveServer, browser: Any, step: int
) -> None:
    with tab(browser, either_server, viewport=PROJECTOR) as app:
        _check_the_leaves_of_step(app, step)


@OTHER_SCREENS
def test_the_step_page_shows_the_leaves_of_step_3_on_other_screens(
    server: LiveServer, browser: Any, viewport: dict[str, int]
) -> None:
    with tab(browser, server, viewport=viewport) as app:
        _check_the_leaves_of_step(app, 3)


def _check_the_leaves_of_step(app: AppPage, step: int) -> None:
    """Wine's tree at ``step``: every leaf drawn or in a box of more, dashes for the newest."""
    open_tree(app, GROW_STEP_BY_STEP, f"?dataset=wine&step={step}")
    app.assert_healthy()
    texts = app.page.evaluate(_TEXTS, "tree-diagram")
    assert not [t for t in texts if t.startswith("+ 1 more node")], "a leaf folded in a box"
    # Every leaf is drawn, or inside a box that folds more than itself.
    drawn = len([t for t in texts if t.startswith("predict ")])
    folded = sum(int(m.group(1)) for t in texts if (m := re.match(r"\((\d+) lea", t)))
    assert drawn + folded == int(app.metric("Leaves")) == step + 1
    if step == 3:
        assert drawn == 4, "the four leaves of step 3 are its point"
    # Dashes mean the newest split, and only that, in the caption.
    captions = app.page.locator('[data-testid="stCaptionContainer"]').all_inner_texts()
    assert any("thick dashed border is the newest split" in c for c in captions)


def test_the_step_page_opens_at_its_first_split(server: LiveServer, browser: Any) -> None:
    with tab(browser, server, viewport=PROJECTOR) as app:
        open_tree(app, GROW_STEP_BY_STEP, "")
        app.assert_healthy()
        assert app.metric("Splits made").startswith("1 of ")
        assert app.metric("Leaves") == "2"


# The diagram in full screen: whether it is, its smallest text as shown, and its bar.
_SCREEN = """
() => {
  const frame = document.fullscreenElement;
  if (!frame) return null;
  const svg = frame.querySelector("svg");
  const box = svg.viewBox.baseVal;
  const shown = svg.getBoundingClientRect();
  const scale = Math.min(shown.width / box.width, shown.height / box.height);
  const sizes = [...svg.querySelectorAll("text")]
    .filter((t) => t.textContent.trim())
    .map((t) => parseFloat(t.getAttribute("font-size")) * scale);
  const buttons = [...frame.querySelectorAll(".arboretum-screen-bar button")].map((b) => {
    const r = b.getBoundingClientRect();
    return {label: b.getAttribute("aria-label"), text: b.textContent, visible:
      r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight
      && r.left >= 0 && r.right <= innerWidth};
  });
  return {smallest: Math.min(...sizes), buttons};
}
"""


def screen(app: AppPage) -> dict[str, Any] | None:
    app.page.wait_for_timeout(600)  # the zoom is applied at the next frame
    shown: dict[str, Any] | None = app.page.evaluate(_SCREEN)
    return shown


@pytest.mark.parametrize(
    "viewport", [PROJECTOR, LARGE, PHONE], ids=["1280x720", "1920x1080", "390x844"]
)
def test_full_screen_opens_readable_with_its_own_buttons(
    server: LiveServer, browser: Any, viewport: dict[str, int]
) -> None:
    key = "tree-diagram"
    with tab(browser, server, viewport=viewport) as app:
        open_tree(app, SINGLE_TREE, "?dataset=breast_cancer&max_depth=none", key)
        app.page.locator(f".st-key-{key}-size button", has_text="Whole tree").click()
        app.settle()
        app.page.wait_for_selector(f".st-key-{key} button[data-zoom='screen']")
        app.page.wait_for_timeout(500)
        app.page.locator(f".st-key-{key} button[data-zoom='screen']").click()
        app.page.wait_for_selector(".arboretum-screen-bar button")
        opened = screen(app)
        assert opened is not None, "not in full screen"
        assert opened["smallest"] >= 12, f"full screen opens at {opened['smallest']:.1f} px text"
        labels = [b["label"] for b in opened["buttons"]]
        assert [label.split(" (")[0] for label in labels] == [
            "Zoom in",
            "Zoom out",
            "Fit the whole tree on the screen",
            "Exit full screen",
        ]
        assert all(b["visible"] for b in opened["buttons"]), opened["buttons"]

        bar = app.page.locator(".arboretum-screen-bar")
        bar.get_by_role("button", name="Zoom in").click()
        zoomed = screen(app)
        assert zoomed is not None and zoomed["smallest"] > opened["smallest"] * 1.2
        bar.get_by_role("button", name="Fit the whole tree on the screen").click()
        fitted = screen(app)
        assert fitted is not None and fitted["smallest"] < opened["smallest"]
        # From the keyboard: the buttons take the focus and Enter presses them.
        zoom_out = bar.get_by_role("button", name="Zoom out")
        bar.get_by_role("button", name="Zoom in").focus()
        app.page.keyboard.press("Enter")
        before = screen(app)
        zoom_out.focus()
        assert app.page.evaluate("() => document.activeElement.getAttribute('aria-label')")
        app.page.keyboard.press("Enter")
        after = screen(app)
        assert before is not None and after is not None
        assert after["smallest"] < before["smallest"]
        bar.get_by_role("button", name="Exit full screen").click()
        app.page.wait_for_timeout(500)
        assert app.page.evaluate("() => document.fullscreenElement") is None
        assert app.page.locator(".arboretum-screen-bar").count() == 0

        # Escape leaves full screen too.
        app.page.locator(f".st-key-{key} button[data-zoom='screen']").click()
        app.page.wait_for_selector(".arboretum-screen-bar button")
        app.page.keyboard.press("Escape")
        app.page.wait_for_timeout(500)
        assert app.page.evaluate("() => document.fullscreenElement") is None
        app.assert_healthy()


# The first lesson a page offers, as its top edge on the first screen (sidebar unscrolled).
# Every page on the projector; on a large screen and on a phone (its sidebar opened from its
# button), the page where the lessons began furthest down; and Home on a phone, where four
# points of introduction above the lessons pushed the first one off the screen.
LESSONS = [
    (SINGLE_TREE, ".st-key-view button", PROJECTOR),
    (RANDOM_FOREST, ".st-key-view button", PROJECTOR),
    (GINI_VS_ENTROPY, ".st-key-view button", PROJECTOR),
    (HOME, ".st-key-lesson-cards button", PROJECTOR),
    (SINGLE_TREE, ".st-key-view button", LARGE),
    (SINGLE_TREE, ".st-key-view button", PHONE),
    (HOME, ".st-key-lesson-cards button", PHONE),
]


@pytest.mark.parametrize(
    ("case", "selector", "viewport"),
    LESSONS,
    ids=[f"{c.name}-{v['width']}x{v['height']}" for c, _, v in LESSONS],
)
def test_the_lessons_are_on_the_first_screen(
    server: LiveServer, browser: Any, case: PageCase, selector: str, viewport: dict[str, int]
) -> None:
    with tab(browser, server, viewport=viewport) as app:
        app.open(case.path, case.ready)
        app.page.evaluate("() => window.scrollTo(0, 0)")
        show_sidebar(app)
        first = app.page.locator(selector).first
        first.wait_for(state="visible")
        box = first.bounding_box()
        assert box is not None
        assert box["y"] + box["height"] <= viewport["height"], f"first lesson at {box['y']} px"
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], box
