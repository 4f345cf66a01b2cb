"""Streamlit glue shared by every page: cached data and models, URL state, shared controls.

The only module in ``core`` that imports Streamlit. Pages stay thin: read the controls
(``start``, the widget helpers, ``finish``), get cached models, build figures, show them.

URL state
---------
Widget keys are the settings' field names, and the URL holds ``to_query(settings)``.
``start`` runs before a page's controls: when the visitor has just arrived on the page (or
the URL changed under us, as with the browser's back button) it parses the URL (or, when the
URL says nothing about this page, the settings carried over from the last page) and writes
the values into the widgets' session state. ``finish`` runs after the controls and writes the
settings back into the URL, so a copied link reproduces the view.
"""

from __future__ import annotations

import contextlib
import functools
import html
import inspect
import logging
import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, TypeVar
from urllib.parse import urlencode

import numpy as np
import streamlit as st
from streamlit.errors import StreamlitPageNotFoundError

from core import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
    state,
)
from core.datasets import Dataset, DatasetInfo, Split, list_datasets, load_dataset
from core.datasets import train_test_split as split_dataset
from core.explain import (
    accuracy,
    clicked_sample,
    columns,
    differing_nodes,
    legend_below,
    mark_sample,
    md,
    path_in_words,
    regression_criterion,
)
from core.figures import DepthCurve, ForestCurve, compute_depth_curve, compute_forest_curve
from core.state import DatasetShape

__all__ = [
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
    "ForestSpec",
    "RandomForestClassifier",
    "RandomForestRegressor",
    "TreeSpec",
    # the pure helpers of core.explain, for the pages
    "accuracy",
    "clicked_sample",
    "columns",
    "differing_nodes",
    "legend_below",
    "mark_sample",
    "md",
    "path_in_words",
    "regression_criterion",
]

_LOG = logging.getLogger(__name__)
S = TypeVar("S", bound=state._Settings)

TEST_SIZE = 0.25

# --- data ----------------------------------------------------------------------------------


@st.cache_data(max_entries=1, show_spinner=False)
def dataset_infos() -> tuple[DatasetInfo, ...]:
    """The catalogue, in display order."""
    return list_datasets()


@st.cache_data(max_entries=1, show_spinner=False)
def catalogue() -> dict[str, DatasetShape]:
    """What URL parsing needs to know about each dataset."""
    return state.default_catalogue()


@st.cache_data(max_entries=8, show_spinner=False)
def dataset(name: str) -> Dataset:
    return load_dataset(name)


@st.cache_data(max_entries=32, show_spinner=False)
def split(name: str, seed: int) -> Split:
    """Train and test rows; the seed moves the split too, so trees meet new data."""
    return split_dataset(dataset(name), test_size=TEST_SIZE, random_state=seed)


# --- models --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TreeSpec:
    """Everything that decides a fitted tree; the cache key of :func:`fit_tree`."""

    dataset: str
    columns: tuple[int, ...]
    criterion: str
    max_depth: int | None
    min_samples_leaf: int
    ccp_alpha: float
    seed: int


@dataclass(frozen=True)
class ForestSpec:
    """Everything that decides a fitted forest; the cache key of :func:`fit_forest`."""

    dataset: str
    columns: tuple[int, ...]
    criterion: str
    max_depth: int | None
    n_estimators: int
    max_features: str
    bootstrap: bool
    seed: int


# Trees are small (kilobytes); a forest of 500 deep trees is tens of megabytes, so fewer.
@st.cache_resource(max_entries=64, show_spinner=False)
def fit_tree(spec: TreeSpec) -> Any:
    """A fitted tree, shared by every visitor: read it, never change it."""
    data, rows = dataset(spec.dataset), split(spec.dataset, spec.seed)
    model_type = DecisionTreeClassifier if data.task == "classification" else DecisionTreeRegressor
    model = model_type(
        criterion=spec.criterion,
        max_depth=spec.max_depth,
        min_samples_leaf=spec.min_samples_leaf,
        ccp_alpha=spec.ccp_alpha,
        random_state=spec.seed,
    )
    return model.fit(rows.X_train[:, list(spec.columns)], rows.y_train)


