"""The drawing area: click on empty space to add a point of the chosen class, on a point to
remove it.

A Streamlit custom component (``st.components.v2``: inline HTML, CSS and JavaScript, no build
step) draws the points as SVG and reports clicks as *edits* (see
:func:`core.data.drawn.apply_edits`). The browser keeps every edit it sent until a run answers
it (``ack``), shows them at once, and sends the whole unanswered list with each click. So a
burst of clicks is never lost, even when Streamlit merges the reruns it asks for, and a resent
edit is harmless, because applying an edit twice is the same as applying it once.

The points themselves live wherever the caller keeps them (the session): this function gets
them, and returns them with the clicks applied.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import streamlit as st

from core.data.drawn import DrawnPoints, apply_edits, view_ranges

__all__ = ["draw_points"]

_NAME = "arboretum_draw_points"
_EVENT = "edits"

_HTML = '<div class="arb-draw" data-testid="arb-draw"></div>'

_CSS = """
.arb-draw { font: 12px var(--st-font, sans-serif); color: var(--st-text-color); }
.arb-draw svg { display: block; width: 100%; max-width: 640px; height: auto; cursor: crosshair;
  user-select: none; touch-action: manipulation; }
.arb-draw .arb-area { fill: var(--st-secondary-background-color); }
.arb-draw .arb-grid { stroke: var(--st-text-color); stroke-opacity: 0.12; }
.arb-draw .arb-axis { stroke: var(--st-text-color); stroke-opacity: 0.45; }
.arb-draw .arb-tick { fill: var(--st-text-color); fill-opacity: 0.7; }
.arb-draw .arb-point { stroke: var(--st-background-color); stroke-width: 1.5; cursor: pointer; }
.arb-draw .arb-point:hover { stroke: var(--st-text-color); stroke-width: 2.5; }
.arb-draw .arb-caption { margin: 4px 0 0; opacity: 0.75; }
"""

# Plain DOM and SVG; the only text set from data is numbers, through textContent.
_JS = """
const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 560;
const PAD = { left: 34, right: 10, top: 10, bottom: 26 };

function make(tag, attributes, parent) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  parent.appendChild(element);
  return element;
}

function geometry(data) {
  const [x0, x1] = data.x_range;
  const [y0, y1] = data.y_range;
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const ratio = (y1 - y0) / (x1 - x0);
  const plotHeight = Math.min(Math.max(plotWidth * ratio, 220), 560);
  return {
    x0, x1, y0, y1, plotWidth, plotHeight,
    height: plotHeight + PAD.top + PAD.bottom,
    px: (x) => PAD.left + ((x - x0) / (x1 - x0)) * plotWidth,
    py: (y) => PAD.top + ((y1 - y) / (y1 - y0)) * plotHeight,
  };
}

function ticks(low, high) {
  const rough = (high - low) / 6;
  const power = Math.pow(10, Math.floor(Math.log10(rough)));
  const step = [1, 2, 5, 10].map((k) => k * power).find((k) => k >= rough);
  const out = [];
  for (let t = Math.ceil(low / step) * step; t <= high + 1e-9; t += step) {
    out.push(Math.round(t / step) * step);
  }
  return out;
}

const spot = (x, y) => `${x.toFixed(3)} ${y.toFixed(3)}`;

// The points as the last run sent them, with the edits it has not answered yet applied.
function shown(memory) {
  const placed = new Map();
  for (const [x, y, label] of memory.data.points) placed.set(spot(x, y), [x, y, label]);
  for (const edit of memory.pending) {
    const key = spot(edit.x, edit.y);
    if (edit.op === "remove") placed.delete(key);
    else placed.set(key, [edit.x, edit.y, edit.label]);
  }
  return [...placed.values()];
}

function render(host, memory) {
  const data = memory.data;
  const g = geometry(data);
  host.replaceChildren();
  const svg = make("svg", {
    viewBox: `0 0 ${WIDTH} ${g.height}`, role: "img",
    "aria-label": "Drawing area: click to add a point, click a point to remove it",
  }, host);
  make("rect", {
    class: "arb-area", x: PAD.left, y: PAD.top, width: g.plotWidth, height: g.plotHeight,
  }, svg);
  for (const t of ticks(g.x0, g.x1)) {
    const line = t === 0 ? "arb-axis" : "arb-grid";
    const bottom = PAD.top + g.plotHeight;
    make("line", { class: line, x1: g.px(t), x2: g.px(t), y1: PAD.top, y2: bottom }, svg);
    const label = make("text", {
      class: "arb-tick", x: g.px(t), y: PAD.top + g.plotHeight + 16, "text-anchor": "middle",
    }, svg);
    label.textContent = String(t);
  }
  for (const t of ticks(g.y0, g.y1)) {
    const line = t === 0 ? "arb-axis" : "arb-grid";
    const right = PAD.left + g.plotWidth;
    make("line", { class: line, x1: PAD.left, x2: right, y1: g.py(t), y2: g.py(t) }, svg);
    const label = make("text", {
      class: "arb-tick", x: PAD.left - 6, y: g.py(t) + 4, "text-anchor": "end",
    }, svg);
    label.textContent = String(t);
  }
  const points = shown(memory);
  points.forEach(([x, y, label]) => {
    const dot = make("circle", {
      class: "arb-point", cx: g.px(x), cy: g.py(y), r: 7,
      fill: data.colors[label] || "#888888", "data-x": x, "data-y": y, "data-label": label,
    }, svg);
    make("title", {}, dot).textContent = `(${x}, ${y}): click to remove`;
  });
  const caption = document.createElement("p");
  caption.className = "arb-caption";
  caption.textContent = points.length === 1 ? "1 point" : `${points.length} points`;
  host.appendChild(caption);
  return { svg, g };
}

