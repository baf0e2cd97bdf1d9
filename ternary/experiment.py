"""Cross-validated experiments in the protocol of Smits (2026, section 4).

Every δ method × routing combination is scored with stratified 5-fold
cross-validation, features standardised on each training fold, trees of depth 4,
against scikit-learn's CART at the same depth. Four functions cover the work:

* `run_cv` scores a list of combinations on one dataset and returns a tidy
  table, one row per (combination, fold);
* `summarize` turns such rows (of one or many datasets) into the paper's
  tables: decided accuracy ± std, uncertain rate, efficiency η, U/B, and over
  several datasets the win/tie/loss counts and a one-sided Wilcoxon test;
* `run_suite` runs `run_cv` over many datasets and keeps every finished row in
  a CSV file, so an interrupted run resumes where it stopped;
* `chow_curve` / `chow_curve_cv` give CART's accuracy–coverage curve.

The paper compares decided accuracy with CART's accuracy on *all* rows, which
flatters any method that flags many rows: dropping the hardest rows raises
accuracy whatever the flags mean. Each row here therefore also carries
``chow_decided_accuracy``: the decided accuracy CART itself reaches on the same
fold when it flags the same number of test rows, chosen by Chow's (1970) reject
rule (the rows with the lowest maximum class probability). A δ method only adds
something if it beats that.

Printing, progress bars and plots belong to callers; they pass a ``progress``
callback. The command line ``python -m ternary.experiment --help`` is such a
caller (see `main`).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.impute import SimpleImputer
from sklearn.model_selection import StratifiedKFold
from sklearn.preprocessing import StandardScaler

from ternary._classes import TernaryTreeClassifier
from ternary.metrics import decided_accuracy, decided_f1, efficiency, ub_ratio, uncertain_rate

__all__ = [
    "COMBO_SETS",
    "DEFAULT_COMBOS",
    "PAPER_DELTA_METHODS",
    "chow_curve",
    "chow_curve_cv",
    "chow_decided_accuracy",
    "classes_too_small",
    "combo_label",
    "main",
    "run_cv",
    "run_suite",
    "summarize",
]

#: The five δ methods of the paper, in the order of its section 3.3 tables.
PAPER_DELTA_METHODS = ("margin", "node_bootstrap", "quality_plateau", "gain_ratio", "class_overlap")

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
    "all": [
        {"delta_method": m, "routing": r}
        for m in PAPER_DELTA_METHODS
        for r in ("probabilistic", "hard_middle", "deferred")
    ]
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


# ---------------------------------------------------------------------------------- combos
def _format_value(value: Any) -> str:
    return repr(value) if isinstance(value, float) else str(value)


def combo_label(combo: dict[str, Any]) -> str:
    """A short readable name for a combination, unique per parameter set.

    ``{"delta_method": "margin", "routing": "probabilistic"}`` gives
    ``"margin / probabilistic"``; the CART baseline gives ``"CART"``; every
    other parameter is appended as ``name=value`` (``graft="none"`` is left out).

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


# ---------------------------------------------------------------------------------- Chow
def _label_predictions(proba: np.ndarray, y_true: np.ndarray, classes) -> np.ndarray:
    proba = np.asarray(proba, dtype=np.float64)
    if classes is None:
        k = proba.shape[1]
        if np.issubdtype(y_true.dtype, np.integer) and np.all((y_true >= 0) & (y_true < k)):
            classes = np.arange(k)
        else:
            classes = np.unique(y_true)
            if classes.shape[0] != k:
                raise ValueError(
                    f"proba has {k} columns but y_true has {classes.shape[0]} distinct labels; "
                    "pass classes= (the estimator's classes_) to say which column is which label."
                )
    classes = np.asarray(classes)
    if classes.shape[0] != proba.shape[1]:
        raise ValueError(
            f"classes has {classes.shape[0]} labels but proba has {proba.shape[1]} columns."
        )
    return classes[np.argmax(proba, axis=1)]


def _chow_scores(
    correct: np.ndarray, confidence: np.ndarray, counts: np.ndarray, ties: str
) -> np.ndarray:
    """Decided accuracy after flagging ``counts[j]`` least confident rows, for every j."""
    n = correct.shape[0]
    order = np.argsort(confidence, kind="stable")
    ordered = correct[order].astype(np.float64)
    # correct rows among ordered[k:], for every k
    tail = np.concatenate([np.cumsum(ordered[::-1])[::-1], [0.0]])
    counts = np.asarray(counts, dtype=np.intp)
    kept = n - counts
    if ties == "row_order":
        kept_correct = tail[counts]
    elif ties == "mean":
        # the cut falls inside a group of equal confidence: flag a uniformly random
        # subset of that group, in expectation (each of its rows is kept with the
        # same probability), so the result does not depend on row order
        conf = confidence[order]
        start = np.searchsorted(conf, conf, side="left")  # first row of each tie group
        stop = np.searchsorted(conf, conf, side="right")
        kept_correct = tail[counts].copy()
        inside = (counts > 0) & (counts < n)
        last = np.where(inside, counts - 1, 0)  # the last flagged row
        lo, hi = start[last], stop[last]
        group_size = hi - lo
        group_correct = tail[lo] - tail[hi]
        kept_in_group = hi - counts
        kept_correct = np.where(
            inside,
            tail[hi] + group_correct * kept_in_group / np.maximum(group_size, 1),
            kept_correct,
        )
    else:
        raise ValueError(f"ties must be 'row_order' or 'mean'; got {ties!r}.")
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(kept > 0, kept_correct / np.maximum(kept, 1), np.nan)


