"""The forest's vote on an uploaded table of 14 classes, as a browser draws it at 1280x720,
1920x1080 and on a 390 px phone.

The forest article's table has 14 activities. With two bars a class and a label over each,
the labels of neighbouring bars printed over each other ("44044%", "7" and "7%" as "77%"):
only a browser lays the labels out, so only a browser can show they stay apart.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import RANDOM_FOREST, show_sidebar, tab
from chart_text import SIZE_CHECKED, VIEWPORTS, measure, problems
from test_browser_own_data import choose_kind, upload

from deploy.process import LiveServer

pytestmark = pytest.mark.browser

N_CLASSES = 14


def _fourteen_classes(path: Path) -> Path:
    """30 rows of each of 14 classes that overlap, so a forest's trees split their votes."""
    draw = random.Random(1)
    rows = ["a,b,c,d,activity"]
    for k in range(N_CLASSES):
        for _ in range(30):
            a, b = draw.gauss(k % 4, 1.2), draw.gauss(k // 4, 1.2)
            c, d = draw.gauss(k * 0.3, 1.5), draw.gauss(0, 1)
            rows.append(f"{a:.2f},{b:.2f},{c:.2f},{d:.2f},act{k:02d}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("size", VIEWPORTS)
def test_the_vote_labels_of_14_classes_stay_apart(
    browser: Any, server: LiveServer, tmp_path: Path, size: str
) -> None:
    table = _fourteen_classes(tmp_path / "activities.csv")
    with tab(browser, server, viewport=VIEWPORTS[size]) as app:
        app.open(RANDOM_FOREST.path + "?n_estimators=100", RANDOM_FOREST.ready)
        show_sidebar(app)  # a phone folds the data picker away
        choose_kind(app, "Upload")
        upload(app, table)
        app.settle((".st-key-votes .js-plotly-plot .main-svg",))
        app.assert_healthy()
        charts = [chart for chart in measure(app) if "votes" in chart.keys]
    (votes,) = charts
    names = [text.text for text in votes.texts if text.text.startswith("act")]
    assert len(names) == N_CLASSES, names  # the upload's classes, each named
    labels = [text for text in votes.texts if text.role == "bartext"]
    assert len(labels) >= 4, [str(text) for text in votes.texts]  # the trees split their vote
    # Text size is judged where it is smallest for a class, the projector (as for every chart).
    found = problems(votes, f"votes at {size}", check_size=size == SIZE_CHECKED)
    assert not found, "\n".join(found)
    # One label says one thing: a count with its share, "44 (44%)", or an average, "44%".
    assert all(text.text.count("%") == 1 for text in labels), [t.text for t in labels]
