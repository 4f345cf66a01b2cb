"""The theme's text reads at WCAG 2.1 AA: every pair of colours it sets is at least 4.5:1.

The browser test (``tests/browser/test_browser_a11y.py``) measures the painted page; this one
measures the theme in ``.streamlit/config.toml`` at once, with Streamlit's own rules for the
colours it derives from it: captions and widget help are the text colour at 60% opacity, and a
selected segmented option is the primary colour on the primary colour at 10% opacity.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
THEME = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))["theme"]

#: WCAG 2.1 success criterion 1.4.3 (AA), for text under 18 pt.
AA = 4.5

#: Opacity of Streamlit's ``fadedText60`` (captions, help) and of a selected option's tint.
CAPTION_OPACITY = 0.6
SELECTED_TINT_OPACITY = 0.1

BACKGROUNDS = {"main": THEME["backgroundColor"], "sidebar": THEME["secondaryBackgroundColor"]}


def _channels(color: str) -> tuple[int, int, int]:
    text = color.lstrip("#")
    assert len(text) == 6, f"expected #RRGGBB, got {color!r}"
    red, green, blue = (int(text[k : k + 2], 16) for k in (0, 2, 4))
    return red, green, blue


def _over(color: str, opacity: float, background: str) -> str:
    """``color`` at ``opacity`` painted over ``background``, as the browser composes it."""
    mixed = (
        round(opacity * c + (1 - opacity) * b)
        for c, b in zip(_channels(color), _channels(background), strict=True)
    )
    return "#{:02X}{:02X}{:02X}".format(*mixed)


def relative_luminance(color: str) -> float:
    """WCAG's relative luminance: sRGB channels linearised, weighted by the eye's response."""
    linear = [
        c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
        for c in (channel / 255 for channel in _channels(color))
    ]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(a: str, b: str) -> float:
    """``(L_light + 0.05) / (L_dark + 0.05)``, from 1 (the same) to 21 (black on white)."""
    light, dark = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_contrast_ratio_by_hand() -> None:
    assert contrast_ratio("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert contrast_ratio("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)
    # Streamlit's own caption on white, as axe-core measured it in the browser.
    assert _over("#2F2D2B", CAPTION_OPACITY, "#FFFFFF") == "#828180"
    assert contrast_ratio("#828180", "#FFFFFF") == pytest.approx(3.88, abs=0.01)


@pytest.mark.parametrize("where", BACKGROUNDS)
def test_text_and_captions_read(where: str) -> None:
    background = BACKGROUNDS[where]
    caption = _over(THEME["textColor"], CAPTION_OPACITY, background)
    assert contrast_ratio(THEME["textColor"], background) >= AA
    assert contrast_ratio(caption, background) >= AA, caption


@pytest.mark.parametrize("where", BACKGROUNDS)
def test_selected_option_reads_on_its_tint(where: str) -> None:
    primary = THEME["primaryColor"]
    tint = _over(primary, SELECTED_TINT_OPACITY, BACKGROUNDS[where])
    assert contrast_ratio(primary, tint) >= AA, tint


def test_primary_button_label_reads() -> None:
    # A primary button writes white on the primary colour.
    assert contrast_ratio("#FFFFFF", THEME["primaryColor"]) >= AA
