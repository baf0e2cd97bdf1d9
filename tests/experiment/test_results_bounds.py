"""Results files read within bounds and at a bounded cost, and a report that writes nothing.

Issue 36, item 5: an older results CSV (no ``crc`` column) with one row of extra cells
fell back to one pandas parse per row (2.7 MB took 188 s and 2 GB in `ternary report`);
the CSV reader had none of the database reader's bounds; and `ternary report` on a WAL
results database left ``-shm`` and ``-wal`` files beside it every time.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import warnings
from pathlib import Path

import pandas as pd
import pytest

from ternary.experiment import (
    ResultsFileError,
    ResultsFileWarning,
    _csvstore,
    read_results,
    report_main,
)
from ternary.experiment._dbread import read_unchanged
from ternary.experiment._store import read_protocol

REPO = Path(__file__).resolve().parents[2]
STORED = REPO / "benchmarks" / "results" / "reproduce_paper_rows.csv"  # 1.26 MB, 3,500 rows


def _older_csv(tmp_path: Path) -> tuple[Path, int]:
    """The stored paper run without its check cells, one row given an extra cell."""
    lines = STORED.read_text(encoding="utf-8").split("\n")
    older = [line.rpartition(",")[0] for line in lines[:-1]]
    damaged = len(older) // 2
    older[damaged] += ",0.5"
    path = tmp_path / "older.csv"
    path.write_text("\n".join(older) + "\n", encoding="utf-8")
    return path, damaged + 1  # the file's line number


@pytest.fixture
def parses(monkeypatch):
    """Count pandas' CSV parses."""
    calls = []
    real = pd.read_csv

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(pd, "read_csv", counted)
    return calls


def test_an_older_csv_with_a_row_of_extra_cells_costs_one_parse_not_one_per_row(tmp_path, parses):
    path, line = _older_csv(tmp_path)
    width = path.read_text(encoding="utf-8").split("\n")[0].count(",") + 1
    want = read_results(STORED)
    parses.clear()
    cells = rf"line {line}: its cells do not parse \({width + 1} cells, the header names {width}\)"
    with pytest.warns(ResultsFileWarning, match=cells):
        got = read_results(path)
    assert len(parses) == 1  # it was one per row: 3,500 parses
    assert len(got) == len(want) - 1
    kept = want.drop(index=line - 2).reset_index(drop=True)
    pd.testing.assert_frame_equal(got, kept, check_like=True, check_dtype=False)


def test_rows_pandas_cannot_parse_are_found_by_halving_not_one_by_one(tmp_path, monkeypatch):
    # rows the csv module counts right but the bulk parse refuses: found in O(log n) parses
    path, _ = _older_csv(tmp_path)
    lines = path.read_text(encoding="utf-8").split("\n")
    lines = [line for line in lines if line.count(",") == lines[0].count(",")]
    bad = {700, 2100}
    lines = [line.replace(",", ",BAD", 1) if k in bad else line for k, line in enumerate(lines)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    real = _csvstore._CsvStore._frame_of
    calls = []

    def frame_of(self, bodies):
        calls.append(len(bodies))
        if any(",BAD" in body for body in bodies):
            raise ValueError("a cell pandas refuses")
        return real(self, bodies)

    monkeypatch.setattr(_csvstore._CsvStore, "_frame_of", frame_of)
    with pytest.warns(ResultsFileWarning, match="dropped 2 damaged row") as record:
        got = read_results(path)
    assert "line 701" in str(record[0].message) and "line 2101" in str(record[0].message)
    assert len(got) == len(lines) - 3  # the header and the two rows
    assert len(calls) < 60  # 2 × 2 × log₂(3,500) halvings and one parse of the good rows


def test_a_csv_with_more_rows_than_the_databases_bound_is_refused(tmp_path, capsys):
    path = tmp_path / "many.csv"
    rows = "".join(f"d,CART,{f}\n" for f in range(200_001))
    path.write_text("dataset,combo,fold\n" + rows, encoding="utf-8")
    with pytest.raises(
        ResultsFileError, match="200,001 rows; a results file holds at most 200,000"
    ):
        read_results(path)
    assert report_main([str(path)]) == 2
    assert "200,001 rows" in capsys.readouterr().err


def test_a_csv_over_the_byte_bound_is_refused_before_it_is_read(tmp_path, monkeypatch):
    path = tmp_path / "big.csv"
    path.write_text("dataset,combo,fold\n" + "d,CART,0\n" * 1_000, encoding="utf-8")
    monkeypatch.setattr(_csvstore, "MAX_CSV_BYTES", 5_000)
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail("the file was read"))
    with pytest.raises(ResultsFileError, match="is 9,019 bytes; .* and 5,000 bytes in all"):
        read_results(path)


