"""The shared palette: stable class colours, readable fills, and no Streamlit in the builders."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from core.figures import palette
from core.figures.palette import (
    CLASS_COLORS,
    FONT_COLOR,
    blend,
    class_color,
    purity_fill,
    sequential_color,
)


def _luminance(color: str) -> float:
    channels = [int(color[k : k + 2], 16) / 255 for k in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_class_colors_are_okabe_ito_first_then_twenty_apart_and_wrap() -> None:
    okabe_ito = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7")
    assert CLASS_COLORS[:7] == okabe_ito  # a table of up to 7 classes looks as it always did
    assert class_color(len(CLASS_COLORS)) == class_color(0)
    assert len(set(CLASS_COLORS)) == len(CLASS_COLORS) == 20
    rgb = [np.array([int(c[k : k + 2], 16) for k in (1, 3, 5)]) for c in CLASS_COLORS]
    closest = min(np.linalg.norm(a - b) for i, a in enumerate(rgb) for b in rgb[i + 1 :])
    assert closest > 50, "no two classes in nearly the same colour"
    with pytest.raises(ValueError, match="class index i must be >= 0"):
        class_color(-1)


def test_blend_and_purity() -> None:
    assert blend("#000000", 0.0) == "#FFFFFF"
    assert blend("#000000", 1.0) == "#000000"
    assert blend("#000000", 0.5) == "#808080"
    lightness = [_luminance(purity_fill(4, p)) for p in (0.0, 0.5, 1.0)]
    assert lightness[0] > lightness[1] > lightness[2]  # purer is stronger


@pytest.mark.parametrize("i", range(7))
def test_dark_text_reads_on_every_fill(i: int) -> None:
    # WCAG AA for normal text: contrast ratio >= 4.5 on the strongest fill of every class
    assert _contrast(FONT_COLOR, purity_fill(i, 1.0)) >= 4.5


def test_sequential_scale() -> None:
    low, mid, high = (sequential_color(v, 0.0, 10.0) for v in (0.0, 5.0, 10.0))
    assert _luminance(low) > _luminance(mid) > _luminance(high)
    assert _contrast(FONT_COLOR, high) >= 4.5
    assert sequential_color(3.0, 1.0, 1.0) == sequential_color(0.5, 0.0, 1.0)


def test_no_streamlit_in_figure_builders() -> None:
    package = Path(palette.__file__).parent
    for source in package.glob("*.py"):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            assert not any(n.split(".")[0] == "streamlit" for n in names), source.name


def test_purity_by_hand() -> None:
    assert palette.purity([0.6, 0.4]) == pytest.approx(0.2)  # (0.6 - 1/2) / (1 - 1/2)
    assert palette.purity([1 / 3, 1 / 3, 1 / 3]) == pytest.approx(0.0)
    assert palette.purity([0.0, 1.0, 0.0]) == pytest.approx(1.0)
    assert palette.purity([1.0]) == 1.0  # one class: nothing to mix
    rows = palette.purity([[0.5, 0.25, 0.25], [0.2, 0.2, 0.6]])
    np.testing.assert_allclose(rows, [0.25, 0.4])  # (p - 1/3) / (2/3)
