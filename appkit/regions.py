"""Helpers of the decision-regions page: fit, score the held-out rows once, draw."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
import streamlit as st

from appkit.answers import regions_figure
from appkit.guard import clicked_customdata
from appkit.model import FitSpec, Split, fit, is_forest, proba_verdict, split_data
from ternary import TernaryTreeClassifier, metrics
from ternary.data import Dataset

__all__ = [
    "PANEL_NAMES",
    "RegionsResult",
    "TestScores",
    "regions_result",
    "score_test_rows",
    "selected_row",
]


@dataclass(frozen=True)
class TestScores:
    """The held-out rows scored once by the ternary tree and by CART.

    Everything the page shows about the test rows (metric cards, flagged
    table, panel titles) is derived from these arrays.
    """

    __test__ = False  # not a pytest test class, despite the name

    proba: np.ndarray
    pred: np.ndarray
    verdict: np.ndarray
    cart_pred: np.ndarray
    y: np.ndarray

    @property
    def decided_accuracy(self) -> float:
        return metrics.decided_accuracy(self.y, self.pred, self.verdict)

    @property
    def uncertain_rate(self) -> float:
        return metrics.uncertain_rate(self.verdict)

    @property
    def cart_accuracy(self) -> float:
        return float(np.mean(self.cart_pred == self.y))

    def summary(self) -> dict:
        """The page's metric cards."""
        dec, unc, cart_acc = self.decided_accuracy, self.uncertain_rate, self.cart_accuracy
        return {
            "decided_accuracy": dec,
            "uncertain_rate": unc,
            "accuracy": float(np.mean(self.pred == self.y)),
            "cart_accuracy": cart_acc,
            "efficiency": metrics.efficiency(dec, cart_acc, unc),
            "n_test": int(len(self.y)),
            "n_flagged": int(np.sum(self.verdict == 0)),
        }


def score_test_rows(model, cart, sp: Split) -> TestScores:
    """One walk of each tree (or forest) over the held-out rows."""
    proba, verdict = proba_verdict(model, sp.X_test)
    pred = model.classes_[np.argmax(proba, axis=1)]
    return TestScores(proba, pred, verdict, cart.predict(sp.X_test), sp.y_test)


def flagged_table(model, sp: Split, scores: TestScores) -> pd.DataFrame:
    """Held-out rows flagged boundary-uncertain: features, prediction, probabilities, truth."""
    mask = scores.verdict == 0
    table = sp.X_test.loc[mask].copy()
    table.insert(0, "row", table.index)
    table["predicted"] = scores.pred[mask]
    for k, cls in enumerate(model.classes_):
        table[f"P({cls})"] = np.round(scores.proba[mask, k], 4)
    table["true"] = sp.y_test[mask]
    table["correct"] = table["predicted"] == table["true"]
    return table.reset_index(drop=True)


@dataclass
class RegionsResult:
    """Everything the decision-regions page shows for one setting."""

    model: TernaryTreeClassifier  # or a TernaryForestClassifier
    cart: TernaryTreeClassifier  # the same model without zones
    split: Split
    scores: TestScores
    figure: object
    metrics: dict
    flagged: pd.DataFrame
    note: str | None = None  # with more than two features: what the picture's tree uses


#: the two panels' names: (baseline without zones, the model), for a tree and a forest
PANEL_NAMES = {False: ("CART", "Ternary tree"), True: ("Forest without zones", "Ternary forest")}


@st.cache_resource(show_spinner=False, max_entries=64)
def _figure(_model, _cart, _sp: Split, _scores: TestScores, key: tuple):
    # the points drawn are the held-out rows, so the panel titles and the
    # metric cards measure the same rows, scored once
    return regions_figure(
        _model,
        _sp.X_test,
        _sp.y_test,
        cart_model=_cart,
        scores=(_scores.decided_accuracy, _scores.uncertain_rate),
        cart_scores=(_scores.cart_accuracy, 0.0),
        panel_names=PANEL_NAMES[is_forest(_model)],
    )


