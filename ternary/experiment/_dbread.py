"""Reading a results database that someone else may have made: read-only, checked, bounded.

A results database is a file a colleague or a download can carry, so nothing in it is
trusted before it is read:

* **Read-only, and the folder left as found.** It is opened with SQLite's read-only URI
  (``mode=ro``). A WAL database (run_suite writes one) needs a ``-shm`` file, and
  ``mode=ro`` creates it and an empty ``-wal`` beside the file, which a read-only
  connection cannot remove as it closes: every ``ternary report`` left two files. So
  when a WAL database has neither file beside it, it is read with ``immutable=1``,
  which creates none (`read_unchanged`). Removing the files afterwards instead would be
  wrong: a writer that opened the database meanwhile would be using them, and deleting
  a ``-wal`` deletes its committed rows. ``immutable=1`` is only right while the file
  does not change, and no file beside it means no connection holds the database open at
  the start; a writer could still come and checkpoint into it during the read, so its
  identity, size and modification time are compared after the read, and a read that
  saw a change (or failed) is made again with ``mode=ro``, under SQLite's locks. With a
  ``-wal`` or ``-shm`` already there (a run is writing, or was killed), ``mode=ro``
  reads under the locks and creates nothing new. In a folder this process cannot
  write to, where SQLite cannot create the ``-shm`` file, ``immutable=1`` too (the
  rows still in an uncheckpointed ``-wal`` file are then not seen, and the caller is
  told so).
* **Plain tables only.** ``results`` and ``protocol`` must be ordinary tables: a
  view (an endless recursive view never returns), a virtual table, a generated
  column (computed on every read) or any trigger is refused with a
  `ResultsFileError` before a row is read.
* **Bounded.** Before any row is fetched, SQL counts the rows (at most `MAX_ROWS`),
  the columns (at most `MAX_COLUMNS`) and the length of every text or blob cell
  (at most `MAX_CELL_BYTES` each, `MAX_TEXT_BYTES` in all); SQLite itself is told
  to hand out no value longer than `MAX_CELL_BYTES` (``SQLITE_LIMIT_LENGTH``, on
  Python 3.11 and later), so not even the check loads a long cell.
* **Rows that cannot be a run's** (a fold that is not a whole number ≥ 0, a missing
  dataset or combination name) are dropped with a `ResultsFileWarning`; metric
  columns holding text are read as missing numbers.
"""

from __future__ import annotations

import json
import os
import sqlite3
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ternary.experiment._combos import _METRICS
from ternary.experiment._csvstore import (  # the bounds a CSV results file shares
    MAX_CELL_BYTES,
    MAX_COLUMNS,
    MAX_ROWS,
    MAX_TEXT_BYTES,
    ResultsFileError,
    ResultsFileWarning,
)

MAX_PROTOCOL_ROWS = 1_000
_NUMERIC = (*_METRICS, "fold", "cv", "seed", "bayes_error")
_WAIT_SECONDS = 60.0


def _quote(name: str) -> str:
    return '"' + str(name).replace('"', '""') + '"'


def _text(raw: bytes) -> str:
    # a damaged file's text need not be UTF-8; sqlite3's default decoder raises on it
    return raw.decode("utf-8", errors="replace")


def _bounded(conn: sqlite3.Connection) -> sqlite3.Connection:
    if hasattr(conn, "setlimit"):  # Python 3.11+: SQLite refuses longer values unread
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_CELL_BYTES)
    conn.text_factory = _text  # names in a damaged schema need not be UTF-8 either
    return conn


def check_resumable(conn: sqlite3.Connection, path) -> None:
    """A results table a run can add rows to: its key columns under one unique key."""
    names = _columns(conn)
    if not names:
        return
    missing = [k for k in ("dataset", "combo", "fold") if k not in names]
    unique = [
        [r[2] for r in conn.execute(f"PRAGMA index_info({_quote(index[1])})")]
        for index in conn.execute("PRAGMA index_list(results)")
        if index[2]
    ]
    if missing or sorted(("dataset", "combo", "fold")) not in [sorted(u) for u in unique]:
        lacks = f"no {', '.join(missing)} column" if missing else "no unique key on them"
        raise ResultsFileError(
            f"{str(path)!r} has a results table with {lacks}: run_suite cannot add rows to it "
            "without duplicating them. `ternary report` can still read it; choose another "
            "output file (--out) for the run."
        )


