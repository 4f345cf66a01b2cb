"""A class that follows the teacher: codes, what the teacher shows, polls and answers.

The teacher starts a class and gets a short code and a secret. What the teacher's page shows
(its script and its settings as a link's query) is written to the shared store
(``core.classroom.store``) with a version number; each student's session reads that number every
second or so (one ``GET``) and, when it moved, the state behind it. Only the secret's holder
changes the class: the store keeps the secret's SHA-256, never the secret, and each
teacher's call proves it. A guessed code therefore gives a seat and nothing more.

Nothing personal is kept: a student is a random seat token, an answer is one field of a hash
per poll under that token, and every key expires after :data:`CLASS_TTL` seconds without a
write from the teacher.

Keys (``{code}`` is the class code)::

    arb:class:{code}            the class: secret's hash, what is shown, the open poll (JSON)
    arb:class:{code}:v          its version: one more at every change of the class
    arb:class:{code}:seats      seat token -> last time the seat checked in
    arb:class:{code}:poll:{n}   seat token -> that seat's answer to poll n (JSON)

The module is pure: no Streamlit.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from core.classroom.store import Store

#: Letters and digits that cannot be mistaken for one another when read off a projector
#: (no 0/O/D/Q, 1/I/L, 2/Z, 5/S, 6/G, 8/B, U/V).
ALPHABET = "ACEFHJKMNPRTWXY3479"
CODE_LENGTH = 5
#: Seconds a class lives after the teacher's last change.
CLASS_TTL = 4 * 3600.0
#: A seat counts as in the class while it checked in within this many seconds.
SEAT_ALIVE = 90.0
#: How often a student's seat checks in (a write), at most.
CHECK_IN_EVERY = 30.0
#: Wrong codes a session may try per :data:`JOIN_WINDOW` seconds.
JOIN_TRIES = 5
JOIN_WINDOW = 60.0
#: Longest question and option a teacher can type, and most options.
QUESTION_CHARACTERS = 200
OPTION_CHARACTERS = 80
MOST_OPTIONS = 6

PollKind = Literal["split", "choice"]


class NotTeacher(PermissionError):
    """A change of the class asked for without the class's secret."""


class NoClass(LookupError):
    """The class is not (or no longer) in the store: ended, expired, or never started."""


def _key(code: str, part: str = "") -> str:
    return f"arb:class:{code}{':' + part if part else ''}"


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def clean_code(typed: str) -> str | None:
    """The class code in ``typed`` (any case, spaces and dashes ignored), or None if none.

    >>> clean_code(" kx-3 9p ")
    'KX39P'
    """
    code = "".join(ch for ch in typed.upper() if ch.isalnum())
    if len(code) != CODE_LENGTH or any(ch not in ALPHABET for ch in code):
        return None
    return code


# --- what the class shows --------------------------------------------------------------------


@dataclass(frozen=True)
class Shown:
    """A page and its settings: what the teacher shows, and what followers open.

    Attributes
    ----------
    page : str
        The page's script (``"pages/1_Single_tree.py"``, ``"app.py"``).
    query : mapping of str to str
        Its settings as its link writes them.
    """

    page: str
    query: Mapping[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"page": self.page, "query": dict(self.query)}

    @classmethod
    def from_dict(cls, held: Any) -> Shown | None:
        """The value :meth:`as_dict` wrote, or None when ``held`` is not one."""
        if not isinstance(held, dict) or not isinstance(held.get("page"), str):
            return None
        query = held.get("query", {})
        if not isinstance(query, dict):
            return None
        return cls(held["page"], {str(k): str(v) for k, v in query.items()})


@dataclass(frozen=True)
class Poll:
    """A question the teacher put to the class.

    Attributes
    ----------
    number : int
        Its number in the class (1, 2, ...): its answers are kept under it.
    kind : {"split", "choice"}
        "split": where will the tree split node ``node`` of the tree ``shown`` draws? Each
        answer is a feature and a threshold. "choice": one of ``options``.
    question : str
        The question as the teacher typed it (shown escaped), or the split question.
    options : tuple of str
        A choice's options.
    shown : Shown or None
        A split poll's page and settings: the tree every answer is scored on.
    node : int
        A split poll's node.
    revealed : bool
        Whether the teacher has revealed the answer (a split) or the counts (a choice).
    """

    number: int
    kind: PollKind
    question: str
    options: tuple[str, ...] = ()
    shown: Shown | None = None
    node: int = 0
    revealed: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "kind": self.kind,
            "question": self.question,
            "options": list(self.options),
            "shown": self.shown.as_dict() if self.shown is not None else None,
            "node": self.node,
            "revealed": self.revealed,
        }

    @classmethod
    def from_dict(cls, held: Any) -> Poll | None:
        if not isinstance(held, dict) or held.get("kind") not in ("split", "choice"):
            return None
        try:
            return cls(
                number=int(held["number"]),
                kind=held["kind"],
                question=str(held["question"]),
                options=tuple(str(option) for option in held.get("options", ())),
                shown=Shown.from_dict(held.get("shown")),
                node=int(held.get("node", 0)),
                revealed=bool(held.get("revealed", False)),
            )
        except (KeyError, TypeError, ValueError):
            return None


