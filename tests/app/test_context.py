"""appkit.context: tables rounded for people, the grid's format, and the notes the
accuracy–coverage page puts on degenerate combinations (issue 37)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from appkit import context


def _digits(value: float) -> int:
    mantissa = repr(float(value)).lower().split("e")[0].lstrip("-").replace(".", "")
    return len(mantissa.lstrip("0").rstrip("0"))


@given(
    st.lists(
        st.floats(min_value=-1e9, max_value=1e9, allow_nan=False, allow_infinity=False),
        min_size=1,
        max_size=20,
    )
)
def test_rounded_floats_have_4_significant_digits_and_stay_close(values):
    table = pd.DataFrame({"x": values, "n": range(len(values)), "name": ["a"] * len(values)})
    out = context.rounded(table)
    assert out["x"].dtype == np.float64 and out["n"].tolist() == list(range(len(values)))
    assert out["name"].tolist() == ["a"] * len(values)
    for before, after in zip(values, out["x"], strict=True):
        assert _digits(after) <= 4
        assert math.isclose(after, before, rel_tol=5e-4, abs_tol=1e-300)


def test_the_issue_numbers_and_object_columns():
    table = pd.DataFrame(
        {"pct": [8.178099999999999, 71.50970000000001, np.nan], "mixed": [0.123456, "x", None]},
    ).astype({"mixed": object})
    out = context.rounded(table)
    assert out["pct"].tolist()[:2] == [8.178, 71.51] and np.isnan(out["pct"][2])
    assert out["mixed"].tolist() == [0.1235, "x", None]
    assert table["pct"][0] == 8.178099999999999  # the caller's table is not changed
    assert context.grid_format(out["pct"]) == "%.4g"
    assert context.grid_format(pd.Series([1797, 5])) == "plain"


def test_combo_notes_name_degenerate_folds():
    rows = []
    for fold in range(5):
        rows += [
            ("CART", "none", 16, 0.0),
            ("margin / probabilistic", "margin", 16, 0.02),
            ("gain_ratio / hard_middle", "gain_ratio", 1, 0.0),
            ("quality_plateau / hard_middle", "quality_plateau", 9, 0.0 if fold == 2 else 0.1),
            ("class_overlap / probabilistic", "class_overlap", 16, 1.0),
        ]
    results = pd.DataFrame(rows, columns=["combo", "delta_method", "n_leaves", "uncertain_rate"])
    assert context.combo_notes(results) == {
        "gain_ratio / hard_middle": "one leaf",
        "quality_plateau / hard_middle": "flags none in 1 of 5 folds",
        "class_overlap / probabilistic": "flags every row",
    }


def test_a_models_diagnosis_is_worked_out_once(monkeypatch):
    from ternary import TernaryTreeClassifier

    calls = []
    real = context.diagnose_fit
    monkeypatch.setattr(context, "diagnose_fit", lambda *a: calls.append(1) or real(*a))
    rng = np.random.RandomState(0)
    X, y = rng.rand(80, 2), (rng.rand(80) > 0.5).astype(int)
    tree = TernaryTreeClassifier(max_depth=2).fit(X, y)
    first = context.fit_alert(tree, X, y)
    assert context.fit_alert(tree, X, y) is first and len(calls) == 1  # a rerun reads it
    context.fit_alert(tree, X, y, X[:40])  # other rows: worked out afresh
    context.fit_alert(TernaryTreeClassifier(max_depth=2).fit(X, y), X, y)  # another model
    assert len(calls) == 3
