"""A scikit-learn Pipeline that also answers the ternary questions: decided or flagged, and why.

`make_pipeline` chains a `ternary.data.Preprocessor` (or any transformers) and a
ternary model into a `TernaryPipeline`, which takes raw rows (a file's columns, text
and gaps included) everywhere: ``predict``, ``predict_proba`` and, beyond scikit-learn's
`~sklearn.pipeline.Pipeline`, ``predict_verdict``, ``predict_with_verdict``,
``predict_confidence``, ``boundary_distance`` and ``explain_row``. Each exists exactly
when the final step has it (scikit-learn's ``available_if``), so a
`~ternary.selective.RiskControlledClassifier` at the end offers verdicts but no
boundary distance, and only a single tree explains a row. `load_model` opens a saved
one (a skops file) trusting only the types in `MODEL_TYPES`.

>>> from ternary import TernaryTreeClassifier, make_pipeline
>>> from ternary.data import load_csv
>>> body = "".join(f"{20 + i % 40},{'FM'[i % 2]},{i % 3 > 0}\\n" for i in range(90))
>>> rows = "age,sex,y\\n" + body
>>> ds = load_csv(rows.encode())
>>> tree = TernaryTreeClassifier(max_depth=2, random_state=0).fit(ds.X, ds.y)
>>> pipe = make_pipeline(ds.preprocessor, tree)
>>> new = ds.raw.drop(columns=[ds.target]).head(3)
>>> bool((pipe.predict_proba(new) == tree.predict_proba(ds.X.head(3))).all())
True
>>> hasattr(pipe, "boundary_distance"), pipe.predict_verdict(new).dtype
(True, dtype('int8'))
"""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
from sklearn.pipeline import Pipeline
from sklearn.pipeline import make_pipeline as _sk_make_pipeline
from sklearn.utils.metaestimators import available_if

from ternary._base import labels_of
from ternary._modelfile import (
    MAX_MEMBERS,
    MAX_RATIO,
    MAX_SCHEMA_BYTES,
    MAX_UNPACKED_BYTES,
    MIN_UNPACKED_BYTES,
    MODEL_TYPES,
    ModelFileError,
    load_model,
)
from ternary.review import (
    flag_below_threshold,
    flag_least_confident,
    quota_rule,
    stored_review_rule,
    threshold_rule,
)

__all__ = [
    "MAX_MEMBERS",
    "MAX_RATIO",
    "MAX_SCHEMA_BYTES",
    "MAX_UNPACKED_BYTES",
    "MIN_UNPACKED_BYTES",
    "MODEL_TYPES",
    "ModelFileError",
    "TernaryPipeline",
    "load_model",
    "make_pipeline",
    "score",
]


def _final_has(name: str):
    """``available_if`` check: the final step has method ``name``."""

    def check(pipe) -> bool:
        return hasattr(pipe._final_estimator, name)

    return check


def _explains(pipe) -> bool:
    """A single ternary tree at the end (one tree is what a row explanation walks)."""
    final = pipe._final_estimator
    return hasattr(final, "routing") and not hasattr(final, "n_estimators")


def _final_step_method(name: str, summary: str, returns: str):
    """A `TernaryPipeline` method ``name``: the rows through every step but the last, then
    the final step's ``name`` on them; it exists exactly when the final step has it.

    ``summary`` and ``returns`` (the Returns section's entries, indented as in a method's
    docstring) complete its docstring.
    """

    def method(self, X):
        return getattr(self._final_estimator, name)(self._rows(X))

    method.__name__ = name
    method.__qualname__ = f"TernaryPipeline.{name}"
    method.__doc__ = f"""{summary}

        Parameters
        ----------
        X : pandas.DataFrame or array-like of shape (n_rows, n_columns)
            Raw rows, as the first step takes them.

        Returns
        -------
        {returns}
        """
    return available_if(_final_has(name))(method)