@dataclass(frozen=True)
class SplitAnswer:
    """A student's split: rows with ``feature`` ≤ ``threshold`` go left."""

    feature: int
    threshold: float


@dataclass(frozen=True)
class ChoiceAnswer:
    """A student's choice: option number ``option`` (from 0)."""

    option: int


Answer = SplitAnswer | ChoiceAnswer


def _answer_text(answer: Answer) -> str:
    if isinstance(answer, SplitAnswer):
        return json.dumps({"feature": answer.feature, "threshold": answer.threshold})
    return json.dumps({"option": answer.option})


def read_answer(text: str, poll: Poll) -> Answer | None:
    """The answer ``text`` holds if it fits ``poll``, else None."""
    try:
        held = json.loads(text)
        if poll.kind == "split":
            threshold = float(held["threshold"])
            if not math.isfinite(threshold):
                return None
            return SplitAnswer(int(held["feature"]), threshold)
        option = int(held["option"])
        return ChoiceAnswer(option) if 0 <= option < len(poll.options) else None
    except (ValueError, TypeError, KeyError, OverflowError):
        return None


@dataclass(frozen=True)
class ClassState:
    """What a class shows at one version (what a student reads when the version moved)."""

    code: str
    version: int
    shown: Shown | None
    poll: Poll | None


def choice_poll(number: int, question: str, options: list[str]) -> Poll:
    """A multiple-choice poll from what the teacher typed, trimmed to the limits.

    Raises
    ------
    ValueError
        With a friendly message when the question is empty or fewer than two options are left.
    """
    question = " ".join(question.split())[:QUESTION_CHARACTERS]
    kept = [" ".join(option.split())[:OPTION_CHARACTERS] for option in options]
    kept = [option for option in kept if option][:MOST_OPTIONS]
    if not question:
        raise ValueError("Type a question first.")
    if len(kept) < 2:
        raise ValueError("Give at least two answers to choose from, one per line.")
    return Poll(number, "choice", question, tuple(kept))


# --- the class in the store ------------------------------------------------------------------


@dataclass(frozen=True)
class Teacher:
    """What the teacher's session holds: the code, and the secret that alone controls it."""

    code: str
    secret: str = field(repr=False)


