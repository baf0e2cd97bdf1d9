"""The SQLite results database of `run_suite`: one committed row per fold, the protocol kept.

A run to a CSV file is the reference wherever the two formats must agree: the same
call to a database gives the same rows, cell for cell.
"""

from __future__ import annotations

import sqlite3

import numpy as np
import pandas as pd
import pytest

from ternary.data import make_moons_dataset, make_xor_dataset
from ternary.experiment import (
    ResultsFileError,
    main,
    read_results,
    report_main,
    run_suite,
    write_results,
)
from ternary.experiment._store import ResultsDatabase, read_protocol

COMBOS = [{"delta_method": "margin"}, {"delta_method": "quality_plateau"}, {"delta_method": "none"}]
KEY = ["dataset", "combo", "fold"]


def _datasets(calls=None):
    def loader(name, maker):
        def load():
            if calls is not None:
                calls.append(name)
            return maker(n_samples=80, random_state=3)

        return name, load

    return [loader("moons", make_moons_dataset), loader("xor", make_xor_dataset)]


def _numbers(frame):
    return frame.drop(columns=[c for c in ("fit_seconds", "crc") if c in frame])


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ref")
    return run_suite(_datasets(), folder / "r.csv", combos=COMBOS, cv=3), folder / "r.csv"


def test_a_database_run_gives_the_csv_runs_rows(reference, tmp_path):
    rows, _ = reference
    got = run_suite(_datasets(), tmp_path / "r.sqlite", combos=COMBOS, cv=3)
    pd.testing.assert_frame_equal(_numbers(got), _numbers(rows))
    # and what is on disk reads back to the same cells (NaN, ints and strings included)
    stored = read_results(tmp_path / "r.sqlite").sort_values(KEY, ignore_index=True)
    want = rows.sort_values(KEY, ignore_index=True)
    pd.testing.assert_frame_equal(_numbers(stored), _numbers(want)[list(_numbers(stored))])
    assert stored["bayes_error"].isna().all() and stored["fold"].dtype == np.int64


def test_the_protocol_is_stored_once_and_another_is_refused(tmp_path):
    out = tmp_path / "r.sqlite"
    run_suite(_datasets()[:1], out, combos=COMBOS[:1], cv=2, seed=7)
    protocol = read_protocol(out)
    assert protocol["cv"] == 2 and protocol["seed"] == 7 and protocol["max_depth"] == 4
    assert protocol["ternary_version"] and protocol["scale"] is True
    for change in ({"cv": 3}, {"seed": 8}, {"max_depth": 3}, {"min_samples_leaf": 5}):
        args = {"cv": 2, "seed": 7, **change}
        with pytest.raises(ResultsFileError, match="another protocol") as caught:
            run_suite(_datasets()[:1], out, combos=COMBOS[:1], **args)
        name = next(iter(change)) if "min_samples_leaf" not in change else "tree_params"
        assert name in str(caught.value)
    assert len(read_results(out)) == 2  # nothing was added by the refused runs


def test_a_resume_loads_nothing_done_and_adds_only_the_missing_rows(reference, tmp_path):
    rows, _ = reference
    out = tmp_path / "r.sqlite"
    run_suite(_datasets()[:1], out, combos=COMBOS, cv=3)
    calls = []
    got = run_suite(_datasets(calls), out, combos=COMBOS, cv=3)
    assert calls == ["xor"]  # moons was complete: not even loaded
    pd.testing.assert_frame_equal(_numbers(got), _numbers(rows))
    with sqlite3.connect(out) as conn:
        assert conn.execute("SELECT COUNT(*) FROM results").fetchone()[0] == len(rows)
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_each_row_is_its_own_commit_and_a_key_is_kept_once(tmp_path):
    path = tmp_path / "many.sqlite"
    base = {"dataset": "d", "combo": "c", "fold": 0, "accuracy": 0.5, "n_leaves": np.int64(3)}
    with ResultsDatabase(path) as db:
        db.check_protocol({"cv": 5})
        added = [db.add({**base, "dataset": f"d{k // 5}", "fold": k % 5}) for k in range(4000)]
        # another connection sees every row at once: each add was committed
        with sqlite3.connect(path) as other:
            assert other.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 4000
        again = db.add({**base, "dataset": "d0", "accuracy": 0.9})
    assert all(added) and again is False
    frame = read_results(path)
    assert len(frame) == 4000 and frame.loc[0, "accuracy"] == 0.5
    assert frame["n_leaves"].dtype.kind in "if" and int(frame["n_leaves"].iloc[-1]) == 3