class TernaryPipeline(Pipeline):
    """`sklearn.pipeline.Pipeline` with the ternary methods of its final step.

    Parameters
    ----------
    steps : list of (str, estimator)
        The transformers, then the model, each with its name, as for
        `~sklearn.pipeline.Pipeline`.
    transform_input : list of str, optional
        Names of ``fit`` metadata (a validation set, say) that the steps transform
        before the step that consumes it, as for `~sklearn.pipeline.Pipeline`
        (needs metadata routing enabled).
    memory : str or object with the joblib.Memory interface, optional
        Where fitted transformers are cached, as for `~sklearn.pipeline.Pipeline`;
        default no caching.
    verbose : bool, default=False
        Print the time each step's fit takes.

    See Also
    --------
    make_pipeline : Build one from the steps, naming them.
    """

    def _rows(self, X):
        """``X`` passed through every step but the last."""
        Xt = X
        for _, _, transformer in self._iter(with_final=False):
            Xt = transformer.transform(Xt)
        return Xt

    predict_verdict = _final_step_method(
        "predict_verdict",
        "The final step's verdict per row: 1 decided, 0 boundary-uncertain (flagged).",
        """ndarray of int8, shape (n_rows,)
            1 for a decided row, 0 for a flagged one.""",
    )
    predict_with_verdict = _final_step_method(
        "predict_with_verdict",
        "Predict the classes and the verdicts in one pass of the rows.",
        """prediction : ndarray of shape (n_rows,)
            The predicted class per row, as ``predict`` gives it.
        verdict : ndarray of int8, shape (n_rows,)
            1 for a decided row, 0 for a flagged one.""",
    )
    predict_proba_verdict = _final_step_method(
        "predict_proba_verdict",
        "Class probabilities and verdicts from one pass of the rows.",
        """proba : ndarray of shape (n_rows, n_classes)
            The class probabilities, as ``predict_proba`` gives them.
        verdict : ndarray of int8, shape (n_rows,)
            1 for a decided row, 0 for a flagged one.""",
    )
    predict_confidence = _final_step_method(
        "predict_confidence",
        "The final step's confidence per row (higher: further from every boundary).",
        """ndarray of float, shape (n_rows,)
            What the final step's ``predict_confidence`` gives for the encoded rows.""",
    )
    boundary_distance = _final_step_method(
        "boundary_distance",
        "The final step's boundary distance per row, in units of the zone half-widths δ.",
        """ndarray of float, shape (n_rows,)
            What the final step's ``boundary_distance`` gives for the encoded rows.""",
    )

    @available_if(_explains)
    def explain_row(self, x):
        """Why the tree predicts what it does for one raw row, on the encoded features.

        Parameters
        ----------
        x : pandas.Series, dict, or one-row DataFrame
            One raw row (the first step's columns).

        Returns
        -------
        ternary.explain.RowExplanation
            As `ternary.explain.explain_row` gives for the encoded row, with the
            encoded features' names.
        """
        from ternary.explain import explain_row

        if isinstance(x, pd.Series):
            x = x.to_frame().T
        elif isinstance(x, dict):
            x = pd.DataFrame([x])
        Xt = self._rows(x)
        if len(Xt) != 1:
            raise ValueError(f"explain_row takes one row; got {len(Xt)}.")
        names = list(Xt.columns) if isinstance(Xt, pd.DataFrame) else None
        if names is None and len(self.steps) > 1:
            names = list(self[:-1].get_feature_names_out())
        return explain_row(self._final_estimator, np.asarray(Xt)[0], feature_names=names)


def make_pipeline(*steps, memory=None, verbose: bool = False) -> TernaryPipeline:
    """A `TernaryPipeline` of ``steps``, named after their classes (as scikit-learn's).

    The steps may be fitted already: ``make_pipeline(ds.preprocessor, tree)`` with a
    tree fitted on ``ds.X`` scores raw rows without refitting anything. The
    transformers hand on DataFrames with the encoded feature names (``set_output``),
    so a model fitted on the named ``ds.X`` sees the names it knows.

    Parameters
    ----------
    *steps : estimators
        Transformers, then the model.
    memory : str or object with the joblib.Memory interface, optional
        Where fitted transformers are cached, as for `sklearn.pipeline.make_pipeline`;
        default no caching.
    verbose : bool, default=False
        Print the time each step's fit takes.

    Returns
    -------
    TernaryPipeline
        Its steps named by their lower-cased class names (numbered where a class
        repeats); with transformers, set to hand on pandas DataFrames unless the
        final step was fitted on an array without feature names. The transformers
        are then copies (fitted ones stay fitted), so the steps given are left as
        they were; the final step is the one given.

    Raises
    ------
    ValueError
        When no step is given.

    Examples
    --------
    >>> from ternary import TernaryForestClassifier, make_pipeline
    >>> from ternary.data import Preprocessor
    >>> pipe = make_pipeline(Preprocessor(), TernaryForestClassifier(n_estimators=5))
    >>> [name for name, _ in pipe.steps]
    ['preprocessor', 'ternaryforestclassifier']
    """
    if not steps:
        raise ValueError("make_pipeline needs at least one step (the model).")
    final = steps[-1]
    fitted_without_names = hasattr(final, "n_features_in_") and not hasattr(
        final, "feature_names_in_"
    )
    pandas_output = len(steps) > 1 and not fitted_without_names
    if pandas_output:
        # set_output changes the transformer it is called on, and a step given here is
        # often shared (a dataset's preprocessor, which run_cv and the app's pages use
        # for arrays): the pipeline sets it on its own copies. A deep copy, not
        # sklearn's clone, since a fitted transformer must stay fitted.
        steps = (*(copy.deepcopy(step) for step in steps[:-1]), final)
    named = _sk_make_pipeline(*steps, memory=memory, verbose=verbose).steps
    pipe = TernaryPipeline(named, memory=memory, verbose=verbose)
    if pandas_output:
        pipe.set_output(transform="pandas")
    return pipe


