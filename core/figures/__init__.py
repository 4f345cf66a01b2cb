"""Pure figure builders: compute plain data into frozen dataclasses, then render it.

Tree diagrams become Graphviz DOT text (and SVG/PNG when ``dot`` is installed); decision
boundaries and curves become Plotly figures. Nothing here imports Streamlit.
"""

from core.figures.palette import (
    BACKGROUND,
    CLASS_COLORS,
    EDGE_COLOR,
    FONT_COLOR,
    SEQUENTIAL_SCALE,
    blend,
    class_color,
    purity_fill,
    sequential_color,
)
from core.figures.render import (
    GraphvizRenderError,
    GraphvizUnavailableError,
    dot_available,
    render_png,
    render_svg,
)
from core.figures.tree_diagram import (
    CollapsedSubtree,
    DiagramEdge,
    DiagramNode,
    TreeDiagram,
    build_tree_diagram,
)
from core.figures.tree_dot import to_dot

__all__ = [
    "BACKGROUND",
    "CLASS_COLORS",
    "EDGE_COLOR",
    "FONT_COLOR",
    "SEQUENTIAL_SCALE",
    "CollapsedSubtree",
    "DiagramEdge",
    "DiagramNode",
    "GraphvizRenderError",
    "GraphvizUnavailableError",
    "TreeDiagram",
    "blend",
    "build_tree_diagram",
    "class_color",
    "dot_available",
    "purity_fill",
    "render_png",
    "render_svg",
    "sequential_color",
    "to_dot",
]