# Forest sizes up to 500 are on the curve; the curve's forest is the biggest one, whose first
# k trees are exactly the forest of k trees (same seed), so one fit draws the whole curve.
CURVE_TREES = state.N_ESTIMATORS_LIMIT


@st.cache_resource(max_entries=8, show_spinner=False)
def fit_forest(spec: ForestSpec) -> Any:
    """A fitted forest with out-of-bag scores when bootstrapping; shared, never changed."""
    data, rows = dataset(spec.dataset), split(spec.dataset, spec.seed)
    classify = data.task == "classification"
    model_type = RandomForestClassifier if classify else RandomForestRegressor
    model = model_type(
        n_estimators=spec.n_estimators,
        criterion=spec.criterion,
        max_depth=spec.max_depth,
        max_features=None if spec.max_features == "all" else spec.max_features,
        bootstrap=spec.bootstrap,
        oob_score=spec.bootstrap,
        random_state=spec.seed,
    )
    return model.fit(rows.X_train[:, list(spec.columns)], rows.y_train)


def forest_curve(spec: ForestSpec) -> ForestCurve:
    """Train, test and out-of-bag score after each of the first 500 trees of ``spec``."""
    return _forest_curve(replace(spec, n_estimators=CURVE_TREES))


@st.cache_data(max_entries=16, show_spinner=False)
def _forest_curve(spec: ForestSpec) -> ForestCurve:
    rows = split(spec.dataset, spec.seed)
    forest = fit_forest(spec)
    cols = list(spec.columns)
    return compute_forest_curve(
        forest, rows.X_train[:, cols], rows.y_train, X_test=rows.X_test[:, cols], y_test=rows.y_test
    )


@st.cache_data(max_entries=16, show_spinner=False)
def depth_curve(spec: TreeSpec) -> DepthCurve:
    """Train and test accuracy at depths 1 to 10, gini and entropy, else as ``spec``."""
    rows = split(spec.dataset, spec.seed)
    cols = list(spec.columns)
    make = functools.partial(
        DecisionTreeClassifier, min_samples_leaf=spec.min_samples_leaf, random_state=spec.seed
    )
    return compute_depth_curve(
        make, rows.X_train[:, cols], rows.y_train, rows.X_test[:, cols], rows.y_test
    )


# --- URL state -----------------------------------------------------------------------------

_PAGE = "_arboretum_page"  # the page the last run drew
_WRITTEN = "_arboretum_written"  # the query we last put in the URL
_SHARED = "_arboretum_shared"  # settings carried from page to page, as query text
_LAST = "_arboretum_last"  # the settings of the last run on this page
_NOTICES = "_arboretum_notices"  # (settings as adopted, notices) from the last URL read


# A widget cannot hold None as a choice reliably (None means "no choice" to several of them),
# so a setting that may be None shows it under a name.
_NONE_SHOWN_AS = {"max_depth": "no limit"}


def _to_widget(name: str, value: Any) -> Any:
    return _NONE_SHOWN_AS[name] if value is None and name in _NONE_SHOWN_AS else value


def _from_widget(name: str, value: Any) -> Any:
    return None if name in _NONE_SHOWN_AS and value == _NONE_SHOWN_AS[name] else value


def _url_query(settings_type: type[state._Settings]) -> dict[str, str]:
    """The URL's values for this page's settings; other names (``embed``...) are not ours."""
    names = {f.name for f in fields(settings_type)}
    return {name: st.query_params[name] for name in st.query_params if name in names}


#: The app's pages as the sidebar lists them: (script path, label, icon).
NAVIGATION = (
    ("app.py", "Home", ":material/home:"),
    ("pages/1_Single_tree.py", "Single tree", ":material/park:"),
    ("pages/2_Random_forest.py", "Random forest", ":material/forest:"),
    ("pages/3_Gini_vs_entropy.py", "Gini vs entropy", ":material/balance:"),
)