function send(memory, setTriggerValue) {
  setTriggerValue("edits", memory.pending.map((edit) => ({ ...edit })));
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  const host = parentElement.querySelector(".arb-draw");
  if (!host) return;
  // Kept on the element across runs: the edits sent and not yet answered.
  const memory = host.arbMemory || (host.arbMemory = {
    pending: [], serial: 0, session: Math.random().toString(36).slice(2),
  });
  const answered = new Set(data.ack || []);
  memory.pending = memory.pending.filter((edit) => !answered.has(edit.id));
  memory.data = data;
  render(host, memory);
  host.onclick = (event) => {
    const svg = host.querySelector("svg");
    if (!svg) return;
    const g = geometry(memory.data);
    const dot = event.target.closest ? event.target.closest(".arb-point") : null;
    let edit;
    if (dot) {
      edit = { op: "remove", x: Number(dot.dataset.x), y: Number(dot.dataset.y) };
    } else {
      const box = svg.getBoundingClientRect();
      const sx = ((event.clientX - box.left) / box.width) * WIDTH;
      const sy = ((event.clientY - box.top) / box.height) * g.height;
      if (sx < PAD.left || sx > PAD.left + g.plotWidth) return;
      if (sy < PAD.top || sy > PAD.top + g.plotHeight) return;
      const x = g.x0 + ((sx - PAD.left) / g.plotWidth) * (g.x1 - g.x0);
      const y = g.y1 - ((sy - PAD.top) / g.plotHeight) * (g.y1 - g.y0);
      const round = (v) => Math.round(v * 1000) / 1000;
      edit = { op: "add", x: round(x), y: round(y), label: memory.data.chosen };
    }
    memory.serial += 1;
    edit.id = `${memory.session}-${memory.serial}`;
    memory.pending.push(edit);
    render(host, memory);
    send(memory, setTriggerValue);
  };
}
"""


@functools.cache
def _component() -> Any:
    # Registered on first use rather than at import: importing this module changes nothing.
    return st.components.v2.component(_NAME, html=_HTML, css=_CSS, js=_JS)


def _ignore() -> None:
    """A click needs no callback: the next run applies it. Streamlit requires one per event."""


def _edits_sent(key: str) -> Any:
    # What the browser sent for this run, read before the area is drawn, so that the area can
    # be told which edits are answered. A key Streamlit has not seen yet reads as nothing.
    try:
        value = st.session_state[key]
    except (KeyError, AttributeError):
        return None
    return value.get(_EVENT) if isinstance(value, dict) else None


def _answered(edits: Any) -> list[str]:
    if not isinstance(edits, list):
        return []
    ids = (edit.get("id") for edit in edits if isinstance(edit, dict))
    return [value for value in ids if isinstance(value, str)]


def draw_points(
    points: DrawnPoints,
    *,
    chosen_class: int,
    class_colors: Sequence[str],
    key: str,
    x_range: tuple[float, float] = (-3, 3),
    y_range: tuple[float, float] = (-3, 3),
) -> DrawnPoints:
    """Show the points in a drawing area and apply the clicks made in it since the last run.

    A click on empty space adds a point of ``chosen_class`` there; a click on a point removes
    it. Points outside the ranges widen the area so that every point shows.

    Parameters
    ----------
    points : DrawnPoints
        The points to show, as the caller keeps them.
    chosen_class : int
        The class a new point gets, ``0 <= chosen_class < len(class_colors)``.
    class_colors : sequence of str
        A CSS colour per class code, e.g. the app's palette.
    key : str
        The widget key; one per drawing area on a page.
    x_range, y_range : tuple of float, default (-3, 3)
        The area to draw in, ``low < high``.

    Returns
    -------
    DrawnPoints
        The points with the clicks applied, or ``points`` itself when nothing changed.

    Raises
    ------
    ValueError
        For a programming mistake: a ``chosen_class`` without a colour, or an empty range.
    """
    colors = [str(color) for color in class_colors]
    if not 0 <= chosen_class < len(colors):
        raise ValueError(
            f"chosen_class must index class_colors (0 to {len(colors) - 1}); got {chosen_class}"
        )
    for name, (low, high) in (("x_range", x_range), ("y_range", y_range)):
        if not (math.isfinite(low) and math.isfinite(high) and low < high):
            raise ValueError(f"{name} must be (low, high) with low < high; got {(low, high)}")
    view_x, view_y = view_ranges(points, x_range, y_range)
    sent = _edits_sent(key)
    updated = apply_edits(points, sent, n_classes=len(colors), x_range=view_x, y_range=view_y)
    data = {
        # JSON has no NaN or infinity: a point that cannot be placed is not sent.
        "points": [list(row) for row in updated.rows() if all(map(math.isfinite, row[:2]))],
        "colors": colors,
        "chosen": int(chosen_class),
        "x_range": list(view_x),
        "y_range": list(view_y),
        "ack": _answered(sent),
    }
    result = _component()(key=key, data=data, on_edits_change=_ignore)
    late = result.get(_EVENT)
    if late is not None and late != sent:  # the early read missed them: apply them anyway
        updated = apply_edits(updated, late, n_classes=len(colors), x_range=view_x, y_range=view_y)
    return updated