def full_feature_verdicts(ds: Dataset, spec: FitSpec) -> np.ndarray:
    """Verdicts on the page's test rows of the same model fitted on every feature.

    The split repeats the page's (same rows, seed and stratification), so the rows
    line up with ``split_data(ds, spec).X_test``.
    """
    full = replace(spec, features=None)
    sp = split_data(ds, full)
    return np.asarray(fit(sp, full).predict_verdict(sp.X_test))


@st.cache_resource(show_spinner=False, max_entries=64)
def _ringed(_fig, _X2: pd.DataFrame, _flags: np.ndarray, n_features: int, key: tuple):
    """``_fig`` with the test points the all-feature model flags ringed, on the model's panel."""
    import plotly.graph_objects as go

    fig = go.Figure(_fig)
    rows = np.flatnonzero(_flags == 0)
    fig.add_trace(
        go.Scatter(
            x=_X2.iloc[rows, 0],
            y=_X2.iloc[rows, 1],
            mode="markers",
            name=f"flagged on all {n_features} features",
            marker=dict(symbol="circle-open", size=13, color="#111111", line=dict(width=1.6)),
            customdata=rows,  # a click on a ring names its row, like the point under it
            hovertemplate="flagged by the model on every feature<extra></extra>",
        ),
        row=1,
        col=2,
    )
    return fig


def regions_result(ds: Dataset, spec: FitSpec) -> RegionsResult:
    """Fit (cached), score the held-out rows once, and draw one decision-regions setting.

    With more than two features the picture's model uses the two plotted ones; the
    test points the same model fitted on every feature flags are ringed, and
    ``note`` says so.
    """
    sp = split_data(ds, spec)
    model, cart = fit(sp, spec), fit(sp, spec.cart())
    scores = score_test_rows(model, cart, sp)
    fig = _figure(model, cart, sp, scores, spec.key)
    note = None
    if spec.features is not None and ds.n_features > len(spec.features):
        flags = full_feature_verdicts(ds, spec)
        fig = _ringed(fig, sp.X_test, flags, ds.n_features, spec.key)
        a, b = spec.features
        note = (
            f"This picture's {'forest' if is_forest(model) else 'tree'} is fitted on the two "
            f"plotted features only ({a}, {b}), so its regions, zones and cards describe that "
            f"two-feature model, not one on all {ds.n_features} features. Ringed points: the "
            f"{int(np.sum(flags == 0))} test rows the same model fitted on all "
            f"{ds.n_features} features flags boundary-uncertain."
        )
    return RegionsResult(
        model, cart, sp, scores, fig, scores.summary(), flagged_table(model, sp, scores), note
    )


def selected_row(event) -> int | None:
    """The test row (position in ``X_test``) of the last point clicked, or None.

    Each point of the figure carries its row position as ``customdata``.
    """
    for data in clicked_customdata(event):
        if isinstance(data, (list, tuple)):
            data = data[0] if data else None
        if data is not None:
            return int(data)
    return None


def member_index(forest) -> int:
    """The member tree the pages show (session ``member``), kept inside the forest."""
    n = len(forest.estimators_)
    member = int(st.session_state.get("member", 0))
    return min(max(member, 0), n - 1)


def member_for_story(forest, x: np.ndarray) -> tuple[TernaryTreeClassifier, str]:
    """The chosen member tree and a sentence on how the whole forest votes for row ``x``."""
    row = np.asarray(x, dtype=np.float64).reshape(1, -1)
    votes = int(forest.decided_count(row)[0])  # the forest's own vote rule
    n = len(forest.estimators_)
    needed = forest.min_decided_count
    k = member_index(forest)
    note = (
        f"{votes} of the forest's {n} trees decide this row; the forest decides a row when at "
        f"least {needed} do. Below, the path through member tree #{k} (pick another on the "
        "Tree diagram page)."
    )
    return forest.estimators_[k], note
