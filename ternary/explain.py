"""Why a node's δ is what it is, and why one row is flagged.

`explain_row` follows one row through a fitted tree: every split it reaches,
its value against the zone, the blend weights, what each subtree and the node
predict for it, and one plain sentence for a person. The routing itself is
`ternary.tree.traverse`'s; this module only reads the shares it gives.

`explain_node` re-finds the training rows reaching a node (with the same
float32 cast and partition the estimator used) and asks `ternary.delta` for
the intermediate quantities of every method: the Q(θ) curve and its plateau,
the class percentile bands, the margin's support rows, the bootstrap
thresholds and the gain-ratio parts, plus the raw and final δ per method.
No δ formula is repeated here; the figures in `viz.inspector` draw the result.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from sklearn.utils.validation import check_is_fitted

from ternary._classes import TernaryTreeClassifier, delta_params_of
from ternary._validation import default_feature_names
from ternary.delta import (
    DELTA_METHODS,
    DeltaParams,
    NodeRows,
    bootstrap_thresholds,
    class_bands,
    compute_raw_delta,
    gain_ratio_parts,
    margin_support,
    node_delta,
    plateau_bounds,
    quality_curve,
    widest_overlap,
)
from ternary.tree import LEAF, iter_node_rows, traverse, zone_top

__all__ = [
    "EXPLAINED_METHODS",
    "NodeExplanation",
    "RowExplanation",
    "SplitStep",
    "explain_node",
    "explain_row",
]

#: The δ methods an explanation covers (all but "none").
EXPLAINED_METHODS = tuple(method for method in DELTA_METHODS if method != "none")


@dataclass(frozen=True)
class NodeExplanation:
    """The inputs and intermediate results of every δ method at one node.

    Built by `explain_node`; each parameter is kept as the attribute of the same name.
    The node's rows (``values``, ``y_codes``, ``weights``) are sorted on the split
    feature with zero-weight rows dropped, as `ternary.delta` sees them.

    Parameters
    ----------
    node : int
        The split node's id.
    feature : int
        Column index of the node's split feature.
    feature_name : str
        Its name (``model.feature_names_in_``, else ``x0``, ``x1``, ...).
    threshold : float
        The node's threshold θ* in the tree.
    delta : float
        The δ stored in the tree (``model.tree_.delta[node]``).
    method : str
        The model's δ method (``model.delta_method``).
    routing : str
        The model's routing.
    classes : ndarray of shape (n_classes,)
        ``model.classes_``; the class codes below index it.
    n : int
        Training rows reaching the node.
    class_counts : ndarray of int of shape (n_classes,)
        Those rows per class code (unweighted).
    values : ndarray of shape (n_node_rows,)
        The rows' values of the split feature, ascending (float32 values as float64).
    y_codes : ndarray of int of shape (n_node_rows,)
        Their class codes.
    weights : ndarray of shape (n_node_rows,)
        Their weights (``sample_weight`` with ``class_weight`` applied).
    params : DeltaParams
        The model's δ parameters, at the scale it was fitted with.
    thresholds : ndarray of shape (n_candidates,)
        Candidate thresholds of the quality curve, ascending (midpoints between
        distinct values that leave ``min_samples_leaf`` rows each side).
    quality : ndarray of shape (n_candidates,)
        Q(θ) of the split at each candidate.
    left_fraction : ndarray of shape (n_candidates,)
        Weighted share of the node's rows going left at each candidate.
    quality_at_threshold : float
        Q at the candidate nearest θ* (NaN without candidates).
    plateau_floor : float
        ``(1 − ε)·Q(θ*)``, the level the quality plateau is cut at.
    plateau_low, plateau_high : float or None
        The smallest (θlo) and largest (θhi) candidates on the plateau; None when
        Q(θ*) ≤ 0 or there are no candidates.
    band_classes : ndarray of int of shape (n_present,)
        The class codes present at the node.
    band_lows, band_highs : ndarray of shape (n_present,)
        Each present class's band ``[P_q, P_(1−q)]`` of the split feature.
    overlap_pair : tuple of (int, int) or None
        The two class codes (smaller first) whose bands overlap most; None when
        no two bands overlap by a positive width.
    overlap_low, overlap_high : float or None
        That overlap interval; None with ``overlap_pair``.
    margin : dict
        What `ternary.delta.margin_support` returns: the majority classes each
        side, the half-gap, the nearest cross-class values and the margin δ.
    bootstrap_thresholds : ndarray
        The best threshold of each bootstrap resample that has a split of positive
        quality (at most ``params.n_bootstraps`` values).
    bootstrap_seed : int
        The seed those resamples were drawn with.
    gain_ratio : dict
        ``quality``, ``h_split`` (bits), ``gain_ratio`` (NaN when H_split = 0) and
        ``left_fraction`` at θ*, with ``value_range`` of the node's column and
        ``alpha_range`` (α times it).
    raw_delta : dict of str to float, default={}
        Per explained method, δ before the cap and the scale.
    final_delta : dict of str to float, default={}
        Per explained method, the δ the tree would store.
    cap : float, default=0.0
        ``max_delta_fraction · range`` of the node's column.
    grafted : bool, default=False
        The node was added by grafting; its tree δ was computed from its evidence
        region (`ternary.graft`), not from the rows reaching it, so ``final_delta``
        need not equal ``delta`` there.
    """

    node: int
    feature: int
    feature_name: str
    threshold: float
    delta: float
    method: str
    routing: str
    classes: np.ndarray
    n: int
    class_counts: np.ndarray
    values: np.ndarray
    y_codes: np.ndarray
    weights: np.ndarray
    params: DeltaParams
    thresholds: np.ndarray
    quality: np.ndarray
    left_fraction: np.ndarray
    quality_at_threshold: float
    plateau_floor: float
    plateau_low: float | None
    plateau_high: float | None
    band_classes: np.ndarray
    band_lows: np.ndarray
    band_highs: np.ndarray
    overlap_pair: tuple[int, int] | None
    overlap_low: float | None
    overlap_high: float | None
    margin: dict
    bootstrap_thresholds: np.ndarray
    bootstrap_seed: int
    gain_ratio: dict
    raw_delta: dict = field(default_factory=dict)
    final_delta: dict = field(default_factory=dict)
    cap: float = 0.0
    grafted: bool = False

    @property
    def deterministic(self) -> bool:
        """False for node_bootstrap, whose tree δ came from the fit's random stream."""
        return self.method != "node_bootstrap"

    def delta_for(self, method: str | None = None) -> float:
        """Give the δ to draw for ``method``: the tree's own for its method, else recomputed.

        Parameters
        ----------
        method : str, optional
            A δ method name; default the model's own (``self.method``).

        Returns
        -------
        float
            ``delta`` for the model's method, 0 for "none", else ``final_delta[method]``.

        Raises
        ------
        KeyError
            For a name that is not a δ method.
        """
        method = self.method if method is None else method
        if method == self.method:
            return self.delta
        if method == "none":
            return 0.0
        return self.final_delta[method]

    def delta_table(self) -> pd.DataFrame:
        """Tabulate every explained method's δ at this node.

        Returns
        -------
        pandas.DataFrame
            One row per method of `EXPLAINED_METHODS`, in order, with columns
            ``delta_method``, ``raw_delta``, ``cap``, ``final_delta`` and
            ``model_method`` (True on the row of the model's own method).
        """
        return pd.DataFrame(
            {
                "delta_method": list(EXPLAINED_METHODS),
                "raw_delta": [self.raw_delta[m] for m in EXPLAINED_METHODS],
                "cap": [self.cap] * len(EXPLAINED_METHODS),
                "final_delta": [self.final_delta[m] for m in EXPLAINED_METHODS],
                "model_method": [m == self.method for m in EXPLAINED_METHODS],
            }
        )


