"""Stopping a run at random moments (SIGINT, SIGKILL), many times, loses and repeats nothing.

Each test kills real processes (subprocesses) at random moments and resumes them;
the database they leave must hold exactly a clean run's rows. Two runs sharing one
database must do the same. Bounded to about half a minute in all.
"""

from __future__ import annotations

import os
import pickle
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from ternary.data import make_moons_dataset, make_xor_dataset
from ternary.experiment import main, read_results, run_suite

REPO = Path(__file__).resolve().parents[2]
KEY = ["dataset", "combo", "fold"]
ENV = {**os.environ, "PYTHONPATH": str(REPO)}

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

# Writes pickled rows through the database, resuming: the store alone, without
# importing the whole library (the stub packages skip ternary/__init__, which loads
# scikit-learn), so a child starts in a fraction of a second and can be killed often.
STORE_CHILD = r"""
import pickle, sys, types
from pathlib import Path
root = Path(sys.argv[1])
for name in ("ternary", "ternary.experiment"):
    path = root.joinpath(*name.split("."))
    module = types.ModuleType(name)
    module.__path__ = [str(path)]
    sys.modules[name] = module
from ternary.experiment._store import ResultsDatabase
rows = pickle.loads(Path(sys.argv[2]).read_bytes())
with ResultsDatabase(sys.argv[3]) as db:
    db.check_protocol({"cv": 3, "seed": 42})
    done = db.done()
    print("ready", flush=True)
    for row in rows:
        if (row["dataset"], row["combo"], row["fold"]) not in done:
            db.add(row)
"""


def _count(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as conn:
            return conn.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    except sqlite3.OperationalError:  # no table yet
        return 0


def _ctrl_c_as_in_a_terminal() -> None:
    """Give the child the SIGINT disposition of a shell's foreground job (the default).

    A child inherits an ignored SIGINT, and Python then installs no KeyboardInterrupt
    handler: in CI's xdist worker something before this test left SIGINT ignored, so
    three children ran to the end through Ctrl-C (exit 0), which a user never sees.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _stop(child: subprocess.Popen, sig: int) -> int:
    child.send_signal(sig)
    return child.wait(timeout=60)


def test_store_killed_many_times_resumes_to_exactly_the_rows(tmp_path):
    small = run_suite(
        [("moons", lambda: make_moons_dataset(n_samples=60, random_state=0))],
        tmp_path / "ref.csv",
        combos=[{"delta_method": "margin"}, {"delta_method": "none"}],
        cv=3,
    )
    # 4,000 real rows under distinct keys: long enough to be stopped mid-write often
    records = small.to_dict("records")
    rows = [
        {**r, "dataset": f"moons #{k}"} for k in range(4000 // len(records) + 1) for r in records
    ][:4000]
    source, script, db = tmp_path / "rows.pkl", tmp_path / "child.py", tmp_path / "r.sqlite"
    source.write_bytes(pickle.dumps(rows))
    script.write_text(STORE_CHILD, encoding="utf-8")
    command = [sys.executable, str(script), str(REPO), str(source), str(db)]
    rng = random.Random(19)
    mid_write, started, kills = 0, time.monotonic(), 0
    # at least 8 stops however slow the machine; up to 25 while within 12 s
    while kills < 25 and (kills < 8 or time.monotonic() - started < 12):
        child = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            preexec_fn=_ctrl_c_as_in_a_terminal,
        )
        if kills % 4 == 3:  # now and then while it starts or opens the database
            time.sleep(rng.uniform(0.0, 0.5))
        else:
            assert child.stdout.readline().strip() == b"ready"
            time.sleep(rng.uniform(0.0, 0.04))
        before = _count(db)
        status = _stop(child, rng.choice([signal.SIGINT, signal.SIGKILL]))
        kills += 1
        after = _count(db)
        mid_write += 0 < after < len(rows) and status != 0
        if status == 0:
            break
        assert after >= before  # a stopped child never takes committed rows back
    print(f"{kills} stops, {mid_write} of them while rows were being written")
    assert mid_write >= min(8, kills) - 1, f"only {mid_write} of {kills} stops fell while writing"
    finish = subprocess.run(command, capture_output=True, timeout=120)
    assert finish.returncode == 0, finish.stderr.decode()
    got = read_results(db).sort_values(KEY, ignore_index=True)
    want = pd.DataFrame(rows).sort_values(KEY, ignore_index=True)
    assert _count(db) == len(rows)
    pd.testing.assert_frame_equal(got[list(want.columns)], want, check_dtype=False)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    from sklearn.datasets import load_iris

    folder = tmp_path_factory.mktemp("data")
    for name, maker in (("moons", make_moons_dataset), ("xor", make_xor_dataset)):
        ds = maker(n_samples=150, random_state=1)
        ds.X.assign(label=ds.y).to_csv(folder / f"{name}.csv", index=False)
    load_iris(as_frame=True).frame.to_csv(folder / "iris.csv", index=False)
    return folder


def _cli(data_dir, out):
    args = ["--data-dir", str(data_dir), "--cv", "3", "--combos", "probabilistic"]
    return [sys.executable, "-m", "ternary.experiment", *args, "--no-progress", "--out", str(out)]


@pytest.fixture(scope="module")
def clean(data_dir, tmp_path_factory):
    out = tmp_path_factory.mktemp("clean") / "clean.sqlite"
    assert main(_cli(data_dir, out)[3:]) == 0
    return read_results(out).sort_values(KEY, ignore_index=True)


def _numbers(frame):
    return frame.sort_values(KEY, ignore_index=True).drop(columns="fit_seconds")


def test_cli_interrupted_and_killed_at_random_resumes_to_a_clean_run(data_dir, clean, tmp_path):
    out = tmp_path / "killed.sqlite"
    rng = random.Random(7)
    # the first stop waits for a committed row, so Ctrl-C must end in the resumable exit
    child = subprocess.Popen(
        _cli(data_dir, out),
        env=ENV,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_ctrl_c_as_in_a_terminal,
    )
    deadline = time.monotonic() + 60
    while _count(out) == 0 and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 130 and "rerun the same command to resume" in err
    assert 0 < _count(out) < len(clean)
    for sig in (signal.SIGKILL, signal.SIGINT, signal.SIGKILL):
        child = subprocess.Popen(
            _cli(data_dir, out),
            env=ENV,
            stderr=subprocess.DEVNULL,
            preexec_fn=_ctrl_c_as_in_a_terminal,
        )
        time.sleep(rng.uniform(1.0, 3.0))
        _stop(child, sig)
    done = subprocess.run(_cli(data_dir, out), env=ENV, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    assert _count(out) == len(clean) == 3 * 6 * 3
    pd.testing.assert_frame_equal(_numbers(read_results(out)), _numbers(clean))


def test_two_runs_share_one_database_without_losing_or_doubling_rows(data_dir, clean, tmp_path):
    out = tmp_path / "shared.sqlite"
    runs = [
        subprocess.Popen(_cli(data_dir, out), env=ENV, stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outputs = [run.communicate(timeout=180)[0] for run in runs]
    assert [run.returncode for run in runs] == [0, 0]
    assert all("54 rows from 3 dataset(s)" in text for text in outputs)
    assert _count(out) == 54
    pd.testing.assert_frame_equal(_numbers(read_results(out)), _numbers(clean))
