"""The form a figure is sent in (core.figures.wire): what Plotly's ``to_dict`` makes, faster.

Every builder's figure is compared with Plotly's own form in ``test_fast_figures``; these
tests hold each rule of the typed arrays against Plotly's, on values chosen to reach it.
"""

from __future__ import annotations

import base64
import copy
import json
import pickle

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from core.figures._layout import DeferredFigure, build_figure
from core.figures.overlays import mark_sample, sample_star
from core.figures.wire import typed_array, wire_form, with_traces


def _same_as_plotly(figure: go.Figure) -> None:
    ours, plotlys = wire_form(figure), figure.to_dict()
    assert pio.to_json(ours, validate=False) == pio.to_json(plotlys, validate=False)


@pytest.mark.parametrize(
    ("values", "dtype"),
    [
        (np.array([0, 5, -7], dtype=np.int64), "i1"),
        (np.array([0, 300, -7], dtype=np.int64), "i2"),
        (np.array([0, 70_000], dtype=np.int64), "i4"),
        (np.array([0, 200], dtype=np.uint64), "u1"),
        (np.array([0, 70_000], dtype=np.uint64), "u4"),
        (np.array([1.5, np.nan, -2.0]), "f8"),
        (np.array([1.5, 2.0], dtype=np.float32), "f4"),
        (np.array([3, 4], dtype=np.int32), "i4"),
    ],
)
def test_numbers_become_the_narrowest_typed_array_plotly_picks(
    values: np.ndarray, dtype: str
) -> None:
    typed = typed_array(values)
    assert isinstance(typed, dict)
    assert typed["dtype"] == dtype
    decoded = np.frombuffer(base64.b64decode(typed["bdata"]), dtype=np.dtype(dtype))
    np.testing.assert_array_equal(decoded, values)
    _same_as_plotly(build_figure([{"type": "scatter", "x": values, "y": values}], {}))


@pytest.mark.parametrize(
    "values",
    [
        np.array([0, 2**40], dtype=np.int64),  # wider than Plotly.js's integers
        np.array([True, False]),
        np.array(["a", "b"], dtype=object),
        np.array(["a", "b"]),
        np.array([], dtype=float),
        np.array([1.0, 2.0], dtype=">f8"),  # not the machine's byte order
        np.array(["2026-11-28", "2026-11-29"], dtype="datetime64[D]"),
    ],
)
def test_what_plotly_js_cannot_read_as_bytes_is_left_as_it_is(values: np.ndarray) -> None:
    assert typed_array(values) is values
    _same_as_plotly(
        build_figure([{"type": "scatter", "x": values, "y": [1, 2][: len(values)]}], {})
    )


def test_a_grid_carries_its_shape() -> None:
    z = np.arange(6, dtype=float).reshape(2, 3)
    typed = typed_array(z)
    assert isinstance(typed, dict)
    assert typed["shape"] == "2, 3"
    _same_as_plotly(build_figure([{"type": "heatmap", "z": z}], {}))


def test_kept_keys_and_arrays_inside_lists_stay_arrays_as_in_plotly() -> None:
    figure = build_figure(
        [{"type": "heatmap", "z": [np.array([1.0, 2.0]), np.array([3.0, 4.0])]}],
        {"xaxis": {"range": np.array([0.0, 1.0])}},
    )
    form = wire_form(figure)
    assert isinstance(form["layout"]["xaxis"]["range"], np.ndarray)
    assert all(isinstance(row, np.ndarray) for row in form["data"][0]["z"])
    _same_as_plotly(figure)


def test_a_pandas_column_is_sent_as_plotly_sends_it() -> None:
    figure = build_figure([{"type": "bar", "x": pd.Series(["a", "b"]), "y": pd.Series([1, 2])}], {})
    _same_as_plotly(figure)


def test_frames_are_sent_too() -> None:
    figure = go.Figure(
        data=[{"type": "scatter", "x": np.array([1.0, 2.0])}],
        frames=[{"data": [{"type": "scatter", "x": np.array([3.0, 4.0])}]}],
    )
    assert "frames" in wire_form(figure)
    _same_as_plotly(figure)


