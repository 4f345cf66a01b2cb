"""Issue 20's views in Chromium: each opens from its link, and answers a click or an edit."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import (
    GINI_VS_ENTROPY,
    LARGE,
    PHONE,
    PROJECTOR,
    RANDOM_FOREST,
    SINGLE_TREE,
    AppPage,
    tab,
    url_query,
)

from deploy.process import LiveServer

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    ("path", "charts"),
    [
        (f"{RANDOM_FOREST.path}?view=variance&dataset=sine&max_depth=none", ("variance-trees",)),
        (f"{GINI_VS_ENTROPY.path}?view=criterion-matters&dataset=wine", ("parting-curves",)),
        (f"{SINGLE_TREE.path}?view=map&dataset=breast_cancer", ("param-map",)),
        (f"{SINGLE_TREE.path}?view=what-if", ("what-if-contributions",)),
    ],
    ids=["variance", "criterion-matters", "map", "what-if"],
)
def test_each_view_opens_from_its_link(app: AppPage, path: str, charts: tuple[str, ...]) -> None:
    app.open(path, ("h1", *(f".st-key-{key} .js-plotly-plot .main-svg" for key in charts)))
    app.assert_healthy()
    assert url_query(app)["view"] == path.split("view=")[1].split("&")[0]


@pytest.mark.parametrize(
    "viewport", [PROJECTOR, LARGE, PHONE], ids=["1280x720", "1920x1080", "390x844"]
)
def test_a_click_on_a_tree_at_a_glance_opens_that_tree(
    browser: Any, server: LiveServer, viewport: dict[str, int]
) -> None:
    """The opened tree comes into view on every screen: below the grid on a phone, beside the
    boundary on a large screen."""
    with tab(browser, server, viewport=viewport) as app:
        _click_the_sixth_map_at_a_glance(app)


def _click_the_sixth_map_at_a_glance(app: AppPage) -> None:
    app.open(f"{RANDOM_FOREST.path}?dataset=wine", RANDOM_FOREST.ready)
    app.page.get_by_text("The forest at a glance").click()
    glance = ".st-key-forest-glance .main-svg"
    app.page.wait_for_selector(glance)
    app.page.locator(".st-key-forest-glance").scroll_into_view_if_needed()
    app.page.wait_for_timeout(500)
    box = app.page.locator(glance).first.bounding_box()
    assert box is not None
    before = app.html(".st-key-tree-diagram")
    # The second row's second map: tree 5 of a 4-column grid.
    app.page.mouse.click(box["x"] + box["width"] * 0.37, box["y"] + box["height"] * 0.5)
    app.wait_for_new_content(".st-key-tree-diagram", before)
    assert app.page.locator(".st-key-tree input").input_value() == "5"
    assert url_query(app)["tree"] == "5"
    app.assert_healthy()
    # Issue 39: the tree opened below the fold, and nothing on the map said which it was.
    app.page.wait_for_function(
        """() => {
          const heading = document.querySelector(".st-key-open-tree");
          if (!heading) return false;
          const top = heading.getBoundingClientRect().top;
          return top >= 0 && top < window.innerHeight / 2;
        }""",
        timeout=10_000,
    )
    assert app.page.locator(".st-key-forest-glance .shapelayer path").count() == 1


def test_editing_the_sample_moves_its_star_and_its_path(app: AppPage) -> None:
    app.open(f"{SINGLE_TREE.path}?view=what-if", ("h1", ".st-key-what-if-contributions .main-svg"))
    before = app.html(".st-key-what-if-contributions")
    field = app.page.locator(".st-key-what-if-0-0 input")
    field.fill("5.5")
    field.press("Enter")
    app.wait_for_new_content(".st-key-what-if-contributions", before)
    assert "Changed:" in app.page.inner_text("[data-testid='stMain']")
    app.assert_healthy()
    # The edit is in the address bar (feature 2, petal length), so a copied link keeps it.
    app.page.wait_for_function("() => window.location.search.includes('edit=2~5.5')")
    assert url_query(app)["edit"] == "2~5.5"
