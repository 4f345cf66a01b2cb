"""The shared controls: one helper per widget, keyed by the settings' field name.

Each helper first calls :func:`~core.ui.url_state.current`, so the widget shows the value
``start`` put in session state, then draws the widget; ``collect`` reads them back.
"""

from __future__ import annotations

from dataclasses import fields

import streamlit as st

from core import state
from core.data.datasets import Dataset, Split
from core.state import DatasetShape
from core.ui.cached import catalogue, dataset_infos
from core.ui.url_state import _LAST, _NONE_SHOWN_AS, _NOTICES, _to_widget, current

# --- shared controls -----------------------------------------------------------------------


def _on_dataset_change(settings_type: type[state._Settings]) -> None:
    session = st.session_state
    last = session[_LAST]
    moved = state.with_dataset(last, session["dataset"], catalogue())
    for f in fields(moved):
        if f.name != "dataset":
            session[f.name] = _to_widget(f.name, getattr(moved, f.name))


def dataset_select(settings_type: type[state._Settings]) -> DatasetShape:
    """The dataset picker; returns the chosen dataset's shape."""
    infos = {info.name: info for info in dataset_infos()}
    names = [
        name
        for name, shape in catalogue().items()
        if shape.task == "classification" or not settings_type.classification_only
    ]
    current("dataset")
    name = st.selectbox(
        "Dataset",
        names,
        format_func=lambda n: infos[n].title if n in infos else n,
        key="dataset",
        on_change=_on_dataset_change,
        args=(settings_type,),
    )
    return catalogue()[name]


def criterion_control(label: str = "Split criterion") -> None:
    current("criterion")
    st.segmented_control(
        label,
        state.CRITERIA,
        key="criterion",
        required=True,
        default=None,
        help="How a node measures how mixed its classes are.",
    )


def max_depth_control(help: str = "How many questions a tree may ask in a row.") -> None:
    current("max_depth")
    options: list[int | str] = [*range(1, state.MAX_DEPTH_LIMIT + 1), _NONE_SHOWN_AS["max_depth"]]
    st.select_slider(
        "max_depth",
        options,
        key="max_depth",
        help=help,
    )


def min_samples_leaf_control() -> None:
    current("min_samples_leaf")
    st.slider(
        "min_samples_leaf",
        1,
        state.MIN_SAMPLES_LEAF_LIMIT,
        key="min_samples_leaf",
        help="A split is only made when each side keeps at least this many training rows.",
    )


def pair_controls(data: Dataset) -> None:
    """The two features of the boundary plot (classification only), always distinct."""
    indices = list(range(data.n_features))
    name = data.feature_names.__getitem__
    x = current("x")
    current("y")
    st.selectbox("Feature on the x axis", indices, format_func=name, key="x")
    others = [i for i in indices if i != st.session_state["x"]]
    if st.session_state["y"] not in others:
        st.session_state["y"] = others[0] if others[0] != x else others[-1]
    st.selectbox("Feature on the y axis", others, format_func=name, key="y")


def fit_control() -> None:
    current("fit")
    st.radio(
        "Grow the model on",
        state.FIT_ON,
        format_func={"pair": "the two plotted features", "all": "all features"}.__getitem__,
        key="fit",
        help="With two features the boundary is the whole model; with all of them, the plot "
        "is a slice through it, the other features held at their medians.",
    )


def seed_control() -> None:
    current("seed")
    st.number_input(
        "Seed",
        min_value=0,
        max_value=state.SEED_LIMIT,
        step=1,
        key="seed",
        help="Picks the train/test split and the model's random choices. Same seed, same result.",
    )


def sample_control(split_rows: Split, data: Dataset, label: str = "Test sample") -> int:
    """Pick one test sample by its position in the test set; keeps the choice in range."""
    session = st.session_state
    n_test = len(split_rows.y_test)
    if current("sample") is None or session["sample"] >= n_test:
        session["sample"] = 0
        adopted, notices = session.get(_NOTICES, (None, []))
        if adopted is not None and getattr(adopted, "sample", None) is not None:
            # The link asked for a sample this test set does not have: say so.
            fitted, more = state.fit_sample(adopted, n_test)
            session[_NOTICES] = (fitted, notices + more)

    def describe(i: int) -> str:
        row = int(split_rows.test_index[i])
        if data.task == "classification":
            return f"#{i} (row {row}, {data.class_names[int(split_rows.y_test[i])]})"
        return f"#{i} (row {row}, y = {float(split_rows.y_test[i]):.2f})"

    choice: int = st.selectbox(label, range(n_test), format_func=describe, key="sample")
    return choice


def ccp_alpha_control(task: str) -> None:
    """Pruning strength, on a scale that suits the task's impurity (see CCP_ALPHA_LIMITS)."""
    limit = state.CCP_ALPHA_LIMITS["regression" if task == "regression" else "classification"]
    if current("ccp_alpha") > limit:
        st.session_state["ccp_alpha"] = 0.0
    st.slider(
        "ccp_alpha (pruning)",
        0.0,
        limit,
        step=limit / 100,
        format="%.3f" if limit < 1 else "%.1f",
        key="ccp_alpha",
        help="Cost-complexity pruning: cut back every branch that does not lower the impurity "
        "by at least this much per leaf. 0 keeps the whole tree.",
    )
