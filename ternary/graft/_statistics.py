"""The two statistics of grafting: Laplace's accuracy estimate and the binomial tail."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy import special, stats

__all__ = ["binomial_tail", "laplace"]


def laplace(count_k: ArrayLike, total: ArrayLike) -> float | np.ndarray:
    """Laplace accuracy estimate ``(count_k + 1) / (total + 2)`` (Niblett & Bratko 1986).

    The binary form Webb uses: the estimate that a region labelled with class
    ``k`` classifies a new case correctly, given ``count_k`` of its ``total``
    training cases are of class ``k``.

    Parameters
    ----------
    count_k, total : float or array-like
        The (weighted) count of class ``k`` and of all cases, ``0 ≤ count_k ≤ total``.

    Returns
    -------
    float or ndarray
        ``(count_k + 1) / (total + 2)``.

    Examples
    --------
    >>> laplace(9, 9)  # 10/11
    0.9090909090909091
    """
    count_k = np.asarray(count_k, dtype=np.float64)
    total = np.asarray(total, dtype=np.float64)
    out = (count_k + 1.0) / (total + 2.0)
    return float(out) if out.ndim == 0 else out


def binomial_tail(x: ArrayLike, n: ArrayLike, p: ArrayLike) -> float | np.ndarray:
    """``P(Bin(n, p) ≥ x)``: Webb's ``prob(x, n, p)``.

    For whole ``x`` and ``n`` this is ``scipy.stats.binom.sf(x − 1, n, p)``.
    Fractional counts (weighted rows) use its continuous extension, the
    regularised incomplete beta ``I_p(x, n − x + 1)``, which agrees with the
    binomial tail at every whole ``x``. ``x ≤ 0`` gives 1.

    Parameters
    ----------
    x, n : float or array-like
        Successes needed and trials, ``x ≤ n`` (weighted counts allowed).
    p : float or array-like in [0, 1]
        The success probability.

    Returns
    -------
    float or ndarray
        ``P(Bin(n, p) ≥ x)``.

    Examples
    --------
    >>> round(binomial_tail(9, 9, 5 / 6), 4)  # (5/6)**9
    0.1938
    """
    x, n, p = np.broadcast_arrays(
        np.asarray(x, dtype=np.float64),
        np.asarray(n, dtype=np.float64),
        np.asarray(p, dtype=np.float64),
    )
    out = np.ones(x.shape)
    positive = x > 0
    whole = positive & (x == np.round(x)) & (n == np.round(n))
    if whole.any():
        out[whole] = stats.binom.sf(x[whole] - 1, n[whole], p[whole])
    frac = positive & ~whole
    if frac.any():
        out[frac] = special.betainc(x[frac], np.maximum(n[frac] - x[frac], 0.0) + 1.0, p[frac])
    return float(out) if out.ndim == 0 else out
