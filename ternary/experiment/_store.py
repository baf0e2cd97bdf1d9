"""The suite's results database: SQLite (the standard library's ``sqlite3``), one row per fold.

Every finished (dataset, combination, fold) row is one ``INSERT`` in its own
transaction, under the table's unique key ``(dataset, combo, fold)``. SQLite gives
what the older CSV file (`ternary.experiment._csvstore`) built by hand:

* **Atomic commits.** The database is in WAL mode: a row is either committed whole
  or absent, whenever the process is stopped (Ctrl-C, ``kill -9``, a crash). A
  rerun finds exactly the committed rows and computes the others; none is lost or
  written twice.
* **Durability.** ``synchronous=NORMAL``, SQLite's setting for WAL mode: a commit
  survives the process being stopped at any moment (Ctrl-C, ``kill -9``) without
  waiting for an fsync, so it costs a fraction of a millisecond even on a busy
  disk. A power cut or an operating-system crash can lose the last commits (never
  corrupt the file); a rerun computes them again.
* **Two runs on one database share it.** SQLite lets one writer commit at a time
  (the other waits, up to a minute) while readers read on. Each run asks the
  database which rows exist before every dataset, so it skips what the other run
  has finished meanwhile; a row both computed is kept once (the first commit wins;
  seeded runs give equal numbers). A run whose protocol differs from the stored
  one is refused (`ResultsFileError`, exit status 2 on the command line).
* **The protocol is stored once**, in the ``protocol`` table (cv, seed, depth,
  scaling, tree parameters, the ternary version): resuming with another protocol
  raises `ResultsFileError` naming the difference, instead of mixing numbers.

Files written before the database (CSV) are still read (`read_results`) and can be
imported into a database (`write_results`).
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ternary.experiment._csvstore import ResultsFileError, _CsvStore, read_csv_results
from ternary.experiment._dbread import (
    _bounded,
    check_database,
    check_resumable,
    check_sizes,
    connect_read_only,
    inspect,
    read_protocol_rows,
    read_rows,
    read_unchanged,
)

__all__ = ["ResultsDatabase", "open_store", "read_results", "write_results"]

_MAGIC = b"SQLite format 3\x00"
_SCHEMA_VERSION = 1
_KEY = ("dataset", "combo", "fold")
# the protocol's key listing the library versions of every run that wrote rows
_VERSIONS = "versions"
# the keys of rows a run can have written (read_rows drops the others with a warning)
_VALID = "WHERE typeof(fold) = 'integer' AND fold >= 0 AND typeof(dataset) = 'text' "
_VALID += "AND typeof(combo) = 'text'"
# how long a writer waits for the other run's commit before giving up
_BUSY_SECONDS = 60.0


def _quote(name: str) -> str:
    return '"' + str(name).replace('"', '""') + '"'


def _cell(value: Any) -> Any:
    """A value sqlite3 can bind: numpy scalars as Python numbers, NaN and NA as NULL."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return None if math.isnan(value) else float(value)
    if isinstance(value, (int, str)):
        return value
    if pd.isna(value):
        return None
    return str(value)