def connect_read_only(path) -> tuple[sqlite3.Connection, str | None]:
    """A read-only connection to ``path``, and a note when a ``-wal`` file could not be read.

    Raises `ResultsFileError` when the file cannot be opened or is not a SQLite database.
    """
    path = Path(path)
    uri = path.resolve().as_uri()
    try:
        conn = _bounded(sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=_WAIT_SECONDS))
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn, None
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        first = exc
    folder = path.resolve().parent
    if os.access(folder, os.W_OK):
        raise ResultsFileError(f"Cannot open {str(path)!r}: {first}.") from first
    # a WAL database in a read-only folder: SQLite cannot create its -shm file; read the
    # main file as it is (nothing can write there, so it cannot change under us)
    try:
        conn = _bounded(sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True))
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        raise ResultsFileError(f"Cannot open {str(path)!r}: {exc}.") from exc
    note = None
    wal = path.with_name(path.name + "-wal")
    if wal.is_file() and wal.stat().st_size:
        note = (
            f"{str(path)!r} is in a read-only folder and its write-ahead log "
            f"{wal.name!r} could not be read: rows committed there are not in this report. "
            "Copy the database with its -wal file to a folder you can write to for all rows."
        )
    return conn, note


def _untouched_wal(path: Path) -> bool:
    """A WAL database with no ``-wal`` or ``-shm`` beside it: nobody holds it open now."""
    try:
        with open(path, "rb") as handle:
            header = handle.read(20)
    except OSError:
        return False
    # bytes 18 and 19 of the header are the write and read versions: 2 in WAL mode
    wal = header[:16] == b"SQLite format 3\0" and header[18:20] == b"\x02\x02"
    return wal and not any(path.with_name(path.name + end).exists() for end in ("-wal", "-shm"))


def _fingerprint(path: Path) -> tuple[int, int, int] | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_ino, stat.st_size, stat.st_mtime_ns


def read_unchanged(path, read):
    """``read(conn, note)`` on a read-only connection, leaving no file beside ``path``.

    An untouched WAL database is read with ``immutable=1`` (no ``-shm``, no ``-wal``),
    then checked unchanged; a changed or failed read is made again with `connect_read_only`
    (module docstring). Errors of SQLite become `ResultsFileError`.
    """
    path = Path(path)
    if _untouched_wal(path):
        before = _fingerprint(path)
        try:
            conn = _bounded(
                sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
            )
            try:
                result = read(conn, None)
            finally:
                conn.close()
        except (sqlite3.DatabaseError, UnicodeDecodeError, ResultsFileError) as exc:
            if _fingerprint(path) == before:  # damage, not a writer: say so
                if isinstance(exc, ResultsFileError):
                    raise
                raise ResultsFileError(f"Cannot read {str(path)!r}: {exc}.") from exc
        else:
            if _fingerprint(path) == before:
                return result
    conn, note = connect_read_only(path)
    try:
        return read(conn, note)
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        raise ResultsFileError(f"Cannot read {str(path)!r}: {exc}.") from exc
    finally:
        conn.close()


