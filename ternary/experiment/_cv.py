"""Stratified k-fold cross-validation of many combinations on one dataset."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.impute import SimpleImputer
from sklearn.model_selection import StratifiedKFold
from sklearn.preprocessing import StandardScaler

from ternary._classes import TernaryTreeClassifier, validate_tree_params
from ternary._confidence import smoothed_confidence
from ternary.experiment._chow import ChowReference, chow_curve
from ternary.experiment._combos import (
    _CART_SHAPE,
    _ESTIMATOR_DEFAULTS,
    _FIXED_PARAMS,
    _METRICS,
    ArrayLike,
    Combos,
    Progress,
    _cell,
    _resolve_combos,
    _swept_columns,
    combo_label,
)
from ternary.experiment._parallel import joblib_runner
from ternary.experiment._tasks import combo_task, fit_cart, shared_task, shares_cart
from ternary.stopping import Feed
from ternary.stopping import check as check_stop


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


def _raw_rows(X, y, preprocessor) -> tuple[pd.DataFrame, np.ndarray]:
    if not isinstance(X, pd.DataFrame):
        raise ValueError("With a preprocessor, X must be a DataFrame of raw rows (named columns).")
    if getattr(preprocessor, "missing", None) == "drop":
        raise ValueError(
            "A preprocessor with missing='drop' would drop rows inside the folds; use "
            "missing='impute' (learned per training fold) or 'keep'."
        )
    y_arr = np.asarray(y)
    if y_arr.ndim != 1 or len(y_arr) != len(X):
        raise ValueError(f"y must be 1-D with one label per row of X ({len(X)}).")
    if pd.isna(y_arr).any():
        raise ValueError("y contains missing labels; drop those rows first.")
    return X.reset_index(drop=True), y_arr


def _plain(value):
    return value.item() if isinstance(value, np.generic) else value


def classes_too_small(y: ArrayLike, cv: int) -> list[tuple[Any, int]]:
    """The ``(label, row count)`` of every class with fewer than ``cv`` rows.

    Stratified ``cv``-fold cross-validation needs each class in every fold, so it
    cannot run while this list is non-empty.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        The labels.
    cv : int
        The number of folds.

    Returns
    -------
    list of (label, int)
        The classes too small for ``cv`` folds, with their row counts.

    Examples
    --------
    >>> classes_too_small(["a", "a", "b"], cv=2)
    [('b', 1)]
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


def _fold_arrays(X, train: np.ndarray, test: np.ndarray, scale: bool, preprocessor=None):
    if preprocessor is not None:
        # raw rows: the cleaning (levels, imputation values, ...) is learned on the
        # training fold only, then repeated on its test rows
        pre = clone(preprocessor)
        # clone keeps a set_output(transform="pandas") of the given preprocessor (a
        # pipeline's, say); the folds take arrays whatever it hands back
        X_train = np.asarray(pre.fit_transform(X.iloc[train]), dtype=np.float64)
        X_test = np.asarray(pre.transform(X.iloc[test]), dtype=np.float64)
    else:
        X_train, X_test = X[train], X[test]
    if np.isnan(X_train).any() or np.isnan(X_test).any():
        # the trees take no NaN; impute from the training fold only, like the scaler
        imputer = SimpleImputer(strategy="median", keep_empty_features=True).fit(X_train)
        X_train, X_test = imputer.transform(X_train), imputer.transform(X_test)
    if scale:
        scaler = StandardScaler().fit(X_train)
        X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)
    # float32 once per fold, as every tree would convert them per fit: the same values,
    # and the fits and predictions of the fold's combinations copy nothing
    return _float32(X_train), _float32(X_test)


def _float32(X) -> np.ndarray:
    return np.ascontiguousarray(X, dtype=np.float32)


def _cart_key(params: dict[str, Any]) -> tuple:
    return tuple((k, repr(params[k])) for k in _CART_SHAPE)


