"""The protocol client keeps a page's fragment timers as the browser does, and follows a page
switch the server makes (classroom_load/st_client.py).

The reader's bookkeeping is checked on messages built here, as the server builds them; the
session's behaviour against a tiny real app (``timer_app`` beside it): a fragment with
``run_every=0.3`` reruns without rerunning the page, and a fragment that calls
``st.switch_page`` moves the session to the other page with the query the server wrote.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from classroom_load.st_client import StudentSession
from classroom_load.st_reader import Run, RunReader
from deploy.process import LiveServer
from tests.live_app import free_port, run_beside_playwright, streamlit_command

APP = Path(__file__).parent / "timer_app" / "app.py"


def new_session(page: str, fragments: tuple[str, ...] = ()) -> bytes:
    message = ForwardMsg()
    message.new_session.page_script_hash = page
    message.metadata.run.fragment_ids.extend(fragments)
    return message.SerializeToString()


def markdown(path: tuple[int, ...], body: str) -> bytes:
    message = ForwardMsg()
    message.metadata.delta_path.extend(path)
    message.delta.new_element.markdown.body = body
    return message.SerializeToString()


def auto_rerun(fragment: str, interval: float) -> bytes:
    message = ForwardMsg()
    message.auto_rerun.fragment_id = fragment
    message.auto_rerun.interval = interval
    return message.SerializeToString()


def stop_auto_rerun(*fragments: str) -> bytes:
    message = ForwardMsg()
    message.stop_auto_rerun.fragment_ids.extend(fragments)
    return message.SerializeToString()


def finished(status: int) -> bytes:
    message = ForwardMsg()
    message.script_finished = status  # type: ignore[assignment]
    return message.SerializeToString()


def page_run(reader: RunReader, page: str, *messages: bytes) -> Run | None:
    run = None
    for raw in (new_session(page), *messages, finished(ForwardMsg.FINISHED_SUCCESSFULLY)):
        run = reader.feed(raw)
    return run


def test_a_timer_stays_through_fragment_runs_and_a_page_run_sets_it_anew() -> None:
    reader = RunReader()
    page_run(reader, "home", markdown((0, 0), "Home"), auto_rerun("f1", 1.0))
    first = reader.timers["f1"]
    assert first.interval == 1.0

    # A fragment run: the timer is the same one (the browser keeps its setInterval), and the
    # page's other elements stay on screen under the fragment's new one.
    for raw in (new_session("home", ("f1",)), markdown((0, 1), "tick 2"), auto_rerun("f1", 1.0)):
        assert reader.feed(raw) is None
    run = reader.feed(finished(ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY))
    assert run is not None and not run.whole_page and run.fragment_ids == ("f1",)
    assert run.texts() == ["Home", "tick 2"]
    assert reader.timers["f1"] is first
    assert reader.starts == 1

    # A run of the page drops every timer as it starts; the page sets its own again.
    reader.feed(new_session("home"))
    assert reader.timers == {}
    reader.feed(auto_rerun("f1", 1.0))
    again = reader.timers["f1"]
    assert again is not first and again.number > first.number
    reader.feed(finished(ForwardMsg.FINISHED_SUCCESSFULLY))
    assert reader.starts == 2


def test_a_new_interval_replaces_the_timer_and_stop_auto_rerun_drops_it() -> None:
    reader = RunReader()
    page_run(reader, "home", auto_rerun("f1", 1.0), auto_rerun("f2", 2.0))
    held = reader.timers["f1"]
    reader.feed(auto_rerun("f1", 0.5))
    assert reader.timers["f1"] is not held and reader.timers["f1"].interval == 0.5
    reader.feed(stop_auto_rerun("f1"))
    assert list(reader.timers) == ["f2"]
    reader.feed(auto_rerun("", 1.0))  # the browser ignores a timer without a fragment id
    assert list(reader.timers) == ["f2"]


def test_a_page_run_that_ends_for_a_rerun_is_counted_not_returned() -> None:
    reader = RunReader()
    page_run(reader, "home")
    reader.feed(new_session("home"))
    assert reader.feed(finished(ForwardMsg.FINISHED_EARLY_FOR_RERUN)) is None
    run = page_run(reader, "other", markdown((0, 0), "Other"))
    assert reader.stopped_early == {"page": 1}
    assert run is not None and run.page_hash == "other" and run.texts() == ["Other"]


def test_a_fragment_run_told_as_early_still_shows_what_it_drew() -> None:
    # Streamlit rewrites a finished fragment run's status to FINISHED_EARLY_FOR_RERUN when
    # the next run starts before the run's messages have left (forward_msg_queue), and keeps
    # the fragment's elements: Chromium shows them (a teacher's step press that met the
    # class-size timer moved the step in 100 of 100 presses, with 3 such rewrites seen in
    # the server). The client keeps them too, and returns the run.
    reader = RunReader()
    page_run(reader, "home", markdown((0, 0), "Home"), markdown((0, 1), "step 1"))
    reader.feed(new_session("home", ("f1",)))
    reader.feed(markdown((0, 1), "step 2"))
    run = reader.feed(finished(ForwardMsg.FINISHED_EARLY_FOR_RERUN))
    assert run is not None and run.fragment_ids == ("f1",)
    assert run.status == ForwardMsg.FINISHED_EARLY_FOR_RERUN
    assert run.texts() == ["Home", "step 2"]
    assert reader.stopped_early == {"fragment": 1}
    # The next fragment's run (the timer's) starts from what the browser shows.
    reader.feed(new_session("home", ("f2",)))
    reader.feed(markdown((0, 2), "3 students"))
    after = reader.feed(finished(ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY))
    assert after is not None and after.texts() == ["Home", "step 2", "3 students"]


@pytest.fixture(scope="module")
def timer_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    log = tmp_path_factory.mktemp("timer_app") / "server.log"
    with LiveServer.start(streamlit_command(APP, port), port, log) as server:
        yield server.url


async def _idle(url: str) -> tuple[StudentSession, Run, list[Run]]:
    runs: list[Run] = []
    session = await StudentSession(url, timeout=30, on_run=runs.append).connect()
    try:
        opened = await session.open("")
        await asyncio.sleep(1.5)
        return session, opened, runs
    finally:
        await session.close()


def test_a_fragment_reruns_on_its_timer_without_rerunning_the_page(timer_app: str) -> None:
    session, opened, runs = run_beside_playwright(_idle(timer_app))
    assert opened.whole_page and opened.headings() == ["Home"]
    ticks = [run for run in runs if not run.whole_page]
    # 1.5 s at 0.3 s: about five ticks, each sent by the client and run by the server.
    assert 3 <= len(ticks) <= 6, [run.texts() for run in runs]
    assert session.auto_reruns >= len(ticks)
    assert [run.number for run in runs if run.whole_page] == [opened.number] == [1]
    assert session.page_runs == 1
    assert ticks[-1].texts()[-1] == f"tick {len(ticks) + 1}, page runs 1"
    assert ticks[-1].headings() == ["Home"]  # the page stays on screen under the fragment


async def _switched(url: str) -> tuple[StudentSession, Run, int]:
    session = await StudentSession(url, timeout=30).connect()
    try:
        await session.open("", {"go": "1"})
        other = session.pages["other"]
        arrived = await session.wait_for(lambda run: run.page_hash == other, after=1)
        sent = session.auto_reruns
        await asyncio.sleep(1.0)
        return session, arrived, session.auto_reruns - sent
    finally:
        await session.close()


def test_a_switch_the_server_makes_moves_the_page_and_its_query(timer_app: str) -> None:
    session, arrived, sent_after = run_beside_playwright(_switched(timer_app))
    assert arrived.whole_page and arrived.headings() == ["Other"]
    assert arrived.query == session.query == "from=home"
    assert session.page_hash == session.pages["other"]
    assert "came from home" in arrived.texts()
    # The other page has no fragment: its run dropped the timer, and none was sent after.
    assert session.timers == {}
    assert sent_after == 0


def test_a_reference_to_a_cached_new_session_takes_the_references_run() -> None:
    # The server caches a large new_session and sends later ones as a ref_hash with their own
    # metadata: the same page's full run and fragment run differ only there.
    reader = RunReader()
    cached = ForwardMsg()
    cached.new_session.page_script_hash = "home"
    cached.metadata.cacheable = True
    cached.hash = "h1"
    cached.metadata.run.fragment_ids.append("f1")  # first sent for a fragment run
    reader.feed(cached.SerializeToString())
    reader.feed(finished(ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY))
    reference = ForwardMsg()
    reference.ref_hash = "h1"
    reference.metadata.run.script_run_id = "run-2"  # a full run: no fragment ids
    reader.feed(reference.SerializeToString())
    run = reader.feed(finished(ForwardMsg.FINISHED_SUCCESSFULLY))
    assert run is not None and run.whole_page and reader.starts == 1
    assert list(reader.cache["h1"].metadata.run.fragment_ids) == ["f1"]  # the cache is kept


def test_a_run_is_what_its_script_finished_says_it_was() -> None:
    # The frontend reads a run's end by the script_finished's own run identity.
    reader = RunReader()
    start = ForwardMsg()
    start.new_session.page_script_hash = "home"
    start.metadata.run.script_run_id = "run-1"
    start.metadata.run.fragment_ids.append("f1")
    reader.feed(start.SerializeToString())
    end = ForwardMsg()
    end.script_finished = ForwardMsg.FINISHED_SUCCESSFULLY  # type: ignore[assignment]
    end.metadata.run.script_run_id = "run-2"
    run = reader.feed(end.SerializeToString())
    assert run is not None and run.whole_page and run.number == 1
    assert reader.retold == 1


def test_a_fragment_run_never_told_to_end_is_folded_into_the_run_that_followed_it() -> None:
    # A teacher's click on the step page (fragment "steps") met the page's own timer
    # (fragment "tick"): the server began the click's run, then the timer's, and told only
    # the second one's end. The click's run happened (the step moved): the run that ended
    # carries it, or the client would wait for it for ever.
    reader = RunReader()
    page_run(reader, "step", markdown((0, 0), "Step 1"))
    assert reader.feed(new_session("step", ("steps",))) is None
    assert reader.feed(markdown((0, 0), "Step 0")) is None
    assert reader.feed(new_session("step", ("tick",))) is None
    run = reader.feed(finished(ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY))
    assert run is not None and run.fragment_ids == ("tick",) and run.folded == ("steps",)
    assert run.texts() == ["Step 0"]

    # The next run ended on its own: nothing is folded into it.
    reader.feed(new_session("step", ("tick",)))
    again = reader.feed(finished(ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY))
    assert again is not None and again.folded == ()
