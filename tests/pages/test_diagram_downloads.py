"""Every tree diagram can be downloaded as SVG, PNG and DOT; without Graphviz, as DOT."""

from __future__ import annotations

import pytest
from page_helpers import GINI_VS_ENTROPY, RANDOM_FOREST, SINGLE_TREE, assert_healthy, open_page

from core.figures import dot_available, render_png, render_svg

PAGES = {
    "single-tree": (SINGLE_TREE, ("tree-diagram",)),
    "random-forest": (RANDOM_FOREST, ("tree-diagram",)),
    "gini-vs-entropy": (GINI_VS_ENTROPY, ("tree-gini", "tree-entropy")),
}


def downloads(app) -> dict[str, list[str]]:
    """Download-button labels per diagram key (button keys are ``<diagram>-svg``...)."""
    found: dict[str, list[str]] = {}
    for button in app.get("download_button"):
        diagram = button.proto.id.rsplit("-", 1)[0].split("-", 2)[-1]
        found.setdefault(diagram, []).append(button.proto.label)
    return found


@pytest.mark.parametrize("name", PAGES)
def test_each_diagram_offers_svg_png_and_dot(name):
    path, keys = PAGES[name]
    app = open_page(path, dataset="wine")
    assert_healthy(app)
    found = downloads(app)
    for key in keys:
        assert found.get(key) == ["SVG", "PNG", "DOT"], f"{key}: {found}"


def test_without_graphviz_only_dot_is_offered_and_the_page_says_why(monkeypatch):
    monkeypatch.setenv("PATH", "")
    dot_available.cache_clear()
    try:
        app = open_page(SINGLE_TREE, dataset="iris")
        assert_healthy(app)
        assert downloads(app) == {"tree-diagram": ["DOT"]}
        assert any("Graphviz is not installed" in c.value for c in app.caption)
    finally:
        monkeypatch.undo()
        dot_available.cache_clear()


def test_the_deferred_downloads_produce_real_files():
    # What the SVG and PNG buttons call when clicked (the page passes these functions).
    dot = "digraph { a -> b }"
    assert "<svg" in render_svg(dot, fit_width=False)
    assert render_png(dot).startswith(b"\x89PNG")


def test_sine_shows_the_classic_depth_overlay_once_asked():
    app = open_page(SINGLE_TREE, dataset="sine")
    assert_healthy(app)
    assert not [b for b in app.container if b.proto.id.endswith("-depth-overlay-chart")]
    app.session_state["depth-overlay"] = True  # what opening the expander does
    app.run()
    assert_healthy(app)
    from page_helpers import chart_spec

    names = [t.get("name") for t in chart_spec(app, "depth-overlay-chart")["data"]]
    for depth in (1, 2, 4, 8):
        assert f"depth {depth}" in names, names
