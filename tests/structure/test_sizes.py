"""The size limits hold: few long modules, few long functions, none very long.

A module over 400 lines or a function over 60 lines of code is allowed now and then (the growing
loop a student reads is one screen and a half), but their number is watched here, so a module
that quietly takes a second job fails a test before it fails a reader. ``make sizes`` lists them.
"""

from __future__ import annotations

from pathlib import Path

from tests.structure.sizes import functions, large_modules, long_functions, module_lines

#: At most this many modules over 400 lines, and functions over 60 lines of code.
MOST_LARGE_MODULES = 5
MOST_LONG_FUNCTIONS = 10
#: No function is longer than this.
LONGEST_FUNCTION = 110


def test_few_modules_over_400_lines() -> None:
    assert len(large_modules()) <= MOST_LARGE_MODULES, large_modules()


def test_few_functions_over_60_lines_of_code() -> None:
    assert len(long_functions()) <= MOST_LONG_FUNCTIONS, long_functions()


def test_no_function_over_110_lines_of_code() -> None:
    assert [f for f in long_functions(limit=LONGEST_FUNCTION)] == []


def test_lines_of_code_leave_out_docstrings_blanks_and_comments(tmp_path: Path) -> None:
    source = tmp_path / "example.py"
    source.write_text(
        'def f(x):\n    """Why.\n\n    More why.\n    """\n\n    # a comment\n'
        "    y = (x +\n         1)\n    return y\n"
    )
    (found,) = functions(source, root=tmp_path)
    assert (found.name, found.line, found.code_lines) == ("f", 1, 4)
    assert module_lines(source) == 10