def _params_of(model) -> DeltaParams:
    # the mapping fit uses, with the scale the model was fitted at ("bayes" resolved)
    return delta_params_of(model, model.delta_scale_)


def _node_rows(model, X32, node):
    for current, rows in iter_node_rows(model.tree_, X32, model.routing):
        if current == node:
            return rows
    raise ValueError(f"node {node} is not reachable from the root of this tree.")


def _checked(model, X, y, node):
    """``(X as float32, y as class codes)`` after checking every argument of `explain_node`."""
    check_is_fitted(model, "tree_")
    tree = model.tree_
    if isinstance(node, bool) or not isinstance(node, (int, np.integer)):
        raise ValueError(f"node must be an integer id; got {node!r}.")
    if not 0 <= node < tree.node_count:
        raise ValueError(
            f"node {node} is out of range: this tree has nodes 0..{tree.node_count - 1}."
        )
    if tree.children_left[node] == LEAF:
        raise ValueError(f"node {node} is a leaf; only split nodes have a threshold and a δ.")
    X32 = np.asarray(X, dtype=np.float32)
    if X32.ndim != 2 or X32.shape[1] != model.n_features_in_:
        raise ValueError(f"X must have shape (n_samples, {model.n_features_in_}); got {X32.shape}.")
    y = np.asarray(y)
    if y.shape[0] != X32.shape[0]:
        raise ValueError(f"X has {X32.shape[0]} rows but y has {y.shape[0]}.")
    y_codes = np.searchsorted(model.classes_, y)
    unknown = (y_codes >= model.n_classes_) | (
        model.classes_[np.minimum(y_codes, model.n_classes_ - 1)] != y
    )
    if unknown.any():
        raise ValueError(f"y contains labels the model was not fitted on, e.g. {y[unknown][0]!r}.")
    return X32, y_codes


