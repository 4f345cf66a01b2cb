"""A class in the shared store: start it, show, poll, answer, count the seats, end it.

The teacher starts a class and gets a short code and a secret. What the teacher's page shows
(its script and its settings as a link's query) is written to the shared store
(``core.classroom.store``) with a version number; each student's session reads that number every
second or so (one ``GET``) and, when it moved, the state behind it. Only the secret's holder
changes the class: the store keeps the secret's SHA-256, never the secret, and each
teacher's call proves it. A guessed code therefore gives a seat and nothing more.

Nothing personal is kept: a student is a random seat token signed by the server
(:mod:`core.classroom.seats`: a made-up seat counts nobody), an answer is one field of a hash
per poll under that token, and every key expires after :data:`CLASS_TTL` seconds without a
write from the teacher.

Keys (``{code}`` is the class code)::

    arb:class:{code}            the class: secret's hash, what is shown, the open poll (JSON)
    arb:class:{code}:v          its version: one more at every change of the class
    arb:class:{code}:seats      seat token -> last time the seat checked in
    arb:class:{code}:poll:{n}   seat token -> that seat's answer to poll n (JSON)
    arb:class:{code}:asked      n -> poll n as asked (JSON): a lesson's summary reads them all
    arb:class:{code}:places     seat token -> its screen in the class's lesson ("3f", "2e")

A change also announces the class's code on the channel ``arb:moved`` (:meth:`Classroom.on_move`),
so that the followers' checks on every server read its version at once.

The class's lesson (:class:`~core.classroom.lesson_state.ClassLesson`: the file without its
notes, the teacher's screen, pacing, pause) is one field of the class's record.

Beside them, the seats' signing key (``arb:key``, :mod:`core.classroom.seats`) and the guessing
counters (``arb:limit:...``, :mod:`core.classroom.limits`).

The module is pure: no Streamlit.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from core.classroom.lesson_state import ClassLesson, Place
from core.classroom.limits import Limits
from core.classroom.model import (
    ALPHABET,
    CODE_LENGTH,
    Answer,
    ClassState,
    NoClass,
    NotTeacher,
    Poll,
    Shown,
    Teacher,
    answer_text,
    read_answer,
)
from core.classroom.seats import Seats
from core.classroom.store import Store, StoreDown

#: Seconds a class lives after the teacher's last change.
CLASS_TTL = 4 * 3600.0
#: A seat counts as in the class while it checked in within this many seconds.
SEAT_ALIVE = 90.0
#: How often a student's seat checks in (a write), at most.
CHECK_IN_EVERY = 30.0
#: The store's channel on which a class's code is announced when it moves or ends.
MOVED = "arb:moved"


def _key(code: str, part: str = "") -> str:
    return f"arb:class:{code}{':' + part if part else ''}"


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class Classroom:
    """Start, show, follow and poll a class in ``store``.

    Parameters
    ----------
    store : Store
        Where classes live (every session of every replica must see the same one).
    clock : callable
        Wall-clock seconds (seats' check-in times are compared across replicas).

    Attributes
    ----------
    seats : Seats
        Gives and checks the class's signed seats.
    limits : Limits
        The guessing counters.
    """

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self.seats = Seats(store)
        self.limits = Limits(store, clock)

    # -- the teacher ------------------------------------------------------------------------

    def start(self, shown: Shown | None = None) -> Teacher:
        """A new class with a fresh code; the caller (the teacher's session) keeps the secret."""
        secret = secrets.token_urlsafe(24)
        record = {"secret": _digest(secret), "shown": shown.as_dict() if shown else None}
        for _ in range(20):  # 19**6 = 47 million codes: a clash is rare, and retried
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
        version = self.store.bump(_key(teacher.code, "v"), CLASS_TTL)
        self._moved(teacher.code)
        return version

    def _moved(self, code: str) -> None:
        """Tell every server's checks that class ``code`` moved (:meth:`on_move`); the change is
        written already, so an announcement lost with the store only leaves it to their reads."""
        with contextlib.suppress(StoreDown):
            self.store.announce(MOVED, code)

    def on_move(self, heard: Callable[[str], None]) -> Callable[[], None]:
        """Call ``heard(code)`` when a class moves or ends, on any server of this store: the
        followers' check (:mod:`server.class_check`) reads its version then rather than at its
        next read. On a thread of the store's; returns what stops it."""
        return self.store.listen(MOVED, heard)

    def show(self, teacher: Teacher, shown: Shown, lesson: ClassLesson | None = None) -> int:
        """The teacher now shows ``shown``, and the lesson's screen ``lesson`` if given (None
        leaves the lesson as it is); returns the class's new version.

        A lesson's screen is written with its view, in one write: written apart, every
        student's check read the screen beside the last screen's view, and the class's runs for
        it held the teacher's own run back before it wrote the view. A split poll asked about
        another view closes: its tree is no longer the one shown.
        """
        record = self._owned(teacher)
        changes: dict[str, Any] = {}
        if Shown.from_dict(record.get("shown")) != shown:
            changes["shown"] = shown.as_dict()
            poll = Poll.from_dict(record.get("poll"))
            if poll is not None and poll.kind == "split" and poll.shown != shown:
                changes["poll"] = None  # its tree is no longer on the board
        if lesson is not None and ClassLesson.from_dict(record.get("lesson")) != lesson:
            changes["lesson"] = lesson.as_dict()
        if not changes:
            return self.version(teacher.code) or 0
        return self._write(teacher, {**record, **changes})

    def ask(self, teacher: Teacher, poll: Poll) -> Poll:
        """Open ``poll`` (numbered after the class's last one); the open poll, if any, closes."""
        record = self._owned(teacher)
        numbered = replace(poll, number=int(record.get("polls", 0)) + 1, revealed=False)
        self.store.put_field(
            _key(teacher.code, "asked"),
            str(numbered.number),
            json.dumps(numbered.as_dict()),
            CLASS_TTL,
        )
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

    def run_lesson(self, teacher: Teacher, lesson: ClassLesson | None) -> None:
        """The class now runs ``lesson`` (its screen, pacing, pause), or none; unchanged, no
        write (the students' checks see nothing move). A new screen goes with its view
        (:meth:`show`)."""
        record = self._owned(teacher)
        held = ClassLesson.from_dict(record.get("lesson"))
        if held != lesson:
            self._write(teacher, {**record, "lesson": lesson.as_dict() if lesson else None})

    def end(self, teacher: Teacher) -> None:
        """End the class: every key goes; students learn it at their next check."""
        record = self._owned(teacher)
        polls = [_key(teacher.code, f"poll:{n}") for n in range(1, int(record.get("polls", 0)) + 1)]
        self.store.drop(_key(teacher.code), _key(teacher.code, "v"), _key(teacher.code, "seats"))
        self.store.drop(_key(teacher.code, "asked"), _key(teacher.code, "places"), *polls)
        self._moved(teacher.code)

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
            ClassLesson.from_dict(record.get("lesson")),
        )

    def exists(self, code: str) -> bool:
        return self.version(code) is not None

    def new_seat(self, code: str) -> str:
        """A seat in class ``code`` that only this server's key signs (see ``seats``)."""
        return self.seats.new(code)

    def seated(self, code: str, seat: str) -> bool:
        """Whether ``seat`` is one the servers gave in class ``code`` (a check-in or a cookie
        from outside counts only then)."""
        return self.seats.valid(code, seat)

    def check_in(self, code: str, seat: str) -> None:
        """Seat ``seat`` is in the class now (a student's check, every :data:`CHECK_IN_EVERY`);
        the caller has checked a seat that came from outside (:meth:`seated`)."""
        self.store.put_field(_key(code, "seats"), seat, f"{self.clock():.0f}", CLASS_TTL)

    def leave(self, code: str, seat: str) -> None:
        """Seat ``seat`` left: it stops counting at once."""
        self.store.put_field(_key(code, "seats"), seat, "0", CLASS_TTL)

    def present(self, code: str) -> list[str]:
        """The seats that checked in within the last :data:`SEAT_ALIVE` seconds."""
        since = self.clock() - SEAT_ALIVE
        seen = self.store.fields(_key(code, "seats")).items()
        return [seat for seat, when in seen if when.isdigit() and float(when) >= since]

    def students(self, code: str) -> int:
        """How many seats checked in within the last :data:`SEAT_ALIVE` seconds."""
        return len(self.present(code))

    def place(self, code: str, seat: str, place: Place) -> None:
        """Seat ``seat`` is at ``place`` in the class's lesson (the teacher's dashboard counts
        it); the caller has checked the seat."""
        self.store.put_field(_key(code, "places"), seat, place.text(), CLASS_TTL)

    def places(self, code: str) -> dict[str, str]:
        """Every seat's place as the store keeps it (``lesson_state.progress`` counts them)."""
        return self.store.fields(_key(code, "places"))

    def asked(self, code: str) -> list[Poll]:
        """Every poll the class was asked, in order (closed ones too: a lesson's summary)."""
        held = self.store.fields(_key(code, "asked"))
        polls = [Poll.from_dict(_json(text)) for text in held.values()]
        return sorted((poll for poll in polls if poll is not None), key=lambda p: p.number)

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
        if read_answer(answer_text(answer), now) is None:
            raise ValueError("That answer does not fit the question.")
        self.store.put_field(
            _key(code, f"poll:{poll.number}"), seat, answer_text(answer), CLASS_TTL
        )

    def answers(self, code: str, poll: Poll) -> dict[str, Answer]:
        """Every seat's answer to ``poll`` (one per seat; ones that do not fit are left out)."""
        held = self.store.fields(_key(code, f"poll:{poll.number}"))
        read = {seat: read_answer(text, poll) for seat, text in held.items()}
        return {seat: answer for seat, answer in read.items() if answer is not None}


__all__ = ["CHECK_IN_EVERY", "CLASS_TTL", "SEAT_ALIVE", "Classroom"]