def _check_proba(y_true, proba):
    y_true = np.asarray(y_true)
    proba = np.asarray(proba, dtype=np.float64)
    if proba.ndim != 2 or proba.shape[0] != y_true.shape[0]:
        raise ValueError(
            f"proba must have shape (n_samples, n_classes) with n_samples = "
            f"{y_true.shape[0]}; got {proba.shape}."
        )
    return y_true, proba


def chow_decided_accuracy(
    y_true, proba, n_flagged: int, classes=None, ties: str = "row_order"
) -> float:
    """Decided accuracy of a classifier that flags its ``n_flagged`` least confident rows.

    Chow's (1970) reject rule: the rows with the lowest maximum class
    probability are flagged, the rest are scored. A depth-4 CART has at most
    16 distinct leaf probabilities, so the cut usually falls inside a group of
    rows with equal confidence, and which of them are flagged is then
    arbitrary: the flagged set is ambiguous. ``ties="row_order"`` (the
    default) flags them in row order (a stable sort): deterministic, but if the
    rows are sorted by class (many ARFF files are, and test folds keep file
    order) it is biased. ``ties="mean"`` gives the expected decided accuracy
    when the tied rows to flag are drawn at random, which does not depend on
    row order.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    proba : array-like of shape (n_samples, n_classes)
    n_flagged : int, how many rows to flag (0 … n_samples)
    classes : array-like of shape (n_classes,), optional
        Label of each proba column (an estimator's ``classes_``). By default
        ``0 … n_classes−1`` for integer labels in that range, else the sorted
        distinct labels of ``y_true``.
    ties : {"row_order", "mean"}, default="row_order"

    Returns
    -------
    float, NaN when every row is flagged.

    >>> chow_decided_accuracy([0, 1, 1], [[0.9, 0.1], [0.6, 0.4], [0.2, 0.8]], 1)
    1.0
    >>> chow_decided_accuracy([0, 1], [[0.6, 0.4], [0.6, 0.4]], 1, ties="mean")
    0.5
    """
    y_true, proba = _check_proba(y_true, proba)
    n = y_true.shape[0]
    if not 0 <= n_flagged <= n:
        raise ValueError(f"n_flagged must be between 0 and {n}; got {n_flagged}.")
    correct = _label_predictions(proba, y_true, classes) == y_true
    return float(_chow_scores(correct, proba.max(axis=1), np.array([int(n_flagged)]), ties)[0])


def _default_rates() -> np.ndarray:
    return np.round(np.arange(0.0, 0.9001, 0.01), 2)


def chow_curve(y_true, proba, rates=None, classes=None, ties: str = "row_order") -> pd.DataFrame:
    """CART's accuracy–coverage curve under Chow's reject rule.

    For each rate r the ``round(r · n)`` least confident rows are flagged and the
    accuracy on the others is reported (see `chow_decided_accuracy` for ties).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    proba : array-like of shape (n_samples, n_classes)
    rates : array-like of floats in [0, 1], default 0, 0.01, …, 0.90
    classes : array-like, optional, the label of each proba column
    ties : {"row_order", "mean"}, default="row_order"

    Returns
    -------
    pandas.DataFrame with columns ``uncertain_rate`` (the fraction actually
    flagged, ``round(r · n) / n``) and ``decided_accuracy``.
    """
    y_true, proba = _check_proba(y_true, proba)
    rates = _default_rates() if rates is None else np.asarray(rates, dtype=np.float64).ravel()
    if np.any(np.isnan(rates)) or np.any((rates < 0) | (rates > 1)):
        raise ValueError("rates must lie in [0, 1].")
    n = y_true.shape[0]
    if n == 0:
        raise ValueError("chow_curve needs at least one row.")
    correct = _label_predictions(proba, y_true, classes) == y_true
    counts = np.rint(rates * n).astype(np.intp)
    accuracy = _chow_scores(correct, proba.max(axis=1), counts, ties)
    return pd.DataFrame({"uncertain_rate": counts / n, "decided_accuracy": accuracy})


# ---------------------------------------------------------------------------------- folds
def _as_arrays(X, y) -> tuple[np.ndarray, np.ndarray]:
    try:
        X_arr = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            "X must hold numbers only; encode text/categorical columns first (the loaders in "
            f"ternary.data do this): {exc}"
        ) from exc
    if X_arr.ndim != 2:
        raise ValueError(f"X must be 2-D (n_samples, n_features); got shape {X_arr.shape}.")
    if np.isinf(X_arr).any():
        raise ValueError("X contains infinite values; replace them before running the experiment.")
    y_arr = np.asarray(y)
    if y_arr.ndim != 1 or y_arr.shape[0] != X_arr.shape[0]:
        raise ValueError(
            f"y must be 1-D with one label per row of X ({X_arr.shape[0]}); "
            f"got shape {y_arr.shape}."
        )
    if pd.isna(y_arr).any():
        raise ValueError("y contains missing labels; drop those rows first.")
    return X_arr, y_arr


def _plain(value):
    return value.item() if isinstance(value, np.generic) else value


def classes_too_small(y, cv: int) -> list[tuple[Any, int]]:
    """The ``(label, row count)`` of every class with fewer than ``cv`` rows.

    Stratified ``cv``-fold cross-validation needs each class in every fold, so it
    cannot run while this list is non-empty.
    """
    labels, counts = np.unique(np.asarray(y), return_counts=True)
    return [(_plain(lab), int(n)) for lab, n in zip(labels, counts, strict=True) if n < cv]


