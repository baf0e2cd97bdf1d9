"""Why a node's δ is what it is: everything each δ method sees at one node.

`explain_node` re-finds the training rows reaching a node (with the same
float32 cast and partition the estimator used) and asks `ternary.delta` for
the intermediate quantities of every method: the Q(θ) curve and its plateau,
the class percentile bands, the margin's support rows, the bootstrap
thresholds and the gain-ratio parts, plus the raw and final δ per method.
No δ formula is repeated here; the figures in `viz.inspector` draw the result.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from sklearn.utils.validation import check_is_fitted

from ternary._classes import TernaryTreeClassifier, _delta_params
from ternary._tree import LEAF, iter_node_rows
from ternary.delta import (
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

__all__ = ["EXPLAINED_METHODS", "NodeExplanation", "explain_node"]

#: The δ methods an explanation covers (all but "none").
EXPLAINED_METHODS = ("margin", "node_bootstrap", "quality_plateau", "gain_ratio", "class_overlap")


@dataclass(frozen=True)
class NodeExplanation:
    """The inputs and intermediate results of every δ method at one node.

    Attributes
    ----------
    node, feature : int
    feature_name : str
    threshold : float, θ* of the tree
    delta : float, the δ stored in the tree (``model.tree_.delta[node]``)
    method, routing : str, the model's δ method and routing
    classes : ndarray, ``model.classes_``
    n : int, training rows reaching the node
    class_counts : ndarray of int, rows per class code
    values, y_codes, weights : ndarrays, the node's rows sorted on the split
        feature (zero-weight rows dropped, as `ternary.delta` sees them)
    params : DeltaParams, the model's δ parameters
    thresholds, quality, left_fraction : quality curve over candidate θ
    quality_at_threshold : float, Q at the candidate nearest θ*
    plateau_floor : float, ``(1−ε)·Q(θ*)``
    plateau_low, plateau_high : float or None, θlo and θhi
    band_classes, band_lows, band_highs : per-class ``[P_q, P_(1−q)]`` bands
    overlap_pair : (int, int) or None, the class pair with the widest overlap
    overlap_low, overlap_high : float or None, that overlap interval
    margin : dict, `ternary.delta.margin_support`
    bootstrap_thresholds : ndarray, the resamples' best thresholds
    bootstrap_seed : int
    gain_ratio : dict with quality, h_split, gain_ratio, left_fraction,
        value_range, alpha_range
    raw_delta, final_delta : dict method → float
    cap : float, ``max_delta_fraction · range`` of the node's column
    grafted : bool, the node was added by grafting; its tree δ was computed
        from its evidence region (`ternary.graft`), not from the rows reaching
        it, so ``final_delta`` need not equal ``delta`` there
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
        """δ to draw for ``method``: the tree's own for its method, else recomputed."""
        method = self.method if method is None else method
        if method == self.method:
            return self.delta
        if method == "none":
            return 0.0
        return self.final_delta[method]

    def delta_table(self) -> pd.DataFrame:
        """One row per method: raw δ, the cap, final δ, and which one the tree uses."""
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
    return _delta_params(model, model.delta_scale_)


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
    model : fitted TernaryTreeClassifier
    X, y : the training data the model was fitted on (X is cast to float32
        like the estimator does, y encoded by ``model.classes_``)
    node : int, a split node id
    sample_weight : array-like, optional, the weights given to ``fit``
        (class_weight is applied on top, as in ``fit``)
    random_state : int, seed of the recomputed node bootstrap

    Returns
    -------
    NodeExplanation

    Raises
    ------
    ValueError
        For a leaf, an id outside the tree, data of the wrong shape, or labels
        the model has not seen.

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
    thresholds, quality, left_fraction = quality_curve(
        node_rows, params.criterion, params.min_samples_leaf
    )
    q_star, plateau_low, plateau_high = plateau_bounds(thresholds, quality, theta, params.epsilon)
    floor = (1.0 - params.epsilon) * q_star
    band_classes, band_lows, band_highs = class_bands(node_rows, params.q)
    overlap_pair, overlap_low, overlap_high = widest_overlap(node_rows, params.q)
    gain_parts = {
        **gain_ratio_parts(node_rows, params.criterion),
        "value_range": node_rows.value_range,
        "alpha_range": params.alpha * node_rows.value_range,
    }
    boot, raw, final = _every_method(node_rows, params, random_state)
    names = getattr(model, "feature_names_in_", None)
    return NodeExplanation(
        node=node,
        feature=f,
        feature_name=str(names[f]) if names is not None else f"x[{f}]",
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
        thresholds=thresholds,
        quality=quality,
        left_fraction=left_fraction,
        quality_at_threshold=q_star,
        plateau_floor=floor,
        plateau_low=plateau_low,
        plateau_high=plateau_high,
        band_classes=band_classes,
        band_lows=band_lows,
        band_highs=band_highs,
        overlap_pair=overlap_pair,
        overlap_low=overlap_low,
        overlap_high=overlap_high,
        margin=margin_support(node_rows),
        bootstrap_thresholds=boot,
        bootstrap_seed=int(random_state),
        gain_ratio=gain_parts,
        raw_delta=raw,
        final_delta=final,
        cap=params.max_delta_fraction * node_rows.value_range,
        grafted=bool(tree.grafted[node]),
    )