def _combo_params(combos, max_depth, seed, tree_params) -> list[dict[str, Any]]:
    base = {
        **_ESTIMATOR_DEFAULTS,
        "max_depth": max_depth,
        "random_state": seed,
        "n_bootstraps": "auto",
    }
    base.update(tree_params)
    params = [{**base, **combo} for combo in combos]
    for p in params:  # fail on a bad parameter now rather than in a worker
        validate_tree_params(TernaryTreeClassifier(**p))
    return params


# the fold CART's columns every row of the fold repeats
_REFERENCE_COLUMNS = ("cart_accuracy", "cart_aurc", "cart_e_aurc", "laplace_aurc", "laplace_e_aurc")


def _cart_reference(params, X_train, y_train, X_test, y_test) -> dict[str, Any]:
    """The fold's CART: its two baselines, and the tree the binary combinations share.

    Chow's ranking is the largest class probability; the Laplace ranking is the one
    `laplace_cart_confidence` gives the same tree (leaves smoothed to ``(n_c+1)/(n+K)``,
    the smallest std-scaled gap breaking ties), the strongest zone-free ranking measured
    (issue 30). Each is sorted once for every combination of the fold.
    """
    cart, seconds = fit_cart(params, X_train, y_train)
    proba = cart.predict_proba(X_test)
    chow = ChowReference(y_test, proba, cart.classes_)
    # the tree has no zone, so its smoothed blend is the Laplace baseline bit for bit
    # (tests/estimator/test_confidence.py), whatever ``confidence`` the combination asks
    smoothed = smoothed_confidence(
        cart.tree_, X_test, cart.routing, np.argmax(proba, axis=1), cart._feature_scale
    )
    laplace = ChowReference(y_test, proba, cart.classes_, confidence=smoothed)
    return {
        "cart": cart,
        "seconds": seconds,
        "chow": chow,
        "laplace": laplace,
        "cart_accuracy": chow.accuracy,
        "cart_aurc": chow.aurc,
        "cart_e_aurc": chow.e_aurc,
        "laplace_aurc": laplace.aurc,
        "laplace_e_aurc": laplace.e_aurc,
    }


def _prepare_folds(X, y, folds, params, pending, scale, preprocessor=None):
    """Each needed fold's arrays and CART references, computed once in this process."""
    fold_data, refs = {}, {}
    for i, f in pending:
        check_stop()  # `ternary.stopping`: before each fold's CART references
        if f not in fold_data:
            train, test = folds[f]
            X_train, X_test = _fold_arrays(X, train, test, scale, preprocessor)
            fold_data[f] = (X_train, y[train], X_test, y[test])
        key = (f, _cart_key(params[i]))
        if key not in refs:
            refs[key] = _cart_reference(params[i], *fold_data[f])
    return fold_data, refs


def _task_calls(pending, params, fold_data, refs) -> list[tuple]:
    """One call per combination fitted afresh, one per fold and CART its combinations share."""
    calls: list[tuple] = []
    groups: dict[Any, list] = {}
    for i, f in pending:
        key = (f, _cart_key(params[i]))
        if shares_cart(params[i], refs[key]["cart"].get_params()):
            groups.setdefault(key, []).append(i)
        else:
            calls.append((combo_task, i, f, params[i], *fold_data[f]))
    for (f, key), indices in groups.items():
        ref = refs[(f, key)]
        shared = [params[i] for i in indices]
        calls.append((shared_task, indices, f, shared, ref["cart"], ref["seconds"], *fold_data[f]))
    return calls


def _call(func, *args):
    return func(*args)


