"""The work of one fold: fitting the combinations and scoring them on the test rows.

These functions run in the workers (joblib or Dask), so they take and return
plain arrays, estimators and dicts.

For the binary routings (probabilistic, deferred) without grafting or pruning,
the tree is CART's whatever the δ method: δ changes only the zones. One CART per
fold therefore serves all those combinations: `ternary._classes.rezone` gives
each its zones, equal to a fresh fit's, without growing the tree again.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ternary._classes import REZONE_PARAMS, TernaryTreeClassifier, rezone
from ternary._params import ROUTINGS
from ternary.selective import aurc, optimal_aurc

# δ methods share the CART tree only where the tree is CART's: no middle branches,
# no grafts, no pruning. The switch keeps the slow path (every combination fitted
# afresh) available, to check the shared one against it.
_BINARY_ROUTINGS = tuple(r for r in ROUTINGS if r != "hard_middle")
_SHARE_CART = True


def cart_params(params: dict[str, Any]) -> dict[str, Any]:
    """The plain CART (no zones, no grafts, no pruning) that has a combination's shape."""
    return {
        **params,
        "delta_method": "none",
        "routing": "probabilistic",
        "graft": "none",
        "ccp_alpha": 0.0,
    }


def shares_cart(params: dict[str, Any], cart: dict[str, Any] | None = None) -> bool:
    """Whether this combination's tree is CART's, so a fitted CART can serve it.

    With ``cart`` (the parameters of the CART at hand), also whether they differ from
    the combination's in zone parameters only, which is all `rezone` can change.
    """
    if not (
        _SHARE_CART
        and params["routing"] in _BINARY_ROUTINGS
        and params["graft"] == "none"
        and params["ccp_alpha"] == 0
    ):
        return False
    return cart is None or all(k in REZONE_PARAMS or cart[k] == v for k, v in params.items())


def fit_cart(params, X_train, y_train) -> tuple[TernaryTreeClassifier, float]:
    start = time.perf_counter()
    # the fold's arrays are validated float32 already (see run_cv)
    cart = TernaryTreeClassifier(**cart_params(params)).fit(X_train, y_train, check_input=False)
    return cart, time.perf_counter() - start


def macro_f1(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """scikit-learn's ``f1_score(average="macro", zero_division=0)``, without its checks.

    Over the labels present in either array, F1 = 2·tp / (2·tp + fp + fn), then the
    mean; the same operations in the same order, so the same floats.
    """
    labels, inverse = np.unique(np.concatenate([y_true, y_pred]), return_inverse=True)
    n = y_true.shape[0]
    true_idx, pred_idx = inverse[:n], inverse[n:]
    k = labels.shape[0]
    tp = np.bincount(true_idx[true_idx == pred_idx], minlength=k).astype(np.float64)
    true_sum = np.bincount(true_idx, minlength=k).astype(np.float64)
    pred_sum = np.bincount(pred_idx, minlength=k).astype(np.float64)
    return float(np.average(2.0 * tp / (true_sum + pred_sum)))


def score(clf: TernaryTreeClassifier, X_test, y_test, fit_seconds: float) -> dict[str, Any]:
    """One fitted combination's metrics on a fold's test rows."""
    # predict_proba, predict_verdict and predict_confidence from one walk of the tree
    proba, verdict, confidence = clf._selective_outputs(X_test)
    y_pred = clf.classes_[np.argmax(proba, axis=1)]
    decided = verdict == 1
    correct = y_pred == y_test
    # e_aurc is aurc minus the optimum at the error rate: one sort for both, the same floats
    area = aurc(y_test, y_pred, confidence)
    return {
        "decided_accuracy": float(np.mean(correct[decided])) if decided.any() else np.nan,
        "uncertain_rate": float(np.mean(~decided)),
        "accuracy": float(np.mean(correct)),
        "decided_f1": macro_f1(y_test[decided], y_pred[decided]) if decided.any() else np.nan,
        "fit_seconds": fit_seconds,
        "n_leaves": int(clf.get_n_leaves()),
        "aurc": area,
        "e_aurc": area - optimal_aurc(float(np.mean(y_test != y_pred))),
        "_n_flagged": int(np.sum(~decided)),
    }


def combo_task(i, f, params, X_train, y_train, X_test, y_test) -> list[tuple]:
    """Fit one combination afresh and score it: ``[(i, f, scores)]``."""
    start = time.perf_counter()
    clf = TernaryTreeClassifier(**params).fit(X_train, y_train, check_input=False)
    return [(i, f, score(clf, X_test, y_test, time.perf_counter() - start))]


def shared_task(
    indices, f, param_list, cart, cart_seconds, X_train, y_train, X_test, y_test
) -> list[tuple]:
    """Give the fold's fitted CART each combination's zones and score them.

    A combination's ``fit_seconds`` is the CART's fit time plus its own rezoning:
    what a fresh fit of it costs, near enough.
    """
    base = cart.get_params()
    out = []
    for i, params in zip(indices, param_list, strict=True):
        start = time.perf_counter()
        changed = {k: v for k, v in params.items() if base[k] != v}
        clf = rezone(cart, X_train, y_train, **changed)
        seconds = cart_seconds + time.perf_counter() - start
        out.append((i, f, score(clf, X_test, y_test, seconds)))
    return out
