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
from typing import Any

import streamlit as st

from core.app import settings as state
from core.app.models import ModelView
from core.app.pages import Page
from core.app.settings import NODE_LIMIT, STEP_LIMIT, DatasetShape
from core.app.words import md
from core.data.datasets import Task
from core.ui.binding import Binding, float_steps
from core.ui.cached import catalogue, data_of
from core.ui.data_controls import pick_dataset
from core.ui.draw_panel import draw_panel, unusable
from core.ui.home import open_page
from core.ui.upload_panel import upload_panel
from core.ui.url_state import (
    arrive,
    finish,
    reconnected_keys,
    reconnected_label,
    share_box,
)
from core.ui.visit import change, following, keep, visit


def _task(task: str) -> Task:
    return "regression" if task == "regression" else "classification"


class Controls(Binding):
    """The controls of one run of a page; every helper returns the value it shows."""

    _finished = False  # set by the run's first finish(); a later one is a fragment's rerun

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
            session[key] = self.settings_type.entries[key].to_widget(getattr(self.last, key))

    def _relabel(self, key: str, labels: list[str]) -> None:
        """Send the held value of the widget keyed ``key`` to the browser again when its option
        labels changed since it was last drawn.

        A select slider or a select box keeps its value in the browser as the label it showed
        ("2 of 10"): once the labels change (another tree, with another number of splits or
        nodes), the browser finds no such label and shows the first option, while the page
        goes on with the held value; the visitor's next move would then send the first
        option back. Written again, the value reaches the browser with the new labels.
        """
        session, seen = st.session_state, f"_labels_{key}"
        before, now = session.get(seen), hash(tuple(labels))
        session[seen] = now
        if before not in (None, now) and key in session and key not in reconnected_keys():
            session[key] = session[key]

    def finish(self) -> state.Settings:
        """The page's settings: put them in the URL and show the share link in the sidebar.

        A page may call it from a section of its own that reruns alone (``st.fragment``: the
        forest's tree and sample, the step bar). Such a rerun finds the ``Controls`` of the
        page's last full run, which has finished once already: its settings are the full run's
        with the section's controls drawn again, and the share link it draws replaces the one
        in the sidebar (Streamlit keeps a fragment's writes to the sidebar in one place). A
        student whose move there leaves the teacher's view gets a full run, so the sidebar's
        "Follow the teacher" toggle turns off with it.
        """
        if self._finished and self._moved_outside():
            st.rerun()  # a fragment's control moved one of the page's: the page runs again
        settings = self.settings
        was_following = following()
        query = finish(settings)
        with st.sidebar:
            st.divider()
            share_box(settings, query)
        if self._finished and was_following and not following():
            st.rerun()
        self._finished = True
        return settings

    def _moved_outside(self) -> bool:
        """Whether a control of a fragment's rerun set a setting drawn outside the fragment.

        The pruning walk's slider sets ``ccp_alpha`` and a cell of the parameter map sets
        ``max_depth`` and ``min_samples_leaf``, whose widgets are in the sidebar: the
        fragment's rerun would neither redraw them nor refit the tree, so the page must run.
        A widget drawn in this rerun holds the value it gave; one outside it holds the value
        of the last full run, unless a callback moved it. Settings a page holds without a
        widget of their own (``hold``: the what-if view's edits) are not compared.
        """
        session, entries = st.session_state, self.settings_type.entries
        return any(
            key in session and session[key] != entries[key].to_widget(self.values[key])
            for key in self.widgets
        )

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

    def show(self, name: str, task: str = "classification", **text: str) -> Any:
        """Draw the control of setting ``name`` as its table entry says; return its value.

        ``task`` picks the range of a setting whose scale depends on it (pruning strength,
        minimum gain); ``text`` may replace the entry's ``label`` or ``help`` on this page.
        """
        entry = self.settings_type.entries[name]
        label, help = text.get("label", entry.label), text.get("help", entry.help)
        low, top = entry.span(_task(task))
        held = st.session_state.get(name)
        widget = entry.widget
        if widget == "toggle":
            return bool(self._control(name, lambda: st.toggle(label, key=name, help=help)))
        if widget == "number":
            return self._control(
                name,
                lambda: st.number_input(
                    label, int(entry.low), int(entry.high), step=1, key=name, help=help
                ),
            )
        if widget == "slider" and entry.kind == "float":
            if isinstance(held, float) and not low <= held <= top:
                st.session_state[name] = float(low)
            return self._control(
                name,
                lambda: st.slider(
                    label,
                    float(low),
                    top,
                    step=(top - low) / 100,
                    format="%.3f" if top < 1 else "%.1f",
                    key=name,
                    help=help,
                ),
            )
        if widget == "slider":
            return self._control(
                name,
                lambda: st.slider(label, int(entry.low), int(entry.high), key=name, help=help),
            )
        if widget == "segmented":
            return self._control(
                name,
                lambda: st.segmented_control(
                    label,
                    entry.options,
                    format_func=entry.show,
                    required=True,
                    key=name,
                    help=help,
                ),
            )
        if widget == "radio":
            return self._control(
                name,
                lambda: st.radio(label, entry.options, format_func=entry.show, key=name, help=help),
            )
        if widget == "select_slider" and entry.kind == "int":  # whole numbers, and "no limit"
            steps: list[Any] = [*range(int(entry.low), int(entry.high) + 1), entry.show(None)]
            return self._control(name, lambda: st.select_slider(label, steps, key=name, help=help))
        if widget == "select_slider":  # numbers in steps, and the value held when off them
            return float(
                self._control(name, lambda: float_steps(entry, top, entry.high, label, help))
            )
        raise ValueError(f"setting {name!r} has no control of its own kind ({widget})")

    def tree_max_features(self, n_columns: int) -> Any:
        """A single tree's features per split: a rule by name, or any number up to ``n_columns``."""
        entry = self.settings_type.entries["max_features"]
        held = st.session_state.get("max_features")
        if isinstance(held, int) and held > n_columns:
            st.session_state["max_features"] = "all"
        # Option labels must not depend on n_columns: a browser that still shows "all 2" after
        # the tree moved to all 13 features would send that stale label back.
        options: list[Any] = ["all", "sqrt", "log2", *range(1, n_columns + 1)]
        return self._control(
            "max_features",
            lambda: st.selectbox(
                entry.label,
                options,
                format_func=entry.show,
                key="max_features",
                help=entry.help,
            ),
        )

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

    def step(self, n_steps: int) -> int | None:
        """How many of a tree's ``n_steps`` splits to show; None is the whole tree.

        A held step at or beyond the last is the whole tree; when the link asked for a step
        this tree does not reach, the link's notice says so.
        """
        session, entry = st.session_state, self.settings_type.entries["step"]
        whole = entry.to_widget(None)
        options: list[int | str] = [*range(n_steps), whole]

        def label(value: int | str) -> str:
            return f"{n_steps} of {n_steps}" if value == whole else f"{value} of {n_steps}"

        self._stale_label("step", lambda: [label(option) for option in options])
        self._relabel("step", [label(option) for option in options])
        held = entry.from_widget(session.get("step"))
        if isinstance(held, int) and not isinstance(held, bool) and held >= n_steps:
            session["step"] = whole
            self._fit_link(n_steps=n_steps)

        value: int | None = self._control(
            "step",
            lambda: st.select_slider("Splits made", options, format_func=label, key="step"),
        )
        return value

    def node(self, describe: Callable[[int], str], n_nodes: int, label: str = "Node") -> int:
        """Which node of a tree of ``n_nodes`` to ask about, by its number."""
        self._stale_label("node", lambda: [describe(i) for i in range(n_nodes)])
        self._relabel("node", [describe(i) for i in range(n_nodes)])
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
        adopted = visit().adopted
        if adopted is not None:
            keep(visit().noted(*state.fit_growth(adopted, n_steps, n_nodes)))

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

    def view(self, offered: dict[str, str]) -> str | None:
        """Which of this page's extra lessons to show (``offered``: name -> label), or None.

        A link may name another page's view: this page then shows none of them.
        """
        if st.session_state.get("view", self.last.view) not in (None, *offered):
            st.session_state["view"] = None
        entry = self.settings_type.entries["view"]
        return self._control(
            "view",
            lambda: st.segmented_control(
                entry.label,
                list(offered),
                format_func=offered.__getitem__,
                key="view",
                help=entry.help,
            ),
        )

    def sample(self, view: ModelView, label: str = "Test sample") -> int:
        """Pick one test sample by its position in the test set; keeps the choice in range.

        The labels name each sample's row and class, so they change with the dataset and the
        seed. Streamlit keeps a keyed widget across such a change, and the browser would send
        the old label back as the value on the next rerun, crashing the page. So when the
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
            change(sample_labels=labels)  # the browser's widget holds the sample
        elif visit().sample_labels != labels or not (isinstance(held, int) and 0 <= held < n_test):
            in_range = isinstance(held, int) and not isinstance(held, bool) and 0 <= held < n_test
            session["sample"] = held if in_range else 0
            change(sample_labels=labels)
            if isinstance(held, int) and held >= n_test:
                adopted = visit().adopted
                if adopted is not None and getattr(adopted, "sample", None) is not None:
                    # The link asked for a sample this test set does not have: say so.
                    keep(visit().noted(*state.fit_sample(adopted, n_test)))

        return int(
            self._control(
                "sample",
                lambda: st.selectbox(label, range(n_test), format_func=describe, key="sample"),
            )
        )


def start(page: Page) -> Controls:
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


def tree_controls(controls: Controls, header: str) -> DatasetShape:
    """The sidebar of a one-tree page: dataset, criterion, stopping rules, pair, seed, split."""
    st.header(header)
    shape = controls.dataset()
    if shape.task == "classification":
        controls.show("criterion")
    for name in (
        "max_depth",
        "min_samples_leaf",
        "min_samples_split",
        "min_impurity_decrease",
        "ccp_alpha",
    ):
        controls.show(name, shape.task)
    if shape.task == "classification":
        controls.pair()
        controls.show("fit")
        controls.tree_max_features(state.n_tree_columns(controls.settings, shape))
    controls.show("seed")
    controls.show("test_size")
    return shape
