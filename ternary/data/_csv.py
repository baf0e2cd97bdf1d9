"""Delimited text files: :func:`load_csv` and :func:`read_csv_header`.

Both go through :func:`_open_csv`, so the column names a label picker offers are
the ones the loader will find: the same decoding, the same delimiter, the same
header parsing.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ._assemble import _assemble
from ._clean import (
    _check_cells,
    _check_names,
    _check_shape,
    _Options,
    _resolve_target,
    _to_float,
)
from ._columns import _GAP_MARKS, _MISSING_TOKENS
from ._dataset import DataError, Dataset, _quote_list, _shorten
from ._limits import LoadLimits, _reading_options, limits_of
from ._lines import _blank, record_lines
from ._source import (
    _MAX_LINE_BYTES,
    _check_line_lengths,
    _count_breaks,
    _count_rows,
    _decode,
    _read_source,
    _wide_codec,
)

# The gap marks in the exact spellings pandas should treat as missing while parsing,
# so numeric columns holding them still parse straight to float64. The marker words
# ("none", "nil", "missing") stay text: the cleaning decides per column whether
# they are a gap or a level (``_columns``).
_CSV_NA_VALUES = sorted({t for tok in _GAP_MARKS for t in (tok, tok.upper(), tok.capitalize())})
# pandas 3 parses floats exactly by default (and deprecates the argument); pandas 2 needs
# "round_trip", or a CSV loads back numbers one bit off the ones it holds.
_EXACT_FLOATS = {"float_precision": "round_trip"} if int(pd.__version__.split(".")[0]) < 3 else {}

_DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}
_CANDIDATES = (",", ";", "\t", "|")
# The delimiter is chosen from at most this many characters and lines at the start.
_SNIFF_CHARS = 65536
_SNIFF_LINES = 50
# The header and the first data row are read from at most this many characters.
_HEAD_CHARS = 4 * _MAX_LINE_BYTES
# Excel writes "sep=;" as the first line to declare the delimiter. A spreadsheet that
# reads it as a cell writes it back quoted or padded with the row's empty cells
# ("sep=;;;;"), and a hand edit may leave a space after it: the same declaration.
_SEP_LINE = re.compile(r"(\"?)sep=([^\r\n\"'])\1(?:\2)*[ \t]*", re.IGNORECASE)


def _sample_lines(text: str, limit: int = _SNIFF_LINES) -> list[str]:
    sample = text[:_SNIFF_CHARS]
    lines = [ln for ln in sample.splitlines() if ln.strip()]
    if len(text) > _SNIFF_CHARS and lines:
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
    """The candidate that splits the first lines most consistently, then into most fields.

    Fields are counted by the csv module's state machine, which honours quotes
    (``"height, cm";...`` has no comma field breaks) and reads each character once:
    the cost is linear in the bounded sample, whatever the quotes look like. (The
    csv module's Sniffer uses regular expressions that backtrack for seconds on
    some quote patterns, and is easily fooled by decimal commas.)
    """
    lines = _sample_lines(text)
    best, best_score = ",", (0.0, 0)
    for delim in _CANDIDATES:
        counts = _field_counts(lines, delim)
        score = (_consistency(counts), counts[0] if counts else 0)
        if score[0] > 0 and score > best_score:
            best, best_score = delim, score
    return best


def _declared_delimiter(text: str) -> str | None:
    """The delimiter of an Excel ``sep=;`` first line, or None when there is none."""
    first = text[:256].replace("\r", "\n").split("\n", 1)[0]
    found = _SEP_LINE.fullmatch(first)
    return found.group(2) if found else None


def _delimiter_name(delimiter: str) -> str:
    return _DELIMITER_NAMES.get(delimiter, repr(delimiter))


def _looks_like_index(values: pd.Series) -> bool:
    nums = pd.to_numeric(values, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    if len(nums) < 2 or np.isnan(nums).any():
        return False
    start = nums[0]
    return start in (0.0, 1.0) and np.array_equal(nums, start + np.arange(len(nums)))


@dataclass
class _CsvText:
    """A decoded CSV and what was learnt about it before parsing the data."""

    data: bytes  # the whole file, which pandas parses directly
    codec: str  # the encoding it was decoded with
    text: str  # the decoded start of the file, enough for the header and first row
    file_name: str | None
    delimiter: str
    skip: int  # lines before the header that are not data (an Excel "sep=" line)
    names: list[str]  # header names, blank ones replaced by column_<i>
    blank: list[int]  # positions whose header was empty
    first_row: tuple[int, list[str]]  # (line number, fields) of the first data row
    report: list[str]
    index_col: bool | None = None  # how pandas was told to treat a first column


def _open_csv(source: Any, opts: _Options) -> _CsvText:
    """Read, decode, find the delimiter and parse the header row of a CSV.

    Everything here costs time linear in the file size, and refuses what the
    parser would choke on (too many lines, a line too long, too many columns)
    before any parsing of the data rows.
    """
    data, file_name = _read_source(source, opts.max_bytes)
    _check_line_lengths(data)
    n_lines = _count_lines(data, opts.max_rows)
    if len(data) > _HEAD_CHARS:
        _check_width_early(data, n_lines, opts)
    # The whole file is checked to decode; only its start is kept as text (a blank
    # start of this length would be over the line limits already).
    text, encoding, codec = _decode(data, "CSV", keep=_HEAD_CHARS)
    if not text or text.isspace():
        raise DataError(
            "The file contains only blank lines. Upload a CSV with a header "
            "row and at least two rows of data."
        )
    delimiter, skip, how = _layout(text)
    report = [f"Read as {encoding}; {how}."]
    # The header and the first data row lie within the first lines, each at most
    # _MAX_LINE_BYTES long; the rest of the text is parsed by pandas from the bytes.
    text = text[:_HEAD_CHARS]
    header, first_row = _first_records(text, delimiter, skip)
    names = [h.strip() for h in header]
    blank = [i for i, n in enumerate(names) if not n]
    for i in blank:
        names[i] = f"column_{i + 1}"
    _check_shape(0, len(names), opts)
    _check_lines_and_cells(data, n_lines, skip, len(names), opts)
    _check_names(names)
    return _CsvText(data, codec, text, file_name, delimiter, skip, names, blank, first_row, report)


def _layout(text: str) -> tuple[str, int, str]:
    """The delimiter, the lines to skip before the header, and how the delimiter was found."""
    delimiter = _declared_delimiter(text)
    if delimiter is not None:
        name = _delimiter_name(delimiter)
        return delimiter, 1, f"{name}-separated, as its first line 'sep=' declares"
    delimiter = _sniff_delimiter(text)
    return delimiter, 0, f"{_delimiter_name(delimiter)}-separated"


def _check_width_early(data: bytes, n_lines: int, opts: _Options) -> None:
    """Refuse a large file over the column or value limits from its start alone.

    Decoding all of a large file costs time and memory; the header's width needs
    only its first lines, decoded provisionally (delimiters are ASCII, so the
    count of fields does not depend on which 8-bit encoding the file turns out to
    use). Anything this cannot read is left to the full path.
    """
    wide = _wide_codec(data)
    codec = wide[1] if wide else "utf-8-sig"
    prefix = data[: 4 * _HEAD_CHARS].decode(codec, errors="replace")
    delimiter, skip, _ = _layout(prefix)
    try:
        header, _ = _first_records(prefix[:_HEAD_CHARS], delimiter, skip)
    except DataError:
        return
    _check_shape(0, len(header), opts)
    _check_lines_and_cells(data, n_lines, skip, len(header), opts)


def _count_lines(data: bytes, max_rows: int) -> int:
    """The number of lines, at least; more than ``max_rows`` data rows is refused.

    Lines end where pandas' parser ends a row: at LF, CRLF or a lone CR, so a file
    with CR line endings meets the same limits as one with LF.
    """
    lines = _count_breaks(data) + 1
    if lines > max_rows + 3:
        lines = _non_blank_lines(data)
        if lines > max_rows + 3:
            raise DataError(
                f"The file has about {lines:,} lines; the limit is {max_rows:,} data rows. "
                "Use a random sample of the rows."
            )
    return lines


def _non_blank_lines(data: bytes) -> int:
    # Blank lines are not rows (pandas skips them). Finding them costs more than
    # counting line breaks, so this runs only when the plain count is over a limit.
    return _count_rows(data)


def _check_lines_and_cells(
    data: bytes, n_lines: int, skip: int, n_cols: int, opts: _Options
) -> None:
    if (n_lines - 1 - skip) * n_cols > opts.max_cells:
        _check_cells(_non_blank_lines(data) - 1 - skip, n_cols, opts)


def _first_records(text: str, delimiter: str, skip: int) -> tuple[list[str], tuple[int, list[str]]]:
    """The header record and the (line number, fields) of the first data record.

    Lines are split as pandas splits them (LF, CRLF or a lone CR: newline=None
    reads each as one line end), so the header found here is the one pandas uses.
    No field can be longer than a line, so the csv module's field limit is raised
    to the line limit while reading: any error left is a real one, and is reported.
    """
    limit = csv.field_size_limit(max(csv.field_size_limit(), _MAX_LINE_BYTES + 1))
    try:
        reader = csv.reader(io.StringIO(text, newline=None), delimiter=delimiter)
        try:
            for _ in range(skip):
                next(reader)
            header = next(r for r in reader if not _blank(r))
        except (csv.Error, StopIteration) as exc:
            raise DataError(
                f"Could not read the header row: {_shorten(exc)}. Make sure the first line "
                "holds the column names and that its quotes are balanced."
            ) from exc
        try:
            first = next((r for r in reader if not _blank(r)), [])
        except csv.Error as exc:
            raise DataError(
                f"Could not read the first data row (line {reader.line_num + 1}): "
                f"{_shorten(exc)}. Check that its quotes are balanced."
            ) from exc
    finally:
        csv.field_size_limit(limit)
    return header, (reader.line_num, first)


def read_csv_header(
    source: Any,
    target: str | int | None = None,
    *,
    missing: str = "impute",
    name: str | None = None,
    limits: LoadLimits | None = None,
    **options: Any,
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
    missing : {"impute", "drop", "keep"}, default="impute"
        As for :func:`load_csv`; accepted so one set of keyword arguments serves both
        calls (it does not change the header).
    name : str, optional
        As for :func:`load_csv`; accepted and ignored (it does not change the header).
    limits : LoadLimits, optional
        The size limits and reading choices (`LoadLimits`); the byte and column limits apply
        here too.
    **options
        Fields of `LoadLimits` one by one (``max_rows=...``, ``keep_columns=...``),
        overriding those of ``limits``.

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
    >>> read_csv_header(b'"height, cm";"weight, kg";label\\n181.2;75.3;tall\\n')
    ['height, cm', 'weight, kg', 'label']
    """
    del name  # accepted for symmetry with load_csv; it does not affect the header
    opts = _reading_options(missing, limits_of(limits, options, "read_csv_header"))
    names = _open_csv(source, opts).names
    if target is not None:
        _resolve_target(names, target)
    return names


