"""The suite's results file: one CSV, rewritten atomically after every finished row."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pandas as pd


class _ResultStore:
    """The suite's CSV file, rewritten atomically after every finished row.

    Every write builds the complete new file in a temporary file in the same
    directory, fsyncs it and moves it over the old one with ``os.replace``
    (atomic on POSIX and Windows), so a reader, a crash or Ctrl-C only ever sees
    the old file or the new one: never half a line. Rows read from an existing
    file keep their original text.
    """

    def __init__(self, path):
        self.path = Path(path)
        self.columns: list[str] = []
        self.lines: list[str] = []
        self.frame = pd.DataFrame()
        if self.path.exists() and self.path.stat().st_size > 0:
            try:
                self.frame = pd.read_csv(
                    self.path,
                    dtype={"dataset": str, "combo": str},
                    keep_default_na=False,
                    na_values=[""],
                )
            except (OSError, ValueError) as exc:
                raise ValueError(
                    f"Cannot read the existing results file {str(self.path)!r} "
                    f"({exc}); move it away or choose another output file."
                ) from exc
            required = {"dataset", "combo", "fold"}
            if not required <= set(self.frame.columns):
                raise ValueError(
                    f"{str(self.path)!r} exists but is not a results file of run_suite (no "
                    f"{', '.join(sorted(required - set(self.frame.columns)))} column); choose "
                    "another output file."
                )
            text = self.path.read_text(encoding="utf-8").splitlines(keepends=True)
            self.columns = list(self.frame.columns)
            self.lines = [line if line.endswith("\n") else line + "\n" for line in text[1:]]

    def done(self) -> set[tuple[str, str, int]]:
        if self.frame.empty:
            return set()
        return set(
            zip(
                self.frame["dataset"],
                self.frame["combo"],
                self.frame["fold"].astype(int),
                strict=True,
            )
        )

    def check_protocol(self, cv: int, seed) -> None:
        for name, value in (("cv", cv), ("seed", seed)):
            if name in self.frame.columns and len(self.frame):
                other = set(self.frame[name].dropna().unique())
                if other and other != {value}:
                    raise ValueError(
                        f"{str(self.path)!r} holds results with {name}={sorted(other)}, not "
                        f"{name}={value!r}; resuming would mix protocols. Choose another output "
                        "file (or delete this one)."
                    )

    def add(self, row: dict) -> None:
        new_cols = [c for c in row if c not in self.columns]
        if new_cols:
            # a new column changes the header: re-serialise the old rows with it
            self.columns = self.columns + new_cols
            self.lines = self._serialise(self.frame) if len(self.frame) else []
        self.lines.extend(self._serialise(pd.DataFrame([row])))
        self.frame = (
            pd.concat([self.frame, pd.DataFrame([row])], ignore_index=True)
            if len(self.frame)
            else pd.DataFrame([row])
        )
        self._write()

    def _serialise(self, frame: pd.DataFrame) -> list[str]:
        text = frame.reindex(columns=self.columns).to_csv(
            index=False, header=False, lineterminator="\n"
        )
        return text.splitlines(keepends=True)

    def _mode(self) -> int:
        try:
            return self.path.stat().st_mode & 0o777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            return 0o666 & ~umask

    def _write(self) -> None:
        header = pd.DataFrame(columns=self.columns).to_csv(index=False, lineterminator="\n")
        directory = self.path.parent if str(self.path.parent) else Path(".")
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=directory)
        try:
            # mkstemp makes the file private (0600); give it the mode a plain open() would
            os.chmod(tmp, self._mode())
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
                handle.write(header)
                handle.writelines(self.lines)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
