"""`ternary predict --out` naming a file it reads: refused, the file left as it was."""

from __future__ import annotations

import pytest

from ternary import TernaryTreeClassifier, make_pipeline
from ternary.cli import main
from ternary.data import load_csv

sio = pytest.importorskip("skops.io")


@pytest.fixture
def saved(tmp_path):
    rows = "x,colour,label\n" + "".join(
        f"{i % 9},{'rb'[i % 2]},{'ab'[i % 3 == 0]}\n" for i in range(40)
    )
    ds = load_csv(rows.encode())
    pipe = make_pipeline(ds.preprocessor, TernaryTreeClassifier(max_depth=2).fit(ds.X, ds.y))
    model = tmp_path / "m.skops"
    sio.dump(pipe, model)
    data = tmp_path / "new.csv"
    data.write_text("x,colour\n1,r\n5,b\n")
    return model, data


@pytest.mark.parametrize("which", ["data", "model", "data via another path"])
def test_out_naming_an_input_file_is_refused_and_the_file_kept(saved, capsys, which):
    model, data = saved
    out = {"data": data, "model": model, "data via another path": data.parent / "." / data.name}
    before = {p: p.read_bytes() for p in (model, data)}
    # was: "Wrote 2 rows to new.csv.", the rows to score replaced by the scores
    assert main(["predict", str(model), str(data), "--out", str(out[which])]) == 2
    assert "would replace it" in capsys.readouterr().err
    assert {p: p.read_bytes() for p in (model, data)} == before


def test_another_out_file_is_written(saved, tmp_path):
    model, data = saved
    assert main(["predict", str(model), str(data), "--out", str(tmp_path / "s.csv")]) == 0
    header = (tmp_path / "s.csv").read_text().splitlines()[0].split(",")
    assert header[:3] == ["x", "colour", "prediction"]
