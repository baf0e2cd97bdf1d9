""" "Why is this row flagged?": one row's way through the tree, in words and numbers.

The explanation itself is `ternary.explain.explain_row`, which reads the row's
shares from the library's own traversal; this module only lays it out for the
page: a table of the splits the row reaches, with the probabilities written as
"class: p" text, and the row's share at every node for the tree diagram.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import viz
from appkit import present
from appkit.guard import capped
from ternary.explain import RowExplanation, explain_row
from ternary.tree import iter_node_rows
from viz.path_strips import PathNode, path_strips_figure

__all__ = ["RowStory", "path_nodes", "path_views", "row_story", "story_of"]

#: the width the path's diagram is laid out to fit (as the tree page's, `appkit.tree`)
_FIT_WIDTH_PX = 900


@dataclass
class RowStory:
    """One row's explanation: a sentence, the splits it reached, the blended result."""

    sentence: str
    steps: pd.DataFrame
    proba: np.ndarray
    flagged: bool
    path: dict[int, float]  # every node reached, leaves included, with the row's share


def row_story(model, x, feature_names) -> RowStory:
    """Explain ``model``'s prediction for the one row ``x`` (its values in feature order)."""
    return story_of(explain_row(model, x, list(feature_names)))


def story_of(e: RowExplanation) -> RowStory:
    """The page's story of an explanation: `ternary.explain.explain_row`'s, or a
    pipeline's ``explain_row`` of a raw row (`ternary.pipeline.TernaryPipeline`)."""
    return RowStory(e.sentence, _table(e), e.proba, e.flagged, e.path)


def _table(e: RowExplanation) -> pd.DataFrame:
    classes = [str(c) for c in e.classes]
    rows = []
    for s in e.steps:
        row = {
            "node": s.node,
            "feature": s.feature_name,
            "x": s.x,
            "θ − δ": s.low,
            "θ": s.threshold,
            "θ + δ": s.high,
            "distance to θ (in δ)": s.distance,
            "zone?": "inside" if s.in_zone else "outside",
            "w_L / w_R": (
                "middle branch" if s.w_middle > 0 else f"{s.w_left:.2f} / {s.w_right:.2f}"
            ),
        }
        for side, p in (("left", s.proba_left), ("right", s.proba_right)):
            if p is not None:
                row[f"{side} subtree"] = _probs(p, classes)
        if s.proba_middle is not None:
            row["middle subtree"] = _probs(s.proba_middle, classes)
        row["blended"] = _probs(s.proba, classes)
        row["reached with weight"] = s.reach
        rows.append(row)
    return pd.DataFrame(rows)


def _probs(p, classes) -> str:
    return ", ".join(f"{c}: {v:.2f}" for c, v in zip(classes, p, strict=True))


def path_nodes(model, X_train, y_train, x, path, feature_names, classes=None) -> list[PathNode]:
    """The split nodes of ``path`` (node id to the row's share), root first, each with the
    training rows that reach it on its split feature, for `viz.path_strips_figure`.

    The rows are the tree's own training partition (`ternary.tree.iter_node_rows`: CART's
    split, three ways for a hard-middle tree), so a node's panel holds its ``n``. ``classes``
    (default the model's ``classes_``) turn the labels into class codes: a forest's member
    trees know the codes only, the forest its labels.
    """
    tree = model.tree_
    X32 = np.asarray(X_train, dtype=np.float32)
    codes = np.searchsorted(np.asarray(model.classes_ if classes is None else classes), y_train)
    x = np.asarray(x, dtype=float)
    out = []
    for node, rows in iter_node_rows(tree, X32, getattr(model, "routing", "probabilistic")):
        if node not in path or tree.is_leaf[node]:
            continue
        f = int(tree.feature[node])
        out.append(
            PathNode(
                node=int(node),
                feature=str(feature_names[f]),
                threshold=float(tree.threshold[node]),
                delta=float(tree.delta[node]),
                values=X32[rows, f].astype(float),
                classes=codes[rows],
                x=float(x[f]),
                reach=float(path[node]),
            )
        )
    return out


def path_views(model, names, story: RowStory, split, x, classes) -> None:
    """The row's path on the readable tree, then the split feature's rows at each node on it.

    The diagram at its natural size (node text 12 px, larger when presenting), laid out to
    fit the page (`viz.tree_dot`'s ``max_width_px``) and scrolling sideways past it, never
    shrunk to the page's width (that made 6 px text spill out of its boxes); the legend
    under it. Names are `capped` (they come from a file).
    """
    scale = 1.3 if st.session_state.get("present") else 1.0
    shown_names = [capped(str(n)) for n in names]
    shown_classes = [capped(str(c)) for c in classes]
    for legend in ("none", "only"):
        dot = viz.tree_dot(
            model,
            feature_names=shown_names,
            class_names=shown_classes,
            path=story.path,
            legend=legend,
            text_scale=scale,
            max_width_px=_FIT_WIDTH_PX,
        )
        st.graphviz_chart(dot, width="content")
    st.caption(
        "The row's way through the tree: thick edges; where a zone forks it, the two "
        "branches are drawn in orange with the share of the row each one carries."
    )
    steps = path_nodes(model, split.X_train, split.y_train, x, story.path, shown_names, classes)
    if not steps:
        return
    fig = path_strips_figure(steps, shown_classes)
    st.plotly_chart(present.figure(fig), width="stretch", key="why_strips")
    st.caption(
        "At each split on the row's way: the training rows that reach the node, on its split "
        "feature, stacked by class; the dashed line is θ, the orange band the zone "
        "[θ−δ, θ+δ], the black triangle this row's value."
    )
