"""The file line each data row starts on, counted as the loaders read the file.

A person fixing a row needs its line in the file, not its position among the rows.
The CSV loader's parser (pandas) does not say where a row starts, so the records are
walked once more here with the loader's own delimiter and header rules: an Excel
``sep=`` line skipped, whitespace-only lines skipped as pandas skips them, a quoted
field spanning lines counted as one record. Lines end at LF, CRLF or a lone CR, as
the parser ends them. The count is only trusted when it agrees with the rows the
parser found; otherwise the loader records no lines.
"""

from __future__ import annotations

import csv
import io

import numpy as np


def _blank(record: list[str]) -> bool:
    # pandas skips a line holding only spaces and tabs, not one holding delimiters
    return not record or (len(record) == 1 and not record[0].strip(" \t"))


# Codecs in which every ASCII byte stands for its ASCII character (no UTF-16/32).
_ASCII_CODECS = frozenset({"utf-8", "utf-8-sig", "cp1252", "latin-1"})


def _line_bounds(data: bytes) -> tuple[np.ndarray, np.ndarray]:
    """``(starts, ends)`` byte offsets of every line: LF, CRLF or a lone CR ends one."""
    arr = np.frombuffer(data, dtype=np.uint8)
    lone_cr = arr[:-1] == 13
    lone_cr &= arr[1:] != 10
    breaks = np.flatnonzero(arr == 10)
    if lone_cr.any() or (len(arr) and arr[-1] == 13):
        cr = np.flatnonzero(lone_cr)
        if len(arr) and arr[-1] == 13:
            cr = np.append(cr, len(arr) - 1)
        breaks = np.union1d(breaks, cr)
    starts = np.concatenate(([0], breaks + 1))
    ends = np.concatenate((breaks, [len(arr)]))
    return starts, ends


def _byte_record_lines(data: bytes, skip: int, delimiter: str = ",") -> np.ndarray:
    """The data lines of a CSV without a double quote: every record is one line."""
    starts, ends = _line_bounds(data)
    # pandas skips a line of spaces and tabs unless it holds the delimiter: in a
    # tab-separated file a line of tabs (a spreadsheet's empty row) is a record
    spaces = b" \t\r".replace(delimiter.encode(), b"")
    content = ends > starts
    first_byte = np.frombuffer(data, dtype=np.uint8)[np.minimum(starts, len(data) - 1)]
    # a line opening with a space or tab may hold nothing else (pandas skips it); such
    # lines are few, so only they are looked at one by one
    opens_blank = np.flatnonzero(content & np.isin(first_byte, (9, 13, 32)))
    for i in opens_blank:
        content[i] = bool(data[starts[i] : ends[i]].strip(spaces))
    content[:skip] = False
    numbers = np.flatnonzero(content) + 1
    return numbers[1:]  # the first is the header


def record_lines(
    data: bytes, codec: str, delimiter: str, skip: int, n_rows: int
) -> np.ndarray | None:
    """The 1-based line on which each data record of a CSV file starts, or None.

    Without a double quote in the file every record is one line, and the lines are
    found on the bytes; otherwise the records are walked by `csv_record_lines`.
    """
    if codec in _ASCII_CODECS and data.find(b'"') < 0:
        found = _byte_record_lines(data, skip, delimiter)
        return found if len(found) == n_rows else None
    return csv_record_lines(data.decode(codec), delimiter, skip, n_rows)


def csv_record_lines(text: str, delimiter: str, skip: int, n_rows: int) -> np.ndarray | None:
    """The 1-based line on which each data record of a CSV text starts, or None.

    ``skip`` lines come before the header (an Excel ``sep=`` line); the header is the
    first record after them that is not blank. None when the records found are not
    ``n_rows`` (the parser saw the file otherwise) or the text does not read as CSV.
    """
    reader = csv.reader(io.StringIO(text, newline=None), delimiter=delimiter, skipinitialspace=True)
    starts: list[int] = []
    seen_header = False
    limit = csv.field_size_limit()
    csv.field_size_limit(max(limit, len(text) + 1))  # the loader bounded the lines already
    try:
        for _ in range(skip):
            next(reader, None)
        previous = reader.line_num
        for record in reader:
            begin, previous = previous + 1, reader.line_num
            if _blank(record):
                continue
            if seen_header:
                starts.append(begin)
            seen_header = True
    except csv.Error:
        return None
    finally:
        csv.field_size_limit(limit)
    if len(starts) != n_rows:
        return None
    return np.asarray(starts, dtype=np.int64)


def arff_record_lines(text: str, n_rows: int) -> np.ndarray | None:
    """The 1-based line of each data row of an ARFF text (after ``@data``; blank and
    ``%`` comment lines are no rows), or None when they are not ``n_rows``."""
    starts: list[int] = []
    in_data = False
    for number, line in enumerate(io.StringIO(text, newline=None), start=1):
        stripped = line.strip()
        if not in_data:
            in_data = stripped.lower().startswith("@data")
            continue
        if stripped and not stripped.startswith("%"):
            starts.append(number)
    if not in_data or len(starts) != n_rows:
        return None
    return np.asarray(starts, dtype=np.int64)
