"""Layers never reach up, and no module closes a circle of imports.

The order (``../shared/STYLE.md``, principle 13, and the contributor's guide): the engine and the
data at the bottom, then the pure figure builders, the app's plain-data glue, the class-mode
wing, the Streamlit side, the pages on top. ``server/`` is what ``serve.py`` assembles in front
of Streamlit: it may use the core below the Streamlit side, and nothing in the core uses it.
Every import counts, at the top of a module or inside a function, because a lazy import that
runs up a layer still ties the lower layer to the upper one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("core", "pages", "server", "app.py", "serve.py")

# Lower numbers are lower layers; a module may import its own layer and any layer below.
LAYERS: dict[str, int] = {
    "core.engine": 0,
    "core.data": 0,
    "core": 0,  # the package's face: it names the engine's estimators
    "core.figures": 1,
    "core.app": 2,
    "core.classroom": 3,
    "core.ui": 4,
    "server": 4,
    "pages": 5,
    "app": 5,
    "serve": 6,
}
# Layers that share a rank yet must not know each other.
APART = {("core.engine", "core.data"), ("core.data", "core.engine"), ("core.ui", "server")}
APART |= {("server", "core.ui")}


def module_name(path: Path) -> str:
    """The dotted name a file is imported by."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_files() -> list[Path]:
    """Every Python file of the app and its server."""
    files: list[Path] = []
    for name in SOURCES:
        path = ROOT / name
        if path.is_file():
            files.append(path)
        elif path.is_dir():
            files.extend(sorted(path.rglob("*.py")))
    return files


def layer_of(module: str) -> str | None:
    """The longest layer name that the module belongs to, or None outside the layers."""
    best = None
    for layer in LAYERS:
        if (module == layer or module.startswith(layer + ".")) and (
            best is None or len(layer) > len(best)
        ):
            best = layer
    return best


def imported_modules(path: Path, known: set[str], name: str | None = None) -> set[str]:
    """The project's modules a file imports (``from a import b`` counts ``a.b`` when it is one)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name or module_name(path)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            names = [f"{base}.{alias.name}" for alias in node.names]
            names = [n if n in known else base for n in names]
        else:
            continue
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name:
                found.add(name)
    return found


def import_graph() -> dict[str, set[str]]:
    """Each module of the app and the modules of the app it imports."""
    files = {module_name(p): p for p in source_files()}
    known = set(files)
    return {name: imported_modules(path, known) - {name} for name, path in files.items()}


def test_the_layers_are_known() -> None:
    graph = import_graph()
    assert len(graph) > 50
    unplaced = sorted(m for m in graph if layer_of(m) is None)
    assert unplaced == []


def test_no_import_runs_up_a_layer() -> None:
    graph = import_graph()
    upward = []
    for module, imports in graph.items():
        here = layer_of(module)
        assert here is not None
        for target in imports:
            there = layer_of(target)
            assert there is not None
            if LAYERS[there] > LAYERS[here] or (here, there) in APART:
                upward.append(f"{module} -> {target}")
    assert sorted(upward) == []


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's components of more than one module: each is a circle of imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return circles


def test_no_circles() -> None:
    assert strongly_connected(import_graph()) == []


@pytest.mark.parametrize(
    ("graph", "circles"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, [["a", "b", "c"]]),
        ({"a": {"b"}, "b": {"a"}, "c": {"a"}}, [["a", "b"]]),
    ],
)
def test_circles_are_found(graph: dict[str, set[str]], circles: list[list[str]]) -> None:
    assert strongly_connected(graph) == circles


def test_an_import_up_is_seen(tmp_path: Path) -> None:
    figure = tmp_path / "figure.py"
    figure.write_text("from core.app.words import md\nimport core.ui.cached as cached\n")
    known = {"core.app.words", "core.ui.cached", "core.ui", "core.app"}
    found = imported_modules(figure, known, "core.figures.figure")
    assert found == {"core.app.words", "core.ui.cached"}