def _every_method(node_rows, params, random_state):
    """The bootstrap thresholds, and the raw and final δ of every explained method."""
    boot = bootstrap_thresholds(
        node_rows,
        params.criterion,
        params.n_bootstraps,
        np.random.RandomState(random_state),
        params.min_samples_leaf,
    )
    raw, final = {}, {}
    for method in EXPLAINED_METHODS:
        p = DeltaParams(**{**params.__dict__, "method": method})
        # the same seed as `boot`, so the bootstrap δ is the std of the drawn thresholds
        raw[method] = compute_raw_delta(node_rows, p, np.random.RandomState(random_state))
        final[method] = node_delta(node_rows, p, np.random.RandomState(random_state))
    return boot, raw, final


def _curves_and_bands(node_rows: NodeRows, params: DeltaParams, theta: float) -> dict:
    """The `NodeExplanation` fields of the quality curve, the class bands and the gain ratio."""
    thresholds, quality, left_fraction = quality_curve(
        node_rows, params.criterion, params.min_samples_leaf
    )
    q_star, plateau_low, plateau_high = plateau_bounds(thresholds, quality, theta, params.epsilon)
    band_classes, band_lows, band_highs = class_bands(node_rows, params.q)
    overlap_pair, overlap_low, overlap_high = widest_overlap(node_rows, params.q)
    return {
        "thresholds": thresholds,
        "quality": quality,
        "left_fraction": left_fraction,
        "quality_at_threshold": q_star,
        "plateau_floor": (1.0 - params.epsilon) * q_star,
        "plateau_low": plateau_low,
        "plateau_high": plateau_high,
        "band_classes": band_classes,
        "band_lows": band_lows,
        "band_highs": band_highs,
        "overlap_pair": overlap_pair,
        "overlap_low": overlap_low,
        "overlap_high": overlap_high,
        "gain_ratio": {
            **gain_ratio_parts(node_rows, params.criterion),
            "value_range": node_rows.value_range,
            "alpha_range": params.alpha * node_rows.value_range,
        },
    }


