"""What a simulated class's interactions add up to: latency per kind against its goal, the
failover's split between moved and staying students, the class mode's follow latency, the page
loads. Pure: the goals are stated here, before anything is measured.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from typing import Any
from urllib.parse import parse_qsl

from classroom_load.classroom_server import ProcessWatch
from classroom_load.classroom_students import KINDS, Interaction, kind_of
from classroom_load.classroom_targets import Target
from classroom_load.page_load import PageAssets, PageLoad

#: What a classroom run must show to count as served (stated before measuring).
P95_TARGET_S = 1.0


#: Each kind's p95 goal (issue 23); a sidebar link has none of its own, only the goal of all.
KIND_GOALS_S: dict[str, float | None] = {
    "move": 0.5,
    "sidebar": None,
    "link": 3.0,
    "all": P95_TARGET_S,
}


#: The class mode's goal (issue 21): a student's page shows the teacher's change within 2 s.
CLASS_P95_TARGET_S = 2.0


RSS_BUDGET_MIB = 1024.0


#: Server CPU seconds per change, per page: the budget that lets two cores serve a class of 30
#: moving a control every few seconds (30 students / 3 s = 10 changes a second).
CPU_TARGETS_S = {
    "Single_tree": 0.10,
    "Random_forest": 0.30,
    "Gini_vs_entropy": 0.10,
    "Grow_it_step_by_step": 0.10,
}


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank), 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


#: Changes after which the rest of the view may move too: a new dataset resets its controls,
#: and the x feature moved onto the y feature's moves y (Controls.pair keeps them distinct).
CASCADING_KEYS = frozenset({"dataset", "x"})


def _same_setting(shown: str, in_url: str) -> bool:
    """Whether a widget's value and a URL's value say the same (``"3.0"`` and ``"3"`` do)."""
    if shown == in_url:
        return True
    try:
        return float(shown) == float(in_url)
    except ValueError:
        return False


def view_kept(
    query_before: str, query_after: str, key: str, value: str = ""
) -> tuple[bool, bool] | None:
    """Whether a change of control ``key`` to ``value`` kept the view:
    ``(others kept, move applied)``.

    ``others kept``: every setting of the URL but ``key`` is as before; ``move applied``: the
    URL's ``key`` changed. None when the URL cannot tell: ``key`` is not a setting in it (a
    button, a page switch), changing it legitimately moves other settings (a dataset), or
    ``value`` is what the URL already held (the protocol client can pick the value shown:
    it knows a widget's value only from what it sent or the widget's default).
    """
    before, after = dict(parse_qsl(query_before)), dict(parse_qsl(query_after))
    if key not in before or key in CASCADING_KEYS or _same_setting(value, before[key]):
        return None
    others_kept = {k: v for k, v in before.items() if k != key} == {
        k: v for k, v in after.items() if k != key
    }
    return others_kept, after.get(key) != before[key]


def failover_summary(log: list[Interaction], killed: str, killed_at: float) -> dict[str, Any]:
    """What the students on the killed replica and the others went through.

    A student's replica is the one their first interaction was sent to: one websocket carries
    a whole visit, so only the kill moves a student (even one whose first page was loading).
    Each group reports its students, its interactions and errors before and after
    ``killed_at`` (``time.monotonic``), its p95 latency before and after, its reconnects and
    their seconds, and for each change made again after a reconnect whether the view was kept
    (:func:`view_kept`).
    """
    first: dict[int, str] = {}
    for i in sorted(log, key=lambda i: i.started):
        first.setdefault(i.student, i.replica_before)
    groups: dict[str, dict[str, Any]] = {}
    for name, on_killed in (("killed replica", True), ("other replicas", False)):
        students = {who for who, replica in first.items() if (replica == killed) == on_killed}
        mine = [i for i in log if i.student in students]
        before = [i for i in mine if i.started + i.seconds < killed_at]
        after = [i for i in mine if i.started + i.seconds >= killed_at]
        moved = [i for i in mine if i.reconnect_s is not None]
        checks = [(i, view_kept(i.query_before, i.query_after, i.action, i.value)) for i in moved]
        judged = [(i, c) for i, c in checks if c is not None and not i.error]
        groups[name] = {
            "students": len(students),
            "students_reconnected": len({i.student for i in moved}),
            "interactions": len(mine),
            "errors_before": sum(1 for i in before if i.error),
            "errors_after": sum(1 for i in after if i.error),
            "error_examples": sorted({i.error for i in mine if i.error})[:3],
            "p95_before_s": round(percentile([i.seconds for i in before if not i.error], 0.95), 3),
            "p95_after_s": round(percentile([i.seconds for i in after if not i.error], 0.95), 3),
            "reconnect_s": sorted(round(i.reconnect_s or 0.0, 3) for i in moved),
            "change_with_reconnect_s": sorted(round(i.seconds, 3) for i in moved),
            "view_checked": len(judged),
            "view_kept": sum(1 for _, (kept, applied) in judged if kept and applied),
            "view_not_kept": [
                [i.student, i.action, i.query_before, i.query_after]
                for i, (kept, applied) in judged
                if not (kept and applied)
            ],
            "view_not_comparable": [i.action for i, c in checks if c is None or i.error],
        }
    return {"killed": killed, "groups": groups}


def by_kind(log: list[Interaction], uncaught: int = 0) -> dict[str, dict[str, Any]]:
    """Each kind of interaction's numbers (:func:`.classroom_students.kind_of`), then all.

    For each of ``move``, ``sidebar``, ``link`` and ``all``: the interactions that finished
    well, the errors (``all`` adds the ``uncaught`` errors of the server's log), the median,
    p95 and max seconds of those that finished well, and the p95 goal (:data:`KIND_GOALS_S`).
    Links also give the median and p95 of their HTTP part and the MiB it fetched.
    """
    groups: dict[str, list[Interaction]] = {kind: [] for kind in KINDS}
    for i in log:
        groups[kind_of(i.action)].append(i)
    groups["all"] = list(log)
    summary: dict[str, dict[str, Any]] = {}
    for kind, mine in groups.items():
        done = [i.seconds for i in mine if not i.error]
        summary[kind] = {
            "interactions": len(done),
            "errors": sum(1 for i in mine if i.error) + (uncaught if kind == "all" else 0),
            "p50_s": round(statistics.median(done), 3) if done else 0.0,
            "p95_s": round(percentile(done, 0.95), 3),
            "max_s": round(max(done), 3) if done else 0.0,
            "goal_s": KIND_GOALS_S[kind],
        }
    loaded = [i for i in groups["link"] if i.http_s is not None and not i.error]
    http = [i.http_s for i in loaded if i.http_s is not None]
    summary["link"].update(
        http_p50_s=round(statistics.median(http), 3) if http else None,
        http_p95_s=round(percentile(http, 0.95), 3) if http else None,
        http_mib=round(sum(i.http_bytes for i in loaded) / 2**20, 1),
    )
    return summary


def summarize(
    name: str,
    log: list[Interaction],
    target: Target,
    watch: ProcessWatch,
    cpu: float,
    uncaught: list[str],
    load: tuple[str, str],
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One run's numbers, as plain data for the JSON and the table."""
    done = [i.seconds for i in log if not i.error]
    errors = Counter(i.error.split(":")[0] for i in log if i.error)
    if uncaught:
        errors["uncaught in server log"] += len(uncaught)
    by_page: dict[str, list[float]] = {}
    for i in log:
        if not i.error:
            by_page.setdefault(i.page, []).append(i.seconds)
    return {
        "name": name,
        "replicas": len(target.pids),
        "load_before": load[0],
        "load_after": load[1],
        "interactions": len(done),
        "errors": dict(errors),
        "error_examples": sorted({i.error for i in log if i.error})[:5] + uncaught[:3],
        "median_s": round(statistics.median(done), 3) if done else 0.0,
        "p95_s": round(percentile(done, 0.95), 3),
        "max_s": round(max(done), 3) if done else 0.0,
        "p95_by_page_s": {p: round(percentile(v, 0.95), 3) for p, v in sorted(by_page.items())},
        "by_kind": by_kind(log, len(uncaught)),
        "cpu_s": round(cpu, 2),
        "cpu_per_interaction_s": round(cpu / max(1, len(done)), 4),
        "rss_peak_mib": {str(pid): round(watch.peak(pid), 1) for pid in target.pids},
        "rss_end_mib": {str(pid): watch.samples[pid][-1][1] for pid in target.pids},
        "rss_timeline_mib": {str(pid): watch.samples[pid] for pid in target.pids},
        "interaction_log": [
            [i.student, i.page, i.action, round(i.seconds, 3), i.error]
            + (
                [i.replica_before, i.replica, i.reconnect_s]
                if i.replica or i.replica_before
                else []
            )
            for i in log
        ],
        # Each link's HTTP part: seconds and bytes (none without a page load).
        "link_log": [
            [
                i.student,
                i.page,
                i.action,
                round(i.seconds, 3),
                None if i.http_s is None else round(i.http_s, 3),
                i.http_bytes,
                i.error,
            ]
            for i in log
            if kind_of(i.action) == "link"
        ],
        **(extra or {}),
    }


def page_load_summary(assets: PageAssets, loads: dict[str, PageLoad]) -> dict[str, Any]:
    """How the page loads were found, and what a fresh browser's load of each page fetched."""
    return {
        "source": assets.source,
        "pages": {
            path: {
                "requests": load.requests,
                "static_requests": load.static_requests,
                "bytes": load.bytes,
                "seconds": round(load.seconds, 3),
                "error": load.error,
            }
            for path, load in loads.items()
        },
    }


def class_latency(result: dict[str, Any]) -> dict[str, Any]:
    """Median, p95 and max over every student's latency for every change, and the misses."""
    changes = result.get("changes", [])
    values = [x for change in changes for x in change.get("latency_s", [])]
    found: dict[str, Any] = {
        "samples": len(values),
        "median_s": round(statistics.median(values), 3) if values else 0.0,
        "p95_s": round(percentile(values, 0.95), 3),
        "max_s": round(max(values), 3) if values else 0.0,
        "missed": sum(change.get("missed", 0) for change in changes),
    }
    # How long the students' checks took to hear of each move (to ask for the page's run):
    # what of the latency is the check's, not the page run's.
    heard = [x for change in changes for x in change.get("heard_s", [])]
    if heard:
        found["heard_median_s"] = round(statistics.median(heard), 3)
        found["heard_p95_s"] = round(percentile(heard, 0.95), 3)
    # What a move costs, until its last student shows it: the servers', and the driver's own
    # (its simulated browsers share the servers' cores, where a class's laptops would not).
    for part in ("servers", "driver"):
        spent = [change[f"{part}_cpu_s"] for change in changes if f"{part}_cpu_s" in change]
        if spent:
            found[f"move_{part}_cpu_s"] = round(statistics.median(spent), 3)
    return found
