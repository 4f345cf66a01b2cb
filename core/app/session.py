"""A browser session's own state, as one value with pure transitions.

Everything Arboretum keeps for a session besides its widgets' values is one frozen
:class:`Visit`, kept under one key of ``st.session_state`` (``core.ui.visit``): the page the
last run drew and its settings, what it put in the URL, the settings carried from page to
page, a link's notices, the session's own datasets (with an upload's table), the points
drawn by hand and what is wrong with the latest upload or drawing. Each change is a function
from one visit to the next, so the rules live here, unit-tested without Streamlit.

The module is pure: no Streamlit.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from core.app.own_data import OwnData
from core.app.settings import DataKind, Form, Settings


class ClassSeat(Protocol):
    """A session's seat in a class, as this layer reads it.

    The seat itself is :class:`core.classroom.Membership`; the class wing sits above
    ``core.app``, so the visit names it by the two things the pages ask of it.
    """

    @property
    def following(self) -> bool:
        """A student who follows the teacher's page."""
        ...

    @property
    def teaching(self) -> bool:
        """The class's teacher."""
        ...


@dataclass(frozen=True)
class Visit:
    """What a session holds besides its widgets' values; never changed, only replaced.

    Attributes
    ----------
    page : str or None
        The page script the last run drew (None before the first).
    last : Settings or None
        The settings that run ended with.
    written : mapping of str to str
        The query that run put in the URL.
    carried : mapping of str to str
        Every setting shown on any page so far, as text: a page opened from the page list
        (its URL holds none of its settings) starts from these.
    adopted, notices
        The settings a link was read into, and what in it could not be used; shown until
        the visitor changes something.
    reconnected : frozenset of str
        The settings whose widgets a reconnecting browser holds in this run.
    sample_labels : hashable or None
        Which test set the sample picker's labels last named.
    last_of_kind : mapping of str to str
        The dataset last shown of each kind (tables, puzzles, drawn, uploads).
    own : OwnData
        The session's own datasets: uploads (with their tables) and drawn points.
    upload_problem, drawing_problem : str or None
        Why the latest upload, or the points drawn, cannot make a tree.
    points : Any
        The points drawn by hand (``core.data.drawn.DrawnPoints``), or None.
    seat : ClassSeat or None
        The session's seat in a class (teacher or student, a
        :class:`core.classroom.Membership`), or None.
    class_away : ClassSeat or None
        The seat the session held when the class's store stopped answering: taken back as
        soon as the store answers again.
    class_problem : str or None
        Why the session's class stopped or could not start (ended, store unreachable).
    class_cookie : str or None
        What the browser's class cookie must become at the next run's sidebar ("" clears
        it; None: nothing to write).
    """

    page: str | None = None
    last: Settings | None = None
    written: Mapping[str, str] = field(default_factory=dict)
    carried: Mapping[str, str] = field(default_factory=dict)
    adopted: Settings | None = None
    notices: tuple[str, ...] = ()
    reconnected: frozenset[str] = frozenset()
    sample_labels: Hashable | None = None
    last_of_kind: Mapping[str, str] = field(default_factory=dict)
    own: OwnData = field(default_factory=OwnData)
    upload_problem: str | None = None
    drawing_problem: str | None = None
    points: Any = None
    seat: ClassSeat | None = None
    class_away: ClassSeat | None = None
    class_problem: str | None = None
    class_cookie: str | None = None

    def arrival(
        self, page: str, form: Form, query: Mapping[str, str], history: bool, unread: frozenset[str]
    ) -> tuple[bool, frozenset[str]]:
        """Whether a run of ``page`` reads its settings from the URL, and the widgets kept.

        Parameters
        ----------
        page, form : the page this run draws, and its settings' form
        query : the URL's values of the form's settings
        history : whether the back or forward button asked for the run
        unread : keys of widgets whose values the browser sent but no run of this session
            drew (a browser that reconnected after its server died)

        Returns
        -------
        arrived : a first run of the page (or one the back or forward button moved to
            another URL of it): the URL wins, then the carried settings, then the defaults
        held : the settings whose widgets a reconnecting browser holds: a fresh session
            whose URL holds this page's settings (``finish`` always leaves them there; a link
            in the page list opens a page without them) and whose run carries widgets
        """
        held = unread & set(form.entries) if self.page is None and query else frozenset()
        navigated = history and dict(self.written) != dict(query)
        arrived = self.page != page or self.last is None or self.last.form != form
        return arrived or navigated, frozenset() if navigated else held

    def adopt(self, settings: Settings, notices: list[str]) -> Visit:
        """A link (or the carried settings) read into ``settings``, with its notices."""
        return replace(self, adopted=settings, notices=tuple(notices), last=settings)

    def run(self, page: str, reconnected: frozenset[str]) -> Visit:
        """A run of ``page`` has started; ``reconnected`` names the browser's held widgets."""
        return replace(self, page=page, reconnected=reconnected)

    def noted(self, settings: Settings, notices: list[str]) -> Visit:
        """More notices about the adopted link (a sample or step the fitted model lacks)."""
        if self.adopted is None:
            return self
        return replace(self, adopted=settings, notices=(*self.notices, *notices))

    def finish(
        self, settings: Settings, query: Mapping[str, str], full: Mapping[str, str]
    ) -> Visit:
        """The run ended on ``settings``, with ``query`` in the URL (``full``: every value)."""
        carried = {**self.carried, **full}
        return replace(self, last=settings, written=dict(query), carried=carried)

    def shown(self, kind: DataKind, name: str) -> Visit:
        """Dataset ``name`` of ``kind`` is shown: the picker remembers it for that kind."""
        if self.last_of_kind.get(kind) == name:
            return self
        return replace(self, last_of_kind={**self.last_of_kind, kind: name})


__all__ = ["ClassSeat", "Visit"]
