"""Chart text a class can read, on the pages the lessons and articles link to.

Their charts differ from the default pages': a 1000-tree forest on a log axis over Wine's long
feature names, slices of breast cancer's 30 features, the sine's regression fits, charts behind
an expander, the trees of "why averaging works" over each other, where Gini and entropy part.
Each at 1280x720, 1920x1080 and 390x844 (``chart_text.py`` says how each is measured).
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import GINI_VS_ENTROPY
from chart_text import (
    FOREST_CHARTS,
    VIEWPORTS,
    ChartPage,
    check_chart_text,
    from_link,
    lesson_titled,
)

from deploy.process import LiveServer

pytestmark = pytest.mark.browser

PAGES = (
    # The forest article: 1000 trees, their curve on a log axis, on Wine's long feature names.
    from_link("forest-1000-trees-log", lesson_titled("A forest of 1 to 1000 trees"), FOREST_CHARTS),
    # 300 trees on all 30 features of breast cancer: slices, with a subtitle saying so.
    from_link(
        "forest-oob-breast-cancer", lesson_titled("Out-of-bag tracks test accuracy"), FOREST_CHARTS
    ),
    from_link(
        "single-tree-sine",
        lesson_titled("A single tree fits the sine in steps"),
        ("boundary-chart",),
        expanders=(("The classic picture", "depth-overlay-chart"),),
    ),
    # Regression: one chart of both fits, a histogram of the trees' predictions.
    from_link("forest-sine", lesson_titled("A forest smooths the sine"), FOREST_CHARTS),
    from_link(
        "gini-vs-entropy-wine", lesson_titled("Gini vs entropy on Wine"), GINI_VS_ENTROPY.charts
    ),
    # The trees over each other, and where Gini and entropy part.
    from_link(
        "variance-sine",
        lesson_titled("Why averaging beats one deep tree"),
        ("variance-trees", "variance-parts", "variance-curve", *FOREST_CHARTS),
    ),
    from_link(
        "criterion-matters-wine",
        lesson_titled("Does the criterion matter?"),
        ("parting-curves", "criterion-seeds", "criterion-lab"),
    ),
)


@pytest.mark.parametrize("size", VIEWPORTS)
@pytest.mark.parametrize("case", PAGES, ids=[case.name for case in PAGES])
def test_every_chart_text_is_readable_and_clear_of_the_others(
    browser: Any, server: LiveServer, case: ChartPage, size: str
) -> None:
    check_chart_text(browser, server, case, size)
