"""Your own data in a real browser: uploads (good and bad), two visitors at once, drawing.

Files are written by the tests themselves and given to the page's real file input; points
are drawn with real mouse clicks on the drawing area.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import (
    GINI_VS_ENTROPY,
    GROW_STEP_BY_STEP,
    RANDOM_FOREST,
    SINGLE_TREE,
    AppPage,
    PageCase,
    url_query,
)

from deploy.process import LiveServer
from tests.live_app import VIEWPORT

pytestmark = pytest.mark.browser

# A table as a class might bring it: a text column, a gap in numbers and in text, a column
# of row ids that must be left out.
PENGUINS = "id,island,bill_mm,flipper_mm,sex,species\n" + "".join(
    f"{i},{island},{bill},{flipper},{sex},{species}\n"
    for i, (island, bill, flipper, sex, species) in enumerate(
        [
            ("Biscoe", 39.1, 181, "male", "Adelie"),
            ("Dream", 39.5, "", "female", "Adelie"),
            ("Torgersen", 40.3, 195, "female", "Adelie"),
            ("Biscoe", "", 193, "male", "Adelie"),
            ("Torgersen", 36.7, 193, "", "Adelie"),
            ("Dream", 46.5, 192, "female", "Chinstrap"),
            ("Dream", 50.0, 196, "male", "Chinstrap"),
            ("Dream", 51.3, 193, "", "Chinstrap"),
            ("Dream", 45.4, 188, "female", "Chinstrap"),
            ("Dream", 52.7, 197, "male", "Chinstrap"),
            ("Biscoe", 46.1, 211, "female", "Gentoo"),
            ("Biscoe", 50.0, 230, "male", "Gentoo"),
            ("Biscoe", 48.7, 210, "female", "Gentoo"),
            ("Biscoe", 50.0, 218, "male", "Gentoo"),
            ("Biscoe", 47.6, "", "male", "Gentoo"),
        ]
        * 4
    )
)
BAD_FILES = {
    "empty": b"",
    "png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8,
    "ragged": b"a,b,c\n1,2,3\n4,5\n6,7,8,9,10\n1,2,3\n",
}
UPLOADER = '.st-key-upload_file input[type="file"]'
AREA = ".arb-draw .arb-area"


def choose_kind(app: AppPage, label: str) -> None:
    """Click one of the picker's kinds (Tables, Puzzles, Draw, Upload) and wait for the run."""
    app.page.locator(".st-key-data_kind button", has_text=label).first.click()
    # The click's run may not have started yet when the page looks settled: wait for what
    # the chosen kind shows (the uploader for Upload, the drawing for Draw) first.
    shown = {"Upload": UPLOADER, "Draw": AREA}.get(label)
    if shown is not None:
        app.page.locator(shown).wait_for(state="attached")
    app.settle()


def upload(app: AppPage, path: Path) -> None:
    app.page.locator(UPLOADER).set_input_files(str(path))
    app.settle()
    # The uploader's callback runs with the next run; wait for that run to finish too.
    app.page.wait_for_timeout(500)
    app.settle()


def shown_dataset(app: AppPage) -> str:
    return app.selectbox_value("dataset")


@pytest.fixture
def penguins(tmp_path: Path) -> Path:
    path = tmp_path / "penguins.csv"
    path.write_text(PENGUINS, encoding="utf-8")
    return path


@pytest.fixture
def second(browser: Any, server: LiveServer) -> Iterator[AppPage]:
    """Another visitor: a browser context of its own, so a session of its own."""
    context = browser.new_context(viewport=VIEWPORT)
    try:
        yield AppPage(context.new_page(), server)
    finally:
        context.close()


def _open_via_sidebar(app: AppPage, case: PageCase) -> None:
    """Go to another page in the same session, as a visitor does, by the sidebar's link."""
    app.page.locator(".st-key-app-navigation a", has_text=case.title).first.click()
    app.page.wait_for_url(f"**{case.path}?*")
    app.settle(case.ready)


