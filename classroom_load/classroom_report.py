"""The classroom benchmark's Markdown: one table per mode, each row a run, goals marked ok or
MISS, written to ``build/classroom/<label>.md`` beside the JSON.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from bench.yardstick import yardstick_line
from classroom_load.classroom_lesson import LESSON_HEADER, lesson_row
from classroom_load.classroom_summary import CLASS_P95_TARGET_S, P95_TARGET_S, RSS_BUDGET_MIB


def _mib(values: dict[str, float]) -> str:
    return " / ".join(f"{v:.0f}" for v in values.values())


def _errors(row: dict[str, Any]) -> str:
    total = sum(row["errors"].values())
    return (
        "0" if not total else f"{total} ({', '.join(f'{k} {v}' for k, v in row['errors'].items())})"
    )


CLASS_HEADER = (
    "| students | replicas | load before / after | interactions | errors | median | p95 | max "
    "| server CPU / interaction | RSS peak (MiB) | RSS end (MiB) | Chromium riders |\n"
    "| ---: | ---: | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
)


def table_row(row: dict[str, Any]) -> str:
    riders = row.get("browsers")
    ride = (
        f"{riders['changes']} changes, p95 {riders['p95_s']:.2f} s, {len(riders['errors'])} errors"
        if riders
        else "-"
    )
    served = "ok" if row["p95_s"] <= P95_TARGET_S and not row["errors"] else "MISS"
    return (
        f"| {row['students']} | {row['replicas']} | {row['load_before']} / {row['load_after']} "
        f"| {row['interactions']} | {_errors(row)} | {row['median_s']:.2f} s "
        f"| {row['p95_s']:.2f} s {served} | {row['max_s']:.1f} s "
        f"| {row['cpu_per_interaction_s']:.3f} s | {_mib(row['rss_peak_mib'])} "
        f"| {_mib(row['rss_end_mib'])} | {ride} |"
    )


KIND_HEADER = (
    "| students | replicas | kind | interactions | errors | p50 | p95 (goal) | max "
    "| a link's HTTP part: p50 / p95 (MiB in all) |\n"
    "| ---: | ---: | --- | ---: | ---: | ---: | --- | ---: | --- |"
)


def kind_rows(row: dict[str, Any]) -> str:
    """A run's numbers by kind of interaction, one row each, each p95 against its goal."""
    lines = []
    for kind, numbers in row["by_kind"].items():
        goal = numbers["goal_s"]
        if goal is None:
            judged = f"{numbers['p95_s']:.2f} s (none)"
        else:
            met = "ok" if numbers["p95_s"] <= goal and not numbers["errors"] else "MISS"
            judged = f"{numbers['p95_s']:.2f} s {met} (≤ {goal:g} s)"
        http = "-"
        if kind == "link" and numbers["http_p50_s"] is not None:
            http = (
                f"{numbers['http_p50_s']:.2f} / {numbers['http_p95_s']:.2f} s "
                f"({numbers['http_mib']:g})"
            )
        lines.append(
            f"| {row['students']} | {row['replicas']} | {kind} | {numbers['interactions']} "
            f"| {numbers['errors']} | {numbers['p50_s']:.2f} s | {judged} "
            f"| {numbers['max_s']:.2f} s | {http} |"
        )
    return "\n".join(lines)


def page_load_line(page_load: dict[str, Any]) -> str:
    """One sentence: what a student's first link to a page fetches, and how it was found."""
    pages = page_load["pages"].values()

    def span(values: list[str]) -> str:
        """``"131-148"``, or one value when every page has the same."""
        low, high = min(values, key=float), max(values, key=float)
        return low if low == high else f"{low}-{high}"

    requests = span([str(p["requests"]) for p in pages])
    static = span([str(p["static_requests"]) for p in pages])
    mib = span([f"{p['bytes'] / 2**20:.1f}" for p in pages])
    return (
        f"A student's first link fetches its page's {requests} requests "
        f"({static} under /static/, {mib} MiB) over six connections; a later link only what "
        "its browser's cache may not reuse (the HTML, the health and host-config checks) and "
        "lazy chunks it never loaded. "
        f"Each page's list of requests: from {page_load['source']}."
    )


FAILOVER_HEADER = (
    "| killed after | students on | students (reconnected) | interactions | errors before / after "
    "| p95 before / after | reconnect (median, max) | change with reconnect (max) "
    "| next run kept the view |\n"
    "| ---: | --- | ---: | ---: | ---: | ---: | --- | ---: | --- |"
)


def failover_rows(row: dict[str, Any]) -> str:
    """The failover table's two rows: the killed replica's students, then the others."""
    failover = row["failover"]
    lines = []
    for name, group in failover["groups"].items():
        times = group["reconnect_s"]
        reconnect = f"{statistics.median(times):.2f} s, {max(times):.2f} s" if times else "-"
        changes = group["change_with_reconnect_s"]
        longest = f"{max(changes):.2f} s" if changes else "-"
        unjudged = len(group["view_not_comparable"])
        kept = (
            f"{group['view_kept']} of {group['view_checked']}"
            + (f" (+{unjudged} not comparable)" if unjudged else "")
            if times
            else "-"
        )
        who = f"{name} ({failover['killed']})" if name == "killed replica" else name
        lines.append(
            f"| {failover['after_s']:g} s | {who} "
            f"| {group['students']} ({group['students_reconnected']}) | {group['interactions']} "
            f"| {group['errors_before']} / {group['errors_after']} "
            f"| {group['p95_before_s']:.2f} s / {group['p95_after_s']:.2f} s | {reconnect} "
            f"| {longest} | {kept} |"
        )
    return "\n".join(lines)


