"""A page under hostile links and quick hands, in a real browser: a notice, never a traceback.

Hostile links (markup, absurd numbers, unknown names) give a notice and reach neither the DOM
nor a script; a new seed followed by another control, a burst of arrow presses, the browser's
back button and a sidebar link each leave the page working and showing what was asked last.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest
from browser_helpers import (
    HOME,
    PAGES,
    RANDOM_FOREST,
    SINGLE_TREE,
    AppPage,
    PageCase,
    url_query,
)

from core.data.catalogue import list_datasets

pytestmark = pytest.mark.browser

TITLES = {info.name: info.title for info in list_datasets()}

# --- a hostile link gives a notice, and nothing else -----------------------------------------

SCRIPT = "<script>window.__pwned = 1</script>"
IMAGE = "<img src=x onerror=window.__pwned=2>"
HOSTILE = (
    f"?dataset=nope&max_depth=abc&n_estimators=1000000000"
    f"&seed={quote(SCRIPT)}&criterion={quote(IMAGE)}&x={quote(IMAGE)}"
)
# What each page falls back to: its default depth, shown on the slider.
DEFAULT_DEPTH = {"single-tree": "3", "random-forest": "no limit", "gini-vs-entropy": "4"}


@pytest.mark.parametrize("case", PAGES, ids=[case.name for case in PAGES])
def test_hostile_link_gives_a_notice_and_no_exception(app: AppPage, case: PageCase) -> None:
    app.open(case.path + HOSTILE, case.ready)
    app.assert_healthy()
    assert app.heading() == case.title
    assert app.page.evaluate("() => window.__pwned") is None, "markup from the URL ran"
    assert app.page.locator("img[src='x']").count() == 0, "markup from the URL reached the DOM"
    if case is HOME:
        return  # the home page has no settings to read
    (notice,) = app.notices()
    assert "dataset" in notice and "max_depth" in notice and "seed" in notice
    assert "<" not in notice, "the notice echoes markup"
    if case is RANDOM_FOREST:
        assert "n_estimators" in notice
        assert app.slider_value("n_estimators") == "100"
    assert app.selectbox_value("dataset") == TITLES["iris"]
    assert app.slider_value("max_depth") == DEFAULT_DEPTH[case.name]


# --- a new seed, then another control (issue 12: a traceback 7 times out of 7) -------------


# After the seed, a slider that changes what the watched element shows.
AFTER_SEED = {
    "single-tree": ("max_depth", ".st-key-tree-diagram"),
    "random-forest": ("n_estimators", ".st-key-boundary .gtitle"),
}


@pytest.mark.parametrize("case", [SINGLE_TREE, RANDOM_FOREST], ids=["single-tree", "random-forest"])
def test_new_seed_then_another_control_keeps_the_page_working(app: AppPage, case: PageCase) -> None:
    # The test sample's labels name its row and class, which change with the seed: the
    # browser must not send the old label back as the sample when the next control moves.
    slider, watched = AFTER_SEED[case.name]
    app.open(case.path, case.ready)
    before = app.html(".st-key-tree-diagram")
    seed = app.page.locator('.st-key-seed input[type="number"]')
    seed.fill("42")
    seed.press("Enter")
    app.wait_for_new_content(".st-key-tree-diagram", before)
    assert url_query(app)["seed"] == "42"

    before = app.html(watched)
    app.nudge_slider(slider)
    app.wait_for_new_content(watched, before)

    app.assert_healthy()
    assert url_query(app)["seed"] == "42"
    assert url_query(app)["sample"] == "0"


# --- quick slider moves (issue 12: 13 of 36 bursts ended on the intended value) -------------


@pytest.mark.parametrize("presses", [5, 8])
def test_quick_arrow_presses_end_on_the_last_value_everywhere(app: AppPage, presses: int) -> None:
    # Each press reruns the page while the last run may still be drawing, so a rerun can
    # carry the URL of a run before: that URL must not win over the slider the student moved.
    app.open(SINGLE_TREE.path + "?dataset=breast_cancer&max_depth=1", SINGLE_TREE.ready)
    assert app.slider_value("max_depth") == "1"
    thumb = app.page.locator('.st-key-max_depth input[type="range"]')
    thumb.focus()
    for _ in range(presses):
        thumb.press("ArrowRight")
        app.page.wait_for_timeout(60)
    app.page.wait_for_timeout(1500)  # let every queued run start, then wait for the last
    app.settle(SINGLE_TREE.ready)

    expected = str(1 + presses)
    assert app.slider_value("max_depth") == expected
    assert url_query(app)["max_depth"] == expected
    assert app.metric("Depth") == expected
    app.assert_healthy()


def test_back_button_returns_to_the_previous_view(app: AppPage) -> None:
    # A URL written by the app is stale when a rerun carries it; one the back button brings is
    # the visitor's choice, and the page must follow it.
    app.open(SINGLE_TREE.path, SINGLE_TREE.ready)
    before = app.html(".st-key-tree-diagram")
    app.nudge_slider("max_depth")
    app.wait_for_new_content(".st-key-tree-diagram", before)
    assert url_query(app)["max_depth"] == "4"

    deeper = app.html(".st-key-tree-diagram")
    app.page.go_back()
    app.wait_for_new_content(".st-key-tree-diagram", deeper)

    assert url_query(app)["max_depth"] == "3"
    assert app.slider_value("max_depth") == "3"
    assert app.metric("Depth") == "3"
    app.assert_healthy()


def chosen_kinds(app: AppPage) -> list[str]:
    """The Data control's choices shown as selected (one, always)."""
    buttons = app.page.locator('.st-key-data_kind button[aria-checked="true"]')
    return [text.split()[-1] for text in buttons.all_inner_texts()]


def test_the_data_control_keeps_its_choice_after_a_sidebar_link(app: AppPage) -> None:
    # Issue 24: after the page list's link from Single tree to Random forest, the Data control
    # showed no choice selected, and the next run sent an empty data_kind.
    app.open(SINGLE_TREE.path, SINGLE_TREE.ready)
    assert chosen_kinds(app) == ["Tables"]
    app.page.locator(".st-key-app-navigation a", has_text="Random forest").first.click()
    app.page.wait_for_url("**/Random_forest**")
    app.settle(RANDOM_FOREST.ready)
    assert app.heading() == "Random forest"
    assert chosen_kinds(app) == ["Tables"]

    before = app.html(".st-key-tree-diagram")
    app.page.locator(".st-key-seed button").last.click()  # the next run
    app.wait_for_new_content(".st-key-tree-diagram", before)
    app.settle(RANDOM_FOREST.ready)
    app.assert_healthy()
    assert chosen_kinds(app) == ["Tables"]
    assert (url_query(app)["dataset"], url_query(app)["seed"]) == ("iris", "1")
