"""Grow it step by step: the Single tree's tree, one split at a time, and why each split."""

import streamlit as st

from core import ui
from core.app.models import tree_spec
from core.app.pages import GROW_STEP_BY_STEP
from core.ui import views
from core.ui.views import steps as step_views

controls = ui.start(GROW_STEP_BY_STEP)
with st.sidebar:
    shape = ui.tree_controls(controls, "Grow one tree")
view = ui.view(controls.settings)

st.title("Grow it step by step")
with ui.guard("the tree") as growing:
    spec = tree_spec(controls.settings, shape)
    model, steps = ui.fit_tree(spec), ui.growth(spec)  # one fit, cached: every step reads it
if growing.failed:
    controls.finish()
    st.stop()

step_views.STEPS.show(controls, view, model, steps)
views.explain(step_views.STEPS)
