"""A page's expanders are sections of its view: each one drawn is declared, and opening one
adds its own code to "How this is computed", run in-process (AppTest)."""

from __future__ import annotations

import inspect
import textwrap
from pathlib import Path

import pytest
from page_helpers import (
    RANDOM_FOREST,
    SINGLE_TREE,
    assert_healthy,
    block,
    how_computed_code,
    open_page,
)
from streamlit.testing.v1 import AppTest

from core.ui.display import HOW_COMPUTED
from core.ui.views import Section, View
from core.ui.views.forest import FOREST
from core.ui.views.single_tree import TREE

#: Each expander by its widget key: the page, the view declaring it, a link that shows it.
CASES = {
    "why-split": (SINGLE_TREE, TREE, {}),
    "leaves": (SINGLE_TREE, TREE, {}),
    "pruning": (SINGLE_TREE, TREE, {}),
    "depth-overlay": (SINGLE_TREE, TREE, {"dataset": "sine"}),
    "glance": (RANDOM_FOREST, FOREST, {}),
}


def section(view: View, key: str) -> Section:
    found = [s for s in view.sections if s.key == key]
    assert len(found) == 1, f"{view.title} declares {[s.key for s in view.sections]}, not {key!r}"
    return found[0]


def listed(section: Section) -> list[str]:
    """Its functions' sources as "How this is computed" shows them."""
    return [textwrap.dedent(inspect.getsource(f)).strip() for f in section.computed_by]


def code(app: AppTest) -> list[str]:
    return [c.value.strip() for c in block(app, f"{HOW_COMPUTED}-code").code]


@pytest.mark.parametrize("key", list(CASES))
def test_opening_an_expander_adds_its_code_and_closing_it_takes_it_away(key: str) -> None:
    path, view, query = CASES[key]
    declared = section(view, key)
    app = open_page(path, **query)
    assert_healthy(app)
    closed = how_computed_code(app)  # every expander closed
    own = [source for source in listed(declared) if source not in closed]
    assert own, f"{key}: none of its code is its own"

    app.session_state[key] = True  # what clicking the expander open does
    app.run()
    assert_healthy(app)
    assert code(app) == closed + own

    app.session_state[key] = False
    app.run()
    assert_healthy(app)
    assert code(app) == closed


def test_closed_expanders_add_nothing() -> None:
    app = open_page(SINGLE_TREE)
    sources = how_computed_code(app)
    for declared in TREE.sections:
        for source in listed(declared):
            if declared.key != "depth-overlay":  # it shares the growing loop with the tree
                assert source not in sources, f"{declared.key} is closed"


@pytest.mark.parametrize(
    ("path", "view", "query"),
    [
        (SINGLE_TREE, TREE, {}),
        (SINGLE_TREE, TREE, {"dataset": "sine"}),
        (RANDOM_FOREST, FOREST, {}),
    ],
    ids=["tree", "tree-regression", "forest"],
)
def test_every_expander_under_the_title_is_a_declared_section(
    path: Path, view: View, query: dict[str, str]
) -> None:
    app = open_page(path, **query)
    assert_healthy(app)
    declared = {s.title for s in view.sections}
    shown = [e.label for e in app.main.expander if e.label != "How this is computed"]
    assert shown, "the page shows its expanders"
    for label in shown:
        assert any(label.startswith(title) for title in declared), f"{label!r} is not declared"
