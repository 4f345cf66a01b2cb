"""Chart text a class can read, in the views a link opens: steps, variance, parameter maps.

The step page on the sine, "why averaging works" on the moons, and the parameter maps, which
write a score in each of their 130 cells: on a phone a cell is 27 px wide, and the scores must
not run into each other. Each at 1280x720, 1920x1080 and 390x844 (``chart_text.py`` says how
each is measured).
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import GINI_VS_ENTROPY, GROW_STEP_BY_STEP, RANDOM_FOREST, SINGLE_TREE
from chart_text import VIEWPORTS, ChartPage, check_chart_text

from deploy.process import LiveServer

pytestmark = pytest.mark.browser

PAGES = (
    ChartPage(
        "grow-step-by-step-sine",
        f"{GROW_STEP_BY_STEP.path}?dataset=sine&step=3",
        ("step-boundary", "split-scan", "your-split-bars"),
    ),
    ChartPage(
        "variance-moons",
        f"{RANDOM_FOREST.path}?dataset=moons&view=variance&max_depth=none",
        ("variance-trees", "variance-curve"),
    ),
    ChartPage(
        "map-breast-cancer", f"{SINGLE_TREE.path}?view=map&dataset=breast_cancer", ("param-map",)
    ),
    ChartPage(
        "gve-maps-breast-cancer",
        f"{GINI_VS_ENTROPY.path}?view=map&dataset=breast_cancer",
        ("gve-map-gini", "gve-map-entropy", "gve-map-difference"),
    ),
)


@pytest.mark.parametrize("size", VIEWPORTS)
@pytest.mark.parametrize("case", PAGES, ids=[case.name for case in PAGES])
def test_every_chart_text_is_readable_and_clear_of_the_others(
    browser: Any, server: LiveServer, case: ChartPage, size: str
) -> None:
    check_chart_text(browser, server, case, size)