class Classroom:
    """Start, show, follow and poll a class in ``store``.

    Parameters
    ----------
    store : Store
        Where classes live (every session of every replica must see the same one).
    clock : callable
        Wall-clock seconds (seats' check-in times are compared across replicas).
    """

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    # -- the teacher ------------------------------------------------------------------------

    def start(self, shown: Shown | None = None) -> Teacher:
        """A new class with a fresh code; the caller (the teacher's session) keeps the secret."""
        secret = secrets.token_urlsafe(24)
        record = {"secret": _digest(secret), "shown": shown.as_dict() if shown else None}
        for _ in range(20):  # 19**5 = 2.5 million codes: a clash is rare, and retried
            code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
            if self.store.put(_key(code), json.dumps(record), CLASS_TTL, only_new=True):
                self.store.bump(_key(code, "v"), CLASS_TTL)
                return Teacher(code, secret)
        raise RuntimeError("could not find a free class code")  # pragma: no cover

    def _record(self, code: str) -> dict[str, Any]:
        text = self.store.get(_key(code))
        if text is None:
            raise NoClass(code)
        record = json.loads(text)
        if not isinstance(record, dict):
            raise NoClass(code)
        return record

    def _owned(self, teacher: Teacher) -> dict[str, Any]:
        record = self._record(teacher.code)
        if not hmac.compare_digest(str(record.get("secret", "")), _digest(teacher.secret)):
            raise NotTeacher(teacher.code)
        return record

    def owns(self, teacher: Teacher) -> bool:
        """Whether ``teacher``'s secret controls its class (a reloaded teacher's page asks)."""
        try:
            self._owned(teacher)
        except (NoClass, NotTeacher):
            return False
        return True

    def _write(self, teacher: Teacher, record: dict[str, Any]) -> int:
        self.store.put(_key(teacher.code), json.dumps(record), CLASS_TTL)
        return self.store.bump(_key(teacher.code, "v"), CLASS_TTL)

    def show(self, teacher: Teacher, shown: Shown) -> int:
        """The teacher now shows ``shown``; returns the class's new version.

        A split poll asked about another view closes: its tree is no longer the one shown.
        """
        record = self._owned(teacher)
        if Shown.from_dict(record.get("shown")) == shown:
            return self.version(teacher.code) or 0
        poll = Poll.from_dict(record.get("poll"))
        if poll is not None and poll.kind == "split" and poll.shown != shown:
            record = {**record, "poll": None}  # its tree is no longer on the board
        return self._write(teacher, {**record, "shown": shown.as_dict()})

    def ask(self, teacher: Teacher, poll: Poll) -> Poll:
        """Open ``poll`` (numbered after the class's last one); the open poll, if any, closes."""
        record = self._owned(teacher)
        numbered = replace(poll, number=int(record.get("polls", 0)) + 1, revealed=False)
        self._write(teacher, {**record, "poll": numbered.as_dict(), "polls": numbered.number})
        return numbered

    def reveal(self, teacher: Teacher) -> None:
        """Reveal the open poll's answer to the class."""
        record = self._owned(teacher)
        poll = Poll.from_dict(record.get("poll"))
        if poll is not None and not poll.revealed:
            self._write(teacher, {**record, "poll": replace(poll, revealed=True).as_dict()})

    def close_poll(self, teacher: Teacher) -> None:
        """Take the poll off every screen."""
        record = self._owned(teacher)
        if record.get("poll") is not None:
            self._write(teacher, {**record, "poll": None})

    def end(self, teacher: Teacher) -> None:
        """End the class: every key goes; students learn it at their next check."""
        record = self._owned(teacher)
        polls = [_key(teacher.code, f"poll:{n}") for n in range(1, int(record.get("polls", 0)) + 1)]
        self.store.drop(_key(teacher.code), _key(teacher.code, "v"), _key(teacher.code, "seats"))
        self.store.drop(*polls)

    # -- everyone ---------------------------------------------------------------------------

    def version(self, code: str) -> int | None:
        """The class's version (one read: what a follower's check costs), None once it ended."""
        text = self.store.get(_key(code, "v"))
        return int(text) if text is not None and text.isdigit() else None

    def state(self, code: str) -> ClassState:
        """What the class shows now, with its version.

        Raises
        ------
        NoClass
            When the class has ended or expired.
        """
        version = self.version(code)
        record = self._record(code)
        return ClassState(
            code,
            version or 0,
            Shown.from_dict(record.get("shown")),
            Poll.from_dict(record.get("poll")),
        )

    def exists(self, code: str) -> bool:
        return self.version(code) is not None

    def check_in(self, code: str, seat: str) -> None:
        """Seat ``seat`` is in the class now (a student's check, every :data:`CHECK_IN_EVERY`)."""
        self.store.put_field(_key(code, "seats"), seat, f"{self.clock():.0f}", CLASS_TTL)

    def leave(self, code: str, seat: str) -> None:
        """Seat ``seat`` left: it stops counting at once."""
        self.store.put_field(_key(code, "seats"), seat, "0", CLASS_TTL)

    def students(self, code: str) -> int:
        """How many seats checked in within the last :data:`SEAT_ALIVE` seconds."""
        since = self.clock() - SEAT_ALIVE
        seen = self.store.fields(_key(code, "seats")).values()
        return sum(1 for when in seen if when.isdigit() and float(when) >= since)

    def answer(self, code: str, poll: Poll, seat: str, answer: Answer) -> None:
        """Seat ``seat``'s answer to ``poll``, replacing its earlier one (until the reveal).

        Raises
        ------
        NoClass
            When the class has ended.
        ValueError
            When the poll is no longer open, is revealed, or the answer does not fit it.
        """
        now = self.state(code).poll
        if now is None or now.number != poll.number or now.revealed:
            raise ValueError("This question is closed: the teacher has moved on.")
        if read_answer(_answer_text(answer), now) is None:
            raise ValueError("That answer does not fit the question.")
        self.store.put_field(
            _key(code, f"poll:{poll.number}"), seat, _answer_text(answer), CLASS_TTL
        )

    def answers(self, code: str, poll: Poll) -> dict[str, Answer]:
        """Every seat's answer to ``poll`` (one per seat; ones that do not fit are left out)."""
        held = self.store.fields(_key(code, f"poll:{poll.number}"))
        read = {seat: read_answer(text, poll) for seat, text in held.items()}
        return {seat: answer for seat, answer in read.items() if answer is not None}


# --- a session's part in a class ---------------------------------------------------------------


@dataclass(frozen=True)
class Membership:
    """A session's seat in a class, kept in its :class:`core.app.session.Visit`.

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

    def overdue(self, now: float, after: float) -> bool:
        """Whether the page run that should show version ``seen`` has not finished ``after``
        seconds after it began (it was lost: ask again)."""
        return self.drawn != self.seen and now - self.asked > after

    def published(self, shown: Shown) -> Membership:
        return replace(self, shown=shown)

    def checked(self, now: float) -> Membership:
        return replace(self, checked_in=now)


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


def may_try_joining(tries: tuple[float, ...], now: float) -> bool:
    """Whether a session that failed to join at times ``tries`` may try again at ``now``."""
    return sum(1 for when in tries if now - when < JOIN_WINDOW) < JOIN_TRIES


def seat_token() -> str:
    """A fresh random seat: unguessable, and nothing about who sits in it."""
    return secrets.token_urlsafe(12)


__all__ = [
    "ALPHABET",
    "CHECK_IN_EVERY",
    "CLASS_TTL",
    "CODE_LENGTH",
    "Answer",
    "ChoiceAnswer",
    "ClassState",
    "Classroom",
    "Membership",
    "NoClass",
    "NotTeacher",
    "Poll",
    "Shown",
    "SplitAnswer",
    "Teacher",
    "choice_poll",
    "clean_code",
    "may_try_joining",
    "read_answer",
    "recalled",
    "remembered",
    "seat_token",
]
