"""Where a slider change's time goes, both sides: the server's run and the browser's drawing.

Run with ``python -m bench.latency_profile [--case single-tree] [--changes 8]``. It serves the
app as :mod:`bench.bench_latency` does, with the server's phases logged, opens the case's page
in headless Chromium, makes four changes to warm the caches (both settings walked are then
cached), and then ``--changes`` changes back and forth, each timed as the latency benchmark
times it. For each it prints:

- ``send``: from the key's ``keydown`` to the page's first websocket send (the BackMsg);
- the server's run: its wall time from the BackMsg to the script's end, its CPU
  (``time.thread_time`` of the script thread), and the messages it sent, with their bytes;
- when the page saw the run start and end, and the whole change (``total``);
- the Plotly charts the browser drew anew (a new chart element) and those it kept;
- with ``--js``, the JavaScript's own time by file (Chrome's sampling profiler, over the
  change and the pause before it): Plotly, React, Streamlit's bundle, native work.

It is a measurement, not a test: the load average is printed beside it.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.bench_latency import CASES, Session
from bench.latency_server import Server
from deploy.process import LiveServer
from tests.live_app import ROOT, chromium_path, free_port, launch_chromium, streamlit_flags

#: Records every websocket send of the page, on the page's clock.
SENDS_JS = """() => {
  const send = WebSocket.prototype.send;
  window.__sends = [];
  WebSocket.prototype.send = function (data) {
    window.__sends.push(performance.now());
    return send.call(this, data);
  };
}"""

#: Marks the Plotly charts on the page, then (second call) says which are the marked ones.
MARK_JS = (
    """() => document.querySelectorAll('.js-plotly-plot').forEach((gd) => { gd.__kept = 1; })"""
)
CHARTS_JS = """() => [...document.querySelectorAll('.js-plotly-plot')].map((gd) => {
  const box = gd.closest('[class*="st-key-"]');
  const key = [...(box ? box.classList : [])].find((c) => c.startsWith('st-key-')) || '?';
  return [key.slice(7), gd.__kept === 1];
})"""


def serve(script: str, port: int, log: Path) -> None:
    """``streamlit run script`` in this process, every run's phases appended to ``log``."""
    from streamlit.runtime import app_session
    from streamlit.runtime.scriptrunner import script_runner
    from streamlit.runtime.scriptrunner_utils import script_run_context

    out = log.open("a", buffering=1)
    handle_backmsg = app_session.AppSession.handle_backmsg
    run_script = script_runner.ScriptRunner._run_script
    enqueue = script_run_context.ScriptRunContext.enqueue

    def logged_backmsg(self: Any, msg: Any) -> None:
        out.write(json.dumps({"back": time.perf_counter(), "type": msg.WhichOneof("type")}) + "\n")
        handle_backmsg(self, msg)

    def timed_run(self: Any, rerun_data: Any) -> None:
        start, cpu = time.perf_counter(), time.thread_time()
        out.write(json.dumps({"run": start}) + "\n")
        try:
            run_script(self, rerun_data)
        finally:
            end = {"end": time.perf_counter(), "cpu": time.thread_time() - cpu}
            out.write(json.dumps(end) + "\n")

    def counted(self: Any, msg: Any) -> None:
        out.write(json.dumps({"msg": _kind(msg), "bytes": msg.ByteSize()}) + "\n")
        enqueue(self, msg)

    app_session.AppSession.handle_backmsg = logged_backmsg  # type: ignore[method-assign]
    script_runner.ScriptRunner._run_script = timed_run  # type: ignore[method-assign]
    script_run_context.ScriptRunContext.enqueue = counted  # type: ignore[method-assign]
    from streamlit.web import cli

    cli.main(args=["run", script, *streamlit_flags(port)], prog_name="streamlit")


def _kind(msg: Any) -> str:
    """A forward message's kind: the element or block it adds, or the message's own type."""
    if msg.WhichOneof("type") != "delta":
        return str(msg.WhichOneof("type"))
    delta = msg.delta
    if delta.WhichOneof("type") == "new_element":
        return str(delta.new_element.WhichOneof("type"))
    if delta.WhichOneof("type") == "add_block":
        return "block:" + str(delta.add_block.WhichOneof("type") or "vertical")
    return str(delta.WhichOneof("type"))


