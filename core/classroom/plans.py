"""A lesson a teacher prepares: a title and a list of screens, kept as a plain TOML file.

A screen is a link the app already opens (a page and its settings: dataset, depth, lesson view,
step, sample...), the teacher's words for the class, private notes, and optionally a question.
Because a screen is a link, a lesson needs no format of its own for what a page shows, and a
teacher can write one by hand from links copied out of the app::

    format = 1
    title = "How a tree grows"

    [[screens]]
    link = "Single_tree?dataset=sine&max_depth=1"
    words = "One question splits the sine in two."
    notes = "Ask where the split lands before showing it."

    [screens.question]
    kind = "choice"
    prompt = "Which depth fits the noise?"
    options = ["1", "2", "8"]
    answer = 3

Reading a file never raises on its content: what cannot be used comes back as sentences
naming the screen and the reason, and every screen that can open still does. The file is the
teacher's: nothing here stores it.
"""

from __future__ import annotations

import base64
import binascii
import json
import tomllib
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal
from urllib.parse import parse_qsl, urlencode, urlsplit

from core.app.pages import PAGES, Page
from core.app.settings import parse

#: The version of the file format this code writes; files of a later version are refused
#: with a message rather than half read.
FORMAT = 1
#: What a lesson file may weigh: a lesson of a hundred screens is a few tens of kilobytes.
MOST_BYTES = 200_000
MOST_SCREENS = 100
#: Longest words, notes, prompts, options: a screen's words fit above its figures.
MOST_WORDS = 2_000
MOST_OPTIONS = 8
#: The longest lesson a link carries, in characters of its packed form: links of about 2,000
#: characters pass every browser, chat tool and QR code the app makes.
MOST_LINK = 1_800
QuestionKind = Literal["choice", "number"]
KINDS: tuple[str, ...] = ("choice", "number")


@dataclass(frozen=True)
class Question:
    """A question on a screen: multiple choice (``options``) or a number.

    ``answer`` is what the teacher expects (an option's number from 1, or the number), or
    None when the screen itself shows the answer afterwards.
    """

    kind: QuestionKind
    prompt: str
    options: tuple[str, ...] = ()
    answer: float | None = None


@dataclass(frozen=True)
class Screen:
    """One screen: the page it opens with its settings, and what the teacher says there."""

    page: Page
    query: tuple[tuple[str, str], ...]
    words: str = ""
    notes: str = ""
    question: Question | None = None

    @property
    def link(self) -> str:
        """The screen as the link a page shows: ``Single_tree?dataset=sine&max_depth=1``."""
        query = urlencode(self.query)
        return f"{self.page.url_path}?{query}" if query else self.page.url_path


@dataclass(frozen=True)
class LessonPlan:
    """A prepared lesson: a title and its screens, in order."""

    title: str
    screens: tuple[Screen, ...] = field(default=())


def _text(value: object, what: str, problems: list[str], most: int = MOST_WORDS) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        problems.append(f"{what} should be text; left out.")
        return ""
    if len(value) > most:
        problems.append(f"{what} is longer than {most} characters; cut there.")
    return value[:most].strip()


def page_of(link: str) -> tuple[Page | None, dict[str, str]]:
    """The page a link names, by its address (``Single_tree``, ``/Single_tree``, a full URL),
    and its query; the page is None when the link names none of the app's pages."""
    parts = urlsplit(link.strip())
    path = parts.path.rstrip("/").rsplit("/", 1)[-1]
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    for page in PAGES:
        if page.settings is not None and page.url_path.lower() == path.lower():
            return page, query
    return None, query


def _screen_link(raw: Any, where: str) -> tuple[Page, tuple[tuple[str, str], ...]] | str:
    """The page and settings of a screen's link, or why it cannot open."""
    if not isinstance(raw, str) or not raw.strip():
        return f"{where} has no link to open."
    if len(raw) > MOST_WORDS:
        return f"{where}: its link is longer than {MOST_WORDS} characters."
    page, query = page_of(raw)
    if page is None or page.settings is None:
        names = ", ".join(p.url_path for p in PAGES if p.settings is not None)
        return f"{where}: its link names no page of the app (one of {names})."
    unknown = sorted(name for name in query if name not in page.settings.entries)
    if unknown:
        return f"{where}: {page.title} has no setting {', '.join(unknown[:3])}."
    _, notices = parse(page.settings, query)
    if notices:
        return f"{where}: {notices[0]}"
    return page, tuple(query.items())


def _question(raw: Any, where: str, problems: list[str]) -> Question | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or raw.get("kind") not in KINDS:
        problems.append(f"{where}: a question's kind is one of {', '.join(KINDS)}; left out.")
        return None
    prompt = _text(raw.get("prompt"), f"{where}'s question", problems)
    if not prompt:
        problems.append(f"{where}: its question has no prompt; left out.")
        return None
    options: tuple[str, ...] = ()
    if raw["kind"] == "choice":
        given = raw.get("options")
        if not isinstance(given, list) or not 2 <= len(given) <= MOST_OPTIONS:
            problems.append(
                f"{where}: a multiple-choice question has 2 to {MOST_OPTIONS} options; left out."
            )
            return None
        options = tuple(_text(option, f"{where}'s option", problems, 200) for option in given)
    answer = raw.get("answer")
    if isinstance(answer, bool) or not isinstance(answer, int | float | None):
        problems.append(f"{where}: its question's answer should be a number; left out.")
        answer = None
    if answer is not None and options and answer not in range(1, len(options) + 1):
        problems.append(f"{where}: its answer names no option (1 to {len(options)}); left out.")
        answer = None
    return Question(raw["kind"], prompt, options, None if answer is None else float(answer))


