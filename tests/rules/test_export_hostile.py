"""The exports on what a colleague or a download could carry (issue 27).

Tables whose numbers are text (the sqlite3 shell's ``.import --csv`` makes every column
TEXT; DuckDB's VARCHAR), text that is not a number, labels exported code cannot return
exactly, hostile function, column and label names, and models too large to export.
"""

from __future__ import annotations

import ast
import csv
import io
import re
import shutil
import sqlite3
import subprocess

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ternary import TernaryForestClassifier, TernaryTreeClassifier, export_python, export_sql
from ternary.codegen import F32_OVERFLOW, MAX_EXPORT_NODES
from tests.rules.helpers import data, edge_rows

duckdb = pytest.importorskip("duckdb", reason="DuckDB is a test dependency (requirements-dev)")

X, Y = data(n=600)
NAMES = [f"f{i}" for i in range(X.shape[1])]
#: the grammar export_sql documents for text that is a number
NUMBER = re.compile(r"[ \t\n\r]*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[ \t\n\r]*")


def _model(**params):
    frame = pd.DataFrame(X, columns=NAMES)
    return TernaryTreeClassifier(max_depth=6, random_state=0, **params).fit(frame, Y)


def _as_csv_text(rows: np.ndarray) -> list[list[str]]:
    """The cells of ``rows`` as a CSV file holds them (pandas writes shortest round-trips)."""
    buffer = io.StringIO()
    pd.DataFrame(rows, columns=NAMES).to_csv(buffer, index=False)
    return list(csv.reader(io.StringIO(buffer.getvalue())))[1:]


def _sqlite_text(cells: list[list]) -> sqlite3.Connection:
    """A table as ``.import --csv`` makes it: every column TEXT, the file's strings."""
    con = sqlite3.connect(":memory:")
    columns = ", ".join(f'"{c}" TEXT' for c in ["i", *NAMES])
    con.execute(f"CREATE TABLE t ({columns})")
    con.executemany(
        "INSERT INTO t VALUES (?, ?, ?, ?, ?)", [(str(k), *r) for k, r in enumerate(cells)]
    )
    return con


def _duck_text(cells: list[list]):
    duck = duckdb.connect()
    columns = ", ".join(f'"{c}" VARCHAR' for c in ["i", *NAMES])
    duck.execute(f"CREATE TABLE t ({columns})")
    duck.executemany(
        "INSERT INTO t VALUES (?, ?, ?, ?, ?)", [(str(k), *r) for k, r in enumerate(cells)]
    )
    return duck


def _scored(con, query) -> pd.DataFrame:
    cursor = con.execute(query)
    out = pd.DataFrame(cursor.fetchall(), columns=[d[0] for d in cursor.description])
    out["i"] = out["i"].astype(int)
    return out.sort_values("i").reset_index(drop=True)


def _assert_like_the_library(model, out, floats: np.ndarray):
    frame = pd.DataFrame(floats, columns=NAMES)
    proba, verdict = model.predict_proba_verdict(frame)
    assert (out["prediction"].to_numpy() == model.predict(frame)).all()
    assert (out["verdict"].to_numpy() == verdict).all()
    got = out[[f"proba_{k}" for k in range(proba.shape[1])]].to_numpy(dtype=float)
    np.testing.assert_allclose(got, proba, rtol=0, atol=1e-9)
    assert 0 < verdict.mean() < 1


@pytest.mark.parametrize("routing", ["probabilistic", "deferred", "hard_middle"])
def test_a_table_imported_as_text_scores_like_the_library(routing):
    # the finding: 102 of 300 rows predicted wrong, all with verdict 1
    model = _model(routing=routing, min_samples_middle=3)
    rng = np.random.default_rng(0)
    rows = X[:300] + rng.normal(0, 0.3, (300, X.shape[1]))
    cells = _as_csv_text(rows)
    # text numbers written otherwise than pandas does read as the same numbers
    cells[0] = [f"  {cells[0][0]} ", f"+{cells[0][1].lstrip('-')}", "1e-1", ".5"]
    cells[1] = ["\t2.\n", "-0", "-.25E+1", "3"]
    floats = np.array([[float(v) for v in row] for row in cells])
    out = _scored(_sqlite_text(cells), export_sql(model, table="t", key="i"))
    _assert_like_the_library(model, out, floats)
    # DuckDB reads text to the nearest double: the float32 edges are exact there too
    edges = edge_rows([model], X)
    cells += _as_csv_text(edges)
    floats = np.vstack([floats, edges])
    out = _scored(_duck_text(cells), export_sql(model, table="t", key="i"))
    _assert_like_the_library(model, out, floats)


