"""A Redis restart loses no class: over a redis-server that keeps its data (append-only file),
stopped mid-class and started again, the class, its version, its seats, its poll's answers and
the seats' key all come back, and the same store object serves again without being made anew."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.classroom import ChoiceAnswer, Classroom, Shown, StoreDown, choice_poll
from core.classroom.seats import SECRET_VARIABLE
from core.classroom.store import RedisStore
from tests.classroom.kept_redis import start_kept_redis

pytestmark = pytest.mark.live

TREE = Shown("pages/1_Single_tree.py", {"dataset": "iris", "max_depth": "3"})


def test_a_class_survives_a_restart_of_a_store_that_keeps_its_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, redis_installed: None
) -> None:
    monkeypatch.delenv(SECRET_VARIABLE, raising=False)  # the key lives in the store
    server = start_kept_redis(tmp_path)
    try:
        room = Classroom(RedisStore(server.url, timeout=0.2))
        teacher = room.start(TREE)
        seats = [room.new_seat(teacher.code) for _ in range(3)]
        for seat in seats:
            room.check_in(teacher.code, seat)
        poll = room.ask(teacher, choice_poll(0, "Deeper?", ["yes", "no"]))
        room.answer(teacher.code, poll, seats[0], ChoiceAnswer(1))
        version = room.version(teacher.code)

        server.stop()
        with pytest.raises(StoreDown):
            room.version(teacher.code)

        server = start_kept_redis(tmp_path, server.port)
        assert room.version(teacher.code) == version
        assert room.owns(teacher)  # the teacher is still the teacher
        assert room.students(teacher.code) == 3  # still seated
        assert room.answers(teacher.code, poll) == {seats[0]: ChoiceAnswer(1)}
        # A replica that starts now reads the same key: the seats given before still count.
        later = Classroom(RedisStore(server.url))
        assert all(later.seated(teacher.code, seat) for seat in seats)
    finally:
        server.stop()
