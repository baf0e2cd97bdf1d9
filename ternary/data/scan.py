"""Linear scans of a file's bytes that every loader runs before parsing.

The loaders' limits (rows, values, line length) must hold whatever the line
endings: pandas' parser and Python end a line at LF, at CRLF and at a lone CR,
so these count the same way. Each scan reads the bytes once or a few times with
byte searches or numpy in fixed-size blocks: time linear in the size, memory
bounded by the block.
"""

from __future__ import annotations

import numpy as np

from ._dataset import DataError

__all__ = [
    "MAX_LINE_BYTES",
    "SCAN_BLOCK",
    "check_line_lengths",
    "count_breaks",
    "count_rows",
    "line_of",
]

#: No line of a text file may be longer than this many bytes (1 MB): a longer line is
#: not a table row, and parsers spend time and memory on it before failing.
MAX_LINE_BYTES = 2**20
#: Bytes read at a time by the block scans, so they need little memory.
SCAN_BLOCK = 4 * 2**20


def count_breaks(data: bytes, start: int = 0) -> int:
    """The line breaks in ``data[start:]``: LF, CRLF (one break) and a lone CR.

    Parameters
    ----------
    data : bytes
        The file.
    start : int, default=0
        Where to start counting (a line start, never between a CR and its LF).

    Returns
    -------
    int
        The number of breaks; the lines are one more.

    Examples
    --------
    >>> count_breaks(b"a\\nb\\r\\nc\\rd")
    3
    """
    lf, cr = data.count(b"\n", start), data.count(b"\r", start)
    return lf + cr - data.count(b"\r\n", start) if cr else lf


def count_rows(data: bytes, start: int = 0, block_size: int = SCAN_BLOCK) -> int:
    """The lines of ``data[start:]`` that are not empty, whatever the line endings.

    A line starts after any break (LF, CR or CRLF); it is a row when it holds at
    least one byte. When no two breaks meet (CRLF is one), a few byte searches
    give the answer; otherwise a scan in blocks of ``block_size`` bytes.

    Parameters
    ----------
    data : bytes
        The file.
    start : int, default=0
        Where to start counting (a line start).
    block_size : int, default=SCAN_BLOCK
        Bytes per block of the scan.

    Returns
    -------
    int
        The number of non-empty lines.

    Examples
    --------
    >>> count_rows(b"a\\n\\nb\\r\\r\\nc\\r")
    3
    """
    if start >= len(data):
        return 0
    pairs = (b"\n\n", b"\r\r", b"\n\r") if data.find(b"\r", start) >= 0 else (b"\n\n",)
    if all(data.find(pair, start) < 0 for pair in pairs):
        # every line but an empty first or last one is a row
        empty_ends = (data[start] in b"\r\n") + (data[-1] in b"\r\n")
        return count_breaks(data, start) + 1 - empty_ends
    raw = np.frombuffer(data, dtype=np.uint8)[start:]
    rows, previous_break = 0, True
    for at in range(0, len(raw), block_size):
        block = raw[at : at + block_size]
        breaks = (block == 10) | (block == 13)
        starts = ~breaks
        starts[1:] &= breaks[:-1]
        starts[0] &= previous_break
        rows += int(np.count_nonzero(starts))
        previous_break = bool(breaks[-1])
    return rows


def check_line_lengths(
    data: bytes, max_line_bytes: int = MAX_LINE_BYTES, block_size: int = SCAN_BLOCK
) -> None:
    """Refuse, naming the line, a line longer than ``max_line_bytes``.

    Parameters
    ----------
    data : bytes
        The file.
    max_line_bytes : int, default=MAX_LINE_BYTES
        The longest line allowed, in bytes (without its line break).
    block_size : int, default=SCAN_BLOCK
        Bytes per block of the scan.

    Raises
    ------
    DataError
        Naming the first line that is too long (lines counted at LF, CRLF and CR).

    Examples
    --------
    >>> check_line_lengths(b"ab\\rcd", max_line_bytes=2)
    >>> check_line_lengths(b"ab\\rcde", max_line_bytes=2)
    Traceback (most recent call last):
    ...
    ternary.data._dataset.DataError: Line 2 is longer than ...
    """
    if len(data) <= max_line_bytes:
        return
    raw = np.frombuffer(data, dtype=np.uint8)
    last = -1  # position of the last line break seen
    for start in range(0, len(raw), block_size):
        block = raw[start : start + block_size]
        breaks = np.flatnonzero((block == 10) | (block == 13)) + start
        if len(breaks) == 0:
            if start + len(block) - last - 1 > max_line_bytes:
                _line_too_long(data, last + 1, max_line_bytes)
            continue
        gaps = np.diff(breaks, prepend=last) - 1
        over = np.flatnonzero(gaps > max_line_bytes)
        if len(over):
            k = int(over[0])
            _line_too_long(data, int(breaks[k] - gaps[k]), max_line_bytes)
        last = int(breaks[-1])
    if len(raw) - last - 1 > max_line_bytes:
        _line_too_long(data, last + 1, max_line_bytes)


def line_of(data: bytes, pos: int) -> int:
    """The 1-based line of byte ``pos``, counting every line ending (LF, CRLF, lone CR).

    Parameters
    ----------
    data : bytes
        The file.
    pos : int
        A byte position in it.

    Returns
    -------
    int

    Examples
    --------
    >>> line_of(b"a\\rb\\r\\nc", 5)
    3
    """
    return count_breaks(data[:pos]) + 1


def _line_too_long(data: bytes, start: int, limit: int) -> None:
    size = f"{limit / 2**20:.1f} MB" if limit >= 2**16 else f"{limit:,} bytes"
    raise DataError(
        f"Line {line_of(data, start)} is longer than {size} (the limit for one line), so "
        "it is not a table row. Check that the file has one row per line; very wide data "
        "needs fewer columns."
    )