@pytest.mark.skipif(shutil.which("sqlite3") is None, reason="needs the sqlite3 shell")
def test_the_sqlite3_shells_csv_import_scores_like_the_library(tmp_path):
    # the path the issue took: sqlite3 db ".import --csv rows.csv t" (161 of 300 were wrong)
    model = _model()
    rows = pd.DataFrame(X[:300] + np.random.default_rng(1).normal(0, 0.3, (300, 4)), columns=NAMES)
    rows.insert(0, "i", range(300))
    rows.to_csv(tmp_path / "rows.csv", index=False)
    db = tmp_path / "rows.db"
    subprocess.run(["sqlite3", str(db), f".import --csv {tmp_path / 'rows.csv'} t"], check=True)
    con = sqlite3.connect(db)
    assert con.execute("SELECT DISTINCT typeof(f0) FROM t").fetchall() == [("text",)]
    out = _scored(con, export_sql(model, table="t", key="i"))
    _assert_like_the_library(model, out, pd.read_csv(tmp_path / "rows.csv")[NAMES].to_numpy())


def test_a_forest_on_text_columns_scores_like_the_library():
    forest = TernaryForestClassifier(n_estimators=5, max_depth=4, random_state=0)
    forest.fit(pd.DataFrame(X, columns=NAMES), Y)
    cells = _as_csv_text(X[:300])
    query = export_sql(forest, table="t", key="i")
    for con in (_sqlite_text(cells), _duck_text(cells)):
        _assert_like_the_library(forest, _scored(con, query), X[:300])


NOT_NUMBERS = ["", " ", "abc", "12abc", "inf", "-Infinity", "nan", "0x10", "1_0", "-", ".",
               "e5", "1e", "1e+", "5-3", "1.2.3", "--1", "+-1", "1e5.5", "1 2", "١٢"]  # fmt: skip


def test_text_that_is_not_a_number_gives_null_outputs_and_keeps_the_key():
    model = _model()
    good = _as_csv_text(X[:1])[0]
    cells = [[bad, *good[1:]] for bad in NOT_NUMBERS] + [good]
    query = export_sql(model, table="t", key="i")
    for con in (_sqlite_text(cells), _duck_text(cells)):
        out = _scored(con, query)
        assert out["i"].tolist() == list(range(len(cells)))
        assert (
            out.loc[: len(NOT_NUMBERS) - 1, ["prediction", "verdict", "proba_0"]].isna().all().all()
        )
        assert out["prediction"].iloc[-1] == model.predict(pd.DataFrame(X[:1], columns=NAMES))[0]
    # a REAL column keeps text it cannot convert, and a BLOB is no number either
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE t (i INTEGER, f0 REAL, f1 REAL, f2 REAL, f3 REAL)")
    con.execute("INSERT INTO t VALUES (0, 'abc', 0, 0, 0), (1, ?, 0, 0, 0)", (b"1",))
    con.execute("INSERT INTO t VALUES (2, '0.5', 0, 0, 0)")  # converted to 0.5 on insert
    out = _scored(con, query)
    assert out["prediction"].isna().tolist() == [True, True, False]


def test_numeric_columns_of_every_type_score_as_their_doubles():
    model = _model()
    rows = edge_rows([model], X)[:2_000]
    frame = pd.DataFrame(rows, columns=NAMES)
    ints = frame.round().astype(np.int64)  # INTEGER columns: cast to the double the library uses
    for table in (frame, ints):
        con = sqlite3.connect(":memory:")
        table.assign(i=range(len(table))).to_sql("t", con, index=False)
        duck = duckdb.connect()
        duck.register("t", table.assign(i=range(len(table))))
        for engine in (con, duck):
            out = _scored(engine, export_sql(model, table="t", key="i"))
            proba, verdict = model.predict_proba_verdict(table.astype(float))
            assert (out["prediction"].to_numpy() == model.predict(table.astype(float))).all()
            assert (out["verdict"].to_numpy() == verdict).all()


