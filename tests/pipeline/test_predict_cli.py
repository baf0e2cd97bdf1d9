"""``python -m ternary predict MODEL DATA --out OUT`` writes the pipeline's own answers."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ternary import TernaryTreeClassifier, make_pipeline
from ternary.cli import main as ternary_main
from ternary.data import load_csv, read_rows

sio = pytest.importorskip("skops.io")
ROOT = Path(__file__).resolve().parents[2]


def main(argv: list[str]) -> int:
    """``ternary predict ARGV``, in this process."""
    return ternary_main(["predict", *argv])


def _csv(n: int, seed: int, label: bool) -> str:
    rng = np.random.default_rng(seed)
    head = "id,weight,colour,size" + (",kind" if label else "")
    lines = [head]
    for i in range(n):
        w = rng.normal(50, 10)
        colour = ["red", "green", "blue", "teal" if seed else "red"][i % 4]
        size = "" if i % 9 == 0 else f"{rng.uniform(0, 3):.3f}"
        row = f"R{seed}-{i},{w:.2f},{colour},{size}"
        if label:
            row += "," + ("big" if w + 5 * (colour == "red") > 52 else "small")
        lines.append(row)
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    folder = tmp_path_factory.mktemp("predict")
    ds = load_csv(_csv(400, 0, label=True).encode())
    tree = TernaryTreeClassifier(max_depth=3, random_state=0).fit(ds.X, ds.y)
    pipe = make_pipeline(ds.preprocessor, tree)
    model = folder / "model.skops"
    sio.dump(pipe, model)
    data = folder / "new.csv"
    data.write_text(_csv(150, 1, label=False))
    return pipe, model, data, folder


def test_output_is_input_columns_then_the_pipelines_predictions(saved, capsys):
    pipe, model, data, folder = saved
    out = folder / "scored.csv"
    assert main([str(model), str(data), "--out", str(out)]) == 0
    assert "Wrote 150 rows" in capsys.readouterr().err
    table = pd.read_csv(out, keep_default_na=False)
    rows = read_rows(data)
    names = list(pipe.classes_)
    assert list(table.columns) == [
        "id",
        "weight",
        "colour",
        "size",
        "prediction",
        "verdict",
        "confidence",
        *[f"P({c})" for c in names],
    ]
    assert table["id"].tolist() == rows["id"].tolist()
    assert table["prediction"].tolist() == list(pipe.predict(rows))
    assert table["verdict"].tolist() == pipe.predict_verdict(rows).tolist()
    assert set(table["verdict"]) <= {0, 1}
    np.testing.assert_allclose(table.iloc[:, -2:].to_numpy(), pipe.predict_proba(rows), rtol=1e-15)


def test_python_dash_m_from_another_folder(saved, tmp_path):
    pipe, model, data, _ = saved
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "ternary", "predict", str(model), str(data), "--out", "o.csv"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    table = pd.read_csv(tmp_path / "o.csv")
    assert table["verdict"].tolist() == pipe.predict_verdict(read_rows(data)).tolist()


def test_clear_errors_exit_2_without_traceback(saved, tmp_path, capsys):
    _, model, data, _ = saved
    lacking = tmp_path / "lacking.csv"
    pd.read_csv(data).drop(columns=["weight"]).to_csv(lacking, index=False)
    assert main([str(model), str(lacking), "--out", str(tmp_path / "x.csv")]) == 2
    err = capsys.readouterr().err
    assert "'weight'" in err and "Traceback" not in err
    assert main([str(tmp_path / "none.skops"), str(data), "--out", "x.csv"]) == 2
    assert "No model file" in capsys.readouterr().err
    junk = tmp_path / "junk.skops"
    junk.write_bytes(b"not a zip")
    assert main([str(junk), str(data), "--out", "x.csv"]) == 2
    assert "not a skops model file" in capsys.readouterr().err
    assert not (tmp_path / "x.csv").exists()


@pytest.mark.parametrize("have_tqdm", [True, False])
def test_progress_bar_on_big_files_and_none_without_tqdm(saved, tmp_path, monkeypatch, have_tqdm):
    pipe, model, data, _ = saved
    if not have_tqdm:
        monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm now fails
    else:
        pytest.importorskip("tqdm")
    out = tmp_path / "scored.csv"
    argv = [str(model), str(data), "--out", str(out), "--progress-rows", "10", "--chunk-rows", "40"]
    assert main(argv) == 0
    assert pd.read_csv(out)["verdict"].tolist() == pipe.predict_verdict(read_rows(data)).tolist()


def test_what_the_cleaning_met_is_said_on_stderr(saved, tmp_path, capsys):
    # the new file has a colour ("teal", every 4th row) and gaps in size the model never
    # saw; they are scored as gaps, which the user must be told, not left to find out
    pipe, model, data, _ = saved
    assert main([str(model), str(data), "--out", str(tmp_path / "s.csv")]) == 0
    err = capsys.readouterr().err
    _, report = pipe[0].transform_with_report(read_rows(data))
    assert report.unseen == {"colour": 37}  # rows 3, 7, …, 147 of 150
    assert report.lines() and all(line in err for line in report.lines())
    assert "37 value(s) never seen in training, in 'colour', were treated as gaps." in err


def test_a_file_the_model_knows_whole_gets_no_cleaning_notes(saved, tmp_path, capsys):
    pipe, model, _, folder = saved
    known = tmp_path / "known.csv"
    rows = read_rows(io.StringIO(_csv(400, 0, label=True)))
    rows.drop(columns=["kind"]).dropna().to_csv(known, index=False)
    assert main([str(model), str(known), "--out", str(tmp_path / "s.csv")]) == 0
    err = capsys.readouterr().err
    assert "never seen" not in err and "Filled" not in err and "Ignored" not in err


@pytest.mark.parametrize("rows", ["0", "-5", "ten", "1.5"])
def test_a_batch_size_that_is_no_number_of_rows_is_refused(saved, tmp_path, capsys, rows):
    # it was read as 1 row per batch (0, -5) without a word
    _, model, data, _ = saved
    with pytest.raises(SystemExit) as exit_:
        main([str(model), str(data), "--out", str(tmp_path / "s.csv"), "--chunk-rows", rows])
    assert exit_.value.code == 2
    assert "is not a number of rows" in capsys.readouterr().err
    assert not (tmp_path / "s.csv").exists()
