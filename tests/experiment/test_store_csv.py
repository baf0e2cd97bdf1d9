"""The results file of `run_suite`: damaged rows, unwritable places, two writers.

A clean run on a tiny dataset is the reference. Files are damaged the ways a real
disk or user damages them (cut at a byte, a changed digit, an impossible value), then
resumed; the rows must come back exactly as the clean run wrote them.
"""

from __future__ import annotations

import errno
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ternary.data import make_moons_dataset
from ternary.experiment import ResultsFileError, ResultsFileWarning, _csvstore, main, run_suite
from ternary.experiment._csvstore import _crc
from ternary.experiment._csvstore import _CsvStore as _ResultStore
from ternary.experiment._cv import _fold_arrays

COMBOS = [{"delta_method": "margin"}, {"delta_method": "none"}]
KEY = ["dataset", "combo", "fold"]


def _datasets(calls=None):
    def load():
        if calls is not None:
            calls.append("moons")
        return make_moons_dataset(n_samples=60, random_state=2)

    return [("moons", load)]


def _run(path, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResultsFileWarning)
        return run_suite(_datasets(), path, combos=COMBOS, cv=2, **kwargs)


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    path = tmp_path_factory.mktemp("clean") / "r.csv"
    rows = _run(path)
    assert len(rows) == 4
    return rows, path.read_bytes()


def _same_rows(got, want):
    # a resumed run keeps the rows it found (fit_seconds included) and recomputes the
    # others, whose fit times are new measurements; every other cell must be equal
    cols = [c for c in want.columns if c != "fit_seconds"]
    pd.testing.assert_frame_equal(got[cols], want[cols])


def test_every_row_carries_a_check_of_its_cells(clean):
    _, raw = clean
    lines = raw.decode().splitlines()
    assert lines[0].endswith(",crc")
    for line in lines[1:]:
        body, _, check = line.rpartition(",")
        assert check == _crc(body) and len(check) == 8


def test_a_file_cut_at_any_byte_keeps_exactly_its_whole_rows(clean, tmp_path):
    _, raw = clean
    text = raw.decode()
    ends = [i + 1 for i, ch in enumerate(text) if ch == "\n"]  # offsets just past each row
    header_end = ends[0]
    path = tmp_path / "r.csv"
    path.write_bytes(raw)
    with _ResultStore(path) as full:
        reference = full.frame
    # every offset near a line end (where the cases change), and random ones between
    near = {e + d for e in [0, *ends] for d in range(-3, 4)}
    rng = np.random.default_rng(3)
    cuts = sorted({c for c in near if 0 <= c <= len(raw)} | set(rng.integers(0, len(raw), 60)))
    for cut in cuts:
        path.write_bytes(raw[:cut])
        with warnings.catch_warnings(record=True) as caught, _ResultStore(path) as store:
            warnings.simplefilter("always")
            # a row survives when all of its cells are there; its newline may be cut
            whole = sum(end - 1 <= cut for end in ends[1:])
            assert len(store.frame) == whole, cut
            if whole:
                pd.testing.assert_frame_equal(store.frame, reference.iloc[:whole])
            partial = cut > header_end and (cut + 1) not in ends and cut not in ends
            assert bool(store.dropped) == partial, cut
            warned = any(issubclass(w.category, ResultsFileWarning) for w in caught)
            assert warned == partial, cut


def test_a_cut_file_resumes_into_a_clean_runs_rows(clean, tmp_path):
    want, raw = clean
    rng = np.random.default_rng(0)
    header_end = raw.index(b"\n") + 1
    cuts = {5, header_end + 3} | set(rng.choice(len(raw), size=5, replace=False).tolist())
    for cut in sorted(cuts):
        path = tmp_path / f"cut{cut}.csv"
        path.write_bytes(raw[:cut])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ResultsFileWarning)
            with _ResultStore(path) as store:
                kept = store.frame
        got = _run(path)
        _same_rows(got, want)
        on_disk = pd.read_csv(path)
        assert len(on_disk) == 4 and not on_disk.duplicated(KEY).any()
        # what was whole in the cut file is kept as it was, fit time included
        if len(kept):
            both = kept.merge(got, on=KEY, suffixes=("_kept", ""))
            assert len(both) == len(kept)
            np.testing.assert_array_equal(both["fit_seconds_kept"], both["fit_seconds"])
        with _ResultStore(path) as store:
            assert store.dropped == []


def test_a_changed_digit_is_caught_dropped_and_recomputed(clean, tmp_path):
    want, raw = clean
    lines = raw.decode().split("\n")
    body, _, check = lines[2].rpartition(",")
    cells = body.split(",")
    accuracy = lines[0].split(",").index("accuracy")
    cells[accuracy] = "0.125" if cells[accuracy] != "0.125" else "0.25"  # a plausible value
    lines[2] = ",".join(cells) + "," + check
    path = tmp_path / "r.csv"
    path.write_text("\n".join(lines))
    with pytest.warns(ResultsFileWarning, match=r"dropped 1 damaged row.*line 3: its check cell"):
        got = run_suite(_datasets(), path, combos=COMBOS, cv=2)
    assert [line for line, _ in got.attrs["damaged"]] == [3]
    _same_rows(got, want)


