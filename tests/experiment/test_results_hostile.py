"""Results databases a colleague or a download could carry, read by `ternary report` and
resumed by `ternary run --out` (issue 27, item 6), and the report on partial or older
files (issue 31, item 3).

Every database here is built in the test with the standard library's sqlite3. The
hostile ones must be refused before a row is read, with a message, and never modified;
partial and older ones get a report of what they hold and a note of what they lack.
"""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys

import pandas as pd
import pytest

from ternary.data import make_moons_dataset
from ternary.experiment import ResultsFileError, read_results, report_main, run_suite

COMBOS = [{"delta_method": "margin"}, {"delta_method": "none"}]
COLUMNS = (
    "dataset TEXT, combo TEXT, fold INTEGER, cv, seed, decided_accuracy, uncertain_rate, "
    "accuracy, cart_accuracy, chow_decided_accuracy, aurc, cart_aurc"
)


def _row(dataset, combo, fold, gain=0.01, rate=0.1):
    cart = 0.80 + 0.01 * (hash(dataset) % 7)
    return (dataset, combo, fold, 5, 42, cart + gain, rate, cart, cart, cart, 0.1, 0.12)


def _rows(datasets=("a", "b", "c"), combos=("CART", "margin / probabilistic", "x / y")):
    out = []
    for k, d in enumerate(datasets):
        for j, c in enumerate(combos):
            for f in range(5):
                gain = 0.0 if c == "CART" else 0.002 * (k + j + f) - 0.003
                out.append(_row(d, c, f, gain))
    return out


def _db(path, rows=None, extra_sql=(), columns=COLUMNS, table=True):
    with sqlite3.connect(path) as conn:
        if table:
            conn.execute(f"CREATE TABLE results ({columns}, PRIMARY KEY (dataset, combo, fold))")
            rows = _rows() if rows is None else rows
            marks = ", ".join("?" * len(rows[0])) if rows else ""
            if rows:
                conn.executemany(f"INSERT INTO results VALUES ({marks})", rows)
        for sql in extra_sql:
            conn.execute(sql)
    conn.close()
    return path


def _report(path, capsys, *more) -> tuple[int, str, str]:
    code = report_main([str(path), *more])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


RECURSIVE = (
    "CREATE VIEW results AS WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n{limit}) "
    "SELECT 'd' || i AS dataset, 'CART' AS combo, 0 AS fold, 0.5 AS decided_accuracy, "
    "0.0 AS uncertain_rate, 0.5 AS accuracy, 0.5 AS cart_accuracy FROM n"
)


# ------------------------------------------------------------------ hostile structure
def test_a_results_view_is_refused_by_report_and_by_a_resumed_run(tmp_path, capsys):
    # a finite view (the old code read it as rows); the endless one is below
    db = _db(tmp_path / "view.sqlite", table=False, extra_sql=[RECURSIVE.format(limit=" LIMIT 50")])
    before = db.read_bytes()
    code, out, err = _report(db, capsys)
    assert code == 2 and out == ""
    assert "'results' is a view, not a table" in err
    data = [("moons", lambda: make_moons_dataset(n_samples=60, random_state=0))]
    with pytest.raises(ResultsFileError, match="is a view, not a table"):
        run_suite(data, db, combos=COMBOS, cv=2)
    assert db.read_bytes() == before  # refused before anything was written


def test_an_endless_recursive_view_returns_at_once(tmp_path):
    # 12 KB that made `ternary report` run forever and `ternary run --out` grow past 4 GB
    db = _db(tmp_path / "endless.sqlite", table=False, extra_sql=[RECURSIVE.format(limit="")])
    assert db.stat().st_size < 16_384
    done = subprocess.run(
        [sys.executable, "-m", "ternary.experiment", "report", str(db)],
        capture_output=True,
        text=True,
        timeout=120,  # the old code never returned
    )
    assert done.returncode == 2 and "is a view, not a table" in done.stderr
    with pytest.raises(ResultsFileError, match="is a view"):
        read_results(db)


def test_a_protocol_view_is_refused(tmp_path, capsys):
    view = RECURSIVE.format(limit="").replace("VIEW results", "VIEW protocol")
    view = view.replace("'d' || i AS dataset", "'k' || i AS key, 'v' AS value")
    db = _db(tmp_path / "proto.sqlite", extra_sql=[view])
    code, _, err = _report(db, capsys)
    assert code == 2 and "'protocol' is a view" in err


