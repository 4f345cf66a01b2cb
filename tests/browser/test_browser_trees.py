"""Trees a class can read on a projector: fitted, zoomed and whole (issue 24).

At 1280x720 node text was 2-5 px for any tree deeper than about three levels, and "Full size"
gave 19 px text through a 378 px-wide box with no way to see the tree whole. Now the readable
view keeps every text at 10 px or more (12 at 1920x1080) by folding deeper levels; the whole
tree fits one box, zooms until its text reads 12 px and pans to any node: with Graphviz on the
server and with the browser's own layout (no ``dot``, as after a pip-only install).
Text sizes are measured in the DOM: a text's ``font-size`` in the drawing's units times the
scale at which the drawing is shown, zoom included.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import (
    GINI_VS_ENTROPY,
    GROW_STEP_BY_STEP,
    LARGE,
    PROJECTOR,
    RANDOM_FOREST,
    SINGLE_TREE,
    AppPage,
    PageCase,
    serve,
    tab,
)

from deploy.process import LiveServer
from tests.live_app import ROOT

pytestmark = pytest.mark.browser


# The diagram's own SVG (the server's, or the one st.graphviz_chart lays out), its text sizes
# as shown, and where its frame and nodes are on the screen.
_MEASURE = """
(key) => {
  const svg = document.querySelector(
    `.st-key-${key}-drawing .arboretum-svg svg, ` +
    `.st-key-${key}-drawing [data-testid="stGraphVizChart"] svg`);
  const box = svg.viewBox.baseVal;
  const shown = svg.getBoundingClientRect();
  const scale = Math.min(shown.width / box.width, shown.height / box.height);
  const sizes = [...svg.querySelectorAll("text")]
    .filter((t) => t.textContent.trim())
    .map((t) => parseFloat(t.getAttribute("font-size")) * scale);
  const frame = svg.parentElement.getBoundingClientRect();
  const nodes = [...svg.querySelectorAll("g.node")].map((g) => {
    const r = g.getBoundingClientRect();
    return {x: r.x + r.width / 2, y: r.y + r.height / 2, left: r.left, right: r.right,
            top: r.top, bottom: r.bottom};
  });
  return {
    smallest: Math.min(...sizes),
    frame: {left: frame.left, right: frame.right, top: frame.top, bottom: frame.bottom},
    nodes,
    folded: svg.textContent.includes("more node"),
  };
}
"""


@pytest.fixture(scope="module")
def server_without_dot(
    chromium: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    with serve(ROOT / "app.py", tmp_path_factory.mktemp("app"), without_dot=True) as running:
        yield running


@pytest.fixture(params=["dot", "browser layout"])
def either_server(
    request: pytest.FixtureRequest, server: LiveServer, server_without_dot: LiveServer
) -> LiveServer:
    return server if request.param == "dot" else server_without_dot


def measure(app: AppPage, key: str) -> dict[str, Any]:
    app.page.locator(f".st-key-{key}").scroll_into_view_if_needed()
    result: dict[str, Any] = app.page.evaluate(_MEASURE, key)
    return result


def inside(node: dict[str, float], frame: dict[str, float], slack: float = 1.0) -> bool:
    return (
        node["left"] >= frame["left"] - slack
        and node["right"] <= frame["right"] + slack
        and node["top"] >= frame["top"] - slack
        and node["bottom"] <= frame["bottom"] + slack
    )


def open_tree(app: AppPage, case: PageCase, query: str, key: str) -> None:
    app.open(case.path + query, case.ready)
    # The browser's layout arrives after the page; so does the zoom bar.
    app.page.wait_for_selector(f".st-key-{key} button[data-zoom='in']")
    app.page.wait_for_timeout(500)


# (page, query, diagram key): the classroom's deep trees, and each page's default.
FITTED = [
    (SINGLE_TREE, "?dataset=breast_cancer&max_depth=none", "tree-diagram"),
    (SINGLE_TREE, "", "tree-diagram"),
    (RANDOM_FOREST, "?dataset=wine", "tree-diagram"),
    (GINI_VS_ENTROPY, "?dataset=wine", "tree-gini"),
    (GROW_STEP_BY_STEP, "", "tree-diagram"),
]


@pytest.mark.parametrize(("case", "query", "key"), FITTED, ids=lambda x: str(x))
def test_fitted_trees_read_at_10_px_on_a_projector(
    browser: Any, either_server: LiveServer, case: PageCase, query: str, key: str
) -> None:
    with tab(browser, either_server, viewport=PROJECTOR) as app:
        open_tree(app, case, query, key)
        shown = measure(app, key)
        assert shown["smallest"] >= 10, f"{case.name}{query}: {shown['smallest']:.1f} px"
        app.assert_healthy()


@pytest.mark.parametrize(("case", "query", "key"), FITTED[:2], ids=lambda x: str(x))
def test_fitted_trees_read_at_12_px_at_1920(
    browser: Any, either_server: LiveServer, case: PageCase, query: str, key: str
) -> None:
    with tab(browser, either_server, viewport=LARGE) as app:
        open_tree(app, case, query, key)
        shown = measure(app, key)
        assert shown["smallest"] >= 12, f"{case.name}{query}: {shown['smallest']:.1f} px"


def test_a_deep_tree_is_whole_then_zooms_and_pans_to_any_node(
    browser: Any, either_server: LiveServer
) -> None:
    key = "tree-diagram"
    with tab(browser, either_server, viewport=PROJECTOR) as app:
        open_tree(app, SINGLE_TREE, "?dataset=breast_cancer&max_depth=none", key)
        fitted = measure(app, key)
        assert fitted["folded"], "a 40-leaf tree's readable view folds"

        before = app.html(f".st-key-{key}-drawing")
        app.page.locator(f".st-key-{key}-size button", has_text="Whole tree").click()
        app.wait_for_new_content(f".st-key-{key}-drawing", before)
        app.page.wait_for_timeout(500)
        whole = measure(app, key)
        assert not whole["folded"]
        assert len(whole["nodes"]) > len(fitted["nodes"])
        assert all(inside(node, whole["frame"]) for node in whole["nodes"]), "seen whole"
        assert whole["smallest"] < 10, "whole, this tree is too small to read: zoom is needed"

        zoom_in = app.page.locator(f".st-key-{key} button[data-zoom='in']")
        for _ in range(12):
            zoom_in.click()
            if measure(app, key)["smallest"] >= 12:
                break
        zoomed = measure(app, key)
        assert zoomed["smallest"] >= 12, f"zoomed text {zoomed['smallest']:.1f} px"

        # The node farthest from the frame's middle, dragged into sight.
        frame = zoomed["frame"]
        middle = ((frame["left"] + frame["right"]) / 2, (frame["top"] + frame["bottom"]) / 2)
        far = max(
            range(len(zoomed["nodes"])),
            key=lambda i: (
                abs(zoomed["nodes"][i]["x"] - middle[0]) + abs(zoomed["nodes"][i]["y"] - middle[1])
            ),
        )
        assert not inside(zoomed["nodes"][far], frame)
        moved = zoomed
        for _ in range(60):  # strokes of at most 150 px inside the frame, as a hand drags
            node = moved["nodes"][far]
            if inside(node, moved["frame"]):
                break
            step_x = max(-150.0, min(150.0, middle[0] - node["x"]))
            step_y = max(-150.0, min(150.0, middle[1] - node["y"]))
            app.page.mouse.move(*middle)
            app.page.mouse.down()
            app.page.mouse.move(middle[0] + step_x, middle[1] + step_y, steps=4)
            app.page.mouse.up()
            moved = measure(app, key)
        assert inside(moved["nodes"][far], moved["frame"]), "dragged into sight"
        assert moved["smallest"] >= 12, "still readable"

        # The keyboard (the drags focused the tree): 0 fits the whole tree again.
        app.page.keyboard.press("0")
        app.page.wait_for_timeout(300)
        again = measure(app, key)
        assert all(inside(node, again["frame"]) for node in again["nodes"])
        app.page.keyboard.press("+")
        app.page.wait_for_timeout(300)
        assert measure(app, key)["smallest"] > again["smallest"] * 1.2
        app.assert_healthy()


def test_the_wheel_zooms_a_tree_only_once_it_is_clicked(browser: Any, server: LiveServer) -> None:
    # Scrolling the page past a tree must scroll the page, not zoom the tree.
    key = "tree-diagram"
    with tab(browser, server, viewport=PROJECTOR) as app:
        open_tree(app, SINGLE_TREE, "", key)
        start = measure(app, key)["smallest"]
        frame = app.page.locator(f".st-key-{key} .arboretum-zoom-frame").bounding_box()
        assert frame is not None
        app.page.mouse.move(frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2)
        app.page.mouse.wheel(0, -200)
        app.page.wait_for_timeout(300)
        assert measure(app, key)["smallest"] == pytest.approx(start, rel=0.01)

        app.page.locator(f".st-key-{key} .arboretum-zoom-frame").click()
        app.page.mouse.wheel(0, -200)
        app.page.wait_for_timeout(300)
        assert measure(app, key)["smallest"] > start * 1.1
