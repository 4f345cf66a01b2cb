"""A class that follows the teacher: its model, its store, its polls, pure (no Streamlit).

- :mod:`core.classroom.model`: a class's code, what the teacher shows, polls and answers.
- :mod:`core.classroom.room`: the :class:`Classroom` over a store: start, show, ask, answer,
  count the seats, end.
- :mod:`core.classroom.following`: a session's seat (:class:`Membership`) and following the
  teacher, as pure transitions.
- :mod:`core.classroom.lesson_state`: a lesson run with the class: the teacher's screen,
  pacing, pause, and where each seat is; :mod:`core.classroom.tally` sums its answers up.
- :mod:`core.classroom.store`: the key-value store every session and replica shares.
- :mod:`core.classroom.seats`: seats only the server gives (signed), so a made-up one counts
  nobody.
- :mod:`core.classroom.limits`: how fast anyone may guess codes, per address and per class.
- :mod:`core.classroom.check`: the followers' HTTP check as both of its ends know it.
- :mod:`core.classroom.poll` (with :mod:`core.classroom.node`): a split poll in numbers, every
  answer scored as the step page scores a split. Imported on its own: it brings the engine and
  the figures, which the server's check does not need.

Its Streamlit side is :mod:`core.ui.classroom`; the server answers the check in
:mod:`server.class_check`.
"""

from __future__ import annotations

from core.classroom.following import Membership, recalled, remembered, seat_token
from core.classroom.limits import MISSES_PER_ADDRESS, SEATLESS_PER_CLASS, Limits
from core.classroom.model import (
    ALPHABET,
    CODE_LENGTH,
    MOST_NUMBER,
    MOST_OPTIONS,
    OPTION_CHARACTERS,
    QUESTION_CHARACTERS,
    Answer,
    ChoiceAnswer,
    ClassState,
    NoClass,
    NotTeacher,
    NumberAnswer,
    Poll,
    Shown,
    SplitAnswer,
    Teacher,
    choice_counts,
    choice_poll,
    clean_code,
    number_answer,
    number_poll,
    read_answer,
)
from core.classroom.room import CHECK_IN_EVERY, CLASS_TTL, SEAT_ALIVE, Classroom
from core.classroom.store import (
    REDIS_URL_VARIABLE,
    MemoryStore,
    RedisStore,
    Store,
    StoreDown,
    open_store,
)

__all__ = [
    "ALPHABET",
    "CHECK_IN_EVERY",
    "CLASS_TTL",
    "CODE_LENGTH",
    "MISSES_PER_ADDRESS",
    "MOST_NUMBER",
    "MOST_OPTIONS",
    "OPTION_CHARACTERS",
    "QUESTION_CHARACTERS",
    "REDIS_URL_VARIABLE",
    "SEATLESS_PER_CLASS",
    "SEAT_ALIVE",
    "Answer",
    "ChoiceAnswer",
    "ClassState",
    "Classroom",
    "Limits",
    "Membership",
    "MemoryStore",
    "NoClass",
    "NotTeacher",
    "NumberAnswer",
    "Poll",
    "RedisStore",
    "Shown",
    "SplitAnswer",
    "Store",
    "StoreDown",
    "Teacher",
    "choice_counts",
    "choice_poll",
    "clean_code",
    "number_answer",
    "number_poll",
    "open_store",
    "read_answer",
    "recalled",
    "remembered",
    "seat_token",
]
