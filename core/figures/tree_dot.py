"""Render a :class:`~core.figures.diagram.TreeDiagram` as Graphviz DOT text.

Nodes are HTML-like labels (tables) so a class bar can sit inside a node. Split nodes have
rounded corners; leaves have square corners, a heavier border and a bold ``predict`` line;
hidden subtrees are grey stacked boxes that say how much they hide (dashes are kept for the
nodes a page highlights). Every edge is labelled.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import Literal

from core.figures.diagram import CollapsedSubtree, DiagramEdge, DiagramNode, TreeDiagram
from core.figures.node_label import (
    BAR_HEIGHT,
    BAR_WIDTH,
    Detail,
    count_text,
    escape_html,
    format_alike,
    format_number,
    node_rows,
)
from core.figures.palette import (
    BACKGROUND,
    EDGE_COLOR,
    FONT_COLOR,
    GRID_COLOR,
    LINE_COLORS,
    MUTED_COLOR,
    class_color,
    sequential_color,
)
from core.figures.rules import edge_text

__all__ = ["Detail", "EdgeLabels", "estimated_size", "to_dot"]

EdgeLabels = Literal["truefalse", "inequality"]

FONT = "Helvetica,Arial,sans-serif"
MAX_EDGE_WIDTH = 8.0  # penwidth of an edge carrying every sample
SELECTED_COLOR = LINE_COLORS[0]  # the double border of the selected node
FOLDED_FILL = GRID_COLOR  # the grey of a folded box ("+ n more nodes")


def _node_statement(
    diagram: TreeDiagram,
    node: DiagramNode,
    detail: Detail,
    precision: int,
    number: int | None = None,
    selected: bool = False,
) -> str:
    cells = "".join(node_rows(diagram, node, detail, precision, number))
    label = f'<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="2">{cells}</TABLE>>'
    style = ["filled"] if node.is_leaf else ["rounded", "filled"]
    penwidth = 2.0 if node.is_leaf else 1.0
    color = EDGE_COLOR
    if node.highlighted:
        style.append("dashed")
        penwidth = 3.0
        color = FONT_COLOR
    if node.on_path:
        penwidth = 4.0
        color = FONT_COLOR
    extra = ""
    if selected:  # a double border of its own colour: it can also be on a path or highlighted
        penwidth = max(penwidth, 2.5)
        color = SELECTED_COLOR
        extra = ", peripheries=2"
    return (
        f'n{node.node_id} [label={label}, style="{",".join(style)}", fillcolor="{node.fill}", '
        f'color="{color}", penwidth={format_number(penwidth, 1)}{extra}];'
    )


def _collapsed_statement(marker: CollapsedSubtree, detail: Detail) -> str:
    nodes = "node" if marker.hidden_nodes == 1 else "nodes"
    leaves = "leaf" if marker.hidden_leaves == 1 else "leaves"
    rows = [f"+ {marker.hidden_nodes} more {nodes}", f"({marker.hidden_leaves} {leaves})"]
    if detail == "detailed":
        rows.append(f"samples = {count_text(marker.samples)}")
    if marker.on_path:
        rows.append("<B>sample continues here</B>")
    cells = "".join(f"<TR><TD>{row}</TD></TR>" for row in rows)
    label = f'<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">{cells}</TABLE>>'
    color = FONT_COLOR if marker.on_path else EDGE_COLOR
    width = 3.0 if marker.on_path else 1.0
    # A grey stack, solid-edged: dashes mark a page's highlighted nodes (a step's newest
    # split), and a folded box must not read as one.
    return (
        f'c{marker.root} [label={label}, shape=box3d, style="filled", '
        f'fillcolor="{FOLDED_FILL}", color="{color}", penwidth={format_number(width, 1)}];'
    )


def _edge_statement(
    diagram: TreeDiagram,
    edge: DiagramEdge,
    edge_labels: EdgeLabels,
    precision: int,
    has_path: bool,
) -> str:
    if edge_labels == "truefalse":
        text = "True" if edge.is_left else "False"
    else:
        parent = diagram.node(edge.parent)  # edges leave split nodes
        text = escape_html(
            edge_text(
                parent.threshold or 0.0,
                edge.is_left,
                parent.category,
                lambda x: format_number(x, precision),
            )
        )
    share = edge.samples / diagram.root_samples if diagram.root_samples > 0 else 0.0
    width = 1.0 + (MAX_EDGE_WIDTH - 1.0) * share
    color = EDGE_COLOR
    style = "solid"
    if has_path:
        color = FONT_COLOR if edge.on_path else MUTED_COLOR
        if edge.on_path:
            style = "bold"
            width = max(width, 3.5)
    head = f"c{edge.child}" if edge.to_collapsed else f"n{edge.child}"
    return (
        f"n{edge.parent} -> {head} [label=<{text}>, penwidth={format_number(width, 2)}, "
        f'color="{color}", style="{style}"];'
    )


def _swatch(color: str) -> str:
    # bordered, so that the palest colours still show on the white background
    return (
        f'<TD WIDTH="14" HEIGHT="14" FIXEDSIZE="TRUE" BORDER="1" COLOR="{EDGE_COLOR}" '
        f'BGCOLOR="{color}"></TD>'
    )


#: Classes per row of the legend: a 20-class key on one row made the drawing so wide that
#: every node shrank to fit it.
LEGEND_PER_ROW = 3


def _legend(diagram: TreeDiagram, precision: int) -> str:
    if diagram.task == "classification":
        names = diagram.class_names
        rows = [
            "".join(
                f'{_swatch(class_color(i))}<TD ALIGN="LEFT">'
                f'<FONT POINT-SIZE="14">{escape_html(names[i])}</FONT>  </TD>'
                for i in range(start, min(start + LEGEND_PER_ROW, len(names)))
            )
            for start in range(0, len(names), LEGEND_PER_ROW)
        ]
    else:
        low, high = diagram.value_range
        low_text, high_text = format_alike([low, high])  # read together: one precision
        rows = [
            f'<TD><FONT POINT-SIZE="14">mean {low_text}</FONT></TD>'
            f"{_swatch(sequential_color(low, low, high))}<TD>→</TD>"
            f"{_swatch(sequential_color(high, low, high))}"
            f'<TD><FONT POINT-SIZE="14">{high_text}</FONT></TD>'
        ]
    body = "".join(f"<TR>{row}</TR>" for row in rows)
    return f'<<TABLE BORDER="0" CELLSPACING="4" CELLPADDING="0">{body}</TABLE>>'


def to_dot(
    diagram: TreeDiagram,
    *,
    detail: Detail = "detailed",
    edge_labels: EdgeLabels = "truefalse",
    precision: int = 3,
    legend: bool = True,
    node_numbers: Sequence[int] | None = None,
    selected: int | None = None,
) -> str:
    """Graphviz DOT text for a traced tree.

    Parameters
    ----------
    diagram : TreeDiagram
        From :func:`~core.figures.tree_diagram.build_tree_diagram`.
    detail : {"detailed", "beginner"}, default "detailed"
        ``"beginner"``: the rule (or the prediction at a leaf) and the class bar.
        ``"detailed"``: also impurity, samples, class counts, majority class or mean. The
        test figures are shown at both, when the diagram has them (``X_test``, ``y_test``).
    edge_labels : {"truefalse", "inequality"}, default "truefalse"
        ``True`` / ``False`` on each edge, or ``≤ t`` / ``> t``.
    precision : int, default 3
        Decimals of thresholds and values.
    legend : bool, default True
        A key of class colours (or the value scale) above the tree.
    node_numbers : sequence of int, optional
        Show ``"node <number>"`` on top of each node, ``node_numbers[node_id]``: pass
        ``range(node_count)`` for the tree's own ids, or a growth step's ``final_id`` to keep
        the numbers of the whole tree. Default: no numbers.
    selected : int, optional
        Node id to mark as selected, with a double border of its own colour.

    Returns
    -------
    str
        DOT source; the diagram carries its own background and text colour.
    """
    if detail not in ("beginner", "detailed"):
        raise ValueError(f"detail must be 'beginner' or 'detailed', got {detail!r}")
    if edge_labels not in ("truefalse", "inequality"):
        raise ValueError(f"edge_labels must be 'truefalse' or 'inequality', got {edge_labels!r}")
    if precision < 0:
        raise ValueError(f"precision must be >= 0, got {precision}")
    if node_numbers is not None and len(node_numbers) <= max(n.node_id for n in diagram.nodes):
        raise ValueError(
            f"node_numbers must have a number for every node id; got {len(node_numbers)} "
            f"numbers for ids up to {max(n.node_id for n in diagram.nodes)}"
        )
    has_path = any(node.on_path for node in diagram.nodes)
    lines = [
        "digraph Tree {",
        f'graph [bgcolor="{BACKGROUND}", fontname="{FONT}", fontcolor="{FONT_COLOR}", '
        "nodesep=0.2, ranksep=0.4, pad=0.1];",
        f'node [shape=box, fontname="{FONT}", fontsize=12, fontcolor="{FONT_COLOR}", '
        'margin="0.06,0.03"];',
        f'edge [fontname="{FONT}", fontsize=12, fontcolor="{FONT_COLOR}", arrowsize=0.6];',
    ]
    if legend:
        lines.append(f'labelloc="t"; label={_legend(diagram, precision)};')
    lines += [
        _node_statement(
            diagram,
            node,
            detail,
            precision,
            None if node_numbers is None else int(node_numbers[node.node_id]),
            node.node_id == selected,
        )
        for node in diagram.nodes
    ]
    lines += [_collapsed_statement(marker, detail) for marker in diagram.collapsed]
    lines += [
        _edge_statement(diagram, edge, edge_labels, precision, has_path) for edge in diagram.edges
    ]
    lines.append("}")
    return "\n".join(lines) + "\n"


# Graphviz's layout, measured on our drawings: a character of 12 pt Helvetica is about 6.6 pt
# wide on average (bold a little more), a text row 16 pt tall with its padding; a node adds
# its margin and border; ranks are 0.4 in apart and nodes 0.2 in; the drawing has 0.1 in of
# padding on each side. Over Iris, Wine and breast cancer trees of every depth this came out
# 7% narrower to 25% wider than dot's layouts and within 3% of their height.
_CHAR_PT = 6.9
_ROW_PT = 16.0
_NODE_PAD_PT = (16.0, 8.0)
_RANK_SEP_PT = 28.8 + 8.0  # with the edge label between ranks
_NODE_SEP_PT = 14.4
_DRAWING_PAD_PT = 14.4
_TAG = re.compile(r"<[^>]+>")


def _label_size(cells: list[str]) -> tuple[float, float]:
    """Width and height in points of a node whose label is these table rows."""
    width = height = 0.0
    for cell in cells:
        if 'FIXEDSIZE="TRUE" WIDTH=' in cell:  # the class bar
            width, height = max(width, BAR_WIDTH + 6.0), height + BAR_HEIGHT + 8.0
            continue
        text = html.unescape(_TAG.sub("", cell)).strip()
        width, height = max(width, len(text) * _CHAR_PT), height + _ROW_PT
    return width + _NODE_PAD_PT[0], height + _NODE_PAD_PT[1]


def estimated_size(
    diagram: TreeDiagram,
    *,
    detail: Detail = "detailed",
    precision: int = 3,
    legend: bool = True,
    node_numbers: Sequence[int] | None = None,
    known: dict[tuple[int, Detail], tuple[float, float]] | None = None,
) -> tuple[float, float]:
    """About how wide and tall, in points, Graphviz will draw :func:`to_dot`'s text.

    For when there is no ``dot`` to ask (the browser then lays the tree out): each rank (a
    depth of the tree, a folded box at the depth of the subtree it hides) is as wide as its nodes
    and the gaps between them, as tall as its tallest node; the drawing is as wide as its widest
    rank (or the legend) and as tall as its ranks, the gaps between them and the legend.
    A node's size comes from its label's rows: characters times an average width.
    Same arguments as :func:`to_dot`, and:

    known : dict, optional
        Node sizes already estimated, by ``(node id, detail)``: read, and filled with the
        nodes measured here. A node's label does not depend on how many levels are drawn, so
        the drawings of one tree at several depths (:func:`~core.figures.fold.choose_fold`
        tries a few) can share one dict and measure each node once. Share it only between
        drawings of the same tree with the same sample, test rows, precision and numbers.

    Returns
    -------
    (float, float)
        Width and height in points, like the ``viewBox`` of the SVG ``dot`` would write.
    """
    ranks: dict[int, list[tuple[float, float]]] = {}
    sizes_of = {} if known is None else known
    for node in diagram.nodes:
        size = sizes_of.get((node.node_id, detail))
        if size is None:
            number = None if node_numbers is None else int(node_numbers[node.node_id])
            size = _label_size(node_rows(diagram, node, detail, precision, number))
            sizes_of[node.node_id, detail] = size
        ranks.setdefault(node.depth, []).append(size)
    for marker in diagram.collapsed:
        rows = [f"+ {marker.hidden_nodes} more nodes", f"({marker.hidden_leaves} leaves)"]
        if detail == "detailed":
            rows.append(f"samples = {count_text(marker.samples)}")
        ranks.setdefault(marker.depth, []).append(_label_size(rows))
    width = max(
        sum(w for w, _ in sizes) + _NODE_SEP_PT * (len(sizes) - 1) for sizes in ranks.values()
    )
    height = sum(max(h for _, h in sizes) for sizes in ranks.values())
    height += _RANK_SEP_PT * (len(ranks) - 1)
    if legend:
        names = diagram.class_names or ("mean 0.000 → 0.000",)
        per_row = [names[i : i + LEGEND_PER_ROW] for i in range(0, len(names), LEGEND_PER_ROW)]
        width = max(width, max(sum(22.0 + len(n) * 8.0 for n in row) for row in per_row))
        height += 22.0 * len(per_row)
    return width + _DRAWING_PAD_PT, height + _DRAWING_PAD_PT
