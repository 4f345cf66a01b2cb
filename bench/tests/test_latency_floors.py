"""The latency benchmark's page floor: the Single tree's shape, drawn by Streamlit alone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from streamlit.testing.v1 import AppTest

from bench.bench_latency import CASES
from bench.latency_floors import write_script
from tests.pages.page_helpers import SINGLE_TREE, open_page

PAGE_FLOOR = next(case for case in CASES if case.name == "page-floor")
SINGLE_TREE_CASE = next(case for case in CASES if case.name == "single-tree")


def _elements(app: AppTest) -> int:
    """Every element and container one run sent, in the main area and the sidebar."""

    def count(node: Any) -> int:
        children = getattr(node, "children", {}).values()
        return len(children) + sum(count(child) for child in children)

    return count(app.main) + count(app.sidebar)


def _page_floor(tmp_path: Path) -> AppTest:
    return AppTest.from_file(str(write_script("page-floor", tmp_path)), default_timeout=60).run()


def test_the_page_floor_sends_about_as_many_elements_as_the_single_tree_page(
    tmp_path: Path,
) -> None:
    query = dict(parse_qsl(urlsplit(SINGLE_TREE_CASE.path).query))
    page = _elements(open_page(SINGLE_TREE, **query))
    floor = _elements(_page_floor(tmp_path))
    # Within a tenth: a page that grew or shrank by more needs the floor reshaped to match.
    assert abs(floor - page) <= 0.1 * page, f"page floor {floor} elements, Single tree {page}"


def test_each_change_of_the_page_floor_draws_a_new_chart_and_echoes_the_value(
    tmp_path: Path,
) -> None:
    app = _page_floor(tmp_path)
    assert not app.exception
    before = app.get("plotly_chart")[0].proto
    app.slider(key=PAGE_FLOOR.slider).set_value(51).run()
    after = app.get("plotly_chart")[0].proto
    # A new figure, so a new chart element in the browser, as a new boundary is.
    assert json.loads(after.spec)["data"][0]["z"] != json.loads(before.spec)["data"][0]["z"]
    assert after.id != before.id
    assert "value 51" in [m.value for m in app.markdown]
