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

The controls whose options are the model's own parts (a step, a node, a tree, a test sample,
the page's lessons) are :class:`core.ui.picks.Picks`, which :class:`Controls` extends.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from core.app import settings as state
from core.app.pages import Page
from core.app.settings import DatasetShape
from core.app.words import md
from core.data.datasets import Task
from core.ui.binding import float_steps, held_value
from core.ui.cached import catalogue, data_of
from core.ui.data_controls import pick_dataset
from core.ui.draw_panel import draw_panel, unusable
from core.ui.home import open_page
from core.ui.picks import Picks
from core.ui.upload_panel import upload_panel
from core.ui.url_state import arrive, finish, reconnected_keys, share_box
from core.ui.visit import following


def _task(task: str) -> Task:
    return "regression" if task == "regression" else "classification"


class Controls(Picks):
    """The controls of one run of a page; every helper returns the value it shows."""

    _finished = False  # set by the run's first finish(); a later one is a fragment's rerun

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
                    held_value(name, float),
                    step=(top - low) / 100,
                    format="%.3f" if top < 1 else "%.1f",
                    key=name,
                    help=help,
                ),
            )
        if widget == "slider":
            return self._control(
                name,
                lambda: st.slider(
                    label,
                    int(entry.low),
                    int(entry.high),
                    held_value(name, int),
                    key=name,
                    help=help,
                ),
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
