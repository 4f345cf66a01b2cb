"""Hooks into every page's run, for a wing that takes part in each page without the pages
knowing it: class mode (:mod:`core.ui.classroom`) registers itself here.

A page's run has four moments a wing may join: it arrives (before the page draws anything: a
wing may send the run to another page, and nothing is drawn for nothing), it opens
(``open_page``: the sidebar's section, a question at the top), it reads its settings
(``url_state.arrive``: a wing may hand it settings to open, as a link's), and it writes them to
the URL (``url_state.finish``). The page machinery calls :func:`page_arriving`,
:func:`page_opening`, :func:`page_opened` and :func:`page_wrote`; it imports no wing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class PageHooks:
    """What a wing does at each moment of a page's run.

    Attributes
    ----------
    name : str
        The wing's name: registering the same name again replaces its hooks.
    opening : callable
        ``opening(page)``: the first calls of a run of ``page`` (its script's path), before
        its settings are read.
    opened : callable
        ``opened(page)``: settings this run must open as a link's, or None.
    wrote : callable
        ``wrote(page, query)``: the run wrote ``query`` to the URL.
    arriving : callable, optional
        ``arriving(page)``: the run's very first calls, before the page draws anything; it
        draws nothing itself (it may write state, or send the run to another page).
    """

    name: str
    opening: Callable[[str], None]
    opened: Callable[[str], Mapping[str, str] | None]
    wrote: Callable[[str, dict[str, str]], None]
    arriving: Callable[[str], None] | None = None


_HOOKS: dict[str, PageHooks] = {}


def register(hooks: PageHooks) -> None:
    """Call ``hooks`` in every page's run from now on (in the order wings registered)."""
    _HOOKS[hooks.name] = hooks


def page_arriving(page: str) -> None:
    """A run of ``page`` arrives: each wing's calls before anything is drawn."""
    for hooks in _HOOKS.values():
        if hooks.arriving is not None:
            hooks.arriving(page)


def page_opening(page: str) -> None:
    """A run of ``page`` opens: each wing's first calls."""
    for hooks in _HOOKS.values():
        hooks.opening(page)


def page_opened(page: str) -> dict[str, str] | None:
    """The settings a wing hands this run of ``page`` to open as a link's (the first one's)."""
    for hooks in _HOOKS.values():
        query = hooks.opened(page)
        if query is not None:
            return dict(query)
    return None


def page_wrote(page: str, query: dict[str, str]) -> None:
    """A run of ``page`` wrote ``query`` to the URL: each wing hears it."""
    for hooks in _HOOKS.values():
        hooks.wrote(page, query)


__all__ = [
    "PageHooks",
    "page_arriving",
    "page_opened",
    "page_opening",
    "page_wrote",
    "register",
]
