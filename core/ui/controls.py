"""The controls of a page: each helper draws one widget, bound to the URL, and returns its value.

``start(page)`` opens a page (its tab title, the sidebar's page list, the settings from the
URL) and returns its :class:`Controls`. Each control is keyed by its setting's name, shows
the setting's current value and returns the value chosen; ``finish()`` gives the page's
settings, puts them in the URL and shows the share link::

    controls = ui.start(SINGLE_TREE)
    with st.sidebar:
        ui.tree_controls(controls)
    view = ui.view(controls.settings)
    sample = controls.sample(view)
    settings = controls.finish()

A widget can hand back a value of the wrong kind (a stale browser tab, a segmented control
arriving empty under load). Such a value never reaches a setting: before a widget is drawn
its state is checked and, if broken, replaced by the last good value (which also sends that
value to the browser); after, a broken value keeps the last good one, field by field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import streamlit as st

from core.app import settings as state
from core.app.models import ModelView
from core.app.pages import Page
from core.app.settings import NODE_LIMIT, STEP_LIMIT, DatasetShape
from core.app.words import md
from core.data.datasets import Task
from core.ui.binding import Binding
from core.ui.cached import catalogue, data_of
from core.ui.data_controls import pick_dataset
from core.ui.draw_panel import draw_panel, unusable
from core.ui.home import open_page
from core.ui.upload_panel import upload_panel
from core.ui.url_state import (
    _NONE_SHOWN_AS,
    _NOTICES,
    _from_widget,
    _to_widget,
    arrive,
    finish,
    reconnected_keys,
    reconnected_label,
    share_box,
)

S = TypeVar("S", bound=state.Settings)

# The (dataset, seed) whose test samples the sample picker last labelled.
_SAMPLE_LABELS = "_arboretum_sample_labels"


def _task(task: str) -> Task:
    return "regression" if task == "regression" else "classification"


class Controls(Binding[S]):
    """The controls of one run of a page; every helper returns the value it shows."""

    def _stale_label(self, key: str, labels: Callable[[], list[str]]) -> None:
        """A reconnecting browser's label that names none of ``labels()`` gives way to the URL.

        The change just made moved what the labels say (another tree, another test set), so
        the label is from before it; the URL's value is what this session would have kept.
        """
        session = st.session_state
        if (
            session.get(key) is None
            and key in reconnected_keys()
            and reconnected_label(key) not in labels()
        ):
            session[key] = _to_widget(key, getattr(self.last, key))

    def finish(self) -> S:
        """The page's settings: put them in the URL and show the share link in the sidebar."""
        settings = self.settings
        finish(settings)
        with st.sidebar:
            st.divider()
            share_box(settings)
        return settings

    # -- the controls -------------------------------------------------------------------------

    def dataset(self) -> DatasetShape:
        """The dataset picker: its kind, the dataset, and that kind's controls; returns its shape.

        A generated set's points, noise and data seed; the uploader, an upload's target
        column and task.
        """
        kind = pick_dataset(self)
        if kind == "upload":
            upload_panel(self)
        elif kind == "drawn":
            draw_panel(self)
        missing = unusable(self.settings)
        if missing is not None:  # drawn points that cannot make a tree yet: say what is missing
            self.finish()
            with self.notice.container():
                st.title(self.page.title)
                st.info(f"**Your points.** {md(missing)}", icon=":material/touch_app:")
            st.stop()
        return catalogue()[self.settings.dataset]

    def test_size(self) -> float:
        """The share of rows held out to test on, in steps of 5%."""
        low, high = state.TEST_SIZE_RANGE
        steps = [round(low + i / 20, 2) for i in range(round((high - low) * 20) + 1)]
        held = st.session_state.get("test_size")
        extra = [held] if isinstance(held, float) and held not in steps else []
        return float(
            self._control(
                "test_size",
                lambda: st.select_slider(
                    "Test set size",
                    sorted([*steps, *extra]),
                    format_func=lambda v: f"{v:.0%}" if v in steps else f"{v:.1%}",
                    key="test_size",
                    help="The share of rows set aside before growing, to score the model on "
                    "data it never saw. The seed picks which rows.",
                ),
            )
        )

    def criterion(self, label: str = "Split criterion") -> str:
        return str(
            self._control(
                "criterion",
                lambda: st.segmented_control(
                    label,
                    state.CRITERIA,
                    key="criterion",
                    required=True,
                    help="How a node measures how mixed its classes are.",
                ),
            )
        )

    def max_depth(self, help: str = "How many questions a tree may ask in a row.") -> int | None:
        options: list[int | str] = [
            *range(1, state.MAX_DEPTH_LIMIT + 1),
            _NONE_SHOWN_AS["max_depth"],
        ]
        value: int | None = self._control(
            "max_depth", lambda: st.select_slider("max_depth", options, key="max_depth", help=help)
        )
        return value

    def min_samples_leaf(self) -> int:
        return int(
            self._control(
                "min_samples_leaf",
                lambda: st.slider(
                    "min_samples_leaf",
                    1,
                    state.MIN_SAMPLES_LEAF_LIMIT,
                    key="min_samples_leaf",
                    help="A split is only made when each side keeps at least this many "
                    "training rows.",
                ),
            )
        )

    def min_samples_split(self) -> int:
        return int(
            self._control(
                "min_samples_split",
                lambda: st.slider(
                    "min_samples_split",
                    2,
                    state.MIN_SAMPLES_SPLIT_LIMIT,
                    key="min_samples_split",
                    help="A node is only split when it holds at least this many training "
                    "rows; smaller nodes stay leaves.",
                ),
            )
        )

    def min_impurity_decrease(self, task: str) -> float:
        """Minimum gain, on a scale that suits the task's impurity."""
        limit = state.MIN_IMPURITY_DECREASE_LIMITS[_task(task)]
        held = st.session_state.get("min_impurity_decrease")
        if isinstance(held, float) and held > limit:
            st.session_state["min_impurity_decrease"] = 0.0
        return float(
            self._control(
                "min_impurity_decrease",
                lambda: st.slider(
                    "minimum gain (min_impurity_decrease)",
                    0.0,
                    limit,
                    step=limit / 100,
                    format="%.3f" if limit < 1 else "%.1f",
                    key="min_impurity_decrease",
                    help="A split is only made when it lowers the impurity enough, counted "
                    "over the whole training set:\n\n"
                    "N_t / N · (impurity − N_L / N_t · impurity_L − N_R / N_t · impurity_R) "
                    "≥ this value\n\n"
                    "N counts all training rows, N_t those at the node, N_L and N_R those "
                    "sent left and right. 0 takes any gain.",
                ),
            )
        )

    def ccp_alpha(self, task: str) -> float:
        """Pruning strength, on a scale that suits the task's impurity (CCP_ALPHA_LIMITS).

        A select slider over 101 steps of the scale, plus the value held when it is off
        them: the pruning walk sets exact effective alphas (such as 0.036161, or beyond the
        scale), and a plain slider would snap them to its step.
        """
        limit = state.CCP_ALPHA_LIMITS[_task(task)]
        decimals = 3 if limit < 1 else 1
        steps = [round(limit * i / 100, 6) for i in range(101)]

        def draw() -> Any:
            held = st.session_state.get("ccp_alpha")
            extra = [held] if isinstance(held, float) and held not in steps else []
            return st.select_slider(
                "ccp_alpha (pruning)",
                sorted([*steps, *extra]),
                format_func=lambda a: f"{a:.{decimals}f}" if a in steps else f"{a:.6g}",
                key="ccp_alpha",
                help="Cost-complexity pruning: cut back every branch that does not lower "
                "the impurity by at least this much per leaf. 0 keeps the whole tree.",
            )

        return float(self._control("ccp_alpha", draw))

    def tree_max_features(self, n_columns: int) -> state.TreeFeatures:
        """Features each split of one tree may choose from, drawn at random per split."""
        held = st.session_state.get("max_features")
        if isinstance(held, int) and held > n_columns:
            st.session_state["max_features"] = "all"
        options: list[state.TreeFeatures] = ["all", "sqrt", "log2", *range(1, n_columns + 1)]
        names = {"all": f"all {n_columns}", "sqrt": "√d", "log2": "log₂ d"}
        value: state.TreeFeatures = self._control(
            "max_features",
            lambda: st.selectbox(
                "max_features",
                options,
                format_func=lambda v: names.get(v, str(v)) if isinstance(v, str) else str(v),
                key="max_features",
                help="How many features each split may choose from, drawn at random at "
                "every split with the seed below: all of them, √d or log₂ d of the d "
                "features, or a number. Fewer makes the tree's questions less greedy.",
            ),
        )
        return value

    def pair(self) -> tuple[int, int]:
        """The two features of the boundary plot (classification only), always distinct."""
        data = data_of(self.settings)
        indices = list(range(data.n_features))
        label = data.feature_names.__getitem__
        x = self._control(
            "x",
            lambda: st.selectbox("Feature on the x axis", indices, format_func=label, key="x"),
        )
        others = [i for i in indices if i != x]
        if "y" not in reconnected_keys() and st.session_state.get("y") not in others:
            st.session_state["y"] = others[0]
        y = self._control(
            "y",
            lambda: st.selectbox("Feature on the y axis", others, format_func=label, key="y"),
        )
        return int(x), int(y)

    def fit(self) -> str:
        return str(
            self._control(
                "fit",
                lambda: st.radio(
                    "Grow the model on",
                    state.FIT_ON,
                    format_func={"pair": "the two plotted features", "all": "all features"}.get,
                    key="fit",
                    help="With two features the boundary is the whole model; with all of "
                    "them, the plot is a slice through it, the other features held at their "
                    "medians.",
                ),
            )
        )

    def seed(self) -> int:
        return int(
            self._control(
                "seed",
                lambda: st.number_input(
                    "Seed",
                    min_value=0,
                    max_value=state.SEED_LIMIT,
                    step=1,
                    key="seed",
                    help="Picks the train/test split and the model's random choices. Same "
                    "seed, same result.",
                ),
            )
        )

    def n_estimators(self) -> int:
        return int(
            self._control(
                "n_estimators",
                lambda: st.slider(
                    "n_estimators (trees)",
                    1,
                    state.N_ESTIMATORS_LIMIT,
                    key="n_estimators",
                    help="How many trees vote. More trees never overfit more; they only "
                    "average better.",
                ),
            )
        )

    def max_features(self) -> str:
        return str(
            self._control(
                "max_features",
                lambda: st.segmented_control(
                    "max_features",
                    state.MAX_FEATURES,
                    required=True,
                    key="max_features",
                    help="How many features each split may choose from, drawn at random per "
                    "split: √d, log₂ d, or all d. Fewer makes the trees more different from "
                    "one another.",
                ),
            )
        )

    def toggle(self, key: str, label: str, help: str) -> bool:
        """An on/off setting (``bootstrap``, ``test_on_tree``...)."""
        return bool(self._control(key, lambda: st.toggle(label, key=key, help=help)))

    def step(self, n_steps: int) -> int | None:
        """How many of a tree's ``n_steps`` splits to show; None is the whole tree.

        A held step at or beyond the last is the whole tree; when the link asked for a step
        this tree does not reach, the link's notice says so.
        """
        session = st.session_state
        whole = _NONE_SHOWN_AS["step"]
        options: list[int | str] = [*range(n_steps), whole]

        def label(value: int | str) -> str:
            return f"{n_steps} of {n_steps}" if value == whole else f"{value} of {n_steps}"

        self._stale_label("step", lambda: [label(option) for option in options])
        held = _from_widget("step", session.get("step"))
        if isinstance(held, int) and not isinstance(held, bool) and held >= n_steps:
            session["step"] = _to_widget("step", None)
            self._fit_link(n_steps=n_steps)

        value: int | None = self._control(
            "step",
            lambda: st.select_slider("Splits made", options, format_func=label, key="step"),
        )
        return value

    def node(self, describe: Callable[[int], str], n_nodes: int, label: str = "Node") -> int:
        """Which node of a tree of ``n_nodes`` to ask about, by its number."""
        self._stale_label("node", lambda: [describe(i) for i in range(n_nodes)])
        held = st.session_state.get("node")
        if isinstance(held, int) and not isinstance(held, bool) and held >= n_nodes:
            st.session_state["node"] = 0
            self._fit_link(n_nodes=n_nodes)
        return int(
            self._control(
                "node",
                lambda: st.selectbox(label, range(n_nodes), format_func=describe, key="node"),
            )
        )

    def _fit_link(self, *, n_steps: int = STEP_LIMIT, n_nodes: int = NODE_LIMIT + 1) -> None:
        """Add the link's notices about a step or node beyond this tree (``fit_growth``)."""
        adopted, notices = st.session_state.get(_NOTICES, (None, []))
        if adopted is not None:
            fitted, more = state.fit_growth(adopted, n_steps, n_nodes)
            st.session_state[_NOTICES] = (fitted, notices + more)

    def tree(self, n_trees: int) -> int:
        """Which tree of the forest to open."""
        held = st.session_state.get("tree")
        if isinstance(held, int) and held >= n_trees:
            st.session_state["tree"] = 0
        return int(
            self._control(
                "tree",
                lambda: st.number_input(
                    "Tree number", min_value=0, max_value=n_trees - 1, step=1, key="tree"
                ),
            )
        )

    def sample(self, view: ModelView, label: str = "Test sample") -> int:
        """Pick one test sample by its position in the test set; keeps the choice in range.

        The labels name each sample's row and class, so they change with the dataset and the
        seed. Streamlit keeps a keyed widget across such a change, and the browser would send
        the old label back as the value on the next rerun (issue 12's crash). So when the
        labels change, the value is set again here, which sends the new label to the browser.
        """
        session = st.session_state
        n_test = len(view.y_test)

        def describe(i: int) -> str:
            row = int(view.rows.test_index[i])
            if view.classify:
                return f"#{i} (row {row}, {view.class_names[int(view.y_test[i])]})"
            return f"#{i} (row {row}, y = {float(view.y_test[i]):.2f})"

        self._stale_label("sample", lambda: [describe(i) for i in range(n_test)])
        held = session.get("sample")
        labels = (view.data.name, view.rows.test_index.tobytes())
        if held is None and "sample" in reconnected_keys():
            session[_SAMPLE_LABELS] = labels  # the browser's widget holds the sample
        elif session.get(_SAMPLE_LABELS) != labels or not (
            isinstance(held, int) and 0 <= held < n_test
        ):
            in_range = isinstance(held, int) and not isinstance(held, bool) and 0 <= held < n_test
            session["sample"] = held if in_range else 0
            session[_SAMPLE_LABELS] = labels
            if isinstance(held, int) and held >= n_test:
                adopted, notices = session.get(_NOTICES, (None, []))
                if adopted is not None and getattr(adopted, "sample", None) is not None:
                    # The link asked for a sample this test set does not have: say so.
                    fitted, more = state.fit_sample(adopted, n_test)
                    session[_NOTICES] = (fitted, notices + more)

        return int(
            self._control(
                "sample",
                lambda: st.selectbox(label, range(n_test), format_func=describe, key="sample"),
            )
        )


def start(page: Page) -> Controls[Any]:
    """Open ``page``: its browser tab, the sidebar's page list, and its settings from the URL.

    Call first in every page script; the page's controls follow.
    """
    if page.settings is None:
        raise ValueError(f"page {page.title!r} has no settings; open it with ui.start_home()")
    open_page(page)
    notice = st.empty()
    with st.sidebar:
        st.divider()  # between the page list and this page's controls, which follow
    return Controls(page, page.settings, arrive(page, page.settings), notice)


def tree_controls(controls: Controls[Any], header: str) -> DatasetShape:
    """The sidebar of a one-tree page: dataset, criterion, stopping rules, pair, seed, split."""
    st.header(header)
    shape = controls.dataset()
    if shape.task == "classification":
        controls.criterion()
    controls.max_depth()
    controls.min_samples_leaf()
    controls.min_samples_split()
    controls.min_impurity_decrease(shape.task)
    controls.ccp_alpha(shape.task)
    if shape.task == "classification":
        controls.pair()
        controls.fit()
        controls.tree_max_features(state.n_tree_columns(controls.settings, shape))
    controls.seed()
    controls.test_size()
    return shape
