"""The lesson editor's table: a lesson becomes rows and back, an edit is applied once, in the
order the teacher numbers, and an edited lesson is checked as a file is."""

from __future__ import annotations

from core.classroom.plan_table import apply_edits, plan_rows, rows_plan
from core.classroom.plans import Question
from core.classroom.shipped import shipped_plans


def test_every_shipped_lesson_goes_to_rows_and_back_unchanged() -> None:
    for plan in shipped_plans().values():
        assert rows_plan(plan.title, plan_rows(plan)) == (plan, [])


def test_edits_deletions_and_additions_apply_once_and_renumber() -> None:
    rows = plan_rows(shipped_plans()["does-the-criterion-matter"])
    changes = {
        "edited_rows": {0: {"words": "First, iris."}, 2: {"order": 0}},
        "deleted_rows": [1],
        "added_rows": [{"link": "Single_tree?dataset=wine", "words": "A tree on wine."}],
    }
    edited = apply_edits(rows, changes)
    assert [row["order"] for row in edited] == [1, 2, 3]
    assert [row["link"] for row in edited] == [
        rows[2]["link"],
        rows[0]["link"],
        "Single_tree?dataset=wine",
    ]
    assert edited[1]["words"] == "First, iris."
    assert rows[0]["words"] != "First, iris."  # the rows given are not changed
    plan, problems = rows_plan("Mine", edited)
    assert problems == [] and plan is not None
    assert [screen.page.title for screen in plan.screens][-1] == "Single tree"


def test_a_question_typed_in_cells_becomes_a_choice_or_a_number() -> None:
    rows = [
        {"order": 1, "link": "Single_tree", "question": "Which?", "options": "a | b"}
        | {"answer": "2"},
        {"order": 2, "link": "Single_tree", "question": "How many?", "answer": "7.5"},
        {"order": 3, "link": "Single_tree", "question": "Which?", "options": "a|b", "answer": "x"},
        {"order": None, "link": None, "words": None},  # a blank row added and left empty
    ]
    plan, problems = rows_plan("Q", rows)
    assert plan is not None and len(plan.screens) == 3
    assert plan.screens[0].question == Question("choice", "Which?", ("a", "b"), 2.0)
    assert plan.screens[1].question == Question("number", "How many?", (), 7.5)
    assert plan.screens[2].question == Question("choice", "Which?", ("a", "b"), None)
    assert problems == ["Screen 3: its question's answer should be a number; left out."]


def test_an_empty_or_broken_table_says_what_to_do() -> None:
    assert rows_plan("", []) == (None, ["The lesson has no screens yet: add one from any page."])
    plan, problems = rows_plan("", [{"order": "nan", "link": "Nowhere?x=1"}])
    assert plan is None and problems[0].startswith("Screen 1: its link names no page")
