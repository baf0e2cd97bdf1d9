"""`ternary run --suite medical` offline: every dataset is skipped, and the message says how
to run the same experiment on local files (issue 31, item 5)."""

from __future__ import annotations

import ternary.data
from ternary.data import DataError
from ternary.experiment import main


def _offline(monkeypatch):
    def unreachable(*args, **kwargs):
        raise DataError("Cannot reach OpenML (no network).")

    monkeypatch.setattr(ternary.data, "load_openml", unreachable)


def test_an_offline_suite_names_data_dir_with_the_shared_folder(tmp_path, monkeypatch, capsys):
    _offline(monkeypatch)
    (tmp_path / "shared" / "datasets").mkdir(parents=True)
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    code = main(["--suite", "medical", "--out", "m.sqlite", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("skipped ") == 4 and "Cannot reach OpenML" in err
    assert "ternary run --data-dir ../shared/datasets --out m.sqlite" in err


def test_without_the_shared_folder_the_hint_names_a_folder_of_files(tmp_path, monkeypatch, capsys):
    _offline(monkeypatch)
    monkeypatch.chdir(tmp_path)
    assert main(["--suite", "medical", "--out", "m.sqlite", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "ternary run --data-dir DIR --out m.sqlite (DIR: a folder of .arff/.csv files)" in err


def test_a_local_suite_that_fails_gets_no_openml_hint(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "bad.csv").write_text("a,b\n1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["--data-dir", str(folder), "--out", "x.sqlite", "--no-progress"]) == 2
    assert "OpenML" not in capsys.readouterr().err
