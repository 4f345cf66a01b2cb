"""Figures in words: the text a screen reader gets for a chart or a tree diagram.

A chart is drawn as an SVG of shapes that a screen reader cannot read. The page puts beside
each figure a sentence made here from the figure's own data (its title, its axes and the
range of values on them, its series and how many points each holds), so a student who cannot
see the chart still learns what it plots; the page's captions and tables say what it shows.

The module is pure: it reads the form Plotly.js receives (:func:`core.figures.wire.wire_form`)
or a diagram's DOT text, and imports no Streamlit.
"""

from __future__ import annotations

import base64
import html
import re
from typing import Any

import numpy as np

_TAG = re.compile(r"<[^>]+>")
#: Trace types in words.
_KINDS = {
    "scatter": "points or lines",
    "scattergl": "points",
    "bar": "bars",
    "heatmap": "a shaded grid",
    "contour": "shaded regions",
    "histogram": "a histogram",
    "box": "a box plot",
}


def plain(text: Any) -> str:
    """``text`` without Plotly's HTML tags and entities, on one line."""
    if not isinstance(text, str):
        return ""
    spaced = _TAG.sub(" ", text.replace("<br>", ". "))
    return " ".join(html.unescape(spaced).split())


def _title(part: Any) -> str:
    """The text of a layout's or an axis's ``title`` (a dict or a string)."""
    return plain(part.get("text") if isinstance(part, dict) else part)


def values(array: Any) -> np.ndarray:
    """The numbers of a trace's array as Plotly.js gets it: a list, or a typed array
    ``{"dtype": "f8", "bdata": ...}``; an array of text gives an empty result."""
    if isinstance(array, dict) and "bdata" in array:
        flat = np.frombuffer(base64.b64decode(array["bdata"]), dtype=np.dtype(array["dtype"]))
        return flat.astype(float)
    try:
        numbers = np.asarray(array, dtype=float).ravel()
    except (TypeError, ValueError):
        return np.empty(0)
    return numbers[np.isfinite(numbers)]


def _count(array: Any) -> int:
    """How many numbers a trace's array holds; a typed array's count is read from the length of
    its text, not decoded (a boundary's grid is tens of thousands of numbers, on every run)."""
    if isinstance(array, dict) and "bdata" in array:
        data = array["bdata"]
        if not isinstance(data, str):
            return int(values(array).size)
        padding = len(data) - len(data.rstrip("="))
        return (len(data) * 3 // 4 - padding) // np.dtype(array["dtype"]).itemsize
    return len(array) if isinstance(array, (list, tuple)) else 0


def _axis(form: dict[str, Any], letter: str, traces: list[dict[str, Any]]) -> str:
    """One axis in words: its title and the range of the data along it."""
    title = _title(form.get("layout", {}).get(f"{letter}axis", {}).get("title"))
    found = [values(trace.get(letter, [])) for trace in traces]
    numbers = np.concatenate(found) if found else np.empty(0)
    span = ""
    if numbers.size:
        low, high = float(numbers.min()), float(numbers.max())
        span = f" from {low:.3g} to {high:.3g}" if low != high else f" at {low:.3g}"
    if not title and not span:
        return ""
    side = "horizontal" if letter == "x" else "vertical"
    return f"{side} axis{': ' + title if title else ''}{span}"


def chart_text(form: dict[str, Any]) -> str:
    """A chart in one or two sentences: title, axes, and series.

    Parameters
    ----------
    form : dict
        The figure as Plotly.js receives it: ``{"data": [...], "layout": {...}}``.

    Returns
    -------
    str
        For example "Chart: Test accuracy by depth. Horizontal axis: max_depth from 1 to 10;
        vertical axis: accuracy from 0.6 to 1. 2 series: train (points or lines, 10 points),
        test (points or lines, 10 points)."
    """
    layout = form.get("layout", {})
    traces = [trace for trace in form.get("data", []) if trace.get("visible", True) is not False]
    title = _title(layout.get("title"))
    axes = [part for part in (_axis(form, "x", traces), _axis(form, "y", traces)) if part]
    series = []
    for trace in traces:
        name = plain(trace.get("name")) or "unnamed"
        kind = _KINDS.get(str(trace.get("type", "scatter")), str(trace.get("type")))
        n = max(_count(trace.get("x")), _count(trace.get("y")), _count(trace.get("z")))
        series.append(f"{name} ({kind}{f', {n} points' if n else ''})")
    words = [f"Chart: {title}." if title else "Chart."]
    if axes:
        joined = "; ".join(axes)
        words.append(joined[0].upper() + joined[1:] + ".")
    if series:
        shown = ", ".join(series[:8]) + (f", and {len(series) - 8} more" if len(series) > 8 else "")
        words.append(f"{len(series)} series: {shown}.")
    return " ".join(words)


def tree_text(dot: str) -> str:
    """A tree diagram in one sentence: how many boxes, how many of them leaves, and the root's
    question, read from its DOT text (nodes ``n0``, ``n1``..., the root ``n0``)."""
    nodes = re.findall(r"^\s*(n\d+) \[", dot, flags=re.MULTILINE)
    parents = set(re.findall(r"^\s*(n\d+) -> n\d+", dot, flags=re.MULTILINE))
    leaves = sum(1 for node in nodes if node not in parents)
    words = f"Tree diagram: {len(nodes)} boxes, {leaves} of them leaves."
    root = re.search(r"^\s*n0 \[label=<.*?<B>(.*?)</B>", dot, flags=re.MULTILINE)
    if root and "n0" in parents:
        words += f" The first question: {plain(root.group(1))[:120]}?"
    return words


__all__ = ["chart_text", "plain", "tree_text", "values"]
