"""A Plotly figure in the form the browser's Plotly.js reads, made in one pass.

``st.plotly_chart`` sends ``figure.to_dict()``. Plotly's ``to_dict`` deep-copies the figure,
then walks it and turns each NumPy array into a *typed array*: ``{"dtype": "f8", "bdata":
<base64 of the bytes>}``, which Plotly.js decodes without parsing a number per point. Each
array goes through a general converter that first asks whether it is a pandas, Polars or
other dataframe column; on a boundary figure's thirty-odd small arrays that costs more than
computing the chart, on every rerun that shows it.

:func:`wire_form` makes the same dict from our figures, whose arrays are NumPy arrays, in one
walk: the same typed arrays, the same integer narrowing, the same keys left alone. Its test
compares the JSON of both forms on every kind of chart the pages draw.
"""

from __future__ import annotations

import base64
from typing import Any

import numpy as np
import plotly
import plotly.graph_objects as go

from core.figures._layout import DeferredFigure

#: Whether this Plotly sends arrays as typed arrays (Plotly 6 and later; Plotly 5 sends lists).
TYPED_ARRAYS = int(plotly.__version__.split(".")[0]) >= 6

#: Plotly.js's names of the NumPy types it decodes from bytes.
TYPED = {
    "int8": "i1",
    "uint8": "u1",
    "int16": "i2",
    "uint16": "u2",
    "int32": "i4",
    "uint32": "u4",
    "float32": "f4",
    "float64": "f8",
}
#: Keys whose values Plotly sends as they are, arrays included (an axis's ``range`` is read as
#: a plain list by Plotly.js).
KEPT = frozenset({"geojson", "layer", "layers", "range"})
_NARROWER = {
    "i": (np.int8, np.int16, np.int32),
    "u": (np.uint8, np.uint16, np.uint32),
}


def typed_array(values: np.ndarray) -> dict[str, str] | np.ndarray:
    """``values`` as a Plotly.js typed array, or unchanged when Plotly.js has no such type.

    64-bit integers are narrowed to the smallest of 8, 16 and 32 bits that holds every value
    (Plotly.js has no 64-bit integers); a wider value keeps the array as it is, as do
    booleans, strings, objects, dates and an empty array. Shape ``(n,)`` gives ``{"dtype",
    "bdata"}``; more dimensions add ``"shape": "rows, columns"``.
    """
    if values.size == 0:
        return values
    if values.dtype.kind in _NARROWER and values.dtype.itemsize == 8:
        low, high = values.min(), values.max()
        fits = [
            t
            for t in _NARROWER[values.dtype.kind]
            if np.iinfo(t).min <= low <= high <= np.iinfo(t).max
        ]
        if not fits:
            return values
        values = values.astype(fits[0])
    name = TYPED.get(str(values.dtype))  # a byte order other than the machine's is not one
    if name is None:
        return values
    typed = {
        "dtype": name,
        "bdata": base64.b64encode(np.ascontiguousarray(values).tobytes()).decode("ascii"),
    }
    if values.ndim > 1:
        typed["shape"] = ", ".join(str(n) for n in values.shape)
    return typed


class _Foreign(Exception):
    """A value Plotly would convert that is not a NumPy array (a pandas column, ...)."""


def _walk(value: Any, typed: bool = True) -> Any:
    """A copy of ``value`` (dicts and lists of plain values) with each array in a dict typed
    (left as it is when not ``typed``: Plotly 5's form).

    Raises :class:`_Foreign` on an array-like that is not a NumPy array.
    """
    if isinstance(value, dict):
        return {
            key: item
            if key in KEPT
            else (typed_array(item) if typed else item)
            if isinstance(item, np.ndarray)
            else _walk(item, typed)
            for key, item in value.items()
        }
    if isinstance(value, list | tuple):
        # An array in a list stays an array, as Plotly's.
        return [_walk(item, typed) for item in value]
    if not isinstance(value, np.ndarray | np.generic) and (
        hasattr(value, "__array__") or hasattr(value, "__array_interface__")
    ):
        raise _Foreign
    return value


def _set(properties: dict[str, Any]) -> dict[str, Any]:
    """A trace's or a layout's ``properties`` without those set to None, as an unvalidated
    Plotly figure keeps them (a None there leaves the property unset; inside a nested dict it
    is kept)."""
    return {key: value for key, value in properties.items() if value is not None}


def wire_form(figure: go.Figure) -> dict[str, Any]:
    """``figure.to_dict()`` for a figure whose arrays are NumPy arrays, made in one walk.

    It reads the figure's own property dicts (``_data``, ``_layout``, as ``to_dict`` does)
    and copies every container on the way, so nothing is deep-copied twice.

    Parameters
    ----------
    figure : plotly.graph_objects.Figure
        Any figure; one holding a pandas column or another array-like Plotly would convert
        is sent by Plotly's own ``to_dict`` (the result is the same, only slower).

    Returns
    -------
    dict
        ``{"data": [trace, ...], "layout": {...}}`` (and ``"frames"`` when it has some), new
        containers throughout: changing it leaves ``figure`` as it was. An array Plotly.js
        cannot read as bytes (text, objects) is the figure's own: read it, never change it.
    """
    if type(figure) is DeferredFigure:  # never read: its own dicts, as Plotly would keep them
        data, layout = figure.unread_source()
        try:
            walked_source: dict[str, Any] = _walk(
                {"data": [_set(trace) for trace in data], "layout": _set(layout)}, TYPED_ARRAYS
            )
        except _Foreign:
            return figure.to_dict()
        return walked_source
    if not TYPED_ARRAYS:
        return figure.to_dict()  # Plotly 5's own form has no typed arrays, and little to save
    form: dict[str, Any] = {"data": figure._data, "layout": figure._layout}
    if figure.frames:
        form["frames"] = [frame._props for frame in figure.frames]
    try:
        walked: dict[str, Any] = _walk(form)
    except _Foreign:
        return figure.to_dict()
    return walked


def with_traces(form: dict[str, Any], *traces: dict[str, Any]) -> dict[str, Any]:
    """The wire form of a figure with ``traces`` (plain trace dicts) added after its own.

    ``with_traces(wire_form(figure), trace)`` is ``wire_form(figure.add_trace(trace))``
    without building the figure again: a figure kept for every visitor gets each visitor's
    own star this way. ``form`` is left as it was; its traces are shared, not copied.
    """
    return {**form, "data": [*form["data"], *(_walk(trace) for trace in traces)]}


__all__ = ["KEPT", "TYPED", "TYPED_ARRAYS", "typed_array", "wire_form", "with_traces"]
