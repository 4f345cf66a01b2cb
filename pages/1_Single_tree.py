"""Single tree: grow one decision tree, see its boundary, and trace a test sample through it."""

import streamlit as st

from core import ui
from core.app.pages import SINGLE_TREE
from core.ui import views
from core.ui.views import single_tree

#: The page's own view, then the lessons a link opens above its figures (``?view=``).
VIEWS = (single_tree.TREE, single_tree.MAP, single_tree.WHAT_IF)

controls = ui.start(SINGLE_TREE)
with st.sidebar:
    # The lessons first, where the eye goes: under the page list, above the settings.
    lesson = views.chosen(VIEWS, controls.view(views.offered(VIEWS)))
    shape = ui.tree_controls(controls, "Grow one tree")
view = ui.view(controls.settings)

st.title("Single tree")
single_tree.TREE.show(controls, view, shape, lesson)
views.explain(single_tree.TREE, lesson)
