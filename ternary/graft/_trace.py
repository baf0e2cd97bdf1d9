"""Grafting step by step: `graft_trace` records what `graft_tree` does, as it does it.

The trace is read from the grafting run itself (`ternary.graft._apply._run`): the search
tells a `Climb` every candidate cut it scans at every ancestor, and the decisions are the
run's own (its binomial p-values, its accepted tuples, the tuples its ordering dropped
and why). Nothing is computed a second time, so the trace cannot disagree with the tree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ternary.delta import DeltaParams
from ternary.graft._apply import _run
from ternary.graft._search import SIDE_NAME, node_bounds
from ternary.tree import TernaryTree

__all__ = ["GRAFT_TRACE_COLUMNS", "GraftTrace", "graft_trace"]

#: Columns of `GraftTrace.steps`, in order (one row per step).
GRAFT_TRACE_COLUMNS = (
    "step",
    "leaf",
    "leaf_class",
    "leaf_n",
    "leaf_n_class",
    "laplace_leaf",
    "ancestor",
    "feature",
    "feature_name",
    "side",
    "cut",
    "class",
    "n_region",
    "n_class",
    "laplace_cut",
    "p_value",
    "decision",
    "reason",
    "why",
    "graft",
    "grafts_made",
    "new_split",
    "new_leaf",
)

#: Columns of `GraftTrace.climb` and `GraftTrace.cuts`.
_CUT_COLUMNS = ("leaf", "ancestor", "feature", "side", "cut", "class", "n_region", "n_class")


class Climb:
    """Collects every candidate cut the search scans (see `_search._offer_segments`)."""

    def __init__(self, keep_scans: bool = True) -> None:
        self.keep_scans = keep_scans
        self.scans: list[dict] = []
        self.bests: list[dict] = []

    def add(self, side, node, leaves, features, first, last, best_pos, valid, scanned):
        """Record one ancestor's candidates for ``leaves`` (positions) on one side.

        Pair ``j`` (leaf ``leaves[j]``, attribute ``features[j]``) scanned the candidate
        positions ``first[j] .. first[j] + last[j]`` of ``scanned``; the valid ones are
        cuts, and ``best_pos[j]`` is the one the search offers (when valid).
        """
        has = valid[best_pos]
        best = self._rows(side, node, leaves[has], features[has], best_pos[has], scanned)
        self.bests.append(best)
        if not self.keep_scans:
            return
        length = np.asarray(last) + 1
        pair = np.repeat(np.arange(length.size), length)
        offset = np.arange(length.sum()) - np.repeat(np.cumsum(length) - length, length)
        pos = np.repeat(first, length) + offset
        ok = valid[pos]
        leaf, feature = leaves[pair[ok]], features[pair[ok]]
        self.scans.append(self._rows(side, node, leaf, feature, pos[ok], scanned))

    @staticmethod
    def _rows(side, node, leaves, features, pos, scanned) -> dict:
        k = scanned.k[pos]
        return {
            "leaf": leaves,
            "ancestor": np.full(pos.size, node),
            "feature": features,
            "side": np.full(pos.size, side),
            "cut": scanned.cut[pos],
            "class": k,
            "n_region": scanned.total[pos],
            "n_class": scanned.counts[pos, k],
            "laplace": scanned.laplace[pos],
        }

    @staticmethod
    def frame(parts: list[dict], leaf_ids) -> pd.DataFrame:
        """The parts as one table, leaf positions turned into node ids, sides into names."""
        columns = (*_CUT_COLUMNS, "laplace")
        if not parts:
            return pd.DataFrame({c: pd.Series(dtype="float64") for c in columns})
        table = pd.DataFrame({c: np.concatenate([p[c] for p in parts]) for c in columns})
        table["leaf"] = np.asarray(leaf_ids, dtype=np.int64)[table["leaf"].to_numpy()]
        table["side"] = np.array(SIDE_NAME, dtype=object)[table["side"].to_numpy()]
        table = table.sort_values(["leaf", "ancestor", "feature", "side", "cut"], kind="stable")
        return table.reset_index(drop=True)


@dataclass
class GraftTrace:
    """Webb's (1997) grafting as it ran: one row per step, and what each ancestor offered.

    A step is one candidate tuple of Webb's step 1 (a leaf, an attribute, a side: the
    best cut over all the leaf's ancestors), in the order grafting takes them: leaves in
    preorder, and within a leaf from the highest Laplace accuracy down (the grafting
    order of step 3). A leaf with no tuple at all gets one step saying why. The grafts
    are exactly those of `graft_tree` with the same arguments, in its report's order.

    Parameters
    ----------
    steps : pandas.DataFrame
        One row per step, columns `GRAFT_TRACE_COLUMNS`: the ``leaf`` (node id), its
        class ``leaf_class``, the weighted size ``leaf_n`` of its cases and their count
        ``leaf_n_class`` of that class, ``laplace_leaf``; the evidence ``ancestor``,
        ``feature`` (index) and ``feature_name``, ``side`` ("<=" or ">"), ``cut`` (v),
        the region's majority ``class``, its size ``n_region`` (T) and class count
        ``n_class`` (P), ``laplace_cut``; the binomial tail ``p_value``
        ``P(Bin(T, laplace_leaf) ≥ P)`` (NaN when the Laplace test failed first, as
        Webb's step 2 needs no p then); the ``decision`` ("graft", "reject" or
        "none"), its ``reason`` (a code: "grafted", "not_better", "not_significant",
        "one", "own_class", "no_candidate", "no_cases") and ``why`` (a sentence with
        the numbers); ``graft``, the row of the report it made (−1 if none),
        ``grafts_made``, the grafts made up to and including this step (the
        ``max_grafts`` of `graft_tree` that draws the tree after it), and the new
        nodes' ids ``new_split`` and ``new_leaf`` (−1 if none). Ancestor, feature,
        side, cut and class are −1, −1, "", NaN and −1 on steps without a tuple.
    region_low, region_high : ndarray of shape (n_steps, n_features)
        The step's candidate region: the ancestor's own bounds, with the leaf's bound
        and the cut on the cut attribute (``low < x ≤ high``, ±inf where open); the
        leaf's region on steps without a tuple.
    leaf_low, leaf_high : ndarray of shape (n_steps, n_features)
        The bounds of the step's leaf (`leaf_bounds`).
    climb : pandas.DataFrame
        The climb: for every leaf, ancestor, attribute and side, the best cut that
        ancestor offers (columns ``leaf``, ``ancestor``, ``feature``, ``side``,
        ``cut``, ``class``, ``n_region``, ``n_class``, ``laplace``). A step's tuple is
        the best of its leaf's rows over the ancestors.
    cuts : pandas.DataFrame
        Every cut value scanned, same columns: what the climb's rows are the best of.
    tree : TernaryTree
        The grafted tree (as `graft_tree` returns it).
    report : pandas.DataFrame
        The graft report (as `graft_tree` returns it).
    mode : str
        The grafting mode.
    alpha : float
        The binomial test's level.
    """

    steps: pd.DataFrame
    region_low: np.ndarray
    region_high: np.ndarray
    leaf_low: np.ndarray
    leaf_high: np.ndarray
    climb: pd.DataFrame
    cuts: pd.DataFrame
    tree: TernaryTree
    report: pd.DataFrame
    mode: str
    alpha: float


def graft_trace(
    tree: TernaryTree,
    X: ArrayLike,
    y_codes: ArrayLike,
    mode: str = "all",
    alpha: float = 0.05,
    sample_weight: ArrayLike | None = None,
    delta_params: DeltaParams | None = None,
    random_state: int | np.random.RandomState | None = None,
    feature_names: Sequence[str] | None = None,
    *,
    continuous_features: ArrayLike | None = None,
    class_names: Sequence[str] | None = None,
    keep_cuts: bool = True,
) -> GraftTrace:
    """Graft as `graft_tree` does, and return every step of the run (a `GraftTrace`).

    For each leaf: the ancestor whose evidence its best cut on each attribute and side
    comes from, the candidate region, both Laplace accuracies, the binomial test's
    value, and the decision with its reason. The trace is recorded by the grafting
    run itself, so its grafts, tree and report are those of `graft_tree`.

    Parameters
    ----------
    tree : TernaryTree
        A binary tree (as for `graft_tree`); it is not modified.
    X : array-like of shape (n_samples, n_features)
        The training matrix the tree was grown on.
    y_codes : array-like of int, shape (n_samples,)
        Class codes ``0..n_classes−1``.
    mode : {"all", "one", "none"}, default="all"
        As for `graft_tree`; "none" gives a trace without steps.
    alpha : float in [0, 1], default=0.05
        Significance level of the binomial test.
    sample_weight : array-like of shape (n_samples,), optional
        The effective training weights; zero-weight rows are ignored.
    delta_params : ternary.delta.DeltaParams, optional
        How the new splits' δ is computed; None gives δ = 0.
    random_state : int, RandomState or None
        For δ methods that resample (node_bootstrap).
    feature_names : sequence of str, optional
        Names in the steps' sentences and report; defaults to ``x0, x1, …``.
    continuous_features : array-like, optional
        As for `graft_tree`.
    class_names : sequence of str, optional
        Names of the class codes in the steps' sentences; defaults to the codes.
    keep_cuts : bool, default=True
        Keep every scanned cut (`GraftTrace.cuts`); False leaves that table empty,
        which on large data saves its memory (a row per leaf, ancestor and value).

    Returns
    -------
    GraftTrace
        The steps, the climb, every scanned cut, the grafted tree and the report.

    Examples
    --------
    >>> from ternary import TernaryTreeClassifier
    >>> from ternary.data import load_builtin
    >>> ds = load_builtin("webb example")
    >>> codes = {name: i for i, name in enumerate(sorted(set(ds.y)))}
    >>> y = np.array([codes[v] for v in ds.y])
    >>> cart = TernaryTreeClassifier(delta_method="none", max_depth=3).fit(ds.X, y)
    >>> X = ds.X.to_numpy(np.float32)
    >>> trace = graft_trace(cart.tree_, X, y, alpha=0.05, feature_names=["A", "B"])
    >>> grafted = trace.steps[trace.steps["decision"] == "graft"]
    >>> grafted[["feature_name", "side", "cut"]].values.tolist()
    [['A', '<=', 5.0], ['B', '<=', 3.0]]
    >>> [round(v, 3) for v in grafted["laplace_cut"]]
    [0.917, 0.909]
    """
    climb = Climb(keep_cuts)
    args = (mode, alpha, sample_weight, delta_params, random_state, feature_names)
    run = _run(tree, X, y_codes, *args, continuous_features, None, climb)
    n_features = np.asarray(X).shape[1]
    names = [f"x{j}" for j in range(n_features)] if feature_names is None else feature_names
    naming = _Naming([str(n) for n in names], class_names)
    rows = _step_rows(run, tree, alpha, naming)
    steps = pd.DataFrame.from_records(rows, columns=list(GRAFT_TRACE_COLUMNS))
    steps["step"] = np.arange(len(steps))
    steps["grafts_made"] = np.cumsum(steps["graft"].to_numpy() >= 0) if len(steps) else []
    region_low, region_high, leaf_low, leaf_high = _bounds(tree, steps, n_features)
    ids = [] if run.leaves is None else run.leaves.ids
    return GraftTrace(
        steps.astype(_STEP_DTYPES),
        region_low,
        region_high,
        leaf_low,
        leaf_high,
        Climb.frame(climb.bests, ids),
        Climb.frame(climb.scans, ids),
        run.tree,
        run.report,
        mode,
        float(alpha),
    )


_STEP_DTYPES = {
    **dict.fromkeys(GRAFT_TRACE_COLUMNS, "float64"),
    **dict.fromkeys(("feature_name", "side", "decision", "reason", "why"), "object"),
    **dict.fromkeys(
        ("step", "leaf", "leaf_class", "ancestor", "feature", "class", "graft", "grafts_made"),
        "int64",
    ),
    **dict.fromkeys(("new_split", "new_leaf"), "int64"),
}


@dataclass
class _Naming:
    features: list
    classes: Sequence[str] | None

    def cls(self, code) -> str:
        return str(code) if self.classes is None else str(self.classes[int(code)])


def _step_rows(run, tree, alpha, naming) -> list[dict]:
    """One record per step, leaves in preorder, from the run's own search and tests."""
    if tree.node_count < 2 or run.data is None:
        return []  # nothing was searched (mode "none", a lone root, no weight)
    position = {} if run.leaves is None else {leaf: i for i, leaf in enumerate(run.leaves.ids)}
    rows: list[dict] = []
    made = [0]  # grafts met so far: the row of the report the next graft is
    for leaf in tree.preorder():
        if tree.children_left[leaf] != -1:
            continue
        if leaf not in position:
            rows.append(_empty_step(leaf, "no_cases"))
        else:
            rows += _leaf_steps(run, position[leaf], alpha, naming, made)
    return rows