def navigation() -> None:
    """List the pages in the sidebar under friendly names.

    Streamlit's own page list names the home page after its file ("app"), so
    ``.streamlit/config.toml`` hides it and every page draws this one instead. Pages are still
    discovered from ``pages/``, so each one keeps its own URL.
    """
    with st.sidebar, st.container(key="app-navigation"):
        try:
            for path, label, icon in NAVIGATION:
                st.page_link(path, label=label, icon=icon)
        except StreamlitPageNotFoundError:
            # A page run as its own entry point (as AppTest does) knows no other pages; the
            # app itself always starts from app.py, where every page is known.
            return
        st.divider()


def start(settings_type: type[S]) -> S:
    """Settings this run starts from; call before the page's controls.

    On arrival (or when the URL changed under us) the URL wins, then the settings carried
    over from another page, then the defaults; otherwise the widgets hold the truth.
    """
    navigation()
    session = st.session_state
    query = _url_query(settings_type)
    arrived = session.get(_PAGE) != settings_type.page
    if (
        arrived
        or session.get(_WRITTEN) != query
        or not isinstance(session.get(_LAST), settings_type)
    ):
        names = {f.name for f in fields(settings_type)}
        source = query if query else session.get(_SHARED, {})
        settings, notices = state.parse(settings_type, source, catalogue())
        for name in names:
            session[name] = _to_widget(name, getattr(settings, name))
        session[_NOTICES] = (settings, notices)
        session[_LAST] = settings
    session[_PAGE] = settings_type.page
    last: S = session[_LAST]
    return last


def current(key: str) -> Any:
    """The value a control should show: its widget state, else the last run's setting."""
    session = st.session_state
    if key not in session:
        session[key] = _to_widget(key, getattr(session[_LAST], key))
    return session[key]


def collect(settings_type: type[S], **overrides: Any) -> S:
    """The settings the controls now show (``overrides`` for fields without a control)."""
    last = st.session_state[_LAST]
    values = {
        f.name: _from_widget(f.name, st.session_state.get(f.name, getattr(last, f.name)))
        for f in fields(last)
    }
    values.update(overrides)
    try:
        settings = settings_type(**values)
    except (TypeError, ValueError):
        _LOG.warning("controls gave invalid settings %r; keeping the last ones", values)
        return last
    resets, _ = settings.check(catalogue()[settings.dataset])
    return replace(settings, **resets)


def finish(settings: state._Settings) -> None:
    """Put ``settings`` in the URL and carry them to the other pages; call after the controls."""
    session = st.session_state
    query = state.to_query(settings)
    if session.get(_WRITTEN) != query or _url_query(type(settings)) != query:
        # from_dict keeps Streamlit's own embed options in the URL.
        st.query_params.from_dict(query)
    session[_WRITTEN] = query
    session[_SHARED] = {**session.get(_SHARED, {}), **query}
    session[_LAST] = settings


def show_notices(settings: state._Settings) -> None:
    """What the URL asked for that could not be used, until the visitor changes something."""
    adopted, notices = st.session_state.get(_NOTICES, (None, []))
    if notices and adopted == settings:
        lines = "\n".join(f"- {notice}" for notice in notices)
        st.warning(
            f"Some settings in this link could not be used:\n{lines}", icon=":material/warning:"
        )


def share_link(settings: state._Settings) -> str:
    """The URL of this exact view."""
    base = st.context.url or ""
    return f"{base}?{urlencode(state.to_query(settings))}"


def share_box(settings: state._Settings) -> None:
    """A visible "copy link" box: the link, with Streamlit's copy button."""
    with st.container(key="share-link"):
        st.markdown(":material/link: **Copy link to this view**")
        st.code(share_link(settings), language=None, wrap_lines=True)
        st.caption("Use the copy button on the right of the box; the link opens this exact view.")


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


# --- showing things ------------------------------------------------------------------------


def what_to_notice(text: str) -> None:
    with st.container(key="what-to-notice"):
        st.info(f"**What to notice.** {text}", icon=":material/visibility:")


def how_computed(intro: str, functions: Sequence[Callable[..., Any]]) -> None:
    """The real source of the functions doing the work, read at run time."""
    with (
        st.expander("How this is computed", icon=":material/code:"),
        st.container(key="how-computed"),
    ):
        st.markdown(intro)
        for function in functions:
            module = getattr(function, "__module__", "")
            st.caption(f"`{module}.{function.__qualname__}`")
            try:
                source = textwrap.dedent(inspect.getsource(function))
            except (OSError, TypeError):
                source = "# source not available"
            st.code(source, language="python", line_numbers=True)


