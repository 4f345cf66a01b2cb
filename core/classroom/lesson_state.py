"""A lesson run with a class: which screen the teacher is on, the pacing, the pause.

The teacher's lesson file stays the teacher's; the class holds a copy of it without the
private notes (what students may read), the teacher's screen, whether students are held to
it or free up to it, and whether the class is paused ("eyes on the teacher"). It is one field
of the class's record in the store (:mod:`core.classroom.room`), so every replica reads the
same pacing. Each student's place (its screen, whether it follows) is one field of a hash under
its random seat: nothing personal.

The module is pure: no Streamlit.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

Pacing = Literal["held", "free"]
PACINGS: tuple[Pacing, ...] = ("held", "free")
#: What the teacher chooses between, in words.
PACING_WORDS: dict[Pacing, str] = {
    "held": "Students held to my screen",
    "free": "Free up to my screen",
}
#: Most screens a class's lesson has (as a lesson file: :data:`core.classroom.plans.MOST_SCREENS`).
MOST_SCREENS = 100


@dataclass(frozen=True)
class ClassLesson:
    """The lesson a class runs, as its record keeps it.

    Attributes
    ----------
    plan : str
        The lesson file without its notes (:func:`core.classroom.plans.class_copy`).
    count : int
        Its screens.
    at : int
        The teacher's screen, from 0.
    pacing : {"held", "free"}
        "held": every student is on the teacher's screen (a screen change brings them all).
        "free": students may go back, and forward up to the teacher's screen.
    paused : bool
        The teacher paused the class: students' pages say "eyes on the teacher".
    """

    plan: str
    count: int
    at: int = 0
    pacing: Pacing = "held"
    paused: bool = False

    @property
    def digest(self) -> str:
        """A short name of the plan's text: a student reads the plan again when it changes."""
        return hashlib.sha256(self.plan.encode()).hexdigest()[:16]

    def as_dict(self) -> dict[str, Any]:
        return {
            "plan": self.plan,
            "count": self.count,
            "at": self.at,
            "pacing": self.pacing,
            "paused": self.paused,
        }

    @classmethod
    def from_dict(cls, held: Any) -> ClassLesson | None:
        """The value :meth:`as_dict` wrote, or None when ``held`` is not one."""
        if not isinstance(held, dict) or not isinstance(held.get("plan"), str):
            return None
        count, at, pacing = held.get("count"), held.get("at"), held.get("pacing")
        if not isinstance(count, int) or not isinstance(at, int) or pacing not in PACINGS:
            return None
        if not 1 <= count <= MOST_SCREENS or not 0 <= at < count:
            return None
        return cls(held["plan"], count, at, pacing, bool(held.get("paused", False)))


def reachable(lesson: ClassLesson) -> range:
    """The screens (from 0) a student may open: the teacher's alone when held, else every
    screen up to the teacher's."""
    return range(lesson.at, lesson.at + 1) if lesson.pacing == "held" else range(lesson.at + 1)


def allowed_screen(wanted: object, lesson: ClassLesson) -> tuple[int, str | None]:
    """The screen (from 0) a student who asked for screen ``wanted`` (from 1, as a link or
    a button says it, possibly forged) opens, and why not the one asked for, if not (a
    sentence that never repeats what was asked: it may be anything).

    >>> allowed_screen("9", ClassLesson("", 5, at=2, pacing="free"))
    (2, 'The teacher is on screen 3: you can open screens 1 to 3.')
    """
    screens = reachable(lesson)
    last = screens[-1]
    text = str(wanted).strip()
    if not text.isdigit() or len(text) > 4:
        return last, "There is no such screen in this lesson: here is the teacher's."
    number = int(text) - 1
    if number in screens:
        return number, None
    if lesson.pacing == "held":
        return last, f"The teacher holds the class on screen {last + 1}."
    return last, f"The teacher is on screen {last + 1}: you can open screens 1 to {last + 1}."


@dataclass(frozen=True)
class Place:
    """Where one student is in the lesson: its screen (from 0) and whether it follows."""

    screen: int
    following: bool

    def text(self) -> str:
        """What the store keeps: ``"3f"`` (screen 3, following) or ``"3e"`` (exploring)."""
        return f"{self.screen}{'f' if self.following else 'e'}"

    @classmethod
    def read(cls, text: str) -> Place | None:
        number, mark = text[:-1], text[-1:]
        if not number.isdigit() or len(number) > 4 or mark not in ("f", "e"):
            return None
        return cls(int(number), mark == "f")


@dataclass(frozen=True)
class Progress:
    """The class's places, counted: students per screen (from 0) and how many follow."""

    per_screen: tuple[int, ...]
    following: int

    @property
    def students(self) -> int:
        return sum(self.per_screen)


def progress(places: Mapping[str, str], present: Iterable[str], count: int) -> Progress:
    """Count the places of the seats in ``present`` (seats that left or went quiet are not
    counted; a place on no screen of the lesson is not either)."""
    read = [Place.read(places[seat]) for seat in present if seat in places]
    kept = [place for place in read if place is not None and 0 <= place.screen < count]
    on = Counter(place.screen for place in kept)
    return Progress(tuple(on[n] for n in range(count)), sum(p.following for p in kept))


__all__ = [
    "MOST_SCREENS",
    "PACINGS",
    "PACING_WORDS",
    "ClassLesson",
    "Pacing",
    "Place",
    "Progress",
    "allowed_screen",
    "progress",
    "reachable",
]