def test_a_trigger_is_refused_and_never_fires(tmp_path):
    db = _db(
        tmp_path / "trig.sqlite",
        rows=[],
        extra_sql=[
            "CREATE TABLE fired (x)",
            "CREATE TRIGGER t AFTER INSERT ON results BEGIN INSERT INTO fired VALUES (1); END",
        ],
    )
    data = [("moons", lambda: make_moons_dataset(n_samples=60, random_state=0))]
    with pytest.raises(ResultsFileError, match="holds a trigger"):
        run_suite(data, db, combos=COMBOS, cv=2)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM fired").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM results").fetchone()[0] == 0
    conn.close()
    with pytest.raises(ResultsFileError, match="holds a trigger"):
        read_results(db)


def test_a_generated_column_is_refused(tmp_path):
    columns = COLUMNS + ", big TEXT GENERATED ALWAYS AS (printf('%.*c', 1000000, 'x')) VIRTUAL"
    db = _db(tmp_path / "gen.sqlite", columns=columns)
    with pytest.raises(ResultsFileError, match="generated column"):
        read_results(db)


def test_an_index_on_an_expression_is_refused_for_writing(tmp_path):
    index = "CREATE INDEX slow ON results (length(printf('%.*c', 1000000, dataset)))"
    db = _db(tmp_path / "idx.sqlite", extra_sql=[index])
    data = [("moons", lambda: make_moons_dataset(n_samples=60, random_state=0))]
    with pytest.raises(ResultsFileError, match="index run_suite never makes"):
        run_suite(data, db, combos=COMBOS, cv=2)
    assert len(read_results(db)) == 45  # reading is harmless: an index is not evaluated


# ------------------------------------------------------------------ bounded reads
def test_a_long_text_cell_is_refused_before_it_is_read(tmp_path, capsys):
    rows = _rows()
    rows[0] = ("a" * 100_000, *rows[0][1:])  # one 100 KB name; the bound is 64 KiB a cell
    db = _db(tmp_path / "long.sqlite", rows=rows)
    code, _, err = _report(db, capsys)
    assert code == 2 and "too long" in err and "65,536 per cell" in err


def test_text_beyond_the_total_bound_is_refused(tmp_path):
    # 530 names of 64,000 bytes each pass the cell bound and exceed the 32 MiB total
    rows = [_row(f"{k:05d}" + "n" * 63_995, "CART", 0) for k in range(530)]
    db = _db(tmp_path / "total.sqlite", rows=rows)
    with pytest.raises(ResultsFileError, match="too long") as info:
        read_results(db)
    assert "33,554,432 in all" in str(info.value)


def test_more_rows_than_the_bound_are_refused(tmp_path):
    rows = [("d", "CART", f) for f in range(200_001)]
    db = _db(tmp_path / "many.sqlite", rows=rows, columns="dataset TEXT, combo TEXT, fold INT")
    with pytest.raises(ResultsFileError, match="200,001 rows.*at most 200,000"):
        read_results(db)


def test_rows_that_cannot_be_a_runs_are_dropped_and_text_metrics_read_as_missing(tmp_path):
    rows = _rows()
    rows[0] = (rows[0][0], rows[0][1], "abc", *rows[0][3:])  # a fold that is text
    rows[1] = (None, *rows[1][1:])  # no dataset name
    rows[2] = (*rows[2][:5], "0.9; DROP TABLE", *rows[2][6:])  # a metric as text
    db = _db(tmp_path / "odd.sqlite", rows=rows)
    with pytest.warns(UserWarning, match="dropped 2 row"):
        frame = read_results(db)
    assert len(frame) == 43 and frame["fold"].dtype.kind == "i"
    assert frame["decided_accuracy"].dtype == float and frame["decided_accuracy"].isna().sum() == 1


@pytest.mark.skipif(
    hasattr(os, "geteuid") and os.geteuid() == 0, reason="root can write a read-only folder"
)
def test_a_database_in_a_read_only_folder_is_reported(tmp_path, capsys):
    folder = tmp_path / "ro"
    folder.mkdir()
    data = [("moons", lambda: make_moons_dataset(n_samples=60, random_state=0))]
    db = folder / "r.sqlite"
    run_suite(data, db, combos=COMBOS, cv=2)
    for sidecar in folder.glob("r.sqlite-*"):
        sidecar.unlink()  # what a copy or a download of the file holds: the file alone
    folder.chmod(0o555)
    try:
        code, out, err = _report(db, capsys)
    finally:
        folder.chmod(0o755)
    assert code == 0, err  # was "unable to open database file": WAL needs its -shm
    assert "moons" in out or "Comparisons over 2 folds" in out


# ------------------------------------------------------------------ partial and older files
def test_a_file_with_only_carts_rows_gets_a_report(tmp_path, capsys):
    rows = [r for r in _rows() if r[1] == "CART"]
    db = _db(tmp_path / "cart.sqlite", rows=rows)
    code, out, err = _report(db, capsys, "--per-dataset")
    assert code == 0, err  # was KeyError: 'cart_p'
    assert "Only CART's rows: there is no combination to compare" in out