def test_a_new_column_is_added_without_touching_old_rows(tmp_path):
    path = tmp_path / "cols.sqlite"
    with ResultsDatabase(path) as db:
        db.add({"dataset": "a", "combo": "c", "fold": 0, "accuracy": 0.5})
        db.add({"dataset": "a", "combo": "c", "fold": 1, "accuracy": 0.6, "aurc": 0.1})
    frame = read_results(path)
    assert list(frame.columns) == ["dataset", "combo", "fold", "accuracy", "aurc"]
    assert np.isnan(frame.loc[0, "aurc"]) and frame.loc[1, "aurc"] == 0.1


def test_a_file_that_is_not_a_database_is_refused_untouched(tmp_path, capsys):
    bad = tmp_path / "notes.sqlite"
    bad.write_text("dataset,combo\nmy notes\n", encoding="utf-8")
    with pytest.raises(ResultsFileError, match="not a SQLite database"):
        run_suite(_datasets()[:1], bad, combos=COMBOS[:1], cv=2)
    assert bad.read_text(encoding="utf-8") == "dataset,combo\nmy notes\n"
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    with pytest.raises(ResultsFileError, match="not a results database"):
        run_suite(_datasets()[:1], other, combos=COMBOS[:1], cv=2)
    assert report_main([str(bad)]) == 2
    assert "error:" in capsys.readouterr().err


def test_an_old_csv_file_is_imported_into_a_database_and_resumed(reference, tmp_path):
    rows, csv_path = reference
    partial = tmp_path / "old.csv"
    # an old CSV file holding the first dataset only
    pd.read_csv(csv_path)[lambda f: f["dataset"] == "moons"].to_csv(partial, index=False)
    db = tmp_path / "imported.sqlite"
    assert report_main([str(partial), "--export-rows", str(db)]) == 0
    assert read_protocol(db) == {"cv": 3, "seed": 42}
    got = run_suite(_datasets(), db, combos=COMBOS, cv=3)
    pd.testing.assert_frame_equal(_numbers(got), _numbers(rows))
    assert read_protocol(db)["max_depth"] == 4  # completed by the run
    # and back to CSV: the same rows
    back = tmp_path / "back.csv"
    assert write_results(read_results(db), back) == len(rows)
    pd.testing.assert_frame_equal(
        _numbers(read_results(back)), _numbers(read_results(db)), check_dtype=False
    )
    with pytest.raises(ResultsFileError, match="exists"):
        write_results(read_results(db), back)


def test_cli_defaults_to_a_database_and_refuses_another_protocol(tmp_path, capsys, monkeypatch):
    from sklearn.datasets import load_iris

    data = tmp_path / "iris.csv"
    load_iris(as_frame=True).frame.to_csv(data, index=False)
    monkeypatch.chdir(tmp_path)
    common = ["--data", str(data), "--combos", "probabilistic", "--no-progress"]
    assert main([*common, "--cv", "2"]) == 0
    out = capsys.readouterr().out
    assert "in results.sqlite" in out and "W/T/L vs Chow" in out and "report" in out
    assert len(read_results(tmp_path / "results.sqlite")) == 12
    assert main([*common, "--cv", "3"]) == 2
    err = capsys.readouterr().err
    assert "another protocol" in err and "cv: stored 2, this run 3" in err
    assert len(read_results(tmp_path / "results.sqlite")) == 12


def test_a_database_that_cannot_be_written_stops_the_run_with_exit_2(tmp_path, monkeypatch, capsys):
    from sklearn.datasets import load_iris

    data = tmp_path / "iris.csv"
    load_iris(as_frame=True).frame.to_csv(data, index=False)
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    argv = ["--data", str(data), "--cv", "2", "--combos", "probabilistic", "--no-progress"]
    assert main([*argv, "--out", str(blocker / "r.sqlite")]) == 2
    assert "Cannot create the results database" in capsys.readouterr().err

    def full_disk(self, row):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(ResultsDatabase, "_insert", full_disk)
    # even with errors="skip" a write failure is no problem of one dataset: the run stops
    with pytest.raises(ResultsFileError, match="disk is full"):
        run_suite(_datasets(), tmp_path / "r.sqlite", combos=COMBOS, cv=2, errors="skip")
    assert main([*argv, "--out", str(tmp_path / "cli.sqlite")]) == 2
    assert "Cannot write the results database" in capsys.readouterr().err
