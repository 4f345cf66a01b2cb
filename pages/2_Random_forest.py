"""Random forest: many trees on resampled data, their vote, their curve, any one of them."""

import streamlit as st

from core import ui
from core.app.pages import RANDOM_FOREST
from core.ui import views
from core.ui.views import forest

#: The page's own view, then the lessons a link opens above its figures (``?view=``).
VIEWS = (forest.FOREST, forest.VARIANCE)

controls = ui.start(RANDOM_FOREST)
with st.sidebar:
    # The lessons first, where the eye goes: under the page list, above the settings.
    lesson = views.chosen(VIEWS, controls.view(views.offered(VIEWS)))
    st.header("Grow a forest")
    shape = controls.dataset()
    controls.show("n_estimators")
    controls.show("max_features")
    controls.show("bootstrap")
    controls.show("max_depth", help="How many questions each tree may ask in a row.")
    if shape.task == "classification":
        controls.show("criterion")
        controls.pair()
        controls.show("fit")
    controls.show("seed")
    controls.show("test_size")
view = ui.view(controls.settings)

st.title("Random forest")
forest.FOREST.show(controls, view, shape, lesson)
views.explain(forest.FOREST, lesson)
