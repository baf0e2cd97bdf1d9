"""``ternary predict --out`` escapes cells and headers a spreadsheet would run (issue 27)."""

from __future__ import annotations

import csv

import numpy as np
import pandas as pd
import pytest

from ternary import TernaryTreeClassifier, make_pipeline
from ternary.cli import main
from ternary.data import load_csv

sio = pytest.importorskip("skops.io")
HOSTILE = ["=1+1", "+cmd", "-2+3", "@SUM(A1)", "\tx", "\rx"]


def _training_csv() -> str:
    rng = np.random.default_rng(0)
    lines = ["weight,kind"]
    for _ in range(120):
        w = rng.normal(50, 10)
        # the classes themselves are formula-like: the prediction column must be escaped
        lines.append(f"{w:.2f},{'=1+1' if w > 50 else '-2+3'}")
    return "\n".join(lines) + "\n"


def test_hostile_cells_headers_and_labels_are_escaped_numbers_stay(tmp_path, capsys):
    ds = load_csv(_training_csv().encode())
    pipe = make_pipeline(ds.preprocessor, TernaryTreeClassifier(max_depth=2, random_state=0))
    pipe.fit(ds.X, ds.y)
    model = tmp_path / "model.skops"
    sio.dump(pipe, model)
    rows = pd.DataFrame(
        {"=cmd": HOSTILE, "weight": [-1.5, 60.0, 40.0, 55.5, 45.0, 70.0], "note": ["-1"] * 6}
    )
    data = tmp_path / "new.csv"
    rows.to_csv(data, index=False, quoting=csv.QUOTE_ALL)  # the hostile input as it is
    out = tmp_path / "scored.csv"
    assert main(["predict", str(model), str(data), "--out", str(out)]) == 0, capsys.readouterr().err
    with open(out, newline="", encoding="utf-8") as handle:
        written = list(csv.reader(handle))
    header = written[0]
    assert header[:3] == ["'=cmd", "weight", "note"]
    assert "P(=1+1)" in header and "P(-2+3)" in header  # start with P: safe
    body = written[1:]
    assert [r[0] for r in body] == ["'" + h for h in HOSTILE]
    assert [r[1] for r in body] == ["-1.5", "60.0", "40.0", "55.5", "45.0", "70.0"]
    assert {r[2] for r in body} == {"-1"}  # a plain number in a text column stays
    prediction = header.index("prediction")
    assert {r[prediction] for r in body} <= {"'=1+1", "'-2+3"}
    back = pd.read_csv(out)
    assert back["weight"].dtype == np.float64 and back["verdict"].dtype == np.int64
