"""A fitted ternary tree as indented text rules, like scikit-learn's ``export_text``."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sklearn.utils.validation import check_is_fitted

from ternary._validation import default_feature_names
from ternary.tree import LEAF

__all__ = ["export_text"]


def export_text(clf, feature_names: Sequence[str] | None = None, decimals: int = 4) -> str:
    """The rules of a fitted `TernaryTreeClassifier`, one line per branch, with each zone.

    Each split prints its two branches as CART would route (``x ≤ θ`` left), followed by
    the uncertainty zone ``θ−δ – θ+δ`` where δ > 0: a row inside it is flagged
    boundary-uncertain (the zone is ``θ−δ < x < θ+δ``, or the paper's ``θ−δ < x ≤ θ+δ``
    with ``zone_edges="closed"``). Hard-middle trees print three branches instead:
    ``x ≤ θ−δ``, the middle ``θ−δ < x ≤ θ+δ`` and ``x > θ+δ`` (open: the middle
    ``θ−δ < x < θ+δ`` and ``x ≥ θ+δ``). Splits added by grafting are marked
    ``[grafted]``; each leaf prints its majority class.

    Parameters
    ----------
    clf : TernaryTreeClassifier
        A fitted tree.
    feature_names : sequence of str, optional
        One name per feature; defaults to the names the model was fitted with, else
        ``x0, x1, …``.
    decimals : int ≥ 0, default=4
        Decimals of every threshold and zone edge.

    Returns
    -------
    str
        The rules, one line per branch.

    Examples
    --------
    >>> from sklearn.datasets import make_moons
    >>> from ternary import TernaryTreeClassifier
    >>> X, y = make_moons(200, noise=0.3, random_state=0)
    >>> clf = TernaryTreeClassifier(max_depth=1, random_state=0).fit(X, y)
    >>> print(export_text(clf, feature_names=["a", "b"], decimals=2))
    |--- b <= 0.34  (zone 0.32 – 0.35)
    |   |--- class: 1
    |--- b >  0.34  (zone 0.32 – 0.35)
    |   |--- class: 0
    <BLANKLINE>
    """
    check_is_fitted(clf, "tree_")
    tree = clf.tree_
    names = _names(clf, feature_names)
    if isinstance(decimals, bool) or not isinstance(decimals, (int, np.integer)) or decimals < 0:
        raise ValueError(f"decimals must be an integer ≥ 0; got {decimals!r}.")

    def num(value: float) -> str:
        return f"{value:.{decimals}f}"

    lines: list[str] = []
    # entries are ("node", id, depth) or ("line", text): a branch's line, then its subtree
    stack: list[tuple] = [("node", 0, 0)]
    while stack:
        entry = stack.pop()
        if entry[0] == "line":
            lines.append(entry[1])
            continue
        _, node, depth = entry
        prefix = "|   " * depth + "|--- "
        if tree.children_left[node] == LEAF:
            label = clf.classes_[int(np.argmax(tree.value[node]))]
            lines.append(f"{prefix}class: {label}")
            continue
        name = names[tree.feature[node]]
        theta, delta = float(tree.threshold[node]), float(tree.delta[node])
        mark = "  [grafted]" if tree.grafted[node] else ""
        middle = tree.children_middle[node]
        if middle != LEAF:
            lo, hi = num(theta - delta), num(theta + delta)
            # an open zone leaves θ+δ to the right branch
            end, right = (")", ">=") if tree.zone_edges == "open" else ("]", "> ")
            branches = [
                (tree.children_left[node], f"{name} <= {lo}"),
                (middle, f"{name} in ({lo}, {hi}{end}  (middle)"),
                (tree.children_right[node], f"{name} {right} {hi}"),
            ]
        else:
            zone = f"  (zone {num(theta - delta)} – {num(theta + delta)})" if delta > 0 else ""
            branches = [
                (tree.children_left[node], f"{name} <= {num(theta)}{zone}"),
                (tree.children_right[node], f"{name} >  {num(theta)}{zone}"),
            ]
        # pushed in reverse, so the first branch and its subtree print first
        for child, text in reversed(branches):
            stack.append(("node", int(child), depth + 1))
            stack.append(("line", prefix + text + mark))
    return "\n".join(lines) + "\n"


def _names(clf, feature_names):
    n = clf.n_features_in_
    if feature_names is None:
        fitted = getattr(clf, "feature_names_in_", None)
        return [str(v) for v in fitted] if fitted is not None else default_feature_names(n)
    names = [str(v) for v in feature_names]
    if len(names) != n:
        raise ValueError(f"feature_names has {len(names)} names; the model has {n} features.")
    return names