def load_csv(
    source: Any,
    target: str | int | None = None,
    *,
    missing: str = "impute",
    name: str | None = None,
    limits: LoadLimits | None = None,
    **options: Any,
) -> Dataset:
    """Load a delimited text file (CSV, semicolon- or tab-separated) as a Dataset.

    How cells are read (each rule is stated in the report where it applies): the
    marks ``""``, ``?``, ``NA``, ``N/A``, ``NaN``, ``null``, ``#N/A`` are gaps, and the
    words ``none``, ``nil``, ``missing`` too, except in a text column where such a
    word fills at least 2 % of the rows: there it is a category. The report names
    the texts read as gaps per column, with counts. A text column whose values all
    read as dates (ISO, day-first or month-first where the column settles which,
    month names) becomes days since 1970-01-01, counted from the calendar for the
    years 0001 to 9999; a date tables write for "no date" (9999-12-31, 1900-01-01,
    1970-01-01...) that fills at least 2 % of the column is named in the report, is a
    gap in the days and gets a 0/1 column ``name=9999-12-31``. An integer column of all-different
    values named like an identifier (``id``, ``*_id``, ``key``, ``uuid``) is set aside,
    like a text column of nearly all-different values.

    Parameters
    ----------
    source : str, pathlib.Path, bytes or file-like
        A path, the raw bytes, or an uploaded file object (anything with
        ``getvalue()`` or ``read()``). The object is not consumed: its position
        is restored and its bytes are not modified.
    target : str or int, optional
        Name (or position) of the label column; default the last column.
    missing : {"impute", "drop", "keep"}, default="impute"
        Fill missing feature values (numeric: column median, plus a 0/1 column
        ``name=(missing)`` where at least 5 % of the rows are gaps; text: a level of
        its own, ``(missing)``; more than 20 % imputed adds a line beginning
        "Warning:", listed in ``Dataset.warnings``), drop the rows that have them,
        or keep them as NaN in ``X`` (in
        every column a text value becomes) so that cross-validation can impute
        inside each training fold. Rows with a missing target are always dropped.
    name : str, optional
        Dataset name; default the file name without its extension.
    limits : LoadLimits, optional
        The size limits (rows, columns, values, bytes, classes; larger inputs raise
        :class:`DataError`, checked before the data rows are parsed, as is a line
        longer than 1 MB) and reading choices (ordinal encoding, letter case,
        identifier-like columns kept) as a `LoadLimits`; default ``LoadLimits()``.
    **options
        Fields of `LoadLimits` one by one (``max_rows=...``, ``keep_columns=...``),
        overriding those of ``limits``.

    Returns
    -------
    Dataset
        ``source`` is "csv"; ``report`` says what was detected and changed.

    Raises
    ------
    DataError
        For every problem with the input, with a message that says what to do.
    """
    opts = _reading_options(missing, limits_of(limits, options, "load_csv"))
    return _load_opened(_open_csv(source, opts), target, opts, name)


