"""The CSV results file (``--out x.csv``): rewritten atomically after every finished row.

The default results file is a SQLite database (`ternary.experiment._store`); this
older format stays for ``--out x.csv`` and for reading files written before the
database. It is slower by design: every finished row rewrites the whole file, so a
run of n rows writes O(n²) bytes (4,000 rows: minutes, where the database takes
seconds; see BENCHMARKS.md).

Three faults are guarded against:

* **A crash or an interrupt while writing.** Every write builds the complete new
  file in a temporary file beside it, fsyncs it and moves it over the old one
  with ``os.replace``, so a crash, Ctrl-C or ``kill -9`` leaves the old file or
  the new one, never half a line.
* **A damaged file** (a full disk, a copy stopped halfway, an edit by hand).
  Every row ends in a ``crc`` cell: the CRC-32 of the row's other cells as
  written. A row whose check fails, whose cells do not parse, or whose values
  lie outside their possible range (a fold outside ``[0, cv)``, a rate outside
  ``[0, 1]``) is dropped with a `ResultsFileWarning` naming its line, and the
  suite computes it again. A file cut at any byte therefore resumes into
  exactly the rows of an uninterrupted run.
* **Two writers.** The run holds an exclusive OS lock (``fcntl.flock``) on a
  sidecar file ``<name>.lock`` for as long as it writes. The results file
  itself cannot carry the lock, since every write replaces it by a new file. A
  second run on the same file stops at once with a `ResultsFileError`.

Files written before the check cell existed are read as well: their rows are
validated by type and range, a last line without its newline is dropped as cut,
and the next write adds the check cell to every row.

A results file can come from a colleague or a download, so it is read within the
bounds of the database reader (`ternary.experiment._dbread`): at most `MAX_ROWS` rows
of `MAX_COLUMNS` columns, no line longer than `MAX_LINE_BYTES`, and, since a CSV holds
its numbers as text too, at most `MAX_CSV_BYTES` in all, checked before the file is
read. Damaged rows cost little: a row whose cell count is not the header's is found by
the csv module, one line at a time, and dropped; the rest are parsed by pandas at once.
Should that parse still fail, the rows are halved until the failing ones are found
(about log₂ n parses for each), and the good rows parsed at once again. An older file
of 2.7 MB with one row of extra cells took 188 s and 2 GB, one pandas parse per row.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import tempfile
import warnings
import zlib
from pathlib import Path

import numpy as np
import pandas as pd

try:  # POSIX; elsewhere the run is not protected against a second writer
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

__all__ = ["ResultsFileError", "ResultsFileWarning", "read_csv_results"]

# pandas 3 parses floats exactly by default and deprecates the option; pandas 2 needs it
_ROUND_TRIP = {"float_precision": "round_trip"} if int(pd.__version__.split(".")[0]) < 3 else {}
_CHECK = "crc"
# the text columns a user's names reach (a file's stem, a combination's label)
_NAMES = ("dataset", "combo")
# a name that would start a formula in a spreadsheet (OWASP's triggers, as
# `ternary.data.to_csv`), behind any number of quotes, is written with one quote more;
# reading takes one off the same names, so every name comes back as it was
_FORMULA_NAME = re.compile(r"'*[=+\-@\t\r]")
_REQUIRED = ("dataset", "combo", "fold")
# The database reader's bounds (`ternary.experiment._dbread` reads them from here): the
# paper's run holds 3,485 rows of 22 columns; these leave room for far larger suites.
MAX_ROWS = 200_000
MAX_COLUMNS = 200
MAX_CELL_BYTES = 65_536  # one text cell: names are short
MAX_TEXT_BYTES = 32 * 1024 * 1024  # every text cell together
#: A CSV row holds its numbers as text too: a run's row of 22 columns is 300 to 400 bytes,
#: so the text bound plus 320 bytes a row for `MAX_ROWS` rows (97,554,432 bytes, 93 MiB).
MAX_CSV_BYTES = MAX_TEXT_BYTES + 320 * MAX_ROWS
#: A row: two names of at most `MAX_CELL_BYTES` and `MAX_COLUMNS` numbers of 32 bytes.
MAX_LINE_BYTES = 2 * MAX_CELL_BYTES + 32 * MAX_COLUMNS
# (low, high, may be missing) for every metric column; a value outside is damage
_RANGES = {
    "decided_accuracy": (0.0, 1.0, True),
    "uncertain_rate": (0.0, 1.0, False),
    "accuracy": (0.0, 1.0, False),
    "decided_f1": (0.0, 1.0, True),
    "fit_seconds": (0.0, np.inf, False),
    "n_leaves": (1.0, np.inf, False),
    "chow_decided_accuracy": (0.0, 1.0, True),
    "chow_decided_accuracy_ties_mean": (0.0, 1.0, True),
    "cart_accuracy": (0.0, 1.0, False),
    "aurc": (0.0, 1.0, True),
    "e_aurc": (-1.0, 1.0, True),
    "cart_aurc": (0.0, 1.0, True),
    "cart_e_aurc": (-1.0, 1.0, True),
    "laplace_decided_accuracy": (0.0, 1.0, True),
    "laplace_aurc": (0.0, 1.0, True),
    "laplace_e_aurc": (-1.0, 1.0, True),
    "bayes_error": (0.0, 1.0, True),
}


class ResultsFileError(ValueError):
    """The results file cannot be read, locked or written; the message says what to do.

    A subclass of ValueError, so callers that caught the older ValueError still do;
    `run_suite` never treats it as a problem of one dataset to skip.
    """


class ResultsFileWarning(UserWarning):
    """Damaged rows were found in the results file, dropped, and will be computed again."""


def _crc(body: str) -> str:
    return f"{zlib.crc32(body.encode('utf-8')):08x}"


def _fail(path: Path, action: str, exc: OSError) -> ResultsFileError:
    reason = exc.strerror or str(exc)
    return ResultsFileError(
        f"Cannot {action} the results file {str(path)!r}: {reason}. Choose an output file in a "
        "folder you can write to (--out), or free some space."
    )


class _CsvStore:
    """The rows of one results file: read and checked on opening, rewritten after every row.

    Use it as a context manager: entering takes the writer's lock, leaving releases it.
    ``frame`` holds the valid rows (without the check cell), ``dropped`` lists
    ``(line number, reason)`` for every row that was not kept.
    """

    def __init__(self, path):
        self.path = Path(path)
        self.columns: list[str] = []
        self.bodies: list[str] = []  # every row's cells as written, without check cell or newline
        self.frame = pd.DataFrame()
        self.dropped: list[tuple[int, str]] = []
        self._lock = None
        self._protocol: dict = {}

    # ------------------------------------------------------------------------- lock
    def __enter__(self) -> _CsvStore:
        directory = self.path.parent if str(self.path.parent) else Path(".")
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _fail(self.path, "create", exc) from exc
        self._lock = self._take_lock()
        try:
            self._read()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _lock_path(self) -> Path:
        return self.path.with_name(self.path.name + ".lock")

    def _take_lock(self):
        lock_path = self._lock_path()
        for _ in range(10):
            try:
                handle = open(lock_path, "a", encoding="utf-8")  # held for the whole run
            except OSError as exc:
                raise _fail(self.path, "create", exc) from exc
            if fcntl is None:  # pragma: no cover - no OS lock: at least the writability check
                return handle
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                handle.close()
                raise ResultsFileError(
                    f"Another run is writing {str(self.path)!r} (it holds {str(lock_path)!r}). "
                    "Wait for it to finish, or choose another output file; two writers would "
                    "duplicate rows."
                ) from None
            # the holder before us removes the file as it finishes; a lock on that removed
            # file protects nothing, so it only counts if the path still names our file
            try:
                same = os.stat(lock_path).st_ino == os.fstat(handle.fileno()).st_ino
            except FileNotFoundError:
                same = False
            if same:
                return handle
            handle.close()
        raise ResultsFileError(f"Cannot lock {str(lock_path)!r}; try again.")

    def __exit__(self, *exc_info) -> None:
        if self._lock is not None:
            # removed while still locked, so a waiting run sees it gone (see _take_lock)
            try:
                os.unlink(self._lock_path())
            except OSError:
                pass
            self._lock.close()
            self._lock = None

    # ------------------------------------------------------------------------- read
    def _read(self) -> None:
        try:
            size = self.path.stat().st_size if self.path.exists() else 0
            if size > MAX_CSV_BYTES:
                raise self._too_big(f"is {size:,} bytes")
            raw = self.path.read_bytes() if size else b""
        except OSError as exc:
            raise _fail(self.path, "read", exc) from exc
        if not raw:
            return
        self._check_bounds(raw)
        text = raw.decode("utf-8", errors="replace")
        lines = text.split("\n")
        if len(lines) == 1 and (_REQUIRED[0] + ",").startswith(lines[0][: len(_REQUIRED[0]) + 1]):
            return  # the file was cut inside its header: no row to keep or to drop
        header = lines[0].split(",")
        checked = header[-1] == _CHECK
        self.columns = header[:-1] if checked else header
        missing = [c for c in _REQUIRED if c not in self.columns]
        if missing:
            raise ResultsFileError(
                f"{str(self.path)!r} exists but is not a results file of run_suite (no "
                f"{', '.join(missing)} column); choose another output file."
            )
        complete = lines[1:-1]  # what follows the last newline was cut (or is empty)
        candidates = []
        for number, line in enumerate(lines[1:], start=2):
            if not line:
                continue
            body, reason = self._body(line, checked, number - 1 <= len(complete))
            if reason:
                self.dropped.append((number, reason))
            else:
                candidates.append((number, body))
        self._parse(candidates)
        if self.dropped:
            listed = "; ".join(f"line {n}: {why}" for n, why in self.dropped[:5])
            more = f" (and {len(self.dropped) - 5} more)" if len(self.dropped) > 5 else ""
            warnings.warn(
                f"{str(self.path)!r}: dropped {len(self.dropped)} damaged row(s), which will be "
                f"computed again: {listed}{more}.",
                ResultsFileWarning,
                stacklevel=3,
            )

    @staticmethod
    def _body(line: str, checked: bool, has_newline: bool) -> tuple[str, str | None]:
        if line.endswith("\r"):
            line = line[:-1]
        if not checked:
            return line, None if has_newline else "the row was cut short"
        body, _, check = line.rpartition(",")
        if len(check) != 8 or _crc(body) != check:
            return body, "its check cell does not match its cells (cut short or changed)"
        return body, None

    def _too_big(self, what: str) -> ResultsFileError:
        return ResultsFileError(
            f"{str(self.path)!r} {what}; a results file holds at most {MAX_ROWS:,} rows of "
            f"{MAX_COLUMNS} columns, {MAX_LINE_BYTES:,} bytes a row and {MAX_CSV_BYTES:,} "
            "bytes in all, as a results database does. Use the file run_suite wrote, or split "
            "it by dataset."
        )

    def _check_bounds(self, raw: bytes) -> None:
        """Rows, columns and line length within the database reader's bounds, in bytes."""
        n_rows = raw.count(b"\n") + (not raw.endswith(b"\n")) - 1  # the header is no row
        if n_rows > MAX_ROWS:
            raise self._too_big(f"holds {n_rows:,} rows")
        n_columns = raw[: raw.find(b"\n")].count(b",") + 1 if b"\n" in raw else 0
        if n_columns > MAX_COLUMNS + 1:  # the check cell is no column
            raise self._too_big(f"has {n_columns:,} columns")
        lengths = [len(line) for line in raw.split(b"\n")]
        longest = max(range(len(lengths)), key=lengths.__getitem__)
        if lengths[longest] > MAX_LINE_BYTES:
            raise self._too_big(f"has a line of {lengths[longest]:,} bytes (line {longest + 1})")

    def _parse(self, candidates: list[tuple[int, str]]) -> None:
        """Parse the rows that passed the check, keeping those whose values are possible.

        Rows whose cell count is not the header's are dropped first; the rest are parsed
        at once, and only if that fails are they halved to find the rows that do not parse
        (`_parsed`), never parsed one by one.
        """
        width = len(self.columns)
        numbers, bodies = [], []
        for number, body in candidates:
            cells = _cell_count(body)
            if cells == width:
                numbers.append(number)
                bodies.append(body)
            else:
                self.dropped.append(
                    (number, f"its cells do not parse ({cells} cells, the header names {width})")
                )
        parsed = self._parsed(numbers, bodies)
        if not parsed:
            return
        if len(parsed) == 1:
            numbers, bodies, frame = parsed[0]
        else:  # parsed again at once, so a dropped row leaves no trace in the column types
            numbers = [n for part in parsed for n in part[0]]
            bodies = [b for part in parsed for b in part[1]]
            frame = self._frame_of(bodies)
        reasons = _impossible(frame)
        seen = set()
        keep = np.zeros(len(frame), dtype=bool)
        for k, reason in enumerate(reasons):
            key = None
            if reason is None:
                key = (frame["dataset"].iat[k], frame["combo"].iat[k], int(frame["fold"].iat[k]))
                if key in seen:
                    reason = "it repeats an earlier row"
            if reason is None:
                seen.add(key)
                keep[k] = True
            else:
                self.dropped.append((numbers[k], reason))
        self.dropped.sort()
        self.bodies = [body for body, kept in zip(bodies, keep, strict=True) if kept]
        if keep.all():
            self.frame = frame
        elif keep.any():
            # parsed again, so a dropped row's cells leave no trace in the column types
            self.frame = self._frame_of(self.bodies)
        if len(self.frame):
            self.frame["fold"] = self.frame["fold"].astype(int)

    def _parsed(self, numbers: list[int], bodies: list[str]) -> list[tuple]:
        """``(numbers, bodies, frame)`` for the parts that parse; the others are dropped.

        One pandas parse when every row parses; otherwise the rows are halved until the
        failing ones stand alone (about log₂ n parses for each failing row).
        """
        if not bodies:
            return []
        try:
            return [(numbers, bodies, self._frame_of(bodies))]
        except (ValueError, pd.errors.ParserError) as exc:
            if len(bodies) == 1:
                self.dropped.append((numbers[0], f"its cells do not parse ({exc})"))
                return []
        half = len(bodies) // 2
        return self._parsed(numbers[:half], bodies[:half]) + self._parsed(
            numbers[half:], bodies[half:]
        )

    def _frame_of(self, bodies: list[str]) -> pd.DataFrame:
        frame = pd.read_csv(
            io.StringIO("\n".join(bodies) + "\n"),
            header=None,
            names=self.columns,
            dtype={"dataset": str, "combo": str},
            keep_default_na=False,
            na_values=[""],
            **_ROUND_TRIP,
            on_bad_lines="error",
            lineterminator="\n",  # rows end at LF only: a file stem (a name) may hold a CR
        )
        if len(frame) != len(bodies):
            raise ValueError(f"{len(bodies)} row(s) gave {len(frame)}")
        for name in _NAMES:
            if name in frame:
                frame[name] = frame[name].map(_unquoted_name)
        return frame

    # ------------------------------------------------------------------------- state
    def done(self) -> set[tuple[str, str, int]]:
        if self.frame.empty:
            return set()
        return set(zip(self.frame["dataset"], self.frame["combo"], self.frame["fold"], strict=True))

    def done_for(self, dataset: str) -> set[tuple[str, str, int]]:
        """The finished keys of one dataset (this process is the file's only writer)."""
        return {key for key in self.done() if key[0] == dataset}

    def sidecar(self) -> Path:
        """``<name>.protocol.json`` beside the file: the protocol and the library versions."""
        return protocol_sidecar(self.path)

    def record_versions(self, versions: dict[str, str]) -> None:
        """Write the protocol and add this run's library versions to the sidecar file.

        A file without rows starts a new sidecar: one left by a deleted run (``--fresh``)
        would name versions that made none of the rows.
        """
        stored = read_sidecar(self.path) if self.bodies else {}
        listed = stored.get("versions", [])
        listed = listed if isinstance(listed, list) else []
        if versions not in listed:
            listed = [*listed, versions]
        content = {**stored, **self._protocol, "versions": listed}
        text = json.dumps(content, sort_keys=True, indent=1, default=str) + "\n"
        tmp = self.sidecar().with_name(self.sidecar().name + ".tmp")
        try:
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, self.sidecar())
        except OSError as exc:
            raise _fail(self.sidecar(), "write", exc) from exc

    def check_protocol(self, protocol: dict) -> None:
        """Refuse to resume rows of another ``cv`` or ``seed`` (the columns the rows carry),
        or of another setting the sidecar holds (depth, scaling, tree parameters such as
        ``zone_edges``), as the database refuses them."""
        self._protocol = json.loads(json.dumps(protocol, sort_keys=True, default=str))
        for name in ("cv", "seed"):
            value = protocol.get(name)
            if name in self.frame.columns and len(self.frame):
                other = set(self.frame[name].dropna().unique())
                if other and other != {value}:
                    raise ResultsFileError(
                        f"{str(self.path)!r} holds results with {name}={sorted(other)}, not "
                        f"{name}={value!r}; resuming would mix protocols. Choose another output "
                        "file (or delete this one)."
                    )
        stored = read_sidecar(self.path) if self.bodies else {}
        differ = [k for k in self._protocol if k in stored and stored[k] != self._protocol[k]]
        if differ:
            listed = "; ".join(
                f"{k}: stored {stored[k]!r}, this run {self._protocol[k]!r}" for k in differ
            )
            raise ResultsFileError(
                f"{str(self.path)!r} holds results of another protocol ({listed}); resuming "
                "would mix them. Use the stored settings, or choose another output file (--out)."
            )

    # ------------------------------------------------------------------------- write
    def add(self, row: dict) -> None:
        broken = [str(row[n]) for n in _NAMES if "\n" in str(row.get(n, ""))]
        if broken:  # its row would span two lines, each read back as a damaged row
            raise ResultsFileError(
                f"The name {broken[0]!r} holds a line break, which a CSV results file cannot "
                "keep (one row per line): rename it, or write to a database (--out a.sqlite)."
            )
        new_frame = pd.DataFrame([row])
        new_cols = [c for c in row if c not in self.columns]
        if new_cols:
            # a new column changes the header: re-serialise the old rows with it
            self.columns = self.columns + new_cols
            self.bodies = self._serialise(self.frame) if len(self.frame) else []
        self.bodies.extend(self._serialise(new_frame))
        self.frame = (
            pd.concat([self.frame, new_frame], ignore_index=True) if len(self.frame) else new_frame
        )
        self._write()

    def _serialise(self, frame: pd.DataFrame) -> list[str]:
        frame = frame.reindex(columns=self.columns)
        for name in _NAMES:
            if name in frame:
                frame[name] = frame[name].map(_quoted_name)
        text = frame.to_csv(index=False, header=False, lineterminator="\n")
        # split where the file's reader does, at "\n" only: splitlines() also breaks at
        # a form feed or U+2028 in a name (a file's stem), and each half failed its check
        return text.split("\n")[:-1]

    def _mode(self) -> int:
        try:
            return self.path.stat().st_mode & 0o777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            return 0o666 & ~umask

    def _write(self) -> None:
        header = ",".join([*self.columns, _CHECK]) + "\n"
        directory = self.path.parent if str(self.path.parent) else Path(".")
        tmp = None
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=directory)
            # mkstemp makes the file private (0600); give it the mode a plain open() would
            os.chmod(tmp, self._mode())
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
                handle.write(header)
                handle.writelines(f"{body},{_crc(body)}\n" for body in self.bodies)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, self.path)
        except BaseException as exc:
            if tmp is not None:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
            if isinstance(exc, OSError):
                raise _fail(self.path, "write", exc) from exc
            raise


