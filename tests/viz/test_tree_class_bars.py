"""Tree diagram legibility (issue 37, item 7): 14 px node text at natural size, and the
optional class bars (as dtreeviz draws them): one cell per class present at the node,
in the class's colour, as wide as its share of the node's training rows."""

from __future__ import annotations

import re

import numpy as np
from sklearn.datasets import load_iris

from ternary import TernaryTreeClassifier
from viz import tree_dot
from viz.colors import class_color


def _iris_tree():
    X, y = load_iris(return_X_y=True)
    return TernaryTreeClassifier(max_depth=2, random_state=0).fit(X, y)


def test_node_text_is_14_px_and_edge_labels_13_at_natural_size():
    dot = tree_dot(_iris_tree())
    node_pt = float(re.search(r"node \[shape=box.*?fontsize=([0-9.]+)", dot).group(1))
    edge_pt = float(re.search(r"edge \[.*?fontsize=([0-9.]+)", dot).group(1))
    # Graphviz sizes are points; the browser draws a point as 4/3 px
    assert node_pt * 4 / 3 >= 14 and edge_pt * 4 / 3 >= 13


def test_class_bars_follow_each_nodes_class_shares():
    clf = _iris_tree()
    assert "BGCOLOR" not in tree_dot(clf, legend="none")  # off by default
    dot = tree_dot(clf, legend="none", class_bars=True)
    tree = clf.tree_
    for node in range(tree.node_count):
        line = next(x for x in dot.splitlines() if x.strip().startswith(f"{node} ["))
        cells = re.findall(r'<TD BGCOLOR="([^"]+)" WIDTH="([0-9]+)"', line)
        value = np.asarray(tree.value[node], dtype=float).ravel()
        shares = value / value.sum()
        present = [k for k in range(len(shares)) if shares[k] > 0]
        assert [c for c, _ in cells] == [class_color(k) for k in present], node
        widths = np.array([int(w) for _, w in cells])
        assert widths.sum() == 60, node  # the bar's whole width
        assert np.allclose(widths / 60, shares[present], atol=1.5 / 60), node