def _stratified_folds(y: np.ndarray, cv: int, seed) -> list[tuple[np.ndarray, np.ndarray]]:
    if isinstance(cv, bool) or not isinstance(cv, (int, np.integer)) or cv < 2:
        raise ValueError(f"cv must be an integer ≥ 2; got {cv!r}.")
    labels, counts = np.unique(y, return_counts=True)
    if labels.shape[0] < 2:
        raise ValueError("y holds a single class; a classifier needs at least two.")
    rare = classes_too_small(y, cv)
    if rare:
        shown = ", ".join(f"{lab!r} ({n} rows)" for lab, n in rare)
        fix = f"use cv={int(counts.min())} or fewer, or " if counts.min() >= 2 else ""
        raise ValueError(
            f"Stratified {cv}-fold cross-validation needs at least {cv} rows of every class; "
            f"too few in class(es) {shown}. To run anyway, {fix}merge or drop the rare classes."
        )
    splitter = StratifiedKFold(n_splits=cv, shuffle=True, random_state=seed)
    return list(splitter.split(np.zeros((y.shape[0], 1)), y))


def _fold_arrays(X: np.ndarray, train: np.ndarray, test: np.ndarray, scale: bool):
    X_train, X_test = X[train], X[test]
    if np.isnan(X_train).any() or np.isnan(X_test).any():
        # the trees take no NaN; impute from the training fold only, like the scaler
        imputer = SimpleImputer(strategy="median", keep_empty_features=True).fit(X_train)
        X_train, X_test = imputer.transform(X_train), imputer.transform(X_test)
    if scale:
        scaler = StandardScaler().fit(X_train)
        X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)
    return X_train, X_test


def _cart_key(params: dict[str, Any]) -> tuple:
    return tuple((k, repr(params[k])) for k in _CART_SHAPE)


def _fit_cart(params, X_train, y_train, X_test):
    cart = TernaryTreeClassifier(
        **{
            **params,
            "delta_method": "none",
            "routing": "probabilistic",
            "graft": "none",
            "ccp_alpha": 0.0,
        }
    )
    cart.fit(X_train, y_train)
    return cart.predict_proba(X_test), cart.classes_


def _score_combo(params, X_train, y_train, X_test, y_test) -> dict[str, Any]:
    clf = TernaryTreeClassifier(**params)
    start = time.perf_counter()
    clf.fit(X_train, y_train)
    fit_seconds = time.perf_counter() - start
    y_pred, verdict = clf.predict_with_verdict(X_test)
    return {
        "decided_accuracy": decided_accuracy(y_test, y_pred, verdict),
        "uncertain_rate": uncertain_rate(verdict),
        "accuracy": float(np.mean(y_pred == y_test)),
        "decided_f1": decided_f1(y_test, y_pred, verdict),
        "fit_seconds": fit_seconds,
        "n_leaves": int(clf.get_n_leaves()),
        "_n_flagged": int(np.sum(verdict == 0)),
    }


def _iter_cv_rows(
    X, y, combos, *, cv, max_depth, seed, scale, n_jobs, tree_params, skip=frozenset()
):
    """Yield ``(combo index, fold, row)`` for every task not in ``skip``, as tasks finish.

    The folds, the scaling and the CART references are computed here, once per
    fold, and shared by all combinations of that fold; only the combination
    fits go to joblib. Nothing is computed for a fold whose tasks are all skipped.
    """
    X, y = _as_arrays(X, y)
    combos = _resolve_combos(combos)
    folds = _stratified_folds(y, cv, seed)
    base = {
        **_ESTIMATOR_DEFAULTS,
        "max_depth": max_depth,
        "random_state": seed,
        "n_bootstraps": "auto",
    }
    base.update(tree_params)
    params = [{**base, **combo} for combo in combos]
    for p in params:  # fail on a bad parameter now rather than in a worker
        TernaryTreeClassifier(**p)._validate_params()
    swept = _swept_columns(combos)
    tasks = [(i, f) for f in range(cv) for i in range(len(combos)) if (i, f) not in skip]

    fold_data, cart_refs = {}, {}
    for i, f in tasks:
        if f not in fold_data:
            train, test = folds[f]
            X_train, X_test = _fold_arrays(X, train, test, scale)
            fold_data[f] = (X_train, y[train], X_test, y[test])
        key = (f, _cart_key(params[i]))
        if key not in cart_refs:
            X_train, y_train, X_test, y_test = fold_data[f]
            proba, classes = _fit_cart(params[i], X_train, y_train, X_test)
            correct = classes[np.argmax(proba, axis=1)] == y_test
            cart_refs[key] = (proba, classes, float(np.mean(correct)))

    # the CART references stay in this process: workers get only their fold's arrays
    results = Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
        delayed(_task_entry)(i, f, params[i], *fold_data[f]) for i, f in tasks
    )
    for i, f, scores in results:
        proba, classes, cart_acc = cart_refs[(f, _cart_key(params[i]))]
        y_test = fold_data[f][3]
        n_flagged = scores.pop("_n_flagged")
        row = {"combo": combo_label(combos[i])}
        for name in _FIXED_PARAMS:
            row[name] = _cell(params[i][name])
        for name in swept:
            row[name] = _cell(combos[i].get(name, params[i][name]))
        row["fold"] = f
        row.update(scores)
        row["chow_decided_accuracy"] = chow_decided_accuracy(y_test, proba, n_flagged, classes)
        row["chow_decided_accuracy_ties_mean"] = chow_decided_accuracy(
            y_test, proba, n_flagged, classes, ties="mean"
        )
        row["cart_accuracy"] = cart_acc
        yield i, f, row


def _task_entry(i, f, params, X_train, y_train, X_test, y_test):
    return i, f, _score_combo(params, X_train, y_train, X_test, y_test)


