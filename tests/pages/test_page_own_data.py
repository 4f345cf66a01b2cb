"""The dataset picker: kinds, puzzle points in the URL, uploads, links that cannot carry them."""

from __future__ import annotations

import pytest
from page_helpers import (
    HOME,
    PAGE_FILES,
    SINGLE_TREE,
    assert_healthy,
    block,
    open_page,
    query_of,
    svg,
    warnings,
)

from core.app.pages import PAGES
from core.data.catalogue import load_dataset
from core.data.datasets import train_test_split

GOOD_CSV = (
    "island,bill_mm,flipper_mm,sex,species\n"
    "Biscoe,39.1,181,male,Adelie\n"
    "Dream,39.5,,female,Adelie\n"
    "Torgersen,40.3,195,female,Adelie\n"
    "Biscoe,,193,male,Adelie\n"
    "Dream,46.5,192,female,Chinstrap\n"
    "Dream,50.0,196,male,Chinstrap\n"
    "Dream,51.3,193,,Chinstrap\n"
    "Dream,45.4,188,female,Chinstrap\n"
    "Biscoe,46.1,211,female,Gentoo\n"
    "Biscoe,50.0,230,male,Gentoo\n"
    "Biscoe,48.7,210,female,Gentoo\n"
    "Biscoe,50.0,218,male,Gentoo\n"
) * 3


def _upload(app, name: str, content: bytes):
    return app.file_uploader(key="upload_file").upload(name, content, "text/csv").run()


def _choose_upload(app):
    app.segmented_control(key="data_kind").set_value("upload").run()
    return app


def test_the_picker_shows_the_kinds_apart_and_remembers_each():
    app = open_page(SINGLE_TREE)
    kind = app.segmented_control(key="data_kind")
    assert kind.value == "table"
    kinds = ["Tables", "Puzzles", "Draw", "Upload"]
    assert [option.split()[-1] for option in kind.options] == kinds
    app.selectbox(key="dataset").set_value("wine").run()
    app.segmented_control(key="data_kind").set_value("generated").run()
    assert_healthy(app)
    assert query_of(app)["dataset"] == "sine"
    assert app.select_slider(key="noise").value == 2.5
    app.segmented_control(key="data_kind").set_value("table").run()
    assert query_of(app)["dataset"] == "wine"  # the table shown last, not the first
    assert not [s for s in app.select_slider if s.key == "noise"]


def test_a_puzzle_link_reproduces_its_points_and_the_seed_leaves_them_alone():
    app = open_page(SINGLE_TREE, dataset="sine", noise="1.5", data_seed="5", seed="0")
    assert_healthy(app)
    assert (app.select_slider(key="noise").value, app.number_input(key="data_seed").value) == (
        1.5,
        5,
    )
    points = load_dataset("sine", noise=1.5, random_state=5)
    rows = train_test_split(points, test_size=0.25, random_state=0)
    first = app.selectbox(key="sample").options[0]
    assert first.endswith(f"y = {float(rows.y_test[0]):.2f})")
    query = query_of(app)
    assert (query["noise"], query["data_seed"], query["seed"]) == ("1.5", "5", "0")

    app.number_input(key="seed").set_value(3).run()  # another split of the same points
    rows = train_test_split(points, test_size=0.25, random_state=3)
    assert app.selectbox(key="sample").options[0].endswith(f"y = {float(rows.y_test[0]):.2f})")
    assert query_of(app)["data_seed"] == "5"

    app.number_input(key="data_seed").set_value(6).run()  # other points
    redrawn = load_dataset("sine", noise=1.5, random_state=6)
    other = train_test_split(redrawn, test_size=0.25, random_state=3)
    assert app.selectbox(key="sample").options[0].endswith(f"y = {float(other.y_test[0]):.2f})")
    assert query_of(app)["data_seed"] == "6"


def test_absurd_puzzle_values_get_the_friendly_notice():
    app = open_page(SINGLE_TREE, dataset="sine", data_seed="-4", noise="<script>", n_samples="0")
    assert_healthy(app)
    shown = " ".join(warnings(app))
    assert "data_seed" in shown and "noise" in shown and "n_samples" in shown
    assert "<script>" not in shown
    query = query_of(app)
    assert (query["data_seed"], query["noise"]) == ("0", "2.5")


@pytest.mark.parametrize("page", [p for p in PAGES if p.settings], ids=lambda p: p.url_path)
def test_a_link_to_someone_elses_upload_falls_back_with_a_notice(page):
    app = open_page(PAGE_FILES[page.url_path], dataset="upload-3fa9c2d1", max_depth="2")
    assert_healthy(app)
    assert query_of(app)["dataset"] == page.settings().dataset
    assert query_of(app)["max_depth"] == "2"  # the rest of the link still applies
    assert any("a link cannot carry them" in w for w in warnings(app))


def test_an_upload_with_text_and_gaps_grows_a_tree_and_the_share_box_says_it_stays_here():
    app = _choose_upload(open_page(SINGLE_TREE, max_depth="3"))
    assert query_of(app)["dataset"] == "iris"  # nothing uploaded yet: still iris
    _upload(app, "penguins.csv", GOOD_CSV.encode())
    assert_healthy(app)
    name = query_of(app)["dataset"]
    assert name.startswith("upload-")
    assert app.selectbox(key="upload_target").value == "species"
    report = block(app, "upload-report")
    assert "rows" in report.caption[0].value
    diagram = svg(app)
    assert "Adelie" in diagram or "Gentoo" in diagram
    share = block(app, "share-link")
    assert any("cannot carry your uploaded table" in w.value for w in share.warning)


