"""Showing things: callouts, the real source of the code at work, inline SVG diagrams,
Plotly charts (click-to-trace ones too) in keyed containers, and a guard that turns a failure
into a friendly message.
"""

from __future__ import annotations

import contextlib
import functools
import html
import inspect
import logging
import re
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeAlias

import numpy as np
import plotly.graph_objects as go
import pyarrow as pa
import streamlit as st

from core.figures import dot_available, render_png, render_svg
from core.figures.describe import chart_text, tree_text
from core.figures.overlays import clicked_sample
from core.figures.wire import wire_form
from core.ui.cached import svg

_LOG = logging.getLogger(__name__)

#: What a chart shows: a figure, or its form for the browser already made
#: (:func:`~core.figures.wire.wire_form`, as the panels keep a figure shown on many runs).
Chart: TypeAlias = go.Figure | dict[str, Any]

# --- showing things ------------------------------------------------------------------------


def what_to_notice(text: str, *, key: str = "what-to-notice") -> None:
    """The lesson of a page (or of a view on it, under its own ``key``) in a callout."""
    with st.container(key=key):
        st.info(f"**What to notice.** {text}", icon=":material/visibility:")


#: The key of the "How this is computed" expander (``st.session_state[key]``: open or not);
#: its code is in the container keyed ``how-computed-code``.
HOW_COMPUTED = "how-computed"


def how_computed(
    intro: str,
    functions: Sequence[Callable[..., Any]],
    more: Sequence[tuple[str, Sequence[Callable[..., Any]]]] = (),
) -> None:
    """The real source of the functions doing the work, read at run time.

    ``more`` adds parts after them, each its words and its functions (the open expanders
    of the page); a function already listed above is not listed again.

    The expander is lazy (Streamlit's ``on_change="rerun"``): its code is made and sent only
    while it is open, so the runs of a student who never opens it (most runs of a class) do
    not pay for some hundred lines of highlighted source. Opening it reruns the page once.
    """
    box = st.expander(
        "How this is computed", icon=":material/code:", key=HOW_COMPUTED, on_change="rerun"
    )
    if not box.open:
        return
    listed: set[Callable[..., Any]] = set()
    with box, st.container(key=f"{HOW_COMPUTED}-code"):
        for words, code in ((intro, functions), *more):
            st.markdown(words)
            for function in code:
                if function not in listed:
                    listed.add(function)
                    _listing(function)


def _listing(function: Callable[..., Any]) -> None:
    """One function's name and its source, line-numbered."""
    module = getattr(function, "__module__", "")
    st.caption(f"`{module}.{function.__qualname__}`")
    st.code(_source(function), language="python", line_numbers=True)


@functools.cache
def _source(function: Callable[..., Any]) -> str:
    """A function's source, read once per process: the files do not change while it runs."""
    try:
        return textwrap.dedent(inspect.getsource(function))
    except (OSError, TypeError):
        return "# source not available"


def figure_text(text: str) -> None:
    """``text`` for a screen reader, just before the figure it describes; on screen it takes
    no room (``page.css``): a chart's shapes and a diagram's boxes say nothing to a reader."""
    st.html(f'<p class="arboretum-figure-text">{html.escape(text)}</p>')


def show_svg(
    svg: str,
    *,
    key: str,
    min_scale: float = 0.0,
    max_scale: float = 1.5,
    max_height_vh: int = 70,
    whole: bool = False,
    label: str = "",
) -> None:
    """A server-rendered diagram, inline (its text stays searchable), in a keyed container.

    The SVG is centred and fills the width, growing up to ``max_scale`` times its natural
    size (a small tree then reads better on a projector instead of leaving the page empty).
    It shrinks down to ``min_scale`` of that size; a wider tree then scrolls sideways. The
    default 0 always shows a big tree whole, which is the lesson when it is that big.
    It is also no taller than ``max_height_vh`` percent of the window's height (narrower then,
    still centred): a deep tree fitted to a column's width alone ran off a 720 px screen, and
    the boundary beside it with it.

    ``whole`` draws it in a box exactly ``max_height_vh`` tall, fitted inside it whichever
    way is tighter: the frame :func:`tree_diagram` zooms and pans. ``label`` names the
    drawing for a screen reader (its ``aria-label``; the boxes' text stays readable).
    """
    start = svg.find("<svg")  # the XML prolog and doctype are not HTML
    tag_end = svg.find(">", start)
    tag = re.sub(r'\s(width|height|preserveAspectRatio)="[^"]*"', "", svg[start:tag_end])
    view_box = re.search(r'viewBox="[\d.-]+ [\d.-]+ ([\d.]+) [\d.]+"', tag)
    width = float(view_box.group(1)) if view_box else 600.0
    if whole:
        style = "display:block;width:100%;height:100%"
        box = f"height:{max_height_vh}vh"
    else:
        style = (
            "display:block;margin:0 auto;width:100%;height:auto;"
            f"max-width:{max_scale * width:.0f}pt;max-height:{max_height_vh}vh"
        )
        if min_scale > 0:
            style += f";min-width:{min_scale * width:.0f}pt"
        box = "overflow-x:auto"
    named = f' aria-label="{html.escape(label)}"' if label else ""
    body = f'{tag} style="{style}"{named}{svg[tag_end:]}'
    with st.container(key=key, border=False):
        # Markdown, not st.html: st.html's sanitizer drops <svg>. The SVG is ours: dot's
        # output of labels the figure builders escape.
        st.markdown(
            f'<div class="arboretum-svg" style="{box}">{body}</div>', unsafe_allow_html=True
        )


