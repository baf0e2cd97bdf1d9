"""Delimited text files: :func:`load_csv` and :func:`read_header`.

Both go through :func:`_open_csv`, so the column names a label picker offers are
the ones the loader will find: the same decoding, the same delimiter, the same
header parsing.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ._clean import (
    _MAX_CLASSES,
    _MAX_COLUMNS,
    _MAX_ROWS,
    _MISSING_TOKENS,
    _ORDINAL_THRESHOLD,
    _assemble,
    _check_names,
    _check_shape,
    _Options,
    _options,
    _resolve_target,
    _to_float,
)
from ._dataset import DataError, Dataset, _quote_list
from ._source import MAX_FILE_BYTES, _decode, _read_source

# The missing-value tokens in the exact spellings pandas should treat as missing
# while parsing, so numeric columns holding them still parse straight to float64.
_CSV_NA_VALUES = sorted(
    {t for tok in _MISSING_TOKENS for t in (tok, tok.upper(), tok.capitalize())}
)
# pandas 3 parses floats exactly by default (and deprecates the argument); pandas 2 needs
# "round_trip", or a CSV loads back numbers one bit off the ones it holds.
_EXACT_FLOATS = {"float_precision": "round_trip"} if int(pd.__version__.split(".")[0]) < 3 else {}

_DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}


def _sample_lines(text: str, limit: int = 50) -> list[str]:
    sample = text[:65536]
    lines = [ln for ln in sample.splitlines() if ln.strip()]
    if len(text) > 65536 and lines:
        lines = lines[:-1]  # the last one may be cut in the middle
    return lines[:limit]


def _field_counts(lines: list[str], delimiter: str) -> list[int]:
    try:
        return [len(r) for r in csv.reader(lines, delimiter=delimiter)]
    except csv.Error:
        return []


def _consistency(counts: list[int]) -> float:
    if not counts or counts[0] < 2:
        return 0.0
    return sum(1 for k in counts if k == counts[0]) / len(counts)


def _sniff_delimiter(text: str) -> str:
    lines = _sample_lines(text)
    if not lines:
        return ","
    try:
        guess = csv.Sniffer().sniff("\n".join(lines), delimiters=",;\t|").delimiter
    except csv.Error:
        guess = None
    # The sniffer is easily fooled (e.g. by decimal commas in a semicolon file),
    # so accept its guess only if it splits the rows consistently.
    if guess is not None and _consistency(_field_counts(lines, guess)) >= 0.9:
        return guess
    best, best_score = ",", (0.0, 0)
    for delim in (",", ";", "\t", "|"):
        counts = _field_counts(lines, delim)
        score = (_consistency(counts), counts[0] if counts else 0)
        if score[0] > 0 and score > best_score:
            best, best_score = delim, score
    return best


def _looks_like_index(values: pd.Series) -> bool:
    nums = pd.to_numeric(values, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    if len(nums) < 2 or np.isnan(nums).any():
        return False
    start = nums[0]
    return start in (0.0, 1.0) and np.array_equal(nums, start + np.arange(len(nums)))


@dataclass
class _CsvText:
    """A decoded CSV and what was learnt about it before parsing the data."""

    text: str
    file_name: str | None
    delimiter: str
    names: list[str]  # header names, blank ones replaced by column_<i>
    blank: list[int]  # positions whose header was empty
    report: list[str]


def _open_csv(source: Any, opts: _Options) -> _CsvText:
    """Read, decode, sniff the delimiter and parse the header row of a CSV."""
    data, file_name = _read_source(source, opts.max_bytes)
    text, encoding = _decode(data, "CSV")
    if not text.strip():
        raise DataError(
            "The file contains only blank lines. Upload a CSV with a header "
            "row and at least two rows of data."
        )
    delimiter = _sniff_delimiter(text)
    report = [f"Read as {encoding}; {_DELIMITER_NAMES[delimiter]}-separated."]
    try:
        header = next(csv.reader(io.StringIO(text.lstrip("\r\n")), delimiter=delimiter))
    except (csv.Error, StopIteration) as exc:
        raise DataError(
            f"Could not read the header row: {exc}. Make sure the first line "
            "holds the column names."
        ) from exc
    names = [h.strip() for h in header]
    blank = [i for i, n in enumerate(names) if not n]
    for i in blank:
        names[i] = f"column_{i + 1}"
    _check_names(names)
    _check_shape(0, len(names), opts)
    return _CsvText(text, file_name, delimiter, names, blank, report)


def read_header(
    source: Any,
    target: str | int | None = None,
    *,
    missing: str = "impute",
    max_rows: int = _MAX_ROWS,
    max_columns: int = _MAX_COLUMNS,
    max_bytes: int = MAX_FILE_BYTES,
    max_classes: int = _MAX_CLASSES,
    ordinal_threshold: int = _ORDINAL_THRESHOLD,
    name: str | None = None,
) -> list[str]:
    """The column names of a CSV, exactly as :func:`load_csv` reads them.

    The same decoding, delimiter detection and header parsing are used, so a name
    offered from this list is accepted as ``target`` by :func:`load_csv`. Only the
    header is parsed, not the data rows.

    Parameters
    ----------
    source : str, pathlib.Path, bytes or file-like
        As for :func:`load_csv`; an upload is not consumed.
    target : str or int, optional
        When given, checked against the header (a :class:`DataError` names the
        available columns if it is not there).
    missing, max_rows, max_columns, max_bytes, max_classes, ordinal_threshold, name
        The options of :func:`load_csv`, accepted so one set of keyword arguments
        serves both calls; the byte and column limits apply here too.

    Returns
    -------
    list of str
        Column names in file order, stripped of surrounding spaces; an empty
        header cell becomes ``column_<position>`` (counting from 1).

    Raises
    ------
    DataError
        For everything :func:`load_csv` would refuse before reading the data rows.

    Examples
    --------
    >>> read_header(b'"height, cm";"weight, kg";label\n181.2;75.3;tall\n')
    ['height, cm', 'weight, kg', 'label']
    """
    del name  # accepted for symmetry with load_csv; it does not affect the header
    opts = _options(missing, max_rows, max_columns, max_bytes, max_classes, ordinal_threshold)
    names = _open_csv(source, opts).names
    if target is not None:
        _resolve_target(names, target)
    return names


def load_csv(
    source: Any,
    target: str | int | None = None,
    *,
    missing: str = "impute",
    max_rows: int = _MAX_ROWS,
    max_columns: int = _MAX_COLUMNS,
    max_bytes: int = MAX_FILE_BYTES,
    max_classes: int = _MAX_CLASSES,
    ordinal_threshold: int = _ORDINAL_THRESHOLD,
    name: str | None = None,
) -> Dataset:
    """Load a delimited text file (CSV, semicolon- or tab-separated) as a Dataset.

    Parameters
    ----------
    source : str, pathlib.Path, bytes or file-like
        A path, the raw bytes, or an uploaded file object (anything with
        ``getvalue()`` or ``read()``). The object is not consumed: its position
        is restored and its bytes are not modified.
    target : str or int, optional
        Name (or position) of the label column; default the last column.
    missing : {"impute", "drop"}, default="impute"
        Fill missing feature values (numeric: column median, text: most frequent
        value) or drop the rows that have them. Rows with a missing target are
        always dropped.
    max_rows, max_columns : int
        Size limits; larger inputs raise :class:`DataError`.
    max_bytes : int, default=MAX_FILE_BYTES
        Largest file read, in bytes (200 MB).
    max_classes : int, default=100
        More distinct labels than this means the target is not a class column.
    ordinal_threshold : int, default=10
        Text columns with at most this many levels are one-hot encoded (a single
        0/1 column for two levels); more levels become ordinal codes.
    name : str, optional
        Dataset name; default the file name without its extension.

    Returns
    -------
    Dataset
        ``source`` is "csv"; ``report`` says what was detected and changed.

    Raises
    ------
    DataError
        For every problem with the input, with a message that says what to do.
    """
    opts = _options(missing, max_rows, max_columns, max_bytes, max_classes, ordinal_threshold)
    head = _open_csv(source, opts)
    names, report = head.names, head.report
    if not np.isnan(_to_float(pd.Series(names, dtype="string"))).any():
        report.append(
            "Warning: every column name is a number; the first row was used as "
            "the header. If the file has no header row, add one."
        )
    named = [n for i, n in enumerate(names) if i not in head.blank]
    # A trailing delimiter on every line (common in spreadsheet exports) adds an
    # unnamed empty last column; the default target is the last *named* column.
    target_name = _resolve_target(
        names, target if target is not None else (named[-1] if named else None)
    )
    frame = _parse_rows(head, target_name)
    _check_shape(len(frame), frame.shape[1], opts)
    report.append(f"Found {len(frame)} rows and {frame.shape[1]} columns.")
    frame = _drop_unnamed(frame, head, target_name)
    stem = Path(head.file_name).stem if head.file_name else "uploaded data"
    return _assemble(
        frame,
        target_name,
        opts=opts,
        name=name or stem,
        source="csv",
        report=report,
        decimal_comma=head.delimiter != ",",
        missing_tokens=_MISSING_TOKENS,
    )


def _parse_rows(head: _CsvText, target_name: str) -> pd.DataFrame:
    """Parse the data rows with pandas' C parser; the target stays text."""
    delimiter = head.delimiter
    try:
        frame = pd.read_csv(
            io.StringIO(head.text),
            sep=delimiter,
            header=0,
            names=head.names,
            dtype={target_name: str},
            na_values=_CSV_NA_VALUES,
            keep_default_na=False,
            skipinitialspace=True,
            skip_blank_lines=True,
            low_memory=False,
            engine="c",
            **_EXACT_FLOATS,
        )
    except pd.errors.EmptyDataError as exc:
        raise DataError(
            "The file has no data. Upload a CSV with a header row and at least two rows of data."
        ) from exc
    except (pd.errors.ParserError, ValueError, csv.Error) as exc:
        raise DataError(
            f"Could not parse the file as {_DELIMITER_NAMES[delimiter]}-separated values: "
            f"{str(exc).strip()}. Check that every row has the same number of fields as "
            "the header and that quotes are balanced."
        ) from exc
    if len(frame) == 0:
        raise DataError(
            "The file has a header row but no data rows. Add at least two rows "
            "of data below the header."
        )
    return frame


def _drop_unnamed(frame: pd.DataFrame, head: _CsvText, target_name: str) -> pd.DataFrame:
    """Drop empty unnamed columns and a pandas row-number column; report what was named."""
    names, report = head.names, head.report
    empty_unnamed = [
        names[i] for i in head.blank if names[i] != target_name and frame[names[i]].isna().all()
    ]
    if empty_unnamed:
        frame = frame.drop(columns=empty_unnamed)
        report.append(
            f"Dropped {len(empty_unnamed)} empty column(s) without a name (trailing delimiters)."
        )
    blank = [i for i in head.blank if names[i] not in empty_unnamed]
    # A blank first header over 0,1,2,... is the row index pandas writes by
    # default; as a feature it would only leak the row order.
    if blank and blank[0] == 0 and target_name != names[0] and _looks_like_index(frame[names[0]]):
        frame = frame.drop(columns=[names[0]])
        blank = blank[1:]
        report.append("Dropped the unnamed first column: it is a row number (0, 1, 2, …).")
    if blank:
        report.append(
            f"Named {len(blank)} column(s) with an empty header: "
            f"{_quote_list([names[i] for i in blank])}."
        )
    return frame
