"""Gini vs entropy: two trees that differ only in how they measure a node's mix of classes."""

import streamlit as st

from core import ui
from core.app.pages import GINI_VS_ENTROPY
from core.ui import views
from core.ui.views import criteria

#: The page's own view, then the lessons a link opens above its figures (``?view=``).
VIEWS = (criteria.CRITERIA_VIEW, criteria.MATTERS, criteria.MAPS)

controls = ui.start(GINI_VS_ENTROPY)
with st.sidebar:
    # The lessons first, where the eye goes: under the page list, above the settings.
    lesson = views.chosen(VIEWS, controls.view(views.offered(VIEWS)))
    st.header("Two criteria, same data")
    shape = controls.dataset()
    controls.show("max_depth")
    controls.show("min_samples_leaf")
    controls.pair()
    controls.show("fit")
    controls.show("seed")
    controls.show("test_size")
st.title("Gini vs entropy")
criteria.CRITERIA_VIEW.show(controls, shape, lesson)
views.explain(criteria.CRITERIA_VIEW, lesson)