def test_an_older_file_without_chow_or_aurc_says_no_data(tmp_path, capsys):
    columns = COLUMNS.replace(", chow_decided_accuracy, aurc, cart_aurc", "")
    db = _db(tmp_path / "old.sqlite", rows=[r[:9] for r in _rows()], columns=columns)
    code, out, err = _report(db, capsys, "--per-dataset")
    assert code == 0, err  # was KeyError: 'chow_decided_accuracy'
    assert "**vs Chow, same flag rate**: no data" in out
    assert "**AURC vs Chow's ranking**: no data" in out
    assert "no chow_decided_accuracy, aurc, cart_aurc, laplace_aurc column" in out
    # W/T/L vs Chow and vs Laplace in the summary; Chow, AURC, Laplace and Laplace AURC
    # in the tests: 6 cells for each of 2 combos (each cell ends in its own "|")
    assert "0/0/0" not in out and out.count(" no data |") == 6 * 2


def test_a_comparison_without_data_never_reads_0_of_n(tmp_path, capsys):
    rows = _rows()
    # AURC only for "x / y": "margin / probabilistic" has none, like the stored run's
    rows = [(*r[:10], None, None) if r[1] != "x / y" else r for r in rows]
    db = _db(tmp_path / "half.sqlite", rows=rows)
    code, out, _ = _report(db, capsys)
    assert code == 0
    assert "**AURC vs Chow's ranking**: 0 of 1 combinations with data better" in out
    assert "no data for 1 (margin / probabilistic)" in out
    table = out[out.index("### Every comparison") :]
    line = next(row for row in table.splitlines() if row.startswith("| margin / probabilistic"))
    cells = [c.strip() for c in line.strip("|").split("|")]
    header = next(row for row in table.splitlines() if row.startswith("| combination"))
    names = [c.strip() for c in header.strip("|").split("|")]
    got = dict(zip(names, cells, strict=True))
    assert got["AURC: n"] == "0" and got["AURC: W/T/L"] == "no data"
    assert got["CART: n"] == "3" and got["Chow: n"] == "3"


def test_an_interrupted_run_is_reported_with_a_note_of_its_missing_folds(tmp_path, capsys):
    rows = [r for r in _rows() if not (r[0] == "c" and r[2] >= 3)]  # c stopped after fold 2
    db = _db(tmp_path / "cut.sqlite", rows=rows)
    code, out, _ = _report(db, capsys)
    assert code == 0
    assert "Missing: 3 (dataset, combination) pair(s) have fewer than their 5 folds" in out


# ------------------------------------------------------------------ names and versions
def _split(line: str) -> list[str]:
    return re.split(r"(?<!\\)\|", line.strip()[1:-1])


def test_a_pipe_or_newline_in_a_name_keeps_the_markdown_tables_whole(tmp_path, capsys):
    rows = _rows(datasets=("a|b", "c\nd", "e"), combos=("CART", "m | n", "p\r\nq"))
    db = _db(tmp_path / "names.sqlite", rows=rows)
    code, out, _ = _report(db, capsys, "--per-dataset")
    assert code == 0
    tables = re.findall(r"(?:^\|.*\n)+", out, flags=re.MULTILINE)
    assert len(tables) == 5  # summary, tests, Friedman, ranks, per dataset
    for table in tables:
        widths = {len(_split(row)) for row in table.splitlines()}
        assert len(widths) == 1, table
    assert "m \\| n" in out and "a\\|b" in out and "p q" in out and "c d" in out


def test_html_in_a_name_reaches_the_markdown_as_text(tmp_path, capsys):
    # a data file named <img src=x onerror=alert(1)>.csv names its dataset; a Markdown
    # renderer passes raw HTML on, so the report must print it as text
    evil = "<img src=x onerror=alert(1)>&amp"
    rows = _rows(datasets=(evil, "b", "c"))
    db = _db(tmp_path / "html.sqlite", rows=rows)
    code, out, _ = _report(db, capsys, "--per-dataset")
    assert code == 0
    assert "<img" not in out
    assert "&lt;img src=x onerror=alert(1)&gt;&amp;amp" in out


def test_a_run_stores_its_library_versions_and_the_report_prints_them(tmp_path, capsys):
    import numpy
    import scipy
    import sklearn

    import ternary

    db = tmp_path / "v.sqlite"
    data = [("moons", lambda: make_moons_dataset(n_samples=60, random_state=0))]
    run_suite(data, db, combos=COMBOS, cv=2)
    csv = tmp_path / "v.csv"
    run_suite(data, csv, combos=COMBOS, cv=2)
    assert (tmp_path / "v.protocol.json").is_file()
    for path in (db, csv):
        code, out, _ = _report(path, capsys)
        assert code == 0
        assert (
            f"scipy {scipy.__version__}, scikit-learn {sklearn.__version__}, "
            f"ternary {ternary.__version__}" in out
        )
        assert f"numpy {numpy.__version__}" in out and "Made with Python 3." in out
    # a resumed run under the same versions adds nothing; the protocol check ignores them
    run_suite(data, db, combos=COMBOS, cv=2)
    assert _report(db, capsys)[1].count("Made with") == 1


