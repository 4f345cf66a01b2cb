"""A Redis restarted mid-class, as ``make replicas`` runs it, still has the class and its seats.

The launcher's Redis keeps every write in an append-only file (``deploy.redis_server``,
``persist=True``); a server started again in the same folder reads it back. Stopped as a service
manager stops it (SIGTERM), the class comes back whole: its code, what the teacher shows, the
teacher's secret, the seats, a poll's answers. Killed outright (SIGKILL: a crash, the
out-of-memory killer), it comes back as it was a few seconds earlier: Redis flushes the file every
second, and holds writes back for up to two seconds more while a flush is still running (seen
here on a loaded machine: a kill right after the last answer lost that answer). A Redis without
the file (what the tests' scratch servers are) comes back empty.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from core.classroom import ChoiceAnswer, Classroom, RedisStore, Shown, Teacher, choice_poll
from deploy.redis_server import RedisServer, start_redis
from tests.live_app import free_port

pytestmark = pytest.mark.live

SHOWN = Shown("pages/2_Random_forest.py", {"dataset": "wine", "n_estimators": "50"})
SEATS = ("seat-a", "seat-b", "seat-c")


def teach(server: RedisServer) -> tuple[Teacher, int]:
    """A class under way on ``server``: shown a page, three seats in, a poll with two answers."""
    room = Classroom(RedisStore(server.url))
    teacher = room.start()
    version = room.show(teacher, SHOWN)
    for seat in SEATS:
        room.check_in(teacher.code, seat)
    poll = room.ask(teacher, choice_poll(0, "Which split is better?", ["left", "right"]))
    room.answer(teacher.code, poll, "seat-a", ChoiceAnswer(0))
    room.answer(teacher.code, poll, "seat-b", ChoiceAnswer(1))
    return teacher, room.version(teacher.code) or version


#: Seconds a killed Redis may lose: one between flushes, two more of writes held back while a
#: slow flush runs; a class taught before then is on disk.
AT_RISK_S = 3.5


def restart(server: RedisServer, how: signal.Signals, persist: bool) -> RedisServer:
    """Stop ``server`` with ``how`` (after :data:`AT_RISK_S` for a kill) and start another on its
    port, in its folder."""
    if how == signal.SIGKILL:
        time.sleep(AT_RISK_S)
    server.signal(how)
    server.process.wait(timeout=30)
    server.stop()
    return start_redis(server.port, server.log.with_name("redis-again.log"), persist=persist)


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["stopped", "killed"])
def test_the_class_and_its_seats_outlive_a_restart(
    redis_installed: None, tmp_path: Path, how: signal.Signals
) -> None:
    with start_redis(free_port(), tmp_path / "redis.log", persist=True) as first:
        teacher, version = teach(first)
        with restart(first, how, persist=True) as again:
            room = Classroom(RedisStore(again.url))
            assert room.exists(teacher.code)
            assert room.owns(teacher), "the teacher is still the teacher"
            state = room.state(teacher.code)
            assert state.shown == SHOWN
            assert state.version == version
            assert room.students(teacher.code) == len(SEATS)
            assert state.poll is not None
            answers = room.answers(teacher.code, state.poll)
            assert answers == {"seat-a": ChoiceAnswer(0), "seat-b": ChoiceAnswer(1)}
            # The class goes on: the next move is a new version every follower will see.
            assert room.show(teacher, Shown(SHOWN.page, {"dataset": "iris"})) == version + 1


def test_without_the_file_a_restart_loses_the_class(redis_installed: None, tmp_path: Path) -> None:
    # What the test proves above is the file's doing, not a server that never went away.
    with start_redis(free_port(), tmp_path / "redis.log") as first:
        teacher, _ = teach(first)
        with restart(first, signal.SIGTERM, persist=False) as again:
            assert not Classroom(RedisStore(again.url)).exists(teacher.code)