def test_an_impossible_value_with_a_valid_check_is_dropped(clean, tmp_path):
    want, raw = clean
    lines = raw.decode().split("\n")
    header = lines[0].split(",")
    for column, value in (("uncertain_rate", "1.5"), ("fold", "7"), ("n_leaves", "")):
        cells = lines[1].rpartition(",")[0].split(",")
        cells[header.index(column)] = value
        body = ",".join(cells)
        path = tmp_path / f"{column}.csv"
        path.write_text("\n".join([lines[0], f"{body},{_crc(body)}", *lines[2:]]))
        with pytest.warns(ResultsFileWarning, match=f"line 2: its {column}"):
            got = run_suite(_datasets(), path, combos=COMBOS, cv=2)
        _same_rows(got, want)


def test_an_older_file_without_checks_is_validated_and_upgraded(clean, tmp_path):
    want, raw = clean
    lines = [line.rpartition(",")[0] for line in raw.decode().splitlines()]
    path = tmp_path / "old.csv"
    # the last row was cut: no newline, half its cells
    path.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][: len(lines[-1]) // 2])
    with pytest.warns(ResultsFileWarning, match="line 5: the row was cut short"):
        got = run_suite(_datasets(), path, combos=COMBOS, cv=2)
    _same_rows(got, want)
    assert path.read_text().splitlines()[0].endswith(",crc")


def test_a_second_writer_is_refused_while_the_first_holds_the_file(tmp_path):
    path = tmp_path / "r.csv"
    calls = []
    with _ResultStore(path):
        with pytest.raises(ResultsFileError, match="Another run is writing"):
            run_suite(_datasets(calls), path, combos=COMBOS, cv=2)
    assert calls == []  # refused before any work
    run_suite(_datasets(), path, combos=COMBOS, cv=2)  # free again once the first is done
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv", "r.protocol.json"]


def test_an_output_that_cannot_be_created_fails_before_any_work(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    calls = []
    with pytest.raises(ResultsFileError, match="Cannot create the results file"):
        run_suite(_datasets(calls), blocker / "r.csv", combos=COMBOS, cv=2, errors="skip")
    assert calls == []


def test_a_write_failure_fails_the_run_even_when_skipping_datasets(tmp_path, monkeypatch):
    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(_csvstore.tempfile, "mkstemp", read_only)
    with pytest.raises(ResultsFileError, match="Cannot write .*Read-only file system"):
        run_suite(_datasets(), tmp_path / "r.csv", combos=COMBOS, cv=2, errors="skip")


def test_cli_exits_non_zero_when_the_results_cannot_be_written(tmp_path, monkeypatch, capsys):
    from sklearn.datasets import load_iris

    frame = load_iris(as_frame=True).frame
    data = tmp_path / "iris.csv"
    frame.to_csv(data, index=False)

    def full_disk(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(_csvstore.tempfile, "mkstemp", full_disk)
    argv = ["--data", str(data), "--out", str(tmp_path / "r.csv"), "--cv", "2", "--no-progress"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "No space left on device" in err and "skipped" not in err


def test_imputation_inside_a_fold_uses_the_training_rows_only():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 3))
    X[rng.random(X.shape) < 0.2] = np.nan
    train, test = np.arange(0, 30), np.arange(30, 40)
    X_train, X_test = _fold_arrays(X, train, test, scale=False)
    medians = np.nanmedian(X[train], axis=0)
    # the fold arrays come as float32, what every tree fitted on them would make of them
    assert X_train.dtype == X_test.dtype == np.float32
    for name, filled, original in (("train", X_train, X[train]), ("test", X_test, X[test])):
        holes = np.isnan(original)
        assert holes.any(), name
        np.testing.assert_array_equal(
            filled[holes], np.broadcast_to(medians, original.shape)[holes].astype(np.float32)
        )
        np.testing.assert_array_equal(filled[~holes], original[~holes].astype(np.float32))
    # the test rows' own values never shape the fill: changing them changes nothing else
    X2 = X.copy()
    X2[test] = np.where(np.isnan(X[test]), np.nan, 1e6)
    np.testing.assert_array_equal(_fold_arrays(X2, train, test, scale=False)[0], X_train)


@given(st.text(alphabet=st.sampled_from("'=+-@\t\rab,\"1"), max_size=8))
def test_a_name_comes_back_from_the_file_as_it_was_written(name):
    # the quoting is one-to-one: a name that already starts with quotes is not confused
    # with one the writer quoted
    written = _csvstore._quoted_name(name)
    assert _csvstore._unquoted_name(written) == name
    assert written[:1] not in set("=+-@\t\r")


def test_a_dataset_named_like_a_formula_is_quoted_in_the_file_and_read_back(tmp_path):
    # a data file's stem becomes the dataset's name; opened in a spreadsheet, the
    # results file must not run it
    evil = '=HYPERLINK("http://x","y")'

    def load():
        return make_moons_dataset(n_samples=60, random_state=2)

    path = tmp_path / "r.csv"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResultsFileWarning)
        first = run_suite([(evil, load)], path, combos=COMBOS, cv=2)
        again = run_suite([(evil, load)], path, combos=COMBOS, cv=2)
    text = path.read_text()
    assert "\n=" not in text and '\n"=' not in text
    assert "'=HYPERLINK" in text
    assert set(_csvstore.read_csv_results(path)["dataset"]) == {evil}
    _same_rows(again, first)  # resumed: every row found under its own name
