"""The one node-label formatter shared by the tree diagram and hover texts.

A split node reads like the paper's Figs. 3–4: feature name, θ, δ, the blend
range [θ−δ, θ+δ] and n; a leaf reads class, confidence (the largest class
share) and n. `node_label_items` tags each line with its role so the DOT
exporter can style δ red and the blend range grey italic without re-deriving
the text.

`plain_text` is the one formatter for a name (a feature, a class) shown in a
plotly figure: plotly reads a subset of HTML in every title, hover, legend
entry, tick and annotation, so names from a file are escaped once, here.
"""

from __future__ import annotations

import html
import math

import numpy as np

from viz.shadow import ShadowTree

__all__ = [
    "compact_label_items",
    "format_number",
    "node_label_items",
    "node_label_lines",
    "plain_text",
    "resolve_names",
]


def plain_text(name) -> str:
    """``str(name)`` as plotly text that shows exactly these characters.

    Plotly renders tags (``<a href>``, ``<b>``, ``<br>``) and entities (``&lt;``,
    ``&#39;``, but not ``&quot;``) in figure text, so ``<``, ``>`` and ``&`` are escaped,
    once: a name from a file can then be no link, no markup, and ``"`` stays ``"``.
    A hover template would also fill in ``%{x}``, so an invisible word joiner (U+2060)
    goes between ``%`` and ``{``. Escape a name once, where it enters a figure; never the
    markup the figure adds.

    >>> plain_text('<a href="https://evil.example/">x</a> & "y"')
    '&lt;a href="https://evil.example/"&gt;x&lt;/a&gt; &amp; "y"'
    >>> plain_text(3.5)
    '3.5'
    """
    return html.escape(str(name), quote=False).replace("%{", "%\u2060{")


def format_number(x) -> str:
    """``x`` with 5 significant digits, without an exponent for everyday sizes.

    Five, so that a threshold reads as the paper prints it (Fig. 3: 16.795).

    >>> format_number(16.79500008)
    '16.795'
    >>> format_number(0.001749)
    '0.001749'
    >>> format_number(2.0)
    '2'
    >>> format_number(123456789.0)
    '1.235e+08'
    """
    x = float(x)
    if not math.isfinite(x):
        return str(x)
    if x == 0.0:
        return "0"
    magnitude = math.floor(math.log10(abs(x)))
    if -4 <= magnitude < 6:
        decimals = max(0, 4 - magnitude)
        text = f"{x:.{decimals}f}"
        if "." in text:
            text = text.rstrip("0").rstrip(".")
    else:
        text = f"{x:.3e}"
    return "0" if text in ("-0", "0") else text


def resolve_names(model, feature_names=None, class_names=None):
    """Feature and class names to print for ``model`` (a `viz.ShadowTree`, or what it reads).

    Explicit names win; otherwise the estimator's ``feature_names_in_`` and
    ``classes_``; otherwise ``x[i]`` and the class codes.
    """
    tree = ShadowTree.of(model, feature_names, class_names)
    return list(tree.feature_names), list(tree.class_names)


def node_label_items(model, node, feature_names=None, class_names=None) -> list[tuple[str, str]]:
    """``(role, text)`` pairs describing ``node``.

    Roles: ``"feature"``, ``"threshold"``, ``"delta"``, ``"blend"``, ``"n"`` for
    a split; ``"class"``, ``"confidence"``, ``"n"`` for a leaf. The δ line is
    left out when no node of the tree has a zone (plain CART), the blend range
    when this node's δ is 0. A leaf whose top share ties with another class's
    reads "conf = 0.50, tie → first class": like ``predict``, it takes the first
    of the tied classes in the estimator's ``classes_``.
    """
    tree = ShadowTree.of(model, feature_names, class_names)
    node = int(node)
    if not 0 <= node < tree.node_count:
        raise ValueError(f"node must be in [0, {tree.node_count - 1}]; got {node}.")
    features, classes = tree.feature_names, tree.class_names
    n_line = ("n", f"n = {int(tree.n_node_samples[node])}")
    if tree.is_leaf[node]:
        value = tree.value[node]
        k = int(np.argmax(value))
        name = classes[k] if k < len(classes) else str(k)
        conf = f"conf = {value[k]:.2f}"
        # a 50/50 leaf's class is the estimator's first class (argmax), which a reader
        # cannot guess from the shares: say so
        if np.count_nonzero(value >= value[k] - 1e-12) > 1:
            conf += ", tie → first class"
        return [("class", f"Class: {name}"), ("confidence", conf), n_line]
    f = int(tree.feature[node])
    theta, delta = float(tree.threshold[node]), float(tree.delta[node])
    items = [
        ("feature", features[f] if f < len(features) else f"x[{f}]"),
        ("threshold", f"θ = {format_number(theta)}"),
    ]
    # a tree without any zone is plain CART: "δ = 0" on every node would be noise
    if tree.has_zones:
        items.append(("delta", f"δ = {format_number(delta)}"))
    if delta > 0:
        items.append(
            ("blend", f"blend: [{format_number(theta - delta)}, {format_number(theta + delta)}]")
        )
    items.append(n_line)
    return items


def node_label_lines(model, node, feature_names=None, class_names=None) -> list[str]:
    """The text lines of ``node``'s label (see `node_label_items`).

    Parameters
    ----------
    model : ShadowTree, or a fitted TernaryTreeClassifier or TernaryTree it reads
    node : int
    feature_names, class_names : sequences of str, optional

    Returns
    -------
    list of str
    """
    return [text for _, text in node_label_items(model, node, feature_names, class_names)]


def compact_label_items(model, node, feature_names=None, class_names=None):
    """`node_label_items` in three lines at most, numbers to 3 significant digits, for
    a diagram that must fit a small box (the app's lecture view): a split reads
    "feature ≤ θ", "δ = …" (when the tree has zones), "n = …"; a leaf "Class: …" and
    "conf = …, n = …". The blend range is left out: it is θ ± δ.

    >>> from sklearn.datasets import load_iris
    >>> from ternary import TernaryTreeClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = TernaryTreeClassifier(max_depth=1, delta_method="none").fit(X, y)
    >>> [text for _, text in compact_label_items(clf, 0)]
    ['x2 ≤ 2.45', 'n = 150']
    """
    items = dict(node_label_items(model, node, feature_names, class_names))
    tree = ShadowTree.of(model, feature_names, class_names)
    node = int(node)
    if tree.is_leaf[node]:
        return [("class", items["class"]), ("confidence", f"{items['confidence']}, {items['n']}")]
    out = [("feature", f"{items['feature']} ≤ {float(tree.threshold[node]):.3g}")]
    if "delta" in items:
        out.append(("delta", f"δ = {float(tree.delta[node]):.3g}"))
    return out + [("n", items["n"])]
