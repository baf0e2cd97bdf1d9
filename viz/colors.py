"""The fixed colours every figure shares.

Classes use the Okabe–Ito qualitative palette (safe for the common forms of
colour-blindness), in a fixed order, so class 0 is the same blue in the decision
regions, the tree diagram and the node inspector. The δ methods get their own
fixed colours; the uncertainty zone is always orange, grafted nodes purple.
"""

from __future__ import annotations

__all__ = [
    "CLASS_COLORS",
    "DELTA_TEXT_COLOR",
    "GRAFTED_COLOR",
    "METHOD_COLORS",
    "UNCERTAIN_COLOR",
    "ZONE_FILL",
    "class_color",
    "method_color",
    "tint",
]

#: Okabe & Ito (2008); black is last so it is only used with eight or more classes.
CLASS_COLORS = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#E69F00",
    "#F0E442",
    "#000000",
)

#: Orange of the middle branch / boundary-uncertain path (Fig. 3 of the paper).
UNCERTAIN_COLOR = "#E69F00"
#: Translucent fill of the uncertainty zone [θ−δ, θ+δ] in the node inspector.
ZONE_FILL = "rgba(230, 159, 0, 0.22)"
#: Grafted nodes (Webb 1997) in the tree diagram.
GRAFTED_COLOR = "#8E44AD"
#: Colour of δ numbers in the tree diagram (red, as in the paper's Fig. 3).
DELTA_TEXT_COLOR = "#C0392B"

METHOD_COLORS = {
    "margin": "#D55E00",
    "node_bootstrap": "#0072B2",
    "quality_plateau": "#009E73",
    "gain_ratio": "#CC79A7",
    "class_overlap": "#E69F00",
    "none": "#555555",
    "cart": "#555555",
    # a ternary forest (any δ method): brown, like a trunk, apart from every method's colour
    "forest": "#8C564B",
}


def class_color(k: int) -> str:
    """Colour of class code ``k`` (wraps around after eight classes)."""
    return CLASS_COLORS[int(k) % len(CLASS_COLORS)]


def method_color(method: str) -> str:
    """Colour of a δ method; unknown names get a neutral grey."""
    return METHOD_COLORS.get(str(method), "#7F7F7F")


def _rgb(hex_color: str) -> tuple[int, int, int]:
    h = hex_color.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def tint(hex_color: str, strength: float) -> str:
    """``hex_color`` mixed with white: strength 1 is the colour, 0 is white.

    Returns a ``#rrggbb`` string (Graphviz and plotly both read it).
    """
    s = min(max(float(strength), 0.0), 1.0)
    r, g, b = (round(255 - (255 - c) * s) for c in _rgb(hex_color))
    return f"#{r:02x}{g:02x}{b:02x}"
