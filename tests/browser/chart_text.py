"""Measuring the text of a page's Plotly charts in Chromium, for the chart text tests.

Every visible text of each chart's SVG (axis and chart titles, ticks, legend entries, bar
labels, annotations; not the hover labels, and the modebar holds none) is measured in the DOM:

- at 1280x720, its rendered size is at least 11 px: the computed ``font-size`` of every run of
  it (a ``<sup>`` subtitle is a smaller run) times the scale the SVG draws it at, and its box's
  height per line;
- at every size, no two texts of one chart overlap by more than 1 px either way. A text is one
  box with its tspans, in its own orientation (a tick label tilted 30 degrees is a tilted box,
  whose upright bounding rectangle would cover its neighbours' while the words never touch);
- no text runs past the edge of its chart, where it would be cut off.

The pages measured are listed by theme in the ``test_browser_chart_text*.py`` files, so the
test runner can hand them to different workers; one tab per page and size, and a failure lists
every chart, text, size and overlap it found there.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from browser_helpers import LARGE, OPEN_TIMEOUT_MS, PHONE, PROJECTOR, AppPage, PageCase, tab

from core.app.lessons import ARTICLES, LESSONS, Lesson, classroom_links
from core.app.settings import default_catalogue, to_query
from deploy.process import LiveServer

#: The smallest text a class reads on a 1280x720 projector (issue 24), in CSS pixels.
MIN_TEXT_PX = 11.0
#: Two boxes may share this much (px, along the axis where they overlap least): anti-aliasing.
SLACK_PX = 1.0

VIEWPORTS = {
    "1280x720": PROJECTOR,
    "1920x1080": LARGE,
    "390x844": PHONE,
}
#: The viewport where the size of text is held to :data:`MIN_TEXT_PX`.
SIZE_CHECKED = "1280x720"


@dataclass(frozen=True)
class ChartPage:
    """A page as a link opens it, the charts it must draw, and expanders to open first.

    Every Plotly chart on the page is measured; ``charts`` are the container keys that must
    hold one, so a chart that failed to draw fails the test instead of escaping it.
    """

    name: str
    path: str
    charts: tuple[str, ...]
    expanders: tuple[tuple[str, str], ...] = ()  # (the expander's label, the chart it opens)

    @property
    def ready(self) -> tuple[str, ...]:
        return (
            "h1",
            ".st-key-how-computed",
            *(f".st-key-{key} .js-plotly-plot .main-svg" for key in self.charts),
        )


def from_case(case: PageCase, *extra: str, **changes: Any) -> ChartPage:
    return ChartPage(case.name, case.path, (*case.charts, *extra), **changes)


def from_link(name: str, lesson: Lesson, charts: Sequence[str], **changes: Any) -> ChartPage:
    (link,) = classroom_links(default_catalogue(), (lesson,))
    path = f"/{link.page.url_path}?{urlencode(to_query(link.settings))}"
    return ChartPage(name, path, tuple(charts), **changes)


def lesson_titled(title: str) -> Lesson:
    (lesson,) = (lesson for lesson in (*LESSONS, *ARTICLES) if lesson.title == title)
    return lesson


FOREST_CHARTS = ("forest-curve", "importances", "boundary-chart", "votes", "forest-tree-chart")

# --- measuring in the page -------------------------------------------------------------------

# Every Plotly chart in the main area, with the keys of the containers around it, innermost
# first, and every visible text of its SVG: each run's rendered size, each line's height, and
# the text's box as four corners on the screen (its bounding box in its own coordinates, put
# on the screen by its transform, rotation included).
_MEASURE = """
() => {
  const keysOf = (element) => {
    const keys = [];
    for (let e = element; e; e = e.parentElement) {
      for (const name of e.classList) if (name.startsWith("st-key-")) keys.push(name.slice(7));
    }
    return keys;
  };
  const shown = (element, root) => {
    if (!element.checkVisibility({opacityProperty: true, visibilityProperty: true})) return false;
    for (let e = element; e && e !== root; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.display === "none" || style.visibility === "hidden") return false;
      if (parseFloat(style.opacity) === 0 || parseFloat(style.fillOpacity) === 0) return false;
    }
    return true;
  };
  const scaleOf = (element) => {
    const m = element.getScreenCTM();
    return m ? Math.hypot(m.c, m.d) : 1;  // how tall the SVG draws one unit of its user space
  };
  // An element's box in its own coordinates, put on the screen by its transforms.
  const cornersOf = (element) => {
    const box = element.getBBox();
    const m = element.getScreenCTM();
    return [[box.x, box.y], [box.x + box.width, box.y],
            [box.x + box.width, box.y + box.height], [box.x, box.y + box.height]]
      .map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
  };
  const ownText = (element) => [...element.childNodes]
    .some((node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim() !== "");
  const role = (text) => {
    for (let e = text; e && e.tagName !== "svg"; e = e.parentElement) {
      const name = e.getAttribute("class");
      if (name) return name.split(" ")[0];
    }
    return "text";
  };
  return [...document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')].map((root) => {
    const frame = root.getBoundingClientRect();
    const texts = [...root.querySelectorAll("svg text")]
      .filter((text) => !text.closest(".hoverlayer, .modebar"))
      .filter((text) => text.textContent.trim() !== "" && shown(text, root))
      .map((text) => {
        const runs = [text, ...text.querySelectorAll("tspan")].filter(ownText);
        const scale = scaleOf(text);
        const lines = Math.max(1, text.querySelectorAll("tspan.line").length);
        return {
          text: text.textContent.trim(),
          role: role(text),
          size: Math.min(...runs.map((run) => parseFloat(getComputedStyle(run).fontSize)
            * scaleOf(run))),
          line_height: text.getBBox().height * scale / lines,
          corners: cornersOf(text),
          in_legend: text.closest(".legend") !== null,
        };
      });
    const legends = [...root.querySelectorAll(".legend rect.bg")]
      .filter((box) => shown(box, root))
      .map((box) => cornersOf(box));
    return {
      keys: keysOf(root),
      frame: [frame.left, frame.top, frame.right, frame.bottom],
      texts,
      legends,
    };
  });
}
"""

# Scroll each chart into the middle of the main area in turn, as a reader passes it.
_VISIT = """
async () => {
  for (const chart of document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')) {
    chart.scrollIntoView({block: "center"});
    await new Promise((done) => setTimeout(done, 100));
  }
}
"""

Point = tuple[float, float]


@dataclass(frozen=True)
class Text:
    """One visible text of a chart, as measured in the page."""

    text: str
    role: str
    size: float  # px: the smallest run's computed font-size times its on-screen scale
    line_height: float  # px: the box's height on the screen over its number of lines
    corners: tuple[Point, ...]  # its box on the screen, in order around it
    in_legend: bool = False

    def __str__(self) -> str:
        # Plotly puts a zero-width space between the lines of a text.
        return f"{self.text.replace(chr(0x200B), ' / ')[:40]!r} ({self.role})"


@dataclass(frozen=True)
class Chart:
    """One Plotly chart of a page: the keys around it (innermost first) and its texts."""

    keys: tuple[str, ...]
    frame: tuple[float, float, float, float]  # left, top, right, bottom on the screen
    texts: tuple[Text, ...]
    legends: tuple[tuple[Point, ...], ...] = ()  # each legend's box, border included

    def name(self, expected: Iterable[str]) -> str:
        """The key it is known by: the page's name for it, else its container's key.

        A chart sits in a container keyed ``k`` as ``k-plot``, or, when clicks on it pick a
        sample, in a container keyed ``k-chart`` as ``k``.
        """
        known = [key for key in self.keys if key in set(expected)]
        if known:
            return known[0]
        inner = self.keys[0] if self.keys else "(no key)"
        return f"{inner}-chart" if f"{inner}-chart" in self.keys else inner.removesuffix("-plot")


def _corners(raw: Sequence[Sequence[float]]) -> tuple[Point, ...]:
    return tuple((float(x), float(y)) for x, y in raw)


def _chart(raw: dict[str, Any]) -> Chart:
    texts = tuple(
        Text(
            t["text"],
            t["role"],
            float(t["size"]),
            float(t["line_height"]),
            _corners(t["corners"]),
            bool(t["in_legend"]),
        )
        for t in raw["texts"]
    )
    left, top, right, bottom = raw["frame"]
    legends = tuple(_corners(box) for box in raw["legends"])
    return Chart(tuple(raw["keys"]), (left, top, right, bottom), texts, legends)


# --- geometry, in plain Python so it can be checked without a browser ------------------------


def _axes(corners: Sequence[Point]) -> list[Point]:
    """The unit normals of a convex polygon's edges."""
    normals = []
    for (x0, y0), (x1, y1) in itertools.pairwise([*corners, corners[0]]):
        length = math.hypot(x1 - x0, y1 - y0)
        if length > 0:
            normals.append(((y0 - y1) / length, (x1 - x0) / length))
    return normals


