"""The accuracy-coverage page's W/T/L table: per combination, over the folds, against CART
on all rows and against Chow's rule and Laplace CART at the same flag rate, with the
weak-test note."""

from __future__ import annotations

import numpy as np
import pandas as pd

from appkit import coverage
from ternary.experiment import DEFAULT_COMBOS, combo_label
from tests.app.helpers import assert_clean, open_app


def test_the_page_shows_win_tie_loss_over_folds_and_says_the_test_is_weak():
    at = open_app("coverage")
    at.slider(key="cv_folds").set_value(4).run()
    assert_clean(at)
    summary, wtl = at.dataframe[0].value, at.dataframe[1].value
    combos = {combo_label(c) for c in DEFAULT_COMBOS} - {"CART"}
    assert set(wtl["combination"]) == combos and (wtl["folds"] == 4).all()
    for column in (
        "W/T/L vs CART",
        "W/T/L vs Chow",
        "W/T/L vs Laplace",
    ):
        counts = wtl[column].str.split("/", expand=True).astype(int)
        assert (counts.sum(axis=1) == 4).all()  # every fold is a win, a tie or a loss
    # a combination that flags nothing ties CART and Chow on every fold
    quiet = summary.loc[summary["uncertain share"] == 0, "combination"]
    for combo in set(quiet) & combos:
        row = wtl.set_index("combination").loc[combo]
        assert row["W/T/L vs CART"] == row["W/T/L vs Chow"] == "0/4/0"
        assert row["W/T/L vs Laplace"] == "0/4/0"
    notes = [c.value for c in at.caption]
    assert any("4 folds give a weak test" in n and "1/2^4 = 0.062" in n for n in notes)


def test_win_tie_loss_counts_folds_by_the_half_point_margin():
    rows = []
    # decided accuracy − CART per fold: +0.02 (win), +0.003 (tie), −0.01 (loss), +0.03 (win)
    for fold, gain in enumerate((0.02, 0.003, -0.01, 0.03)):
        for combo, decided, chow in (("m / p", 0.8 + gain, 0.9), ("CART", 0.8, 0.8)):
            rows.append(
                {
                    "combo": combo,
                    "delta_method": "none" if combo == "CART" else "margin",
                    "routing": "probabilistic",
                    "fold": fold,
                    "decided_accuracy": decided,
                    "uncertain_rate": 0.0 if combo == "CART" else 0.1,
                    "accuracy": 0.8,
                    "cart_accuracy": 0.8,
                    "chow_decided_accuracy": chow,
                }
            )
    table = coverage.win_tie_loss(pd.DataFrame(rows))
    row = table.set_index("combination").loc["m / p"]
    assert row["W/T/L vs CART"] == "2/1/1"
    assert row["W/T/L vs Chow"] == "0/0/4"
    assert row["folds"] == 4 and row["p vs Chow"] > 0.9
    # results without the Laplace baseline's columns say so, never "0/0/0"
    assert row["W/T/L vs Laplace"] == "no data"
    # three positive differences of four: the exact one-sided p is 3/16
    np.testing.assert_allclose(row["p vs CART"], 3 / 16)
