"""The pages :mod:`bench.bench_latency` reads the app against: Streamlit alone, no Arboretum.

- ``floor``: a page that reads one slider and echoes it. What any Streamlit page costs.
- ``page-floor``: a page of the Single tree's shape, drawn by Streamlit alone: about as many
  elements as the Single tree page sends in one run, and one chart like its boundary (a heat
  map of a few to a few hundred cells under 569 points) whose regions change with the slider,
  so every change draws it anew as the app's boundary is. What Streamlit itself needs to show
  a page of this kind; the app's time beyond it is the app's own (its script, its diagram, its
  richer elements).

The ``page-floor`` shape follows :data:`PAGE_ELEMENTS`; ``bench/tests/test_latency_floors.py``
checks it against the Single tree's own run, so the two cannot drift apart unseen.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["PAGE_ELEMENTS", "SCRIPTS", "write_script"]

#: Elements the ``page-floor`` page sends in a run, slider and echo included: half of them
#: containers, half the short text inside them, as a page's panels and their words.
PAGE_ELEMENTS = 86

FLOOR = """\
import streamlit as st

value = st.slider("value", 0, 100, 50, key="value")
with st.container(key="echo"):
    st.write(f"value {value}")
"""

# The regions are cut into more cells as the slider goes up, as a deeper tree cuts its plane
# (the Single tree's boundary on breast cancer: 1 x 2 cells at max_depth 1, 22 x 33 at 8), so
# every change makes a new figure and so a new chart, as a new max_depth does. The 569 points
# stay, in four traces (two classes, training and test) and the mistakes' crosses, as the
# boundary draws them.
PAGE_FLOOR = f"""\
import numpy as np
import plotly.graph_objects as go
import streamlit as st

value = st.slider("value", 0, 100, 50, key="value")
panels = ({PAGE_ELEMENTS} - 4) // 2  # the slider, the chart, the echo and its container aside
with st.sidebar:
    for i in range(panels // 2):
        with st.container():
            st.markdown(f"**Setting {{i}}**: a few words on what it does")
for i in range(panels - panels // 2):
    with st.container():
        st.markdown(f"Paragraph {{i}}: a few words on what the figure shows")
rng = np.random.default_rng(value)
across = 2 + value % 21
x_edges, y_edges = np.linspace(0, 1, across + 1), np.linspace(0, 1, across + across // 2 + 1)
regions = np.round(rng.uniform(0, 2, size=(y_edges.size - 1, x_edges.size - 1)), 3)
traces = [go.Heatmap(x=x_edges, y=y_edges, z=regions, showscale=False, name="regions")]
points = np.random.default_rng(0).uniform(0, 1, size=(569, 2))
label = (points.sum(axis=1) > 1).astype(int)
test = np.arange(569) % 4 == 0
for k in (0, 1):
    for split in (~test, test):
        mine = (label == k) & split
        traces.append(
            go.Scatter(x=points[mine, 0], y=points[mine, 1], mode="markers",
                       customdata=np.flatnonzero(mine), text=[f"class {{k}}"] * int(mine.sum()),
                       marker={{"size": 9, "line": {{"width": 1}}}}, name=f"class {{k}}")
        )
wrong = rng.uniform(size=569) < 0.05
traces.append(go.Scatter(x=points[wrong, 0], y=points[wrong, 1], mode="markers",
                         marker={{"symbol": "x-thin", "size": 13}}, name="mistakes"))
figure = go.Figure(traces)
figure.update_layout(title=f"value {{value}}", height=480)
st.plotly_chart(figure, key="chart", theme=None, width="stretch")
with st.container(key="echo"):
    st.write(f"value {{value}}")
"""

#: Script text by case name.
SCRIPTS = {"floor": FLOOR, "page-floor": PAGE_FLOOR}


def write_script(name: str, folder: Path) -> Path:
    """Write the script of case ``name`` (a key of :data:`SCRIPTS`) into ``folder``."""
    path = folder / f"{name.replace('-', '_')}.py"
    path.write_text(SCRIPTS[name], encoding="utf-8")
    return path
