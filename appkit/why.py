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

from ternary.explain import RowExplanation, explain_row

__all__ = ["RowStory", "row_story"]


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
    e = explain_row(model, x, list(feature_names))
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
