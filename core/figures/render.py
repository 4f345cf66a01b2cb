"""Turn DOT text into SVG or PNG with Graphviz's ``dot``, when it is installed.

Pages call :func:`dot_available` first; without ``dot`` they hand the DOT text to the browser
(``st.graphviz_chart``) with a one-line notice, and :func:`render_svg` / :func:`render_png`
raise :class:`GraphvizUnavailableError`. An SVG comes from one of a few ``dot`` processes kept
running (:mod:`core.figures.dot_process`); a PNG, made only for a download, from a fresh one.
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess

import graphviz

from core.figures.dot_process import POOL

__all__ = [
    "GraphvizRenderError",
    "GraphvizUnavailableError",
    "dot_available",
    "render_png",
    "render_svg",
]


class GraphvizUnavailableError(RuntimeError):
    """Graphviz's ``dot`` program is not installed (or not on PATH)."""


class GraphvizRenderError(RuntimeError):
    """``dot`` ran but rejected the DOT text; the message carries its error output."""


@functools.cache
def dot_available() -> bool:
    """True when the ``dot`` program is on PATH (checked once per process, then cached).

    Call ``dot_available.cache_clear()`` to check again.
    """
    return shutil.which("dot") is not None


_UNAVAILABLE = (
    "Graphviz's 'dot' program was not found on PATH, so the diagram cannot be rendered on the "
    "server; install Graphviz (Debian: apt-get install graphviz) or render the DOT text in the "
    "browser instead"
)


def _pipe(dot: str, fmt: str) -> bytes:
    if not dot_available():
        raise GraphvizUnavailableError(_UNAVAILABLE)
    try:
        return graphviz.pipe("dot", fmt, dot.encode("utf-8"), quiet=True)
    except graphviz.ExecutableNotFound as error:
        raise GraphvizUnavailableError(_UNAVAILABLE) from error
    except subprocess.CalledProcessError as error:
        stderr = error.stderr.decode("utf-8", "replace") if error.stderr else ""
        raise GraphvizRenderError(f"dot could not render the diagram: {stderr.strip()}") from error


_SVG_TAG = re.compile(r"<svg\b[^>]*>", re.DOTALL)
_SIZE_ATTRIBUTE = re.compile(r'\s(width|height)="[^"]*"')


def render_svg(dot: str, *, fit_width: bool = True) -> str:
    """Render DOT text to an SVG document.

    Parameters
    ----------
    dot : str
        DOT source, for example from :func:`~core.figures.tree_dot.to_dot`.
    fit_width : bool, default True
        Drop the fixed ``width``/``height`` (in points) from the root ``<svg>`` tag and let it
        fill the container's width instead (``width="100%"``); ``viewBox`` keeps the aspect
        ratio. With False the SVG keeps Graphviz's natural size.

    Returns
    -------
    str
        The SVG document (UTF-8 text).

    Raises
    ------
    GraphvizUnavailableError
        When ``dot`` is not installed.
    GraphvizRenderError
        When ``dot`` rejects the source.
    """
    if not dot_available():
        raise GraphvizUnavailableError(_UNAVAILABLE)
    # A running dot lays it out without the cost of starting one; on any trouble, dot once.
    laid_out = POOL.render(dot) or _pipe(dot, "svg")
    svg = laid_out.decode("utf-8")
    if not fit_width:
        return svg
    match = _SVG_TAG.search(svg)
    if match is None:
        raise GraphvizRenderError("dot returned no <svg> element")
    tag = _SIZE_ATTRIBUTE.sub("", match.group(0))
    tag = tag.replace("<svg", '<svg width="100%" preserveAspectRatio="xMidYMin meet"', 1)
    return svg[: match.start()] + tag + svg[match.end() :]


def render_png(dot: str, *, dpi: float = 96.0) -> bytes:
    """Render DOT text to PNG bytes.

    Parameters
    ----------
    dot : str
        DOT source.
    dpi : float, default 96
        Resolution; 150-200 gives a crisp image for a README or a projector.

    Returns
    -------
    bytes
        The PNG file's bytes.

    Raises
    ------
    GraphvizUnavailableError, GraphvizRenderError
        As :func:`render_svg`.
    """
    if not dpi > 0:
        raise ValueError(f"dpi must be > 0, got {dpi}")
    brace = dot.find("{")
    if brace < 0:
        raise ValueError("dot must contain a graph body '{ ... }'")
    # A graph attribute set first in the body; later 'graph [...]' lines do not set dpi.
    with_dpi = f"{dot[: brace + 1]}\ngraph [dpi={dpi:g}];{dot[brace + 1 :]}"
    return _pipe(with_dpi, "png")
