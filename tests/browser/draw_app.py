"""A small app around the drawing area, served by ``test_browser_draw.py`` (not a product page).

It keeps the points in the session, lets a radio pick the class, and prints every point on a
line of its own, so the test can read back exactly what ``draw_points`` returned.
"""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

# Served from tests/browser/, so the project root is not on the path by itself.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.data.drawn import DrawnPoints, points_from_dataset
from core.data.puzzles import make_moons
from core.ui.draw import draw_points

COLORS = ("#0072B2", "#E69F00", "#009E73")
NAMES = ("blue", "orange", "green")

points: DrawnPoints = st.session_state.get("points", DrawnPoints())
left, right = st.columns(2)
if left.button("Clear", key="clear"):
    points = DrawnPoints()
if right.button("Start from the moons", key="moons"):
    points = points_from_dataset(make_moons(20, random_state=0))
chosen = st.radio(
    "Class of a new point",
    range(len(NAMES)),
    format_func=NAMES.__getitem__,
    key="chosen",
    horizontal=True,
)
points = draw_points(points, chosen_class=chosen, class_colors=COLORS, key="area")
st.session_state["points"] = points
st.session_state["runs"] = st.session_state.get("runs", 0) + 1
lines = [f"{x:.3f} {y:.3f} {label}" for x, y, label in points.rows()]
st.code("\n".join([f"{len(points)} points", *lines]), language=None)
