"""Pure figure builders: compute plain data into frozen dataclasses, then render it.

Tree diagrams become Graphviz DOT text (and SVG/PNG when ``dot`` is installed); decision
boundaries and curves become Plotly figures. Nothing here imports Streamlit.
"""

from core.figures._model import score, score_name
from core.figures.boundary import BoundaryData, BoundaryGrid, BoundaryPoints, compute_boundary
from core.figures.boundary_grid import grid_resolution, split_points
from core.figures.boundary_plot import boundary_figure
from core.figures.curves import (
    DepthCurve,
    ForestCurve,
    compute_depth_curve,
    compute_forest_curve,
    depth_curve_figure,
    forest_curve_figure,
)
from core.figures.diagram import CollapsedSubtree, DiagramEdge, DiagramNode, TreeDiagram
from core.figures.importances import Importances, compute_importances, importance_figure
from core.figures.impurity_curves import (
    FeatureScan,
    ImpurityCurves,
    SplitScanData,
    compute_impurity_curves,
    compute_split_scan,
    node_proportion,
)
from core.figures.impurity_plot import impurity_figure, split_scan_figure
from core.figures.palette import (
    BACKGROUND,
    CLASS_COLORS,
    EDGE_COLOR,
    FONT_COLOR,
    LINE_COLORS,
    SEQUENTIAL_SCALE,
    blend,
    class_color,
    purity,
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
from core.figures.tree_diagram import build_tree_diagram
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
    "DepthCurve",
    "DiagramEdge",
    "DiagramNode",
    "FeatureScan",
    "ForestCurve",
    "GraphvizRenderError",
    "GraphvizUnavailableError",
    "Importances",
    "ImpurityCurves",
    "RegressionLines",
    "RegressionPoints",
    "SplitScanData",
    "TreeDiagram",
    "blend",
    "boundary_figure",
    "build_tree_diagram",
    "class_color",
    "compute_boundary",
    "compute_depth_curve",
    "compute_forest_curve",
    "compute_importances",
    "compute_impurity_curves",
    "compute_regression_lines",
    "compute_split_scan",
    "depth_curve_figure",
    "dot_available",
    "forest_curve_figure",
    "grid_resolution",
    "importance_figure",
    "impurity_figure",
    "node_proportion",
    "purity",
    "purity_fill",
    "regression_figure",
    "render_png",
    "render_svg",
    "score",
    "score_name",
    "sequential_color",
    "split_points",
    "split_scan_figure",
    "to_dot",
]
