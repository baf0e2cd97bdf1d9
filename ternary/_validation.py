"""The checks every estimator shares: numbers, choices, labels, sample weights, names.

Each refusal is a ValueError that names the argument, the value given and what is
allowed (inf and NaN are refused like any other out-of-range number), so every
estimator answers a bad argument in one format.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = [
    "check_choice",
    "check_labels",
    "check_max_features",
    "check_number",
    "check_sample_weight",
    "default_feature_names",
]


def check_choice(name, value, choices):
    if not isinstance(value, str) or value not in choices:
        raise ValueError(
            f"{name}={value!r} is not supported; choose one of {', '.join(map(repr, choices))}."
        )


def check_number(name, value, low, high=None, *, integer=False, low_open=False, allow_none=False):
    if value is None and allow_none:
        return
    kind = numbers.Integral if integer else numbers.Real
    if isinstance(value, bool) or not isinstance(value, kind):
        raise ValueError(
            f"{name} must be {'an integer' if integer else 'a number'}; got {value!r}."
        )
    # NaN compares False with every bound, and inf passes a lower bound, so both are refused
    # here: they would surface as all-NaN probabilities or fail deep inside the δ methods
    if not np.isfinite(value):
        raise ValueError(f"{name} must be a finite number; got {value!r}.")
    too_low = value <= low if low_open else value < low
    if too_low or (high is not None and value > high):
        bound = f"{'>' if low_open else '≥'} {low}" + (f" and ≤ {high}" if high is not None else "")
        raise ValueError(f"{name} must be {bound}; got {value!r}.")


def check_max_features(value):
    if value is None or (isinstance(value, str) and value in ("sqrt", "log2")):
        return
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        check_number("max_features", value, 1, integer=True)
        return
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        check_number("max_features", value, 0.0, 1.0, low_open=True)
        return
    raise ValueError(
        f"max_features={value!r} is not supported; use None (every feature), 'sqrt', 'log2', "
        "an integer ≥ 1 or a fraction in (0, 1]."
    )


def check_labels(y) -> None:
    """Refuse labels that cannot be sorted into classes, saying which and what to do."""
    # numpy turns a plain list like ["a", 1] into strings, as scikit-learn reads it; an
    # object array (a pandas column, say) keeps each value's own type
    labels = np.asarray(y)
    if labels.dtype != object or labels.ndim != 1:
        return
    import pandas as pd  # only for object labels: None, NaN and pd.NA alike

    missing = np.flatnonzero(pd.isna(labels))
    if missing.size:
        raise ValueError(
            f"y holds {missing.size} missing label(s) (None or NaN), first at row "
            f"{missing[0]}; drop those rows or give them a class before fitting."
        )
    kinds = {str if isinstance(v, str) else type(v) for v in labels}
    if str in kinds and len(kinds) > 1:
        other = next(v for v in labels if not isinstance(v, str))
        text = next(v for v in labels if isinstance(v, str))
        raise ValueError(
            f"y mixes text and other labels (e.g. {text!r} and {other!r}), which cannot be "
            "ordered into classes; convert them to one type first, e.g. y.astype(str)."
        )


def check_sample_weight(sample_weight, n: int) -> np.ndarray | None:
    """``sample_weight`` as float64, or None; refused unless 1-D, one per row, finite, ≥ 0."""
    if sample_weight is None:
        return None
    weights = np.asarray(sample_weight, dtype=np.float64)
    if weights.ndim != 1 or weights.shape[0] != n:
        raise ValueError(
            f"sample_weight must be a 1-D array with one weight per row ({n}); "
            f"got shape {weights.shape}."
        )
    if not np.all(np.isfinite(weights)) or np.any(weights < 0):
        raise ValueError("sample_weight must be finite and non-negative.")
    return weights


def default_feature_names(n_features: int) -> list[str]:
    """The names of unnamed features, ``x0, x1, …``, as scikit-learn spells them.

    Parameters
    ----------
    n_features : int
        How many names.

    Returns
    -------
    list of str
        ``["x0", "x1", ...]``.

    Examples
    --------
    >>> default_feature_names(3)
    ['x0', 'x1', 'x2']
    """
    return [f"x{i}" for i in range(n_features)]