def test_a_long_line_or_too_many_columns_is_refused(tmp_path):
    long = tmp_path / "long.csv"
    long.write_text("dataset,combo,fold\n" + "n" * 200_000 + ",CART,0\n", encoding="utf-8")
    with pytest.raises(ResultsFileError, match=r"a line of 200,007 bytes \(line 2\)"):
        read_results(long)
    wide = tmp_path / "wide.csv"
    names = ",".join(["dataset", "combo", "fold"] + [f"m{k}" for k in range(300)])
    wide.write_text(names + "\n" + "d,CART,0" + ",0.5" * 300 + "\n", encoding="utf-8")
    with pytest.raises(ResultsFileError, match="has 303 columns; .* of 200 columns"):
        read_results(wide)


# ------------------------------------------------------------------ WAL databases
COLUMNS = (
    "dataset TEXT, combo TEXT, fold INTEGER, cv, seed, decided_accuracy, uncertain_rate, "
    "accuracy, cart_accuracy"
)


NEW_ROW = "INSERT INTO results VALUES ('d9', 'CART', 0, 5, 42, 0.9, 0.1, 0.9, 0.9)"


def _wal_database(path: Path, n: int = 30) -> Path:
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA journal_mode=WAL")  # as run_suite writes it
        conn.execute(f"CREATE TABLE results ({COLUMNS}, PRIMARY KEY (dataset, combo, fold))")
        conn.execute("CREATE TABLE protocol (key TEXT PRIMARY KEY, value TEXT)")
        conn.execute("INSERT INTO protocol VALUES ('cv', '5')")
        rows = [(f"d{k % 3}", "CART", k, 5, 42, 0.8, 0.1, 0.8, 0.8) for k in range(n)]
        conn.executemany(f"INSERT INTO results VALUES ({', '.join('?' * 9)})", rows)
    conn.close()
    return path


def _folder(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.parent.iterdir())}


def test_a_report_on_a_wal_database_leaves_the_folder_as_it_found_it(tmp_path, capsys):
    db = _wal_database(tmp_path / "run.sqlite")
    before = _folder(db)
    assert list(before) == ["run.sqlite"]
    assert report_main([str(db)]) == 0
    assert "30 fold rows" in capsys.readouterr().out
    assert len(read_results(db)) == 30 and read_protocol(db) == {"cv": 5}
    assert _folder(db) == before  # no -shm, no -wal, the file's bytes unchanged


def test_rows_a_running_writer_holds_in_its_wal_are_read_and_its_files_kept(tmp_path):
    db = _wal_database(tmp_path / "live.sqlite")
    writer = sqlite3.connect(db)
    try:
        writer.execute("PRAGMA wal_autocheckpoint=0")  # the new rows stay in the -wal file
        writer.execute(NEW_ROW)
        writer.commit()
        before = _folder(db)
        assert {"live.sqlite-wal", "live.sqlite-shm"} <= set(before)
        got = read_results(db)
        assert len(got) == 31 and "d9" in set(got["dataset"])
        assert set(_folder(db)) == set(before)
    finally:
        writer.close()


def test_a_read_that_a_writer_changed_underneath_is_made_again_under_locks(tmp_path):
    db = _wal_database(tmp_path / "busy.sqlite")
    seen = []

    def read(conn, note):
        count = conn.execute("SELECT count(*) FROM results").fetchone()[0]
        if not seen:  # a run starts, writes a row and checkpoints it into the file
            with sqlite3.connect(db) as other:
                other.execute(
                    "INSERT INTO results VALUES ('d9', 'CART', 0, 5, 42, 0.9, 0.1, 0.9, 0.9)"
                )
            other.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            other.close()
        seen.append(count)
        return count

    assert read_unchanged(db, read) == 31
    assert seen == [30, 31]  # the immutable read saw the old file; the second read the new


def test_a_damaged_wal_database_is_reported_not_read_again(tmp_path):
    db = _wal_database(tmp_path / "bad.sqlite", n=400)
    raw = bytearray(db.read_bytes())
    raw[4096 : 4096 * 3] = b"\xff" * 8192  # the results table's pages
    db.write_bytes(bytes(raw))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResultsFileWarning)
        with pytest.raises(ResultsFileError, match="Cannot read"):
            read_results(db)
    assert sorted(os.listdir(tmp_path)) == ["bad.sqlite"]


def test_a_wal_database_in_a_read_only_folder_is_still_read(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    db = _wal_database(folder / "r.sqlite")
    folder.chmod(0o555)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("running as root: a read-only folder is writable")
        assert len(read_results(db)) == 30
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)
