"""Class mode through the real pages: a teacher's session and students' sessions, one store.

AppTest runs every session in this process, so they share the server's class store (a
``MemoryStore`` behind ``st.cache_resource``) exactly as the sessions of one replica do. A
student's timer check is a fragment run; here a student's ``run()`` reads the same version
first, as a page run does.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from page_helpers import (
    HOME,
    RANDOM_FOREST,
    ROOT,
    SINGLE_TREE,
    assert_healthy,
    block,
    chart_spec,
    open_page,
    raw_query_of,
    values,
)
from streamlit.testing.v1 import AppTest

from core.app.pages import GROW_STEP_BY_STEP
from core.classroom import ALPHABET, CODE_LENGTH, MISSES_PER_ADDRESS, Membership, limits
from core.classroom import check as protocol
from core.classroom.store import REDIS_URL_VARIABLE, RedisStore
from core.ui.classroom import classroom
from core.ui.classroom.ask import ASK_POPOVER
from deploy.redis_server import RedisServer, start_redis

STEP_PAGE = ROOT / GROW_STEP_BY_STEP.path


def seat(app: AppTest) -> Membership | None:
    held: Membership | None = app.session_state["_arboretum"].seat
    return held


def problem(app: AppTest) -> str | None:
    held: str | None = app.session_state["_arboretum"].class_problem
    return held


def opened(path: Any) -> AppTest:
    """``path`` opened as the app opens it: from app.py, so every page is known."""
    app = open_page(HOME)
    if path != HOME:
        app.switch_page(str(path.relative_to(ROOT))).run()
    return app


def start_class(path: Any = SINGLE_TREE) -> tuple[AppTest, str]:
    teacher = opened(path)
    teacher.button(key="class-start").click().run()
    assert_healthy(teacher)
    held = seat(teacher)
    assert held is not None and held.teaching
    return teacher, held.code


def join(code: str, path: Any = HOME) -> AppTest:
    student = opened(path)
    student.query_params["class"] = code
    student.run()
    assert_healthy(student)
    return student


def page_of(app: AppTest) -> str:
    return str(app.session_state["_arboretum"].page)


def test_a_class_code_is_short_and_has_no_look_alikes() -> None:
    _, code = start_class()
    assert len(code) == CODE_LENGTH
    assert set(code) <= set(ALPHABET)
    assert not set(code) & set("0O1IL2Z5S8B")


def test_a_student_follows_the_teachers_settings_and_page() -> None:
    teacher, code = start_class()
    student = join(code)
    assert seat(student) is not None and seat(student).following  # type: ignore[union-attr]
    assert page_of(student) == "pages/1_Single_tree.py"  # the home page moved to the teacher's

    teacher.select_slider(key="max_depth").set_value(2).run()
    teacher.selectbox(key="dataset").set_value("wine").run()
    student.run()  # what the fragment's check does every second
    assert_healthy(student)
    assert student.select_slider(key="max_depth").value == 2
    assert student.selectbox(key="dataset").value == "wine"
    assert raw_query_of(student) == raw_query_of(teacher)

    teacher.switch_page(str(RANDOM_FOREST.relative_to(ROOT))).run()
    assert_healthy(teacher)
    student.run()
    assert_healthy(student)
    assert page_of(student) == "pages/2_Random_forest.py"
    assert raw_query_of(student) == raw_query_of(teacher)


def test_moving_a_control_leaves_the_teacher_and_the_toggle_jumps_back() -> None:
    teacher, code = start_class()
    student = join(code, SINGLE_TREE)
    student.run()
    student.select_slider(key="max_depth").set_value(7).run()
    assert_healthy(student)
    assert not seat(student).following  # type: ignore[union-attr]

    teacher.select_slider(key="max_depth").set_value(2).run()
    student.run()
    assert student.select_slider(key="max_depth").value == 7  # exploring alone

    student.toggle(key="class-follow").set_value(True).run()
    student.run()
    assert seat(student).following  # type: ignore[union-attr]
    assert student.select_slider(key="max_depth").value == 2


def follow_caption(app: AppTest) -> str:
    return next(c.value for c in app.sidebar.caption if "teacher" in c.value)


def test_the_toggle_turns_off_in_the_run_where_a_student_moves_a_control() -> None:
    """The toggle and its caption are drawn before the page writes its settings, so the run
    that finds the move must draw them again: one click on the toggle then follows."""
    teacher, code = start_class()
    student = join(code, SINGLE_TREE)
    teacher.select_slider(key="max_depth").set_value(2).run()
    student.run()
    assert student.select_slider(key="max_depth").value == 2
    assert student.toggle(key="class-follow").value is True
    assert follow_caption(student).startswith("Your page follows the teacher's")

    student.select_slider(key="max_depth").set_value(7).run()
    assert_healthy(student)
    assert not seat(student).following  # type: ignore[union-attr]
    assert any("explore on your own" in t.value for t in student.toast)
    assert student.toggle(key="class-follow").value is False
    assert follow_caption(student).startswith("You explore on your own")

    toggle = student.toggle(key="class-follow")
    toggle.set_value(not toggle.value).run()  # one click
    assert_healthy(student)
    assert seat(student).following  # type: ignore[union-attr]
    assert student.toggle(key="class-follow").value is True
    assert follow_caption(student).startswith("Your page follows the teacher's")
    assert student.select_slider(key="max_depth").value == 2
    assert raw_query_of(student) == raw_query_of(teacher)


def test_the_sidebar_says_whom_a_student_follows_and_counts_the_class() -> None:
    teacher, code = start_class()
    join(code)
    join(code)
    teacher.run()
    captions = " ".join(c.value for c in teacher.sidebar.caption)
    assert "2 students in the class" in captions
    student = join(code)
    assert any(code in m.value for m in student.sidebar.markdown)
    assert student.toggle(key="class-follow").value is True


def test_a_wrong_code_is_explained_and_tries_are_limited_per_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One window for the whole test: the counters' windows follow the wall clock, and one
    # ending halfway through the tries would start the count again.
    monkeypatch.setattr(limits, "WINDOW", 10**9)
    try:
        student = open_page(HOME)
        student.text_input(key="class-code").input("ZZZZZ")  # Z is not in the alphabet
        student.button(key="FormSubmitter:class-join-Join the class").click().run()
        assert seat(student) is None
        assert "No class has the code" in (problem(student) or "")
        assert any("ZZZZZ" in i.value for i in student.sidebar.info)
        for _ in range(MISSES_PER_ADDRESS):
            student.query_params["class"] = "KXKXK"
            student.run()
        assert "Too many codes tried" in (problem(student) or "")
        assert_healthy(student)
        # A new session from the same address (a reload) tries no more, even a live code.
        _, code = start_class()
        again = join(code)
        assert seat(again) is None
        assert "Too many codes tried" in (problem(again) or "")
    finally:
        classroom.clear()  # the next tests' sessions share this address


def test_a_hostile_code_shows_as_text() -> None:
    student = open_page(HOME, **{"class": "<b>**x**</b>"})
    assert_healthy(student)
    shown = " ".join(i.value for i in student.sidebar.info)
    assert "<b>" not in shown.replace("\\<b\\>", "")


def test_the_teacher_ends_the_class_and_students_are_told() -> None:
    teacher, code = start_class()
    student = join(code)
    teacher.button(key="class-end").click().run()
    assert seat(teacher) is None
    student.run()
    assert_healthy(student)
    assert seat(student) is None
    assert "ended" in (problem(student) or "")
    assert not classroom().exists(code)


def test_only_the_teacher_controls_the_class() -> None:
    _, code = start_class()
    student = join(code)
    held = seat(student)
    assert held is not None and not held.teaching
    keys = {b.key for b in student.sidebar.button}
    assert "class-end" not in keys and "class-show-code" not in keys


@pytest.mark.parametrize("path", [SINGLE_TREE, STEP_PAGE])
def test_a_class_survives_an_unreachable_store(path: Any, monkeypatch: Any) -> None:
    from core.classroom.store import StoreDown

    teacher, code = start_class(path)
    student = join(code, path)

    def down(*args: Any, **kwargs: Any) -> Any:
        raise StoreDown("test: the store is down")

    monkeypatch.setattr(type(classroom().store), "get", down)
    student.run()
    assert_healthy(student)
    assert seat(student) is None
    assert "cannot be reached" in (problem(student) or "")
    teacher.run()
    assert_healthy(teacher)


def test_a_choice_question_counts_every_answer_and_reveals() -> None:
    teacher, code = start_class()
    students = [join(code) for _ in range(3)]
    teacher.text_input(key="class-question").input("Will test accuracy rise at depth 8?")
    teacher.text_area(key="class-options").input("Yes\nNo\n<b>Maybe</b>")
    teacher.button(key="FormSubmitter:class-ask-Ask").click().run()
    assert_healthy(teacher)
    poll = classroom().state(code).poll
    assert poll is not None and poll.kind == "choice" and len(poll.options) == 3
    for i, student in enumerate(students):
        student.run()
        box = block(student, "class-choice")
        assert "Will test accuracy rise at depth 8?" in box.markdown[0].value
        box.radio[0].set_value([1, 1, 2][i]).run()
        block(student, "class-choice").button[0].click().run()
        assert_healthy(student)
    students[0].radio(key=f"class-choice-{code}-{poll.number}").set_value(0).run()
    block(students[0], "class-choice").button[0].click().run()  # changed: still one answer
    answers = classroom().answers(code, poll)
    assert sorted(a.option for a in answers.values()) == [0, 1, 2]  # type: ignore[union-attr]

    teacher.run()
    spec = chart_spec(teacher, "class-choice")
    assert [int(x) for x in values(spec["data"][0]["x"])] == [1, 1, 1]
    assert "<b>Maybe" not in json.dumps(spec)
    teacher.button(key="class-reveal").click().run()
    students[1].run()
    assert students[1].radio(key=f"class-choice-{code}-{poll.number}").disabled
    teacher.button(key="class-close").click().run()
    students[1].run()
    assert not [b for b in students[1].container if "class-choice" in b.proto.id]


def test_a_number_question_from_the_sidebar_reaches_students_and_is_summed_up() -> None:
    teacher, code = start_class()
    teacher.text_input(key="class-number-question").input("Test accuracy at depth 8?")
    teacher.text_input(key="class-number-unit").input("%")
    teacher.button(key="FormSubmitter:class-ask-number-Ask").click().run()
    assert_healthy(teacher)
    poll = classroom().state(code).poll
    assert poll is not None and poll.kind == "number" and poll.screen is None
    assert poll.question == "Test accuracy at depth 8? (in %)"
    students = [join(code) for _ in range(2)]
    key = f"class-number-{code}-{poll.number}"
    box = block(students[0], "class-choice")
    assert r"Test accuracy at depth 8? \(in %\)" in box.markdown[0].value  # escaped
    for hostile in ("nan", "NaN", "1e999", "-inf", "lots", "ninety"):
        students[0].text_input(key=key).set_value(hostile).run()
        students[0].button(key=f"{key}-send").click().run()
        assert_healthy(students[0])
        assert any("Type a number" in w.value for w in students[0].warning)
    assert classroom().answers(code, poll) == {}
    for student, typed in zip(students, ("80", "92,5 %"), strict=True):
        student.text_input(key=key).set_value(typed).run()
        student.button(key=f"{key}-send").click().run()
        assert any("Sent" in s.value for s in student.success)

    teacher.run()
    assert_healthy(teacher)
    shown = " ".join(m.value for m in block(teacher, "class-choice").markdown)
    assert "2 answers: middle 86.25, from 80 to 92.5" in shown
    spec = chart_spec(teacher, "class-choice")
    assert sum(values(spec["data"][0]["y"])) == 2
    teacher.button(key="class-reveal").click().run()
    students[1].run()
    assert students[1].text_input(key=key).disabled
    assert [c for c in students[1].get("plotly_chart") if "class-number-chart" in c.proto.id]


def test_an_empty_number_question_is_not_asked_and_says_why() -> None:
    teacher, code = start_class()
    teacher.text_input(key="class-number-unit").input("%")
    teacher.button(key="FormSubmitter:class-ask-number-Ask").click().run()
    assert_healthy(teacher)
    assert classroom().state(code).poll is None
    assert any("Type a question first" in w.value for w in teacher.sidebar.warning)


def test_the_step_page_poll_hides_the_answer_counts_answers_and_reveals() -> None:
    teacher, code = start_class(STEP_PAGE)
    teacher.button(key="step-end").click().run()  # the page opens at the first split
    assert not [b for b in teacher.button if b.key == "class-ask-split"]  # the whole tree
    teacher.button(key="step-first").click().run()
    teacher.button(key="step-next").click().run()
    teacher.button(key="class-ask-split").click().run()
    assert_healthy(teacher)
    poll = classroom().state(code).poll
    assert poll is not None and poll.kind == "split"
    student = join(code, STEP_PAGE)
    student.run()
    assert_healthy(student)
    assert any("Hidden while the class answers" in i.value for i in student.info)
    box = block(student, "class-split-poll")
    assert f"node {poll.node}" in box.markdown[0].value
    box.button[0].click().run()  # sends the slider's middle on the first feature
    assert_healthy(student)
    assert len(classroom().answers(code, poll)) == 1
    assert any("Sent:" in s.value for s in student.success)

    teacher.run()
    assert "1 answer" in block(teacher, "class-split-poll").markdown[1].value
    teacher.button(key="class-reveal-split").click().run()
    student.run()
    assert_healthy(student)
    assert not any("Hidden while the class answers" in i.value for i in student.info)
    box = block(student, "class-split-poll")
    assert any("You answered" in m.value for m in box.markdown)
    assert any("the tree's best" in m.value for m in box.markdown)

    # The teacher steps on: the question was about the board before, so it closes.
    teacher.select_slider(key="max_depth").set_value(2).run()
    assert classroom().state(code).poll is None


def test_on_redis_a_class_goes_on_and_a_lost_store_turns_class_mode_off(
    own_redis: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pages over a real redis-server: a class works, the server dies (every page says so
    and goes on alone), a server comes back, and a new class starts."""
    monkeypatch.setenv(REDIS_URL_VARIABLE, own_redis.url)
    classroom.clear()  # the server's store is chosen once: choose again, with Redis
    try:
        assert isinstance(classroom().store, RedisStore)
        teacher, code = start_class()
        student = join(code)
        teacher.select_slider(key="max_depth").set_value(2).run()
        student.run()
        assert student.select_slider(key="max_depth").value == 2

        own_redis.stop()
        student.run()
        teacher.select_slider(key="max_depth").set_value(4).run()
        for app in (student, teacher):
            assert_healthy(app)
            assert seat(app) is None
            assert "cannot be reached" in (problem(app) or "")
        assert teacher.select_slider(key="max_depth").value == 4  # the page works alone

        with start_redis(own_redis.port, own_redis.log.with_name("again.log")):
            teacher.button(key="class-start").click().run()
            assert_healthy(teacher)
            assert seat(teacher) is not None and seat(teacher).code != code  # type: ignore[union-attr]
    finally:
        monkeypatch.delenv(REDIS_URL_VARIABLE)
        classroom.clear()


