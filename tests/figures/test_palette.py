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


# --- colour-blind vision ---------------------------------------------------------------------

#: Machado, Oliveira and Fernandes (2009), severity 1.0: how a protanope and a deuteranope see
#: a colour, as a matrix on linear RGB.
DICHROMACY = {
    "protanopia": np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
    "deuteranopia": np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ]
    ),
}

#: sRGB (linear) to CIE XYZ under D65.
_XYZ = np.array(
    [
        [0.4124564, 0.3575761, 0.1804375],
        [0.2126729, 0.7151522, 0.0721750],
        [0.0193339, 0.1191920, 0.9503041],
    ]
)

#: Smallest CIE76 distance allowed between two classes, in every vision. A difference of about
#: 2.3 is just noticeable for large patches side by side; class colours are small markers and
#: thin regions read from the back of a classroom, so four such steps are asked for.
MIN_DELTA_E = 10.0


def _linear(color: str) -> np.ndarray:
    channels = np.array([int(color[k : k + 2], 16) / 255 for k in (1, 3, 5)])
    return np.where(channels <= 0.04045, channels / 12.92, ((channels + 0.055) / 1.055) ** 2.4)


def _lab(linear_rgb: np.ndarray) -> np.ndarray:
    """CIELAB of a linear RGB colour, white point D65."""
    xyz = _XYZ @ np.clip(linear_rgb, 0.0, 1.0) / _XYZ.sum(axis=1)
    delta = 6 / 29
    f = np.where(xyz > delta**3, np.cbrt(xyz), xyz / (3 * delta**2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def test_simulation_keeps_grey_and_turns_red_and_green_alike() -> None:
    # A grey is seen as it is; a plain red and green, the classic confusion, come three times
    # closer than a trichromat sees them.
    plain = np.linalg.norm(_lab(_linear("#E41A1C")) - _lab(_linear("#4DAF4A")))
    for matrix in DICHROMACY.values():
        np.testing.assert_allclose(matrix @ np.full(3, 0.5), np.full(3, 0.5), atol=1e-3)
        red, green = _lab(matrix @ _linear("#E41A1C")), _lab(matrix @ _linear("#4DAF4A"))
        assert np.linalg.norm(red - green) < plain / 3


@pytest.mark.parametrize("vision", ["normal", *DICHROMACY])
def test_class_colors_stay_apart_in_colour_blind_vision(vision: str) -> None:
    """Every two class colours differ by at least :data:`MIN_DELTA_E` as that eye sees them.

    About one man in twelve sees with a weak or missing red or green cone; the severest forms,
    protanopia and deuteranopia, bound the milder ones.
    """
    matrix = DICHROMACY.get(vision, np.eye(3))
    seen = [_lab(matrix @ _linear(color)) for color in CLASS_COLORS]
    too_close = [
        (CLASS_COLORS[i], CLASS_COLORS[j], round(float(np.linalg.norm(seen[i] - seen[j])), 1))
        for i in range(len(seen))
        for j in range(i + 1, len(seen))
        if np.linalg.norm(seen[i] - seen[j]) < MIN_DELTA_E
    ]
    assert too_close == []