def run_cv(
    X,
    y,
    combos=None,
    cv=5,
    max_depth=4,
    seed=42,
    scale=True,
    n_jobs=1,
    progress=None,
    **tree_params,
) -> pd.DataFrame:
    """Score every combination with stratified k-fold cross-validation (the paper's protocol).

    Folds come from ``StratifiedKFold(cv, shuffle=True, random_state=seed)``;
    on each fold a StandardScaler (and, only when X has missing values, a
    median imputer) is fitted on the training rows alone; every tree gets
    ``max_depth``, ``n_bootstraps="auto"`` and ``random_state=seed``. Per fold
    one CART (``delta_method="none"``, same depth) is fitted and shared by all
    combinations as their reference.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features), numeric (NaN allowed)
    y : array-like of shape (n_samples,), labels of any type
    combos : list of dict, default `DEFAULT_COMBOS`
        Each dict holds `TernaryTreeClassifier` parameters, so any parameter can
        be swept, e.g. ``[{"delta_method": "quality_plateau", "epsilon": e} for e
        in (0.01, 0.05, 0.1)]``. Unset parameters take the values below, then
        the estimator's defaults (``graft="none"``).
    cv : int, default=5
    max_depth : int or None, default=4
    seed : int, default=42
        Seeds the folds and every tree.
    scale : bool, default=True
        Standardise the features within each fold.
    n_jobs : int, default=1
        Parallel (combination, fold) fits through joblib; any joblib backend
        works, see `run_suite` for a cluster.
    progress : callable ``(done, total, message)``, optional
        Called after each finished (combination, fold).
    **tree_params
        Further `TernaryTreeClassifier` parameters for every combination (a
        combination's own value wins).

    Returns
    -------
    pandas.DataFrame
        One row per (combination, fold), ordered by combination then fold:
        ``combo`` (see `combo_label`), ``delta_method``, ``routing``, ``graft``,
        one column per other swept parameter, ``fold``, ``decided_accuracy``
        (NaN when every test row is flagged), ``uncertain_rate``, ``accuracy``
        (all rows), ``decided_f1`` (macro), ``fit_seconds``, ``n_leaves``,
        ``chow_decided_accuracy`` (CART flagging as many rows by Chow's rule,
        ties by row order, see `chow_decided_accuracy`), ``cart_accuracy``
        (CART on all rows) and ``chow_decided_accuracy_ties_mean`` (Chow with
        the tied rows at the cut drawn at random, in expectation).

    Raises
    ------
    ValueError
        When a class has fewer than ``cv`` rows (the message says what to
        change), X is not numeric, or a parameter is invalid.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> rows = run_cv(X, y, combos=[{"delta_method": "margin"}], cv=3)
    >>> rows[["combo", "fold"]].values.tolist()
    [['margin / probabilistic', 0], ['margin / probabilistic', 1], ['margin / probabilistic', 2]]
    """
    combos = _resolve_combos(combos)
    total = len(combos) * cv
    rows = {}
    for i, f, row in _iter_cv_rows(
        X,
        y,
        combos,
        cv=cv,
        max_depth=max_depth,
        seed=seed,
        scale=scale,
        n_jobs=n_jobs,
        tree_params=tree_params,
    ):
        rows[(i, f)] = row
        if progress is not None:
            progress(len(rows), total, f"{row['combo']}, fold {f + 1}/{cv}")
    return _frame([rows[key] for key in sorted(rows)], combos)


def _frame(rows: list[dict], combos) -> pd.DataFrame:
    columns = ["combo", *_FIXED_PARAMS, *_swept_columns(combos), "fold", *_METRICS]
    return pd.DataFrame(rows, columns=columns)


def chow_curve_cv(
    X, y, cv=5, max_depth=4, seed=42, scale=True, rates=None, ties="row_order", **tree_params
) -> pd.DataFrame:
    """CART's Chow curve on the folds `run_cv` uses, averaged over the folds.

    Each fold's CART (same folds, scaling, depth and seed as `run_cv`) gives a
    `chow_curve` at the same requested rates; the curves are averaged rate by
    rate, which is how `summarize` averages the combinations, so the combos'
    points and this curve are directly comparable.

    Returns
    -------
    pandas.DataFrame with columns ``uncertain_rate`` (mean flagged fraction),
    ``decided_accuracy`` (mean over folds) and ``decided_accuracy_std``.
    """
    X, y = _as_arrays(X, y)
    folds = _stratified_folds(y, cv, seed)
    params = {**_ESTIMATOR_DEFAULTS, "max_depth": max_depth, "random_state": seed, **tree_params}
    curves = []
    for train, test in folds:
        X_train, X_test = _fold_arrays(X, train, test, scale)
        proba, classes = _fit_cart(params, X_train, y[train], X_test)
        curve = chow_curve(y[test], proba, rates=rates, classes=classes, ties=ties)
        curve["point"] = np.arange(len(curve))
        curves.append(curve)
    pooled = pd.concat(curves).groupby("point", sort=True)
    return pd.DataFrame(
        {
            "uncertain_rate": pooled["uncertain_rate"].mean().to_numpy(),
            "decided_accuracy": pooled["decided_accuracy"].mean().to_numpy(),
            "decided_accuracy_std": pooled["decided_accuracy"].std().to_numpy(),
        }
    )


# ---------------------------------------------------------------------------------- summary
def _round_diff(values) -> np.ndarray:
    # fold means of the same numbers can differ in the last bit; that is not a win
    return np.round(np.asarray(values, dtype=np.float64), 12)


def _wilcoxon_greater(differences) -> float:
    from scipy.stats import wilcoxon

    d = _round_diff(differences)
    d = d[~np.isnan(d)]
    if np.count_nonzero(d) < 2:
        return float("nan")
    return float(wilcoxon(d[d != 0], alternative="greater").pvalue)


