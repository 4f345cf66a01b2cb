"""What a server process spends: CPU seconds and resident memory, read from ``/proc``.

:class:`ProcessWatch` samples every watched process's resident memory (``VmRSS`` in
``/proc/<pid>/status``) a few times a second in a background thread, and reads CPU time
(``utime + stime`` of ``/proc/<pid>/stat``, plus its children's: the ``dot`` processes the
server keeps running, and ``cutime + cstime`` for those it has ended and waited for) whenever
asked. Linux only.
"""

from __future__ import annotations

import os
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

_TICKS = os.sysconf("SC_CLK_TCK")
#: What Streamlit logs when a page's script raised outside any guard.
UNCAUGHT = "Uncaught app execution"


def _stat_fields(pid: int) -> list[str]:
    # The command name (field 2) may hold spaces; the fields after its ")" are fixed.
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def children_of(pid: int) -> list[int]:
    """The running processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int(_stat_fields(int(entry.name))[1]) == pid:
                    found.append(int(entry.name))
            except (FileNotFoundError, ProcessLookupError, IndexError):
                continue
    return found


def cpu_seconds(pid: int) -> float:
    """CPU time of process ``pid`` and its children so far, running or ended, in seconds."""
    utime, stime, cutime, cstime = (int(v) for v in _stat_fields(pid)[11:15])
    ticks = utime + stime + cutime + cstime
    for child in children_of(pid):
        try:
            ticks += sum(int(v) for v in _stat_fields(child)[11:15])
        except (FileNotFoundError, ProcessLookupError):
            continue  # ended between the two reads: its time is in cutime next time
    return ticks / _TICKS


def rss_mib(pid: int) -> float:
    """Resident memory of process ``pid`` (``VmRSS``), in MiB; 0 when it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    match = re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE)
    return int(match.group(1)) / 1024 if match else 0.0


_ARENA_HEAP = 64 * 1024 * 1024  # glibc's HEAP_MAX_SIZE on 64-bit: one thread arena's heap


def memory_breakdown(pid: int) -> dict[str, float]:
    """Resident MiB of process ``pid`` by kind of mapping, from ``/proc/<pid>/smaps``.

    ``thread_arenas`` are glibc's per-thread malloc heaps: anonymous mappings that start on a
    64 MiB boundary (a heap grows inside its reserved 64 MiB from that start). ``main_heap``
    is ``[heap]``; ``other_anonymous`` holds Python's object arenas, blocks above the mmap
    threshold and stacks; ``files`` are the mapped libraries.
    """
    try:
        text = Path(f"/proc/{pid}/smaps").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return {}
    sizes = {"main_heap": 0, "thread_arenas": 0, "other_anonymous": 0, "files": 0}
    kind = "files"
    for line in text.splitlines():
        head = line.split()
        if "-" in head[0] and len(head) >= 5 and ":" not in head[0]:
            start = int(head[0].split("-")[0], 16)
            name = head[5] if len(head) > 5 else ""
            if name == "[heap]":
                kind = "main_heap"
            elif name.startswith("/"):
                kind = "files"
            elif start % _ARENA_HEAP == 0 and not name:
                kind = "thread_arenas"
            else:
                kind = "other_anonymous"
        elif head[0] == "Rss:":
            sizes[kind] += int(head[1])
    return {name: round(kib / 1024, 1) for name, kib in sizes.items()}


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, as ``uptime`` prints them."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


@dataclass
class ProcessWatch:
    """Resident memory over time and CPU time of some server processes.

    Attributes
    ----------
    pids : list of int
        The processes (one per replica).
    interval : float
        Seconds between memory samples.
    samples : dict of int to list of (float, float)
        Per process, ``(seconds since start, MiB)`` pairs.
    """

    pids: list[int]
    interval: float = 0.5
    samples: dict[int, list[tuple[float, float]]] = field(default_factory=dict)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _t0: float = 0.0
    _cpu_seen: dict[int, float] = field(default_factory=dict)

    def start(self) -> ProcessWatch:
        """Start sampling memory in a daemon thread."""
        self._t0 = time.monotonic()
        self.samples = {pid: [] for pid in self.pids}
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self) -> None:
        while not self._stop.is_set():
            now = time.monotonic() - self._t0
            for pid in self.pids:
                self.samples[pid].append((round(now, 2), round(rss_mib(pid), 1)))
                self._read_cpu(pid)
            self._stop.wait(self.interval)

    def _read_cpu(self, pid: int) -> float:
        """CPU seconds of ``pid`` now; for a process gone, the last reading (a killed replica
        keeps what it had spent until the sample before its death)."""
        try:
            seconds = cpu_seconds(pid)
        except (FileNotFoundError, ProcessLookupError):
            return self._cpu_seen.get(pid, 0.0)
        self._cpu_seen[pid] = seconds
        return seconds

    def stop(self) -> None:
        """Stop sampling (after one last sample)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def cpu(self) -> dict[int, float]:
        """CPU seconds of each process so far (see :meth:`_read_cpu` for one that is gone)."""
        return {pid: self._read_cpu(pid) for pid in self.pids}

    def peak(self, pid: int) -> float:
        """The highest resident memory sampled for ``pid``, in MiB."""
        return max((mib for _, mib in self.samples.get(pid, [])), default=0.0)


def log_offsets(logs: list[Path]) -> list[int]:
    """How long each log is now, to read only what is written after."""
    return [log.stat().st_size if log.exists() else 0 for log in logs]


def uncaught_since(logs: list[Path], offsets: list[int]) -> list[str]:
    """Lines after ``offsets`` that report an uncaught exception in a page's script."""
    found = []
    for log, offset in zip(logs, offsets, strict=True):
        if not log.exists():
            continue
        with log.open("rb") as stream:
            stream.seek(offset)
            text = stream.read().decode(errors="replace")
        found += [line for line in text.splitlines() if UNCAUGHT in line]
    return found