def server_side(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """The server's share of one change, from the phase log's lines written during it."""
    back = next(line["back"] for line in lines if line.get("type") == "rerun_script")
    end = [line for line in lines if "end" in line][-1]
    sizes: collections.Counter[str] = collections.Counter()
    counts: collections.Counter[str] = collections.Counter()
    for line in lines:
        if "msg" in line:
            sizes[line["msg"]] += line["bytes"]
            counts[line["msg"]] += 1
    return {
        "wall": (end["end"] - back) * 1000,
        "cpu": sum(line["cpu"] for line in lines if "cpu" in line) * 1000,
        "runs": sum("run" in line for line in lines),
        "sizes": sizes,
        "counts": counts,
    }


def js_by_file(profile: dict[str, Any]) -> collections.Counter[str]:
    """Milliseconds of a CPU profile's samples by the script file (or native task) they hit."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    spent: collections.Counter[str] = collections.Counter()
    for sample, delta in zip(profile["samples"], profile["timeDeltas"], strict=True):
        frame = nodes[sample]["callFrame"]
        name = frame["url"].rsplit("/", 1)[-1] or f"({frame['functionName']})"
        spent[name.split(".")[0]] += delta / 1000
    return spent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", default="single-tree", choices=[c.name for c in CASES])
    parser.add_argument("--changes", type=int, default=8)
    parser.add_argument("--js", action="store_true", help="profile the page's JavaScript too")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--log", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.serve, args.port, args.log)
        return 0
    from playwright.sync_api import sync_playwright

    case = next(c for c in CASES if c.name == args.case)
    print(f"{case.label}: {args.changes} cached changes; load average {_load()}")
    totals: dict[str, list[float]] = collections.defaultdict(list)
    with tempfile.TemporaryDirectory(prefix="arboretum-profile-") as tmp, sync_playwright() as pw:
        browser = launch_chromium(pw, chromium_path())
        port, log = free_port(), Path(tmp) / "phases.jsonl"
        command = [sys.executable, "-m", "bench.latency_profile", "--serve", str(ROOT / "serve.py")]
        command += ["--port", str(port), "--log", str(log)]
        live = LiveServer.start(command, port, Path(tmp) / "server.log")
        with live:
            session = Session(browser, Server(live, Path(tmp) / "no-fits.log"), case)
            for key in ("ArrowRight", "ArrowLeft") * 2:
                session.change(key)
            page = session.page
            page.evaluate(SENDS_JS)
            cdp = session.context.new_cdp_session(page)
            if args.js:
                cdp.send("Profiler.enable")
                cdp.send("Profiler.setSamplingInterval", {"interval": 200})
            for i in range(args.changes):
                before = len(log.read_text().splitlines())
                page.evaluate(MARK_JS)
                if args.js:
                    cdp.send("Profiler.start")
                change = session.change("ArrowRight" if i % 2 == 0 else "ArrowLeft")
                js = js_by_file(cdp.send("Profiler.stop")["profile"]) if args.js else None
                time.sleep(0.2)  # the run's last log lines
                lines = [json.loads(x) for x in log.read_text().splitlines()[before:]]
                server = server_side(lines)
                start = page.evaluate("() => window.__latency.start")
                sends = [t - start for t in page.evaluate("() => window.__sends") if t >= start]
                charts = page.evaluate(CHARTS_JS)
                anew = [key for key, kept in charts if not kept]
                kept = [key for key, kept in charts if kept]
                row = {
                    "total": change.ms,
                    "send": sends[0] if sends else float("nan"),
                    "server wall": server["wall"],
                    "server cpu": server["cpu"],
                    "seen start": change.run_start_ms,
                    "seen end": change.run_end_ms,
                }
                for name, value in row.items():
                    totals[name].append(value)
                print(
                    f"{change.value:>6s} total {change.ms:5.0f} ms | send {row['send']:4.0f} | "
                    f"server: run {server['wall']:4.0f} wall, {server['cpu']:3.0f} CPU, "
                    f"{sum(server['counts'].values())} messages "
                    f"{sum(server['sizes'].values()) / 1024:.0f} KiB | page saw the run "
                    f"{change.run_start_ms:.0f}-{change.run_end_ms:.0f} | charts drawn anew "
                    f"{anew}, kept {kept}"
                )
                if js is not None:
                    print(
                        "    JS self ms: " + ", ".join(f"{k} {v:.0f}" for k, v in js.most_common(8))
                    )
            kinds = ", ".join(
                f"{k} {server['counts'][k]} ({v / 1024:.1f} KiB)"
                for k, v in server["sizes"].most_common(8)
            )
            print(f"last run's messages by kind: {kinds}")
            session.close()
        browser.close()
    print(
        "medians (ms): " + ", ".join(f"{k} {statistics.median(v):.0f}" for k, v in totals.items())
    )
    print(f"load average after: {_load()}  ({os.cpu_count()} CPUs)")
    return 0


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    sys.exit(main())
