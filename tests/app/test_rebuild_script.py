"""The rebuild script of an uploaded file takes the data path as an argument, from any folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from appkit import export
from appkit.model import FitSpec, fit, model_params, split_data
from appkit.state import DEFAULTS
from ternary.data import load_file
from tests.app.helpers import GOOD_CSV

ROOT = Path(__file__).resolve().parents[2]


def _run(script: Path, *args: str, cwd: Path, env=None):
    return subprocess.run(
        [sys.executable, str(script), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_script_runs_from_another_folder_on_the_path_given(tmp_path):
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / "people.csv").write_bytes(GOOD_CSV)
    ds = load_file(data_dir / "people.csv", target="label", missing="impute")
    spec = FitSpec(("k",), None, 0.3, 0, model_params(DEFAULTS))
    upload = {"file": "people.csv", "target": "label", "missing": "impute"}
    script = tmp_path / "scripts" / "rebuild.py"
    script.parent.mkdir()
    script.write_text(export.rebuild_script(ds, spec, upload=upload))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = _run(script, str(data_dir / "people.csv"), cwd=elsewhere, env=env)
    assert done.returncode == 0, done.stderr
    clf = fit(split_data(ds, spec), spec)
    share = np.mean(clf.predict_verdict(split_data(ds, spec).X_test) == 0)
    assert f"boundary-uncertain: {share:.1%} of the test rows" in done.stdout
    missing = _run(script, cwd=elsewhere, env=env)  # no argument, no people.csv here
    assert missing.returncode == 1
    assert "No data file people.csv: give the path of people.csv" in missing.stderr
    assert "Traceback" not in missing.stderr


def test_download_of_an_upload_is_the_pipeline_on_raw_rows(tmp_path):
    import skops.io as sio

    path = tmp_path / "people.csv"
    path.write_bytes(GOOD_CSV)
    ds = load_file(path)
    spec = FitSpec(("k",), None, 0.3, 0, model_params(DEFAULTS))
    clf = fit(split_data(ds, spec), spec)
    pipe = export.downloadable(ds, spec, clf)
    blob = export.model_bytes.__wrapped__(pipe, ("k",))
    loaded = sio.loads(blob, trusted=sio.get_untrusted_types(data=blob))
    raw = ds.raw.drop(columns=[ds.target])
    assert np.array_equal(loaded.predict_proba(raw), clf.predict_proba(ds.X))
    two = FitSpec(("k",), ("height", "weight"), 0.3, 0, model_params(DEFAULTS))
    assert export.downloadable(ds, two, clf) is clf  # a two-feature fit: the bare tree
