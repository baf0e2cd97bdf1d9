"""Ternary rule extraction: a fitted tree as rules that are decided or boundary-uncertain.

The paper closes with "ternary rule extraction for interpretable classification with
boundary-uncertain verdicts" as future work; this module is our reading of it.

**Decided rules.** Every leaf gives one rule: the conjunction of its path's conditions
*outside* the zones, ``x ≤ θ−δ`` on a left branch and ``x > θ+δ`` on a right one (``x ≤ θ``
and ``x > θ`` where δ = 0), with the leaf's class. A row is decided exactly when no zone on
its CART path holds it, and then every test on that path is one of these strict conditions:
so the decided rules partition the decided rows (each is covered by exactly one, which
predicts the library's class for it) and cover no flagged row.

**Where a row becomes boundary-uncertain.** For the binary routings each zoned split ``n``
gives one zone rule: the strict conditions leading to ``n`` and ``θ−δ < x ≤ θ+δ`` at ``n``.
With the model's open ``zone_edges`` (the default) the zone is ``θ−δ < x < θ+δ`` and a
right branch reads ``x ≥ θ+δ``: every condition follows the verdict's own zone.
It covers the rows whose *first* zone is ``n``, so the zone rules partition the flagged
rows. Their prediction is not one class (``prediction`` is None): inside the zone the
library blends both subtrees. With ``routing="probabilistic"`` the blend goes on through
every zone below ``n``; with ``routing="deferred"`` a row routes like CART (``x ≤ θ``) below
its first zone, so zones deeper than ``n`` never matter to it and its class is the blend,
with weights ``w_L = (θ+δ−x)/(2δ)`` and ``1 − w_L``, of the one CART leaf it reaches on each
side of ``n``. Hence the deferred reading: the decided rules are the same as the
probabilistic ones (the verdict only asks whether CART's path meets a zone), and the zone
rules are where deferred and probabilistic predictions can differ. **hard_middle** trees
route every row to exactly one leaf; a leaf reached through a middle branch
(``θ−δ < x ≤ θ+δ``, then the middle subtree's own conditions) gives a boundary-uncertain
rule with that leaf's class. Grafted splits are splits like any other.

**Simplification** (`simplify_rules`) follows C4.5's rule post-processing (Quinlan 1993,
ch. 5): from each decided rule it drops, one at a time, the condition whose removal gives
the lowest pessimistic error rate, while that rate does not exceed the rule's current one.
The pessimistic rate of a rule covering ``N`` rows with ``E`` errors is the upper limit
``U_CF(E, N)`` of the binomial confidence interval, the ``p`` with
``P(Bin(N, p) ≤ E) = CF``, CF = 0.25 as in C4.5 (scipy.stats' beta quantile, the exact
identity). Simplified rules overlap and need not keep the partition; `rule_summary`
reports a rule set's coverage and accuracy, reading it as a decision list.

Conditions compare the float32 value of a feature with a float64 bound, exactly as the
library routes, so `Rule.covers` agrees with ``predict_verdict`` to the last bit.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ternary.codegen import TreePlan, tree_plan

__all__ = [
    "Condition",
    "Rule",
    "extract_rules",
    "pessimistic_error",
    "rule_summary",
    "rules_to_frame",
    "rules_to_text",
    "simplify_rules",
]


@dataclass(frozen=True)
class Condition:
    """One test ``x[feature] <= threshold`` or ``x[feature] > threshold`` (on float32 ``x``).

    Each parameter is kept as the attribute of the same name.

    Parameters
    ----------
    feature : int
        Column index of the tested feature, in the model's feature order.
    name : str
        That feature's name, for the text of the rule.
    op : {"<=", ">", "<", ">="}
        The comparison; ``<`` and ``>=`` test an open zone's upper end θ+δ.
    threshold : float
        The float64 bound the float32 value is compared with (θ−δ, θ+δ, or θ where
        δ = 0).
    """

    feature: int
    name: str
    op: str
    threshold: float

    def holds(self, X32: np.ndarray) -> np.ndarray:
        """Test every row of a float32 array.

        Parameters
        ----------
        X32 : ndarray of shape (n_samples, n_features), float32
            The rows, features in model order (at least ``feature + 1`` columns).

        Returns
        -------
        ndarray of shape (n_samples,), bool
            True for the rows passing the test, the float32 values compared as float64.
        """
        column = X32[:, self.feature].astype(np.float64)
        return _OPS[self.op](column, self.threshold)

    def __str__(self) -> str:
        return self.text()

    def text(self, digits: int = 6) -> str:
        """``name op threshold`` with ``digits`` significant digits.

        Parameters
        ----------
        digits : int, default=6
            Significant digits of the threshold.

        Returns
        -------
        str
            The condition as text.
        """
        return f"{self.name} {self.op} {_num(self.threshold, digits)}"


_OPS = {"<=": np.less_equal, "<": np.less, ">": np.greater, ">=": np.greater_equal}
_UPPER = ("<=", "<")  # the ops that bound a feature from above


def _num(value: float, digits: int = 6) -> str:
    return f"{value:.{digits}g}"


@dataclass(frozen=True)
class Rule:
    """A conjunction of conditions with its class and verdict.

    Made by `extract_rules` and `simplify_rules`; each parameter is kept as the
    attribute of the same name.

    Parameters
    ----------
    conditions : tuple of Condition
        At most one upper (``<=``/``<``) and one lower (``>``/``>=``) bound per feature
        (the tightest on the path).
    prediction : class label or None
        The class of every row the rule covers; None for a zone rule of a binary routing,
        where the library blends both subtrees.
    verdict : int
        1 decided, 0 boundary-uncertain.
    support : int or None
        Rows covered (of the data given to `extract_rules`; without data, the training
        rows the tree stored at the leaf; None where unknown).
    accuracy : float
        Share of covered rows whose label the library predicts (NaN with no support).
    node : int
        The leaf (or, for a zone rule, the split) of ``tree_`` the rule comes from.
    kind : {"leaf", "zone", "middle", "simplified"}
        How the rule was made: a leaf's decided rule, a binary routing's zone rule, a
        hard_middle leaf reached through a middle branch, or a simplified decided rule.
    """

    conditions: tuple[Condition, ...]
    prediction: object
    verdict: int
    support: int | None
    accuracy: float
    node: int
    kind: str

    def covers(self, X: ArrayLike) -> np.ndarray:
        """Boolean mask of the rows of ``X`` the rule covers.

        ``X`` has the model's features in order (a DataFrame is read by feature name);
        values are cast to float32 as the library does.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The rows.

        Returns
        -------
        ndarray of shape (n_samples,), bool
            True for the rows every condition holds on.
        """
        X32 = _as_float32(X, self.conditions)
        mask = np.ones(X32.shape[0], dtype=bool)
        for condition in self.conditions:
            mask &= condition.holds(X32)
        return mask

    def condition_text(self, digits: int = 6) -> str:
        """The conditions, merged per feature: ``a <= 1``, ``0.2 < b <= 0.7``.

        Thresholds are shown with ``digits`` significant digits (the rule keeps them exact).

        Parameters
        ----------
        digits : int, default=6
            Significant digits of the thresholds.

        Returns
        -------
        str
            The conditions joined by ``AND``; ``(always)`` for none.
        """
        parts = []
        for feature in dict.fromkeys(c.feature for c in self.conditions):
            mine = [c for c in self.conditions if c.feature == feature]
            upper = [c for c in mine if c.op in _UPPER]
            lower = [c for c in mine if c.op not in _UPPER]
            if upper and lower:
                low, high = _num(lower[0].threshold, digits), _num(upper[0].threshold, digits)
                left = "<" if lower[0].op == ">" else "<="
                parts.append(f"{low} {left} {mine[0].name} {upper[0].op} {high}")
            else:
                parts.append(mine[0].text(digits))
        return " AND ".join(parts) if parts else "(always)"

    def outcome_text(self) -> str:
        """What the rule concludes, as text.

        Returns
        -------
        str
            ``class c (decided)``, ``class c (boundary-uncertain)``, or the blend note.
        """
        if self.prediction is None:
            return "boundary-uncertain (blended from both sides)"
        verdict = "decided" if self.verdict else "boundary-uncertain"
        return f"class {self.prediction} ({verdict})"

    def __str__(self) -> str:
        support = "?" if self.support is None else str(self.support)
        accuracy = "n/a" if not np.isfinite(self.accuracy) else f"{self.accuracy:.3f}"
        return (
            f"IF {self.condition_text()} THEN {self.outcome_text()}"
            f"  [support {support}, accuracy {accuracy}]"
        )


def _as_float32(X, conditions) -> np.ndarray:
    if hasattr(X, "columns"):
        names = {c.feature: c.name for c in conditions}
        if all(name in X.columns for name in names.values()):
            n = max(names, default=-1) + 1
            out = np.zeros((len(X), n), dtype=np.float32)
            for feature, name in names.items():
                out[:, feature] = np.asarray(X[name], dtype=np.float32)
            return out
    X32 = np.asarray(X, dtype=np.float32)
    if X32.ndim != 2:
        raise ValueError(f"X must be 2-D (rows × features); got shape {X32.shape}.")
    return X32


def _merged(conditions: list[Condition]) -> tuple[Condition, ...] | None:
    """The tightest upper and lower bound per feature; None when no float32 value meets both."""
    upper: dict[int, Condition] = {}
    lower: dict[int, Condition] = {}
    order: list[tuple[int, bool]] = []
    for c in conditions:
        is_upper = c.op in _UPPER
        table = upper if is_upper else lower
        best = table.get(c.feature)
        if best is None:
            order.append((c.feature, is_upper))
        # tighter: a lower upper bound (a higher lower one), or the same one strict
        key = (c.threshold, c.op in ("<", ">"))
        if best is None or (
            (key[0], -key[1]) < (best.threshold, -(best.op == "<"))
            if is_upper
            else key > (best.threshold, best.op == ">")
        ):
            table[c.feature] = c
    for feature, high in upper.items():
        low = lower.get(feature)
        if low is not None and not _float32_between(low, high):
            return None
    return tuple((upper if is_upper else lower)[f] for f, is_upper in order)


def _float32_between(low: Condition, high: Condition) -> bool:
    """Is there a float32 ``v`` meeting both the lower and the upper condition?"""
    v = np.float32(low.threshold)
    # the smallest float32 meeting the lower bound, then the upper bound on it
    if float(v) < low.threshold or (low.op == ">" and float(v) == low.threshold):
        v = np.nextafter(v, np.float32(np.inf))
    return bool(np.isfinite(v)) and bool(_OPS[high.op](float(v), high.threshold))


def extract_rules(
    clf,
    X: ArrayLike | None = None,
    y: ArrayLike | None = None,
    *,
    simplify: bool = False,
    cf: float = 0.25,
    uncertain: bool = True,
    feature_names: list[str] | None = None,
) -> list[Rule]:
    """The rules of a fitted `TernaryTreeClassifier`, ordered by support (largest first).

    One decided rule per leaf (its path's conditions outside the zones) and, with
    ``uncertain``, the boundary-uncertain rules: for the binary routings one per zoned split
    (where a row meets its first zone), for hard_middle one per leaf reached through a
    middle branch. See the module docstring for the reading, and why the decided rules
    partition the decided rows.

    Parameters
    ----------
    clf : TernaryTreeClassifier
        A fitted tree (any routing, grafted or not).
    X, y : array-like, optional
        Rows to count support and accuracy on, normally the training rows. Without them a
        leaf rule reports the training rows the tree stored at its leaf (for the binary
        routings these include rows that zones above flagged) and the leaf's class share
        (weighted), and a zone rule reports None and NaN.
    simplify : bool, default=False
        Simplify the decided rules as C4.5 does (`simplify_rules`; needs ``X`` and ``y``).
    cf : float in (0, 1), default=0.25
        C4.5's confidence factor for the simplification.
    uncertain : bool, default=True
        Include the boundary-uncertain rules.
    feature_names : list of str, optional
        One name per feature for the conditions; default the fitted names, else
        ``x0, x1, …``. A DataFrame ``X`` is read by these names.

    Returns
    -------
    list of Rule
        The decided rules, then (with ``uncertain``) the boundary-uncertain ones.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from ternary import TernaryTreeClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = TernaryTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    >>> rules = extract_rules(clf, X, y)
    >>> for rule in rules:
    ...     print(rule)
    IF 1 <= x3 <= 1.7 THEN class 1 (decided)  [support 54, accuracy 0.907]
    IF x3 <= 0.6 THEN class 0 (decided)  [support 50, accuracy 1.000]
    IF x3 >= 1.8 THEN class 2 (decided)  [support 46, accuracy 0.978]
    IF 0.6 < x3 < 1 THEN boundary-uncertain (blended from both sides)  [support 0, accuracy n/a]
    IF 1.7 < x3 < 1.8 THEN boundary-uncertain (blended from both sides)  [support 0, accuracy n/a]
    """
    if hasattr(clf, "estimators_"):
        raise ValueError(
            "extract_rules reads one tree; a forest's rules would overlap across its trees. "
            "Pass one member (forest.estimators_[i]) or fit a TernaryTreeClassifier."
        )
    from sklearn.utils.validation import check_is_fitted

    check_is_fitted(clf, "tree_")
    plan = tree_plan(clf)
    names = _names(clf) if feature_names is None else [str(n) for n in feature_names]
    if len(names) != int(clf.n_features_in_):
        raise ValueError(
            f"feature_names has {len(names)} names; the model has {clf.n_features_in_} features."
        )
    rules = [r for r in _walk(plan, names) if uncertain or r[2] == 1]
    built = [
        _finish(clf, plan, conds, kind, verdict, node, X, y) for conds, kind, verdict, node in rules
    ]
    if simplify:
        if X is None or y is None:
            raise ValueError("simplify=True needs the rows to estimate errors on: pass X and y.")
        built = simplify_rules(built, X, y, cf=cf)
    return _ordered(built)


def _names(clf) -> list[str]:
    fitted = getattr(clf, "feature_names_in_", None)
    if fitted is not None:
        return [str(v) for v in fitted]
    return [f"x{i}" for i in range(int(clf.n_features_in_))]


def _walk(plan: TreePlan, names: list[str]):
    """``(conditions, kind, verdict, node)`` per rule, in preorder; empty rules dropped."""
    out = []
    stack: list[tuple[int, list[Condition], bool]] = [(0, [], False)]
    while stack:
        node, conds, middle_path = stack.pop()
        if plan.is_leaf(node):
            merged = _merged(conds)
            if merged is not None:
                kind = "middle" if middle_path else "leaf"
                out.append((merged, kind, 0 if middle_path else 1, node))
            continue
        f, name = plan.feature[node], names[plan.feature[node]]

        def cond(op, t, f=f, name=name):
            return Condition(f, name, op, float(t))

        if not plan.zoned(node):
            t = plan.threshold[node]
            stack.append((plan.right[node], conds + [cond(">", t)], middle_path))
            stack.append((plan.left[node], conds + [cond("<=", t)], middle_path))
            continue
        lo, hi = plan.lo[node], plan.hi[node]
        # an open zone ends before θ+δ, where the right branch starts (compared exactly)
        below, above = ("<", ">=") if plan.zone_edges == "open" else ("<=", ">")
        zone = [cond(">", lo), cond(below, hi)]
        if plan.routing == "hard_middle":
            stack.append((plan.middle[node], conds + zone, True))
        else:
            merged = _merged(conds + zone)
            if merged is not None:
                out.append((merged, "zone", 0, node))
        stack.append((plan.right[node], conds + [cond(above, hi)], middle_path))
        stack.append((plan.left[node], conds + [cond("<=", lo)], middle_path))
    return out


def _finish(clf, plan, conditions, kind, verdict, node, X, y) -> Rule:
    prediction = None if kind == "zone" else clf.classes_[int(np.argmax(plan.value[node]))]
    if prediction is not None and isinstance(prediction, np.generic):
        prediction = prediction.item()
    rule = Rule(conditions, prediction, verdict, None, float("nan"), node, kind)
    if X is not None and y is not None:
        return _scored(rule, clf, X, y)
    if kind == "zone":
        return rule
    share = float(np.max(plan.value[node]))
    return replace(rule, support=int(clf.tree_.n_node_samples[node]), accuracy=share)


def _scored(rule: Rule, clf, X, y) -> Rule:
    """The rule with support and accuracy counted on ``X``, ``y``."""
    y = np.asarray(y)
    mask = rule.covers(X)
    support = int(mask.sum())
    if not support:
        return replace(rule, support=0, accuracy=float("nan"))
    if rule.prediction is None:
        predicted = clf.predict(_model_rows(clf, X, mask))
    else:
        predicted = np.full(support, rule.prediction, dtype=object)
    accuracy = float(np.mean(np.asarray(predicted, dtype=object) == y[mask].astype(object)))
    return replace(rule, support=support, accuracy=accuracy)


def _model_rows(clf, X, mask):
    """``X[mask]`` in the form ``clf`` was fitted on (named columns or a plain array)."""
    fitted = getattr(clf, "feature_names_in_", None)
    if hasattr(X, "iloc"):
        rows = X.iloc[np.flatnonzero(mask)]
        return rows if fitted is not None else rows.to_numpy()
    rows = np.asarray(X)[mask]
    return pd.DataFrame(rows, columns=fitted) if fitted is not None else rows


def _ordered(rules: list[Rule]) -> list[Rule]:
    return sorted(
        rules, key=lambda r: (-(r.support if r.support is not None else -1), -r.verdict, r.node)
    )


def pessimistic_error(errors: float, n: float, cf: float = 0.25) -> float:
    """Compute C4.5's pessimistic error rate ``U_CF(E, N)``.

    It is the ``p`` with ``P(Bin(N, p) ≤ E) = CF``: the upper limit of the one-sided
    binomial (Clopper–Pearson) interval, computed as the beta quantile
    ``Beta⁻¹(1 − CF; E + 1, N − E)``.

    Parameters
    ----------
    errors : float
        ``E``, the rows covered whose label is not the rule's class.
    n : float
        ``N``, the rows covered.
    cf : float, default=0.25
        C4.5's confidence level CF, in (0, 1); smaller is more pessimistic.

    Returns
    -------
    float
        The rate in [0, 1]; 1 when ``E ≥ N`` (or ``N = 0``).

    Examples
    --------
    >>> round(pessimistic_error(0, 6), 4)  # C4.5's U_0.25(0, 6)
    0.2063
    """
    from scipy.stats import beta

    if n <= 0 or errors >= n:
        return 1.0
    return float(beta.ppf(1.0 - cf, errors + 1, n - errors))


def simplify_rules(
    rules: list[Rule], X: ArrayLike, y: ArrayLike, *, cf: float = 0.25
) -> list[Rule]:
    """Simplify the decided rules as C4.5 does; other rules are kept as they are.

    For each decided rule (class ``c``), on the rows ``X``, ``y``: repeatedly drop the
    condition whose removal gives the lowest pessimistic error rate
    (`pessimistic_error`, counting covered rows whose label is not ``c``), as long as that
    rate does not exceed the rule's current one. Rules that become identical are merged.
    Support and accuracy are recounted on ``X``, ``y``.

    Parameters
    ----------
    rules : list of Rule
        Rules as `extract_rules` returns them.
    X : array-like of shape (n_samples, n_features)
        Rows to count on, the model's features in order (a DataFrame is read by
        feature name); cast to float32 as the library does.
    y : array-like of shape (n_samples,)
        Their labels.
    cf : float, default=0.25
        The confidence level of `pessimistic_error`, in (0, 1).

    Returns
    -------
    list of Rule
        Ordered by support (largest first); simplified rules have
        ``kind="simplified"``, the others are returned unchanged.

    Raises
    ------
    ValueError
        For ``cf`` outside (0, 1), or an ``X`` that is not 2-D.
    """
    if not 0.0 < cf < 1.0:
        raise ValueError(f"cf must be in (0, 1) (C4.5 uses 0.25); got {cf!r}.")
    y = np.asarray(y).astype(object)
    out, seen = [], set()
    for rule in rules:
        if rule.verdict != 1 or rule.prediction is None:
            out.append(rule)
            continue
        X32 = _as_float32(X, rule.conditions)
        passes = np.array([c.holds(X32) for c in rule.conditions]).reshape(-1, X32.shape[0])
        wrong = y != rule.prediction
        keep = _c45_keep(passes, wrong, cf)
        mask = passes[keep].all(axis=0)
        conditions = tuple(rule.conditions[i] for i in keep)
        signature = (conditions, rule.prediction)
        if signature in seen:
            continue
        seen.add(signature)
        support = int(mask.sum())
        accuracy = float(np.mean(~wrong[mask])) if support else float("nan")
        out.append(
            replace(
                rule, conditions=conditions, support=support, accuracy=accuracy, kind="simplified"
            )
        )
    return _ordered(out)


def _upper(errors: np.ndarray, n: np.ndarray, cf: float) -> np.ndarray:
    """`pessimistic_error` for arrays of counts.

    The same beta quantile through `scipy.special.betaincinv`, which `scipy.stats.beta.ppf`
    calls too, without the distribution machinery's per-call checks (a test holds the two
    equal).
    """
    from scipy.special import betaincinv

    errors, n = np.broadcast_arrays(np.asarray(errors, dtype=float), np.asarray(n, dtype=float))
    out = np.ones(errors.shape)
    ok = (n > 0) & (errors < n)
    out[ok] = betaincinv(errors[ok] + 1, n[ok] - errors[ok], 1.0 - cf)
    return out


def _c45_keep(passes: np.ndarray, wrong: np.ndarray, cf: float) -> list[int]:
    """The conditions (rows of ``passes``) C4.5's greedy deletion keeps.

    Dropping one condition adds exactly the rows that fail it and pass every other kept
    one, so one count of failures per row gives every trial's cover at once.
    """
    keep = list(range(passes.shape[0]))
    initial = (~passes).sum(axis=0)
    covered = initial == 0
    current = float(_upper(wrong[covered].sum(), covered.sum(), cf))
    while keep:
        # after d deletions a row fails at least initial − d conditions: only rows within
        # one failure of the cover can join it in this step
        near = np.flatnonzero(initial <= passes.shape[0] - len(keep) + 1)
        fails = ~passes[np.ix_(np.asarray(keep), near)]
        count = fails.sum(axis=0)
        covered, single = count == 0, count == 1
        which = np.argmax(fails[:, single], axis=0)  # the one failed condition, per row
        gained = np.bincount(which, minlength=len(keep))
        near_wrong = wrong[near]
        gained_wrong = np.bincount(which, weights=near_wrong[single], minlength=len(keep))
        rates = _upper(near_wrong[covered].sum() + gained_wrong, covered.sum() + gained, cf)
        best = int(np.argmin(rates))  # the first of equal rates, as C4.5 scans them
        if rates[best] > current:
            break
        current = float(rates[best])
        keep.pop(best)
    return keep


def rule_summary(rules: list[Rule], X: ArrayLike, y: ArrayLike) -> dict:
    """Coverage and accuracy of the decided rules of a rule set, read as a decision list.

    A row is covered when some rule with verdict 1 and a class covers it; its prediction is
    the class of the first such rule in list order. For the unsimplified rules (a partition)
    coverage is the decided share and accuracy the decided accuracy.

    Parameters
    ----------
    rules : list of Rule
        The rule set, in the order read as a decision list.
    X : array-like of shape (n_samples, n_features)
        Rows, the model's features in order (a DataFrame is read by feature name).
    y : array-like of shape (n_samples,)
        Their labels.

    Returns
    -------
    dict
        ``n_rules`` (decided rules with a class), ``n_conditions`` (their total),
        ``coverage`` (share of rows covered), ``accuracy`` (share of covered rows
        predicted right; NaN when nothing is covered) and ``overlap`` (share of rows
        covered by more than one rule); the shares are NaN for no rows.
    """
    y = np.asarray(y).astype(object)
    decided = [r for r in rules if r.verdict == 1 and r.prediction is not None]
    n = y.shape[0]
    predicted = np.full(n, None, dtype=object)
    hits = np.zeros(n, dtype=np.intp)
    for rule in decided:
        mask = rule.covers(X)
        hits += mask
        fresh = mask & (predicted == None)  # noqa: E711 - elementwise test on an object array
        predicted[fresh] = rule.prediction
    covered = hits > 0
    accuracy = float(np.mean(predicted[covered] == y[covered])) if covered.any() else float("nan")
    return {
        "n_rules": len(decided),
        "n_conditions": int(sum(len(r.conditions) for r in decided)),
        "coverage": float(covered.mean()) if n else float("nan"),
        "accuracy": accuracy,
        "overlap": float((hits > 1).mean()) if n else float("nan"),
    }


def rules_to_text(rules: list[Rule]) -> str:
    """One numbered line per rule, ordered by support.

    Parameters
    ----------
    rules : list of Rule
        Rules as `extract_rules` returns them.

    Returns
    -------
    str
        The lines, each ending in a newline.
    """
    lines = [f"R{i + 1}: {rule}" for i, rule in enumerate(_ordered(list(rules)))]
    return "\n".join(lines) + ("\n" if lines else "")


def rules_to_frame(rules: list[Rule]) -> pd.DataFrame:
    """One row per rule, ordered by support: conditions, prediction, verdict, counts.

    Parameters
    ----------
    rules : list of Rule
        Rules as `extract_rules` returns them.

    Returns
    -------
    pandas.DataFrame
        Columns rule, conditions, prediction, verdict, support, accuracy, n_conditions,
        kind and node.
    """
    ordered = _ordered(list(rules))
    frame = pd.DataFrame(
        {
            "rule": [f"R{i + 1}" for i in range(len(ordered))],
            "conditions": [r.condition_text() for r in ordered],
            "prediction": pd.Series([r.prediction for r in ordered], dtype=object),
            "verdict": np.array([r.verdict for r in ordered], dtype=np.int8),
            "support": pd.array([r.support for r in ordered], dtype="Int64"),
            "accuracy": np.array([r.accuracy for r in ordered], dtype=np.float64),
            "n_conditions": np.array([len(r.conditions) for r in ordered], dtype=np.intp),
            "kind": [r.kind for r in ordered],
            "node": np.array([r.node for r in ordered], dtype=np.intp),
        }
    )
    return frame