def _screen(raw: Any, number: int, problems: list[str]) -> Screen | None:
    where = f"Screen {number}"
    if not isinstance(raw, Mapping):
        problems.append(f"{where} is not a table of link, words and notes; left out.")
        return None
    opened = _screen_link(raw.get("link"), where)
    if isinstance(opened, str):
        problems.append(f"{opened} It is left out.")
        return None
    page, query = opened
    words = _text(raw.get("words"), f"{where}'s words", problems)
    notes = _text(raw.get("notes"), f"{where}'s notes", problems)
    return Screen(page, query, words, notes, _question(raw.get("question"), where, problems))


def read_plan(content: bytes | str) -> tuple[LessonPlan | None, list[str]]:
    """A lesson from a file's content (TOML, or the same fields as JSON).

    Returns
    -------
    plan : LessonPlan or None
        Every screen that can open; None when nothing of the file can be used.
    problems : list of str
        One friendly sentence per thing left out (which screen, and why), safe to show.
    """
    if len(content) > MOST_BYTES:
        return None, [f"This file is larger than a lesson ({MOST_BYTES // 1000} kB at most)."]
    try:
        text = content.decode("utf-8") if isinstance(content, bytes) else content
        data = json.loads(text) if text.lstrip().startswith("{") else tomllib.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None, ["This is not a lesson file: it should be TOML (or JSON) text."]
    if not isinstance(data, dict):
        return None, ["This is not a lesson file: it should hold a title and screens."]
    version = data.get("format", FORMAT)
    if not isinstance(version, int) or isinstance(version, bool) or version > FORMAT:
        return None, [
            f"This lesson is in format {version!s:.10}, newer than this app reads ({FORMAT})."
        ]
    problems: list[str] = []
    title = _text(data.get("title"), "The title", problems, 200) or "A lesson"
    raw_screens = data.get("screens")
    if not isinstance(raw_screens, list) or not raw_screens:
        return None, ["This lesson has no screens ([[screens]] tables, each with a link)."]
    if len(raw_screens) > MOST_SCREENS:
        problems.append(f"Only the first {MOST_SCREENS} screens are read.")
    screens = [
        _screen(raw, number, problems)
        for number, raw in enumerate(raw_screens[:MOST_SCREENS], start=1)
    ]
    kept = tuple(screen for screen in screens if screen is not None)
    return (LessonPlan(title, kept) if kept else None), problems


def _toml(value: str | float) -> str:
    # JSON's string escapes are all valid in a TOML basic string.
    return json.dumps(value, ensure_ascii=False)


def write_plan(plan: LessonPlan) -> str:
    """The lesson as the TOML file :func:`read_plan` reads back to an equal lesson."""
    lines = [f"format = {FORMAT}", f"title = {_toml(plan.title)}"]
    for screen in plan.screens:
        lines += ["", "[[screens]]", f"link = {_toml(screen.link)}"]
        lines += [f"{name} = {_toml(text)}" for name, text in _texts(screen) if text]
        question = screen.question
        if question is not None:
            lines += ["", "[screens.question]", f"kind = {_toml(question.kind)}"]
            lines.append(f"prompt = {_toml(question.prompt)}")
            if question.options:
                lines.append(f"options = [{', '.join(map(_toml, question.options))}]")
            if question.answer is not None:
                answer = question.answer
                lines.append(f"answer = {int(answer) if answer.is_integer() else answer!r}")
    return "\n".join(lines) + "\n"


def class_copy(plan: LessonPlan) -> LessonPlan:
    """The lesson as its class may read it: the teacher's private notes left out."""
    screens = tuple(replace(screen, notes="") for screen in plan.screens)
    return replace(plan, screens=screens)


def plan_token(plan: LessonPlan) -> str | None:
    """The lesson packed for a link (``?lesson=...``): its file, compressed, in URL-safe
    base64; None when it is too long for a link (send the file instead)."""
    packed = base64.urlsafe_b64encode(zlib.compress(write_plan(plan).encode(), 9)).decode()
    return packed.rstrip("=") if len(packed) <= MOST_LINK else None


def plan_from_token(token: str) -> tuple[LessonPlan | None, list[str]]:
    """The lesson a link carries (:func:`plan_token`'s inverse), or why it cannot be read."""
    broken = "This link's lesson is damaged (cut short when copied?): ask for the file."
    if len(token) > MOST_LINK:
        return None, [broken]
    try:
        packed = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        unpacker = zlib.decompressobj()
        content = unpacker.decompress(packed, MOST_BYTES + 1)
    except (binascii.Error, ValueError, zlib.error):
        return None, [broken]
    if not unpacker.eof:
        return None, [broken]
    return read_plan(content)


def _texts(screen: Screen) -> Sequence[tuple[str, str]]:
    return (("words", screen.words), ("notes", screen.notes))


__all__ = [
    "FORMAT",
    "KINDS",
    "LessonPlan",
    "Question",
    "Screen",
    "class_copy",
    "page_of",
    "plan_from_token",
    "plan_token",
    "read_plan",
    "write_plan",
]
