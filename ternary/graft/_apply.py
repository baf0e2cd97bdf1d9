"""Grafting's decision and surgery (Webb 1997, steps 2 to 4): `graft_tree`.

Keep the cuts that pass the binomial test (`_significant`), order and trim them per
leaf (`_ordered_cuts`), and chain them above the leaf (`_graft_leaf`), one report row
per graft.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from sklearn.utils.validation import check_random_state

from ternary._params import GRAFT_MODES
from ternary._validation import check_number, check_sample_weight, default_feature_names
from ternary.delta import DeltaParams, NodeRows, node_delta
from ternary.graft._search import LE, SIDE_NAME, Best, Cases, Leaves, find_cuts, leaf_facts
from ternary.graft._statistics import binomial_tail
from ternary.tree import LEAF, TernaryTree, TreeBuilder

__all__ = ["GRAFT_REPORT_COLUMNS", "graft_tree"]


class Cut(NamedTuple):
    """One graft: the split ``x[feature] ≤ value``, the new leaf's side and the split's δ."""

    feature: int
    value: float
    side: int  #: LE: the new leaf takes the "≤" branch; GT: the ">" branch
    delta: float


class Slot(NamedTuple):
    """Where a node hangs: its parent and the parent's child array holding it."""

    parent: int
    name: str


#: Columns of the graft report, in order (one row per graft).
GRAFT_REPORT_COLUMNS = (
    "leaf",
    "ancestor",
    "feature",
    "feature_name",
    "cut",
    "side",
    "class",
    "laplace_cut",
    "laplace_leaf",
    "p_value",
    "new_split",
    "new_leaf",
    "n_region",
    "n_class",
)


def _empty_report() -> pd.DataFrame:
    dtypes = dict.fromkeys(GRAFT_REPORT_COLUMNS, "float64")
    dtypes.update(dict.fromkeys(("leaf", "ancestor", "feature", "class"), "int64"))
    dtypes.update(dict.fromkeys(("new_split", "new_leaf"), "int64"))
    dtypes.update(dict.fromkeys(("feature_name", "side"), "object"))
    return pd.DataFrame({name: pd.Series(dtype=dtypes[name]) for name in GRAFT_REPORT_COLUMNS})


def _feature_indices(continuous_features, n_features):
    if continuous_features is None:
        return np.arange(n_features)
    sel = np.asarray(continuous_features)
    if sel.dtype == bool:
        if sel.shape != (n_features,):
            raise ValueError(
                f"continuous_features as a mask needs {n_features} entries; got shape {sel.shape}."
            )
        return np.flatnonzero(sel)
    sel = np.unique(sel.astype(np.intp).ravel())
    if sel.size and (sel[0] < 0 or sel[-1] >= n_features):
        raise ValueError(f"continuous_features indices must lie in 0..{n_features - 1}.")
    return sel


