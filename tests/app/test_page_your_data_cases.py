"""The Your data page's cases section: its cost estimate and the button above the budget.

The section asks `appkit.cost` like the other pages: `cases_seconds` for the estimate
(the sidebar's settings, forests and bootstraps included) and `bounded` for the button,
so a heavy upload waits for a click and its fits stop with the tab.
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from appkit import cost
from tests.app.helpers import GOOD_CSV, assert_clean, metrics, open_app

TREE = {"delta_method": "margin", "max_depth": 4}


def test_cases_estimate_counts_every_fold_the_full_fit_and_each_tree():
    one = cost.tree_fit_seconds(TREE, 8_000, 20)  # a fold's model: 4 of 5 folds' rows
    whole = cost.tree_fit_seconds(TREE, 10_000, 20)  # the model the page downloads
    tree = cost.cases_seconds(TREE, 10_000, 20, 5)
    assert tree > 5 * one + whole
    forest = cost.cases_seconds({**TREE, "n_estimators": 25}, 10_000, 20, 5)
    assert forest - tree == pytest.approx(24 * (5 * one + whole))
    few, many = ({**TREE, "delta_method": "node_bootstrap", "n_bootstraps": b} for b in (10, 50))
    assert tree < cost.cases_seconds(few, 10_000, 20, 5) < cost.cases_seconds(many, 10_000, 20, 5)


def test_default_settings_answer_a_10000_by_20_upload_on_arrival():
    assert cost.cases_seconds(TREE, 10_000, 20, 5) < cost.AUTO_RUN_SECONDS


def _uploaded(extra: bytes = b"") -> AppTest:
    at = open_app("data")
    at.file_uploader(key="upload").set_value(("people.csv", GOOD_CSV + extra, "text/csv")).run()
    return at


@pytest.mark.skipif(not hasattr(AppTest, "file_uploader"), reason="AppTest cannot upload files")
def test_a_cheap_upload_is_answered_on_arrival():
    at = _uploaded()
    assert_clean(at)
    assert metrics(at)["Rows"] == "80"
    assert "Cases" in [h.value for h in at.subheader]
    assert not [b for b in at.button if b.label.startswith("Answer every row")]


@pytest.mark.skipif(not hasattr(AppTest, "file_uploader"), reason="AppTest cannot upload files")
def test_above_the_budget_the_page_waits_for_the_button(monkeypatch):
    monkeypatch.setattr(cost, "AUTO_RUN_SECONDS", 0.0)
    # one more row: other work than the cheap test's, which this server has finished
    # (finished work is answered at once, without the button)
    at = _uploaded(b"160,60,red,tall\n")
    assert not at.exception
    buttons = [b for b in at.button if b.label.startswith("Answer every row (about ")]
    assert len(buttons) == 1
    assert "Rows" not in metrics(at)
    assert any("answer every row out of fold" in i.value for i in at.info)
    buttons[0].click().run()
    assert not at.exception
    assert metrics(at)["Rows"] == "81"