def test_a_served_app_checks_over_http_and_a_page_run_follows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Started by ``serve.py``, a student's sidebar holds the script that asks
    ``/api/class/CODE`` (no fragment on a timer); the run it asks for opens the teacher's view."""
    monkeypatch.setattr(protocol, "_served", [True])
    teacher, code = start_class()
    student = join(code)
    check = next(e for e in student.sidebar if getattr(e, "key", None) == "class-check")
    data = json.loads(check.proto.json)
    held = seat(student)
    assert held is not None
    assert data["url"] == f"/api/class/{code}"
    assert data["seen"] == held.seen == classroom().version(code)
    assert data["seat"] == held.seat
    assert data["every"] == 1000
    assert (data["retry"], data["retry_max"]) == (5000, 40000)  # its waits to ask again
    assert classroom().seated(code, data["seat"])  # a seat the server signed
    assert "setInterval" in check.proto.js_content and "fetch(" in check.proto.js_content

    teacher.select_slider(key="max_depth").set_value(2).run()
    moved = classroom().version(code)
    assert moved != data["seen"]  # what the script sees: it asks for a run
    student.run()
    assert_healthy(student)
    assert student.select_slider(key="max_depth").value == 2
    check = next(e for e in student.sidebar if getattr(e, "key", None) == "class-check")
    assert json.loads(check.proto.json)["seen"] == moved  # the next checks find nothing new


def test_the_ask_popover_closes_once_the_question_went_and_stays_open_on_a_mistake() -> None:
    teacher, code = start_class()
    teacher.session_state[ASK_POPOVER] = True  # the teacher opened it
    teacher.run()
    teacher.text_input(key="class-question").input("")  # no question: it stays open
    teacher.button(key="FormSubmitter:class-ask-Ask").click().run()
    assert teacher.session_state[ASK_POPOVER] is True
    assert any("Type a question first" in w.value for w in teacher.sidebar.warning)
    teacher.text_input(key="class-question").input("Deeper?")
    teacher.button(key="FormSubmitter:class-ask-Ask").click().run()
    assert_healthy(teacher)
    assert classroom().state(code).poll is not None
    assert teacher.session_state[ASK_POPOVER] is False