def _cell_count(body: str) -> int:
    """The number of cells in one row as the csv module reads it (-1: it does not parse).

    A CR is read as any other character, as pandas reads it (rows end at LF only, and a
    name, a file's stem, may hold a CR unquoted); the csv module would refuse it.
    """
    try:
        return len(next(csv.reader((body.replace("\r", " "),)), []))
    except csv.Error:
        return -1


def _quoted_name(name):
    """A name as the file holds it: with a quote in front where a spreadsheet would
    read a formula (``=HYPERLINK(…)`` as a data file's stem)."""
    if isinstance(name, str) and _FORMULA_NAME.match(name):
        return "'" + name
    return name


def _unquoted_name(name):
    """The name `_quoted_name` was given (a name of an older file is kept as read)."""
    if isinstance(name, str) and name.startswith("'") and _FORMULA_NAME.match(name[1:]):
        return name[1:]
    return name


def _numbers(frame: pd.DataFrame, name: str) -> np.ndarray:
    return pd.to_numeric(frame[name], errors="coerce").to_numpy(dtype=np.float64)


def _impossible(frame: pd.DataFrame) -> list[str | None]:
    """For every parsed row, why it cannot be a row run_suite wrote, or None."""
    reasons: list[str | None] = [None] * len(frame)

    def mark(mask, why) -> None:
        for k in np.flatnonzero(mask):
            if reasons[k] is None:
                reasons[k] = why(k)

    named = frame["dataset"].map(lambda v: isinstance(v, str)) & frame["combo"].map(
        lambda v: isinstance(v, str) and v != ""
    )
    mark(~named.to_numpy(dtype=bool), lambda k: "its dataset or combination name is missing")
    fold = _numbers(frame, "fold")
    with np.errstate(invalid="ignore"):
        bad = ~np.isfinite(fold) | (fold != np.round(fold)) | (fold < 0)
        if "cv" in frame:
            cv = _numbers(frame, "cv")
            bad |= ~np.isfinite(cv) | (cv < 2) | (fold >= cv)
    mark(bad, lambda k: f"its fold {frame['fold'].iat[k]!r} is not a whole number in [0, cv)")
    for name, (low, high, may_miss) in _RANGES.items():
        if name not in frame:
            continue
        value = _numbers(frame, name)
        missing = np.isnan(value)
        with np.errstate(invalid="ignore"):
            outside = ~missing & ((value < low) | (value > high))
        mark(outside, lambda k, n=name, lo=low, hi=high: f"its {n} lies outside [{lo}, {hi}]")
        if not may_miss:
            mark(missing, lambda k, n=name: f"its {n} is missing or not a number")
    return reasons


def protocol_sidecar(path) -> Path:
    """The file beside a CSV results file that holds its protocol and library versions."""
    path = Path(path)
    return path.with_name(path.stem + ".protocol.json")


def read_sidecar(path) -> dict:
    """The protocol and versions stored beside a CSV results file ({} without one).

    A sidecar that is not a small JSON object is ignored: it only informs the report.
    """
    sidecar = protocol_sidecar(path)
    try:
        if not sidecar.is_file() or sidecar.stat().st_size > 65_536:
            return {}
        content = json.loads(sidecar.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return content if isinstance(content, dict) else {}


def read_csv_results(path) -> pd.DataFrame:
    """The valid rows of a CSV results file, without taking its writer's lock.

    Damaged rows are dropped with a `ResultsFileWarning`, as on resuming. The
    protocol and versions of its sidecar file (`protocol_sidecar`) are in
    ``attrs["protocol"]``.
    """
    store = _CsvStore(path)
    if not store.path.is_file():
        raise ResultsFileError(f"No such results file: {str(store.path)!r}.")
    store._read()
    store.frame.attrs["protocol"] = read_sidecar(store.path)
    return store.frame
