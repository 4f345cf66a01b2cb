"""core/figures/dot_process.py: long-lived dot processes give the SVG a fresh dot gives."""

from __future__ import annotations

import os
import signal
import threading
from typing import Any

import pytest

from core import RandomForestClassifier
from core.figures import GraphvizRenderError, build_tree_diagram, dot_available, to_dot
from core.figures import render as render_module
from core.figures.dot_process import DotPool, DotProcess
from core.figures.render import _pipe, render_svg

pytestmark = pytest.mark.skipif(not dot_available(), reason="Graphviz 'dot' is not installed")


@pytest.fixture(scope="module")
def tree_dots(iris: Any) -> list[str]:
    """Ten different trees' DOT texts (a forest's trees on all four features)."""
    forest = RandomForestClassifier(n_estimators=10, random_state=0)
    forest.fit(iris.data, iris.target)
    return [
        to_dot(build_tree_diagram(forest, tree_index=i, class_names=["a", "b", "c"]))
        for i in range(10)
    ]


@pytest.fixture
def pool() -> Any:
    made = DotPool(size=2)
    yield made
    made.close()


def test_one_process_lays_out_tree_after_tree_as_a_fresh_dot_would(pool, tree_dots):
    svgs = [pool.render(dot) for dot in tree_dots]
    assert svgs == [_pipe(dot, "svg") for dot in tree_dots]  # byte for byte
    assert len(pool.pids()) == 1  # one process did them all, one after another


def test_a_dot_error_ends_that_process_and_render_svg_still_says_why(pool, tree_dots):
    assert pool.render(tree_dots[0]) is not None
    before = pool.pids()
    assert pool.render("digraph { a -> ; }") is None
    assert pool.pids() == []  # the process that saw the error is gone...
    assert pool.render(tree_dots[1]) == _pipe(tree_dots[1], "svg")  # ...and a new one works
    assert pool.pids() != before
    with pytest.raises(GraphvizRenderError, match="syntax error"):
        render_svg("digraph { a -> ; }")


def test_a_process_that_died_is_replaced(pool, tree_dots):
    pool.render(tree_dots[0])
    (pid,) = pool.pids()
    os.kill(pid, signal.SIGKILL)
    assert pool.render(tree_dots[2]) == _pipe(tree_dots[2], "svg")
    assert pool.pids() != [pid]


def test_a_process_that_stays_silent_is_given_up(tree_dots):
    worker = DotProcess()
    try:
        # An unfinished graph: dot waits for the rest and writes nothing.
        assert worker.render(b"digraph { a -> b", timeout=0.3) is None
    finally:
        worker.close()
    assert worker.process.poll() is not None


def test_threads_at_once_each_get_their_own_tree(pool, tree_dots):
    expected = [_pipe(dot, "svg") for dot in tree_dots]
    got: dict[int, list[bytes | None]] = {}

    def draw(k: int) -> None:
        got[k] = [pool.render(dot) for dot in tree_dots[k:] + tree_dots[:k]]

    threads = [threading.Thread(target=draw, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for k in range(4):
        assert got[k] == expected[k:] + expected[:k]
    assert 1 <= len(pool.pids()) <= 2  # never more processes than the pool's size


def test_a_process_is_renewed_after_its_share_of_graphs(monkeypatch, pool, tree_dots):
    from core.figures import dot_process

    monkeypatch.setattr(dot_process, "RENDERS_PER_PROCESS", 3)
    pool.render(tree_dots[0])
    first = pool.pids()
    pool.render(tree_dots[1])
    pool.render(tree_dots[2])
    assert pool.pids() == []  # its third graph was its last
    pool.render(tree_dots[3])
    assert pool.pids() and pool.pids() != first


def test_render_svg_uses_the_running_processes(monkeypatch, tree_dots):
    calls: list[str] = []
    monkeypatch.setattr(render_module, "_pipe", lambda dot, fmt: calls.append(dot) or b"")
    svg = render_svg(tree_dots[4], fit_width=False)
    assert svg.rstrip().endswith("</svg>") and calls == []


def test_a_forked_child_never_writes_to_its_parents_processes(tree_dots):
    from core.figures.dot_process import POOL

    assert POOL.render(tree_dots[0]) is not None
    parents = POOL.pids()
    assert parents
    child = os.fork()
    if child == 0:  # the child: its pool starts empty, and its own process draws the same tree
        ok = POOL.pids() == [] and POOL.render(tree_dots[0]) == _pipe(tree_dots[0], "svg")
        ok = ok and set(POOL.pids()).isdisjoint(parents)
        POOL.close()
        os._exit(0 if ok else 1)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert POOL.pids() == parents  # the parent's processes are still its own, still idle
