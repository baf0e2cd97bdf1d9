"""Graphviz DOT of a ternary tree, annotated like the paper's Figs. 3 and 4.

Split nodes show feature, θ, δ (red), the blend range [θ−δ, θ+δ] (grey
italic) and n; leaves show class, confidence and n, tinted by class.
Hard-middle trees draw the middle edge dashed orange and shade every node
reached through it; grafted nodes have their own colour. A legend node
explains the colours and, for the binary routings, the three-zone rule.

`tree_dot` returns text; `tree_svg` renders it only when the ``dot`` binary
is available.
"""

from __future__ import annotations

from html import escape

import numpy as np

from viz.colors import DELTA_TEXT_COLOR, GRAFTED_COLOR, UNCERTAIN_COLOR, class_color, tint
from viz.labels import compact_label_items, node_label_items
from viz.shadow import ShadowTree

__all__ = ["tree_dot", "tree_svg"]

_SPLIT_FILL = "#f7f7f7"
_MIDDLE_FILL = tint(UNCERTAIN_COLOR, 0.35)
_GRAFT_FILL = tint(GRAFTED_COLOR, 0.25)
_HIGHLIGHT = "#C0392B"
#: Border and edges of the path of one explained row.
_PATH = "#111111"
_MAX_LEGEND_CLASSES = 10
#: text sizes in points (Graphviz's unit): the browser draws a point as 4/3 px, so the
#: app's diagram at its natural size has 14 px node text and 13.3 px edge labels (12 and
#: 11.3 px read small on a projector, issue 37)
_FONT = "Helvetica"
_NODE_PT, _EDGE_PT = 10.5, 10
_NODESEP = {"TB": 0.25, "LR": 0.12}
_RANKSEP = {"TB": 0.5, "LR": 0.3}
#: the deepest tree drawn top to bottom by ``orientation="auto"``
_AUTO_TB_DEPTH = 2
#: a Helvetica character's mean width over its size (bold leaf names a little wider), and a
#: box's side margins in px (``margin="0.1,…"`` inches at 96 px per inch, both sides)
_CHAR_EM, _BOX_PAD_PX = 0.55, 20


def _box_px(tree, node, node_px: float) -> float:
    """About how wide ``node``'s box is drawn, in px, from its longest label line."""
    longest = max(len(text) for _, text in node_label_items(tree, node))
    return longest * _CHAR_EM * node_px + _BOX_PAD_PX


def _tb_width_px(tree, drawn, node_px: float) -> float:
    """About how wide the tree is drawn top to bottom: its bottom row of boxes side by side."""
    kept = set(drawn)
    bottom = [
        n
        for n in drawn
        if tree.is_leaf[n]
        or not any(
            int(c) in kept
            for c in (tree.children_left[n], tree.children_middle[n], tree.children_right[n])
        )
    ]
    gap = _NODESEP["TB"] * 96
    return sum(_box_px(tree, n, node_px) + gap for n in bottom)


def _rankdir(orientation, depth, tb_width=None, max_width_px=None) -> str:
    """``orientation``, or for "auto" the one that fits: top to bottom (as the paper's figures)
    while the tree is shallow and, when ``max_width_px`` is given, its width fits it."""
    if orientation == "auto":
        fits = max_width_px is None or tb_width is None or tb_width <= max_width_px
        return "TB" if depth <= _AUTO_TB_DEPTH and fits else "LR"
    if orientation not in ("TB", "LR"):
        raise ValueError(f"orientation must be 'auto', 'TB' or 'LR'; got {orientation!r}.")
    return orientation


#: the class bar's width in px (points at 96 dpi: Graphviz lays HTML cells out in points)
_BAR_PT, _BAR_HEIGHT_PT = 60, 7


def _class_bar(shares) -> str:
    """A row of cells, one per class with a share, as wide as that share of `_BAR_PT`, in
    the class's colour (dtreeviz draws such bars): how the node's training rows split."""
    shares = np.asarray(shares, dtype=float)
    total = float(shares.sum())
    if total <= 0:
        return ""
    cells, used = [], 0
    present = [k for k in range(len(shares)) if shares[k] > 0]
    for i, k in enumerate(present):
        width = _BAR_PT - used if i == len(present) - 1 else round(_BAR_PT * shares[k] / total)
        width = max(1, int(width))
        used += width
        cells.append(
            f'<TD BGCOLOR="{class_color(k)}" WIDTH="{width}" HEIGHT="{_BAR_HEIGHT_PT}" '
            'FIXEDSIZE="TRUE"></TD>'
        )
    return (
        '<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="0" '
        f'WIDTH="{_BAR_PT}" HEIGHT="{_BAR_HEIGHT_PT}" FIXEDSIZE="TRUE"><TR>'
        + "".join(cells)
        + "</TR></TABLE>"
    )


