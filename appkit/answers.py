"""The model's answers a figure draws: the app asks the model here, `viz` draws the arrays.

`viz` holds pure figure builders that never call an estimator; this module is
the one place of the app that asks a fitted model what a figure shows: its
probabilities and verdicts on a `viz.RegionGrid`, its scores on the drawn
points, and the read-only `viz.ShadowTree` of a tree. It imports no Streamlit,
so scripts and tests use it as the pages do.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

import viz
from ternary import metrics
from viz.regions import RegionGrid

__all__ = ["grid_answers", "model_scores", "proba_verdict", "regions_figure", "shadow_tree"]


def _frame(model, X):
    """``X`` under the column names ``model`` was fitted with (none: as it is)."""
    names = getattr(model, "feature_names_in_", None)
    return X if names is None else pd.DataFrame(X, columns=list(names))


def proba_verdict(model, X) -> tuple[np.ndarray, np.ndarray]:
    """Blended probabilities and verdicts of a ternary tree or forest, from one walk."""
    return model.predict_proba_verdict(X)


def grid_answers(model, points) -> tuple[np.ndarray, np.ndarray | None]:
    """Probabilities and verdicts (None for a model without verdicts) at ``points``.

    A ternary tree or forest answers both from one walk (``predict_proba_verdict``);
    any other classifier gives probabilities only.
    """
    points = _frame(model, np.asarray(points, dtype=np.float64))
    if hasattr(model, "predict_proba_verdict"):
        proba, verdict = model.predict_proba_verdict(points)
        return np.asarray(proba), np.asarray(verdict)
    if hasattr(model, "predict_verdict"):
        return np.asarray(model.predict_proba(points)), np.asarray(model.predict_verdict(points))
    return np.asarray(model.predict_proba(points)), None


def model_scores(model, X2, y) -> tuple[float, float]:
    """``(decided accuracy, uncertain rate)`` of ``model`` on the rows ``X2``, ``y``.

    A classifier without verdicts decides every row: its decided accuracy is its
    accuracy and its uncertain rate 0.
    """
    data = _frame(model, np.asarray(X2, dtype=np.float64))
    if hasattr(model, "predict_with_verdict"):
        pred, verdict = model.predict_with_verdict(data)
    else:
        pred = model.predict(data)
        verdict = np.ones(len(pred), dtype=np.int8)
    return metrics.decided_accuracy(y, pred, verdict), metrics.uncertain_rate(verdict)


def regions_figure(
    model,
    X2,
    y,
    *,
    resolution=300,
    padding=0.05,
    cart_model=None,
    changed_from=None,
    scores=None,
    cart_scores=None,
    **drawing,
):
    """`viz.decision_regions_figure` of ``model``, asked here on its grid.

    Parameters
    ----------
    model : fitted classifier on exactly the two columns of ``X2``
        A ternary tree or forest (hatched where its verdict is 0) or any
        classifier with ``predict_proba`` (no hatching).
    X2, y : the points to draw and their labels
    resolution, padding : the grid (`viz.RegionGrid.around`)
    cart_model : fitted classifier, optional; adds the baseline's panel on the left
    changed_from : fitted classifier, optional; outlines the cells whose class it
        predicts otherwise (what grafting relabelled)
    scores, cart_scores : pair ``(decided_accuracy, uncertain_rate)``, optional
        When the caller has them already; asked here (on ``X2``, ``y``) otherwise
    **drawing : the rest of `viz.decision_regions_figure`'s keywords
        (``feature_names``, ``class_names``, ``title``, ``height``, ``panel_names``)

    Returns
    -------
    plotly.graph_objects.Figure
    """
    grid = RegionGrid.around(X2, resolution, padding)
    points = grid.points
    proba, verdict = grid_answers(model, points)
    two = cart_model is not None
    if scores is None and (two or drawing.get("title") is None):
        scores = model_scores(model, X2, y)
    cart_proba = None
    if two:
        cart_proba, _ = grid_answers(cart_model, points)
        if cart_scores is None:
            cart_scores = model_scores(cart_model, X2, y)
    reference = None if changed_from is None else grid_answers(changed_from, points)[0]
    return viz.decision_regions_figure(
        X2,
        y,
        grid,
        classes=model.classes_,
        proba=proba,
        verdict=verdict,
        cart_proba=cart_proba,
        scores=scores,
        cart_scores=cart_scores,
        reference_proba=reference,
        **drawing,
    )


def shadow_tree(model, feature_names=None, class_names=None) -> viz.ShadowTree:
    """The read-only view of a fitted tree the tree drawings take (`viz.ShadowTree`)."""
    return viz.ShadowTree.from_estimator(
        model, feature_names=feature_names, class_names=class_names
    )