def summarize(
    results: pd.DataFrame, bayes_error: float | None = None, threshold: float = 0.005
) -> pd.DataFrame:
    """One row per combination, in the layout of the paper's tables.

    Fold results are first averaged per (dataset, combination). With one
    dataset the ± std is over folds; with several (a ``dataset`` column with
    more than one value) the columns are means over the per-dataset means, the
    std is over datasets (as in the paper's Table 1), and each combination also
    gets win/tie/loss counts and a one-sided Wilcoxon signed-rank p-value for
    "decided accuracy > CART's accuracy".

    Parameters
    ----------
    results : DataFrame from `run_cv` or `run_suite`
    bayes_error : float, optional
        Bayes error of the (single) dataset, for the U/B ratio. By default a
        ``bayes_error`` column is used where present (U/B is then averaged over
        the datasets that have one).
    threshold : float, default=0.005
        The paper's practical-significance margin (0.5 points): a win when the
        decided accuracy exceeds CART's accuracy by more than this, a loss when
        it falls short by more, a tie otherwise.

    Returns
    -------
    pandas.DataFrame sorted by decided accuracy (descending; the CART row is
    kept), with ``combo``, the parameter columns, ``n_datasets`` (several
    datasets), ``decided_accuracy``, ``decided_accuracy_std``,
    ``uncertain_rate``, ``uncertain_pct``, ``accuracy``, ``decided_f1``,
    ``cart_accuracy``, ``efficiency`` (η = (decided − CART accuracy) /
    uncertain rate, NaN at rate 0), ``chow_decided_accuracy``,
    ``gain_vs_chow`` (decided − Chow), ``chow_decided_accuracy_ties_mean``,
    ``ub_ratio`` (when a Bayes error is known), ``fit_seconds``, ``n_leaves``, and with several
    datasets ``wins``,
    ``ties``, ``losses`` and ``wilcoxon_p`` (NaN with fewer than two non-zero
    differences).
    """
    if results is None or len(results) == 0:
        raise ValueError("results is empty; nothing to summarise.")
    df = results.copy()
    if "combo" not in df.columns:
        params = [c for c in df.columns if c not in _BOOKKEEPING and c not in _METRICS]
        df["combo"] = [
            combo_label({k: v for k, v in r.items() if not pd.isna(v)})
            for r in df[params].to_dict("records")
        ]
    missing = [c for c in ("decided_accuracy", "uncertain_rate", "cart_accuracy") if c not in df]
    if missing:
        raise ValueError(f"results lacks the column(s) {', '.join(missing)}; pass run_cv's output.")
    metrics = [c for c in _METRICS if c in df.columns]
    params = [c for c in df.columns if c not in _BOOKKEEPING and c not in _METRICS]
    has_dataset = "dataset" in df.columns
    if not has_dataset:
        df["dataset"] = ""
    df["dataset"] = df["dataset"].astype(str)
    multi = df["dataset"].nunique() > 1

    keys = ["dataset", "combo"]
    grouped = df.groupby(keys, sort=False)
    per = grouped[metrics].mean()
    per["decided_accuracy_std"] = grouped["decided_accuracy"].std()
    per = per.join(grouped[params].first()) if params else per
    if bayes_error is not None:
        per["bayes_error"] = float(bayes_error)
    elif "bayes_error" in df.columns:
        per["bayes_error"] = grouped["bayes_error"].first()
    per = per.reset_index()
    if "bayes_error" in per.columns:
        per["ub_ratio"] = [
            ub_ratio(r, b) if pd.notna(b) else np.nan
            for r, b in zip(per["uncertain_rate"], per["bayes_error"], strict=True)
        ]

    order = list(dict.fromkeys(df["combo"]))
    rows = []
    for combo in order:
        part = per[per["combo"] == combo]
        row = {"combo": combo}
        for name in params:
            row[name] = part[name].iloc[0]
        if multi:
            row["n_datasets"] = int(part["dataset"].nunique())
            row["decided_accuracy_std"] = part["decided_accuracy"].std()
        for name in metrics:
            row[name] = part[name].mean()
        if not multi:
            row["decided_accuracy_std"] = part["decided_accuracy_std"].iloc[0]
        row["uncertain_pct"] = 100.0 * row["uncertain_rate"]
        row["efficiency"] = efficiency(
            row["decided_accuracy"], row["cart_accuracy"], row["uncertain_rate"]
        )
        if "chow_decided_accuracy" in row:
            row["gain_vs_chow"] = row["decided_accuracy"] - row["chow_decided_accuracy"]
        if "ub_ratio" in part.columns:
            row["ub_ratio"] = part["ub_ratio"].mean()
        if multi:
            diff = _round_diff(part["decided_accuracy"] - part["cart_accuracy"])
            diff = diff[~np.isnan(diff)]
            row["wins"] = int(np.sum(diff > threshold))
            row["losses"] = int(np.sum(diff < -threshold))
            row["ties"] = int(diff.size - row["wins"] - row["losses"])
            row["wilcoxon_p"] = _wilcoxon_greater(diff)
        rows.append(row)

    columns = [
        "combo",
        *params,
        "n_datasets",
        "decided_accuracy",
        "decided_accuracy_std",
        "uncertain_rate",
        "uncertain_pct",
        "accuracy",
        "decided_f1",
        "cart_accuracy",
        "efficiency",
        "chow_decided_accuracy",
        "gain_vs_chow",
        "chow_decided_accuracy_ties_mean",
        "ub_ratio",
        "fit_seconds",
        "n_leaves",
        "wins",
        "ties",
        "losses",
        "wilcoxon_p",
    ]
    table = pd.DataFrame(rows)
    table = table[[c for c in columns if c in table.columns]]
    table = table.sort_values(
        "decided_accuracy", ascending=False, kind="stable", na_position="last"
    )
    return table.reset_index(drop=True)