def overlap(a: Sequence[Point], b: Sequence[Point]) -> float:
    """How far two convex boxes overlap: 0 if apart, else the least depth over all axes (px).

    The separating axis theorem: two convex polygons are apart exactly when their shadows on
    the normal of some edge of either are apart; the depth along that best axis is how far one
    would have to move to clear the other.
    """
    depth = math.inf
    for nx, ny in _axes(a) + _axes(b):
        shadow_a = [x * nx + y * ny for x, y in a]
        shadow_b = [x * nx + y * ny for x, y in b]
        depth = min(depth, min(max(shadow_a), max(shadow_b)) - max(min(shadow_a), min(shadow_b)))
        if depth <= 0:
            return 0.0
    return depth


def overlaps(texts: Sequence[Text], slack: float = SLACK_PX) -> list[tuple[Text, Text, float]]:
    """Every pair of texts whose boxes overlap by more than ``slack`` px."""
    found = []
    for first, second in itertools.combinations(texts, 2):
        depth = overlap(first.corners, second.corners)
        if depth > slack:
            found.append((first, second, depth))
    return found


def outside(text: Text, frame: tuple[float, float, float, float], slack: float = SLACK_PX) -> bool:
    """Whether ``text`` runs past the chart's ``frame`` (left, top, right, bottom) by > slack."""
    left, top, right, bottom = frame
    xs = [x for x, _ in text.corners]
    ys = [y for _, y in text.corners]
    return (
        min(xs) < left - slack
        or min(ys) < top - slack
        or max(xs) > right + slack
        or max(ys) > bottom + slack
    )