def is_database(path) -> bool:
    """Whether ``path`` is an existing SQLite file (by its first 16 bytes)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(len(_MAGIC)) == _MAGIC
    except OSError:
        return False


class ResultsDatabase:
    """The rows of one results database; use it as a context manager (it holds a connection).

    ``frame`` reads every row, ``done``/``done_for`` the finished keys, ``add`` commits
    one row, ``check_protocol`` stores the run's protocol or compares it with the
    stored one. ``dropped`` is always empty (SQLite keeps no half row); it is there
    because the CSV store has it.
    """

    def __init__(self, path):
        self.path = Path(path)
        self.dropped: list[tuple[int, str]] = []
        self._conn: sqlite3.Connection | None = None
        self._columns: list[str] = []

    # ---------------------------------------------------------------------- connection
    def __enter__(self) -> ResultsDatabase:
        directory = self.path.parent if str(self.path.parent) else Path(".")
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise self._error("create", exc) from exc
        if self.path.exists() and self.path.stat().st_size:
            if not is_database(self.path):
                raise ResultsFileError(
                    f"{str(self.path)!r} exists but is not a SQLite database. Choose another "
                    "output file, or name a CSV results file with the .csv suffix."
                )
            self._check_existing()
        try:
            self._conn = _bounded(
                sqlite3.connect(str(self.path), timeout=_BUSY_SECONDS, isolation_level=None)
            )
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self._check_schema()
        except sqlite3.Error as exc:
            self.__exit__(None, None, None)
            raise self._error("open", exc) from exc
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _check_existing(self) -> None:
        """Read-only first: a view, trigger, index or oversized file is refused unwritten."""
        conn, _ = connect_read_only(self.path)
        try:
            check_database(conn, self.path, writing=True)
            read_protocol_rows(conn, self.path)
            check_resumable(conn, self.path)
            check_sizes(conn, self.path)
            damage = conn.execute("PRAGMA quick_check(5)").fetchall()
            if damage != [("ok",)]:
                raise sqlite3.DatabaseError("; ".join(str(r[0]) for r in damage))
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            raise self._error("resume", exc) from exc
        finally:
            conn.close()

    def __exit__(self, *exc_info) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _error(self, action: str, exc: BaseException) -> ResultsFileError:
        reason = getattr(exc, "strerror", None) or str(exc)
        if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
            return ResultsFileError(
                f"Cannot {action} the results database {str(self.path)!r}: it is damaged "
                f"({reason}). `ternary report` reads what it can; choose another output file "
                "(--out) for the run."
            )
        return ResultsFileError(
            f"Cannot {action} the results database {str(self.path)!r}: {reason}. Choose an "
            "output file in a folder you can write to (--out), or free some space."
        )

    @property
    def conn(self) -> sqlite3.Connection:
        """The open connection (inside the ``with`` block)."""
        if self._conn is None:
            raise ResultsFileError(f"{str(self.path)!r} is not open; use it in a with block.")
        return self._conn

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed whole, or rolled back whole (also on Ctrl-C)."""
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise self._error("write", exc) from exc
        try:
            yield conn
        except sqlite3.DatabaseError as exc:
            conn.execute("ROLLBACK")
            raise self._error("write", exc) from exc
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        try:
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            raise self._error("write", exc) from exc

    def _check_schema(self) -> None:
        with self._transaction() as conn:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if tables and version != _SCHEMA_VERSION:
                raise ResultsFileError(
                    f"{str(self.path)!r} is a SQLite database but not a results database of "
                    f"run_suite (schema {version}, expected {_SCHEMA_VERSION}); choose another "
                    "output file."
                )
            conn.execute(f"PRAGMA user_version={_SCHEMA_VERSION}")
            conn.execute(
                "CREATE TABLE IF NOT EXISTS protocol (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
            )
        self._columns = self._table_columns()

    def _table_columns(self) -> list[str]:
        return [r[1] for r in self.conn.execute("PRAGMA table_info(results)")]

    # ---------------------------------------------------------------------- protocol
    def protocol(self) -> dict[str, Any]:
        """The stored protocol (empty before the first run)."""
        return read_protocol_rows(self.conn, self.path)

    def check_protocol(self, protocol: dict[str, Any]) -> None:
        """Store ``protocol``, or raise `ResultsFileError` if it differs from the stored one.

        A key the database does not hold yet (a database imported from a CSV file knows
        only cv and seed) is stored; a key it holds must have the same value.
        """
        wanted = {
            k: json.loads(json.dumps(v, sort_keys=True, default=str)) for k, v in protocol.items()
        }
        with self._transaction() as conn:
            stored = self.protocol()
            wanted.pop(_VERSIONS, None)  # not a protocol setting (record_versions)
            differ = [k for k in wanted if k in stored and stored[k] != wanted[k]]
            if differ:
                listed = "; ".join(
                    f"{k}: stored {stored[k]!r}, this run {wanted[k]!r}" for k in differ
                )
                raise ResultsFileError(
                    f"{str(self.path)!r} holds results of another protocol ({listed}); "
                    "resuming would mix them. Use the stored settings, or choose another "
                    "output file (--out)."
                )
            conn.executemany(
                "INSERT INTO protocol (key, value) VALUES (?, ?)",
                [(k, json.dumps(v, sort_keys=True)) for k, v in wanted.items() if k not in stored],
            )

    def record_versions(self, versions: dict[str, str]) -> None:
        """Add this run's library versions to the ``versions`` the protocol lists.

        Kept apart from the protocol's check: a run resumed under other versions is
        allowed, and the report then names every set of versions that made rows.
        """
        with self._transaction() as conn:
            stored = self.protocol().get(_VERSIONS, [])
            if not isinstance(stored, list):
                stored = []
            if versions not in stored:
                conn.execute(
                    "INSERT OR REPLACE INTO protocol (key, value) VALUES (?, ?)",
                    (_VERSIONS, json.dumps([*stored, versions], sort_keys=True)),
                )

    # ---------------------------------------------------------------------- state
    def done(self) -> set[tuple[str, str, int]]:
        return self._keys(f"SELECT dataset, combo, fold FROM results {_VALID}", ())

    def done_for(self, dataset: str) -> set[tuple[str, str, int]]:
        """The finished keys of one dataset, as committed now (by this run or another)."""
        query = f"SELECT dataset, combo, fold FROM results {_VALID} AND dataset = ?"
        return self._keys(query, (dataset,))

    def _keys(self, query: str, params: tuple) -> set[tuple[str, str, int]]:
        try:
            if not self._table_columns():
                return set()
            return {(d, c, int(f)) for d, c, f in self.conn.execute(query, params)}
        except sqlite3.Error as exc:
            raise self._error("read", exc) from exc

    @property
    def frame(self) -> pd.DataFrame:
        return read_rows(self.conn, self.path)

    # ---------------------------------------------------------------------- write
    def add(self, row: dict) -> bool:
        """Commit one row in its own transaction; False if its key was already there."""
        missing = [k for k in _KEY if k not in row]
        if missing:
            raise ValueError(f"a results row needs {', '.join(missing)}; got {sorted(row)}.")
        try:
            return self._insert(row)
        except sqlite3.Error as exc:
            raise self._error("write", exc) from exc

    def _insert(self, row: dict) -> bool:
        names = list(row)
        values = [_cell(row[k]) for k in names]
        with self._transaction() as conn:
            if any(k not in self._columns for k in names):
                self._add_columns(conn, names)
            cursor = conn.execute(
                f"INSERT INTO results ({', '.join(map(_quote, names))}) "
                f"VALUES ({', '.join('?' * len(names))}) "
                "ON CONFLICT (dataset, combo, fold) DO NOTHING",
                values,
            )
        return cursor.rowcount == 1

    def _add_columns(self, conn: sqlite3.Connection, names: list[str]) -> None:
        self._columns = self._table_columns()  # another run may have added some
        if not self._columns:
            types = {"dataset": " TEXT NOT NULL", "combo": " TEXT NOT NULL"}
            types["fold"] = " INTEGER NOT NULL"
            cells = [_quote(n) + types.get(n, "") for n in names]
            conn.execute(
                f"CREATE TABLE results ({', '.join(cells)}, PRIMARY KEY (dataset, combo, fold))"
            )
        else:
            for name in names:
                if name not in self._columns:
                    conn.execute(f"ALTER TABLE results ADD COLUMN {_quote(name)}")
        self._columns = self._table_columns()


