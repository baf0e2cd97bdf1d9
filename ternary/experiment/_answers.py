"""Out-of-fold answers for every row of a table: `out_of_fold_answers`.

`run_cv` scores combinations fold by fold; this gives one model's answer for each
row instead, from the fold that held the row out, so a person can read which rows
the model cannot decide without any row being judged by a model that saw it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold

__all__ = ["out_of_fold_answers"]


def _fold_preprocessor(preprocessor):
    pre = clone(preprocessor)
    # every row must get an answer, so a fold cannot drop rows; a table loaded with
    # missing="drop" holds no gaps to drop anyway, and unseen gaps are imputed instead
    if getattr(pre, "missing", None) == "drop":
        pre.set_params(missing="impute")
    return pre


def _n_folds(y: np.ndarray, folds: int) -> int:
    if isinstance(folds, bool) or not isinstance(folds, (int, np.integer)) or folds < 2:
        raise ValueError(f"folds must be an integer ≥ 2; got {folds!r}.")
    if len(y) == 0:
        raise ValueError("X and y hold no rows; give at least two rows of each class.")
    missing = int(pd.isna(y).sum()) if y.dtype.kind in "fcOmM" else 0
    if missing:
        raise ValueError(
            f"y has {missing} missing label(s) (NaN or None); a row without a class cannot "
            "be trained on or judged: drop those rows or give them a class."
        )
    try:
        classes, counts = np.unique(y, return_counts=True)
    except TypeError as exc:  # e.g. numbers and texts mixed in one object array
        raise ValueError(
            f"The labels cannot be sorted ({exc}); give labels of one type, e.g. all text."
        ) from exc
    k = int(min(folds, counts.min()))
    if k < 2:
        small = classes[np.argmin(counts)]
        small = small.item() if isinstance(small, np.generic) else small
        raise ValueError(
            f"The class {small!r} has a single row, so no row of it can be judged by a model "
            "that did not see it. Add rows of that class, or remove it."
        )
    return k


def _answer_fold(model, X_test) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(proba, verdict, confidence, distance)`` of a fitted fold model on its test rows."""
    if hasattr(model, "predict_proba_verdict"):
        proba, verdict = model.predict_proba_verdict(X_test)
    else:  # any scikit-learn classifier: every row decided
        proba = model.predict_proba(X_test)
        verdict = np.ones(len(proba), dtype=np.int8)
    proba = np.asarray(proba, dtype=np.float64)
    if hasattr(model, "predict_confidence"):
        confidence = model.predict_confidence(X_test)
    else:
        confidence = proba.max(axis=1)
    distance = np.full(len(proba), np.nan)
    if hasattr(model, "boundary_distance"):
        try:
            distance = model.boundary_distance(X_test)
        except ValueError:  # hard_middle routing: its zones have no distance (NaN)
            pass
    return proba, verdict, confidence, distance


