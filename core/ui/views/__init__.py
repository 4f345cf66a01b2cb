"""A page's views as data: what each one shows, what to notice in it, and the code behind it.

A page names its views in a tuple, its own view first, then the lessons a link can open
(``?view=map``, offered under "More to see" in the sidebar)::

    VIEWS = (single_tree.TREE, single_tree.MAP, single_tree.WHAT_IF)
    lesson = views.chosen(VIEWS, controls.view(views.offered(VIEWS)))

Each :class:`View` carries its "what to notice" and its own part of "How this is computed",
so a page imports no engine or figure function only to list it there: :func:`explain` reads
them from the views shown. The modules beside this one hold each page's views.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from core.ui.display import how_computed, what_to_notice

#: What to notice: one text, or one to classify and one to regress.
Notice = str | tuple[str, str]


@dataclass(frozen=True)
class View:
    """One view of a page: the page's own, or a lesson a link opens above its figures.

    Attributes
    ----------
    name : str or None
        Its value of ``?view=`` in the link; None for the page's own view, always shown.
    title : str
        Its label under "More to see" (the page's title for the page's own view).
    notice : str, (str, str) or None
        What to notice: one text, or (to classify, to regress); None when the view has none.
    computed : str
        Its words in "How this is computed", after those of the views shown before it.
    computed_by : tuple of callables
        The functions doing its work, whose real source that expander lists.
    show : callable
        What draws it. A lesson's ``show`` draws its own controls where the page calls it
        (they are settings, in the link, read before the page finishes its controls) and
        returns what draws the rest once the page's model is fitted.
    notice_key : str
        The key of its callout's container (the tests and the browser tests find it there).
    """

    name: str | None
    title: str
    notice: Notice | None
    computed: str
    computed_by: tuple[Callable[..., Any], ...]
    show: Callable[..., Any]
    notice_key: str = "what-to-notice"

    def notice_for(self, classify: bool) -> str:
        """Its "what to notice", for a model that classifies or one that regresses."""
        if self.notice is None:
            return ""
        if isinstance(self.notice, str):
            return self.notice
        return self.notice[0] if classify else self.notice[1]

    def what_to_notice(self, classify: bool = True, more: str = "") -> None:
        """Its callout, with ``more`` (words that depend on what it shows) after its notice."""
        text = self.notice_for(classify)
        what_to_notice(f"{text} {more}" if more else text, key=self.notice_key)


def offered(views: Sequence[View]) -> dict[str, str]:
    """The lessons a page offers under "More to see": each one's name in the link, its label."""
    return {view.name: view.title for view in views if view.name is not None}


def chosen(views: Sequence[View], name: str | None) -> View | None:
    """The lesson the link opens (``?view=name``), or None for the page's own view alone."""
    return next((view for view in views if view.name is not None and view.name == name), None)


def explain(page: View, lesson: View | None = None) -> None:
    """The expander "How this is computed" for the page's own view and its open lesson."""
    shown = (page,) if lesson is None else (page, lesson)
    how_computed(
        " ".join(view.computed for view in shown if view.computed),
        [function for view in shown for function in view.computed_by],
    )


__all__ = ["Notice", "View", "chosen", "explain", "offered"]
