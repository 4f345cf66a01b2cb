"""Page hooks: the page machinery calls every registered wing at a run's four moments, and
class mode is one of them as soon as the pages' package is imported."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import core.ui  # noqa: F401  (registers class mode, as every page's import does)
from core.ui import page_hooks
from core.ui.page_hooks import (
    PageHooks,
    page_arriving,
    page_opened,
    page_opening,
    page_wrote,
    register,
)


@pytest.fixture
def hooks_kept() -> Iterator[dict[str, PageHooks]]:
    """The registry as it was, back after the test."""
    kept = dict(page_hooks._HOOKS)
    yield kept
    page_hooks._HOOKS.clear()
    page_hooks._HOOKS.update(kept)


def test_class_mode_is_registered_by_importing_the_pages_package(
    hooks_kept: dict[str, PageHooks],
) -> None:
    from core.ui.classroom import class_wrote
    from core.ui.classroom.follow import opened_view
    from core.ui.classroom.panel import class_arrival

    class_mode = hooks_kept["class"]
    assert class_mode.wrote is class_wrote and class_mode.opened is opened_view
    assert class_mode.arriving is class_arrival  # a follower leaves before the page draws


def test_every_wing_hears_each_moment_in_the_order_it_registered(
    hooks_kept: dict[str, PageHooks],
) -> None:
    page_hooks._HOOKS.clear()
    heard: list[tuple[str, ...]] = []
    for name, hands in (("first", None), ("second", {"max_depth": "3"})):
        register(
            PageHooks(
                name,
                opening=lambda page, name=name: heard.append((name, "opening", page)),
                opened=lambda page, hands=hands: hands,
                wrote=lambda page, query, name=name: heard.append((name, "wrote", page, *query)),
                arriving=(
                    (lambda page, name=name: heard.append((name, "arriving", page)))
                    if name == "first"
                    else None  # a wing without the moment
                ),
            )
        )
    page_arriving("pages/1_Single_tree.py")
    page_opening("pages/1_Single_tree.py")
    assert page_opened("pages/1_Single_tree.py") == {"max_depth": "3"}  # the first that hands
    page_wrote("pages/1_Single_tree.py", {"dataset": "iris"})
    assert heard == [
        ("first", "arriving", "pages/1_Single_tree.py"),
        ("first", "opening", "pages/1_Single_tree.py"),
        ("second", "opening", "pages/1_Single_tree.py"),
        ("first", "wrote", "pages/1_Single_tree.py", "dataset"),
        ("second", "wrote", "pages/1_Single_tree.py", "dataset"),
    ]


def test_registering_a_name_again_replaces_its_hooks(hooks_kept: dict[str, PageHooks]) -> None:
    page_hooks._HOOKS.clear()
    for hands in ({"a": "1"}, {"b": "2"}):
        register(PageHooks("wing", lambda page: None, lambda page, h=hands: h, lambda p, q: None))
    assert page_opened("app.py") == {"b": "2"}
    page_hooks._HOOKS.clear()
    assert page_opened("app.py") is None  # no wing: nothing handed