def _iter_cv_rows(
    X,
    y,
    combos,
    *,
    cv,
    max_depth,
    seed,
    scale,
    n_jobs,
    tree_params,
    skip=frozenset(),
    runner=None,
    preprocessor=None,
):
    """Yield ``(combo index, fold, row)`` for every task not in ``skip``, as tasks finish.

    The folds, the scaling and the CART references are computed here, once per
    fold, and shared by all combinations of that fold; only the combination
    fits go to the runner. Nothing is computed for a fold whose tasks are all skipped.
    """
    X, y = _as_arrays(X, y) if preprocessor is None else _raw_rows(X, y, preprocessor)
    combos = _resolve_combos(combos)
    folds = _stratified_folds(y, cv, seed)
    params = _combo_params(combos, max_depth, seed, tree_params)
    swept = _swept_columns(combos)
    labels = [combo_label(c) for c in combos]
    pending = [(i, f) for f in range(cv) for i in range(len(combos)) if (i, f) not in skip]
    fold_data, refs = _prepare_folds(X, y, folds, params, pending, scale, preprocessor)
    run = runner if runner is not None else joblib_runner(n_jobs)
    # the tasks after a stop check each (`ternary.stopping`); a stop ends them here
    feed = Feed(_task_calls(pending, params, fold_data, refs))
    for batch in run(_call, feed):
        for i, f, scores in batch:
            ref = refs[(f, _cart_key(params[i]))]
            n_flagged = scores.pop("_n_flagged")
            row = {"combo": labels[i]}
            for name in _FIXED_PARAMS:
                row[name] = _cell(params[i][name])
            for name in swept:
                row[name] = _cell(combos[i].get(name, params[i][name]))
            row["fold"] = f
            row.update(scores)
            chow = ref["chow"]
            row["chow_decided_accuracy"] = chow.decided_accuracy(n_flagged)
            row["chow_decided_accuracy_ties_mean"] = chow.decided_accuracy(n_flagged, "mean")
            row["laplace_decided_accuracy"] = ref["laplace"].decided_accuracy(n_flagged)
            for name in _REFERENCE_COLUMNS:
                row[name] = ref[name]
            yield i, f, row
    feed.raise_if_stopped()


