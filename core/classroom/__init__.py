"""A class that follows the teacher: its model, its store, its polls, pure (no Streamlit).

- :mod:`core.classroom.model`: a class's code, what the teacher shows, polls and answers.
- :mod:`core.classroom.room`: the :class:`Classroom` over a store: start, show, ask, answer,
  count the seats, end.
- :mod:`core.classroom.following`: a session's seat (:class:`Membership`) and following the
  teacher, as pure transitions.
- :mod:`core.classroom.store`: the key-value store every session and replica shares.
- :mod:`core.classroom.check`: the followers' HTTP check as both of its ends know it.
- :mod:`core.classroom.poll` (with :mod:`core.classroom.node`): a split poll in numbers, every
  answer scored as the step page scores a split. Imported on its own: it brings the engine and
  the figures, which the server's check does not need.

Its Streamlit side is :mod:`core.ui.classroom`; the server answers the check in
:mod:`server.class_check`.
"""

from __future__ import annotations

from core.classroom.following import (
    JOIN_TRIES,
    JOIN_WINDOW,
    Membership,
    may_try_joining,
    recalled,
    remembered,
    seat_token,
)
from core.classroom.model import (
    ALPHABET,
    CODE_LENGTH,
    MOST_OPTIONS,
    OPTION_CHARACTERS,
    QUESTION_CHARACTERS,
    Answer,
    ChoiceAnswer,
    ClassState,
    NoClass,
    NotTeacher,
    Poll,
    Shown,
    SplitAnswer,
    Teacher,
    choice_counts,
    choice_poll,
    clean_code,
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
    "JOIN_TRIES",
    "JOIN_WINDOW",
    "MOST_OPTIONS",
    "OPTION_CHARACTERS",
    "QUESTION_CHARACTERS",
    "REDIS_URL_VARIABLE",
    "SEAT_ALIVE",
    "Answer",
    "ChoiceAnswer",
    "ClassState",
    "Classroom",
    "Membership",
    "MemoryStore",
    "NoClass",
    "NotTeacher",
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
    "may_try_joining",
    "open_store",
    "read_answer",
    "recalled",
    "remembered",
    "seat_token",
]