def out_of_fold_answers(
    X: Any,
    y: ArrayLike,
    estimator: Any,
    *,
    preprocessor: Any = None,
    folds: int = 5,
    seed: int | None = 0,
    return_models: bool = False,
) -> Any:
    """The answer for every row from a model fitted on the other folds.

    Rows are split by ``StratifiedKFold(k, shuffle=True, random_state=seed)``; each fold
    fits clones of ``preprocessor`` (so no imputation value or level comes from the rows it
    judges) and ``estimator`` on its training rows and answers the rows it held out.

    Parameters
    ----------
    X : pandas.DataFrame or array-like of shape (n_samples, n_features)
        Raw rows (a DataFrame, the columns ``preprocessor`` reads) with
        ``preprocessor``; else the numeric features.
    y : array-like of shape (n_samples,)
        The labels, of any type.
    estimator : classifier
        Not fitted; cloned per fold. A ternary tree or forest gives verdicts,
        confidences and boundary distances; any scikit-learn classifier with
        ``predict_proba`` gives verdict 1 for every row and its largest class
        probability as the confidence.
    preprocessor : ternary.data.Preprocessor, optional
        Cloned and refitted on each training fold (``Dataset.preprocessor`` turns a
        loaded file's ``raw`` rows into features this way). One with
        ``missing="drop"`` is refitted with ``missing="impute"``: a fold must answer
        every row it holds out.
    folds : int, default=5
        The number of folds, at least 2; lowered to the row count of the smallest
        class when that is smaller (stratified folds need a row of each class).
    seed : int or None, default=0
        Seeds the fold split (the estimator keeps its own ``random_state``).
    return_models : bool, default=False
        Also return the fold models (a row's answer is explained by its ``fold``'s).

    Returns
    -------
    answers : pandas.DataFrame
        One row per row of ``X``, in its order and with its index (a DataFrame's):
        ``fold`` (0-based, the fold that held the row out), ``prediction`` (the most
        probable class, the first on a tie), ``verdict`` (1 decided, 0
        boundary-uncertain), ``confidence`` (``predict_confidence``), ``boundary_distance``
        (``boundary_distance`` in units of δ; NaN where the model has none, as for
        ``routing="hard_middle"``), then one ``P(<class>)`` column per class of ``y``,
        sorted. ``attrs["folds"]`` holds the number of folds used.
    models : list
        With ``return_models`` only: each fold's model, in fold order; with a
        ``preprocessor`` a `ternary.pipeline.TernaryPipeline` taking raw rows.

    Raises
    ------
    ValueError
        When ``folds`` is not an integer ≥ 2, a class has a single row, ``X`` and ``y``
        differ in length or hold no rows, or a label is missing or labels mix types.

    See Also
    --------
    run_cv : Scores of many combinations per fold.

    Notes
    -----
    Columns a fitted ``preprocessor`` set aside as identifiers (``set_aside_``) are left
    out of every fold: a rule read on all rows (numbering them 1..n) fails on a part.

    Examples
    --------
    >>> from sklearn.datasets import make_moons
    >>> from ternary import TernaryTreeClassifier
    >>> X, y = make_moons(200, noise=0.3, random_state=0)
    >>> answers = out_of_fold_answers(X, y, TernaryTreeClassifier(max_depth=3), folds=4)
    >>> list(answers.columns[:5])
    ['fold', 'prediction', 'verdict', 'confidence', 'boundary_distance']
    >>> right = (answers["prediction"] == y).mean()
    >>> sorted(answers["fold"].value_counts().tolist()), bool(0.7 < right <= 1)
    ([50, 50, 50, 50], True)
    """
    y = np.asarray(y)
    if len(X) != len(y):
        raise ValueError(f"X has {len(X)} rows but y has {len(y)} labels; give one label per row.")
    k, classes, models = _n_folds(y, folds), np.unique(y), list[Any]()
    splits = StratifiedKFold(n_splits=k, shuffle=True, random_state=seed).split(X, y)
    X = _without_identifiers(X, preprocessor)
    fold, proba, verdict, confidence, distance = _answer_folds(
        X, y, classes, estimator, preprocessor, splits, models
    )
    answers = pd.DataFrame(
        {"fold": fold, "prediction": classes[np.argmax(proba, axis=1)], "verdict": verdict},
        index=X.index if isinstance(X, pd.DataFrame) else None,
    )
    answers["confidence"], answers["boundary_distance"] = confidence, distance
    answers[[f"P({c})" for c in classes]] = proba
    answers.attrs["folds"] = k
    return (answers, models) if return_models else answers


def _without_identifiers(X, preprocessor):
    """``X`` without the columns a fitted ``preprocessor`` set aside as identifiers."""
    aside = getattr(preprocessor, "set_aside_", None) or {}
    if not isinstance(X, pd.DataFrame):
        return X
    drop = [c for c, why in aside.items() if why == "identifier" and c in X.columns]
    return X.drop(columns=drop) if drop else X


def _answer_folds(
    X, y, classes, estimator, preprocessor, splits, models: list
) -> tuple[np.ndarray, ...]:
    """``(fold, proba, verdict, confidence, distance)`` of every row, fold by fold; each
    fold's model (a pipeline with its cleaning, when there is one) appended to ``models``."""
    from ternary.pipeline import make_pipeline

    n = len(y)
    frame = isinstance(X, pd.DataFrame)
    rows: Any = X if frame else np.asarray(X)
    proba = np.zeros((n, len(classes)))
    fold = np.zeros(n, dtype=np.int64)
    verdict = np.zeros(n, dtype=np.int8)
    confidence = np.zeros(n)
    distance = np.full(n, np.nan)
    for i, (train, test) in enumerate(splits):
        X_train = rows.iloc[train] if frame else rows[train]
        X_test = rows.iloc[test] if frame else rows[test]
        if preprocessor is not None:
            pre = _fold_preprocessor(preprocessor)
            X_train = pd.DataFrame(pre.fit_transform(X_train), columns=pre.feature_names_out_)
            X_test = pd.DataFrame(pre.transform(X_test), columns=pre.feature_names_out_)
        model = clone(estimator).fit(X_train, y[train])
        models.append(model if preprocessor is None else make_pipeline(pre, model))
        p, v, c, d = _answer_fold(model, X_test)
        proba[np.ix_(test, np.searchsorted(classes, model.classes_))] = p
        fold[test], verdict[test], confidence[test], distance[test] = i, v, c, d
    return fold, proba, verdict, confidence, distance