def _html_label(items, shares=None) -> str:
    """HTML-like label: bold feature/class, red δ, grey italic blend range; with
    ``shares`` (the node's class shares), a class bar under the text."""
    parts = []
    for role, text in items:
        t = escape(text)
        if role in ("feature", "class"):
            t = f"<B>{t}</B>"
        elif role == "delta":
            t = f'<FONT COLOR="{DELTA_TEXT_COLOR}">{t}</FONT>'
        elif role == "blend":
            t = f'<FONT COLOR="#6b6b6b"><I>{t}</I></FONT>'
        parts.append(t)
    if shares is None:
        return "<" + "<BR/>".join(parts) + ">"
    return (
        '<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="0">'
        f"<TR><TD>{'<BR/>'.join(parts)}</TD></TR>"
        f"<TR><TD>{_class_bar(shares)}</TD></TR></TABLE>>"
    )


def _legend(tree, leaf_classes, highlight) -> str:
    """The legend table of ``tree`` (a `ShadowTree`) with the leaf classes drawn."""
    routing, class_names, any_zone = tree.routing, list(tree.class_names), tree.has_zones
    any_middle, any_grafted = bool(tree.through_middle.any()), bool(tree.grafted.any())
    rows = []
    # the zone as the tree's walks test it: open leaves a row at θ+δ decided (right)
    zone = "θ−δ &lt; x &lt; θ+δ" if tree.zone_edges == "open" else "θ−δ &lt; x ≤ θ+δ"

    def swatch(fill, text, border="#444444", style=""):
        cell = f'<TD BGCOLOR="{fill}" COLOR="{border}" BORDER="1" WIDTH="18"></TD>'
        rows.append(
            f'<TR>{cell}<TD ALIGN="LEFT">{style}{escape(text)}{"</I>" if style else ""}</TD></TR>'
        )

    swatch(
        _SPLIT_FILL,
        "Split node (θ = threshold, δ = uncertainty half-width, blend range = [θ−δ, θ+δ])"
        if any_zone
        else "Split node (θ = threshold)",
    )
    for k in leaf_classes[:_MAX_LEGEND_CLASSES]:
        swatch(tint(class_color(k), 0.3), f"Leaf: {class_names[k]}", border=class_color(k))
    if len(leaf_classes) > _MAX_LEGEND_CLASSES:
        rows.append(
            f'<TR><TD></TD><TD ALIGN="LEFT">… {len(leaf_classes) - _MAX_LEGEND_CLASSES} '
            "more classes</TD></TR>"
        )
    if routing == "hard_middle":
        if any_middle:
            swatch(_MIDDLE_FILL, "Node reached via the boundary-uncertain (middle) branch")
        rows.append(
            f'<TR><TD><FONT COLOR="{UNCERTAIN_COLOR}"><B>- - -</B></FONT></TD>'
            f'<TD ALIGN="LEFT">middle branch: {zone} (boundary-uncertain)</TD></TR>'
        )
    elif any_zone:
        blend = (
            "both subtrees, blended: p = w_L·p_L + w_R·p_R"
            if routing == "probabilistic"
            else "both subtrees, CART routing below (deferred)"
        )
        rows.append(
            '<TR><TD COLSPAN="2" ALIGN="LEFT"><B>'
            f"{escape(routing.replace('_', ' ').capitalize())} routing rules:</B></TD></TR>"
        )
        for rule, what in (
            ("x ≤ θ−δ", "decisive left subtree"),
            (zone, blend),
            ("x ≥ θ+δ" if tree.zone_edges == "open" else "x &gt; θ+δ", "decisive right subtree"),
        ):
            rows.append(f'<TR><TD ALIGN="LEFT">{rule}</TD><TD ALIGN="LEFT">{what}</TD></TR>')
    if any_grafted:
        swatch(_GRAFT_FILL, "Grafted node (Webb 1997)", border=GRAFTED_COLOR)
    if highlight:
        swatch("#ffffff", "Selected node", border=_HIGHLIGHT)
    table = (
        '<<TABLE BORDER="1" COLOR="#999999" CELLBORDER="0" CELLSPACING="3" CELLPADDING="2">'
        + "".join(rows)
        + "</TABLE>>"
    )
    return table


