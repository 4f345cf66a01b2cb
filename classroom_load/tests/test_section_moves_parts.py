"""The section-moves benchmark's parts: its cases name real pages and its table reads right."""

from __future__ import annotations

from classroom_load.section_moves import CASES, Result, table
from core.app.pages import PAGES


def test_every_case_opens_a_page_of_the_app() -> None:
    paths = {page.url_path for page in PAGES if page.settings is not None}
    assert {case.path for case in CASES} <= paths
    assert any(case.name.endswith("(whole page)") for case in CASES)  # the reference move


def test_the_table_gives_fragment_runs_and_cpu_per_move() -> None:
    rows = table([Result("tree number", "Random_forest", 20, 19, 0.06, 0.055, 0.054)])
    assert rows.splitlines()[-1] == (
        "| tree number | Random_forest | 19 of 20 | 0.060 s (0.055 s) | 0.054 s |"
    )
