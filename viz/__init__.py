"""Pure figure builders for the ternary app: arguments in, a new figure out.

Each builder returns a ``plotly.graph_objects.Figure`` (or DOT text) and
never shows, writes or caches anything; the Streamlit pages do that. No
builder calls a model: trees are drawn from a read-only `ShadowTree`, decision
regions from the probabilities and verdicts the caller asked for on a
`RegionGrid` (the app asks in `appkit.answers`).

>>> import viz
>>> "decision_regions_figure" in viz.__all__
True
"""

from viz.colors import CLASS_COLORS, class_color, method_color
from viz.coverage import CURVE_POINT, accuracy_coverage_figure, risk_coverage_figure
from viz.inspector import INSPECTOR_METHODS, node_inspector_figure
from viz.labels import format_number, node_label_lines
from viz.presentation import presentation_figure
from viz.regions import RegionGrid, decision_regions_figure, uncertain_rectangles
from viz.shadow import ShadowTree
from viz.tree_diagram import tree_dot, tree_svg

__all__ = [
    "CLASS_COLORS",
    "CURVE_POINT",
    "INSPECTOR_METHODS",
    "RegionGrid",
    "ShadowTree",
    "accuracy_coverage_figure",
    "class_color",
    "decision_regions_figure",
    "format_number",
    "method_color",
    "node_inspector_figure",
    "node_label_lines",
    "presentation_figure",
    "risk_coverage_figure",
    "tree_dot",
    "tree_svg",
    "uncertain_rectangles",
]
