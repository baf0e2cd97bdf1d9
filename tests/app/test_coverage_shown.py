"""The accuracy–coverage page's per-run work done once per CV setting (issue 32): the
figures' dicts, the tables as the grid shows them and the downloads, all in the cached
view, equal to what the page used to derive on every run.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from appkit import coverage, datasets
from appkit.model import CVSpec
from ternary import data as tdata
from ternary.data import to_csv


def _view(tag: str):
    ds = tdata.load_builtin("iris")
    spec = CVSpec(datasets.dataset_key(ds) + (tag,), 3, 2, 0)
    results = coverage.cv_results(ds, spec)
    return ds, results, coverage.coverage_view(ds, spec, results, False, 1.0)


def test_a_shown_figure_serialises_once_and_equals_the_plain_figure():
    _, _, view = _view("test-shown-figure")
    fig = view.figure
    assert isinstance(fig, coverage.ShownFigure)
    plain = coverage.go.Figure(fig).to_dict()  # a plain copy serialises afresh
    first = fig.to_dict()
    assert fig.to_dict() is first  # the second student's run reuses it
    assert first == plain
    # what st.plotly_chart sends is the same JSON as the plain figure's
    import plotly.io

    assert plotly.io.to_json(fig, validate=False) == plotly.io.to_json(plain, validate=False)


def test_the_view_holds_the_downloads_and_the_summary_as_the_grid_shows_it():
    ds, results, view = _view("test-shown-tables")
    assert view.summary_csv == to_csv(view.summary).encode()
    assert view.results_csv == to_csv(results).encode()
    shown, columns = view.summary_shown, view.summary_columns
    assert not [c for c in shown.columns if "_" in c]  # readable headers
    assert "decided accuracy" in shown.columns and "η" in shown.columns
    # numbers stay numbers (they sort as numbers), rounded to 4 significant digits and
    # drawn with as many ("plain" printed 8.178 as 8.178099999999999, issue 37)
    assert shown["decided accuracy"].dtype == np.float64
    np.testing.assert_array_equal(
        shown["decided accuracy"], [float(f"{v:.4g}") for v in view.summary["decided_accuracy"]]
    )
    assert set(columns) == set(shown.select_dtypes("number").columns)
    floats = set(shown.select_dtypes("float").columns)
    assert floats and {c for c, v in columns.items() if v["type_config"]["format"] == "%.4g"} == (
        floats
    )
    assert all(columns[c]["type_config"]["format"] == "plain" for c in set(columns) - floats)


def test_shown_numbers_rounds_without_touching_text_or_missing_values():
    table = pd.DataFrame(
        {
            "combo": ["CART", "margin / probabilistic"],
            "decided_accuracy": [0.881234567, 0.90123],
            "efficiency": [np.nan, 0.0612345],
            "uncertain_pct": [0.0, 61.8],
        }
    )
    shown, columns = coverage.shown_numbers(table)
    # 4 significant digits, not 4 places: 0.0612345 keeps its 0.06123
    assert list(shown.columns) == ["combination", "decided accuracy", "η", "uncertain %"]
    assert shown["decided accuracy"].tolist() == [0.8812, 0.9012]
    assert np.isnan(shown["η"][0]) and shown["η"][1] == 0.06123
    assert shown["uncertain %"].tolist() == [0.0, 61.8]
    assert shown["combination"].tolist() == ["CART", "margin / probabilistic"]
    assert set(columns) == {"decided accuracy", "η", "uncertain %"}
    assert "decided_accuracy" in table.columns  # the caller's table is not changed
