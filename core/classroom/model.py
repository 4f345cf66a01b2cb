"""What a class is made of: its code, what the teacher shows, its polls and their answers.

Plain values, each written to the class's store as JSON and read back from it
(:mod:`core.classroom.room` keeps them); the teacher's session holds a :class:`Teacher`.

The module is pure: no Streamlit.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from core.classroom.lesson_state import ClassLesson

#: Letters and digits that cannot be mistaken for one another when read off a projector
#: (no 0/O/D/Q, 1/I/L, 2/Z, 5/S, 6/G, 8/B, U/V).
ALPHABET = "ACEFHJKMNPRTWXY3479"
CODE_LENGTH = 6
#: Longest question and option a teacher can type, and most options.
QUESTION_CHARACTERS = 200
OPTION_CHARACTERS = 80
UNIT_CHARACTERS = 20
MOST_OPTIONS = 6
#: The largest number answer kept (either sign): beyond any accuracy, depth or count a lesson
#: asks about, and far from where a float loses its whole digits.
MOST_NUMBER = 1e9

PollKind = Literal["split", "choice", "number"]
KINDS: tuple[PollKind, ...] = ("split", "choice", "number")


class NotTeacher(PermissionError):
    """A change of the class asked for without the class's secret."""


class NoClass(LookupError):
    """The class is not (or no longer) in the store: ended, expired, or never started."""


