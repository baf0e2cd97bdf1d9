"""class_overlap: half the widest overlap of two classes' percentile bands (Smits 2026, §3.3).

Reading pinned here: per class present, the band ``[P_q, P_(1−q)]`` of its values
(numpy's linear percentile, unweighted), ``[min, max]`` with fewer than two rows;
δ = half the widest positive overlap over all class pairs.
"""

from __future__ import annotations

import numpy as np

from ternary.delta._base import DeltaMethod, NodeRows
from ternary.delta.kernels import tree_zone_deltas

__all__ = ["METHOD", "class_bands", "delta_class_overlap", "widest_overlap"]


def class_bands(rows: NodeRows, q=0.10):
    """Compute each present class's percentile band ``[P_q, P_(1−q)]`` of the node's column.

    Percentiles are numpy's linear ones over the class's values, unweighted; a class
    with a single row has the degenerate band ``[v, v]``.

    Parameters
    ----------
    rows : NodeRows
        The training rows reaching the node, sorted on its split feature.
    q : float in [0, 0.5], default=0.1
        The band's lower percentile, as a fraction.

    Returns
    -------
    classes : ndarray of intp, shape (n_present,)
        The class codes present at the node, ascending.
    lows, highs : ndarray of float64, shape (n_present,)
        Each class's ``P_q`` and ``P_(1−q)``, in the feature's units.
    """
    classes, lows, highs = [], [], []
    for k in np.unique(rows.y):
        vals = rows.values[rows.y == k]
        if vals.size >= 2:
            lo, hi = np.percentile(vals, [100.0 * q, 100.0 * (1.0 - q)])
        else:
            lo, hi = vals.min(), vals.max()
        classes.append(int(k))
        lows.append(float(lo))
        highs.append(float(hi))
    return np.array(classes, dtype=np.intp), np.array(lows), np.array(highs)


def widest_overlap(rows: NodeRows, q=0.10):
    """Find the pair of classes whose percentile bands overlap most, and that overlap.

    Parameters
    ----------
    rows : NodeRows
        The training rows reaching the node, sorted on its split feature.
    q : float in [0, 0.5], default=0.1
        The bands' lower percentile (see `class_bands`).

    Returns
    -------
    pair : tuple of (int, int) or None
        The two class codes, smaller first; None when fewer than two classes are present
        or no two bands overlap by a positive width (then ``low`` and ``high`` are None
        too).
    low, high : float or None
        The ends of their common band ``[low, high]``; class_overlap's raw δ is
        ``(high − low)/2``.

    Examples
    --------
    >>> import numpy as np
    >>> from ternary.delta import NodeRows, widest_overlap
    >>> rows = NodeRows.from_arrays(
    ...     [8, 1, 7, 2, 6, 4],  # the node's values on its split feature
    ...     [1, 0, 0, 1, 1, 0],  # their classes
    ...     np.ones(6),  # their weights
    ...     threshold=5.0,
    ...     n_classes=2,
    ... )
    >>> widest_overlap(rows, q=0.0)
    ((0, 1), 2.0, 7.0)
    """
    classes, lows, highs = class_bands(rows, q)
    if classes.size < 2:
        return None, None, None
    low = np.maximum(lows[:, None], lows[None, :])
    high = np.minimum(highs[:, None], highs[None, :])
    width = high - low
    np.fill_diagonal(width, -np.inf)
    i, j = np.unravel_index(int(np.argmax(width)), width.shape)
    if width[i, j] <= 0:
        return None, None, None
    pair = (int(classes[min(i, j)]), int(classes[max(i, j)]))
    return pair, float(low[i, j]), float(high[i, j])


def delta_class_overlap(rows: NodeRows, q=0.10) -> float:
    """Half the widest positive overlap between two classes' percentile bands.

    Parameters
    ----------
    rows : NodeRows
        The training rows reaching the node, sorted on its split feature.
    q : float in [0, 0.5], default=0.1
        The band of a class is its ``[P_q, P_(1−q)]``.

    Returns
    -------
    float
        The raw δ (before the clamp and the scale), ≥ 0.
    """
    pair, low, high = widest_overlap(rows, q)
    return 0.0 if pair is None else (high - low) / 2.0


METHOD = DeltaMethod(
    "class_overlap",
    lambda rows, params, random_state: delta_class_overlap(rows, params.q),
    every_split=tree_zone_deltas,
)
