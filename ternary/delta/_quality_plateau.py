"""quality_plateau: half the span of thresholds nearly as good as CART's (Smits 2026, §3.3).

Reading pinned here: θlo/θhi are the smallest/largest candidate thresholds with
``Q(θ) ≥ (1−ε)·Q(θ*)`` (not necessarily contiguous); δ = (θhi − θlo)/2, and 0 when
Q(θ*) ≤ 0 or there are fewer than 2 candidates. Candidates and Q are those of
`ternary.delta.quality_curve`.
"""

from __future__ import annotations

import numpy as np

from ternary.delta._base import DeltaMethod, NodeRows, quality_curve
from ternary.delta.kernels import tree_zone_deltas

__all__ = ["METHOD", "delta_quality_plateau", "plateau_bounds"]


def plateau_bounds(thresholds, quality, threshold, epsilon=0.05):
    """Find Q(θ*) and the plateau ``[θlo, θhi]`` of a quality curve.

    Q(θ*) is read at the candidate nearest θ*; θlo/θhi are the smallest/largest
    candidates with ``Q ≥ (1−ε)·Q(θ*)`` (not necessarily a contiguous run).

    Parameters
    ----------
    thresholds : ndarray of float, shape (n_candidates,)
        The candidate thresholds, as `quality_curve` returns them.
    quality : ndarray of float, shape (n_candidates,)
        Q at each candidate.
    threshold : float
        The node's threshold θ*.
    epsilon : float in [0, 1], default=0.05
        The tolerance ε.

    Returns
    -------
    q_star : float
        Q(θ*); NaN when there are no candidates.
    theta_lo, theta_hi : float or None
        The plateau's ends, in the feature's units; None when there are no candidates or
        Q(θ*) ≤ 0. quality_plateau's raw δ is ``(theta_hi − theta_lo)/2``.

    Examples
    --------
    >>> import numpy as np
    >>> from ternary.delta import plateau_bounds
    >>> thresholds = np.array([1.5, 3.0, 5.0, 6.5, 7.5])
    >>> quality = np.array([0.1, 0.0, 0.08, 0.0, 0.1])
    >>> plateau_bounds(thresholds, quality, threshold=5.0, epsilon=0.05)
    (0.08, 1.5, 7.5)
    """
    if thresholds.size == 0:
        return float("nan"), None, None
    q_star = float(quality[np.argmin(np.abs(thresholds - threshold))])
    if q_star <= 0:
        return q_star, None, None
    on_plateau = thresholds[quality >= (1.0 - epsilon) * q_star]
    return q_star, float(on_plateau.min()), float(on_plateau.max())


def delta_quality_plateau(
    rows: NodeRows, criterion="gini", epsilon=0.05, min_samples_leaf=1
) -> float:
    """Half the span of candidate thresholds whose Q is within (1−ε) of Q(θ*).

    Parameters
    ----------
    rows : NodeRows
        The training rows reaching the node, sorted on its split feature.
    criterion : {"gini", "entropy", "log_loss"}, default="gini"
        The split criterion of Q.
    epsilon : float in [0, 1], default=0.05
        The tolerance ε.
    min_samples_leaf : int, default=1
        Candidates must leave this many rows on each side.

    Returns
    -------
    float
        The raw δ (before the clamp and the scale), ≥ 0.
    """
    thresholds, quality, _ = quality_curve(rows, criterion, min_samples_leaf)
    if thresholds.size < 2:
        return 0.0
    _, low, high = plateau_bounds(thresholds, quality, rows.threshold, epsilon)
    return 0.0 if low is None else (high - low) / 2.0


METHOD = DeltaMethod(
    "quality_plateau",
    lambda rows, params, random_state: delta_quality_plateau(
        rows, params.criterion, params.epsilon, params.min_samples_leaf
    ),
    every_split=tree_zone_deltas,
)
