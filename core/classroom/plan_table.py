"""A lesson as a table a teacher edits: one row per screen, in the order of its first column.

The app's lesson editor is a table (Streamlit's data editor: add, delete, edit in place); these
turn a lesson into its rows and rows back into a lesson through the file reader, so an edited
lesson is checked exactly as a file is, with the same messages.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from core.classroom.plans import FORMAT, LessonPlan, Screen, read_plan

#: The editor's columns, in order; "options" holds a choice question's answers, one per line
#: of the cell split at " | ".
COLUMNS: tuple[str, ...] = ("order", "link", "words", "notes", "question", "options", "answer")
OPTION_SEPARATOR = " | "


def screen_row(screen: Screen, order: int) -> dict[str, Any]:
    """One screen as the editor's row."""
    question = screen.question
    answer = None if question is None or question.answer is None else question.answer
    return {
        "order": order,
        "link": screen.link,
        "words": screen.words,
        "notes": screen.notes,
        "question": "" if question is None else question.prompt,
        "options": "" if question is None else OPTION_SEPARATOR.join(question.options),
        "answer": "" if answer is None else f"{answer:g}",
    }


def plan_rows(plan: LessonPlan) -> list[dict[str, Any]]:
    """The lesson's screens as rows, numbered 1, 2, 3..."""
    return [screen_row(screen, order) for order, screen in enumerate(plan.screens, start=1)]


def _cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return str(value).strip()


def _order(row: Mapping[str, Any], position: int) -> float:
    try:
        order = float(_cell(row.get("order")) or position)
    except ValueError:
        return float(position)
    return order if math.isfinite(order) else float(position)


def apply_edits(
    rows: Sequence[Mapping[str, Any]], changes: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """``rows`` after a data editor's changes (``edited_rows`` by position, ``deleted_rows``,
    ``added_rows``), sorted by their order column and renumbered 1, 2, 3..."""
    edited = [dict(row) for row in rows]
    for position, edits in changes.get("edited_rows", {}).items():
        if 0 <= int(position) < len(edited):
            edited[int(position)].update(edits)
    deleted = {int(position) for position in changes.get("deleted_rows", [])}
    kept = [row for position, row in enumerate(edited) if position not in deleted]
    for added in changes.get("added_rows", []):
        kept.append({name: added.get(name, "") for name in COLUMNS} | {"order": len(kept) + 1})
    ordered = sorted(enumerate(kept), key=lambda pair: (_order(pair[1], pair[0] + 1), pair[0]))
    return [row | {"order": number} for number, (_, row) in enumerate(ordered, start=1)]


def rows_plan(title: str, rows: Sequence[Mapping[str, Any]]) -> tuple[LessonPlan | None, list[str]]:
    """The lesson the edited rows make, sorted by their order, or why not (the file reader's
    messages, numbered by the screens' new order). Blank rows are left out."""
    ordered = sorted(enumerate(rows, start=1), key=lambda pair: _order(pair[1], pair[0]))
    screens: list[dict[str, Any]] = []
    for _, row in ordered:
        cells = {name: _cell(row.get(name)) for name in COLUMNS[1:]}
        if not any(cells.values()):
            continue
        screen: dict[str, Any] = {"link": cells["link"], "words": cells["words"]}
        if cells["notes"]:
            screen["notes"] = cells["notes"]
        if cells["question"]:
            options = [o.strip() for o in cells["options"].split("|") if o.strip()]
            question: dict[str, Any] = {
                "kind": "choice" if options else "number",
                "prompt": cells["question"],
            }
            if options:
                question["options"] = options
            if cells["answer"]:
                try:
                    question["answer"] = float(cells["answer"])
                except ValueError:
                    question["answer"] = cells["answer"]  # the reader says why not
            screen["question"] = question
        screens.append(screen)
    if not screens:
        return None, ["The lesson has no screens yet: add one from any page."]
    text = json.dumps({"format": FORMAT, "title": title.strip() or "My lesson", "screens": screens})
    return read_plan(text)


__all__ = ["COLUMNS", "OPTION_SEPARATOR", "apply_edits", "plan_rows", "rows_plan", "screen_row"]
