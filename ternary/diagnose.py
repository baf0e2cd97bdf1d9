"""Say in words when a fit is degenerate, and what a number needs beside it to be read.

A ternary tree can fit without an error and still be useless: a single leaf that
predicts the majority class for every row, zones that flag every row, or zones that
flag none. `diagnose_fit` tells these apart and names the cause where the fitted
model and its training rows show it; the sentence it returns is meant for a person.

The cause found most often in practice (issue 37): with ``routing="hard_middle"`` the
rows inside a split's zone train a middle subtree, and the split is kept only when
both sides outside the zone keep ``min_samples_leaf`` rows. Methods that draw wide
zones on a feature of few values can swallow one side whole: on the digits, gain
ratio puts δ = 1.45 around θ = 0.5 on a pixel whose values are 0 … 16, so no
training row lies at or below θ − δ = −0.95 and the root stays a leaf (decided
accuracy 0.10, chance for ten classes, nothing flagged). The same zone under
probabilistic routing keeps CART's split and flags the rows inside it.

`value_step` answers the related question of a δ scale that sits on a step: when a
feature takes few values (whole numbers, say), a zone edge can land exactly on a
value, and a small change of ``delta_scale`` then flags a large share at once
(digits: δ scale 1.00 flags 0 %, just above it 80.9 %).

`majority_rate` is the accuracy of always answering the training rows' most common
class: the floor any accuracy should be read against.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import clone
from sklearn.utils.validation import check_is_fitted

from ternary._validation import default_feature_names
from ternary.tree import LEAF, zone_top

__all__ = [
    "DIAGNOSIS_KINDS",
    "FitDiagnosis",
    "ValueStep",
    "diagnose_fit",
    "majority_rate",
    "value_step",
]

#: What `diagnose_fit` can find: nothing wrong, or one of three degenerate fits.
DIAGNOSIS_KINDS = ("ok", "single_leaf", "flags_all", "flags_none")


@dataclass(frozen=True)
class FitDiagnosis:
    """What `diagnose_fit` found: the kind of fit, its cause, and a sentence saying both.

    Parameters
    ----------
    kind : str
        One of `DIAGNOSIS_KINDS`: "ok", "single_leaf" (the tree never split),
        "flags_all" (every row is flagged boundary-uncertain) or "flags_none".
    cause : str
        A short code for the cause: "zone_swallows_side", "one_class", "too_few_rows",
        "no_split", "pruned" (single leaf); "root_zone_covers", "every_path_zone"
        (flags all); "no_zones", "zero_deltas", "between_values", "narrow_zones"
        (flags none); "" when the kind is "ok" and "unknown" where the model does not
        show it (a forest's members, say).
    sentence : str
        The diagnosis for a person, two or three sentences ("" when the kind is "ok").
    headline : str
        The same in one short line, for an alert above a figure.
    flagged_share : float
        The share of the rows diagnosed that the model flags.
    n_rows : int
        How many rows were diagnosed.
    details : dict
        The figures the sentence quotes, by name (feature, threshold, delta, zone
        ends, rows on each side, the δ scale that would change the verdict ...).
    """

    kind: str
    cause: str
    sentence: str
    headline: str
    flagged_share: float
    n_rows: int
    details: dict = field(default_factory=dict)

    @property
    def degenerate(self) -> bool:
        """Whether the fit is one of the degenerate kinds (anything but "ok").

        Returns
        -------
        bool
            True for "single_leaf", "flags_all" and "flags_none".
        """
        return self.kind != "ok"


@dataclass(frozen=True)
class ValueStep:
    """A step of the flagged share close to the fitted δ scale (`value_step`).

    Parameters
    ----------
    scale : float
        The ``delta_scale`` at which the flagged share jumps.
    share_below : float
        The share flagged at scales just below ``scale`` (or at it, for an open zone).
    share_above : float
        The share flagged at scales just above ``scale``.
    fitted_scale : float
        The model's own ``delta_scale_``.
    share_now : float
        The share the model flags at its own scale.
    whole_numbers : bool
        Whether every feature the tree splits on takes whole-number values in the rows.
    sentence : str
        The step said for a person.
    """

    scale: float
    share_below: float
    share_above: float
    fitted_scale: float
    share_now: float
    whole_numbers: bool
    sentence: str


#: distances this close (relative) flip at one visible scale: the two sides of one zone lie
#: a few ulps apart (`TernaryTreeClassifier.boundary_distance` is exact to the bit)
_TIE = 1e-9


def _g(value: float) -> str:
    """A number with 4 significant digits at most, as a person reads it."""
    return f"{float(value):.4g}"


def _pct(share: float) -> str:
    return f"{100 * float(share):.1f} %"


def _feature_name(model, f: int) -> str:
    names = getattr(model, "feature_names_in_", None)
    return str(names[f]) if names is not None else default_feature_names(f + 1)[f]


def _whole(values: np.ndarray) -> bool:
    values = values[np.isfinite(values)]
    return bool(values.size) and bool(np.all(values == np.round(values)))


def majority_rate(y_train: ArrayLike, y: ArrayLike | None = None) -> tuple[object, float]:
    """The training rows' most common class, and the accuracy of always answering it.

    Parameters
    ----------
    y_train : array-like of shape (n_train,)
        The labels the majority class is taken from (ties: the first in sorted order).
    y : array-like of shape (n_samples,), optional
        The rows the accuracy is measured on; ``y_train`` itself by default.

    Returns
    -------
    tuple of (label, float)
        The majority class and the share of ``y`` equal to it.

    Raises
    ------
    ValueError
        When ``y_train`` or ``y`` is empty.

    Examples
    --------
    >>> majority_rate(["good", "good", "bad"], ["good", "bad", "bad", "good"])
    ('good', 0.5)
    """
    y_train = np.asarray(y_train)
    y = y_train if y is None else np.asarray(y)
    if y_train.size == 0 or y.size == 0:
        raise ValueError("majority_rate needs at least one row in y_train and in y.")
    labels, counts = np.unique(y_train, return_counts=True)
    label = labels[int(np.argmax(counts))]
    label = label.item() if hasattr(label, "item") else label
    return label, float(np.mean(y == label))


# ----------------------------------------------------------------------------- single leaf
def _probe(model, X, y):
    """The model's own first split on its training rows under binary routing, or None.

    A depth-1 tree with the model's δ method and parameters: CART's root split and
    the δ the model computes there (node_bootstrap draws afresh: a like-for-like δ).
    """
    params = {"max_depth": 1, "routing": "probabilistic", "graft": "none", "ccp_alpha": 0.0}
    probe = clone(model).set_params(**params).fit(X, y)
    tree = probe.tree_
    if tree.node_count == 1:
        return None
    return int(tree.feature[0]), float(tree.threshold[0]), float(tree.delta[0])


def _no_split_cause(model, y, n: int) -> tuple[str, str, str]:
    """``(cause, clause, headline)`` of a tree CART itself would not split."""
    labels = np.unique(y)
    if labels.size < 2:
        return (
            "one_class",
            f"every one of the {n} training rows has the class {_label(labels[0])}",
            f"One leaf: every training row has the class {_label(labels[0])}.",
        )
    least = max(int(model.min_samples_split), 2 * int(model.min_samples_leaf))
    if n < least:
        return (
            "too_few_rows",
            f"{n} training rows are too few to split (min_samples_split = "
            f"{model.min_samples_split}, min_samples_leaf = {model.min_samples_leaf})",
            f"One leaf: {n} training rows are too few to split.",
        )
    return (
        "no_split",
        "no split of any feature lowers the impurity of the training rows",
        "One leaf: no split of any feature lowers the impurity.",
    )


def _label(value) -> str:
    value = value.item() if hasattr(value, "item") else value
    return repr(value) if isinstance(value, str) else str(value)


def _single_leaf(model, X, Xv, y, flagged, n_rows) -> FitDiagnosis:
    n = Xv.shape[0]
    found = _probe(model, X, y)
    label = _label(model.classes_[int(np.argmax(model.tree_.value[0]))])
    tail = f" The tree answers its majority class ({label}) for every row and flags none."
    if found is None:
        cause, why, head = _no_split_cause(model, y, n)
        text = f"The tree is a single leaf: {why}." + tail
        return FitDiagnosis("single_leaf", cause, text, head, flagged, n_rows)
    f, theta, delta = found
    values = Xv[:, f]
    low, high = theta - delta, zone_top(theta + delta, model.zone_edges)
    left, right = int(np.sum(values <= low)), int(np.sum(values > high))
    name = _feature_name(model, f)
    details = {
        "feature": name,
        "threshold": theta,
        "delta": delta,
        "zone": (low, theta + delta),
        "value_range": (float(values.min()), float(values.max())),
        "rows_left": left,
        "rows_right": right,
        "rows_zone": n - left - right,
        "min_samples_leaf": int(model.min_samples_leaf),
    }
    spread = f"{_g(values.min())} … {_g(values.max())}"
    zone = f"{_g(low)} … {_g(theta + delta)}"
    if model.routing == "hard_middle" and min(left, right) < int(model.min_samples_leaf):
        empty = [s for s, k in (("below", left), ("above", right)) if k < model.min_samples_leaf]
        side = " or ".join(empty)
        text = (
            f"The tree is a single leaf: {model.delta_method}'s zone at the root is too wide. "
            f"It puts δ = {_g(delta)} around θ = {_g(theta)} on {name} (values {spread}), so "
            f"the zone {zone} leaves {min(left, right)} training rows {side} it, and "
            "hard-middle routing needs rows on both sides to split." + tail + " Probabilistic "
            "routing keeps the split; a smaller δ scale or another δ method narrows the zone."
        )
        head = (
            f"One leaf: {model.delta_method}'s root zone {zone} on {name} leaves no row "
            f"{side} it; hard-middle routing needs both sides."
        )
        return FitDiagnosis(
            "single_leaf", "zone_swallows_side", text, head, flagged, n_rows, details
        )
    if float(getattr(model, "ccp_alpha", 0.0)) > 0:
        pruning = f"cost-complexity pruning (ccp_alpha = {_g(model.ccp_alpha)})"
        text = f"The tree is a single leaf: {pruning} cut every split." + tail
        head = f"One leaf: {pruning} cut every split."
        return FitDiagnosis("single_leaf", "pruned", text, head, flagged, n_rows, details)
    text = "The tree is a single leaf." + tail
    return FitDiagnosis(
        "single_leaf", "unknown", text, "One leaf: the tree never split.", flagged, n_rows, details
    )


# ----------------------------------------------------------------------------- flags
def _split_nodes(tree) -> np.ndarray:
    return np.flatnonzero(np.asarray(tree.children_left) != LEAF)


def _distance(model, X) -> np.ndarray | None:
    if model.routing == "hard_middle":
        return None
    return np.asarray(model.boundary_distance(X), dtype=np.float64)


def _flags_none(model, X, Xv) -> FitDiagnosis:
    n = Xv.shape[0]
    tree = model.tree_
    nodes = _split_nodes(tree)
    deltas = np.asarray(tree.delta, dtype=np.float64)[nodes]
    method = model.delta_method
    if method == "none":
        text = "No row is flagged: δ method 'none' is plain CART, without zones."
        head = "Nothing flagged: δ method 'none' is plain CART, without zones."
        return FitDiagnosis("flags_none", "no_zones", text, head, 0.0, n)
    if not np.any(deltas > 0):
        text = (
            f"No row is flagged: {method} gives δ = 0 at every split of this tree (no zone "
            "to fall in); another δ method or more rows per node draw zones."
        )
        head = f"Nothing flagged: {method} gives δ = 0 at every split of this tree."
        return FitDiagnosis("flags_none", "zero_deltas", text, head, 0.0, n)
    used = np.unique(np.asarray(tree.feature)[nodes][deltas > 0])
    whole = all(_whole(Xv[:, f]) for f in used)
    details: dict = {"widest_delta": float(deltas.max()), "whole_numbers": whole}
    distance = _distance(model, X)
    reach = ""
    if distance is not None and np.isfinite(distance).any():
        nearest = float(distance[np.isfinite(distance)].min())
        scale = float(model.delta_scale_) * nearest
        share = float(np.mean(distance <= nearest * (1 + _TIE)))
        details.update({"next_scale": scale, "share_above": share})
        reach = f"; just above δ scale {_g(scale)} it flags {_pct(share)}"
    if whole:
        text = (
            "No row is flagged: the split features take whole-number values and every zone "
            f"lies between two neighbouring values, holding none of these {n} rows" + reach + "."
        )
        head = "Nothing flagged: every zone lies between two whole-number values" + reach + "."
        return FitDiagnosis("flags_none", "between_values", text, head, 0.0, n, details)
    text = (
        f"No row is flagged: the zones (the widest δ = {_g(deltas.max())}) hold none of these "
        f"{n} rows" + reach + "."
    )
    head = f"Nothing flagged: the zones hold none of these {n} rows" + reach + "."
    return FitDiagnosis("flags_none", "narrow_zones", text, head, 0.0, n, details)


def _flags_all(model, X, Xv) -> FitDiagnosis:
    n = Xv.shape[0]
    tree = model.tree_
    f, theta, delta = int(tree.feature[0]), float(tree.threshold[0]), float(tree.delta[0])
    values = Xv[:, f]
    low, high = theta - delta, zone_top(theta + delta, model.zone_edges)
    if delta > 0 and np.all((values > low) & (values <= high)):
        name = _feature_name(model, f)
        details: dict = {
            "feature": name,
            "threshold": theta,
            "delta": delta,
            "zone": (low, theta + delta),
            "value_range": (float(values.min()), float(values.max())),
        }
        zone, spread = (
            f"{_g(low)} … {_g(theta + delta)}",
            f"{_g(values.min())} … {_g(values.max())}",
        )
        text = (
            f"Every row is flagged: the root's zone covers the whole range of its feature. "
            f"{model.delta_method} puts δ = {_g(delta)} around θ = {_g(theta)} on {name}, and "
            f"the zone {zone} holds every value of these {n} rows ({spread}). A smaller δ "
            "scale or another δ method narrows it."
        )
        head = (
            f"Every row flagged: the root's zone {zone} on {name} covers all its values ({spread})."
        )
        return FitDiagnosis("flags_all", "root_zone_covers", text, head, 1.0, n, details)
    details = {}
    distance = _distance(model, X)
    reach = ""
    if distance is not None:
        below = float(model.delta_scale_) * float(distance.max())
        details["decides_below_scale"] = below
        reach = f"; at δ scale {_g(below)} or below some are decided"
    text = f"Every row is flagged: each of these {n} rows meets a zone on its way" + reach + "."
    head = "Every row flagged: each row meets a zone on its way" + reach + "."
    return FitDiagnosis("flags_all", "every_path_zone", text, head, 1.0, n, details)


def _values(X) -> np.ndarray:
    """``X`` as float64 numbers, for reading values (float32 first, as the estimator casts)."""
    return np.asarray(np.asarray(X, dtype=np.float32), dtype=np.float64)


def diagnose_fit(
    model, X_train: ArrayLike, y_train: ArrayLike, X: ArrayLike | None = None
) -> FitDiagnosis:
    """Whether a fitted tree is degenerate, why, and a sentence that says it.

    Three fits are degenerate: a single leaf (it answers the majority class for
    every row and flags none), zones that flag every row of ``X``, and zones that
    flag none. For a single leaf the model's own first split is recomputed on the
    training rows (a depth-1 tree with the same δ method under probabilistic
    routing), so the cause can be named: a hard-middle zone that leaves one side
    without rows, one class, too few rows, no useful split, or pruning.

    Parameters
    ----------
    model : TernaryTreeClassifier or TernaryForestClassifier
        A fitted model. For a forest the kind is found, and the cause only where
        every member tree is a single leaf ("unknown" otherwise).
    X_train : array-like of shape (n_train, n_features)
        The rows the model was fitted on, as given to ``fit``.
    y_train : array-like of shape (n_train,)
        Their labels.
    X : array-like of shape (n_samples, n_features), optional
        The rows whose flagged share is judged (held-out rows, say); ``X_train`` by
        default.

    Returns
    -------
    FitDiagnosis
        The kind ("ok", "single_leaf", "flags_all", "flags_none"), the cause, the
        sentences and the figures they quote.

    Raises
    ------
    sklearn.exceptions.NotFittedError
        For a model that is not fitted.
    ValueError
        For ``X`` without rows.

    Examples
    --------
    >>> import numpy as np
    >>> from ternary import TernaryTreeClassifier
    >>> X = np.array([[v] for v in range(6)] * 5, dtype=float)
    >>> y = np.array([0, 0, 0, 1, 1, 1] * 5)
    >>> cart = TernaryTreeClassifier(delta_method="none").fit(X, y)
    >>> found = diagnose_fit(cart, X, y)
    >>> found.kind, found.cause
    ('flags_none', 'no_zones')
    """
    rows = X_train if X is None else X
    if np.shape(rows)[0] == 0:
        raise ValueError("diagnose_fit needs at least one row in X.")
    verdict = np.asarray(model.predict_verdict(rows))  # checks the model is fitted
    flagged, n = float(np.mean(verdict == 0)), int(verdict.shape[0])
    if hasattr(model, "estimators_"):
        return _forest(model, flagged, n)
    check_is_fitted(model, "tree_")
    Xv = _values(rows)
    if model.tree_.node_count == 1:
        return _single_leaf(model, X_train, _values(X_train), np.asarray(y_train), flagged, n)
    if flagged == 0.0:
        return _flags_none(model, rows, Xv)
    if flagged == 1.0:
        return _flags_all(model, rows, Xv)
    return FitDiagnosis("ok", "", "", "", flagged, n)


def _forest(model, flagged: float, n: int) -> FitDiagnosis:
    size = len(model.estimators_)
    if all(member.tree_.node_count == 1 for member in model.estimators_):
        text = (
            f"Every one of the forest's {size} trees is a single leaf: the forest answers one "
            "class for every row."
        )
        head = f"One leaf in each of the forest's {size} trees: one class for every row."
        return FitDiagnosis("single_leaf", "unknown", text, head, flagged, n)
    if flagged not in (0.0, 1.0):
        return FitDiagnosis("ok", "", "", "", flagged, n)
    kind = "flags_none" if flagged == 0.0 else "flags_all"
    which = "Nothing" if flagged == 0.0 else "Every row"
    head = f"{which} flagged by the forest (it decides a row when at least half its trees do)."
    cause = "no_zones" if model.delta_method == "none" else "unknown"
    return FitDiagnosis(kind, cause, head, head, flagged, n)


# ----------------------------------------------------------------------------- steps
def value_step(model, X: ArrayLike, span: float = 0.05, min_jump: float = 0.1) -> ValueStep | None:
    """A jump of the flagged share within ``span`` of the model's δ scale, or None.

    The flagged share of a tree with binary routing is a step function of
    ``delta_scale``: a refit at ``delta_scale_ · s`` flags exactly the rows whose
    `TernaryTreeClassifier.boundary_distance` is below ``s``. Where many rows share
    one distance (a feature of whole numbers puts them at the same distance from θ),
    one step moves many rows at once, and a reader moving the δ scale slider sees the
    share leap. This finds the nearest such step above and below the fitted scale.

    Parameters
    ----------
    model : TernaryTreeClassifier
        A fitted tree. Hard-middle routing (whose tree changes with the scale) and
        forests give None.
    X : array-like of shape (n_samples, n_features)
        The rows whose flagged share is followed.
    span : float, default=0.05
        How far from the fitted scale a step is looked for, as a fraction of it.
    min_jump : float, default=0.1
        The least change of the flagged share reported as a step.

    Returns
    -------
    ValueStep or None
        The step nearest the fitted scale, or None where there is none that large.

    Examples
    --------
    >>> import numpy as np
    >>> from ternary import TernaryTreeClassifier
    >>> X = np.array([[v] for v in range(4)] * 10, dtype=float)
    >>> y = np.array([0, 0, 1, 1] * 10)
    >>> tree = TernaryTreeClassifier(delta_method="margin").fit(X, y)
    >>> step = value_step(tree, X)
    >>> step.scale, step.share_below, step.share_above
    (1.0, 0.0, 0.5)
    """
    if hasattr(model, "estimators_") or getattr(model, "routing", "") == "hard_middle":
        return None
    check_is_fitted(model, "tree_")
    if np.shape(X)[0] == 0:
        return None
    distance = np.asarray(model.boundary_distance(X), dtype=np.float64)
    if not np.isfinite(distance).any():
        return None
    s0 = float(model.delta_scale_)
    now = float(np.mean(np.asarray(model.predict_verdict(X)) == 0))

    def step(at: float) -> tuple[float, float, float]:
        below = float(np.mean(distance < at * (1 - _TIE)))
        return at, below, float(np.mean(distance <= at * (1 + _TIE)))

    steps = []
    up = distance[(distance >= 1.0) & (distance <= 1.0 + span)]
    if up.size:
        steps.append(step(float(up.min())))
    down = distance[(distance < 1.0) & (distance >= 1.0 - span)]
    if down.size:
        steps.append(step(float(down.max())))
    steps = [s for s in steps if s[2] - s[1] >= min_jump]
    if not steps:
        return None
    at, below, above = min(steps, key=lambda s: abs(s[0] - 1.0))
    tree = model.tree_
    nodes = _split_nodes(tree)
    used = np.unique(np.asarray(tree.feature)[nodes])
    Xv = _values(X)
    whole = all(_whole(Xv[:, f]) for f in used)
    scale = s0 * at
    why = (
        "The split features take whole-number values"
        if whole
        else "Many rows sit at the same distance from a split"
    )
    sentence = (
        f"{why}, so the flagged share moves in steps: up to δ scale {_g(scale)} the tree "
        f"flags {_pct(below)} of these rows, just above it {_pct(above)}."
    )
    return ValueStep(scale, below, above, s0, now, whole, sentence)