def _leaf_steps(run, i, alpha, naming, made) -> list[dict]:
    """The steps of leaf position ``i``: its tuples in the grafting order of step 3."""
    leaves, best, data = run.leaves, run.best, run.data
    leaf, c, leaf_lap = leaves.ids[i], int(leaves.cls[i]), float(leaves.laplace[i])
    cases = data.cases(leaf)
    counts = np.bincount(data.y[cases], weights=data.ws[cases], minlength=data.n_classes)
    base = {
        "leaf": int(leaf),
        "leaf_class": c,
        "leaf_n": float(counts.sum()),
        "leaf_n_class": float(counts[c]),
        "laplace_leaf": leaf_lap,
    }
    a_idx, s_idx = np.nonzero(np.isfinite(best.lap[i]))
    if a_idx.size == 0:
        return [{**_empty_step(leaf, "no_candidate"), **base}]
    # the sort of `_ordered_cuts`, over every tuple of the leaf (accepted or not)
    key = sorted(
        zip(-best.lap[i, a_idx, s_idx], -best.total[i, a_idx, s_idx], a_idx, s_idx, strict=True)
    )
    rows = []
    for _, _, a, s in key:
        row = {**base, **_tuple_numbers(best, i, a, s, naming)}
        reason = _reason(run, i, a, s, leaf_lap)
        row["p_value"] = float(run.p_value[i, a, s]) if reason != "not_better" else np.nan
        row["graft"], row["new_split"], row["new_leaf"] = -1, -1, -1
        if reason == "grafted":
            graft = run.report.iloc[made[0]]
            if (graft["leaf"], graft["feature"], graft["side"]) != (leaf, a, SIDE_NAME[s]):
                raise AssertionError("the trace's grafts out of step with the report's")
            row["graft"] = made[0]
            row["new_split"], row["new_leaf"] = int(graft["new_split"]), int(graft["new_leaf"])
            made[0] += 1
        row["decision"] = "graft" if reason == "grafted" else "reject"
        row["reason"] = reason
        row["why"] = _why(reason, row, alpha, naming)
        rows.append(row)
    return rows