def check_database(conn: sqlite3.Connection, path, *, writing: bool = False) -> None:
    """Refuse a database whose ``results`` or ``protocol`` is not a plain table, or that
    holds triggers (and, when ``writing``, indexes run_suite never makes)."""
    try:
        schema = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    except sqlite3.DatabaseError as exc:
        raise ResultsFileError(f"Cannot read {str(path)!r}: {exc}.") from exc
    shown = str(path)
    for kind, name, table, sql in schema:
        lowered = str(name).lower()
        if kind == "trigger":
            raise ResultsFileError(
                f"{shown!r} holds a trigger ({name!r}); a results database of run_suite has "
                "none, and a trigger runs code on every write. Use the file run_suite wrote."
            )
        if lowered in ("results", "protocol") and kind != "table":
            raise ResultsFileError(
                f"{shown!r}: {name!r} is a {kind}, not a table; run_suite writes a plain table "
                "(a view can compute rows without end). Use the file run_suite wrote."
            )
        if lowered in ("results", "protocol") and "virtual" in str(sql).lower().split("(")[0]:
            raise ResultsFileError(
                f"{shown!r}: {name!r} is a virtual table; run_suite writes a plain table."
            )
        if writing and kind == "index" and sql and str(table).lower() in ("results", "protocol"):
            raise ResultsFileError(
                f"{shown!r} holds an index run_suite never makes ({name!r}, evaluated on every "
                "write); drop it (DROP INDEX) or choose another output file."
            )
    for table in ("results", "protocol"):
        hidden = [r for r in conn.execute(f"PRAGMA table_xinfo({table})") if r[6] != 0]
        if hidden:
            raise ResultsFileError(
                f"{shown!r}: the {table} table has generated column(s) "
                f"({', '.join(repr(r[1]) for r in hidden[:3])}), computed on every read; "
                "run_suite writes stored values only."
            )


def _columns(conn: sqlite3.Connection) -> list[str]:
    return [r[1] for r in conn.execute("PRAGMA table_info(results)")]


def check_sizes(conn: sqlite3.Connection, path, names: list[str] | None = None) -> None:
    """Rows, columns and text within the stated bounds, measured in SQL before any fetch."""
    shown = str(path)
    names = _columns(conn) if names is None else names
    if not names:
        return  # no results table yet
    if len(names) > MAX_COLUMNS:
        raise ResultsFileError(
            f"{shown!r}: the results table has {len(names)} columns; a results database has "
            f"at most {MAX_COLUMNS}. Use the file run_suite wrote."
        )
    n_rows = conn.execute("SELECT count(*) FROM results").fetchone()[0]
    if n_rows > MAX_ROWS:
        raise ResultsFileError(
            f"{shown!r} holds {n_rows:,} rows; `ternary report` reads at most {MAX_ROWS:,}. "
            "Split it by dataset (sqlite3: ATTACH and INSERT ... SELECT ... WHERE dataset IN ...)."
        )
    sizes = ", ".join(
        f"max(CASE WHEN typeof({q}) IN ('text', 'blob') THEN length(CAST({q} AS BLOB)) END), "
        f"sum(CASE WHEN typeof({q}) IN ('text', 'blob') THEN length(CAST({q} AS BLOB)) END)"
        for q in map(_quote, names)
    )
    try:
        measured = conn.execute(f"SELECT {sizes} FROM results").fetchone() if names else ()
    except sqlite3.DataError:  # SQLite refused to load a value longer than its limit
        measured = (MAX_CELL_BYTES + 1, 0)
    longest = max([v for v in measured[0::2] if v is not None], default=0)
    total = sum(v for v in measured[1::2] if v is not None)
    if longest > MAX_CELL_BYTES:
        raise ResultsFileError(
            f"{shown!r} holds a text cell too long for a results database (more than "
            f"{MAX_CELL_BYTES:,} bytes; at most {MAX_CELL_BYTES:,} per cell and "
            f"{MAX_TEXT_BYTES:,} in all). Use the file run_suite wrote."
        )
    if total > MAX_TEXT_BYTES:
        raise ResultsFileError(
            f"{shown!r} holds text cells too long for a results database ({total:,} bytes in "
            f"all; at most {MAX_CELL_BYTES:,} per cell and {MAX_TEXT_BYTES:,} in all). Use the "
            "file run_suite wrote."
        )


