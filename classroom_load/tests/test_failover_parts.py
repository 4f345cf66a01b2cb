"""The failover run's parts that need no server: the cookie jar a reconnecting student keeps,
whether a change kept the view, the split between the killed replica's students and the
others, the ProcessWatch of a process that is gone. (The run itself: ``python -m
classroom_load.classroom --replicas 2 --kill-replica-after ...``; the browser's own reconnect:
tests/deploy/test_failover.py.)"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Awaitable, Callable

import pytest
from websockets.asyncio.server import ServerConnection, serve

from classroom_load.classroom_report import failover_rows
from classroom_load.classroom_server import ProcessWatch
from classroom_load.classroom_students import Interaction
from classroom_load.classroom_summary import failover_summary, view_kept
from classroom_load.st_client import StudentSession, cookie_header, cookies_set


def test_a_set_cookie_adds_or_replaces_by_name_and_drops_attributes() -> None:
    jar = cookies_set({}, ["arboretum_replica=r1; path=/; HttpOnly"])
    assert jar == {"arboretum_replica": "r1"}
    # The load balancer moves the student: same name, new value; other cookies stay.
    moved = cookies_set({**jar, "other": "x"}, ["arboretum_replica=r2; path=/"])
    assert moved == {"arboretum_replica": "r2", "other": "x"}
    assert jar == {"arboretum_replica": "r1"}  # the jar given is not changed
    assert cookies_set(jar, ["garbage", "=novalue"]) == jar


def test_the_cookie_header_names_every_cookie() -> None:
    assert cookie_header({"a": "1", "arboretum_replica": "r2"}) == "a=1; arboretum_replica=r2"
    assert cookie_header({}) == ""


BEFORE = "dataset=wine&max_depth=2&criterion=entropy"


@pytest.mark.parametrize(
    ("after", "key", "expected"),
    [
        ("dataset=wine&max_depth=3&criterion=entropy", "max_depth", (True, True)),
        # The move undone (issue 11's defect): the view is the old one.
        (BEFORE, "max_depth", (True, False)),
        # The move kept but another setting lost: not the view the student had.
        ("dataset=wine&max_depth=3&criterion=gini", "max_depth", (False, True)),
        ("dataset=wine&max_depth=3", "max_depth", (False, True)),
        # Not judged: a new dataset resets the others; a button or a switch is not in the URL.
        ("dataset=iris&max_depth=3", "dataset", None),
        ("dataset=wine&max_depth=2&criterion=entropy&step=1", "step-next", None),
    ],
)
def test_view_kept(after: str, key: str, expected: tuple[bool, bool] | None) -> None:
    assert view_kept(BEFORE, after, key, "3") == expected


def test_x_moved_onto_y_is_not_judged_but_y_moved_is() -> None:
    # Controls.pair keeps the two features distinct: x moved onto y's feature moves y.
    assert view_kept("x=0&y=1", "x=1&y=0", "x", "1") is None
    assert view_kept("x=0&y=1", "x=0&y=2", "y", "2") == (True, True)


def test_a_move_to_the_value_the_url_holds_cannot_be_judged() -> None:
    assert view_kept(BEFORE, BEFORE, "max_depth", "2") is None
    assert view_kept(BEFORE, BEFORE, "max_depth", "2.0") is None
    assert view_kept(BEFORE, BEFORE, "max_depth", "2.5") == (True, False)
    assert view_kept(BEFORE, BEFORE, "criterion", "gini") == (True, False)


def act(who: int, started: float, replica: str, **more: object) -> Interaction:
    """An interaction sent to ``replica`` (``moved_to`` names where a reconnect took it)."""
    fields: dict[str, object] = {"page": "Single_tree", "action": "max_depth", "seconds": 0.5}
    fields.update(more)
    after = fields.pop("moved_to", replica)
    return Interaction(
        student=who,
        started=started,
        replica_before=replica,
        replica=after,  # type: ignore[arg-type]
        **fields,  # type: ignore[arg-type]
    )


def test_failover_summary_splits_the_students_by_the_replica_they_started_on() -> None:
    moved_query = "dataset=wine&max_depth=3"
    log = [
        act(0, 0.0, "r1", action="open", seconds=1.0),
        act(1, 0.5, "r2", action="open", seconds=1.0),
        act(2, 0.7, "r1", action="open", seconds=1.0),
        # Student 3's page was still loading on r1 at the kill: it reconnects to r2.
        act(3, 9.0, "r1", action="open", seconds=2.0, reconnect_s=0.5, moved_to="r2"),
        act(0, 5.0, "r1", seconds=0.4),  # before the kill at 10
        act(1, 6.0, "r2", seconds=0.3),
        # Student 0 acts after the kill: reconnects to r2 and the move is kept.
        act(
            0,
            11.0,
            "r1",
            moved_to="r2",
            seconds=2.5,
            reconnect_s=1.25,
            query_before="dataset=wine&max_depth=2",
            query_after=moved_query,
            value="3",
        ),
        # Student 2's move is undone after the reconnect.
        act(
            2,
            12.0,
            "r1",
            moved_to="r2",
            seconds=3.5,
            reconnect_s=0.75,
            query_before="dataset=wine&max_depth=2",
            query_after="dataset=wine&max_depth=2",
            value="3",
        ),
        act(1, 12.0, "r2", seconds=0.9),
        act(1, 13.0, "r2", seconds=1.0, error="timeout after 60 s"),
    ]
    summary = failover_summary(log, "r1", killed_at=10.0)
    killed, others = summary["groups"]["killed replica"], summary["groups"]["other replicas"]
    assert summary["killed"] == "r1"
    assert (killed["students"], killed["students_reconnected"], killed["interactions"]) == (3, 3, 6)
    assert killed["reconnect_s"] == [0.5, 0.75, 1.25]
    assert killed["change_with_reconnect_s"] == [2.0, 2.5, 3.5]
    assert (killed["view_checked"], killed["view_kept"]) == (2, 1)
    assert killed["view_not_comparable"] == ["open"]
    assert killed["view_not_kept"] == [
        [2, "max_depth", "dataset=wine&max_depth=2", "dataset=wine&max_depth=2"]
    ]
    assert (killed["errors_before"], killed["errors_after"]) == (0, 0)
    assert (others["students"], others["students_reconnected"], others["interactions"]) == (1, 0, 4)
    assert (others["errors_before"], others["errors_after"]) == (0, 1)
    assert others["reconnect_s"] == []
    # Nearest-rank p95 of the successful runs: before [1.0, 0.3] -> 1.0, after [0.9] -> 0.9.
    assert (others["p95_before_s"], others["p95_after_s"]) == (1.0, 0.9)
    table = failover_rows({"failover": {"after_s": 10.0, **summary}})
    first, second = table.splitlines()
    assert "killed replica (r1) | 3 (3) | 6 | 0 / 0 |" in first
    assert "0.75 s, 1.25 s | 3.50 s | 1 of 2 (+1 not comparable) |" in first
    assert second == "| 10 s | other replicas | 1 (0) | 4 | 0 / 1 | 1.00 s / 0.90 s | - | - | - |"


def test_a_watched_process_that_died_keeps_the_cpu_it_had_spent() -> None:
    spin = (
        "import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass\n"
        "print('spent', flush=True)\ntime.sleep(60)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", spin], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline() == "spent\n"
        watch = ProcessWatch([child.pid], interval=0.05).start()
        spent = watch.cpu()[child.pid]  # it sleeps from now on: this is all it spends
        assert spent >= 0.3
        child.kill()
        child.wait()  # reaped: /proc/<pid> is gone
        assert watch.cpu() == {child.pid: spent}
        watch.stop()
    finally:
        child.kill()
        child.wait()


def test_a_websocket_the_server_closes_counts_and_one_the_student_closes_does_not() -> None:
    # What the class bench reports as closures: a load balancer that takes a replica for dead
    # closes its sockets; the bench closing its own at the end is no closure.
    async def close_at_once(socket: ServerConnection) -> None:
        await socket.close()

    async def wait_open(socket: ServerConnection) -> None:
        await socket.wait_closed()

    async def closures(handler: Callable[[ServerConnection], Awaitable[None]]) -> tuple[int, str]:
        async with serve(handler, "127.0.0.1", 0) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            session = await StudentSession(f"http://127.0.0.1:{port}", timeout=5).connect()
            await asyncio.sleep(0.3)
            seen = (session.closures, session.closed_by)
            await session.close()
            assert session.closures == seen[0]
            return seen

    closed, why = asyncio.run(closures(close_at_once))
    assert closed == 1 and why.startswith("connection closed")
    assert asyncio.run(closures(wait_open)) == (0, "")
