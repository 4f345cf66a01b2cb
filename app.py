"""Arboretum home page: what the app teaches, the datasets, and links into each page."""

import streamlit as st

from core import ui
from core.app.pages import PAGES, SINGLE_TREE
from core.app.words import md, summary

ui.start_home()

st.title("Arboretum")
# The lessons come right after one line: on a 390 px phone the four points below, above them,
# pushed the first lesson off the first screen.
st.markdown("Grow decision trees and random forests live, and watch how they decide.")


st.subheader("Lessons to run")
st.caption(
    "A lesson is a few screens in order, each a page in an exact state with words for the "
    "class and a question or two. Run one on the projector; with a class, every student's "
    "page follows each screen."
)
ui.lesson_cards()
ui.own_lessons()

st.subheader("What the pages teach")
st.markdown(
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
    for page in PAGES:
        if page.settings is not None:
            st.page_link(page.path, label=page.title, icon=page.icon)

st.subheader("Ready-made classroom links")
st.caption("Each link opens a page in an exact state. Put one on the projector, then ask why.")
ui.link_cards(ui.lessons(), "classroom-links")

st.subheader("As in the articles")
st.caption(
    "The experiments of the articles Arboretum teaches from, with the numbers they report: "
    "open one and compare."
)
ui.link_cards(ui.article_links(), "article-links")

st.subheader("Datasets")
st.caption(
    "Real tables and made-up puzzles, ready to use. Every page also takes your own data: "
    "upload a CSV table or draw points by hand (the sidebar's Data control); they stay in "
    "your browser session."
)
with ui.guard("the datasets"), st.container(key="dataset-cards"):
    infos = ui.dataset_infos()
    tables = [info for info in infos if info.noise is None]
    puzzles = [info for info in infos if info.noise is not None]
    for heading, group in (("Tables", tables), ("Puzzles (generated)", puzzles)):
        st.markdown(f"**{heading}**")
        for start in range(0, len(group), 4):
            cards = group[start : start + 4]
            for column, info in zip(st.columns(4), cards, strict=False):
                with (
                    column,
                    st.container(border=True, key=f"dataset-{info.name}", height="stretch"),
                ):
                    st.markdown(f"**{md(info.title)}**")
                    task = (
                        f"classification, {info.n_classes} classes"
                        if info.task == "classification"
                        else "regression"
                    )
                    features = (
                        "1 feature" if info.n_features == 1 else f"{info.n_features} features"
                    )
                    st.caption(f"{info.n_samples} rows · {features} · {task}")
                    st.markdown(md(summary(info.description)))
                    st.page_link(
                        SINGLE_TREE.path,
                        label="Grow a tree on it",
                        icon=SINGLE_TREE.icon,
                        query_params={"dataset": info.name},
                    )