def tree_diagram(dot: str, *, key: str, name: str, whole: bool = False) -> str | None:
    """Show a tree diagram that zooms and pans, with its download buttons, keyed ``key``.

    Rendered to SVG on the server by Graphviz when ``dot`` is installed (cached by DOT text);
    otherwise laid out in the browser by ``st.graphviz_chart``, with a one-line notice. Either
    way :func:`zoom_controls` lets a visitor zoom into any node and move around.
    ``whole``: the drawing fills a box 70% of the window tall (see ``show_svg``).

    Returns
    -------
    str or None
        The SVG shown, or None when the browser laid the tree out.
    """
    drawing: str | None = None
    label = tree_text(dot)
    with st.container(key=key, border=False):
        figure_text(label)
        if dot_available():
            drawing = svg(dot)
            show_svg(drawing, key=f"{key}-drawing", whole=whole, label=label)
        else:
            st.caption(
                "Graphviz is not installed on the server, so your browser lays out the tree."
            )
            with st.container(key=f"{key}-drawing"):
                st.graphviz_chart(dot)
        zoom_controls(key, whole=whole)
    diagram_downloads(dot, name=name, key=key)
    return drawing


_VENDOR = Path(__file__).with_name("vendor")
_ZOOM = st.components.v2.component(
    "arboretum_tree_zoom",
    html=(
        '<div class="arboretum-zoom-bar">'
        '<button data-zoom="in" title="Zoom in (+)" aria-label="Zoom in">+</button>'
        '<button data-zoom="out" title="Zoom out (-)" aria-label="Zoom out">−</button>'
        '<button data-zoom="fit" title="Fit the tree (0)" aria-label="Fit">Fit</button>'
        '<button data-zoom="screen" title="Full screen" aria-label="Full screen">'
        "Full screen</button>"
        "<span>Drag to move; pinch, Ctrl + wheel, or the wheel once the tree is clicked, to "
        "zoom; keys + − 0 and arrows.</span></div>"
    ),
    css=(Path(__file__).with_name("tree_zoom.css")).read_text(encoding="utf-8"),
    # The library first (it defines globalThis.Panzoom), then our module that uses it.
    js=(_VENDOR / "panzoom-4.6.2.min.js").read_text(encoding="utf-8")
    + "\n"
    + Path(__file__).with_name("tree_zoom.js").read_text(encoding="utf-8"),
    isolate_styles=False,
)


def zoom_controls(key: str, *, whole: bool = False) -> None:
    """Zoom and pan for the diagram in the container keyed ``key``, and their buttons.

    A Streamlit component over the vendored Panzoom library: it finds the SVG in that
    container (the server's or the browser's layout) and attaches again whenever the page
    draws a new one. The browser's layout gets the box :func:`show_svg` gives the server's
    (``whole`` or fitted). Nothing comes back to Python.
    """
    _ZOOM(key=f"{key}-zoom", data={"key": key, "whole": whole}, height="content")


def diagram_downloads(dot: str, *, name: str, key: str) -> None:
    """Download buttons for a tree diagram: SVG, PNG and the DOT source.

    SVG and PNG are drawn by Graphviz only when a button is clicked (Streamlit calls the
    function then, on another thread), so the page pays nothing for them; without Graphviz
    only the DOT text is offered, which any Graphviz tool can draw.
    """
    with st.container(key=f"{key}-downloads", horizontal=True):
        if dot_available():
            st.download_button(
                "SVG",
                data=functools.partial(render_svg, dot, fit_width=False),
                file_name=f"{name}.svg",
                mime="image/svg+xml",
                key=f"{key}-svg",
                icon=":material/download:",
                on_click="ignore",
            )
            st.download_button(
                "PNG",
                data=functools.partial(render_png, dot),
                file_name=f"{name}.png",
                mime="image/png",
                key=f"{key}-png",
                icon=":material/download:",
                on_click="ignore",
            )
        st.download_button(
            "DOT",
            data=dot,
            file_name=f"{name}.dot",
            mime="text/vnd.graphviz",
            key=f"{key}-dot",
            icon=":material/download:",
            on_click="ignore",
        )


