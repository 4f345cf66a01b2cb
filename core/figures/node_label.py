"""What one node of the drawn tree says: its rows of text and its class bar, as Graphviz HTML.

:func:`~core.figures.tree_dot.to_dot` puts these rows in each node's label, and
:func:`~core.figures.tree_dot.estimated_size` measures the very same rows, so a guess at the
drawing's size reads what the drawing will show.
"""

from __future__ import annotations

import math
from typing import Literal

from core.figures.diagram import DiagramNode, TreeDiagram
from core.figures.palette import BACKGROUND, EDGE_COLOR, FONT_COLOR, class_color
from core.figures.rules import rule_text

__all__ = [
    "BAR_HEIGHT",
    "BAR_WIDTH",
    "Detail",
    "count_text",
    "escape_html",
    "format_number",
    "node_rows",
]

#: How much a node says: the rule (or prediction) and the class bar, or also its numbers.
Detail = Literal["beginner", "detailed"]
BAR_WIDTH = 120  # pixels (points) of the class bar inside a node
BAR_HEIGHT = 10


def escape_html(text: str) -> str:
    """Escape text for a Graphviz HTML-like label (``& < > " '``; newlines become spaces)."""
    text = " ".join(str(text).splitlines())
    for raw, entity in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;")):
        text = text.replace(raw, entity)
    return text.replace("'", "&#39;")


def format_number(x: float, precision: int = 3) -> str:
    """``x`` rounded to ``precision`` decimals, trailing zeros dropped (``2.450`` -> ``2.45``)."""
    if not math.isfinite(x):
        return str(x)
    text = f"{x:.{precision}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def count_text(c: float) -> str:
    """A count as a node shows it: whole without decimals, a fraction (a weight) to one."""
    return str(round(c)) if abs(c - round(c)) < 1e-9 else format_number(c, 1)


def _bar_widths(counts: tuple[float, ...]) -> list[int]:
    """Integer widths summing to BAR_WIDTH, proportional to counts; nonzero counts get >= 1.

    Each count's exact share ``c / total * BAR_WIDTH`` is rounded down (up to 1 for a nonzero
    count); the pixels still missing go one at a time to the largest remainder (the first such
    class on a tie), and any extra pixel comes off the widest cell. Plain Python: a node's
    handful of classes is smaller than NumPy's cost of making an array.
    """
    total = sum(counts)
    if total <= 0:
        return [0] * len(counts)
    exact = [c / total * BAR_WIDTH for c in counts]
    widths = [max(math.floor(e), 1) if e > 0 else math.floor(e) for e in exact]
    classes = range(len(widths))
    while sum(widths) < BAR_WIDTH:  # largest remainder first
        widths[max(classes, key=lambda i: exact[i] - widths[i])] += 1
    while sum(widths) > BAR_WIDTH:
        widths[max(classes, key=widths.__getitem__)] -= 1
    return widths


def _class_bar(counts: tuple[float, ...]) -> str:
    cells = "".join(
        f'<TD WIDTH="{w}" HEIGHT="{BAR_HEIGHT}" FIXEDSIZE="TRUE" BGCOLOR="{class_color(i)}"></TD>'
        for i, w in enumerate(_bar_widths(counts))
        if w > 0
    )
    return (
        f'<TABLE BORDER="1" COLOR="{EDGE_COLOR}" CELLBORDER="0" CELLSPACING="0" '
        f'CELLPADDING="0" FIXEDSIZE="TRUE" WIDTH="{BAR_WIDTH + 2}" HEIGHT="{BAR_HEIGHT + 2}">'
        f"<TR>{cells}</TR></TABLE>"
    )


def _rule(node: DiagramNode, precision: int) -> str:
    text = rule_text(
        node.feature_name or "",
        node.threshold or 0.0,
        node.category,
        node.missing_left,
        lambda x: format_number(x, precision),
    )
    return escape_html(text)


def _prediction(diagram: TreeDiagram, node: DiagramNode, precision: int) -> str:
    if diagram.task == "classification" and node.majority is not None:
        return escape_html(diagram.class_names[node.majority])
    return format_number(node.value, precision)


def _test_line(diagram: TreeDiagram, node: DiagramNode, precision: int) -> str:
    if node.test_samples is None:
        return ""
    noun = "sample" if node.test_samples == 1 else "samples"
    text = f"test: {node.test_samples} {noun}"
    if node.test_score is not None:
        name = "accuracy" if diagram.task == "classification" else "MSE"
        text += f", {name} {format_number(node.test_score, precision)}"
    return text


def node_rows(
    diagram: TreeDiagram,
    node: DiagramNode,
    detail: Detail,
    precision: int,
    number: int | None = None,
) -> list[str]:
    """The table rows of a node's label, top to bottom, as ``<TR>`` strings.

    The rule (or a leaf's prediction), the class bar, the numbers at ``"detailed"``, the test
    line, and the traced sample's badge on its leaf; ``number`` puts ``"node <number>"`` on top.
    """
    rows: list[str] = []
    if node.is_leaf:
        rows.append(f"<B>predict {_prediction(diagram, node, precision)}</B>")
    else:
        rows.append(f"<B>{_rule(node, precision)}</B>")
    if detail == "detailed":
        rows.append(f"{escape_html(diagram.impurity_name)} = {format_number(node.impurity, 3)}")
        rows.append(f"samples = {count_text(node.samples)}")
        if diagram.task == "classification":
            rows.append("counts = [" + ", ".join(count_text(c) for c in node.counts) + "]")
            if not node.is_leaf:
                rows.append(f"class = {_prediction(diagram, node, precision)}")
        elif not node.is_leaf:
            rows.append(f"mean = {_prediction(diagram, node, precision)}")
    if diagram.has_test:  # asked for by its own toggle: shown at every detail
        rows.append(_test_line(diagram, node, precision))
    cells = [f"<TR><TD>{row}</TD></TR>" for row in rows]
    if diagram.task == "classification":
        cells.insert(1, f"<TR><TD>{_class_bar(node.counts)}</TD></TR>")
    if number is not None:
        cells.insert(0, f"<TR><TD>node {number}</TD></TR>")
    if node.node_id == diagram.path_leaf and diagram.sample_label is not None:
        label = escape_html(diagram.sample_label)
        # A framed badge, padded inside and set off from the leaf's own border.
        cells.append(
            '<TR><TD><TABLE BORDER="0" CELLSPACING="0" CELLPADDING="4"><TR>'
            f'<TD BGCOLOR="{BACKGROUND}" BORDER="1" COLOR="{FONT_COLOR}" CELLPADDING="5">'
            f"<B>{label} lands here</B></TD></TR></TABLE></TD></TR>"
        )
    return cells