def problems(chart: Chart, name: str, *, check_size: bool) -> list[str]:
    """What a class could not read on ``chart``, one line each; empty when all is well."""
    found = []
    if check_size:
        for text in chart.texts:
            if text.size < MIN_TEXT_PX or text.line_height < MIN_TEXT_PX:
                found.append(
                    f"{name}: {text} is {text.size:.1f} px (line {text.line_height:.1f} px), "
                    f"under {MIN_TEXT_PX:g}"
                )
    for first, second, depth in overlaps(chart.texts):
        found.append(f"{name}: {first} and {second} overlap by {depth:.1f} px")
    # A legend's box is opaque: a text under it is hidden even where no two texts meet.
    for box in chart.legends:
        for text in chart.texts:
            depth = overlap(box, text.corners)
            if not text.in_legend and depth > SLACK_PX:
                found.append(f"{name}: the legend's box covers {text} by {depth:.1f} px")
    for text in chart.texts:
        if outside(text, chart.frame):
            found.append(f"{name}: {text} runs past the chart's edge")
    return found


# --- opening a page and measuring it ---------------------------------------------------------


def measure(app: AppPage) -> list[Chart]:
    """Every chart on the page, measured once each has been in view and all hold still."""
    page = app.page
    page.evaluate("() => document.fonts.ready.then(() => true)")
    page.evaluate(_VISIT)
    # Plotly redraws after a resize and after working out automatic margins: measure until
    # two looks agree.
    before: Any = None
    for _ in range(40):
        page.wait_for_timeout(200)
        now = page.evaluate(_MEASURE)
        if now == before:
            break
        before = now
    return [_chart(raw) for raw in now]


def open_chart_page(app: AppPage, case: ChartPage) -> None:
    app.open(case.path, case.ready)
    for label, key in case.expanders:
        app.page.get_by_text(label).first.click()
        app.settle((f".st-key-{key} .js-plotly-plot .main-svg",))
    for selector in case.ready:  # charts draw a moment after the run that sent them
        app.page.locator(selector).first.wait_for(state="attached", timeout=OPEN_TIMEOUT_MS)
    app.assert_healthy()


def check_chart_text(browser: Any, server: LiveServer, case: ChartPage, size: str) -> None:
    """Open ``case`` at ``size`` in a tab of its own and fail with every problem found there."""
    with tab(browser, server, viewport=VIEWPORTS[size]) as app:
        open_chart_page(app, case)
        expected = (*case.charts, *(key for _, key in case.expanders))
        charts = measure(app)
    names = [chart.name(expected) for chart in charts]
    missing = set(expected) - set(names)
    assert not missing, f"{case.name} at {size}: no chart measured in {sorted(missing)}"
    found = []
    for chart, name in zip(charts, names, strict=True):
        assert len(chart.texts) >= 2, f"{case.name} at {size}: {name} shows no text: {chart}"
        found += problems(chart, name, check_size=size == SIZE_CHECKED)
    assert not found, f"{case.name} at {size}, {len(found)} problems:\n" + "\n".join(found)
