"""Helpers of the grafting page: CART against CART + grafting, on the same rows."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from appkit.answers import regions_figure
from appkit.coverage import cv_results
from appkit.model import CVSpec, FitSpec, Split, fit, split_data
from appkit.tree import tree_dot
from ternary import TernaryTreeClassifier
from ternary.data import Dataset

__all__ = ["DRAW_ALL_BELOW", "GraftComparison", "graft_comparison", "graft_specs"]


@dataclass
class GraftComparison:
    """What the grafting page shows: CART and CART + grafting, side by side."""

    cart: TernaryTreeClassifier
    grafted: TernaryTreeClassifier
    table: pd.DataFrame
    report: pd.DataFrame | None
    figures: tuple | None
    dot: str
    n_test: int
    changed: pd.DataFrame


def graft_specs(
    data_key: tuple,
    features,
    *,
    mode: str,
    graft_alpha: float,
    ccp_alpha: float,
    max_depth: int,
    test_size: float,
    seed: int,
) -> tuple[FitSpec, FitSpec]:
    """The `FitSpec` of CART and of CART + grafting on the same rows."""
    base = {
        "delta_method": "none",
        "routing": "probabilistic",
        "max_depth": int(max_depth),
        "ccp_alpha": float(ccp_alpha),
        "random_state": int(seed),
    }
    cart = FitSpec(data_key, features, test_size, seed, base)
    grafted = cart.with_params({**base, "graft": mode, "graft_alpha": float(graft_alpha)})
    return cart, grafted


#: below this many held-out rows the region panels draw every row, training ones included:
#: a handful of points shows neither the data nor the regions (Webb's 30-row example)
DRAW_ALL_BELOW = 20


@st.cache_resource(show_spinner=False, max_entries=32)
def _regions_figure(_model, _sp: Split, key: tuple, title: str, _changed_from=None):
    """One region panel (no zones: both trees are binary) with ``title``.

    The title's accuracy is on the held-out rows; the points drawn are those rows,
    or every row when there are fewer than `DRAW_ALL_BELOW` of them. With
    ``_changed_from`` (CART), the cells whose label the grafts changed are outlined.
    """
    acc = float(np.mean(_model.predict(_sp.X_test) == np.asarray(_sp.y_test)))
    X, y = _sp.X_test, _sp.y_test
    if len(y) < DRAW_ALL_BELOW:
        X = pd.concat([_sp.X_train, _sp.X_test])
        y = np.concatenate([_sp.y_train, _sp.y_test])
    return regions_figure(
        _model,
        X,
        y,
        title=f"{title} — test accuracy {100 * acc:.1f}%",
        height=460,
        changed_from=_changed_from,
    )


def changed_rows(cart, grafted, sp) -> pd.DataFrame:
    """The held-out rows whose prediction the grafts changed: values, both predictions, truth."""
    before, after = cart.predict(sp.X_test), grafted.predict(sp.X_test)
    mask = before != after
    table = sp.X_test.loc[mask].copy()
    table.insert(0, "row", table.index)
    table["CART"] = before[mask]
    table["grafted"] = after[mask]
    table["true"] = sp.y_test[mask]
    table["grafting right?"] = table["grafted"] == table["true"]
    return table.reset_index(drop=True)


def _cv_accuracy(ds: Dataset, cart: FitSpec, grafted: FitSpec) -> list[float]:
    """Mean 5-fold accuracy of both trees, from one `run_cv` over the two combinations."""
    combos = []
    for spec in (cart, grafted):
        combo = {k: v for k, v in spec.params.items() if k not in ("max_depth", "random_state")}
        combos.append(combo)
    cv = CVSpec(cart.data_key, 5, cart.params["max_depth"], cart.seed, tuple(combos), cart.features)
    rows = cv_results(ds, cv)
    means = rows.groupby("combo", sort=False)["accuracy"].mean()
    return [float(v) for v in means]


def graft_comparison(ds: Dataset, cart_spec: FitSpec, graft_spec: FitSpec) -> GraftComparison:
    """Fit CART and CART + grafting on the training rows and compare them."""
    sp = split_data(ds, cart_spec)
    cart, grafted = fit(sp, cart_spec), fit(sp, graft_spec)
    mode = graft_spec.params["graft"]
    cv_acc = _cv_accuracy(ds, cart_spec, graft_spec)
    rows = []
    for label, model, acc in (
        ("CART", cart, cv_acc[0]),
        (f"CART + grafting ({mode})", grafted, cv_acc[1]),
    ):
        rows.append(
            {
                "model": label,
                "nodes": int(model.tree_.node_count),
                "leaves": int(model.tree_.n_leaves),
                "grafted nodes": int(model.tree_.grafted.sum()),
                "test accuracy": float(np.mean(model.predict(sp.X_test) == sp.y_test)),
                "CV accuracy": acc,
            }
        )
    figures = None
    if cart_spec.features is not None:
        figures = (
            _regions_figure(cart, sp, cart_spec.key, "CART"),
            _regions_figure(grafted, sp, graft_spec.key, f"CART + grafting ({mode})", cart),
        )
    report = grafted.graft_report_
    return GraftComparison(
        cart,
        grafted,
        pd.DataFrame(rows),
        None if report is None else report.copy(),
        figures,
        tree_dot(grafted, graft_spec.key, None),
        int(len(sp.y_test)),
        changed_rows(cart, grafted, sp),
    )
