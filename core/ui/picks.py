"""What a page's view points at in its model: a step of the growth, a node, a tree of the forest,
a test sample, and which of the page's lessons is open.

These controls differ from the settings' own (:mod:`core.ui.controls`) in one way: their options
are the model's (the splits a tree made, its nodes, the test set's rows), so their labels change
when the model does. A select box or select slider keeps its value in the browser as the label
it showed; each control here writes its value again when its labels change, and gives way to
the URL when a reconnecting browser sends a label the model no longer has. A value beyond the new
model (a step this tree does not reach) is brought into range, and a link that asked for it
says so.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from core.app import settings as state
from core.app.models import ModelView
from core.app.settings import NODE_LIMIT, STEP_LIMIT
from core.ui.binding import Binding
from core.ui.url_state import reconnected_keys, reconnected_label
from core.ui.visit import change, keep, visit


class Picks(Binding):
    """The controls of one run of a page whose options are its model's parts."""

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
