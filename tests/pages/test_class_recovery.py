"""Class mode through the real pages when the store restarts: over a redis-server that keeps its
data, stopped mid-class, every page says the class cannot be reached and goes on alone; started
again, each page takes its seat back by itself (its next run, which the sidebar's timer asks for):
the notice goes, the student is still seated and follows, the teacher still teaches the same
class."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from page_helpers import HOME, SINGLE_TREE, assert_healthy, open_page
from streamlit.testing.v1 import AppTest

from core.classroom import Membership
from core.classroom.seats import SECRET_VARIABLE
from core.classroom.store import REDIS_URL_VARIABLE, RedisStore
from core.ui.classroom import classroom
from tests.classroom.kept_redis import start_kept_redis

pytestmark = pytest.mark.live


def seat(app: AppTest) -> Membership | None:
    held: Membership | None = app.session_state["_arboretum"].seat
    return held


def problem(app: AppTest) -> str:
    return str(app.session_state["_arboretum"].class_problem or "")


def opened(path: Any) -> AppTest:
    app = open_page(HOME)
    if path != HOME:
        app.switch_page(str(path.relative_to(Path(HOME).parent))).run()
    return app


def test_pages_take_their_seats_back_when_the_store_returns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, redis_installed: None
) -> None:
    server = start_kept_redis(tmp_path)
    monkeypatch.setenv(REDIS_URL_VARIABLE, server.url)
    monkeypatch.delenv(SECRET_VARIABLE, raising=False)
    classroom.clear()  # the server's store is chosen once: choose again, with this Redis
    try:
        assert isinstance(classroom().store, RedisStore)
        teacher = opened(SINGLE_TREE)
        teacher.button(key="class-start").click().run()
        held = seat(teacher)
        assert held is not None and held.teaching
        code = held.code
        student = open_page(HOME, **{"class": code})
        assert seat(student) is not None
        teacher.select_slider(key="max_depth").set_value(2).run()
        student.run()
        assert student.select_slider(key="max_depth").value == 2

        server.stop()
        student.run()
        teacher.run()
        for app in (student, teacher):
            assert_healthy(app)
            assert seat(app) is None
            assert "cannot be reached" in problem(app)
            assert "by itself" in problem(app)
        teacher.select_slider(key="max_depth").set_value(4).run()  # the page works alone
        assert_healthy(teacher)

        server = start_kept_redis(tmp_path, server.port)
        for app in (student, teacher):
            app.run()  # what the sidebar's timer asks for every few seconds
            assert_healthy(app)
            assert problem(app) == ""
            assert not any("cannot be reached" in i.value for i in app.sidebar.info)
        back = seat(teacher)
        assert back is not None and back.teaching and back.code == code
        assert any(f"You teach class `{code}`" in m.value for m in teacher.sidebar.markdown)
        student_seat = seat(student)
        assert student_seat is not None and student_seat.code == code
        assert student.toggle(key="class-follow").value is True

        teacher.select_slider(key="max_depth").set_value(3).run()  # the teacher still leads
        student.run()
        assert student.select_slider(key="max_depth").value == 3
        assert classroom().students(code) >= 1
    finally:
        server.stop()
        monkeypatch.delenv(REDIS_URL_VARIABLE)
        classroom.clear()
