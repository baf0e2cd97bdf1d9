"""ternary.export_text: the tree as indented rules, each zone printed."""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris, make_moons
from sklearn.tree import DecisionTreeClassifier
from sklearn.tree import export_text as sklearn_export_text

from ternary import TernaryTreeClassifier, export_text


@pytest.mark.parametrize("decimals", [2, 4])
def test_without_zones_it_is_scikit_learns_text(decimals):
    X, y = load_iris(return_X_y=True)
    names = ["sepal length", "sepal width", "petal length", "petal width"]
    ours = TernaryTreeClassifier(delta_method="none", max_depth=4, random_state=0).fit(X, y)
    cart = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y)
    expected = sklearn_export_text(cart, feature_names=names, decimals=decimals)
    assert export_text(ours, feature_names=names, decimals=decimals) == expected


def test_every_zone_is_printed_on_both_branches():
    X, y = make_moons(300, noise=0.3, random_state=0)
    clf = TernaryTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    text = export_text(clf, decimals=6)
    t = clf.tree_
    split_lines = [line for line in text.splitlines() if "class:" not in line]
    assert len(split_lines) == 2 * int((~t.is_leaf).sum())
    lines = text.splitlines()
    depth = t.node_depth()
    zoned = [n for n in t.preorder() if not t.is_leaf[n] and t.delta[n] > 0]
    assert zoned and text.count("(zone ") == 2 * len(zoned)
    for node in zoned:
        theta, delta = t.threshold[node], t.delta[node]
        zone = f"  (zone {theta - delta:.6f} – {theta + delta:.6f})"
        head = "|   " * int(depth[node]) + f"|--- x{t.feature[node]} "
        assert f"{head}<= {theta:.6f}{zone}" in lines
        assert f"{head}>  {theta:.6f}{zone}" in lines
    leaves = [line.split("class: ")[1] for line in text.splitlines() if "class:" in line]
    assert len(leaves) == t.n_leaves and set(leaves) <= {"0", "1"}


def test_hard_middle_prints_three_branches_and_grafts_are_marked():
    X, y = make_moons(300, noise=0.3, random_state=0)
    middle = TernaryTreeClassifier(routing="hard_middle", max_depth=2, random_state=0).fit(X, y)
    text = export_text(middle)
    n_middle = int((middle.tree_.children_middle != -1).sum())
    assert text.count("(middle)") == n_middle > 0
    assert text.count(" in (") == n_middle and "zone" not in text
    grafted = TernaryTreeClassifier(max_depth=2, graft="all", graft_alpha=0.3, random_state=0).fit(
        X, y
    )
    t = grafted.tree_
    assert export_text(grafted).count("[grafted]") == 2 * int((t.grafted & ~t.is_leaf).sum()) > 0


def test_names_from_the_frame_and_clear_refusals():
    X, y = make_moons(100, noise=0.3, random_state=0)
    frame = pd.DataFrame(X, columns=["height", "weight"])
    clf = TernaryTreeClassifier(max_depth=2, random_state=0).fit(frame, np.where(y, "b", "a"))
    text = export_text(clf)
    assert "height" in text or "weight" in text
    assert "class: a" in text and "class: b" in text
    with pytest.raises(ValueError, match="2 features"):
        export_text(clf, feature_names=["only one"])
    with pytest.raises(ValueError, match="decimals"):
        export_text(clf, decimals=-1)