def _check_inputs(
    tree, X, y, mode, alpha, sample_weight
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if not isinstance(mode, str) or mode not in GRAFT_MODES:
        choices = ", ".join(map(repr, GRAFT_MODES))
        raise ValueError(f"mode={mode!r} is not supported; choose one of {choices}.")
    check_number("alpha (graft_alpha)", alpha, 0.0, 1.0)
    if np.any(tree.children_middle != LEAF):
        raise ValueError(
            "graft_tree needs a binary tree: this one has middle (hard_middle) branches, which "
            "change the training partition the graft evidence is drawn from."
        )
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D; got shape {X.shape}.")
    y = np.asarray(y, dtype=np.intp)
    if y.shape != (X.shape[0],):
        raise ValueError(
            f"y_codes must have one class code per row of X ({X.shape[0]}); got shape {y.shape}."
        )
    if y.size and (y.min() < 0 or y.max() >= tree.n_classes):
        raise ValueError(f"y_codes must be class codes in 0..{tree.n_classes - 1}.")
    split = ~tree.is_leaf
    if split.any() and tree.feature[split].max() >= X.shape[1]:
        raise ValueError(
            f"the tree splits on feature {tree.feature[split].max()} but X has "
            f"{X.shape[1]} columns."
        )
    w = check_sample_weight(sample_weight, X.shape[0])
    return X, y, np.ones(X.shape[0]) if w is None else w


def graft_tree(
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
    max_grafts: int | None = None,
) -> tuple[TernaryTree, pd.DataFrame]:
    """Graft new splits and leaves onto a fitted binary tree (Webb 1997, C4.5+).

    The user guide's "How ternary.graft reads Webb (1997)" gives the algorithm and every
    reading of the paper.
    The work follows its four steps: find every leaf's best cuts (`find_cuts`),
    keep the significantly better ones (`_significant`), order and trim them per
    leaf (`_ordered_cuts`), and graft them (`_graft_leaf`).

    Parameters
    ----------
    tree : TernaryTree
        A binary tree (probabilistic or deferred routing); it is not modified.
    X : array-like of shape (n_samples, n_features)
        The training matrix the tree was grown on (float32 in the estimator).
    y_codes : array-like of int, shape (n_samples,)
        Class codes ``0..n_classes−1``.
    mode : {"all", "one", "none"}, default="all"
        "all" grafts every accepted cut per leaf, "one" at most the best one,
        "none" returns a copy.
    alpha : float in [0, 1], default=0.05
        Significance level of the binomial test; ``alpha=0`` grafts nothing.
    sample_weight : array-like of shape (n_samples,), optional
        The effective training weights; zero-weight rows are ignored.
    delta_params : ternary.delta.DeltaParams, optional
        How the new splits' δ is computed; None gives δ = 0.
    random_state : int, RandomState or None
        For δ methods that resample (node_bootstrap).
    feature_names : sequence of str, optional
        Used in the report; defaults to ``x0, x1, …``.
    continuous_features : array-like of bool (n_features,) or of int, optional
        The attributes grafting may cut on (Webb grafts on continuous attributes
        only); default all of them. Pass a mask to leave out, say, one-hot
        columns made from nominal attributes.
    max_grafts : int ≥ 0, optional
        Stop after this many grafts, in the report's order: the tree as grafting
        builds it one graft at a time (the app's stepper draws these). None grafts
        all; every graft made is the one the full run makes, numbers and node ids.

    Returns
    -------
    new_tree : TernaryTree
        A new tree, ``grafted`` True exactly on the added nodes.
    report : pandas.DataFrame
        One row per graft, columns `GRAFT_REPORT_COLUMNS`: the original
        ``leaf``, the evidence ``ancestor``, ``feature`` (index),
        ``feature_name``, ``cut`` (v), ``side`` ("<=" or ">"), ``class``
        (code k), ``laplace_cut``, ``laplace_leaf``, ``p_value``, the ids of
        ``new_split`` and ``new_leaf``, and the evidence region's weighted
        size ``n_region`` (T) and class-k count ``n_class`` (P). Rows come in
        leaf preorder, and within a leaf in grafting order (best first).
    """
    run = _run(
        tree,
        X,
        y_codes,
        mode,
        alpha,
        sample_weight,
        delta_params,
        random_state,
        feature_names,
        continuous_features,
        max_grafts,
    )
    return run.tree, run.report


class Run(NamedTuple):
    """One grafting run: its results, and what `ternary.graft.graft_trace` reads of its work.

    ``leaves`` is None when no leaf could be grafted (the early returns); ``dropped``
    maps ``(leaf position, attribute, side)`` to why an accepted tuple was not grafted
    (``"one"`` or ``"own_class"``).
    """

    tree: TernaryTree
    report: pd.DataFrame
    data: Cases | None = None
    leaves: Leaves | None = None
    best: Best | None = None
    p_value: np.ndarray | None = None
    accepted: np.ndarray | None = None
    dropped: dict | None = None


def _run(
    tree,
    X,
    y_codes,
    mode,
    alpha,
    sample_weight,
    delta_params,
    random_state,
    feature_names,
    continuous_features,
    max_grafts=None,
    climb=None,
) -> Run:
    """`graft_tree`'s work, step by step; ``climb`` is told every candidate cut."""
    X, y, w = _check_inputs(tree, X, y_codes, mode, alpha, sample_weight)
    if max_grafts is not None:
        check_number("max_grafts", max_grafts, 0, integer=True)
    features = _feature_indices(continuous_features, X.shape[1])
    if mode == "none" or tree.node_count < 2 or not np.any(w > 0) or features.size == 0:
        return Run(tree.copy(), _empty_report())
    data = Cases.of(tree, X, y, w, "gini" if delta_params is None else delta_params.criterion)
    leaves = leaf_facts(tree, data)
    if leaves is None:
        return Run(tree.copy(), _empty_report(), data)
    best = find_cuts(tree, data, leaves, features, climb)
    p_value, accepted = _significant(best, leaves.laplace, alpha)
    rng, builder = check_random_state(random_state), TreeBuilder(tree.n_classes, tree)
    records: list[dict] = []
    dropped: dict = {}
    for i in np.flatnonzero(accepted.any(axis=(1, 2))):
        cuts = _ordered_cuts(best, i, accepted[i], mode, leaves, dropped)
        if max_grafts is not None:
            cuts = cuts[: max(int(max_grafts) - len(records), 0)]
        if cuts:
            records += _graft_leaf(builder, data, leaves, best, p_value, i, cuts, delta_params, rng)
    run = Run(tree.copy(), _empty_report(), data, leaves, best, p_value, accepted, dropped)
    if not records:
        return run
    names = default_feature_names(X.shape[1]) if feature_names is None else feature_names
    for r in records:
        r["feature_name"] = str(names[r["feature"]])
    report = pd.DataFrame.from_records(records, columns=list(GRAFT_REPORT_COLUMNS))
    report = report.astype(_empty_report().dtypes.to_dict())
    return run._replace(tree=builder.build(), report=report)


def _significant(best, leaf_laplace, alpha):
    """Step 2: every tuple's binomial p-value, and which tuples pass.

    A tuple passes when its Laplace beats its leaf's and its p-value is below ``alpha``.
    """
    p_value = np.ones_like(best.lap)
    found = best.lap > leaf_laplace[:, None, None]
    leaf_lap = np.broadcast_to(leaf_laplace[:, None, None], found.shape)
    p_value[found] = binomial_tail(best.pos[found], best.total[found], leaf_lap[found])
    return p_value, found & (p_value < alpha)


def _ordered_cuts(best, i, passed, mode, leaves, dropped=None):
    """Step 3: leaf ``i``'s accepted ``(attribute, side)`` tuples in grafting order.

    Highest Laplace first (ties: larger region, smaller attribute, "≤" first); with
    ``mode="one"`` only the first; trailing tuples of the leaf's own class dropped.
    ``dropped`` (a dict, optional) gets ``(i, attribute, side)`` → ``"one"`` or
    ``"own_class"`` for every accepted tuple left out, and why.
    """
    a_idx, s_idx = np.nonzero(passed)
    key = sorted(
        zip(-best.lap[i, a_idx, s_idx], -best.total[i, a_idx, s_idx], a_idx, s_idx, strict=True)
    )
    cuts = [(int(a), int(s)) for _, _, a, s in key]
    if mode == "one":
        if dropped is not None:
            dropped.update({(i, *cut): "one" for cut in cuts[1:]})
        cuts = cuts[:1]
    while cuts and best.k[i][cuts[-1]] == leaves.cls[i]:
        cut = cuts.pop()  # they would change no prediction
        if dropped is not None:
            dropped[(i, *cut)] = "own_class"
    return cuts


def _graft_leaf(builder, data, leaves, best, p_value, i, cuts, delta_params, rng):
    """Step 4: chain leaf ``i``'s cuts above it, best first; one report record per graft."""
    leaf = leaves.ids[i]
    remaining = data.reached[leaf]
    slot = Slot(*builder.slot_of(leaf))
    records = []
    for a, s in cuts:
        anc, v = int(best.ancestor[i, a, s]), float(best.v[i, a, s])
        delta = 0.0
        if delta_params is not None and delta_params.method != "none":
            # δ from the evidence ancestor's rows inside the leaf's range on the cut attribute
            evidence = data.cases(anc)
            xa = data.X[evidence, a]
            inside = (xa > leaves.low[i, a]) & (xa <= leaves.up[i, a])
            node_rows = NodeRows.from_arrays(
                xa[inside], data.y[evidence[inside]], data.w[evidence[inside]], v, data.n_classes
            )
            delta = node_delta(node_rows, delta_params, rng)
        x_rem = data.X[remaining, a]
        to_graft = x_rem <= v if s == LE else x_rem > v
        cut = Cut(a, v, s, delta)
        split_id, new_leaf, slot = _add_graft(
            builder, data, slot, leaf, cut, remaining, to_graft, best.counts[i, a, s]
        )
        remaining = remaining[~to_graft]
        records.append(
            {
                "leaf": int(leaf),
                "ancestor": anc,
                "feature": a,
                "cut": v,
                "side": SIDE_NAME[s],
                "class": int(best.k[i, a, s]),
                "laplace_cut": float(best.lap[i, a, s]),
                "laplace_leaf": float(leaves.laplace[i]),
                "p_value": float(p_value[i, a, s]),
                "new_split": split_id,
                "new_leaf": new_leaf,
                "n_region": float(best.total[i, a, s]),
                "n_class": float(best.pos[i, a, s]),
            }
        )
    builder.set_samples(leaf, remaining.size, float(data.w[remaining].sum()))
    return records


def _add_graft(builder, data, slot: Slot, leaf, cut: Cut, split_rows, to_graft, graft_value):
    """Put a split in ``slot``, with a new leaf and ``leaf`` below it.

    The split tests ``x[cut.feature] ≤ cut.value``.
    ``split_rows`` reach the split, and those marked ``to_graft`` the new leaf.
    The new leaf takes the "≤" branch for a "≤" cut and the ">" branch otherwise.
    Returns the split's id, the new leaf's id and the slot now holding ``leaf``.
    """
    feature, value, side, delta = cut
    y, w, graft_rows = data.y, data.w, split_rows[to_graft]
    split_counts = np.bincount(y[split_rows], weights=w[split_rows], minlength=data.n_classes)
    if split_counts.sum() <= 0:
        split_counts = builder.value_of(leaf)
    graft_counts = np.asarray(graft_value, dtype=np.float64)
    ids = [
        builder.add_node(
            counts,
            value=counts / counts.sum(),
            n_node_samples=rows.size,
            weighted_n_node_samples=float(w[rows].sum()),
            criterion=data.criterion,
            grafted=True,
        )
        for counts, rows in ((graft_counts, graft_rows), (split_counts, split_rows))
    ]
    new_leaf, split = ids  # the leaf first: node ids as grafting has always numbered them
    builder.set_split(split, feature, value, delta)
    builder.set_child(slot.parent, slot.name, split)
    le, gt = (new_leaf, leaf) if side == LE else (leaf, new_leaf)
    builder.set_child(split, "children_left", le)
    builder.set_child(split, "children_right", gt)
    return split, new_leaf, Slot(split, "children_right" if side == LE else "children_left")