def _reason(run, i, a, s, leaf_lap) -> str:
    if not run.best.lap[i, a, s] > leaf_lap:
        return "not_better"
    if not run.accepted[i, a, s]:
        return "not_significant"
    return run.dropped.get((i, a, s), "grafted")


def _tuple_numbers(best, i, a, s, naming) -> dict:
    return {
        "ancestor": int(best.ancestor[i, a, s]),
        "feature": int(a),
        "feature_name": naming.features[a],
        "side": SIDE_NAME[s],
        "cut": float(best.v[i, a, s]),
        "class": int(best.k[i, a, s]),
        "n_region": float(best.total[i, a, s]),
        "n_class": float(best.pos[i, a, s]),
        "laplace_cut": float(best.lap[i, a, s]),
    }


def _empty_step(leaf, reason) -> dict:
    return {
        "leaf": int(leaf),
        "leaf_class": -1,
        "leaf_n": 0.0,
        "leaf_n_class": 0.0,
        "laplace_leaf": np.nan,
        "ancestor": -1,
        "feature": -1,
        "feature_name": "",
        "side": "",
        "cut": np.nan,
        "class": -1,
        "n_region": np.nan,
        "n_class": np.nan,
        "laplace_cut": np.nan,
        "p_value": np.nan,
        "decision": "none",
        "reason": reason,
        "why": _WHY[reason],
        "graft": -1,
        "new_split": -1,
        "new_leaf": -1,
    }