def _load_opened(
    head: _CsvText, target: str | int | None, opts: _Options, name: str | None
) -> Dataset:
    """`load_csv` after the header: parse the rows and clean them into a Dataset."""
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
    frame = _parse_rows(head, target_name, opts)
    parsed_gaps = _gap_spellings(head, frame, target_name)
    lines = record_lines(head.data, head.codec, head.delimiter, head.skip, len(frame))
    head.data = b""  # the parsed table replaces the bytes: let them go before cleaning
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
        parsed_gaps=parsed_gaps,
        lines=lines,
        delimiter=head.delimiter,
    )


def _gap_spellings(head: _CsvText, frame: pd.DataFrame, target_name: str) -> dict:
    """``{column: {text: cells}}`` of the cells the parser read as gaps ("" an empty cell).

    Only the feature columns with a gap are read a second time, as text, so a file
    without gaps costs nothing more; the report names the markers per column.
    """
    gappy = [c for c in frame.columns if c != target_name and frame[c].isna().any()]
    if not gappy:
        return {}
    try:
        cells = _read_frame(head, target_name, head.index_col, usecols=gappy, as_text=True)
    except DataError:
        return {}
    if len(cells) != len(frame):
        return {}
    out = {}
    for c in gappy:
        marked = cells[c].to_numpy(dtype=object)[frame[c].isna().to_numpy()]
        counts = pd.Series(marked).str.strip().value_counts()
        out[c] = {str(k): int(v) for k, v in counts.items()}
    return out


