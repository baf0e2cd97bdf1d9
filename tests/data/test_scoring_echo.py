"""Issue 29: `ternary predict` repeats the input cells as written and knows a label column."""

from __future__ import annotations

import csv

import numpy as np
import pandas as pd
import pytest

from ternary import TernaryTreeClassifier, make_pipeline
from ternary.cli import main as cli_main
from ternary.data import load_csv, read_rows

TRAIN = pd.DataFrame(
    {
        "code": [f"{i:03d}" for i in range(60)],
        "age": np.arange(60) % 30 + 20.0,
        "plan": ["none", "gold", "basic"] * 20,
        "target": (np.arange(60) % 30 >= 15).astype(int),
    }
)


@pytest.fixture
def model(tmp_path):
    sio = pytest.importorskip("skops.io")
    path = tmp_path / "train.csv"
    TRAIN.to_csv(path, index=False)
    ds = load_csv(path)
    tree = TernaryTreeClassifier(random_state=0).fit(ds.X, ds.y)
    out = tmp_path / "model.skops"
    sio.dump(make_pipeline(ds.preprocessor, tree), out)
    return out


SCORE = "code,age,plan,target\n007,56,none,1\n008,NA,gold,0\n009, 21 ,NONE,0\n010,1e1,,1\n"


def main(argv):
    return cli_main(["predict", *argv])


def _cells(path):
    with open(path, newline="") as fh:
        return list(csv.reader(fh))


def test_scoring_repeats_every_input_cell_as_written(model, tmp_path, capsys):
    data = tmp_path / "score.csv"
    data.write_text(SCORE)
    out = tmp_path / "out.csv"
    assert main([str(model), str(data), "--out", str(out)]) == 0
    written = _cells(out)
    given = _cells(data)
    assert [row[:4] for row in written] == given  # 007, 56, NA, ' 21 ', 1e1, '' unchanged
    assert written[0][4:6] == ["prediction", "verdict"]


def test_a_label_column_is_recognised_scored_and_never_an_error(model, tmp_path, capsys):
    data = tmp_path / "score.csv"
    data.write_text(SCORE)
    out = tmp_path / "out.csv"
    assert main([str(model), str(data), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "Label column 'target' recognised and left out of the model's input" in err
    assert "decided accuracy" in err and "flagged boundary-uncertain" in err
    # Without the label the answers are the same.
    bare = tmp_path / "bare.csv"
    pd.read_csv(data, dtype=str, keep_default_na=False).drop(columns="target").to_csv(
        bare, index=False
    )
    out2 = tmp_path / "out2.csv"
    assert main([str(model), str(bare), "--out", str(out2)]) == 0
    assert "Label column" not in capsys.readouterr().err
    assert [r[-5:] for r in _cells(out)] == [r[-5:] for r in _cells(out2)]


def test_read_rows_as_text_keeps_the_rows_and_columns(tmp_path):
    data = tmp_path / "score.csv"
    data.write_text(SCORE)
    text, parsed = read_rows(data, as_text=True), read_rows(data)
    assert list(text.columns) == list(parsed.columns) and list(text.index) == [0, 1, 2, 3]
    assert text["age"].tolist() == ["56", "NA", " 21 ", "1e1"]
    assert text["code"].tolist() == ["007", "008", "009", "010"]
    assert parsed["age"].iloc[0] == 56.0 and np.isnan(parsed["age"].iloc[1])
