"""Every figure on every page has a text alternative a screen reader gets.

A Plotly chart is an SVG of shapes, and a tree diagram is boxes: a screen reader reads neither
as what it shows. Each chart has, just before it, a sentence made from its data (title, axes
and their ranges, series), hidden on screen; each tree diagram says the same of itself in its
``aria-label`` (and a sentence before it, for the browser's own layout).
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import EVERY_VIEW, HOME, PROJECTOR, tab

from deploy.process import LiveServer

pytestmark = pytest.mark.browser


# Each chart and tree on the page, and whether what a screen reader gets names it.
FIGURES = """() => {
  const said = (holder) => {
    const before = holder && holder.previousElementSibling;
    const text = before && before.querySelector(".arboretum-figure-text");
    return text ? text.textContent : "";
  };
  const where = (element) => {
    const keyed = element.closest("[class*='st-key-']");
    return keyed ? (keyed.className.match(/st-key-[\\w-]+/) || [""])[0] : "?";
  };
  const charts = [...document.querySelectorAll('[data-testid="stPlotlyChart"]')].map(
    (chart) => [where(chart), said(chart.closest('[data-testid="stElementContainer"]'))]);
  const trees = [...document.querySelectorAll(".arboretum-svg svg")].map(
    (svg) => [where(svg), svg.getAttribute("aria-label") || ""]);
  const hidden = [...document.querySelectorAll(".arboretum-figure-text")].map(
    (text) => text.closest('[data-testid="stElementContainer"]').getBoundingClientRect())
    .filter((box) => box.width > 1 || box.height > 1).length;
  return { charts, trees, hidden };
}"""


@pytest.mark.parametrize(("path", "ready"), EVERY_VIEW, ids=[path for path, _ in EVERY_VIEW])
def test_every_figure_has_a_text_alternative(
    browser: Any, server: LiveServer, path: str, ready: tuple[str, ...]
) -> None:
    with tab(browser, server, viewport=PROJECTOR) as app:
        app.open(path, ready)
        app.assert_healthy()
        found = app.page.evaluate(FIGURES)
        if path != HOME.path:
            assert found["charts"] or found["trees"], f"no figure found on {path}"
        unsaid = [key for key, text in found["charts"] if not text.startswith("Chart")]
        assert unsaid == [], f"charts without words on {path}: {unsaid}"
        for _, text in found["charts"]:
            assert len(text) > len("Chart. "), text
        unnamed = [key for key, label in found["trees"] if not label.startswith("Tree diagram:")]
        assert unnamed == [], f"trees without a name on {path}: {unnamed}"
        assert found["hidden"] == 0, "a text alternative takes room on the screen"