def open_store(path):
    """The store for ``path``: a SQLite database, or the CSV file for a ``.csv`` name.

    An existing file is recognised by its content (a SQLite file under any name is a
    database); a new one by its suffix.
    """
    path = Path(path)
    if is_database(path) or path.suffix.lower() != ".csv":
        return ResultsDatabase(path)
    return _CsvStore(path)


def read_results(path) -> pd.DataFrame:
    """Every row of a results database or CSV results file (read-only).

    Parameters
    ----------
    path : str or path-like
        A results database or CSV results file.

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, combination, fold).
    """
    path = Path(path)
    if not path.is_file():
        raise ResultsFileError(f"No such results file: {str(path)!r}.")
    if not is_database(path):
        return read_csv_results(path)
    rows, protocol, note = inspect(path)
    rows.attrs["protocol"] = protocol
    rows.attrs["notes"] = [note] if note else []
    return rows


def read_protocol(path) -> dict[str, Any]:
    """The protocol stored in a results database ({} for a CSV file)."""
    if not is_database(path):
        return {}

    def read(conn, _note):
        check_database(conn, path)
        return read_protocol_rows(conn, path)

    return read_unchanged(path, read)  # no -shm or -wal left beside a WAL database


def write_results(frame: pd.DataFrame, path, protocol: dict[str, Any] | None = None) -> int:
    """Write rows to a new results file: a database (one transaction) or a CSV (by suffix).

    This is how an old CSV results file becomes a database and a database becomes a
    CSV file. The target must not exist yet. For a database, ``protocol`` defaults to
    the ``cv`` and ``seed`` the rows carry.

    Parameters
    ----------
    frame : pandas.DataFrame
        Rows as `read_results` returns them.
    path : str or path-like
        The new file; ``.csv`` writes a CSV results file, anything else a database.
    protocol : dict, optional
        The protocol to store with a database.

    Returns
    -------
    int
        The number of rows written.
    """
    path = Path(path)
    if path.exists():
        raise ResultsFileError(f"{str(path)!r} exists; choose a new file to write to.")
    if path.suffix.lower() == ".csv":
        with _CsvStore(path) as store:
            store.columns = list(frame.columns)
            store.bodies = store._serialise(frame)
            store.frame = frame
            store._write()
        return len(frame)
    if protocol is None:
        protocol = {}
        for name in ("cv", "seed"):
            if name in frame and frame[name].notna().any():
                values = frame[name].dropna().unique()
                if len(values) == 1:
                    protocol[name] = int(values[0])
    with ResultsDatabase(path) as db:
        db.check_protocol(protocol)
        records = frame.to_dict("records")
        with db._transaction() as conn:
            if records:
                db._add_columns(conn, list(frame.columns))
            names = list(frame.columns)
            conn.executemany(
                f"INSERT INTO results ({', '.join(map(_quote, names))}) "
                f"VALUES ({', '.join('?' * len(names))}) "
                "ON CONFLICT (dataset, combo, fold) DO NOTHING",
                [[_cell(r[n]) for n in names] for r in records],
            )
    return len(frame)