def test_the_figure_is_left_as_it_was() -> None:
    x = np.array([1.0, 2.0])
    figure = build_figure([{"type": "scatter", "x": x, "marker": {"size": 3}}], {"height": 300})
    before = json.loads(pio.to_json(figure, validate=False))
    form = wire_form(figure)
    form["data"][0]["marker"]["size"] = 99
    form["layout"]["height"] = 1
    assert json.loads(pio.to_json(figure, validate=False)) == before
    assert figure.data[0].x is not None
    np.testing.assert_array_equal(figure.data[0].x, x)


def test_a_star_added_to_a_sent_form_is_the_starred_figures_form() -> None:
    # The panels keep a boundary's form without the star and add each visitor's star to it.
    regions = {"type": "heatmap", "z": np.array([[0.0, 1.0], [1.0, 0.0]])}
    points = {"type": "scatter", "x": np.array([1.0, 2.0]), "y": np.array([0.5, 1.5])}
    figure = build_figure([regions, points], {"height": 300})
    form = wire_form(figure)
    before = pio.to_json(form, validate=False)
    star = sample_star((1.5, 0.25), "test sample #<3>")
    starred = with_traces(form, star)
    assert pio.to_json(form, validate=False) == before  # the kept form is shared: unchanged
    expected = wire_form(mark_sample(figure, (1.5, 0.25), "test sample #<3>"))
    assert json.loads(pio.to_json(starred, validate=False)) == json.loads(
        pio.to_json(expected, validate=False)
    )
    assert starred["data"][-1]["marker"]["symbol"] == "star"


def _deferred() -> go.Figure:
    """A figure as a builder makes it (its layout names a template), with what Plotly keeps
    and drops: typed and untyped arrays, a kept ``range``, arrays inside lists, a property
    set to None (dropped) and a None inside a nested dict (kept)."""
    values = np.array([0.5, 1.5, 2.5])
    regions = {"type": "heatmap", "z": np.arange(6.0).reshape(2, 3), "text": np.array(["a"] * 6)}
    points = {
        "type": "scatter",
        "x": values,
        "y": np.array([1, 2, 3]),
        "name": None,
        "customdata": [np.array([1, 2]), np.array([3, 4])],
        "marker": {"size": 3, "color": None},
    }
    layout = {"template": {}, "xaxis": {"range": np.array([0.0, 3.0])}, "showlegend": None}
    return build_figure([regions, points], layout)


def test_an_unread_figure_is_sent_from_its_own_dicts() -> None:
    figure = _deferred()
    assert type(figure) is DeferredFigure
    sent = wire_form(figure)
    assert type(figure) is DeferredFigure, "sending it made no Plotly objects"
    plotlys = figure.to_dict()  # reading it makes them
    assert type(figure) is go.Figure
    assert json.loads(pio.to_json(sent, validate=False)) == json.loads(
        pio.to_json(plotlys, validate=False)
    )
    assert pio.to_json(wire_form(figure), validate=False) == pio.to_json(plotlys, validate=False)


def test_a_deferred_figure_is_a_figure_to_whoever_reads_it() -> None:
    def as_json(figure: go.Figure) -> str:
        return pio.to_json(figure, validate=False)

    made = _deferred()
    assert made.data  # read: now what an unvalidated go.Figure of the same dicts is
    assert isinstance(_deferred(), go.Figure)
    for copied, of_made in (
        (pickle.loads(pickle.dumps(_deferred())), pickle.loads(pickle.dumps(made))),
        (copy.deepcopy(_deferred()), copy.deepcopy(made)),
    ):
        assert as_json(copied) == as_json(of_made)
    first, second = _deferred(), _deferred()
    assert first == second and type(first) is type(second) is go.Figure
    changed = _deferred()
    changed.update_layout(height=300)
    assert (type(changed), changed.layout.height) == (go.Figure, 300)
    assert wire_form(changed)["layout"]["height"] == 300
    assert [trace.type for trace in _deferred().data] == ["heatmap", "scatter"]
    assert "Figure(" in repr(_deferred())


def test_a_layout_without_a_template_gets_plotlys_at_once() -> None:
    figure = build_figure([{"type": "bar", "x": [1], "y": [2]}], {})
    assert type(figure) is go.Figure
    assert "template" in figure.to_dict()["layout"]