def score(
    model, rows, *, chunk_size: int = 20_000, progress=None, review_share: float | None = None
) -> pd.DataFrame:
    """The model's answer for every row, as a table ready to write next to the rows.

    Parameters
    ----------
    model : TernaryPipeline or classifier
        A fitted pipeline, or any fitted classifier with ``classes_`` and
        ``predict_proba``; its verdicts and confidences are used where it has them.
    rows : pandas.DataFrame
        Raw rows, as the model's first step takes them.
    chunk_size : int, default=20000
        Rows scored at a time (bounds the memory of the encoded rows).
    progress : callable ``(n_done)``, optional
        Called after each chunk with the rows done so far.
    review_share : float in [0, 1], optional
        A per-file quota: the least confident rows of all ``rows`` that it allows get
        ``review`` 1 (`ternary.review.flag_least_confident`), the others 0, and the
        ``review_rule`` column names the rule (``'least confident 10 % of this file
        (quota)'``). Without it, a model that carries a review threshold
        (`ternary.review.with_review_rule`, as the app's download does) flags each row by
        its own confidence (below the threshold: ``review`` 1), so a row's flag does not
        depend on the other rows. The zone verdict stays its own column: at equal flag
        share the confidence ranking is the better list of rows to review.

    Returns
    -------
    pandas.DataFrame
        Indexed like ``rows``: ``prediction``, ``verdict`` (1 decided, 0
        boundary-uncertain; all 1 for a model without verdicts), ``confidence``
        (``predict_confidence``, else the largest class probability), with a
        ``review_share`` or a stored threshold the ``review`` and ``review_rule`` columns,
        then one ``P(<class>)`` column per class.
    """
    # a bad share fails before any row is scored
    stored = None if review_share is not None else stored_review_rule(model)
    if review_share is not None:
        rule = quota_rule(review_share)
    elif stored is not None:
        rule = threshold_rule(*stored)
    else:
        rule = ""
    classes = np.asarray(model.classes_)
    parts = []
    for start in range(0, len(rows), max(1, int(chunk_size))):
        chunk = rows.iloc[start : start + chunk_size]
        if hasattr(model, "predict_proba_verdict"):
            proba, verdict = model.predict_proba_verdict(chunk)
        else:
            proba = model.predict_proba(chunk)
            verdict = (
                model.predict_verdict(chunk)
                if hasattr(model, "predict_verdict")
                else np.ones(len(chunk), dtype=np.int8)
            )
        proba = np.asarray(proba, dtype=np.float64)
        if hasattr(model, "predict_confidence"):
            confidence = np.asarray(model.predict_confidence(chunk), dtype=np.float64)
        else:
            confidence = proba.max(axis=1)
        part = pd.DataFrame(
            {
                "prediction": labels_of(classes, proba),
                "verdict": np.asarray(verdict, dtype=np.int8),
                "confidence": confidence,
            },
            index=chunk.index,
        )
        for j, c in enumerate(classes):
            part[f"P({c})"] = proba[:, j]
        parts.append(part)
        if progress is not None:
            progress(start + len(chunk))
    if not parts:
        columns = ["prediction", "verdict", "confidence"] + [f"P({c})" for c in classes]
        if rule:
            columns[3:3] = ["review", "review_rule"]
        return pd.DataFrame(columns=columns, index=rows.index)
    table = pd.concat(parts)
    if rule:
        confidence = table["confidence"].to_numpy()
        if review_share is not None:
            flags = flag_least_confident(confidence, review_share)
        else:
            flags = flag_below_threshold(confidence, stored[0] if stored else np.inf)
        table.insert(3, "review", flags.astype(np.int8))
        table.insert(4, "review_rule", np.where(flags, rule, ""))
    return table
