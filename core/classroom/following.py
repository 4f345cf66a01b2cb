"""A session's seat in a class, and following the teacher: pure transitions, tested alone.

A student's session follows the teacher's: when the class's version moves it reads what the
teacher shows (:class:`~core.classroom.model.Shown`) and opens it on its next run, until the
student moves a control. :class:`Membership` holds that state and each step of it as a
function from one value to the next; the Streamlit side (:mod:`core.ui.classroom`) only reads
and keeps it.

The module is pure: no Streamlit.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from core.classroom.model import ClassState, NotTeacher, Shown, Teacher, clean_code
from core.classroom.room import CHECK_IN_EVERY


@dataclass(frozen=True)
class Membership:
    """A session's seat in a class, kept in its :class:`core.app.session.Visit` (as its ``seat``).

    Attributes
    ----------
    code : str
        The class.
    seat : str
        A random token: this session's answers are kept under it; no name is ever asked.
    secret : str or None
        The teacher's secret (None for a student).
    following : bool
        A student follows the teacher: the page moves whenever the teacher's does.
    seen : int
        The class version this session last acted on.
    pending : Shown or None
        The teacher's view, to be opened by the next run of its page; it stays until a run of
        that page has written its settings (a run stopped before then opens it again).
    landed : mapping of str to str or None
        The query the page wrote on the run that opened the teacher's view: a later run that
        writes another one means the student moved a control, and stops following.
    shown : Shown or None
        What the teacher's session last published.
    checked_in : float
        When the seat last checked in.
    drawn : int
        The class version the session's last finished page run showed.
    asked : float
        When a page run last began to show version ``seen``: a check that finds it still not
        drawn a few seconds later asks for the page run again (:meth:`overdue`).
    asks : int
        How many times the page run for version ``seen`` was asked for again: each time the
        next wait doubles (:meth:`overdue`), as the browser's check does (``class_check.js``).
    recheck : bool
        The browser's check asked for this run (:meth:`rechecked`): it opens the teacher's view
        even when this session wrote that view last. The browser asks again when the run it
        asked for is slow to show, and that second run carries the widget values the browser
        still showed, from before the teacher's view; without the recheck they would win.
    """

    code: str
    seat: str
    secret: str | None = field(default=None, repr=False)
    following: bool = True
    seen: int = 0
    pending: Shown | None = None
    landed: Mapping[str, str] | None = None
    shown: Shown | None = None
    checked_in: float = 0.0
    drawn: int = 0
    asked: float = 0.0
    asks: int = 0
    recheck: bool = False

    @property
    def teaching(self) -> bool:
        return self.secret is not None

    @property
    def teacher(self) -> Teacher:
        if self.secret is None:
            raise NotTeacher(self.code)
        return Teacher(self.code, self.secret)

    def follow(self, on: bool) -> Membership:
        """Follow the teacher again (from the teacher's view now) or explore alone (a view
        read but not opened yet is dropped)."""
        if on:
            return replace(self, following=True, seen=0, landed=None)
        return replace(self, following=False, pending=None, landed=None)

    def needs(self, version: int | None) -> bool:
        """Whether a check that read ``version`` must read the class's state (a student who
        explores alone still sees the teacher's polls, and a run the browser's check asked for
        always does)."""
        return version is None or version != self.seen or self.recheck

    def rechecked(self) -> Membership:
        """The browser's check asked for this run (see ``recheck``)."""
        return replace(self, recheck=True)

    def opening(self, state: ClassState, here: Shown) -> Membership:
        """The class at ``state`` was read; ``here`` is what this session shows now.

        A follower opens the teacher's view next (``pending``) unless it already shows it,
        or, when the browser's check asked for the run, whatever the page last wrote.
        """
        shown = state.shown
        follow = self.following and shown is not None and (self.recheck or shown != here)
        return replace(self, seen=state.version, pending=shown if follow else None, recheck=False)

    def opened(self, page: str) -> Shown | None:
        """The teacher's view, if it is for ``page``: this run opens it.

        The view stays pending until a run of ``page`` has written its settings
        (:meth:`wrote`). A run stopped before that (a newer rerun took its place, as happens
        under load when the browser asks again) leaves it for the next run, which opens it
        again: otherwise that run would keep the settings the browser still shows.
        """
        if self.pending is None or self.pending.page != page:
            return None
        return self.pending

    def wrote(self, page: str, query: Mapping[str, str]) -> tuple[bool, Membership]:
        """A run of ``page`` wrote ``query``; returns whether the student just left the
        teacher's view.

        The first write of the page whose view was pending lands on it (``landed``); a later
        write of other settings means the student moved a control.
        """
        if self.teaching or not self.following:
            return False, self
        if self.pending is not None and self.pending.page == page:
            return False, replace(self, pending=None, landed=dict(query))
        if self.landed is None:
            return False, replace(self, landed=dict(query))
        if dict(self.landed) != dict(query):
            return True, replace(self, following=False, landed=None)
        return False, self

    def overdue(self, now: float, after: float, most: float | None = None) -> bool:
        """Whether the page run that should show version ``seen`` has not finished in time
        (it was lost, or the server is busy: ask again).

        In time is ``after`` seconds after the first ask, doubled at each further ask
        (:attr:`asks`), at most ``most``: a class whose runs are slow is not kept restarting
        them all at once (see ``docs/class-mode.md``).
        """
        wait = after * 2.0**self.asks
        if most is not None:
            wait = min(wait, most)
        return self.drawn != self.seen and now - self.asked > wait

    def asking(self, now: float) -> Membership:
        """A page run to show version ``seen`` begins at ``now`` (see :meth:`overdue`)."""
        return replace(self, asked=now, asks=0)

    def asking_again(self, now: float) -> Membership:
        """The page run to show version ``seen`` is asked for once more, at ``now``."""
        return replace(self, asked=now, asks=self.asks + 1)

    def check_in_due(self, now: float) -> bool:
        """Whether the seat must check in again (at most every :data:`CHECK_IN_EVERY` s)."""
        return now - self.checked_in > CHECK_IN_EVERY

    def published(self, shown: Shown) -> Membership:
        return replace(self, shown=shown)

    def checked(self, now: float) -> Membership:
        return replace(self, checked_in=now)

    def drew(self) -> Membership:
        """A page run finished showing version ``seen``."""
        return replace(self, drawn=self.seen)


def remembered(membership: Membership) -> str:
    """What the browser keeps so a reload keeps its seat: ``t.CODE.SECRET`` for the teacher
    (the secret never leaves the teacher's browser and server), ``s.CODE.SEAT`` for a student
    who follows, ``e.CODE.SEAT`` for one exploring alone."""
    if membership.secret is not None:
        return f"t.{membership.code}.{membership.secret}"
    return f"{'s' if membership.following else 'e'}.{membership.code}.{membership.seat}"


def recalled(text: str) -> Membership | None:
    """The seat :func:`remembered` wrote, or None when ``text`` is not one (it is checked
    against the store before it is used)."""
    role, _, rest = text.partition(".")
    code, _, token = rest.partition(".")
    if role not in ("t", "s", "e") or clean_code(code) != code or not 8 <= len(token) <= 64:
        return None
    if not all(ch.isalnum() or ch in "-_" for ch in token):
        return None
    if role == "t":
        return Membership(code, seat_token(), secret=token)
    return Membership(code, token, following=role == "s")


def seat_token() -> str:
    """A fresh random seat: unguessable, and nothing about who sits in it."""
    return secrets.token_urlsafe(12)


__all__ = [
    "Membership",
    "recalled",
    "remembered",
    "seat_token",
]