def explain_node(
    model: TernaryTreeClassifier,
    X: ArrayLike,
    y: ArrayLike,
    node: int,
    *,
    sample_weight: ArrayLike | None = None,
    random_state: int = 0,
) -> NodeExplanation:
    """Recompute, from the training data, what every δ method sees at ``node``.

    Parameters
    ----------
    model : TernaryTreeClassifier
        A fitted tree.
    X : array-like of shape (n_samples, n_features)
        The training data the model was fitted on (cast to float32 like the
        estimator does).
    y : array-like of shape (n_samples,)
        Its labels, encoded by ``model.classes_``.
    node : int
        A split node id.
    sample_weight : array-like of shape (n_samples,), optional
        The weights given to ``fit`` (class_weight is applied on top, as in ``fit``).
    random_state : int, default=0
        Seed of the recomputed node bootstrap.

    Returns
    -------
    NodeExplanation
        The node's rows, the quality curve and plateau, the class bands, the
        margin's support rows, the bootstrap thresholds, the gain-ratio parts, and
        the raw and final δ of every method of `EXPLAINED_METHODS`.

    Raises
    ------
    ValueError
        For a leaf, an id outside the tree, data of the wrong shape, or labels
        the model has not seen.
    sklearn.exceptions.NotFittedError
        For a model that is not fitted.

    Notes
    -----
    For deterministic methods ``final_delta[model.delta_method]`` equals the
    tree's δ (on the same data); node_bootstrap draws a fresh seeded sample,
    so its δ is a like-for-like estimate, not the fitted value. Grafted split
    nodes are the other exception (see ``NodeExplanation.grafted``).
    """
    X32, y_codes = _checked(model, X, y, node)
    tree, node, K = model.tree_, int(node), model.n_classes_
    weights = model._effective_weights(y, sample_weight, X32.shape[0])
    rows = _node_rows(model, X32, node)
    f, theta = int(tree.feature[node]), float(tree.threshold[node])
    node_rows = NodeRows.from_arrays(X32[rows, f], y_codes[rows], weights[rows], theta, K)
    params = _params_of(model)
    boot, raw, final = _every_method(node_rows, params, random_state)
    names = getattr(model, "feature_names_in_", None)
    return NodeExplanation(
        node=node,
        feature=f,
        feature_name=str(names[f]) if names is not None else default_feature_names(f + 1)[f],
        threshold=theta,
        delta=float(tree.delta[node]),
        method=model.delta_method,
        routing=model.routing,
        classes=np.asarray(model.classes_),
        n=int(rows.size),
        class_counts=np.bincount(y_codes[rows], minlength=K),
        values=node_rows.values,
        y_codes=node_rows.y,
        weights=node_rows.w,
        params=params,
        **_curves_and_bands(node_rows, params, theta),
        margin=margin_support(node_rows),
        bootstrap_thresholds=boot,
        bootstrap_seed=int(random_state),
        raw_delta=raw,
        final_delta=final,
        cap=params.max_delta_fraction * node_rows.value_range,
        grafted=bool(tree.grafted[node]),
    )


# ----------------------------------------------------------------------------- one row
@dataclass(frozen=True)
class SplitStep:
    """One split a row reaches, and what happens to the row there.

    Built by `explain_row`; each parameter is kept as the attribute of the same name.

    Parameters
    ----------
    node : int
        The split node's id.
    feature : int
        Column index of its split feature.
    feature_name : str
        That feature's name.
    x : float
        The row's value of the split feature (as float32, like the estimator).
    low, threshold, high : float
        The zone's ends and the threshold: θ − δ, θ and θ + δ.
    distance : float
        ``|x − θ| / δ`` (``inf`` where δ = 0).
    in_zone : bool
        The row falls in this split's zone and is flagged here (deferred routing:
        only at the first zone on a path; below it routing is CART's; hard_middle:
        the row goes down the middle branch). The zone holds ``x = θ + δ`` only with
        the model's ``zone_edges="closed"``.
    reach : float
        The share of the row that reaches the node (1 for the whole row).
    w_left, w_right, w_middle : float
        The share of the node's part of the row sent to each child; they sum to 1.
    proba_left, proba_right, proba_middle : ndarray of shape (n_classes,) or None
        What each subtree predicts for the row; None for a subtree the row does not
        enter (or a node without a middle child).
    proba : ndarray of shape (n_classes,)
        The blended class probabilities the node passes up.
    """

    node: int
    feature: int
    feature_name: str
    x: float
    low: float
    threshold: float
    high: float
    distance: float
    in_zone: bool
    reach: float
    w_left: float
    w_right: float
    w_middle: float
    proba_left: np.ndarray | None
    proba_right: np.ndarray | None
    proba_middle: np.ndarray | None
    proba: np.ndarray