def show_svg(svg: str, *, key: str, min_scale: float = 0.0) -> None:
    """A server-rendered diagram, inline (its text stays searchable), in a keyed container.

    The SVG fills the width but never grows past its natural size. It shrinks down to
    ``min_scale`` of that size; a wider tree then scrolls sideways. The default 0 always
    shows a big tree whole, which is the lesson when it is that big.
    """
    start = svg.find("<svg")  # the XML prolog and doctype are not HTML
    tag_end = svg.find(">", start)
    tag = re.sub(r'\s(width|height|preserveAspectRatio)="[^"]*"', "", svg[start:tag_end])
    view_box = re.search(r'viewBox="[\d.-]+ [\d.-]+ ([\d.]+) [\d.]+"', tag)
    width = float(view_box.group(1)) if view_box else 600.0
    style = f"width:100%;height:auto;max-width:{width:.0f}pt"
    if min_scale > 0:
        style += f";min-width:{min_scale * width:.0f}pt"
    body = f'{tag} style="{style}"{svg[tag_end:]}'
    with st.container(key=key, border=False):
        # Markdown, not st.html: st.html's sanitizer drops <svg>. The SVG is ours: dot's
        # output of labels the figure builders escape.
        st.markdown(
            f'<div class="arboretum-svg" style="overflow-x:auto">{body}</div>',
            unsafe_allow_html=True,
        )


class Guard(contextlib.AbstractContextManager["Guard"]):
    """Turn any failure inside into a friendly in-page message, so the rest of the page lives.

    ``failed`` tells the page whether to go on: ``with ui.guard("the tree") as g: ...``.
    """

    def __init__(self, what: str) -> None:
        self.what = what
        self.failed = False

    def __exit__(self, kind: Any, error: Any, trace: Any) -> bool:
        if error is None or not isinstance(error, Exception):
            return False  # success, or Streamlit's own stop/rerun signals
        _LOG.exception("could not show %s", self.what, exc_info=error)
        st.warning(
            f"Arboretum could not show {self.what} for these settings "
            f"({html.escape(type(error).__name__)}). Try other settings; nothing else was lost.",
            icon=":material/error:",
        )
        self.failed = True
        return True


def guard(what: str) -> Guard:
    """``with ui.guard("the tree") as g:`` shows a friendly message if anything inside fails."""
    return Guard(what)


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


def _on_click(
    key: str, curves: tuple[int, ...], test_index: np.ndarray, test_xy: np.ndarray
) -> None:
    event = st.session_state.get(key)
    points = list(event["selection"]["points"]) if event else []
    position = clicked_sample(points, curves, test_index, test_xy)
    if position is not None:
        st.session_state["sample"] = position
    elif points:
        st.toast("That is a training sample: click a ring (a test sample) to trace it.")


def clickable_chart(figure: Any, *, key: str, test_index: np.ndarray, test_xy: np.ndarray) -> None:
    """A Plotly chart where clicking a test sample makes it the traced ``sample``.

    Points carry their dataset row id as ``customdata``; only scatter traces count, so a
    click on the shaded regions (whose ``customdata`` is a probability) is ignored.
    ``test_xy`` holds the test samples' plot coordinates, shape ``(n_test, 2)``.
    """
    curves = tuple(i for i, trace in enumerate(figure.data) if trace.type == "scatter")
    with st.container(key=f"{key}-chart"):
        st.plotly_chart(
            figure,
            key=key,
            on_select=functools.partial(_on_click, key, curves, test_index, test_xy),
            selection_mode="points",
            width="stretch",
            theme=None,  # the figures carry their own projector-friendly look
        )


def chart(figure: Any, *, key: str) -> None:
    """A Plotly chart in a keyed container (``st-key-<key>`` for browser tests)."""
    with st.container(key=key):
        st.plotly_chart(figure, width="stretch", theme=None, key=f"{key}-plot")
