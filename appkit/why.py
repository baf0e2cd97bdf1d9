""" "Why is this row flagged?": one row's way through the tree, in words and numbers.

`row_story` follows one row from the root and lists every split it reaches:
its value against θ − δ, θ and θ + δ, how far it lies from θ in units of δ, the
blend weights w_L / w_R, the probabilities each side of the split gives the
row, and what the node passes up. The arithmetic is the routing documented in
`ternary._tree.traverse`; a test checks that the root's blended result equals
the estimator's own ``predict_proba`` for every row and routing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from viz.labels import format_number

__all__ = ["RowStory", "row_story"]


@dataclass
class RowStory:
    """One row's explanation: a sentence, the splits it reached, the blended result."""

    sentence: str
    steps: pd.DataFrame
    proba: np.ndarray
    flagged: bool
    path: dict[int, float]  # every node reached, leaves included, with the row's share


class _Walker:
    """Blends one row bottom-up and records each split it reaches (preorder)."""

    def __init__(self, model, x: np.ndarray, feature_names):
        self.tree, self.routing = model.tree_, model.routing
        # the estimator compares float32 rows with its thresholds
        self.x = np.asarray(x, dtype=np.float32).astype(np.float64)
        self.names = list(feature_names)
        self.steps: list[dict] = []
        self.reach: dict[int, float] = {}

    def proba(self, node: int, reach: float, hard: bool) -> np.ndarray:
        t = self.tree
        self.reach[node] = reach
        if t.children_left[node] < 0:
            return t.value[node]
        f, theta, delta = int(t.feature[node]), float(t.threshold[node]), float(t.delta[node])
        x = float(self.x[f])
        lo, hi = theta - delta, theta + delta
        in_zone = delta > 0 and lo < x <= hi and not hard
        step = {
            "node": node,
            "reached with weight": reach,
            "feature": self.names[f] if f < len(self.names) else f"x[{f}]",
            "x": x,
            "θ − δ": lo,
            "θ": theta,
            "θ + δ": hi,
            "distance to θ in δ": abs(x - theta) / delta if delta > 0 else np.inf,
            "in zone": in_zone,
        }
        self.steps.append(step)
        if in_zone and self.routing == "hard_middle":
            w_left, sides = 0.0, [("middle", t.children_middle[node], 1.0)]
        elif in_zone:
            w_left = min(max((hi - x) / (2.0 * delta), 0.0), 1.0)
            sides = [
                ("left", t.children_left[node], w_left),
                ("right", t.children_right[node], 1.0 - w_left),
            ]
        else:
            go_left = x <= (theta if (hard or delta <= 0) else lo)
            w_left = 1.0 if go_left else 0.0
            child = t.children_left[node] if go_left else t.children_right[node]
            sides = [("left" if go_left else "right", child, 1.0)]
        # below a zone, deferred routing follows both subtrees the CART way
        below_hard = hard or (in_zone and self.routing == "deferred")
        out = np.zeros(t.n_classes)
        for side, child, weight in sides:
            if weight <= 0:
                continue
            p = self.proba(int(child), reach * weight, below_hard)
            step[f"P({side})"] = p
            out += weight * p
        step.update({"w_L": w_left, "w_R": 1.0 - w_left if len(sides) == 2 else 0.0, "P": out})
        if len(sides) == 1 and sides[0][0] != "middle":
            step["w_R"] = 1.0 - w_left
        return out


def _sentence(step, classes, proba) -> str:
    name = step["feature"]
    x, lo, hi = (format_number(step[k]) for k in ("x", "θ − δ", "θ + δ"))
    where = "the root split" if step["node"] == 0 else f"split node {step['node']}"
    predicted = classes[int(np.argmax(proba))]
    if "P(middle)" in step:
        return (
            f"{name} = {x} lies inside the zone of {where} ({lo} – {hi}): the row goes down "
            f"the middle branch, grown on the training rows of that zone, which predicts "
            f"{predicted} ({100 * proba.max():.0f} %)."
        )
    return (
        f"{name} = {x} lies inside the zone of {where} ({lo} – {hi}): the tree blends "
        f"{100 * step['w_L']:.0f} % left / {100 * step['w_R']:.0f} % right, and predicts "
        f"{predicted} ({100 * proba.max():.0f} %)."
    )


def row_story(model, x, feature_names) -> RowStory:
    """Explain ``model``'s prediction for the one row ``x`` (its values in feature order)."""
    walker = _Walker(model, x, feature_names)
    proba = walker.proba(0, 1.0, False)
    classes = [str(c) for c in model.classes_]
    zones = [s for s in walker.steps if s["in zone"]]
    if zones:
        sentence = _sentence(max(zones, key=lambda s: s["reached with weight"]), classes, proba)
    else:
        nearest = min(walker.steps, key=lambda s: s["distance to θ in δ"], default=None)
        sentence = "Decided: every split on this row's path is clear of its zone, so it is "
        sentence += f"not flagged; the tree predicts {classes[int(np.argmax(proba))]} "
        sentence += f"({100 * proba.max():.0f} %)."
        if nearest is not None and np.isfinite(nearest["distance to θ in δ"]):
            sentence += (
                f" The nearest zone is at {nearest['feature']} "
                f"({format_number(nearest['θ − δ'])} – {format_number(nearest['θ + δ'])}), "
                f"{nearest['distance to θ in δ']:.2g} δ from θ."
            )
    return RowStory(sentence, _table(walker.steps, classes), proba, bool(zones), walker.reach)


def _table(steps, classes) -> pd.DataFrame:
    rows = []
    for s in steps:
        row = {k: s[k] for k in ("node", "feature", "x", "θ − δ", "θ", "θ + δ")}
        row["distance to θ (in δ)"] = s["distance to θ in δ"]
        row["zone?"] = "inside" if s["in zone"] else "outside"
        middle = "P(middle)" in s
        row["w_L / w_R"] = "middle branch" if middle else f"{s['w_L']:.2f} / {s['w_R']:.2f}"
        for side in ("left", "right", "middle"):
            if f"P({side})" in s:
                row[f"{side} subtree"] = _probs(s[f"P({side})"], classes)
        row["blended"] = _probs(s["P"], classes)
        row["reached with weight"] = s["reached with weight"]
        rows.append(row)
    return pd.DataFrame(rows)


def _probs(p, classes) -> str:
    return ", ".join(f"{c}: {v:.2f}" for c, v in zip(classes, p, strict=True))