def test_results_without_versions_say_so(tmp_path, capsys):
    code, out, _ = _report(_db(tmp_path / "nov.sqlite"), capsys)
    assert code == 0 and "Library versions: not recorded in these results" in out


def test_the_report_reads_the_database_without_changing_it(tmp_path, capsys):
    db = _db(tmp_path / "same.sqlite")
    before = db.read_bytes()
    assert _report(db, capsys)[0] == 0
    assert db.read_bytes() == before
    assert not (tmp_path / "same.sqlite-wal").exists()
    assert isinstance(read_results(db), pd.DataFrame)


def test_text_that_is_not_utf8_is_read_with_replacement_characters(tmp_path, capsys):
    db = _db(
        tmp_path / "bytes.sqlite",
        extra_sql=["UPDATE results SET dataset = CAST(x'ff62' AS TEXT) WHERE dataset = 'a'"],
    )
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version=1")
    conn.close()
    code, out, err = _report(db, capsys, "--per-dataset")
    assert code == 0, err  # was OperationalError: Could not decode to UTF-8
    assert "\ufffdb" in out
    data = [("moons", lambda: make_moons_dataset(n_samples=60, random_state=0))]
    assert len(run_suite(data, db, combos=COMBOS, cv=2)) == 4  # resumed: its rows added


def test_a_results_table_without_the_unique_key_is_refused_for_a_run(tmp_path):
    db = tmp_path / "nokey.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version=1")
        conn.execute(f"CREATE TABLE results ({COLUMNS})")
        conn.executemany(f"INSERT INTO results VALUES ({', '.join('?' * 12)})", _rows())
    conn.close()
    data = [("moons", lambda: make_moons_dataset(n_samples=60, random_state=0))]
    with pytest.raises(ResultsFileError, match="no unique key on them"):
        run_suite(data, db, combos=COMBOS, cv=2)
    assert len(read_results(db)) == 45  # the report still reads it


def test_a_fresh_csv_run_replaces_the_versions_a_deleted_run_left(tmp_path, capsys):
    csv = tmp_path / "f.csv"
    sidecar = tmp_path / "f.protocol.json"
    sidecar.write_text('{"versions": [{"python": "2.7", "ternary": "0.0"}]}', encoding="utf-8")
    data = [("moons", lambda: make_moons_dataset(n_samples=60, random_state=0))]
    run_suite(data, csv, combos=COMBOS, cv=2)
    text = _report(csv, capsys)[1]
    assert "Python 2.7" not in text and text.count("Made with") == 1
    run_suite(data, csv, combos=COMBOS, cv=2)  # a resumed run keeps them
    assert "Python 2.7" not in _report(csv, capsys)[1]


def test_a_damaged_key_index_is_refused_for_a_run_and_the_report_reads_the_rows(tmp_path, capsys):
    db = _db(tmp_path / "damaged.sqlite", extra_sql=["PRAGMA user_version=1"])
    with sqlite3.connect(db) as conn:
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE type = 'index'").fetchone()
    conn.close()
    data = bytearray(db.read_bytes())
    start = (root[0] - 1) * page
    data[start + 8 : start + page] = b"\xa5" * (page - 8)  # the key index's page, scrambled
    db.write_bytes(bytes(data))
    code, out, err = _report(db, capsys)
    assert code == 0, err
    assert "45 fold rows" in out  # the table itself is whole
    data = [("moons", lambda: make_moons_dataset(n_samples=60, random_state=0))]
    with pytest.raises(ResultsFileError, match="it is damaged"):  # was sqlite3.DatabaseError
        run_suite(data, db, combos=COMBOS, cv=2)


def test_an_infinite_cv_or_a_missing_accuracy_column_is_no_traceback(tmp_path, capsys):
    rows = [(*r[:3], float("inf"), *r[4:]) if k == 0 else r for k, r in enumerate(_rows())]
    code, out, err = _report(_db(tmp_path / "cv.sqlite", rows=rows), capsys)
    assert code == 0, err  # was OverflowError: cannot convert float infinity to integer
    columns = COLUMNS.replace("accuracy, cart_accuracy", "cart_accuracy")
    db = _db(tmp_path / "noacc.sqlite", rows=[r[:7] + r[8:] for r in _rows()], columns=columns)
    code, _, err = _report(db, capsys)
    assert code == 2 and "no accuracy column" in err  # was KeyError: 'accuracy'
