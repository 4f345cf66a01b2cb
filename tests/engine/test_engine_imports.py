"""The engine's import rules: plain NumPy, scikit-learn only in compat, no UI libraries.

Read from the source (every import statement of every module of ``core/engine``), so a rule
broken in a branch that rarely runs is caught too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "core" / "engine"
MODULES = sorted(ENGINE.glob("*.py"))


def imported_packages(path: Path) -> set[str]:
    """Top-level package of every module ``path`` imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_the_engine_has_modules() -> None:
    assert {p.name for p in MODULES} >= {"grow.py", "criteria.py", "compat.py", "tree.py"}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_streamlit_or_plotly(path: Path) -> None:
    assert not imported_packages(path) & {"streamlit", "plotly"}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_scikit_learn_only_in_compat(path: Path) -> None:
    if path.name != "compat.py":
        assert "sklearn" not in imported_packages(path)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_the_engine_imports_nothing_else_of_core(path: Path) -> None:
    # core.engine is the bottom layer: the figures and the UI build on it, never the reverse.
    source = ast.parse(path.read_text())
    for node in ast.walk(source):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("core"):
            assert node.module.startswith("core.engine"), node.module


def engine_imports(path: Path) -> set[str]:
    """The engine modules ``path`` imports, at its top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.startswith("core.engine.")
        ):
            found.add(node.module.removeprefix("core.engine."))
    return found


def test_the_engine_modules_import_each_other_one_way() -> None:
    # A circle of imports (compiled -> criteria -> compiled...) means no module of it can be
    # read, or loaded, first. The package's __init__ and __main__ only gather the modules.
    graph = {p.stem: engine_imports(p) for p in MODULES if not p.stem.startswith("__")}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join((*path, module))
        if module not in done:
            for imported in graph.get(module, set()):
                visit(imported, (*path, module))
            done.add(module)

    for module in graph:
        visit(module, ())