@dataclass(frozen=True)
class RowExplanation:
    """Why a fitted tree predicts what it does for one row.

    Built by `explain_row`; each parameter is kept as the attribute of the same name.

    Parameters
    ----------
    sentence : str
        One plain sentence for a person: where the row is flagged, or that it is
        decided and how near its nearest zone is.
    steps : tuple of SplitStep
        Every split the row reaches, in preorder (root first).
    proba : ndarray of shape (n_classes,)
        The blended class probabilities (equal to ``predict_proba``).
    flagged : bool
        The row is boundary-uncertain (``predict_verdict`` gives 0).
    path : dict of int to float
        Node id to the share of the row reaching it, leaves included; nodes the
        row does not reach are absent.
    classes : ndarray of shape (n_classes,)
        ``model.classes_``.
    """

    sentence: str
    steps: tuple[SplitStep, ...]
    proba: np.ndarray
    flagged: bool
    path: dict[int, float]
    classes: np.ndarray

    @property
    def prediction(self):
        """The most probable class."""
        return self.classes[int(np.argmax(self.proba))]

    def to_frame(self) -> pd.DataFrame:
        """Tabulate the steps, one row per split.

        Returns
        -------
        pandas.DataFrame
            One row per `SplitStep` of ``steps``, in order, one column per field of
            `SplitStep`; the probability columns hold arrays (or None).
        """
        columns = [f.name for f in fields(SplitStep)]
        return pd.DataFrame([[getattr(s, c) for c in columns] for s in self.steps], columns=columns)


#: Values in one indicator table (8 MB); bigger trees are routed in chunks of leaves.
_INDICATOR_VALUES = 2**20


