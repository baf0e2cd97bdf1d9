"""The parameters of `TernaryTreeClassifier`: their vocabularies and one validation.

`validate_tree_params` is called by ``fit`` (and by the experiment runner, before it
spends time on folds); every refusal names the parameter, its value and what is allowed,
with inf and NaN refused like any other out-of-range number.
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ternary._classes import TernaryTreeClassifier

__all__ = ["CRITERIA", "DELTA_METHODS", "GRAFT_MODES", "ROUTINGS", "validate_tree_params"]

DELTA_METHODS = (
    "margin",
    "node_bootstrap",
    "quality_plateau",
    "gain_ratio",
    "class_overlap",
    "none",
)
ROUTINGS = ("probabilistic", "hard_middle", "deferred")
GRAFT_MODES = ("none", "all", "one")
CRITERIA = ("gini", "entropy", "log_loss")


def _choice(name, value, choices):
    if not isinstance(value, str) or value not in choices:
        raise ValueError(
            f"{name}={value!r} is not supported; choose one of {', '.join(map(repr, choices))}."
        )


def _number(name, value, low, high=None, *, integer=False, low_open=False, allow_none=False):
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


def _max_features(value):
    if value is None or (isinstance(value, str) and value in ("sqrt", "log2")):
        return
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        _number("max_features", value, 1, integer=True)
        return
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        _number("max_features", value, 0.0, 1.0, low_open=True)
        return
    raise ValueError(
        f"max_features={value!r} is not supported; use None (every feature), 'sqrt', 'log2', "
        "an integer ≥ 1 or a fraction in (0, 1]."
    )


def _check_labels(y) -> None:
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


def validate_tree_params(estimator: TernaryTreeClassifier) -> None:
    """Check every parameter of a `TernaryTreeClassifier`, raising a clear ValueError.

    `fit` calls it first; callers that build many estimators (the experiment grid) call it
    to reject a bad combination before any work. Every numeric parameter must be finite.

    Parameters
    ----------
    estimator : TernaryTreeClassifier
        Its parameters are read, not changed.

    Raises
    ------
    ValueError
        Naming the parameter, the value given and what is accepted.
    """
    e = estimator
    _choice("delta_method", e.delta_method, DELTA_METHODS)
    _choice("routing", e.routing, ROUTINGS)
    _choice("criterion", e.criterion, CRITERIA)
    _choice("graft", e.graft, GRAFT_MODES)
    _number("max_depth", e.max_depth, 1, integer=True, allow_none=True)
    _number("min_samples_split", e.min_samples_split, 2, integer=True)
    _number("min_samples_leaf", e.min_samples_leaf, 1, integer=True)
    _number("min_weight_fraction_leaf", e.min_weight_fraction_leaf, 0.0, 0.5)
    _max_features(e.max_features)
    _number("epsilon", e.epsilon, 0.0, 1.0)
    _number("alpha", e.alpha, 0.0)
    _number("q", e.q, 0.0, 0.5)
    _number("max_delta_fraction", e.max_delta_fraction, 0.0)
    if not (isinstance(e.delta_scale, str) and e.delta_scale == "bayes"):
        if isinstance(e.delta_scale, str):
            raise ValueError(
                f"delta_scale={e.delta_scale!r} is not supported; give a number ≥ 0 or 'bayes'."
            )
        _number("delta_scale", e.delta_scale, 0.0)
    _number("min_samples_middle", e.min_samples_middle, 1, integer=True)
    _number("graft_alpha", e.graft_alpha, 0.0, 1.0)
    _number("ccp_alpha", e.ccp_alpha, 0.0)
    if not (isinstance(e.n_bootstraps, str) and e.n_bootstraps == "auto"):
        _number("n_bootstraps", e.n_bootstraps, 2, integer=True)
    if e.graft != "none" and e.routing == "hard_middle":
        raise ValueError(
            "graft is not supported with routing='hard_middle': grafting adds binary splits "
            "judged on CART's training partition, which the middle branches change. Use "
            "routing='probabilistic' or 'deferred' (or delta_method='none') with grafting."
        )
    if e.ccp_alpha > 0 and e.routing == "hard_middle":
        raise ValueError(
            "ccp_alpha (CART cost-complexity pruning) applies to the binary routings only; "
            "use routing='probabilistic' or 'deferred', or set ccp_alpha=0."
        )
