"""gain_ratio: α·range/(1 + gain ratio), a clear split gets a narrow zone (Smits 2026, §3.3).

Reading pinned here: GR = Q(θ*)/H_split(θ*), H_split the binary entropy (bits) of the
weighted left/right proportions; δ = α·range(c)/(1+GR), or α·range(c) when H_split = 0.
"""

from __future__ import annotations

import numpy as np

from ternary.delta._base import DeltaMethod, NodeRows, split_counts_at_threshold
from ternary.delta.kernels import tree_zone_deltas
from ternary.tree import split_quality

__all__ = ["METHOD", "delta_gain_ratio", "gain_ratio_parts"]


def gain_ratio_parts(rows: NodeRows, criterion="gini") -> dict:
    """Compute the pieces of the gain ratio at θ*: Q, H_split, GR and the left share.

    Parameters
    ----------
    rows : NodeRows
        The training rows reaching the node, sorted on its split feature.
    criterion : {"gini", "entropy", "log_loss"}, default="gini"
        The impurity of Q.

    Returns
    -------
    dict
        ``quality``: Q(θ*), CART's impurity decrease; ``h_split``: the binary entropy
        (bits) of the weighted left/right shares; ``gain_ratio``: GR = Q/H_split, NaN
        when H_split = 0 (every row on one side); ``left_fraction``: the weighted share
        of rows ≤ θ*.

    Examples
    --------
    >>> import numpy as np
    >>> from ternary.delta import NodeRows, gain_ratio_parts
    >>> rows = NodeRows.from_arrays(
    ...     [8, 1, 7, 2, 6, 4],  # the node's values on its split feature
    ...     [1, 0, 0, 1, 1, 0],  # their classes
    ...     np.ones(6),  # their weights
    ...     threshold=5.0,
    ...     n_classes=2,
    ... )
    >>> parts = gain_ratio_parts(rows)
    >>> round(parts["quality"], 4), parts["h_split"], parts["left_fraction"]
    (0.0556, 1.0, 0.5)
    """
    left, total = split_counts_at_threshold(rows)
    frac = float(left.sum() / total.sum()) if total.sum() > 0 else 0.0
    h_split = (
        0.0
        if frac <= 0.0 or frac >= 1.0
        else float(-(frac * np.log2(frac) + (1.0 - frac) * np.log2(1.0 - frac)))
    )
    gain = float(split_quality(left, total, criterion))
    return {
        "quality": gain,
        "h_split": h_split,
        "gain_ratio": gain / h_split if h_split > 0 else float("nan"),
        "left_fraction": frac,
    }


def delta_gain_ratio(rows: NodeRows, criterion="gini", alpha=0.10) -> float:
    """Compute α·range(c)/(1 + GR): a clear (high gain-ratio) split gets a narrow zone.

    Parameters
    ----------
    rows : NodeRows
        The training rows reaching the node, sorted on its split feature.
    criterion : {"gini", "entropy", "log_loss"}, default="gini"
        The split criterion of Q.
    alpha : float, default=0.1
        The scale α.

    Returns
    -------
    float
        The raw δ (before the clamp and the scale), ≥ 0.
    """
    parts = gain_ratio_parts(rows, criterion)
    if parts["h_split"] <= 0.0:
        return float(alpha * rows.value_range)
    return float(alpha * rows.value_range / (1.0 + parts["gain_ratio"]))


METHOD = DeltaMethod(
    "gain_ratio",
    lambda rows, params, random_state: delta_gain_ratio(rows, params.criterion, params.alpha),
    every_split=tree_zone_deltas,
)
