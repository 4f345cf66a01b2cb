"""core/figures/overlays.py: the traced sample's star, the legend below, click-to-trace."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from core.figures import overlays

# --- click-to-trace ------------------------------------------------------------------------


def test_clicked_sample_maps_a_clicked_row_id_to_its_test_position():
    test_index = np.array([4, 9, 17])
    points = [{"curve_number": 2, "customdata": 17}]
    assert overlays.clicked_sample(points, (1, 2), test_index) == 2
    assert overlays.clicked_sample([{"curve_number": 1, "customdata": [9]}], (1,), test_index) == 1


def test_clicked_sample_ignores_training_points_and_the_regions():
    test_index = np.array([4, 9, 17])
    training = [{"curve_number": 1, "customdata": 5}]
    region = [{"curve_number": 0, "customdata": 1.0}]  # a heatmap cell: a probability
    assert overlays.clicked_sample(training, (1,), test_index) is None
    assert overlays.clicked_sample(region, (1, 2), test_index) is None
    assert overlays.clicked_sample([], (1,), test_index) is None


def test_a_click_on_a_training_point_hiding_a_test_sample_picks_the_test_sample():
    test_index = np.array([4, 9, 17])
    test_xy = np.array([[1.0, 0.2], [1.4, 0.2], [5.0, 1.5]])
    covered = [{"curve_number": 1, "customdata": 3, "x": 1.4, "y": 0.2}]
    assert overlays.clicked_sample(covered, (1,), test_index, test_xy) == 1
    elsewhere = [{"curve_number": 1, "customdata": 3, "x": 1.3, "y": 0.2}]
    assert overlays.clicked_sample(elsewhere, (1,), test_index, test_xy) is None


def test_mark_sample_stars_the_point_above_every_other():
    figure = go.Figure(go.Scatter(x=[0.0], y=[0.0], name="data"))
    overlays.mark_sample(figure, (3.0, 1.0), "Sample <#4>")
    assert len(figure.data) == 2
    star = figure.data[-1]  # drawn last, so above every other point
    assert (star.x, star.y) == ((3.0,), (1.0,))
    assert star.marker.symbol == "star"
    assert star.name == "Sample <#4>"
    assert star.hovertemplate == "Sample &lt;#4&gt;<extra></extra>"


# --- figure layout -------------------------------------------------------------------------


def test_legend_below_lays_the_legend_flat_under_the_plot():
    below = overlays.legend_below_layout()
    legend = below["legend"]
    assert (legend["orientation"], legend["x"], legend["y"], legend["yanchor"]) == (
        "h",
        0,
        -0.2,
        "top",
    )
    assert below["margin"]["b"] == 130


@pytest.mark.parametrize("height, top", [(480, 20), (480, 84), (560, 60), (300, 20)])
def test_legend_below_starts_a_fixed_gap_under_the_plot(height, top):
    # Plot height = figure height - top margin - the 130 px bottom margin; the legend starts
    # 80 px under the plot's lower edge, so it clears the axis title on a short plot too (at
    # 64 px the title sat on the legend's border at 1280x720, issue 24).
    legend = overlays.legend_below_layout(height, top)["legend"]
    plot = height - top - 130
    assert legend["y"] * plot == pytest.approx(-80, abs=0.05)