def test_an_upload_with_text_and_gaps_grows_trees_on_every_page(
    app: AppPage, penguins: Path, screenshot_dirs: list[Path]
) -> None:
    app.open(SINGLE_TREE.path + "?max_depth=4", SINGLE_TREE.ready)
    choose_kind(app, "Upload")
    upload(app, penguins)
    app.settle(SINGLE_TREE.ready)
    app.assert_healthy()
    name = url_query(app)["dataset"]
    assert name.startswith("upload-")
    assert shown_dataset(app) == "penguins.csv"
    assert app.svg_nodes("tree-diagram") >= 3
    text = app.html(".st-key-tree-diagram")
    assert "Adelie" in text or "Gentoo" in text
    share = app.page.locator(".st-key-share-link").inner_text()
    assert "A link cannot carry your uploaded table" in share
    first, *copies = screenshot_dirs
    png = app.screenshot(first / "own-data-upload.png")
    for directory in copies:
        (directory / "own-data-upload.png").write_bytes(png)

    for case in (RANDOM_FOREST, GINI_VS_ENTROPY):
        _open_via_sidebar(app, case)
        app.assert_healthy()
        assert url_query(app)["dataset"] == name, case.name
        for key in case.diagrams:
            assert app.svg_nodes(key) >= 3, f"{case.name}: no tree in {key}"


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
def test_a_bad_file_gets_a_friendly_message_and_the_page_keeps_its_dataset(
    app: AppPage, tmp_path: Path, kind: str
) -> None:
    app.open(SINGLE_TREE.path + "?dataset=wine", SINGLE_TREE.ready)
    # The drawing itself: the zoom's script styles the <svg> around it when it starts.
    tree = ".st-key-tree-diagram svg g.graph"
    before = app.html(tree)
    choose_kind(app, "Upload")
    path = tmp_path / f"{kind}.csv"
    path.write_bytes(BAD_FILES[kind])
    upload(app, path)
    app.page.locator(".st-key-upload-problem").wait_for()
    assert app.exceptions() == [] and app.failures() == []
    problem = app.page.locator(".st-key-upload-problem").inner_text()
    assert len(problem) > 20, problem
    assert "Traceback" not in problem
    assert url_query(app)["dataset"] == "wine"
    assert app.html(tree) == before


def test_one_visitors_upload_is_never_seen_by_another(
    app: AppPage, second: AppPage, penguins: Path
) -> None:
    app.open(SINGLE_TREE.path, SINGLE_TREE.ready)
    second.open(SINGLE_TREE.path, SINGLE_TREE.ready)
    choose_kind(app, "Upload")
    upload(app, penguins)
    app.settle(SINGLE_TREE.ready)
    link = app.page.url
    assert "upload-" in link

    # Not in the other visitor's picker...
    choose_kind(second, "Upload")
    assert second.page.locator(".st-key-dataset").count() == 0
    assert "penguins" not in second.page.locator('[data-testid="stSidebar"]').inner_text()
    # ...and not through the uploader's link: it falls back, and says why.
    second.page.goto(link)
    second.settle(SINGLE_TREE.ready)
    second.assert_healthy()
    assert url_query(second)["dataset"] == "iris"
    assert any("a link cannot carry them" in notice for notice in second.notices())
    assert "Adelie" not in second.html(".st-key-tree-diagram")


def test_an_upload_with_gaps_grows_step_by_step(app: AppPage, penguins: Path) -> None:
    app.open(SINGLE_TREE.path, SINGLE_TREE.ready)
    choose_kind(app, "Upload")
    upload(app, penguins)
    app.settle(SINGLE_TREE.ready)
    _open_via_sidebar(app, GROW_STEP_BY_STEP)
    app.assert_healthy()


def test_three_drawn_points_change_the_tree(app: AppPage) -> None:
    app.open(SINGLE_TREE.path, SINGLE_TREE.ready)
    choose_kind(app, "Draw")
    app.page.locator(AREA).wait_for()
    app.settle(SINGLE_TREE.ready)
    assert url_query(app)["dataset"] == "drawn"
    before = app.html(".st-key-tree-diagram")
    leaves = app.metric("Leaves")
    # Three points of a third class in the empty top-left corner of the XOR puzzle.
    app.page.locator(".st-key-drawn_class button", has_text="class C").first.click()
    app.settle()
    for x, y in ((-1.7, 1.7), (-1.5, 1.8), (-1.8, 1.5)):
        app.click_at(AREA, (-2.0, 2.0), x, y)
    after = app.wait_for_new_content(".st-key-tree-diagram", before)
    app.settle(SINGLE_TREE.ready)
    app.assert_healthy()
    assert "class C" in app.html(".st-key-tree-diagram") or app.metric("Leaves") != leaves
    assert after != before
