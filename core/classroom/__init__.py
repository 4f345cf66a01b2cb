"""A class that follows the teacher: its model, its store, its polls, pure (no Streamlit).

- :mod:`core.classroom.room`: codes, what the teacher shows, polls and answers, the
  :class:`Classroom` over a store, and a session's seat in it.
- :mod:`core.classroom.store`: the key-value store every session and replica shares.

Its Streamlit side is :mod:`core.ui.classroom`; the server's check is :mod:`server.class_check`.
"""

from __future__ import annotations

from core.classroom.room import (
    ALPHABET,
    CHECK_IN_EVERY,
    CLASS_TTL,
    CODE_LENGTH,
    JOIN_TRIES,
    Answer,
    ChoiceAnswer,
    Classroom,
    ClassState,
    Membership,
    NoClass,
    NotTeacher,
    Poll,
    Shown,
    SplitAnswer,
    Teacher,
    choice_poll,
    clean_code,
    may_try_joining,
    read_answer,
    recalled,
    remembered,
    seat_token,
)
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
    "REDIS_URL_VARIABLE",
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
    "choice_poll",
    "clean_code",
    "may_try_joining",
    "open_store",
    "read_answer",
    "recalled",
    "remembered",
    "seat_token",
]
