"""The layout's promises: only core/ui and pages import Streamlit; no traceback reaches a page."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("package", ["app", "classroom", "data", "engine", "figures"])
def test_only_core_ui_imports_streamlit(package: str) -> None:
    for source in (ROOT / "core" / package).glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            assert not any(n.split(".")[0] == "streamlit" for n in names), source


def test_no_error_details_reach_the_page() -> None:
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["client"]["showErrorDetails"] == "none"


def test_no_full_garbage_collection_after_every_run() -> None:
    # Streamlit's default collects all generations after every script run: 37% of the server's
    # CPU under a simulated class (README, "Server CPU per change").
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["runner"]["postScriptGC"] is False
