"""How big the code's modules and functions are, so growth is seen before it hurts.

A module over :data:`MODULE_LINES` lines or a function over :data:`FUNCTION_LINES` lines of code is
a sign that it holds more than one job (``../shared/STYLE.md``, and the contributor's guide). The
limits are checked by ``tests/structure/test_sizes.py``; ``make sizes`` prints the lists.

A function's lines of code leave out its docstring, blank lines and comment-only lines: what a
reader must follow, not what explains it.
"""

from __future__ import annotations

import ast
import io
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WATCHED = ("core", "server", "pages")
MODULE_LINES = 400
FUNCTION_LINES = 60


@dataclass(frozen=True)
class Function:
    """One function (or method) and its lines of code."""

    path: str
    name: str
    line: int
    code_lines: int


def python_files(root: Path = ROOT) -> list[Path]:
    """Every ``.py`` file under the watched folders, sorted."""
    return sorted(p for folder in WATCHED for p in (root / folder).rglob("*.py"))


def module_lines(path: Path) -> int:
    """The number of lines in a file, as ``wc -l`` counts them."""
    return path.read_text(encoding="utf-8").count("\n")


def _code_lines(source: str) -> set[int]:
    """Lines that hold a token of code: not blank, not only a comment, not inside a string alone."""
    lines: set[int] = set()
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in skip or token.type == tokenize.ENDMARKER:
            continue
        lines.update(range(token.start[0], token.end[0] + 1))
    return lines


def _docstring_lines(node: ast.AST) -> set[int]:
    """The lines of a node's docstring, if its body opens with one."""
    body = getattr(node, "body", None)
    if not isinstance(body, list) or not body:
        return set()
    first = body[0]
    is_text = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
    if is_text and isinstance(first.value.value, str):
        return set(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return set()


def functions(path: Path, root: Path = ROOT) -> list[Function]:
    """Every function in a file with its lines of code, docstrings (its own and nested) aside."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    code = _code_lines(source)
    docstrings: set[int] = set()
    for node in ast.walk(tree):
        docstrings |= _docstring_lines(node)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            span = set(range(node.lineno, (node.end_lineno or node.lineno) + 1))
            found.append(
                Function(
                    str(path.relative_to(root)),
                    node.name,
                    node.lineno,
                    len((span & code) - docstrings),
                )
            )
    return found


def large_modules(root: Path = ROOT, limit: int = MODULE_LINES) -> list[tuple[str, int]]:
    """Modules over ``limit`` lines, largest first."""
    sizes = [(str(p.relative_to(root)), module_lines(p)) for p in python_files(root)]
    return sorted(((p, n) for p, n in sizes if n > limit), key=lambda item: -item[1])


def long_functions(root: Path = ROOT, limit: int = FUNCTION_LINES) -> list[Function]:
    """Functions over ``limit`` lines of code, longest first."""
    every = [f for p in python_files(root) for f in functions(p, root)]
    return sorted((f for f in every if f.code_lines > limit), key=lambda f: -f.code_lines)


def main() -> int:
    """Print the modules and functions over the limits."""
    modules = large_modules()
    print(f"modules over {MODULE_LINES} lines in {', '.join(WATCHED)}: {len(modules)}")
    for path, lines in modules:
        print(f"  {lines:5d}  {path}")
    funcs = long_functions()
    print(f"functions over {FUNCTION_LINES} lines of code (docstrings aside): {len(funcs)}")
    for f in funcs:
        print(f"  {f.code_lines:5d}  {f.path}:{f.line} {f.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
