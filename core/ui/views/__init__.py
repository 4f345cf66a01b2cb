"""A page's views as data: what each one shows, what to notice in it, and the code behind it.

A page names its views in a tuple, its own view first, then the lessons a link can open
(``?view=map``, offered under "More to see" in the sidebar)::

    VIEWS = (single_tree.TREE, single_tree.MAP, single_tree.WHAT_IF)
    lesson = views.chosen(VIEWS, controls.view(views.offered(VIEWS)))

Each :class:`View` carries its "what to notice" and its own part of "How this is computed",
so a page imports no engine or figure function only to list it there: :func:`explain` reads
them from the views shown. A view names its expanders the same way, each a :class:`Section`
with its own words and code, which "How this is computed" adds while it is open. The modules
beside this one hold each page's views.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import streamlit as st

from core.ui.display import HOW_COMPUTED, how_computed, what_to_notice

if TYPE_CHECKING:  # what st.expander returns; its module is no public name of Streamlit's
    from streamlit.elements.lib.mutable_expander_container import ExpanderContainer

#: What to notice: one text, or one to classify and one to regress.
Notice = str | tuple[str, str]

#: The keys of the sections whose code "How this is computed" lists, kept while it is open.
_LISTED = f"{HOW_COMPUTED}-sections"


@dataclass(frozen=True)
class Section:
    """One expander of a view ("Why this split?", "Leaves: what each leaf holds", ...).

    It opens on a click and computes only then (Streamlit's ``on_change="rerun"``: opening
    it reruns the page, or the fragment around it), and while it is open its words and code
    join "How this is computed".

    Attributes
    ----------
    title : str
        Its name, the heading of its part of "How this is computed".
    key : str
        The expander's widget key (``st.session_state[key]``: open or not).
    icon : str
        The expander's icon.
    computed : str
        Its words in "How this is computed", above its code.
    computed_by : tuple of callables
        The functions doing its work, whose real source that expander lists.
    show : callable
        What draws it inside the open expander; :meth:`fill` returns what it returns.
    label : str
        The expander's label, a format string: ``{title}`` and the fields :meth:`box` is
        given (the title alone by default).
    """

    title: str
    key: str
    icon: str
    computed: str
    computed_by: tuple[Callable[..., Any], ...]
    show: Callable[..., Any]
    label: str = "{title}"

    def box(self, **fields: Any) -> ExpanderContainer:
        """The expander, open or closed, where it stands on the page; nothing inside yet.

        Toggled while "How this is computed" is open, it reruns the whole page once when it
        stands in a fragment: the fragment's own rerun would leave that listing as it was.
        """
        box = st.expander(
            self.label.format(title=self.title, **fields),
            icon=self.icon,
            key=self.key,
            on_change="rerun",
        )
        listed = st.session_state.get(_LISTED)
        if isinstance(listed, frozenset) and (self.key in listed) != bool(box.open):
            st.session_state[_LISTED] = listed ^ {self.key}  # the next run finds them alike
            st.rerun(scope="app")
        return box

    def fill(self, box: ExpanderContainer, *args: Any, **kwargs: Any) -> Any:
        """Draw it in ``box`` (from :meth:`box`) if open; what ``show`` returns, else None."""
        if not box.open:
            return None
        with box:
            return self.show(*args, **kwargs)

    def draw(self, *args: Any, **kwargs: Any) -> Any:
        """The expander and, only while it is open, what ``show(*args, **kwargs)`` draws."""
        return self.fill(self.box(), *args, **kwargs)

    def is_open(self) -> bool:
        """Whether a visitor opened it (its widget's state), as this run found it."""
        return st.session_state.get(self.key) is True


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
    sections : tuple of Section
        Its expanders, in the order the page shows them; each draws where the view puts it.
    """

    name: str | None
    title: str
    notice: Notice | None
    computed: str
    computed_by: tuple[Callable[..., Any], ...]
    show: Callable[..., Any]
    notice_key: str = "what-to-notice"
    sections: tuple[Section, ...] = ()

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
    """The expander "How this is computed" for the page's own view, its open lesson and
    their open sections (expanders), each section's code after the views'."""
    shown = (page,) if lesson is None else (page, lesson)
    opened = [section for view in shown for section in view.sections if section.is_open()]
    how_computed(
        " ".join(view.computed for view in shown if view.computed),
        [function for view in shown for function in view.computed_by],
        [(f"**{section.title}.** {section.computed}", section.computed_by) for section in opened],
    )
    if st.session_state.get(HOW_COMPUTED) is True:
        st.session_state[_LISTED] = frozenset(section.key for section in opened)
    else:
        st.session_state.pop(_LISTED, None)  # closed: toggling a section changes nothing here


__all__ = ["Notice", "Section", "View", "chosen", "explain", "offered"]