_WHY = {
    "no_cases": "No training row reaches this leaf or its parent: there is no evidence to use.",
    "no_candidate": (
        "No ancestor has a training value inside the leaf's range, on any attribute, "
        "that a cut could use without moving a row the leaf classifies correctly."
    ),
}


def _why(reason, row, alpha, naming) -> str:
    """The decision in one or two sentences, with the step's numbers."""
    lc, ll, p = row["laplace_cut"], row["laplace_leaf"], row["p_value"]
    cls = naming.cls(row["class"])
    test = (
        f"P(Bin({row['n_region']:g}, {ll:.3f}) ≥ {row['n_class']:g}) = {p:.3g}"
        if np.isfinite(p)
        else ""
    )
    if reason == "not_better":
        return (
            f"Not grafted: the best region ({cls}, Laplace {lc:.3f}) is not better than "
            f"the leaf's own estimate {ll:.3f}."
        )
    if reason == "not_significant":
        return (
            f"Not grafted: Laplace {lc:.3f} beats the leaf's {ll:.3f}, but {test} is not "
            f"below α = {alpha:g}: so pure a region could come from the leaf's own "
            "accuracy by chance."
        )
    passed = f"Laplace {lc:.3f} > the leaf's {ll:.3f} and {test} < α = {alpha:g}"
    if reason == "one":
        return f"Not grafted: {passed}, but mode 'one' grafts only the leaf's best cut."
    if reason == "own_class":
        return (
            f"Not grafted: {passed}, but the new leaf would predict the leaf's own class "
            f"({cls}) and no graft of another class follows: it would change no prediction."
        )
    return f"Grafted ({cls}): {passed}."


def _bounds(tree, steps, n_features):
    """The candidate region and the leaf's region of every step."""
    low, up = node_bounds(tree, n_features)
    leaf = steps["leaf"].to_numpy(dtype=np.intp)
    leaf_low, leaf_high = low[leaf], up[leaf]
    anc = steps["ancestor"].to_numpy(dtype=np.intp)
    has = anc >= 0
    region_low, region_high = leaf_low.copy(), leaf_high.copy()
    region_low[has], region_high[has] = low[anc[has]], up[anc[has]]
    for j in np.flatnonzero(has):
        a, v = int(steps["feature"].iat[j]), float(steps["cut"].iat[j])
        if steps["side"].iat[j] == "<=":
            region_low[j, a], region_high[j, a] = leaf_low[j, a], v
        else:
            region_low[j, a], region_high[j, a] = v, leaf_high[j, a]
    return region_low, region_high, leaf_low, leaf_high