def test_another_target_column_regrows_the_tree():
    app = _upload(_choose_upload(open_page(SINGLE_TREE)), "p.csv", GOOD_CSV.encode())
    before = svg(app)
    app.selectbox(key="upload_target").set_value("island").run()
    assert_healthy(app)
    assert app.radio(key="upload_task").value == "classification"
    assert svg(app) != before
    assert "Biscoe" in svg(app)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "empty"),
        (b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4, ""),
        (b"a,b,c\n1,2,3\n4,5\n6,7,8,9,10\n1,2,3\n", ""),
    ],
    ids=["empty", "png", "ragged"],
)
def test_a_failed_upload_says_why_and_keeps_the_dataset_shown(content, words):
    app = open_page(SINGLE_TREE, dataset="wine")
    before = svg(app)
    _choose_upload(app)
    _upload(app, "bad.csv", content)
    assert_healthy(app)
    problem = block(app, "upload-problem").error[0].value
    assert words in problem.lower()
    assert query_of(app)["dataset"] == "wine"
    assert svg(app) == before


def test_a_bad_file_after_a_good_one_keeps_the_good_one():
    app = _upload(_choose_upload(open_page(SINGLE_TREE)), "p.csv", GOOD_CSV.encode())
    name, before = query_of(app)["dataset"], svg(app)
    _upload(app, "again.csv", b"")
    assert_healthy(app)
    assert query_of(app)["dataset"] == name
    assert svg(app) == before


def test_markup_in_names_and_values_is_shown_as_text():
    table = "**bold**,<b>tag</b>,kind\n" + "".join(
        f"{i},{i % 4},{'<i>yes</i>' if i % 2 else '[no](http://x)'}\n" for i in range(30)
    )
    app = _upload(_choose_upload(open_page(SINGLE_TREE)), "m.csv", table.encode())
    assert_healthy(app)
    for element in [*app.markdown, *app.caption, *app.info]:
        assert "<b>tag</b>" not in element.value and "<i>yes</i>" not in element.value
        assert "](http://x)" not in element.value


def test_one_sessions_upload_is_not_in_another_sessions_picker_or_link():
    mine = _upload(_choose_upload(open_page(SINGLE_TREE)), "p.csv", GOOD_CSV.encode())
    link = query_of(mine)
    theirs = open_page(SINGLE_TREE, **link)
    assert_healthy(theirs)
    assert query_of(theirs)["dataset"] == "iris"
    assert any("a link cannot carry them" in w for w in warnings(theirs))
    theirs.segmented_control(key="data_kind").set_value("upload").run()
    assert not [s for s in theirs.selectbox if s.key == "dataset"]
    assert query_of(theirs)["dataset"] == "iris"


def _draw(app):
    app.segmented_control(key="data_kind").set_value("drawn").run()
    return app


def test_drawing_starts_from_a_puzzle_and_grows_a_tree_on_the_points():
    app = _draw(open_page(SINGLE_TREE))
    assert_healthy(app)
    assert query_of(app)["dataset"] == "drawn"
    assert app.metric[0].label == "Train accuracy"
    assert "class A" in svg(app)
    share = block(app, "share-link")
    assert any("cannot carry your drawn points" in w.value for w in share.warning)
    assert app.get("download_button")  # the points as CSV


def test_too_few_points_say_what_is_missing_instead_of_a_tree():
    app = _draw(open_page(SINGLE_TREE))
    app.button(key="drawn-clear").click().run()
    assert_healthy(app)
    assert not app.metric  # no tree, no scores
    assert any("No points yet" in i.value for i in app.info)
    assert query_of(app)["dataset"] == "drawn"

    app.selectbox(key="drawn_puzzle").set_value("moons").run()
    app.button(key="drawn-start").click().run()
    assert_healthy(app)
    assert app.metric and "class B" in svg(app)


@pytest.mark.parametrize("page", [p for p in PAGES if p.settings], ids=lambda p: p.url_path)
def test_every_page_grows_on_drawn_points(page):
    app = _draw(open_page(PAGE_FILES[page.url_path]))
    assert_healthy(app)
    assert query_of(app)["dataset"] == "drawn"
    assert app.metric


def fourteen_classes() -> bytes:
    """A table of 14 classes (the forest article's accelerometer data has 14), 3 features."""
    import numpy as np

    rng = np.random.default_rng(0)
    centres = rng.uniform(-10, 10, size=(14, 3))
    rows = ["a,b,c,activity"]
    for k, centre in enumerate(centres):
        for point in centre + rng.normal(0, 1.5, size=(25, 3)):
            rows.append(",".join(f"{v:.3f}" for v in point) + f",move_{k:02d}")
    return ("\n".join(rows) + "\n").encode()


def test_a_table_of_14_classes_works_on_every_page():
    # Issue 24: an upload of more than 7 classes was refused; up to 20 now have a colour each.
    app = open_page(HOME)
    app.switch_page(PAGES[1].path).run()  # from the home page, as the app starts
    app = _upload(_choose_upload(app), "moves.csv", fourteen_classes())
    assert_healthy(app)
    name = query_of(app)["dataset"]
    assert name.startswith("upload-")
    diagram = svg(app)
    assert diagram.count("move_") >= 14, "the legend names every class"
    for page in PAGES[2:]:  # Random forest, Gini vs entropy, Grow it step by step
        app.switch_page(page.path)
        app.query_params.clear()  # a page-list link: the settings, the upload too, carry over
        app.run()
        assert_healthy(app)
        assert query_of(app)["dataset"] == name, page.title
        shown = [w for w in warnings(app) if not w.startswith("A link cannot carry")]
        assert not shown, page.title