def _node_line(
    tree, node, through_middle, highlight_node, path=None, compact=False, class_bars=False
):
    """The DOT line of one node, and its class when it is a leaf (else None)."""
    items = (compact_label_items if compact else node_label_items)(tree, node)
    attrs = {"label": _html_label(items, tree.value[node] if class_bars else None)}
    fill, border, pen = _SPLIT_FILL, "#444444", 1.0
    leaf_class = None
    if tree.is_leaf[node]:
        leaf_class = int(np.argmax(tree.value[node]))
        fill, border = tint(class_color(leaf_class), 0.3), class_color(leaf_class)
    if through_middle[node]:
        fill = _MIDDLE_FILL
    if tree.grafted[node]:
        fill, border, pen = _GRAFT_FILL, GRAFTED_COLOR, 2.0
    if highlight_node is not None and node == int(highlight_node):
        border, pen = _HIGHLIGHT, 3.0
    if path and node in path:
        # a node the row reaches only in part (a zone forked it) is drawn in the zone colour
        border, pen = (_PATH if path[node] >= 1.0 else UNCERTAIN_COLOR), 3.0
    attrs.update(
        fillcolor=f'"{fill}"',
        color=f'"{border}"',
        penwidth=f"{pen:g}",
        tooltip=f'"node {node}"',
    )
    return f"  {node} [" + ", ".join(f"{k}={v}" for k, v in attrs.items()) + "];", leaf_class


def _edge_lines(tree, drawn, routing, depth, max_depth, path=None) -> list[str]:
    """The edges from every drawn split node; children beyond ``max_depth`` become "(…)".

    Edges on ``path`` (both ends reached) are drawn thick: dark where the whole
    row goes, in the zone colour with its share where a zone splits it.
    """
    lines = []
    hidden = 0
    for node in drawn:
        if tree.is_leaf[node]:
            continue
        zone = tree.delta[node] > 0
        right = "≥ θ+δ" if tree.zone_edges == "open" else "&gt; θ+δ"
        binary_labels = ("≤ θ−δ", right) if zone else ("≤ θ", "&gt; θ")
        if routing != "hard_middle":
            binary_labels = ("≤ θ", "&gt; θ")
        edges = [
            (tree.children_left[node], binary_labels[0], False),
            (tree.children_middle[node], "zone", True),
            (tree.children_right[node], binary_labels[1], False),
        ]
        for child, label, is_middle in edges:
            if child < 0:
                continue
            target = int(child)
            if max_depth is not None and depth[child] > max_depth:
                hidden += 1
                target = f"hidden{hidden}"
                lines.append(f'  {target} [label="(…)", shape=plaintext, style=""];')
            if path and node in path and int(child) in path:
                share = path[int(child)] / path[node]
                color = _PATH if share >= 1.0 else UNCERTAIN_COLOR
                text = label if share >= 1.0 else f"{label}  {100 * share:.0f} %"
                lines.append(
                    f'  {node} -> {target} [label=<{text}>, color="{color}", '
                    f'fontcolor="{color}", penwidth=3];'
                )
            elif is_middle:
                lines.append(
                    f"  {node} -> {target} [label=<{label}>, style=dashed, "
                    f'color="{UNCERTAIN_COLOR}", fontcolor="{UNCERTAIN_COLOR}", penwidth=1.8];'
                )
            else:
                lines.append(f"  {node} -> {target} [label=<{label}>];")
    return lines


