"""Chart text a class can read from the back of the room: the four model pages as they open.

Every Plotly chart of the default pages, in headless Chromium at 1280x720, 1920x1080 and
390x844: text at least 11 px at 1280x720, no two texts of a chart over each other, none cut
off at its edge (``chart_text.py`` says how each is measured).
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import GINI_VS_ENTROPY, GROW_STEP_BY_STEP, RANDOM_FOREST, SINGLE_TREE
from chart_text import VIEWPORTS, ChartPage, check_chart_text, from_case

from deploy.process import LiveServer

pytestmark = pytest.mark.browser

PAGES = (
    # the pruning walk's two panels show only once asked for
    from_case(SINGLE_TREE, expanders=(("Walk the pruning path", "pruning-walk"),)),
    from_case(RANDOM_FOREST, "forest-tree-chart"),
    from_case(GINI_VS_ENTROPY),
    from_case(GROW_STEP_BY_STEP),
)


@pytest.mark.parametrize("size", VIEWPORTS)
@pytest.mark.parametrize("case", PAGES, ids=[case.name for case in PAGES])
def test_every_chart_text_is_readable_and_clear_of_the_others(
    browser: Any, server: LiveServer, case: ChartPage, size: str
) -> None:
    check_chart_text(browser, server, case, size)
