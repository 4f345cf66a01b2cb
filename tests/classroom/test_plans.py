"""Lesson files: the shipped ones read whole, a file round-trips, and a bad one says which
screen could not open and why, keeping the rest."""

from __future__ import annotations

import base64
import random
import zlib

import pytest

from core.app.pages import GROW_STEP_BY_STEP, SINGLE_TREE
from core.classroom.plans import (
    FORMAT,
    MOST_BYTES,
    LessonPlan,
    Question,
    Screen,
    page_of,
    plan_from_token,
    plan_token,
    read_plan,
    write_plan,
)
from core.classroom.shipped import ORDER, shipped_plans

GOOD = """
format = 1
title = "Depths"

[[screens]]
link = "Single_tree?dataset=sine&max_depth=1"
words = "One question."

[[screens]]
link = "/Titanic?dataset=iris"
words = "A page that never was."

[[screens]]
link = "Single_tree?dataset=titanic"

[[screens]]
link = "Single_tree?dataset=iris&colour=red"

[[screens]]
words = "No link at all."

[[screens]]
link = "http://localhost:8501/Grow_it_step_by_step?dataset=wine&step=3"
notes = "Ask first."

[screens.question]
kind = "choice"
prompt = "How many leaves?"
options = ["2", "3", "4"]
answer = 3
"""


def test_the_shipped_lessons_read_whole_and_in_homes_order() -> None:
    plans = shipped_plans()
    assert tuple(plans) == ORDER
    for plan in plans.values():
        assert len(plan.screens) >= 3
        assert any(screen.question is not None for screen in plan.screens)
        assert all(screen.words for screen in plan.screens)


@pytest.mark.parametrize("name", ORDER)
def test_a_lesson_written_reads_back_equal_and_fits_a_link(name: str) -> None:
    plan = shipped_plans()[name]
    assert read_plan(write_plan(plan)) == (plan, [])
    token = plan_token(plan)
    assert token is not None
    assert plan_from_token(token) == (plan, [])


def test_a_bad_screen_is_named_with_its_reason_and_the_rest_still_open() -> None:
    plan, problems = read_plan(GOOD)
    assert plan is not None
    assert [screen.link for screen in plan.screens] == [
        "Single_tree?dataset=sine&max_depth=1",
        "Grow_it_step_by_step?dataset=wine&step=3",
    ]
    assert plan.screens[1].page is GROW_STEP_BY_STEP
    assert plan.screens[1].notes == "Ask first."
    assert plan.screens[1].question == Question("choice", "How many leaves?", ("2", "3", "4"), 3.0)
    assert len(problems) == 4
    assert problems[0].startswith("Screen 2: its link names no page of the app")
    assert problems[1].startswith("Screen 3: dataset:") and "titanic" in problems[1]
    assert problems[2].startswith("Screen 4: Single tree has no setting colour")
    assert problems[3].startswith("Screen 5 has no link")


def test_json_reads_as_toml_does() -> None:
    text = '{"title": "J", "screens": [{"link": "Random_forest?n_estimators=10"}]}'
    plan, problems = read_plan(text.encode())
    assert problems == []
    assert plan is not None and plan.title == "J"
    assert plan.screens[0].query == (("n_estimators", "10"),)


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"\xff\xfe\x00garbage", "not a lesson file"),
        (b"title = [unclosed", "not a lesson file"),
        (b"[1, 2, 3]", "not a lesson file"),
        (b"{" * 100_000, "not a lesson file"),
        (b"x" * (MOST_BYTES + 1), "larger than a lesson"),
        (f"format = {FORMAT + 1}\ntitle = 'x'".encode(), "newer than this app reads"),
        (b'format = "1; drop"', "newer than this app reads"),
        (b'title = "No screens"', "no screens"),
        (b'title = "x"\nscreens = "Single_tree"', "no screens"),
    ],
)
def test_what_is_no_lesson_says_so_and_never_raises(content: bytes, says: str) -> None:
    plan, problems = read_plan(content)
    assert plan is None
    assert len(problems) == 1 and says in problems[0]


def test_questions_that_cannot_be_asked_are_left_out_with_the_screen() -> None:
    link = 'link = "Single_tree"\n'
    bad = [
        '[screens.question]\nkind = "essay"\nprompt = "Why?"',
        '[screens.question]\nkind = "choice"\nprompt = "One?"\noptions = ["only"]',
        '[screens.question]\nkind = "choice"\nprompt = "Which?"\noptions = ["a", "b"]\nanswer = 5',
        '[screens.question]\nkind = "number"\nprompt = ""',
        '[screens.question]\nkind = "number"\nprompt = "How many?"\nanswer = "seven"',
    ]
    text = "\n".join(f"[[screens]]\n{link}{question}\n" for question in bad)
    plan, problems = read_plan(text)
    assert plan is not None and len(plan.screens) == 5
    assert [screen.question for screen in plan.screens[:2]] == [None, None]
    assert plan.screens[2].question == Question("choice", "Which?", ("a", "b"), None)
    assert plan.screens[3].question is None
    assert plan.screens[4].question == Question("number", "How many?", (), None)
    assert [problem.split(":")[0] for problem in problems] == [f"Screen {i}" for i in range(1, 6)]


def test_long_words_are_cut_and_said_so() -> None:
    plan, problems = read_plan(f'[[screens]]\nlink = "Single_tree"\nwords = "{"w" * 5000}"\n')
    assert plan is not None and len(plan.screens[0].words) == 2000
    assert problems == ["Screen 1's words is longer than 2000 characters; cut there."]


def test_a_damaged_or_swollen_link_is_refused_politely() -> None:
    token = plan_token(shipped_plans()["how-a-tree-grows"])
    assert token is not None
    bomb = base64.urlsafe_b64encode(zlib.compress(b"#" * 10_000_000, 9)).decode()
    for broken in (token[:-7], "%%%", "", "A" * 5000, bomb):
        plan, problems = plan_from_token(broken)
        assert plan is None, broken[:20]
        assert len(problems) == 1 and "damaged" in problems[0]


def test_a_lesson_too_long_for_a_link_has_no_token() -> None:
    draw = random.Random(4)
    screens = tuple(
        Screen(SINGLE_TREE, (("max_depth", str(i % 20 + 1)),), f"{draw.getrandbits(1200):x}")
        for i in range(20)
    )
    assert plan_token(LessonPlan("Long", screens)) is None


def test_a_link_names_its_page_however_it_was_copied() -> None:
    for link in ("Single_tree?x=1", "/single_tree?x=1", "https://a.example/Single_tree/?x=1"):
        assert page_of(link) == (SINGLE_TREE, {"x": "1"})
    assert page_of("https://a.example/?x=1")[0] is None
