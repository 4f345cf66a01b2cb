"""Arboretum home page: what the app teaches, the datasets, and links into each page."""

import re

import streamlit as st

from core import ui
from core.state import CLASSROOM_LINKS, to_query

st.set_page_config(page_title="Arboretum", page_icon="🌳", layout="wide")
ui.navigation()

PAGES = {
    "Single_tree": ("pages/1_Single_tree.py", ":material/park:"),
    "Random_forest": ("pages/2_Random_forest.py", ":material/forest:"),
    "Gini_vs_entropy": ("pages/3_Gini_vs_entropy.py", ":material/balance:"),
}

st.title("Arboretum")
st.markdown(
    "Grow decision trees and random forests live, and watch how they decide.\n\n"
    "- **A tree is a list of yes/no questions.** Each split asks about one feature; the "
    "answers carve the data into boxes, and each box predicts one class or one number.\n"
    "- **Deeper is not always better.** A tree that keeps splitting learns its training data "
    "by heart and does worse on new data: compare train and test accuracy as you go.\n"
    "- **Many trees beat one.** A random forest grows trees on resampled data and random "
    "features, then lets them vote: steadier predictions, and a free out-of-bag estimate.\n"
    "- **How a split is chosen.** Gini impurity and entropy both measure how mixed a node "
    "is; see where they lead to different trees."
)

st.subheader("Pages")
with st.container(key="page-links", horizontal=True):
    st.page_link(PAGES["Single_tree"][0], label="Single tree", icon=":material/park:")
    st.page_link(PAGES["Random_forest"][0], label="Random forest", icon=":material/forest:")
    st.page_link(PAGES["Gini_vs_entropy"][0], label="Gini vs entropy", icon=":material/balance:")

st.subheader("Ready-made classroom links")
st.caption("Each link opens a page in an exact state. Put one on the projector, then ask why.")
with st.container(key="classroom-links"):
    for start in range(0, len(CLASSROOM_LINKS), 3):
        row = st.columns(3)
        for column, link in zip(row, CLASSROOM_LINKS[start : start + 3], strict=False):
            path, icon = PAGES[link.settings.page]
            with column, st.container(border=True, height="stretch"):  # equal heights
                st.page_link(
                    path, label=link.title, icon=icon, query_params=to_query(link.settings)
                )
                st.caption(link.lesson)

st.subheader("Datasets")


def summary(description: str) -> str:
    """The first two sentences of a dataset's description."""
    sentences = re.split(r"(?<=[.!?])\s+", description.strip())
    return " ".join(sentences[:2])


with ui.guard("the datasets"), st.container(key="dataset-cards"):
    infos = ui.dataset_infos()
    for column, info in zip(st.columns(len(infos)), infos, strict=True):
        with column, st.container(border=True, key=f"dataset-{info.name}", height="stretch"):
            st.markdown(f"**{ui.md(info.title)}**")
            task = (
                f"classification, {info.n_classes} classes"
                if info.task == "classification"
                else "regression"
            )
            features = "1 feature" if info.n_features == 1 else f"{info.n_features} features"
            st.caption(f"{info.n_samples} rows · {features} · {task}")
            st.markdown(ui.md(summary(info.description)))
