"""Numbers with their context on the pages (issue 37, items 5 and 6): a one-leaf fit
says so with its cause, the majority-class rate stands beside the accuracies and is
the real rate, η on few rows and the δ scale on a value step get their notes, and no
table shows more than 4 significant digits.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

from appkit import context, datasets, model
from appkit.model import FitSpec
from ternary.diagnose import majority_rate
from tests.app.helpers import PAGES, assert_clean, metrics, open_app, shown


def _significant(value) -> int:
    """How many significant digits ``value`` shows as the grid writes it (its shortest
    repr: the grid's ``%.4g`` and the default format print no more)."""
    if isinstance(value, (bool, np.bool_)) or pd.isna(value):
        return 0
    text = repr(float(value)) if isinstance(value, (float, np.floating)) else str(int(value))
    mantissa = text.lower().split("e")[0].lstrip("-").replace(".", "")
    return len(mantissa.lstrip("0").rstrip("0"))


def _numbers(frame: pd.DataFrame) -> list:
    return [
        v
        for c in frame.columns
        for v in frame[c]
        if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
    ]


def test_significant_digits_counter():
    assert [_significant(v) for v in (8.178, 71.51, 0.06123, 12350.0, 1797, 0.5)] == [
        4,
        4,
        4,
        4,
        4,
        1,
    ]
    assert _significant(8.178099999999999) == 16 and _significant(71.50970000000001) == 16


def _texts(elements) -> list[str]:
    return [shown(e) for e in elements]


def _digits(at, method: str, routing: str):
    at.selectbox(key="dataset").set_value("digits").run()
    at.selectbox(key="delta_method").set_value(method).run()
    at.selectbox(key="routing").set_value(routing).run()
    assert_clean(at)
    return at


def test_a_one_leaf_fit_shows_its_alert_with_the_cause_on_regions_and_tree():
    at = open_app("regions")
    assert not [t for t in _texts(at.info) if "One leaf" in t]  # two moons: a real tree
    _digits(at, "gain_ratio", "hard_middle")
    assert metrics(at)["Boundary-uncertain"] == "0.0%"  # the silent setting
    alerts = [t for t in _texts(at.info) if t.startswith("One leaf")]
    assert len(alerts) == 1
    # the cause: the root zone leaves one side empty, and hard-middle needs both
    assert "gain_ratio's root zone" in alerts[0] and "hard-middle" in alerts[0]
    assert "leaves no row below it" in alerts[0]
    assert len(alerts[0]) < 200  # one line above the figure
    at.switch_page(PAGES["tree"]).run()
    assert_clean(at)
    assert [t for t in _texts(at.info) if t.startswith("One leaf") and "gain_ratio" in t]
    # under probabilistic routing the same zone keeps the split: no alert
    at.switch_page(PAGES["regions"]).run()
    at.selectbox(key="routing").set_value("probabilistic").run()
    assert not [t for t in _texts(at.info) if "One leaf" in t]


def _majority_captions(at) -> list[str]:
    return [t for t in _texts(at.caption) if "Majority class" in t]


def _pct(rate: float) -> str:
    return f"{100 * rate:.1f}\u00a0%"


def test_the_majority_class_rate_stands_beside_the_accuracies_and_is_the_real_rate():
    at = open_app("regions")
    at.selectbox(key="dataset").set_value("breast cancer").run()
    assert_clean(at)
    ds, key = datasets.load_builtin("breast cancer")
    sp = model.split_data(ds, FitSpec(key, None, 0.3, 0, {}))  # the page's rows and seed
    label, rate = majority_rate(sp.y_train, sp.y_test)
    assert 0.6 < rate < 0.7  # unbalanced: 50 % would prove little
    (line,) = _majority_captions(at)
    assert f"Majority class ({label}): {_pct(rate)} of the {len(sp.y_test)} rows" in line
    # the tree page: its rows are the training rows
    at.switch_page(PAGES["tree"]).run()
    assert_clean(at)
    _, train_rate = majority_rate(sp.y_train)
    (line,) = _majority_captions(at)
    assert f"{_pct(train_rate)} of the {len(sp.y_train)} training rows" in line


def test_eta_on_few_flagged_rows_says_how_far_one_row_moves_it():
    at = open_app("regions")
    cards = metrics(at)
    n_test = 150  # two moons, 500 rows, 30 % held out
    k = round(float(cards["Boundary-uncertain"].rstrip("%")) / 100 * n_test)
    assert 0 < k < context.FEW_FLAGGED
    (line,) = [t for t in _texts(at.caption) if "η rests on" in t]
    assert f"η rests on {k} flagged rows of {n_test}" in line
    assert f"by {n_test / (k * (n_test - k)):.3f}," in line
    assert context.eta_note(1, 300).startswith("η rests on 1 flagged row of 300")
    assert "moves it by 1.003," in context.eta_note(1, 300)  # 300 / (1 · 299)
    assert context.eta_note(30, 300) is None and context.eta_note(0, 300) is None


def test_a_delta_scale_on_a_value_step_gets_its_note():
    at = _digits(open_app("regions"), "margin", "probabilistic")
    # at δ scale 1 margin's zones sit between whole numbers: nothing flagged, and said why
    (alert,) = [t for t in _texts(at.info) if t.startswith("Nothing flagged")]
    assert "whole-number" in alert and "just above δ scale 1 it flags" in alert
    flags_above = float(re.search(r"flags ([\d.]+) %", alert).group(1))
    at.slider(key="delta_scale").set_value(1.05).run()
    assert_clean(at)
    flagged = float(metrics(at)["Boundary-uncertain"].rstrip("%"))
    assert flagged >= flags_above > 10  # the step the alert announced, and more
    (note,) = [t for t in _texts(at.caption) if "moves in steps" in t]
    assert "Majority class" in note  # one caption line under the cards
    assert "whole-number values" in note and "up to δ scale 1.05" not in note
    assert "up to δ scale 1 the tree flags 0.0 %" in note


@pytest.fixture(scope="module")
def digits_coverage():
    at = open_app("coverage")
    at.selectbox(key="dataset").set_value("digits").run()
    if any(b.key == "run_cv" for b in at.button):
        at.button(key="run_cv").click().run()
    assert_clean(at)
    return at


def test_no_rendered_table_number_has_more_than_4_significant_digits(digits_coverage):
    at = digits_coverage
    frames = list(at.dataframe)
    assert len(frames) >= 3  # the summary, W/T/L and the AURC table
    for frame in frames:
        too_long = [v for v in _numbers(frame.value) if _significant(v) > 4]
        assert not too_long, too_long[:5]
    # the summary's uncertain % that printed 8.178099999999999 is drawn with %.4g
    summary = frames[0]
    formats = {
        c["label"]: c["type_config"]["format"]
        for c in json.loads(summary.proto.columns).values()
        if "type_config" in c
    }
    assert formats["uncertain %"] == "%.4g" and formats["decided accuracy"] == "%.4g"


def test_coverage_marks_one_leaf_combinations_and_shows_the_majority(digits_coverage):
    at = digits_coverage
    summary = at.dataframe[0].value
    notes = dict(zip(summary["combination"], summary["note"], strict=True))
    assert notes["gain_ratio / hard_middle"] == "one leaf"
    assert notes["class_overlap / hard_middle"] == "one leaf"
    assert notes["margin / probabilistic"] == ""
    ds, _ = datasets.load_builtin("digits")
    label, rate = majority_rate(ds.y)
    (line,) = _majority_captions(at)
    assert f"Majority class ({label}): {_pct(rate)} of the rows" in line
    (chart,) = [c for c in at.get("plotly_chart") if "coverage_chart" in c.proto.id]
    traces = json.loads(chart.proto.spec)["data"]
    ring = next(t for t in traces if str(t.get("name", "")).startswith("degenerate fit"))
    assert "gain_ratio (h.m.): one leaf" in ring["text"]
    floor = next(t for t in traces if str(t.get("name", "")).startswith("majority class"))
    assert floor["y"][0] == pytest.approx(rate)
    # the one-leaf points sit on the floor: decided accuracy = the majority class
    marked = summary[summary["note"] == "one leaf"]
    assert np.allclose(marked["decided accuracy"], rate, atol=0.002)


def test_the_sweep_marks_its_one_leaf_values(digits_coverage):
    at = digits_coverage
    at.selectbox(key="sweep_method").set_value("gain_ratio").run()
    at.selectbox(key="sweep_routing").set_value("hard_middle").run()
    at.selectbox(key="sweep_param").set_value("delta_scale").run()
    at.slider(key="sweep_range_delta_scale").set_value((0.05, 1.0)).run()
    at.number_input(key="sweep_steps").set_value(2).run()
    at.button(key="run_sweep").click().run()
    assert_clean(at)
    table = at.dataframe[-1].value
    notes = dict(zip(table["delta scale"], table["note"], strict=True))
    # gain ratio's full zone swallows one side in every fold; a narrow one keeps the split
    # (its zones then fall between the pixels' whole values in some folds: flags none)
    assert notes[1.0] == "one leaf" and "one leaf" not in notes[0.05]
    (chart,) = [c for c in at.get("plotly_chart") if "sweep_chart" in c.proto.id]
    traces = json.loads(chart.proto.spec)["data"]
    ring = next(t for t in traces if str(t.get("name", "")).startswith("degenerate fit"))
    assert "gain_ratio (h.m.), delta_scale=1: one leaf" in ring["text"]