# ---------------------------------------------------------------------------------- suite
class _ResultStore:
    """The suite's CSV file, rewritten atomically after every finished row.

    Every write builds the complete new file in a temporary file in the same
    directory, fsyncs it and moves it over the old one with ``os.replace``
    (atomic on POSIX and Windows), so a reader, a crash or Ctrl-C only ever sees
    the old file or the new one: never half a line. Rows read from an existing
    file keep their original text.
    """

    def __init__(self, path):
        self.path = Path(path)
        self.columns: list[str] = []
        self.lines: list[str] = []
        self.frame = pd.DataFrame()
        if self.path.exists() and self.path.stat().st_size > 0:
            try:
                self.frame = pd.read_csv(
                    self.path,
                    dtype={"dataset": str, "combo": str},
                    keep_default_na=False,
                    na_values=[""],
                )
            except (OSError, ValueError) as exc:
                raise ValueError(
                    f"Cannot read the existing results file {str(self.path)!r} "
                    f"({exc}); move it away or choose another output file."
                ) from exc
            required = {"dataset", "combo", "fold"}
            if not required <= set(self.frame.columns):
                raise ValueError(
                    f"{str(self.path)!r} exists but is not a results file of run_suite (no "
                    f"{', '.join(sorted(required - set(self.frame.columns)))} column); choose "
                    "another output file."
                )
            text = self.path.read_text(encoding="utf-8").splitlines(keepends=True)
            self.columns = list(self.frame.columns)
            self.lines = [line if line.endswith("\n") else line + "\n" for line in text[1:]]

    def done(self) -> set[tuple[str, str, int]]:
        if self.frame.empty:
            return set()
        return set(
            zip(
                self.frame["dataset"],
                self.frame["combo"],
                self.frame["fold"].astype(int),
                strict=True,
            )
        )

    def check_protocol(self, cv: int, seed) -> None:
        for name, value in (("cv", cv), ("seed", seed)):
            if name in self.frame.columns and len(self.frame):
                other = set(self.frame[name].dropna().unique())
                if other and other != {value}:
                    raise ValueError(
                        f"{str(self.path)!r} holds results with {name}={sorted(other)}, not "
                        f"{name}={value!r}; resuming would mix protocols. Choose another output "
                        "file (or delete this one)."
                    )

    def add(self, row: dict) -> None:
        new_cols = [c for c in row if c not in self.columns]
        if new_cols:
            # a new column changes the header: re-serialise the old rows with it
            self.columns = self.columns + new_cols
            self.lines = self._serialise(self.frame) if len(self.frame) else []
        self.lines.extend(self._serialise(pd.DataFrame([row])))
        self.frame = (
            pd.concat([self.frame, pd.DataFrame([row])], ignore_index=True)
            if len(self.frame)
            else pd.DataFrame([row])
        )
        self._write()

    def _serialise(self, frame: pd.DataFrame) -> list[str]:
        text = frame.reindex(columns=self.columns).to_csv(
            index=False, header=False, lineterminator="\n"
        )
        return text.splitlines(keepends=True)

    def _mode(self) -> int:
        try:
            return self.path.stat().st_mode & 0o777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            return 0o666 & ~umask

    def _write(self) -> None:
        header = pd.DataFrame(columns=self.columns).to_csv(index=False, lineterminator="\n")
        directory = self.path.parent if str(self.path.parent) else Path(".")
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=directory)
        try:
            # mkstemp makes the file private (0600); give it the mode a plain open() would
            os.chmod(tmp, self._mode())
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
                handle.write(header)
                handle.writelines(self.lines)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise


def _dataset_entries(datasets) -> list[tuple[str, Any]]:
    entries = []
    for item in datasets:
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
            name, source = item
        elif hasattr(item, "X") and hasattr(item, "y") and hasattr(item, "name"):
            name, source = str(item.name), item
        else:
            raise TypeError(
                "datasets must hold ternary.data.Dataset objects or "
                f"(name, loader) pairs; got {item!r}."
            )
        entries.append((name, source))
    names = [n for n, _ in entries]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(
            f"Duplicate dataset name(s) {', '.join(duplicates)}; each needs its own name."
        )
    return entries


def _load(source):
    dataset = source() if callable(source) and not hasattr(source, "X") else source
    if not (hasattr(dataset, "X") and hasattr(dataset, "y")):
        raise TypeError(f"A dataset loader must return a ternary.data.Dataset; got {dataset!r}.")
    return dataset