def _leaf_shares(tree, x64, routing):
    """``(share of the row per node, verdict)`` from `traverse` itself.

    The tree is routed with its leaf distributions swapped for one indicator column
    per leaf, so the "probabilities" it returns are the weights the blend gives each
    leaf. A big tree is routed once per chunk of leaves, the other leaves sharing one
    "rest" column, so every pass still sums to 1 and the table stays small. Any
    node's share is then the sum over the leaves below it.
    """
    leaves = np.flatnonzero(tree.is_leaf)
    per_pass = max(1, _INDICATOR_VALUES // tree.node_count - 1)
    mass = np.zeros(tree.node_count)
    indicator = tree.copy()
    for start in range(0, leaves.size, per_pass):
        chunk = leaves[start : start + per_pass]
        value = np.zeros((tree.node_count, chunk.size + 1))
        value[leaves, -1] = 1.0
        value[chunk, -1] = 0.0
        value[chunk, np.arange(chunk.size)] = 1.0
        indicator.value = value
        weights, verdict = traverse(indicator, x64[None, :], routing)
        mass[chunk] = weights[0, :-1]
    return mass, bool(verdict[0] == 0)


def _subtree_sums(tree, order, mass):
    """Per node, the summed leaf share below it and the share-weighted class distribution."""
    total = mass.copy()
    weighted = np.where(tree.is_leaf[:, None], mass[:, None] * tree.value, 0.0)
    for node in reversed(order):
        for child in tree.children(node):
            total[node] += total[child]
            weighted[node] += weighted[child]
    return total, weighted


def _reach(tree, order, total):
    """Share of the row reaching each node (nodes it does not reach are left out).

    1 at the root; where a node's whole part goes one way the child gets exactly the
    parent's share, so a decided path stays at 1 rather than a sum like 0.999….
    """
    reach = {0: 1.0}
    for node in order:
        if node not in reach:
            continue
        kids = [c for c in tree.children(node) if total[c] > 0]
        for child in kids:
            reach[child] = reach[node] if len(kids) == 1 else float(total[child])
    return reach


def _steps(model, x, names, total, weighted, reach, order):
    """One `SplitStep` per split node the row reaches, in preorder."""
    tree, routing = model.tree_, model.routing
    hard = np.zeros(tree.node_count, dtype=bool)  # deferred: below a zone, CART routing
    steps = []
    for node in order:
        if node not in reach or tree.is_leaf[node]:
            continue
        f, theta, delta = (
            int(tree.feature[node]),
            float(tree.threshold[node]),
            float(tree.delta[node]),
        )
        value, low, high = float(x[f]), theta - delta, theta + delta
        kids = (tree.children_left[node], tree.children_right[node], tree.children_middle[node])
        shares = [total[k] / total[node] if k != LEAF else 0.0 for k in kids]
        sub = [weighted[k] / total[k] if k != LEAF and total[k] > 0 else None for k in kids]
        # Where the row is flagged is a label here, not routing: the shares above came from
        # traverse, and a test holds these labels to traverse's own verdict.
        if routing == "hard_middle":
            in_zone = shares[2] > 0
        else:
            # the zone holds θ+δ only with closed zone_edges
            top = float(zone_top(high, tree.zone_edges))
            in_zone = delta > 0 and low < value <= top and not hard[node]
        for k in tree.children(node):
            hard[k] = routing == "deferred" and (hard[node] or in_zone)
        steps.append(
            SplitStep(
                node=int(node),
                feature=f,
                feature_name=names[f],
                x=value,
                low=low,
                threshold=theta,
                high=high,
                distance=abs(value - theta) / delta if delta > 0 else np.inf,
                in_zone=bool(in_zone),
                reach=reach[node],
                w_left=float(shares[0]),
                w_right=float(shares[1]),
                w_middle=float(shares[2]),
                proba_left=sub[0],
                proba_right=sub[1],
                proba_middle=sub[2],
                proba=weighted[node] / total[node],
            )
        )
    return tuple(steps)


def _short(value: float) -> str:
    """Four significant digits, without an exponent for everyday sizes (12346, not 1.235e+04)."""
    if np.isfinite(value) and 1e4 <= abs(value) < 1e6:
        return f"{value:.0f}"
    return f"{value:.4g}"


def _sentence(steps, classes, proba) -> str:
    predicted = f"{classes[int(np.argmax(proba))]} ({100 * proba.max():.0f} %)"
    zones = [s for s in steps if s.in_zone]
    if zones:
        s = max(zones, key=lambda step: step.reach)  # the first one on ties (preorder)
        where = "the root split" if s.node == 0 else f"split node {s.node}"
        head = (
            f"{s.feature_name} = {_short(s.x)} lies inside the zone of {where} "
            f"({_short(s.low)} – {_short(s.high)}): "
        )
        if s.w_middle > 0:
            return head + (
                "the row goes down the middle branch, grown on the training rows of that "
                f"zone, which predicts {predicted}."
            )
        if round(100 * s.w_left) in (0, 100):
            # at the zone's edge: inside it (so flagged), yet (nearly) all of the row one way
            upper = s.w_right >= s.w_left
            share = "all" if min(s.w_left, s.w_right) == 0 else "nearly all"
            return (
                f"{s.feature_name} = {_short(s.x)} lies at the {'upper' if upper else 'lower'} "
                f"edge of the zone of {where} ({_short(s.low)} – {_short(s.high)}), still "
                f"inside it, so the row counts as boundary-uncertain; there the blend sends "
                f"{share} of the row {'right' if upper else 'left'}, and the tree predicts "
                f"{predicted}."
            )
        return head + (
            f"the tree blends {100 * s.w_left:.0f} % left / {100 * s.w_right:.0f} % right, "
            f"and predicts {predicted}."
        )
    sentence = (
        "Decided: every split on this row's path is clear of its zone, so it is not "
        f"flagged; the tree predicts {predicted}."
    )
    zoned = [s for s in steps if np.isfinite(s.distance)]
    if zoned:
        near = min(zoned, key=lambda step: step.distance)
        sentence += (
            f" The nearest zone is at {near.feature_name} "
            f"({_short(near.low)} – {_short(near.high)}), {near.distance:.2g} δ from θ."
        )
    return sentence


def explain_row(
    clf: TernaryTreeClassifier, x: ArrayLike, feature_names: list[str] | None = None
) -> RowExplanation:
    """Explain ``clf``'s prediction for one row: the splits it reaches and why it is flagged.

    Parameters
    ----------
    clf : TernaryTreeClassifier
        A fitted tree (a forest's member, not the forest).
    x : array-like of shape (n_features,) or (1, n_features)
        The row's values in feature order (cast to float32, like ``predict_proba``
        does).
    feature_names : list of str, optional
        Names for the features; default ``clf.feature_names_in_`` when the model was
        fitted on a DataFrame, else ``x0``, ``x1``, ….

    Returns
    -------
    RowExplanation
        Its ``proba`` equals ``clf.predict_proba`` of the row and ``flagged`` equals
        ``predict_verdict == 0``. With the binary routings a row inside a zone goes
        both ways, so ``steps`` lists every split either part reaches, each with the
        share of the row it carries; with hard_middle the path is a single three-way one.

    Raises
    ------
    ValueError
        For a row of the wrong length, a non-finite value, names of the wrong length,
        or a forest.
    sklearn.exceptions.NotFittedError
        For a model that is not fitted.

    Examples
    --------
    >>> from sklearn.datasets import make_moons
    >>> from ternary import TernaryTreeClassifier
    >>> X, y = make_moons(200, noise=0.3, random_state=0)
    >>> clf = TernaryTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    >>> e = explain_row(clf, X[0])
    >>> bool(abs(e.proba - clf.predict_proba(X[:1])[0]).max() < 1e-12)
    True
    >>> e.steps[0].node
    0
    """
    if hasattr(clf, "estimators_") and not hasattr(clf, "tree_"):
        raise ValueError(
            f"explain_row explains one tree; got a {type(clf).__name__}. Pass one of its "
            "members, e.g. forest.estimators_[0]."
        )
    check_is_fitted(clf, "tree_")
    n = clf.n_features_in_
    row = np.asarray(x, dtype=np.float32).reshape(-1)
    if row.shape[0] != n:
        raise ValueError(f"x must hold one value per feature ({n}); got {row.shape[0]}.")
    if not np.isfinite(row).all():
        raise ValueError("x holds a missing or infinite value; the tree needs finite numbers.")
    if feature_names is None:
        fitted = getattr(clf, "feature_names_in_", None)
        feature_names = default_feature_names(n) if fitted is None else fitted
    names = [str(name) for name in feature_names]
    if len(names) != n:
        raise ValueError(f"feature_names must hold {n} names; got {len(names)}.")
    tree = clf.tree_
    # float64 copies of the float32 values compare with θ exactly as the float32 row does
    x64 = row.astype(np.float64)
    mass, flagged = _leaf_shares(tree, x64, clf.routing)
    order = tree.preorder()
    total, weighted = _subtree_sums(tree, order, mass)
    reach = _reach(tree, order, total)
    steps = _steps(clf, x64, names, total, weighted, reach, order)
    proba = weighted[0] / total[0]
    classes = np.asarray(clf.classes_)
    sentence = _sentence(steps, [str(c) for c in classes], proba)
    return RowExplanation(sentence, steps, proba, flagged, reach, classes)
