"""Helpers for page tests: open a page by its absolute path, find keyed containers in it."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from core.app import pages
from core.app.settings import default_catalogue, link_meaning
from core.ui.display import HOW_COMPUTED

ROOT = Path(__file__).resolve().parents[2]
HOME = ROOT / pages.HOME.path
SINGLE_TREE = ROOT / pages.SINGLE_TREE.path
RANDOM_FOREST = ROOT / pages.RANDOM_FOREST.path
GINI_VS_ENTROPY = ROOT / pages.GINI_VS_ENTROPY.path
#: Every page with settings, by its URL path (from the registry).
PAGE_FILES = {page.url_path: ROOT / page.path for page in pages.PAGES if page.settings}


def open_page(path: Path, **query: str) -> AppTest:
    """Run ``path`` once, as if opened by a URL with these query parameters."""
    app = AppTest.from_file(str(path), default_timeout=120)
    for name, value in query.items():
        app.query_params[name] = value
    return app.run()


def block(app: AppTest, key: str) -> Any:
    """The container made with ``st.container(key=key)`` (its id is ``$$ID-<hash>-<key>``)."""
    pattern = re.compile(r"\$\$ID-[0-9a-f]+-" + re.escape(key))
    found = [b for b in app.container if pattern.fullmatch(b.proto.id)]
    assert len(found) == 1, f"expected one container keyed {key!r}, found {len(found)}"
    return found[0]


def how_computed_code(app: AppTest) -> list[str]:
    """The sources under "How this is computed", opened as a visitor opens it (a rerun)."""
    app.session_state[HOW_COMPUTED] = True
    app.run()
    return [c.value.strip() for c in block(app, f"{HOW_COMPUTED}-code").code]


def chart_spec(app: AppTest, key: str) -> dict[str, Any]:
    """The Plotly figure inside the keyed container, as a dict."""
    charts = block(app, key).get("plotly_chart")
    assert len(charts) == 1, f"expected one chart in {key!r}, found {len(charts)}"
    return json.loads(charts[0].proto.spec)


def values(data: Any) -> np.ndarray:
    """A Plotly array as the chart's JSON holds it: a list, or base64 bytes with a dtype."""
    if isinstance(data, dict):
        return np.frombuffer(base64.b64decode(data["bdata"]), dtype=data["dtype"])
    return np.asarray(data)


def svg(app: AppTest, key: str = "tree-diagram") -> str:
    """The server-rendered SVG diagram inside the keyed container."""
    texts = [m.value for m in block(app, key).markdown if "<svg" in m.value]
    assert len(texts) == 1, f"expected one SVG in {key!r}"
    return texts[0]


def warnings(app: AppTest) -> list[str]:
    return [w.value for w in app.warning]


def assert_healthy(app: AppTest) -> None:
    """No exception and no friendly failure message on the page."""
    assert not app.exception, [e.value for e in app.exception]
    assert not [w for w in warnings(app) if "could not show" in w], warnings(app)


def raw_query_of(app: AppTest) -> dict[str, str]:
    """The URL a finished run left in the address bar, as ``str`` values."""
    return {k: v if isinstance(v, str) else v[-1] for k, v in app.query_params.items()}


def query_of(app: AppTest) -> dict[str, str]:
    """What the URL a finished run left means: every setting of its page, as text.

    A link leaves out what equals its default (the dataset's own pair, noise and number of
    points included); this writes those values back in, from the table's defaults, never
    from what the session holds.
    """
    raw = raw_query_of(app)
    shown = app.session_state["_arboretum"].page  # the page the run drew (after a switch)
    form = next(page.settings for page in pages.PAGES if page.path == shown and page.settings)
    own = app.session_state["_arboretum"].own
    catalogue = {**default_catalogue(), **(own.catalogue() if own is not None else {})}
    return link_meaning(form, raw, catalogue)


def count_calls(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    """Replace ``owner.name`` by a wrapper that calls it; the list gets a 1 per call."""
    calls: list[int] = []
    real = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls
