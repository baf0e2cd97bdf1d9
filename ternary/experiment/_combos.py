"""The combinations an experiment scores: the paper's 11, named sets, and their labels."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ternary._classes import TernaryTreeClassifier
from ternary._params import DELTA_METHODS, ROUTINGS

#: A progress callback ``(done, total, message)``, as every runner here takes.
Progress = Callable[[int, int, str], None]
#: One dict of `TernaryTreeClassifier` parameters per combination.
Combos = Sequence[dict[str, Any]]
#: Array-likes: numpy arrays, pandas objects, lists.
ArrayLike = Any

#: The five δ methods of the paper, in the order of its section 3.3 tables.
PAPER_DELTA_METHODS = tuple(m for m in DELTA_METHODS if m != "none")

_CART = {"delta_method": "none", "routing": "probabilistic"}

#: The paper's 11 combinations: five δ methods × {probabilistic, hard_middle},
#: then the CART baseline. Copy before editing; functions here never modify it.
DEFAULT_COMBOS: list[dict[str, Any]] = [
    {"delta_method": method, "routing": routing}
    for method in PAPER_DELTA_METHODS
    for routing in ("probabilistic", "hard_middle")
] + [dict(_CART)]

#: Named combination lists for the command line's ``--combos``.
COMBO_SETS: dict[str, list[dict[str, Any]]] = {
    "default": DEFAULT_COMBOS,
    "probabilistic": [{"delta_method": m, "routing": "probabilistic"} for m in PAPER_DELTA_METHODS]
    + [dict(_CART)],
    # every routing the estimator offers, plus Webb's grafting on the CART tree
    "all": [{"delta_method": m, "routing": r} for m in PAPER_DELTA_METHODS for r in ROUTINGS]
    + [dict(_CART), {**_CART, "graft": "all"}, {**_CART, "graft": "one"}],
}

_METRICS = (
    "decided_accuracy",
    "uncertain_rate",
    "accuracy",
    "decided_f1",
    "fit_seconds",
    "n_leaves",
    "chow_decided_accuracy",
    "cart_accuracy",
    "chow_decided_accuracy_ties_mean",
    "aurc",
    "e_aurc",
    "cart_aurc",
    "cart_e_aurc",
    "laplace_decided_accuracy",
    "laplace_aurc",
    "laplace_e_aurc",
)
# columns that are neither a metric nor a swept estimator parameter
_BOOKKEEPING = frozenset({"combo", "fold", "dataset", "cv", "seed", "bayes_error"})
_FIXED_PARAMS = ("delta_method", "routing", "graft")
# parameters that shape CART's tree; the Chow reference shares them with the combo
_ESTIMATOR_DEFAULTS = TernaryTreeClassifier().get_params()
_CART_SHAPE = tuple(
    k
    for k in (
        "max_depth",
        "criterion",
        "min_samples_split",
        "min_samples_leaf",
        "min_weight_fraction_leaf",
        "class_weight",
        "random_state",
    )
    if k in _ESTIMATOR_DEFAULTS
)


def _format_value(value: Any) -> str:
    return repr(value) if isinstance(value, float) else str(value)


def combo_label(combo: dict[str, Any]) -> str:
    """A short readable name for a combination, unique per parameter set.

    ``{"delta_method": "margin", "routing": "probabilistic"}`` gives
    ``"margin / probabilistic"``; the CART baseline gives ``"CART"``; every
    other parameter is appended as ``name=value`` (``graft="none"`` is left out).

    Parameters
    ----------
    combo : dict
        Estimator parameters of one combination.

    Returns
    -------
    str
        The label.

    Examples
    --------
    >>> combo_label({"delta_method": "quality_plateau", "epsilon": 0.1})
    'quality_plateau / probabilistic / epsilon=0.1'
    >>> combo_label({"delta_method": "none", "routing": "probabilistic", "graft": "all"})
    'CART / graft=all'
    """
    method = combo.get("delta_method", _ESTIMATOR_DEFAULTS["delta_method"])
    routing = combo.get("routing", _ESTIMATOR_DEFAULTS["routing"])
    if method == "none" and routing == "probabilistic":
        parts = ["CART"]
    else:
        parts = [str(method), str(routing)]
    for key in sorted(k for k in combo if k not in ("delta_method", "routing")):
        if key == "graft" and combo[key] == "none":
            continue
        parts.append(f"{key}={_format_value(combo[key])}")
    return " / ".join(parts)


def _resolve_combos(combos) -> list[dict[str, Any]]:
    combos = DEFAULT_COMBOS if combos is None else combos
    if isinstance(combos, dict):
        raise TypeError("combos must be a list of dicts (one dict per combination), not a dict.")
    resolved = []
    for combo in combos:
        if not isinstance(combo, dict):
            raise TypeError(
                f"Each combination must be a dict of estimator parameters; got {combo!r}."
            )
        unknown = sorted(set(combo) - set(_ESTIMATOR_DEFAULTS))
        if unknown:
            raise ValueError(
                f"Unknown TernaryTreeClassifier parameter(s) {', '.join(unknown)} in combination "
                f"{combo!r}; valid names: {', '.join(sorted(_ESTIMATOR_DEFAULTS))}."
            )
        resolved.append(dict(combo))
    if not resolved:
        raise ValueError("combos is empty; give at least one combination.")
    labels = [combo_label(c) for c in resolved]
    duplicates = sorted({lab for lab in labels if labels.count(lab) > 1})
    if duplicates:
        raise ValueError(f"Duplicate combination(s): {', '.join(duplicates)}.")
    return resolved


def _swept_columns(combos) -> list[str]:
    extra = []
    for combo in combos:
        for key in combo:
            if key not in _FIXED_PARAMS and key not in extra:
                extra.append(key)
    return extra


def _cell(value: Any) -> Any:
    # tables hold scalars only; a dict-valued parameter (class_weight) is kept as text
    if value is None or isinstance(value, (str, bool, int, float, np.generic)):
        return value
    return str(value)
