"""A 1280x720 screen (a laptop, a classroom projector): the boundary and the tree at once.

Every page that shows a decision boundary and a tree diagram is there so a student can see each
split of the tree as a step of the boundary; that only works when both are on screen together.
Each page is opened by its URL in a 1280x720 window, the main area is scrolled once so that the
upper of the two starts just below Streamlit's header, and then both must lie inside the window,
each tall enough to read. On a phone the two stack, each within the screen's width.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import (
    GINI_VS_ENTROPY,
    GROW_STEP_BY_STEP,
    OPEN_TIMEOUT_MS,
    PHONE,
    PROJECTOR,
    RANDOM_FOREST,
    SINGLE_TREE,
    AppPage,
    PageCase,
    tab,
)

from deploy.process import LiveServer

pytestmark = pytest.mark.browser

# Smallest (width, height) each may have: less and a boundary's regions or a diagram's boxes are
# too small to make out. A diagram fitted to its column is as tall as its shape makes it, and a
# shallow tree is wide and short: the forest's tree 0 on iris is 218 px tall at 378 px wide.
MIN_SIZE = {"boundary": (250.0, 250.0), "tree": (250.0, 150.0)}

# (page, the boundary chart's container key, the tree diagram's container key).
# Single tree's and Gini vs entropy's default trees, fitted to their column's width alone,
# were taller than the screen: they test the diagram's height cap too.
CASES = (
    (SINGLE_TREE, "boundary-chart", "tree-diagram"),
    (GROW_STEP_BY_STEP, "step-boundary", "tree-diagram"),
    (GINI_VS_ENTROPY, "boundary-gini", "tree-gini"),
    (GINI_VS_ENTROPY, "boundary-entropy", "tree-entropy"),
    (RANDOM_FOREST, "forest-tree-chart", "tree-diagram"),
)

# Scroll the app's main area (it scrolls, not the document) so the upper of the two elements
# starts just below the fixed header, as a visitor would with one turn of the wheel.
_SCROLL_TO_BOTH = """
([first, second]) => {
  const main = document.querySelector('[data-testid="stMain"]');
  const header = document.querySelector('[data-testid="stHeader"]');
  const below = header ? header.getBoundingClientRect().bottom : 0;
  const top = Math.min(
    document.querySelector(first).getBoundingClientRect().top,
    document.querySelector(second).getBoundingClientRect().top,
  );
  main.scrollTop += top - below;
  return below;
}
"""


# Boxes in the main area's own coordinates, which scrolling does not change.
_ON_THE_PAGE = """
(selectors) => {
  const main = document.querySelector('[data-testid="stMain"]');
  return selectors.map((selector) => {
    const box = document.querySelector(selector).getBoundingClientRect();
    return {x: box.x, y: box.y + main.scrollTop, width: box.width, height: box.height};
  });
}
"""


@pytest.fixture
def small_screen(browser: Any, server: LiveServer) -> Iterator[AppPage]:
    """A fresh tab in a 1280x720 window; fails if the server raised meanwhile."""
    with tab(browser, server, viewport=PROJECTOR) as app:
        yield app


@pytest.fixture
def phone(browser: Any, server: LiveServer) -> Iterator[AppPage]:
    """A fresh tab as wide as a phone held upright; fails if the server raised meanwhile."""
    with tab(browser, server, viewport=PHONE) as app:
        yield app


def _open_both(app: AppPage, case: PageCase, chart: str, diagram: str) -> list[str]:
    """Open ``case`` by its URL; return the boundary plot's and the diagram's selectors, drawn."""
    app.open(case.path, case.ready)
    app.assert_healthy()
    both = [f".st-key-{chart} .js-plotly-plot", f".st-key-{diagram} svg"]
    for selector in both:  # charts the page's ready list does not name draw late
        app.page.locator(selector).first.wait_for(timeout=OPEN_TIMEOUT_MS)
    return both


def _box(app: AppPage, selector: str) -> dict[str, float]:
    box = app.page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not drawn"
    return dict(box)


@pytest.mark.parametrize(
    ("case", "chart", "diagram"),
    CASES,
    ids=[f"{case.name}-{chart}" for case, chart, _ in CASES],
)
def test_boundary_and_tree_fit_one_1280x720_screen(
    small_screen: AppPage, case: PageCase, chart: str, diagram: str
) -> None:
    app = small_screen
    plot, tree = _open_both(app, case, chart, diagram)
    below_header = app.page.evaluate(_SCROLL_TO_BOTH, [plot, tree])
    app.page.wait_for_timeout(300)  # let the scroll land before measuring
    boxes = {"boundary": _box(app, plot), "tree": _box(app, tree)}
    for what, box in boxes.items():
        width, height = MIN_SIZE[what]
        assert box["width"] >= width, f"the {what} is only {box['width']:.0f} px wide"
        assert box["height"] >= height, f"the {what} is only {box['height']:.0f} px tall"
        assert box["y"] >= below_header - 1, f"the {what} starts under the header: {box}"
        bottom = box["y"] + box["height"]
        assert bottom <= PROJECTOR["height"] + 1, (
            f"the {what} runs {bottom - PROJECTOR['height']:.0f} px below a 720 px screen "
            f"when the {'tree' if what == 'boundary' else 'boundary'} is in view: {boxes}"
        )


@pytest.mark.parametrize(
    ("case", "chart", "diagram"),
    CASES,
    ids=[f"{case.name}-{chart}" for case, chart, _ in CASES],
)
def test_on_a_phone_boundary_and_tree_stack_within_its_width(
    phone: AppPage, case: PageCase, chart: str, diagram: str
) -> None:
    app = phone
    measured = app.page.evaluate(_ON_THE_PAGE, _open_both(app, case, chart, diagram))
    boxes = dict(zip(("boundary", "tree"), measured, strict=True))
    for what, box in boxes.items():
        assert box["x"] >= 0, f"the {what} starts left of the screen: {box}"
        assert box["x"] + box["width"] <= PHONE["width"], f"the {what} runs off: {box}"
    # Stacked, not squeezed side by side: the tree comes below the whole boundary.
    boundary = boxes["boundary"]
    assert boxes["tree"]["y"] >= boundary["y"] + boundary["height"], boxes
