"""Pure figure builders: compute plain data into frozen dataclasses, then render it.

Tree diagrams become Graphviz DOT text (and SVG/PNG when ``dot`` is installed); decision
boundaries and curves become Plotly figures. Nothing here imports Streamlit.
"""

from core.figures.boundary import (
    BoundaryData,
    BoundaryGrid,
    BoundaryPoints,
    boundary_figure,
    compute_boundary,
    grid_resolution,
)
from core.figures.palette import (
    BACKGROUND,
    CLASS_COLORS,
    EDGE_COLOR,
    FONT_COLOR,
    LINE_COLORS,
    SEQUENTIAL_SCALE,
    blend,
    class_color,
    purity_fill,
    sequential_color,
)
from core.figures.regression import (
    RegressionLines,
    RegressionPoints,
    compute_regression_lines,
    regression_figure,
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
    "LINE_COLORS",
    "SEQUENTIAL_SCALE",
    "BoundaryData",
    "BoundaryGrid",
    "BoundaryPoints",
    "CollapsedSubtree",
    "DiagramEdge",
    "DiagramNode",
    "GraphvizRenderError",
    "GraphvizUnavailableError",
    "RegressionLines",
    "RegressionPoints",
    "TreeDiagram",
    "blend",
    "boundary_figure",
    "build_tree_diagram",
    "class_color",
    "compute_boundary",
    "compute_regression_lines",
    "dot_available",
    "grid_resolution",
    "purity_fill",
    "regression_figure",
    "render_png",
    "render_svg",
    "sequential_color",
    "to_dot",
]
