"""Long-lived ``dot -Tsvg`` processes, each laying out graph after graph from its input.

Starting ``dot`` costs more before it reads a line (loading its libraries, fonts and plugins)
than laying out a tree of a few dozen nodes. A page lays out a tree
on most moves, so the server keeps a few ``dot`` processes running and hands each DOT text to
an idle one: ``dot`` reads a graph, writes its SVG, which ends with ``</svg>``, and waits for
the next.

Anything unexpected (``dot`` reports an error, exits, or stays silent past the timeout) ends
that process and returns None: the caller then runs ``dot`` once, the plain way, which gives
the same SVG or the error message a student should see. At most :data:`WORKERS` run at once;
each is replaced after :data:`RENDERS_PER_PROCESS` graphs, so nothing it may leak piles up.
"""

from __future__ import annotations

import atexit
import os
import re
import select
import subprocess
import threading
import time

#: Processes at most: one per core of the two-core server (a third render waits its turn).
WORKERS = 2
#: Graphs one process lays out before it is replaced by a fresh one.
RENDERS_PER_PROCESS = 500
#: Seconds a graph may take before its process is given up on (the caller then runs dot once).
TIMEOUT = 30.0

_END = b"</svg>\n"
#: After its first graph, dot 2.43 names the top group by page and graph ("page0,1_graph0");
#: the SVG is made the same as a fresh dot's ("graph0"), byte for byte.
_NUMBERED_GROUP = re.compile(rb'<g id="page\d+,\d+_graph0"')


class DotProcess:
    """One ``dot -Tsvg`` process, fed one graph at a time."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            ["dot", "-Tsvg"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
        )
        assert self.process.stdout is not None and self.process.stderr is not None
        self._out = self.process.stdout.fileno()
        self._err = self.process.stderr.fileno()
        os.set_blocking(self._out, False)
        os.set_blocking(self._err, False)
        self.renders = 0

    def render(self, dot: bytes, timeout: float = TIMEOUT) -> bytes | None:
        """The SVG of one graph, or None when this process can lay out no more."""
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(dot + b"\n")
            stdin.flush()
        except OSError:
            return None
        out, err = bytearray(), bytearray()
        deadline = time.monotonic() + timeout
        while not out.endswith(_END):
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self._out, self._err], [], [], left)
            for fd in ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:  # dot exited
                    return None
                (out if fd == self._out else err).extend(chunk)
            if b"Error" in err:  # warnings go on; an error leaves the input unread
                return None
        self.renders += 1
        return _NUMBERED_GROUP.sub(b'<g id="graph0"', bytes(out), count=1)

    def close(self) -> None:
        """End the process (closing its input is enough; a kill if it lingers)."""
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
            self.process.wait(timeout=1.0)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()


class DotPool:
    """Up to ``size`` :class:`DotProcess` es shared by every thread of the server."""

    def __init__(self, size: int = WORKERS) -> None:
        self._size = size
        self._slots = threading.BoundedSemaphore(size)
        self._lock = threading.Lock()
        self._idle: list[DotProcess] = []

    def render(self, dot: str) -> bytes | None:
        """``dot``'s SVG from a running process; None if none could make it."""
        with self._slots:
            with self._lock:
                worker = self._idle.pop() if self._idle else None
            svg = None
            if worker is not None:  # it may have died while idle: then once more, fresh
                svg = self._render_with(worker, dot)
            if svg is None:
                try:
                    svg = self._render_with(DotProcess(), dot)
                except OSError:
                    return None
            return svg

    def _render_with(self, worker: DotProcess, dot: str) -> bytes | None:
        svg = worker.render(dot.encode("utf-8"))
        if svg is None or worker.renders >= RENDERS_PER_PROCESS:
            worker.close()
        else:
            with self._lock:
                self._idle.append(worker)
        return svg

    def close(self) -> None:
        """End every idle process (a busy one is ended by the thread using it)."""
        with self._lock:
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.close()

    def forget(self) -> None:
        """Drop the idle processes without ending them: in a forked child they are the
        parent's (the child starts its own when it needs one)."""
        self._idle = []
        self._lock = threading.Lock()  # a thread of the parent may have held these
        self._slots = threading.BoundedSemaphore(self._size)

    def pids(self) -> list[int]:
        """Process ids of the idle processes (for tests)."""
        with self._lock:
            return [worker.process.pid for worker in self._idle]


POOL = DotPool()
atexit.register(POOL.close)
os.register_at_fork(after_in_child=POOL.forget)

__all__ = ["POOL", "RENDERS_PER_PROCESS", "TIMEOUT", "WORKERS", "DotPool", "DotProcess"]