def run_cv(
    X: ArrayLike,
    y: ArrayLike,
    combos: Combos | None = None,
    cv: int = 5,
    max_depth: int | None = 4,
    seed: int | None = 42,
    scale: bool = True,
    n_jobs: int = 1,
    progress: Progress | None = None,
    preprocessor: Any = None,
    **tree_params: Any,
) -> pd.DataFrame:
    """Score every combination with stratified k-fold cross-validation (the paper's protocol).

    Folds come from ``StratifiedKFold(cv, shuffle=True, random_state=seed)``;
    on each fold a StandardScaler (and, only when X has missing values, a
    median imputer) is fitted on the training rows alone; every tree gets
    ``max_depth``, ``n_bootstraps="auto"`` and ``random_state=seed``. Per fold
    one CART (``delta_method="none"``, same depth) is fitted and shared by all
    combinations as their reference; the binary-routing combinations without
    grafting or pruning also share its tree, which only their zones set apart
    (see `ternary._classes.rezone`): the numbers are those of separate fits.

    Parameters
    ----------
    X : array-like or pandas.DataFrame of shape (n_samples, n_features)
        The features, numeric (NaN allowed: imputed per fold); raw rows with
        ``preprocessor``.
    y : array-like of shape (n_samples,)
        The labels, of any type; none missing.
    combos : list of dict, default `DEFAULT_COMBOS`
        Each dict holds `TernaryTreeClassifier` parameters, so any parameter can
        be swept, e.g. ``[{"delta_method": "quality_plateau", "epsilon": e} for e
        in (0.01, 0.05, 0.1)]``. Unset parameters take the values below, then
        the estimator's defaults (``graft="none"``).
    cv : int, default=5
        The number of stratified folds, at least 2.
    max_depth : int or None, default=4
        The depth of every tree (the paper's 4); None grows them fully.
    seed : int, default=42
        Seeds the folds and every tree.
    scale : bool, default=True
        Standardise the features within each fold.
    n_jobs : int, default=1
        Parallel (combination, fold) fits through joblib; any joblib backend
        works, see `run_suite` for a cluster.
    progress : callable ``(done, total, message)``, optional
        Called after each finished (combination, fold).
    preprocessor : ternary.data.Preprocessor, optional
        X is then raw rows, cleaned by a clone fitted per training fold (not on test rows).
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
        (CART on all rows), ``chow_decided_accuracy_ties_mean`` (Chow with
        the tied rows at the cut drawn at random, in expectation), ``aurc`` and
        ``e_aurc`` (the area under the risk–coverage curve of the combination's
        `predict_confidence` ranking, and its excess over the optimum; see
        `ternary.selective`), ``cart_aurc`` and ``cart_e_aurc`` (the same for
        CART ranking rows by its largest class probability: Chow's ranking), and
        ``laplace_decided_accuracy``, ``laplace_aurc`` and ``laplace_e_aurc`` (the
        same for CART ranked by `laplace_cart_confidence`, its decided accuracy
        when it flags as many rows as the combination).

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
    options = dict(cv=cv, max_depth=max_depth, seed=seed, scale=scale, n_jobs=n_jobs)
    for i, f, row in _iter_cv_rows(
        X, y, combos, **options, tree_params=tree_params, preprocessor=preprocessor
    ):
        rows[(i, f)] = row
        if progress is not None:
            progress(len(rows), total, f"{row['combo']}, fold {f + 1}/{cv}")
    return _frame([rows[key] for key in sorted(rows)], combos)


def _frame(rows: list[dict], combos) -> pd.DataFrame:
    columns = ["combo", *_FIXED_PARAMS, *_swept_columns(combos), "fold", *_METRICS]
    return pd.DataFrame(rows, columns=columns)


def chow_curve_cv(
    X: ArrayLike,
    y: ArrayLike,
    cv: int = 5,
    max_depth: int | None = 4,
    seed: int | None = 42,
    scale: bool = True,
    rates: ArrayLike | None = None,
    ties: str = "row_order",
    **tree_params: Any,
) -> pd.DataFrame:
    """Average CART's Chow curve over the folds `run_cv` uses.

    Each fold's CART (same folds, scaling, depth and seed as `run_cv`) gives a
    `chow_curve` at the same requested rates; the curves are averaged rate by
    rate, which is how `summarize` averages the combinations, so the combos'
    points and this curve are directly comparable.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The features, numeric (NaN allowed: imputed per fold).
    y : array-like of shape (n_samples,)
        The labels.
    cv : int, default=5
        The number of stratified folds, as for `run_cv`.
    max_depth : int or None, default=4
        CART's depth, as for `run_cv`.
    seed : int, default=42
        Seeds the folds and the trees, as for `run_cv`.
    scale : bool, default=True
        Standardise the features within each fold, as for `run_cv`.
    rates : array-like of float, optional
        Rates to flag, each in [0, 1]; default 0, 0.01, …, 0.90 (see `chow_curve`).
    ties : {"row_order", "mean"}, default="row_order"
        How rows of equal confidence at the cut are flagged (see
        `chow_decided_accuracy`).
    **tree_params
        Further `TernaryTreeClassifier` parameters of the CART (it stays a plain
        CART: no δ, grafting or pruning).

    Returns
    -------
    pandas.DataFrame
        One row per rate, with columns ``uncertain_rate`` (mean flagged fraction),
        ``decided_accuracy`` (mean over folds) and ``decided_accuracy_std`` (their
        sample standard deviation).

    Raises
    ------
    ValueError
        As for `run_cv`: a class with fewer than ``cv`` rows, X not numeric, a bad
        rate or parameter.
    """
    X, y = _as_arrays(X, y)
    folds = _stratified_folds(y, cv, seed)
    params = {**_ESTIMATOR_DEFAULTS, "max_depth": max_depth, "random_state": seed, **tree_params}
    curves = []
    for train, test in folds:
        X_train, X_test = _fold_arrays(X, train, test, scale)
        cart, _ = fit_cart(params, X_train, y[train])
        curve = chow_curve(
            y[test], cart.predict_proba(X_test), rates=rates, classes=cart.classes_, ties=ties
        )
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