PAGE_HEADER = (
    "| page | interactions | errors | median | p95 | server CPU / change | target |\n"
    "| --- | ---: | --- | ---: | ---: | ---: | ---: |"
)


def page_row(row: dict[str, Any]) -> str:
    met = "ok" if row["cpu_per_interaction_s"] <= row["cpu_target_s"] else "MISS"
    return (
        f"| {row['page']} | {row['interactions']} | {_errors(row)} | {row['median_s']:.2f} s "
        f"| {row['p95_s']:.2f} s | {row['cpu_per_interaction_s']:.3f} s "
        f"| {row['cpu_target_s']:.2f} s {met} |"
    )


MEMORY_HEADER = (
    "| distinct settings | students at once | interactions | errors | p95 | RSS peak (MiB) "
    "| RSS end (MiB) | budget |\n| ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |"
)


def memory_row(row: dict[str, Any]) -> str:
    peak = max(row["rss_peak_mib"].values())
    met = "ok" if peak < RSS_BUDGET_MIB else "MISS"
    return (
        f"| {row['distinct_links']} | {row['concurrent']} | {row['interactions']} "
        f"| {_errors(row)} | {row['p95_s']:.2f} s | {_mib(row['rss_peak_mib'])} "
        f"| {_mib(row['rss_end_mib'])} | {RSS_BUDGET_MIB:.0f} {met} |"
    )


CLASS_MODE_HEADER = (
    "| students | replicas (store) | load before / after | joined, following | teacher's "
    "changes | change to each student's page: median / p95 / max | missed | poll counted "
    "/ sent | idle checks / s | server CPU per idle check: over students who do not check "
    "/ all the class adds | page reruns while idle | websockets closed | answers 503 "
    "| RSS peak / end (MiB) | errors |\n"
    "| ---: | --- | --- | ---: | ---: | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: "
    "| --- | --- |"
)


def class_row(row: dict[str, Any]) -> str:
    """One class mode run as a table row (``P95 goal: 2 s``)."""
    met = "ok" if row["p95_s"] <= CLASS_P95_TARGET_S and not row["missed"] else "MISS"
    poll, idle = row["poll"], row["idle"]
    counted = f"{poll['counted']} / {poll['answers_sent']}" + (" exact" if poll["exact"] else "")
    measured = [c for c in row["changes"] if "latency_s" in c]
    peak = " / ".join(f"{v:.0f}" for v in row["rss_peak_mib"].values())
    end = " / ".join(f"{v:.0f}" for v in row["rss_end_mib"].values())
    broken = row["connections"]
    refused = broken["check_503"] + broken["join_503"]
    return (
        f"| {row['students']} | {row['replicas']} ({row['store']}) "
        f"| {row['load_before']} / {row['load_after']} "
        f"| {row['join']['following']} of {row['students']} | {len(measured)} "
        f"| {row['median_s']:.2f} / {row['p95_s']:.2f} {met} / {row['max_s']:.2f} s "
        f"| {row['missed']} | {counted} | {idle['checks_per_s']:.1f} "
        f"| {idle['cpu_ms_per_check_over_quiet']:.2f} / {idle['cpu_ms_per_check']:.2f} ms "
        f"| {idle['page_runs']} | {broken['websocket_closures']} | {refused} | {peak} / {end} "
        f"| {len(row['errors'])} |"
    )


def heard_line(row: dict[str, Any]) -> list[str]:
    """The part of a change's latency that is the check's: when each student's page asked for
    its run, from the teacher's move (the rest is the page's run and its way back)."""
    if "heard_median_s" not in row:
        return []
    line = (
        f"Heard of each move (the page's run asked for): median {row['heard_median_s']:.2f} s, "
        f"p95 {row['heard_p95_s']:.2f} s after the teacher's move."
    )
    if "move_servers_cpu_s" in row:
        line += (
            f" CPU of a move until its last student shows it (median): servers "
            f"{row['move_servers_cpu_s']:.2f} s, the benchmark's own browsers "
            f"{row['move_driver_cpu_s']:.2f} s."
        )
    return ["", line]


def report(args: argparse.Namespace, results: dict[str, Any]) -> str:
    """The Markdown tables of every mode that ran."""
    parts = [
        f"Classroom benchmark `{args.label}` ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})"
    ]
    if results.get("classes"):
        parts += ["", CLASS_HEADER, *map(table_row, results["classes"])]
        parts += ["", KIND_HEADER, *map(kind_rows, results["classes"])]
        page_load = results["classes"][0].get("page_load")
        if page_load:
            parts += ["", page_load_line(page_load)]
        killed = [row for row in results["classes"] if "failover" in row]
        if killed:
            parts += ["", FAILOVER_HEADER, *map(failover_rows, killed)]
    if results.get("pages"):
        parts += ["", PAGE_HEADER, *map(page_row, results["pages"])]
    if results.get("distinct"):
        parts += ["", MEMORY_HEADER, memory_row(results["distinct"])]
    if results.get("class_mode"):
        parts += ["", CLASS_MODE_HEADER, class_row(results["class_mode"])]
        parts += heard_line(results["class_mode"])
    if results.get("lesson"):
        parts += ["", LESSON_HEADER, lesson_row(results["lesson"], CLASS_P95_TARGET_S)]
        parts += heard_line(results["lesson"])
    for when in ("before", "after"):
        if f"loop_seconds_{when}" in results:
            parts += ["", f"{yardstick_line(results[f'loop_seconds_{when}'])} ({when} the run)"]
    return "\n".join(parts) + "\n"