def _parse_rows(head: _CsvText, target_name: str, opts: _Options) -> pd.DataFrame:
    """Parse the data rows with pandas' C parser; the target stays text."""
    _check_first_row(head, opts)
    frame = _read_frame(head, target_name, index_col=None)
    line, first = head.first_row
    fields = len(first)
    n_extra = fields - len(head.names)
    if n_extra > 0:
        # When the first data row is longer than the header, pandas takes its first
        # fields as a row index and shifts every column; only empty trailing fields
        # (a delimiter at the end of each row) can be dropped without guessing
        # which field has no name.
        extra = frame[head.names[-n_extra:]]
        if not extra.isna().all().all():
            raise DataError(
                f"Line {line} has {fields} fields but the header names only "
                f"{len(head.names)} columns, so the values cannot be matched to their "
                "columns. Add the missing column name(s) to the header, or remove the "
                "extra field from the rows."
            )
        frame = _read_frame(head, target_name, index_col=False)
        head.index_col = False
        head.report.append(
            "Ignored an empty field at the end of each data row (a delimiter after the last value)."
        )
    if len(frame) == 0:
        raise DataError(
            "The file has a header row but no data rows. Add at least two rows "
            "of data below the header."
        )
    return frame


def _check_first_row(head: _CsvText, opts: _Options) -> None:
    """Refuse a first data row longer than the header unless its extra fields are empty.

    pandas would take the extra fields as a row index and build it in full before
    any check could run (a 1 MB row of 500,000 fields: minutes); the row was
    already split by the csv module, so this costs nothing.
    """
    line, first = head.first_row
    n_names = len(head.names)
    if len(first) <= n_names:
        return
    filled = any(v.strip() for v in first[n_names:])
    if filled or len(first) > opts.max_columns:
        raise DataError(
            f"Line {line} has {len(first):,} fields but the header names only "
            f"{n_names:,} columns, so the values cannot be matched to their "
            "columns. Add the missing column name(s) to the header, or remove the "
            "extra field(s) from the rows."
        )


def _read_frame(
    head: _CsvText, target_name: str, index_col: bool | None, usecols=None, as_text=False
) -> pd.DataFrame:
    """The data rows; ``as_text`` keeps every cell as the text written (no gaps, no spaces cut)."""
    if as_text:
        cells = {"dtype": str, "na_filter": False, "skipinitialspace": False}
    else:
        cells = {
            "dtype": {target_name: str},
            "na_values": _CSV_NA_VALUES,
            "skipinitialspace": True,
            **_EXACT_FLOATS,
        }
    try:
        return pd.read_csv(
            # Bytes, not the decoded text: io.StringIO would hold four bytes per character.
            io.BytesIO(head.data),
            encoding=head.codec,
            sep=head.delimiter,
            header=0,
            skiprows=head.skip,
            names=head.names,
            index_col=index_col,
            usecols=usecols,
            keep_default_na=False,
            skip_blank_lines=True,
            low_memory=False,
            engine="c",
            **cells,
        )
    except pd.errors.EmptyDataError as exc:
        raise DataError(
            "The file has no data. Upload a CSV with a header row and at least two rows of data."
        ) from exc
    except (pd.errors.ParserError, ValueError, csv.Error) as exc:
        raise DataError(
            f"Could not parse the file as {_delimiter_name(head.delimiter)}-separated values: "
            f"{_shorten(str(exc).strip())}. Check that every row has the same number of "
            "fields as the header and that quotes are balanced."
        ) from exc


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
