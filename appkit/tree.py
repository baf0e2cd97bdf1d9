"""Helpers of the tree-diagram page: node captions, DOT/SVG and the node inspector."""

from __future__ import annotations

import numpy as np
import streamlit as st

import viz
from appkit.answers import shadow_tree
from appkit.guard import capped
from ternary import default_feature_names
from viz.labels import format_number

__all__ = [
    "DIAGRAM_DEPTH",
    "FIT_WIDTH_PX",
    "internal_nodes",
    "member_rows",
    "node_caption",
    "node_explanation",
    "node_figure",
    "tree_dot",
]


#: the width a diagram is laid out to fit at its natural size (12 px node text): the page's
#: column at 1400 px with the sidebar open is 940 px. Wider trees scroll sideways (app.py's CSS)
FIT_WIDTH_PX = 900
#: the deepest level the page draws at first: five columns of boxes left to right fit
#: `FIT_WIDTH_PX` (six drew digits' depth-8 tree 957 px wide in a 940 px column); deeper
#: subtrees are collapsed to "(…)" until the reader asks for more
DIAGRAM_DEPTH = 4


def internal_nodes(model) -> list[int]:
    """The split nodes of ``model``'s tree, in preorder."""
    tree = model.tree_
    return [int(n) for n in tree.preorder() if not tree.is_leaf[n]]


def node_caption(model, node: int, feature_names: list[str]) -> str:
    """``node <id>: <feature> ≤ θ  (δ = …, n = …)`` for the node picker."""
    tree = model.tree_
    f = int(tree.feature[node])
    name = feature_names[f] if 0 <= f < len(feature_names) else default_feature_names(f + 1)[f]
    return (
        f"node {node}: {name} ≤ {format_number(tree.threshold[node])}"
        f"  (δ = {format_number(tree.delta[node])}, "
        f"n = {int(tree.n_node_samples[node])})"
    )


@st.cache_data(show_spinner=False, max_entries=64)
def tree_dot(
    _model,
    key: tuple,
    highlight: int | None = None,
    feature_names: tuple[str, ...] | None = None,
    path: dict | None = None,
    legend: str = "inside",
    text_scale: float = 1.0,
    on_screen: bool = False,
    max_depth: int | None = None,
    orientation: str = "auto",
    compact: bool = False,
    class_bars: bool = False,
) -> str:
    """The DOT source of ``_model``, ``highlight`` outlined, one row's ``path`` drawn thick.

    ``legend`` as `viz.tree_dot`'s: the page draws the tree with ``"none"`` and the
    legend (``"only"``) under it; downloads keep it ``"inside"``.

    ``feature_names`` default to the model's ``feature_names_in_`` (a forest's
    member trees are fitted on arrays, so the page passes the forest's). ``on_screen``:
    feature and class names `capped` (a name from a file can be any length); a
    download keeps them whole, and on screen a shallow tree too wide for `FIT_WIDTH_PX` is
    drawn left to right (`viz.tree_dot`'s ``max_width_px``) instead of being cut or shrunk.
    Nodes deeper than ``max_depth`` are collapsed to "(…)". ``orientation`` as
    `viz.tree_dot`'s, and ``compact`` (three-line labels) too: the lecture view's;
    ``class_bars``: a bar of class shares under each node's text (the tree page's switch).
    """
    if feature_names is None:
        feature_names = tuple(str(c) for c in _model.feature_names_in_)
    names, classes = list(feature_names), [str(c) for c in _model.classes_]
    if on_screen:
        names, classes = [capped(n) for n in names], [capped(c) for c in classes]
    shadow = shadow_tree(_model, names, classes)
    return viz.tree_dot(
        shadow,
        highlight_node=highlight,
        path=path,
        legend=legend,
        text_scale=text_scale,
        max_width_px=FIT_WIDTH_PX if on_screen else None,
        max_depth=max_depth,
        orientation=orientation,
        compact=compact,
        class_bars=class_bars,
    )


def member_rows(forest, member: int, n_rows: int) -> np.ndarray:
    """Positions of the training rows member tree ``member`` was grown on (with repeats).

    The forest's own record (`TernaryForestClassifier.estimators_samples_`), so the app
    never re-derives the bootstrap draw; ``n_rows``, the training size, must match it.
    """
    rows = forest.estimators_samples_[member]
    if rows.size != n_rows:
        raise ValueError(f"member {member} grew on {rows.size} rows; the page passed {n_rows}")
    return rows


@st.cache_data(show_spinner=False, max_entries=32)
def tree_svg(dot: str) -> bytes | None:
    """The diagram as SVG, or None without Graphviz's ``dot`` program."""
    return viz.tree_svg(dot)


@st.cache_resource(show_spinner=False, max_entries=64)
def node_explanation(_model, _X, _y, key: tuple, node: int):
    """What every δ method sees at ``node`` (`ternary.explain.explain_node`), cached."""
    from ternary.explain import explain_node

    return explain_node(_model, _X, _y, int(node))


@st.cache_resource(show_spinner=False, max_entries=128)
def node_figure(_model, _X, _y, key: tuple, node: int, method: str):
    """Node inspector figure for ``node``, drawn with ``method``'s view of the zone."""
    explanation = node_explanation(_model, _X, _y, key, node)
    return viz.node_inspector_figure(explanation, method=method)
