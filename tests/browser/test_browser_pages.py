"""The real app in a real browser: every page opened by its URL, moved and linked to.

The page tests in ``tests/pages`` run the scripts in-process; these catch what only a browser
sees: the URL paths Streamlit derives, widgets set from the query string, diagrams and charts
actually drawn and redrawn (hostile links and quick hands: ``test_browser_pages_hostile.py``).
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest
from browser_helpers import (
    GINI_VS_ENTROPY,
    HOME,
    PAGES,
    RANDOM_FOREST,
    SINGLE_TREE,
    AppPage,
    PageCase,
    url_query,
)

from core.app.lessons import LESSONS
from core.data.catalogue import list_datasets

pytestmark = pytest.mark.browser

TITLES = {info.name: info.title for info in list_datasets()}


# --- each page, opened directly ------------------------------------------------------------


@pytest.mark.parametrize("case", PAGES, ids=[case.name for case in PAGES])
def test_page_opened_by_its_url_shows_its_content(
    app: AppPage, case: PageCase, screenshot_dirs: list[Path]
) -> None:
    app.open(case.path, case.ready)
    assert app.heading() == case.title
    assert app.page.title() == case.document_title
    app.assert_healthy()
    assert app.notices() == [], "a plain link must not show a notice"
    for key in case.diagrams:
        assert app.svg_nodes(key) >= 3, f"the diagram in {key} has fewer than 3 nodes"
    for key in case.charts:
        assert app.chart_traces(key) >= 1, f"the chart in {key} drew no data"
    first, *copies = screenshot_dirs
    png = app.screenshot(first / case.screenshot)
    assert png.startswith(b"\x89PNG")
    for directory in copies:
        (directory / case.screenshot).write_bytes(png)


def test_home_links_into_every_page_and_lists_the_datasets(app: AppPage) -> None:
    app.open(HOME.path, HOME.ready)
    app.assert_healthy()
    links = app.page.locator(".st-key-page-links a")
    links.first.wait_for()  # under load the links can arrive after the page looks ready
    hrefs = [urlsplit(link.get_attribute("href") or "").path for link in links.all()]
    assert [href.rsplit("/", 1)[-1] for href in hrefs] == [
        "Single_tree",
        "Random_forest",
        "Gini_vs_entropy",
        "Grow_it_step_by_step",
    ]
    assert app.page.locator(".st-key-classroom-links a").count() == len(LESSONS)
    for name, title in TITLES.items():
        card = app.page.locator(f".st-key-dataset-{name}")
        assert title in card.inner_text(), f"the {name} card does not name {title!r}"


def test_classroom_link_opens_its_page_in_that_state(app: AppPage) -> None:
    app.open(HOME.path, (".st-key-classroom-links a",))
    app.page.get_by_role("link", name="One question sorts out setosa").click()
    app.settle(SINGLE_TREE.ready)
    assert app.heading() == "Single tree"
    assert url_query(app)["max_depth"] == "1"
    assert app.slider_value("max_depth") == "1"
    assert app.metric("Depth") == "1"
    assert app.svg_nodes("tree-diagram") == 3  # the root and its two leaves
    app.assert_healthy()


# --- moving a slider redraws -----------------------------------------------------------------


def test_single_tree_max_depth_slider_redraws_the_tree(app: AppPage) -> None:
    app.open(SINGLE_TREE.path, SINGLE_TREE.ready)
    assert app.slider_value("max_depth") == "3"
    before = app.html(".st-key-tree-diagram")
    leaves_before = int(app.metric("Leaves"))

    app.nudge_slider("max_depth")
    app.wait_for_new_content(".st-key-tree-diagram", before)

    assert app.slider_value("max_depth") == "4"
    assert app.metric("Depth") == "4"
    assert int(app.metric("Leaves")) > leaves_before
    assert url_query(app)["max_depth"] == "4"
    app.assert_healthy()


def test_random_forest_n_estimators_slider_redraws_the_forest(app: AppPage) -> None:
    app.open(RANDOM_FOREST.path, RANDOM_FOREST.ready)
    assert app.slider_value("n_estimators") == "100"
    title = ".st-key-boundary .gtitle"
    before = app.html(title)
    assert "Forest of 100" in before
    tree_zero = app.html(".st-key-tree-diagram")

    app.nudge_slider("n_estimators")
    after = app.wait_for_new_content(title, before)

    assert "Forest of 101" in after
    assert app.slider_value("n_estimators") == "101"
    assert url_query(app)["n_estimators"] == "101"
    # Same seed: a forest of 101 trees starts with the 100 trees of the forest of 100.
    assert app.html(".st-key-tree-diagram") == tree_zero, "tree 0 changed with the forest size"
    app.assert_healthy()


def test_gini_vs_entropy_max_depth_slider_redraws_both_trees(app: AppPage) -> None:
    app.open(GINI_VS_ENTROPY.path, GINI_VS_ENTROPY.ready)
    assert app.slider_value("max_depth") == "4"
    gini, entropy = app.html(".st-key-tree-gini"), app.html(".st-key-tree-entropy")

    app.nudge_slider("max_depth")
    app.wait_for_new_content(".st-key-tree-gini", gini)

    assert app.html(".st-key-tree-entropy") != entropy
    assert app.slider_value("max_depth") == "5"
    assert url_query(app)["max_depth"] == "5"
    app.assert_healthy()


# --- a link with settings opens in that state ----------------------------------------------


def test_single_tree_link_sets_dataset_and_depth(app: AppPage) -> None:
    app.open(f"{SINGLE_TREE.path}?dataset=wine&max_depth=2", SINGLE_TREE.ready)
    assert app.selectbox_value("dataset") == TITLES["wine"]
    assert app.slider_value("max_depth") == "2"
    assert app.metric("Depth") == "2"
    assert app.notices() == []
    app.assert_healthy()


def test_random_forest_link_sets_dataset_size_and_depth(app: AppPage) -> None:
    app.open(f"{RANDOM_FOREST.path}?dataset=wine&n_estimators=7&max_depth=2", RANDOM_FOREST.ready)
    assert app.selectbox_value("dataset") == TITLES["wine"]
    assert app.slider_value("n_estimators") == "7"
    assert app.slider_value("max_depth") == "2"
    assert "Forest of 7" in app.html(".st-key-boundary .gtitle")
    assert app.notices() == []
    app.assert_healthy()


def test_gini_vs_entropy_link_sets_dataset_and_depth(app: AppPage) -> None:
    app.open(f"{GINI_VS_ENTROPY.path}?dataset=wine&max_depth=2", GINI_VS_ENTROPY.ready)
    assert app.selectbox_value("dataset") == TITLES["wine"]
    assert app.slider_value("max_depth") == "2"
    # A depth-2 tree has at most 4 leaves, and wine's trees use all 4.
    assert app.metric("Leaves", within=".st-key-side-gini") == "4"
    assert app.notices() == []
    app.assert_healthy()


def test_no_link_title_on_the_home_page_is_cut_at_1280(app: AppPage) -> None:
    # Issue 24: "A deep tree overfits breast cance" at 1280x720.
    app.page.set_viewport_size({"width": 1280, "height": 720})
    app.open(HOME.path, (".st-key-article-links a",))
    cut = app.page.evaluate(
        """() => [...document.querySelectorAll(
            '.st-key-classroom-links a, .st-key-article-links a, .st-key-page-links a')]
            .filter(a => [...a.querySelectorAll('*')].some(e =>
                e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflow !== 'visible'))
            .map(a => a.innerText)"""
    )
    assert cut == []