def clean_code(typed: str) -> str | None:
    """The class code in ``typed`` (any case, spaces and dashes ignored), or None if none.

    >>> clean_code(" kx-39 pa ")
    'KX39PA'
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
    kind : {"split", "choice", "number"}
        "split": where will the tree split node ``node`` of the tree ``shown`` draws? Each
        answer is a feature and a threshold. "choice": one of ``options``. "number": a
        number each student types (a test score they expect, a count).
    question : str
        The question as the teacher typed it (shown escaped), or the split question.
    options : tuple of str
        A choice's options.
    shown : Shown or None
        A split poll's page and settings: the tree every answer is scored on.
    node : int
        A split poll's node.
    revealed : bool
        Whether the teacher has revealed the answer (a split) or the counts (a choice, a
        number).
    screen : int or None
        The lesson's screen (from 1) that asked it, when a lesson's screen did: the lesson's
        summary is per screen.
    """

    number: int
    kind: PollKind
    question: str
    options: tuple[str, ...] = ()
    shown: Shown | None = None
    node: int = 0
    revealed: bool = False
    screen: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "kind": self.kind,
            "question": self.question,
            "options": list(self.options),
            "shown": self.shown.as_dict() if self.shown is not None else None,
            "node": self.node,
            "revealed": self.revealed,
            "screen": self.screen,
        }

    @classmethod
    def from_dict(cls, held: Any) -> Poll | None:
        if not isinstance(held, dict) or held.get("kind") not in KINDS:
            return None
        screen = held.get("screen")
        try:
            return cls(
                number=int(held["number"]),
                kind=held["kind"],
                question=str(held["question"]),
                options=tuple(str(option) for option in held.get("options", ())),
                shown=Shown.from_dict(held.get("shown")),
                node=int(held.get("node", 0)),
                revealed=bool(held.get("revealed", False)),
                screen=int(screen) if screen is not None else None,
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


@dataclass(frozen=True)
class NumberAnswer:
    """A student's number (finite, at most :data:`MOST_NUMBER` either way)."""

    value: float


Answer = SplitAnswer | ChoiceAnswer | NumberAnswer


def answer_text(answer: Answer) -> str:
    """What the store keeps of ``answer`` (JSON), read back by :func:`read_answer`."""
    if isinstance(answer, SplitAnswer):
        return json.dumps({"feature": answer.feature, "threshold": answer.threshold})
    if isinstance(answer, NumberAnswer):
        return json.dumps({"value": answer.value})
    return json.dumps({"option": answer.option})


def _fits(value: float) -> bool:
    return math.isfinite(value) and abs(value) <= MOST_NUMBER


def number_answer(typed: str) -> NumberAnswer:
    """The number a student typed: ``0.85``, ``85 %`` (read as 85), ``0,85``, ``1e3``.

    Raises
    ------
    ValueError
        With a friendly message for anything else: no number, NaN, an infinity, or a number
        beyond :data:`MOST_NUMBER`.
    """
    text = typed.strip().removesuffix("%").strip().replace(" ", "")
    if text.count(",") == 1 and "." not in text:
        text = text.replace(",", ".")  # a decimal comma
    try:
        if len(text) > 60:
            raise ValueError(text)
        value = float(text)
    except ValueError:
        raise ValueError("Type a number, like 0.85 or 85.") from None
    if not _fits(value):
        raise ValueError(f"Type a number between {-MOST_NUMBER:,.0f} and {MOST_NUMBER:,.0f}.")
    return NumberAnswer(value)


def read_answer(text: str, poll: Poll) -> Answer | None:
    """The answer ``text`` holds if it fits ``poll``, else None."""
    try:
        held = json.loads(text)
        if poll.kind == "split":
            threshold = float(held["threshold"])
            if not math.isfinite(threshold):
                return None
            return SplitAnswer(int(held["feature"]), threshold)
        if poll.kind == "number":
            value = float(held["value"])
            return NumberAnswer(value) if _fits(value) else None
        option = int(held["option"])
        return ChoiceAnswer(option) if 0 <= option < len(poll.options) else None
    except (ValueError, TypeError, KeyError, OverflowError):
        return None


def choice_counts(poll: Poll, answers: Iterable[Answer]) -> list[int]:
    """How many ``answers`` chose each of ``poll``'s options (other answers are not counted).

    >>> choice_counts(Poll(1, "choice", "Deeper?", ("yes", "no")), [ChoiceAnswer(1)])
    [0, 1]
    """
    counts = [0] * len(poll.options)
    for answer in answers:
        if isinstance(answer, ChoiceAnswer) and 0 <= answer.option < len(counts):
            counts[answer.option] += 1
    return counts


@dataclass(frozen=True)
class ClassState:
    """What a class shows at one version (what a student reads when the version moved)."""

    code: str
    version: int
    shown: Shown | None
    poll: Poll | None
    lesson: ClassLesson | None = None


def number_poll(question: str, screen: int | None = None, unit: str = "") -> Poll:
    """A number question from what the teacher typed (numbered when asked).

    A unit ("%", "leaves") is written after the question, "(in %)", so every student reads
    it and the store keeps a number question as it always has.

    Raises
    ------
    ValueError
        With a friendly message when the question is empty.
    """
    question = " ".join(question.split())
    unit = " ".join(unit.split())[:UNIT_CHARACTERS]
    if not question:
        raise ValueError("Type a question first.")
    after = f" (in {unit})" if unit else ""
    question = question[: QUESTION_CHARACTERS - len(after)] + after
    return Poll(0, "number", question, screen=screen)


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


@dataclass(frozen=True)
class Teacher:
    """What the teacher's session holds: the code, and the secret that alone controls it."""

    code: str
    secret: str = field(repr=False)


__all__ = [
    "ALPHABET",
    "CODE_LENGTH",
    "MOST_NUMBER",
    "MOST_OPTIONS",
    "OPTION_CHARACTERS",
    "QUESTION_CHARACTERS",
    "Answer",
    "ChoiceAnswer",
    "ClassState",
    "NoClass",
    "NotTeacher",
    "NumberAnswer",
    "Poll",
    "PollKind",
    "Shown",
    "SplitAnswer",
    "Teacher",
    "answer_text",
    "choice_counts",
    "choice_poll",
    "clean_code",
    "number_answer",
    "number_poll",
    "read_answer",
]