@settings(max_examples=20, deadline=None)
@given(st.lists(st.text(alphabet="0123456789+-.eE \t", max_size=8), min_size=40, max_size=40))
def test_text_reads_as_a_number_exactly_when_it_is_one(texts):
    model = TernaryTreeClassifier(max_depth=3, random_state=0).fit(X[:, :1], Y)
    query = export_sql(model, table="t", key="i", columns=["v"])
    expected = [bool(NUMBER.fullmatch(t)) and abs(float(t)) < F32_OVERFLOW for t in texts]
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE t (i TEXT, v TEXT)")
    con.executemany("INSERT INTO t VALUES (?, ?)", [(str(k), t) for k, t in enumerate(texts)])
    duck = duckdb.connect()
    duck.execute("CREATE TABLE t (i VARCHAR, v VARCHAR)")
    duck.executemany("INSERT INTO t VALUES (?, ?)", [(str(k), t) for k, t in enumerate(texts)])
    for engine in (con, duck):
        out = _scored(engine, query)
        assert out["prediction"].notna().tolist() == expected, texts
        numbers = [float(t) for t, ok in zip(texts, expected, strict=True) if ok]
        if numbers:
            want = model.predict(np.array(numbers).reshape(-1, 1))
            assert (out["prediction"][expected].to_numpy() == want).all()


@pytest.mark.parametrize(
    "labels",
    [
        np.array(["2020-01-01", "2021-06-01", "2022-12-31"], dtype="datetime64[ns]"),
        np.array(["2020-01-01", "2021-06-01", "2022-12-31"], dtype="datetime64[D]"),
        np.array([1, 2, 3], dtype="timedelta64[s]"),
    ],
    ids=["datetime-ns", "datetime-day", "timedelta"],
)
def test_labels_exported_code_cannot_return_exactly_are_refused(labels):
    # datetime labels gave every probability 0 and the first class everywhere (187/300 wrong)
    model = TernaryTreeClassifier(max_depth=3, random_state=0).fit(X, labels[Y])
    for export in (lambda m: export_sql(m, table="t"), export_python):
        with pytest.raises(ValueError, match=r"Convert the labels to strings"):
            export(model)


def test_uint64_labels_beyond_int64_are_refused_in_sql_and_exact_in_python():
    labels = np.array([1, 2**63 + 5, 2**64 - 1], dtype=np.uint64)
    model = TernaryTreeClassifier(max_depth=3, random_state=0).fit(X, labels[Y])
    with pytest.raises(ValueError, match=r"64-bit in SQL.*strings"):
        export_sql(model, table="t")
    namespace: dict = {}
    exec(export_python(model), namespace)
    got = [namespace["predict_row"](row)[0] for row in X[:50]]
    assert got == [int(v) for v in model.predict(X[:50])] and type(got[0]) is int
    small = np.array([0, 2**63 - 1, -(2**63)], dtype=np.int64)  # int64's ends are exact
    model = TernaryTreeClassifier(max_depth=3, random_state=0).fit(X, small[Y])
    con = sqlite3.connect(":memory:")
    pd.DataFrame(X[:50], columns=[f"x{i}" for i in range(4)]).to_sql("t", con, index=False)
    assert [r[0] for r in con.execute(export_sql(model, table="t"))] == list(model.predict(X[:50]))


@pytest.mark.parametrize(
    "name",
    [
        "class",
        "def",
        "None",
        "match",
        "case",
        "type",
        "_",
        "float",
        "len",
        "1x",
        "a-b",
        "",
        "a b",
        "ﬁ",
        "x;import os",
        None,
    ],  # fmt: skip
)
def test_export_python_refuses_names_it_cannot_define(name):
    model = _model()
    with pytest.raises(ValueError, match=r"name=.*such as 'predict_row'"):
        export_python(model, name=name)


def test_export_python_takes_a_plain_name():
    namespace: dict = {}
    exec(export_python(_model(), name="score_row_2"), namespace)
    first = pd.DataFrame(X[:1], columns=NAMES)
    assert namespace["score_row_2"](list(X[0]))[0] == _model().predict(first)[0]


