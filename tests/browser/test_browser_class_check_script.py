"""The class check's script (``core/ui/classroom/class_check.js``) in Chromium, on its own: how
often a follower's page asks again for a run that has not shown.

A class of 30 on a busy server once asked again all together every 3 s: each ask stopped the
run on its way (or dropped the elements it had not sent yet) and started another, the server
fell further behind, and no page showed the teacher's move for a minute. The script now waits
``retry`` ms, then twice as long at each further ask up to ``retry_max``, each wait within a
fifth either side. Here the server is a stub ``fetch`` that always answers a version the page
never shows, with the waits scaled down so the test takes seconds.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from tests.live_app import ROOT

pytestmark = pytest.mark.browser

SCRIPT = (ROOT / "core" / "ui" / "classroom" / "class_check.js").read_text(encoding="utf-8")
EVERY, RETRY, RETRY_MAX = 20, 200, 1600
#: How late a browser's timer may fire on a loaded machine (the script's own timer is EVERY).
LATE_MS = 400

RUN_SCRIPT = """async ([source, data, firstMs, thenMs]) => {
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  const script = (await import(url)).default;
  let version = 5;
  window.fetch = async () => ({ ok: true, json: async () => ({ version }) });
  const asked = [];
  const parentElement = document.createElement("div");
  const setTriggerValue = (name, value) => asked.push([performance.now(), name, value.version]);
  const stop = script({ data, parentElement, setTriggerValue });
  await new Promise((done) => setTimeout(done, firstMs));
  // The page showed version 5 (its run drew the script again, with `seen` 5); the class moves.
  const moved = performance.now();
  version = 6;
  script({ data: { ...data, seen: 5 }, parentElement, setTriggerValue });
  await new Promise((done) => setTimeout(done, thenMs));
  stop();
  return { asked, moved };
}"""


def test_a_run_that_does_not_show_is_asked_for_again_less_and_less_often(browser: Any) -> None:
    data = {
        "url": "/api/class/CODE",
        "seat": "seat-token",
        "seen": 4,
        "teaching": False,
        "every": EVERY,
        "retry": RETRY,
        "retry_max": RETRY_MAX,
    }
    page = browser.new_page()
    try:
        found = page.evaluate(RUN_SCRIPT, [SCRIPT, data, 5200, 700])
    finally:
        page.close()
    first = [at for at, name, version in found["asked"] if version == 5]
    assert all(name == "moved" for _, name, _ in found["asked"])
    gaps = [b - a for a, b in itertools.pairwise(first)]
    middles = [min(RETRY * 2**n, RETRY_MAX) for n in range(len(gaps))]
    assert len(gaps) >= 3, first  # 200, 400, 800 and 1600 ms fit in 5.2 s
    for gap, middle in zip(gaps, middles, strict=True):
        assert 0.8 * middle - 1 <= gap <= 1.2 * middle + LATE_MS, (gaps, middles)
    assert len(first) <= 6  # asked every 200 ms, it would have asked about 26 times

    # A new version is asked for at once, and asked for again after `retry` (not the longest).
    then = [at for at, _, version in found["asked"] if version == 6]
    assert then and then[0] - found["moved"] <= EVERY * 2 + LATE_MS
    assert len(then) >= 2 and 0.8 * RETRY - 1 <= then[1] - then[0] <= 1.2 * RETRY + LATE_MS
