"""Rendering DOT with Graphviz, and the fallback when `dot` is missing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from core import DecisionTreeClassifier
from core.figures import (
    GraphvizRenderError,
    GraphvizUnavailableError,
    build_tree_diagram,
    dot_available,
    render_png,
    render_svg,
    to_dot,
)

needs_dot = pytest.mark.skipif(not dot_available(), reason="Graphviz 'dot' is not installed")


@pytest.fixture
def no_dot(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Simulate a machine without Graphviz: empty PATH, availability re-checked."""
    monkeypatch.setenv("PATH", "")
    dot_available.cache_clear()
    yield
    monkeypatch.undo()
    dot_available.cache_clear()


@pytest.fixture
def tricky_dot(iris: Any) -> str:
    model = DecisionTreeClassifier(max_depth=2, random_state=0).fit(iris.data, iris.target)
    names = ["a", "b's", 'petal <length> & "width"', "d"]  # the root splits on column 2
    return to_dot(build_tree_diagram(model, feature_names=names, class_names=["<a>", "&b", "c"]))


@needs_dot
def test_svg_fits_container_width(tricky_dot: str) -> None:
    svg = render_svg(tricky_dot)
    root = re.search(r"<svg\b[^>]*>", svg)
    assert root is not None
    tag = root.group(0)
    assert 'width="100%"' in tag
    assert "viewBox=" in tag
    assert not re.search(r'\s(width|height)="\d+(\.\d+)?pt"', tag)
    # escaped names come back as text, not as markup
    assert re.search(r">petal &lt;length&gt; &amp; (&quot;|\")width(&quot;|\") ≤ 2\.45<", svg)
    assert ">predict &lt;a&gt;<" in svg


@needs_dot
def test_svg_natural_size_kept_on_request(tricky_dot: str) -> None:
    tag = re.search(r"<svg\b[^>]*>", render_svg(tricky_dot, fit_width=False))
    assert tag is not None and re.search(r'width="\d+pt"', tag.group(0))


@needs_dot
def test_png_bytes_and_dpi(tricky_dot: str) -> None:
    small = render_png(tricky_dot, dpi=48)
    large = render_png(tricky_dot, dpi=96)
    assert small[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(small[16:20], "big"), int.from_bytes(large[16:20], "big")
    assert width[1] == pytest.approx(2 * width[0], rel=0.05)


@needs_dot
def test_bad_dot_reports_graphviz_error() -> None:
    with pytest.raises(GraphvizRenderError, match="dot could not render"):
        render_svg("digraph { a -> }")


def test_missing_dot_is_reported(no_dot: None, tricky_dot: str) -> None:
    assert dot_available() is False
    with pytest.raises(GraphvizUnavailableError, match="'dot' program was not found"):
        render_svg(tricky_dot)
    with pytest.raises(GraphvizUnavailableError):
        render_png(tricky_dot)


def test_availability_is_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    dot_available.cache_clear()
    first = dot_available()
    monkeypatch.setenv("PATH", "")
    assert dot_available() is first  # cached: not looked up again
    dot_available.cache_clear()
    assert dot_available() is False
    monkeypatch.undo()
    dot_available.cache_clear()