def run_suite(
    datasets,
    out_csv,
    combos=None,
    cv=5,
    n_jobs=1,
    progress=None,
    *,
    max_depth=4,
    seed=42,
    scale=True,
    errors="raise",
    **tree_params,
) -> pd.DataFrame:
    """Run `run_cv` over many datasets, saving every finished row; resumable.

    Each finished (dataset, combination, fold) row is added to ``out_csv`` at
    once. Rows already in the file (same dataset name, combination label and
    fold) are skipped, so rerunning the same call after a crash or Ctrl-C
    continues where it stopped and loses at most the folds that were in
    progress; a dataset whose rows are all present is not even loaded. The
    file is rewritten atomically for every row (complete new file in a
    temporary file in the same directory, fsync, ``os.replace``): it never
    holds a half-written line. Keep ``cv``, ``seed``, ``max_depth``, ``scale``
    and the tree parameters the same when resuming; ``cv`` and ``seed`` are
    stored in the file and checked.

    Parameters
    ----------
    datasets : iterable of ternary.data.Dataset or (name, loader) pairs
        A loader is called without arguments and returns a Dataset, so big or
        remote datasets are loaded only when their turn comes.
    out_csv : str or path-like
    combos, cv, max_depth, seed, scale, **tree_params : as in `run_cv`
    n_jobs : int, default=1
        joblib workers for the (combination, fold) fits of each dataset.
    progress : callable ``(done, total, message)``, optional
        Called after every finished row (and once at the start with the rows
        found in ``out_csv``); ``total`` counts all (dataset, combination, fold)
        rows of the suite.
    errors : {"raise", "skip"}, default="raise"
        With "skip" a dataset that cannot be loaded or cross-validated
        (``ValueError``, which includes ``ternary.data.DataError``, or
        ``OSError``) is skipped; its message is reported through ``progress``
        and kept in ``result.attrs["skipped"]`` (name → message).

    Returns
    -------
    pandas.DataFrame
        The rows of ``out_csv`` for the requested datasets and combinations
        (old and new), with ``dataset``, ``bayes_error``, ``cv`` and ``seed``
        columns in front of `run_cv`'s.

    Notes
    -----
    On a cluster the same call spreads through joblib's Dask backend (install
    ``dask[distributed]``; this package does not depend on it)::

        from dask.distributed import Client
        import joblib
        client = Client("scheduler-address:8786")
        with joblib.parallel_config(backend="dask"):
            run_suite(datasets, "results.csv", n_jobs=-1)

    Datasets are still taken one after another, and only this process writes
    ``out_csv``; the workers fit the (combination, fold) tasks.
    """
    if errors not in ("raise", "skip"):
        raise ValueError(f"errors must be 'raise' or 'skip'; got {errors!r}.")
    combos = _resolve_combos(combos)
    labels = [combo_label(c) for c in combos]
    entries = _dataset_entries(datasets)
    store = _ResultStore(out_csv)
    store.check_protocol(cv, seed)
    done_keys = store.done()
    total = len(entries) * len(combos) * cv
    done = sum(
        (name, lab, f) in done_keys for name, _ in entries for lab in labels for f in range(cv)
    )
    if progress is not None:
        progress(
            done, total, f"{done} of {total} rows already in {out_csv}" if done else "starting"
        )
    skipped: dict[str, str] = {}
    for name, source in entries:
        skip = {
            (i, f) for i, lab in enumerate(labels) for f in range(cv) if (name, lab, f) in done_keys
        }
        if len(skip) == len(labels) * cv:
            continue
        try:
            dataset = _load(source)
            bayes = getattr(dataset, "bayes_error", None)
            prefix = {
                "dataset": name,
                "bayes_error": np.nan if bayes is None else float(bayes),
                "cv": cv,
                "seed": seed,
            }
            for _, f, row in _iter_cv_rows(
                dataset.X,
                dataset.y,
                combos,
                cv=cv,
                max_depth=max_depth,
                seed=seed,
                scale=scale,
                n_jobs=n_jobs,
                tree_params=tree_params,
                skip=skip,
            ):
                store.add({**prefix, **row})
                done += 1
                if progress is not None:
                    progress(done, total, f"{name}: {row['combo']}, fold {f + 1}/{cv}")
        except (ValueError, OSError) as exc:
            if errors == "raise":
                raise
            skipped[name] = str(exc)
            if progress is not None:
                progress(done, total, f"skipped {name}: {exc}")
    result = store.frame
    if len(result):
        wanted = result["dataset"].isin([n for n, _ in entries]) & result["combo"].isin(labels)
        result = result[wanted].copy()
        rank_d = {n: k for k, (n, _) in enumerate(entries)}
        rank_c = {lab: k for k, lab in enumerate(labels)}
        result = result.assign(_d=result["dataset"].map(rank_d), _c=result["combo"].map(rank_c))
        result = result.sort_values(["_d", "_c", "fold"], kind="stable")
        result = result.drop(columns=["_d", "_c"]).reset_index(drop=True)
    result.attrs["skipped"] = skipped
    return result


# ---------------------------------------------------------------------------------- CLI
_BREIMAN_SIZES = {"waveform": 5000, "twonorm": 7400, "ringnorm": 7400}
_MEDICAL = {"diabetes": 37, "credit-g": 31, "heart-statlog": 53, "mammography": 310}
_CIFAR_10 = 40927  # the paper drops it: axis-aligned splits on raw pixels


def _breiman_entries(seed):
    from ternary import data

    makers = {
        "waveform": data.make_waveform,
        "twonorm": data.make_twonorm,
        "ringnorm": data.make_ringnorm,
    }
    return [
        (name, lambda m=makers[name], n=n: m(n_samples=n, random_state=seed))
        for name, n in _BREIMAN_SIZES.items()
    ]


def _builtin_entries():
    from ternary import data

    return [
        (name, lambda n=name: data.load_builtin(n))
        for name in data.BUILTIN_DATASETS
        if name not in _BREIMAN_SIZES
    ]


def _openml_entries(ids: dict[str, int], cache_dir):
    from ternary import data

    return [(name, lambda i=i: data.load_openml(i, cache_dir=cache_dir)) for name, i in ids.items()]


def _cc18_ids(cache_dir) -> dict[str, int]:
    from ternary import data

    table = data.openml_cc18_tasks(cache_dir=cache_dir)
    ids = {}
    for name, did in zip(table["name"], table["did"], strict=True):
        if int(did) != _CIFAR_10:
            ids[f"{name}" if name not in ids else f"{name} ({int(did)})"] = int(did)
    return ids