def test_both_exporters_refuse_a_model_over_the_shared_node_cap():
    # the app's largest forest (100 trees, depth 12, 8,000 rows) gave 13.2 MB of Python
    X_big, Y_big = data()
    forest = TernaryForestClassifier(n_estimators=40, max_depth=None, random_state=0)
    forest.fit(X_big, Y_big)
    nodes = sum(t.tree_.node_count for t in forest.estimators_)
    assert nodes > MAX_EXPORT_NODES
    for export, who in (
        (lambda m: export_sql(m, table="t"), "export_sql"),
        (export_python, "export_python"),
    ):
        with pytest.raises(
            ValueError, match=rf"{nodes:,} nodes; {who} writes at most 20,000.*skops"
        ):
            export(forest)
    fits = TernaryForestClassifier(n_estimators=3, max_depth=None, random_state=0).fit(X, Y)
    assert 0 < sum(t.tree_.node_count for t in fits.estimators_) <= MAX_EXPORT_NODES
    assert export_python(fits) and export_sql(fits, table="t")


def _hostile_names(marker) -> list[str]:
    """42 column names a file could carry: quotes, code, SQL, format fields, odd characters."""
    run = f'__import__("os").system("touch {marker}")'
    bases = [
        '"', "'", '"""', "'''", "\\", "\\'", '\\"', "\n", "\r\n", "\t", "{0}", "{}", "%s",
        "--", "/*", "*/", ";", "); DROP TABLE t; --", '"; DROP TABLE t; --', "' OR 1=1 --",
        run,
    ]  # fmt: skip
    return [f"a{b}" for b in bases] + [f"{b}{run}{b}z" for b in bases]


HOSTILE_LABELS = ["'; DROP TABLE t; --", '"""', "\\", "\n", "{0}", "' OR '1'='1", "é ✓ 中"]


def test_hostile_column_names_and_labels_run_nothing_and_score_exactly(tmp_path):
    marker = tmp_path / "PWNED"
    names = _hostile_names(marker)
    assert len(set(names)) == 42
    rng = np.random.default_rng(0)
    X_wide = np.column_stack([X] + [rng.normal(size=len(X)) for _ in range(38)])
    frame = pd.DataFrame(X_wide, columns=names)
    labels = np.array(HOSTILE_LABELS)[Y + 3 * (X[:, 1] > 0) + (X[:, 2] > 0.5)]
    model = TernaryTreeClassifier(max_depth=8, random_state=0).fit(frame, labels)
    assert len(model.classes_) == 7
    rows = frame.iloc[:300]
    predicted = model.predict(rows)
    proba, verdict = model.predict_proba_verdict(rows)
    source = export_python(model)
    tree = ast.parse(source)
    assert [type(n).__name__ for n in tree.body] == ["FunctionDef"]
    namespace: dict = {}
    exec(source, namespace)
    for i in range(len(rows)):
        label, v, p = namespace["predict_row"](dict(rows.iloc[i]))
        assert (label, v) == (predicted[i], verdict[i])
        np.testing.assert_allclose(p, proba[i], rtol=0, atol=1e-12)
    query = export_sql(model, table="t; DROP TABLE t", key="row id")
    table = rows.assign(**{"row id": range(len(rows))})
    con = sqlite3.connect(":memory:")
    table.to_sql("t; DROP TABLE t", con, index=False)
    duck = duckdb.connect()
    duck.register("t; DROP TABLE t", table)
    for engine in (con, duck):
        cursor = engine.execute(query)
        out = pd.DataFrame(cursor.fetchall(), columns=[d[0] for d in cursor.description])
        out = out.sort_values("row id").reset_index(drop=True)
        assert out["prediction"].tolist() == list(predicted)
        assert (out["verdict"].to_numpy() == verdict).all()
        got = out[[f"proba_{k}" for k in range(7)]].to_numpy(dtype=float)
        np.testing.assert_allclose(got, proba, rtol=0, atol=1e-9)
    assert con.execute('SELECT count(*) FROM "t; DROP TABLE t"').fetchone() == (300,)
    assert not marker.exists()