def read_rows(conn: sqlite3.Connection, path) -> pd.DataFrame:
    """Every valid row of a checked database (`check_database` first), bounded."""
    names = _columns(conn)
    if not names:
        return pd.DataFrame()
    missing = [k for k in ("dataset", "combo", "fold") if k not in names]
    if missing:
        raise ResultsFileError(
            f"{str(path)!r} has a results table without {', '.join(missing)}: not a results "
            "database of run_suite."
        )
    check_sizes(conn, path, names)
    if len(set(names)) != len(names):
        raise ResultsFileError(f"{str(path)!r}: the results table repeats a column name.")
    query = f"SELECT {_POSSIBLE} AS ok, * FROM results ORDER BY rowid"
    factory = conn.text_factory
    try:
        try:
            conn.text_factory = str  # sqlite3's own decoder: a Python call per cell costs
            records = conn.execute(query).fetchall()
        except (sqlite3.OperationalError, UnicodeDecodeError) as exc:
            if "decode" not in str(exc):
                raise
            conn.text_factory = _text  # a cell that is not UTF-8: replacement characters
            records = conn.execute(query).fetchall()
        finally:
            conn.text_factory = factory
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        raise ResultsFileError(f"Cannot read {str(path)!r}: {exc}.") from exc
    frame = pd.DataFrame.from_records(records, columns=["\0ok", *names])
    return _typed(frame, path)


# the rows a run can have written: a dataset and a combination name, a whole fold ≥ 0
_POSSIBLE = (
    "(typeof(dataset) = 'text' AND typeof(combo) = 'text' AND combo <> '' "
    "AND typeof(fold) IN ('integer', 'real') AND fold >= 0 AND fold < 2147483648 "
    "AND fold = CAST(fold AS INTEGER))"
)


def _typed(frame: pd.DataFrame, path) -> pd.DataFrame:
    """Names as text, numbers as floats; rows that cannot be a run's dropped with a warning."""
    keep = frame.pop("\0ok").to_numpy(dtype=bool)
    if not keep.all():
        warnings.warn(
            f"{str(path)!r}: dropped {int((~keep).sum())} row(s) without a dataset or "
            "combination name or with a fold that is not a whole number ≥ 0.",
            ResultsFileWarning,
            stacklevel=3,
        )
        frame = frame[keep].reset_index(drop=True)
    frame["fold"] = frame["fold"].astype(np.float64).astype(np.int64)
    for name in frame.columns:
        column = frame[name]
        if name in ("dataset", "combo", "fold") or column.dtype != object:
            continue  # numbers SQLite handed out as numbers stay as they are
        present = column.dropna()
        if name in _NUMERIC or present.map(lambda v: isinstance(v, (int, float))).all():
            # a metric stored as text (or a number beyond float) reads as missing
            frame[name] = pd.to_numeric(column.map(_number), errors="coerce").astype(np.float64)
        else:
            frame[name] = column.map(lambda v: v if v is None or isinstance(v, str) else str(v))
    return frame


def _number(value: Any) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float)):
        return np.nan
    try:
        return float(value)
    except OverflowError:
        return np.nan


def read_protocol_rows(conn: sqlite3.Connection, path) -> dict[str, Any]:
    """The ``protocol`` table of a checked database, bounded; {} when it has none."""
    names = [r[1] for r in conn.execute("PRAGMA table_info(protocol)")]
    if not {"key", "value"} <= set(names):
        return {}
    try:
        n = conn.execute("SELECT count(*) FROM protocol").fetchone()[0]
        if n > MAX_PROTOCOL_ROWS:
            raise ResultsFileError(
                f"{str(path)!r}: its protocol table has {n:,} rows; run_suite stores about ten."
            )
        rows = conn.execute("SELECT key, value FROM protocol ORDER BY key").fetchall()
    except sqlite3.DatabaseError as exc:
        raise ResultsFileError(f"Cannot read the protocol of {str(path)!r}: {exc}.") from exc
    out = {}
    for key, value in rows:
        try:
            out[str(key)] = json.loads(value)
        except (TypeError, ValueError, RecursionError):
            raise ResultsFileError(
                f"{str(path)!r}: the protocol's {str(key)[:80]!r} is not JSON; run_suite "
                "writes JSON values. Use the file run_suite wrote."
            ) from None
    return out


def inspect(path, *, writing: bool = False) -> tuple[pd.DataFrame, dict[str, Any], str | None]:
    """Check a database read-only, then read its rows and protocol (and any note); no
    file is left beside it (`read_unchanged`)."""

    def read(conn, note):
        check_database(conn, path, writing=writing)
        return read_rows(conn, path), read_protocol_rows(conn, path), note

    return read_unchanged(path, read)