class Guard(contextlib.AbstractContextManager["Guard"]):
    """Turn any failure inside into a friendly in-page message, so the rest of the page lives.

    ``failed`` tells the page whether to go on: ``with ui.guard("the tree") as g: ...``.
    """

    def __init__(self, what: str) -> None:
        self.what = what
        self.failed = False

    def __exit__(self, kind: Any, error: Any, trace: Any) -> bool:
        if error is None or not isinstance(error, Exception):
            return False  # success, or Streamlit's own stop/rerun signals
        _LOG.exception("could not show %s", self.what, exc_info=error)
        st.warning(
            f"Arboretum could not show {self.what} for these settings "
            f"({html.escape(type(error).__name__)}). Try other settings; nothing else was lost.",
            icon=":material/error:",
        )
        self.failed = True
        return True


def guard(what: str) -> Guard:
    """``with ui.guard("the tree") as g:`` shows a friendly message if anything inside fails."""
    return Guard(what)


def _on_click(
    key: str, curves: tuple[int, ...], test_index: np.ndarray, test_xy: np.ndarray
) -> None:
    event = st.session_state.get(key)
    points = list(event["selection"]["points"]) if event else []
    position = clicked_sample(points, curves, test_index, test_xy)
    if position is not None:
        st.session_state["sample"] = position
    elif points:
        st.toast("That is a training sample: click a ring (a test sample) to trace it.")


class _Wired(go.Figure):
    """A figure already in the form Plotly.js reads (:func:`~core.figures.wire.wire_form`).

    ``st.plotly_chart`` takes a figure object and sends its ``to_dict()``, which is this form:
    Plotly's own ``to_dict`` would make it again, about three times slower. Nothing else of
    the figure object is read, so none of it is built.
    """

    def __init__(self, form: dict[str, Any]) -> None:  # no super().__init__: see above
        object.__setattr__(self, "_form", form)

    def to_dict(self) -> dict[str, Any]:
        form: dict[str, Any] = object.__getattribute__(self, "_form")
        return form


#: Plotly's toolbar sat over the top right of every chart, on its title (the glance grid's
#: panel titles, the leaves chart's). Without it a chart still zooms by a drag and resets on a
#: double click, and Streamlit's own toolbar still opens it full screen.
PLOTLY_CONFIG: dict[str, Any] = {"displayModeBar": False}


def plotly_chart(figure: Chart, *, key: str, **options: Any) -> None:
    """``st.plotly_chart(figure, key=key, **options)``, full width, in the figure's own look.

    The figures carry their projector-friendly look (``theme=None``), and go to the browser
    in the form :func:`~core.figures.wire.wire_form` makes: the same chart, less CPU per run.
    A ``figure`` that is a dict is that form already. Plotly's toolbar is hidden
    (:data:`PLOTLY_CONFIG`), for every chart, here, and every chart gets its text alternative
    (:func:`figure_text`).
    """
    form = figure if isinstance(figure, dict) else wire_form(figure)
    config = {**PLOTLY_CONFIG, **options.pop("config", {})}
    figure_text(chart_text(form))
    st.plotly_chart(_Wired(form), key=key, width="stretch", theme=None, config=config, **options)


def table(rows: Sequence[dict[str, Any]], **options: Any) -> None:
    """``rows`` (one dict per row, the same keys in each) as a full-width table, no index.

    Handed to Streamlit as an Arrow table, which it sends as it is: a list of dicts would
    become a pandas DataFrame first, then Arrow, an order of magnitude more work for a table of
    a dozen rows. Rows Arrow cannot type (a column of text and numbers) go the pandas way.
    """
    try:
        data: Any = pa.Table.from_pylist(list(rows))
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        data = list(rows)
    st.dataframe(data, hide_index=True, width="stretch", **options)


def clickable_chart(
    figure: Chart, *, key: str, test_index: np.ndarray, test_xy: np.ndarray
) -> None:
    """A Plotly chart where clicking a test sample makes it the traced ``sample``.

    Points carry their dataset row id as ``customdata``; only scatter traces count, so a
    click on the shaded regions (whose ``customdata`` is a probability) is ignored.
    ``test_xy`` holds the test samples' plot coordinates, shape ``(n_test, 2)``.
    """
    types = (
        [trace.get("type") for trace in figure["data"]]
        if isinstance(figure, dict)
        else [trace.type for trace in figure.data]
    )
    curves = tuple(i for i, kind in enumerate(types) if kind == "scatter")
    with st.container(key=f"{key}-chart"):
        plotly_chart(
            figure,
            key=key,
            on_select=functools.partial(_on_click, key, curves, test_index, test_xy),
            selection_mode="points",
        )


def chart(figure: Chart, *, key: str) -> None:
    """A Plotly chart in a keyed container (``st-key-<key>`` for browser tests)."""
    with st.container(key=key):
        plotly_chart(figure, key=f"{key}-plot")