def _file_entries(paths, target):
    from ternary import data

    return [(Path(p).stem, lambda p=p: data.load_file(str(p), target=target)) for p in paths]


class _Bar:
    """tqdm on stderr driven by the progress callback."""

    def __init__(self, enabled: bool):
        self.bar = None
        self.enabled = enabled

    def __call__(self, done, total, message):
        if not self.enabled:
            return
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(
                total=total, initial=done, file=sys.stderr, unit="fit", dynamic_ncols=True
            )
        self.bar.total = total
        self.bar.n = done
        self.bar.set_postfix_str(message[:60], refresh=False)
        self.bar.refresh()

    def close(self):
        if self.bar is not None:
            self.bar.close()


def _positive_int(minimum):
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be ≥ {minimum}, got {value}")
        return value

    return parse


def _jobs(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value == 0:
        raise argparse.ArgumentTypeError(
            "must be a positive number of workers, or -1 for all cores"
        )
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m ternary.experiment",
        description="Cross-validate ternary trees in the protocol of Smits (2026): stratified "
        "k-fold CV, per-fold standardisation, depth-4 trees, against CART. Finished "
        "rows are saved in --out as they come; rerun the same command to resume.",
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--suite",
        choices=["breiman", "medical", "cc18", "builtin"],
        help="breiman: waveform/twonorm/ringnorm generated locally; medical: "
        "OpenML 37, 31, 53, 310; cc18: OpenML suite 99; builtin: the small "
        "built-in datasets",
    )
    source.add_argument("--data", metavar="FILE", help="one CSV or ARFF file")
    source.add_argument("--data-dir", metavar="DIR", help="every .csv and .arff file in DIR")
    parser.add_argument("--target", help="label column of --data/--data-dir files (default: last)")
    parser.add_argument("--out", default="results.csv", help="results CSV (default: %(default)s)")
    parser.add_argument("--jobs", type=_jobs, default=1, help="parallel fits (default: 1)")
    parser.add_argument("--cv", type=_positive_int(2), default=5, help="folds (default: 5)")
    parser.add_argument(
        "--seed", type=int, default=42, help="seed of folds and trees (default: 42)"
    )
    parser.add_argument(
        "--max-depth", type=_positive_int(1), default=4, help="tree depth (default: 4)"
    )
    parser.add_argument(
        "--combos",
        choices=sorted(COMBO_SETS),
        default="default",
        help="default: the paper's 11; probabilistic: 5 methods + CART; all: "
        "three routings + CART with grafting",
    )
    parser.add_argument("--cache-dir", help="OpenML cache folder (default: see ternary.data)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def _print_summary(results: pd.DataFrame, out) -> None:
    table = summarize(results)
    shown = [
        c
        for c in (
            "combo",
            "n_datasets",
            "decided_accuracy",
            "decided_accuracy_std",
            "uncertain_pct",
            "accuracy",
            "decided_f1",
            "efficiency",
            "chow_decided_accuracy",
            "gain_vs_chow",
            "ub_ratio",
            "wins",
            "ties",
            "losses",
            "wilcoxon_p",
        )
        if c in table.columns and not table[c].isna().all()
    ]
    with pd.option_context("display.width", 200, "display.max_columns", None):
        print(table[shown].to_string(index=False, float_format=lambda v: f"{v:.4f}"), file=out)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; returns the exit status (0 done, 2 data problem, 130 interrupted)."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.target is not None and args.suite is not None:
        parser.error("--target applies to --data and --data-dir only")
    from ternary.data import DataError

    try:
        if args.suite == "breiman":
            entries = _breiman_entries(args.seed)
        elif args.suite == "builtin":
            entries = _builtin_entries()
        elif args.suite == "medical":
            entries = _openml_entries(_MEDICAL, args.cache_dir)
        elif args.suite == "cc18":
            entries = _openml_entries(_cc18_ids(args.cache_dir), args.cache_dir)
        elif args.data is not None:
            if not Path(args.data).is_file():
                raise DataError(f"No such file: {args.data!r}.")
            entries = _file_entries([args.data], args.target)
        else:
            folder = Path(args.data_dir)
            if not folder.is_dir():
                raise DataError(f"No such folder: {args.data_dir!r}.")
            files = sorted(
                p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in (".csv", ".arff")
            )
            if not files:
                raise DataError(f"No .csv or .arff files in {args.data_dir!r}.")
            entries = _file_entries(files, args.target)
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    bar = _Bar(not args.no_progress)
    try:
        with warnings.catch_warnings():
            # the table at the end is the output; library warnings would shred the bar
            warnings.simplefilter("ignore")
            results = run_suite(
                entries,
                args.out,
                combos=COMBO_SETS[args.combos],
                cv=args.cv,
                n_jobs=args.jobs,
                progress=bar,
                max_depth=args.max_depth,
                seed=args.seed,
                errors="skip",
            )
    except KeyboardInterrupt:
        bar.close()
        print(
            f"\ninterrupted: finished rows are in {args.out}; rerun the same command to resume.",
            file=sys.stderr,
        )
        return 130
    except ValueError as exc:  # an unusable --out file
        bar.close()
        print(f"error: {exc}", file=sys.stderr)
        return 2
    bar.close()
    skipped = results.attrs.get("skipped", {})
    for name, message in skipped.items():
        print(f"skipped {name}: {message}", file=sys.stderr)
    if len(results) == 0:
        print("error: no dataset could be evaluated.", file=sys.stderr)
        return 2
    n_sets = results["dataset"].nunique()
    print(f"{len(results)} rows from {n_sets} dataset(s) in {args.out}", file=sys.stdout)
    _print_summary(results, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