def tree_dot(
    model,
    *,
    feature_names=None,
    class_names=None,
    highlight_node=None,
    max_depth=None,
    rounded=True,
    path=None,
    orientation="auto",
    legend="inside",
    text_scale=1.0,
    max_width_px=None,
    compact=False,
    class_bars=False,
) -> str:
    """The tree as Graphviz DOT text.

    Parameters
    ----------
    model : ShadowTree, or a fitted TernaryTreeClassifier / bare TernaryTree
        Drawn through its `viz.ShadowTree` (read, never called).
    feature_names, class_names : sequences of str, optional
        Default to the shadow tree's (the estimator's ``feature_names_in_`` / ``classes_``).
    highlight_node : int, optional, a node drawn with a thick red border
    max_depth : int, optional; deeper nodes are replaced by "(…)"
    rounded : bool, rounded node boxes
    path : mapping of node id to the share of one row that reaches it, optional
        Drawn thick: the row's way through the tree, with the nodes and edges a
        zone splits it over in the zone colour and their share on the edge
    orientation : {"auto", "TB", "LR"}
        Top to bottom, or left to right; "auto" draws trees of depth up to 2 top
        to bottom (as the paper's Figs. 3-4) and deeper ones left to right, where
        their leaves stack down the page instead of shrinking the text to fit the
        page's width (a depth-4 tree has 16 leaves)
    legend : {"inside", "none", "only"}
        The legend box beside the tree (for a file that stands alone), no legend,
        or a graph of the legend alone (the app draws it under the tree, so the
        tree keeps the page's width)
    text_scale : float, multiplies every text size (the app's presentation mode: 1.3)
    max_width_px : float, optional
        The width to fit at natural size (text never shrunk): with ``orientation="auto"``,
        a shallow tree wider than this top to bottom is drawn left to right
    compact : bool, node labels in three lines at most (`viz.labels.compact_label_items`),
        for a diagram fitted to a small box
    class_bars : bool, under each node's text a bar split by its training rows' class
        shares, in the classes' colours (as dtreeviz draws them)

    Returns
    -------
    str, a ``digraph`` that ``dot`` can lay out

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from ternary import TernaryTreeClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> dot = tree_dot(TernaryTreeClassifier(max_depth=2).fit(X, y))
    >>> dot.startswith("digraph")
    True
    """
    tree = ShadowTree.of(model, feature_names, class_names)
    routing = tree.routing
    through_middle, depth = tree.through_middle, tree.depth
    if highlight_node is not None and not 0 <= int(highlight_node) < tree.node_count:
        raise ValueError(
            f"highlight_node must be in [0, {tree.node_count - 1}]; got {highlight_node}."
        )
    style = "rounded,filled" if rounded else "filled"
    drawn = [n for n in tree.preorder if max_depth is None or depth[n] <= max_depth]
    node_pt, edge_pt = f"{_NODE_PT * text_scale:.3g}", f"{_EDGE_PT * text_scale:.3g}"
    tb_width = None
    if max_width_px is not None and orientation == "auto":
        tb_width = _tb_width_px(tree, drawn, float(node_pt) * 4 / 3)  # a point is 4/3 px
    rankdir = _rankdir(
        orientation, max((int(depth[n]) for n in drawn), default=0), tb_width, max_width_px
    )
    lines = [
        "digraph TernaryTree {",
        f"  graph [rankdir={rankdir}, ordering=out, nodesep={_NODESEP[rankdir]}, "
        f'ranksep={_RANKSEP[rankdir]}, fontname="{_FONT}", charset="UTF-8"];',
        # the margin leaves room for a browser font a little wider than Graphviz's metrics
        f'  node [shape=box, style="{style}", fontname="{_FONT}", fontsize={node_pt}, '
        f'margin="{0.16 if compact else 0.1},0.05", color="#444444", '
        f'fillcolor="{_SPLIT_FILL}"];',
        f'  edge [fontname="{_FONT}", fontsize={edge_pt}, color="#444444", arrowsize=0.7];',
    ]
    leaf_classes = set()
    for node in drawn:
        line, leaf_class = _node_line(
            tree, node, through_middle, highlight_node, path, compact, class_bars
        )
        lines.append(line)
        if leaf_class is not None:
            leaf_classes.add(leaf_class)
    lines += _edge_lines(tree, drawn, routing, depth, max_depth, path)

    if legend not in ("inside", "none", "only"):
        raise ValueError(f"legend must be 'inside', 'none' or 'only'; got {legend!r}.")
    table = _legend(tree, sorted(leaf_classes), highlight_node is not None)
    return _close(lines, legend, table, node_pt)


def _close(lines: list[str], legend: str, table: str, node_pt: str) -> str:
    """The finished DOT: the tree alone, the legend alone, or the tree with its legend."""
    if legend == "none":
        return "\n".join(lines + ["}"]) + "\n"
    if legend == "only":
        return (
            'digraph TernaryTreeLegend {\n  graph [charset="UTF-8"];\n'
            f'  node [fontname="{_FONT}", fontsize={node_pt}];\n'
            f'  legend [shape=plaintext, style="", label={table}];\n}}\n'
        )
    lines += [
        "  subgraph cluster_legend {",
        f'    label="Legend"; fontsize={node_pt}; color="#bbbbbb";',
        f'    legend [shape=plaintext, style="", label={table}];',
        "  }",
        "}",
    ]
    return "\n".join(lines) + "\n"


def tree_svg(dot: str) -> bytes | None:
    """Render DOT text to SVG bytes, or None when Graphviz's ``dot`` is not installed."""
    import graphviz

    try:
        return graphviz.Source(dot).pipe(format="svg")
    except graphviz.ExecutableNotFound:
        return None
