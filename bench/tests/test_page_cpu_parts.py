"""``bench.page_cpu``'s shared script cache: AppTest runs compile a script once, as a server."""

from __future__ import annotations

from pathlib import Path

import pytest
import streamlit.testing.v1.app_test as app_test_module
import streamlit.testing.v1.local_script_runner as local_runner_module
from streamlit.runtime.scriptrunner import magic as magic_module
from streamlit.testing.v1 import AppTest

from bench.page_cpu import shared_script_cache

SCRIPT = "import streamlit as st\nst.write(st.session_state.setdefault('runs', 0))\n"


def _compiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared: bool) -> int:
    """How many times three runs of one small script compile it."""
    path = tmp_path / "app.py"
    path.write_text(SCRIPT)
    compiled = []
    original = magic_module.add_magic

    def counting(*args: object, **kwargs: object) -> object:
        compiled.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(magic_module, "add_magic", counting)
    if shared:
        with shared_script_cache():
            app = AppTest.from_file(str(path)).run()
            app.run()
            app.run()
    else:
        app = AppTest.from_file(str(path)).run()
        app.run()
        app.run()
    assert not app.exception
    return len(compiled)


def test_shared_cache_compiles_once_where_apptest_compiles_every_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _compiles(tmp_path, monkeypatch, shared=False) == 3
    assert _compiles(tmp_path, monkeypatch, shared=True) == 1


def test_the_cache_is_streamlits_own_again_afterwards() -> None:
    before = (app_test_module.ScriptCache, local_runner_module.ScriptCache)
    with shared_script_cache() as cache:
        assert app_test_module.ScriptCache() is cache
        assert local_runner_module.ScriptCache() is cache
    assert (app_test_module.ScriptCache, local_runner_module.ScriptCache) == before
