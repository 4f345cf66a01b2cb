"""serve.py's warm-up: when the server starts, before it answers, it imports the pages' modules
and loads every compiled loop, so that the first student's page does not."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# In a process of its own: importing ``serve`` changes how asyncio accepts connections, and the
# test needs a process in which nothing was imported or loaded yet.
SCRIPT = """
import asyncio, json, sys
import serve

from core.engine import grow, scan, walk

assert serve.app._user_lifespan is serve.warm_up
loops = {"grow_tree": grow.grow_tree, "score_splits": scan.score_splits,
         "forest_leaves": walk.forest_leaves, "path_of_rows": walk.path_of_rows}
before = {name: len(f.signatures) for name, f in loops.items()}
pages = ("core.ui", "core.figures.tree_dot")
pages_before = [name for name in pages if name in sys.modules]

async def start() -> dict:
    async with serve.warm_up(serve.app):  # the server answers from here on
        return {name: len(f.signatures) for name, f in loops.items()}

loaded_when_answering = asyncio.run(start())
print(json.dumps({"before": before, "pages_before": pages_before,
                  "pages_after": [name for name in pages if name in sys.modules],
                  "loaded_when_answering": loaded_when_answering}))
"""


def test_the_server_loads_the_pages_modules_and_loops_before_it_answers() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=900,
    )
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["before"] == dict.fromkeys(seen["before"], 0), "no loop loaded by the import"
    assert seen["pages_before"] == []
    assert seen["pages_after"] == ["core.ui", "core.figures.tree_dot"]
    # Each loop loaded once, for the one kind of array the engine hands it (core.engine.compiled),
    # before the server answers.
    loaded = seen["loaded_when_answering"]
    assert loaded == dict.fromkeys(loaded, 1), loaded
