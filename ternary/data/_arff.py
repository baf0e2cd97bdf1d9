"""Weka ARFF files: :func:`load_arff`, liac-arff first and a tolerant parser after it, and
:func:`read_arff_header` for the names it gives the columns."""

from __future__ import annotations

import io
import re
import warnings
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
)
from ._csv import _EXACT_FLOATS
from ._dataset import DataError, Dataset, _quoted, _shorten
from ._limits import LoadLimits, _reading_options, limits_of
from ._lines import arff_record_lines
from ._source import (
    _check_line_lengths,
    _count_breaks,
    _count_rows,
    _decode,
    _read_source,
)

# ARFF files that need liac-arff or the tolerant parser (pure Python, slow) are
# refused beyond this many values, or beyond this size when the header cannot tell.
_MAX_SLOW_VALUES = 500_000
_MAX_SLOW_BYTES = 8 * 2**20
# Files up to this size are decoded to text whole at once; larger ones block by block.
_FULL_TEXT_BYTES = 32 * 2**20
# An extra column name for the pandas path: anything in it means a row was too long.
_EXTRA = "\x00extra"
# Where the data section starts; [ \t]* rather than \s* so the search cannot run
# across lines and backtrack over them.
# A line starts after LF or a lone CR (MULTILINE's ^ knows only LF).
_DATA_MARKER = re.compile(rb"(?:^|(?<=\r))[ \t]*@data", re.IGNORECASE | re.MULTILINE)
# The same in decoded text, with the rest of its line (a character class: linear).
_TEXT_DATA_LINE = re.compile(r"(?:^|(?<=\r))[ \t]*@data[^\r\n]*", re.IGNORECASE | re.MULTILINE)


@dataclass
class _Attribute:
    name: str
    kind: str  # "numeric", "nominal", "string" or "date"
    levels: list[str] | None = None
    integer: bool = False  # declared INTEGER, which liac-arff truncates to whole numbers


_MISSING = object()  # an unquoted '?' in the tolerant parser


def _split_arff(line: str) -> list[Any]:
    """Split a comma-separated ARFF line; '?' unquoted becomes ``_MISSING``.

    One pass over the characters: whether the current field holds text yet is
    tracked as a flag rather than re-joined at every quote, so the time stays
    linear even on a line full of quote characters.
    """
    if "'" not in line and '"' not in line:
        out: list[Any] = []
        for v in line.split(","):
            v = v.strip()
            out.append(_MISSING if v == "?" else v)
        return out
    fields: list[Any] = []
    buf: list[str] = []
    has_text = False  # the same as "".join(buf).strip() != ""
    quote: str | None = None
    quoted = False
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        if quote:
            if ch == "\\" and i + 1 < n:
                i += 1
                buf.append(line[i])
                has_text = has_text or not line[i].isspace()
            elif ch == quote:
                quote = None
            else:
                buf.append(ch)
                has_text = has_text or not ch.isspace()
        elif ch in "'\"" and not has_text:
            quote, quoted, buf = ch, True, []
        elif ch == ",":
            v = "".join(buf) if quoted else "".join(buf).strip()
            fields.append(_MISSING if (v == "?" and not quoted) else v)
            buf, quoted, has_text = [], False, False
        elif not (quoted and ch.isspace()):
            buf.append(ch)
            has_text = has_text or not ch.isspace()
        i += 1
    if quote:
        raise ValueError("a quoted value is not closed")
    v = "".join(buf) if quoted else "".join(buf).strip()
    fields.append(_MISSING if (v == "?" and not quoted) else v)
    return fields


def _split_name(rest: str) -> tuple[str, str]:
    rest = rest.strip()
    if rest[:1] in ("'", '"'):
        end = rest.find(rest[0], 1)
        if end < 0:
            raise ValueError("an attribute name's quote is not closed")
        return rest[1:end], rest[end + 1 :]
    parts = rest.split(None, 1)
    if len(parts) < 2:
        raise ValueError("an attribute has no type")
    # Names may run into a nominal list without a space: name{a,b}.
    if "{" in parts[0]:
        k = rest.index("{")
        return rest[:k], rest[k:]
    return parts[0], parts[1]


def _parse_arff_tolerant(text: str) -> tuple[str, list[_Attribute], list[list[Any]]]:
    """A forgiving ARFF reader for files that liac-arff rejects.

    Every problem is a :class:`DataError` naming the line; user text quoted in a
    message is cut short.
    """
    relation = ""
    attrs: list[_Attribute] = []
    rows: list[list[Any]] = []
    in_data = False
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        try:
            if in_data:
                rows.append(_data_row(line, attrs))
                continue
            low = line.lower()
            if low.startswith("@relation"):
                relation = line[len("@relation") :].strip().strip("'\"")
            elif low.startswith("@attribute"):
                attrs.append(_attribute(line[len("@attribute") :], lineno))
            elif low.startswith("@data"):
                if not attrs:
                    raise ValueError("@data comes before any @attribute")
                in_data = True
            elif not low.startswith("@end"):
                raise DataError(
                    f"Line {lineno}: expected @relation, @attribute or @data but found "
                    f"{_quoted(line, 40)}, so this does not look like an ARFF file. If it "
                    "holds comma-separated values, load it as CSV (a .csv file name)."
                )
        except DataError:
            raise
        except ValueError as exc:
            raise DataError(
                f"Line {lineno} of the ARFF file: {_shorten(exc)}. Fix that line, or "
                "export the file again from Weka or OpenML."
            ) from exc
    if not attrs:
        raise DataError(
            "No @attribute lines were found, so this is not an ARFF file. "
            "Upload an ARFF file (or use a .csv name for CSV data)."
        )
    if not in_data:
        raise DataError(
            "The ARFF file has no @data section. Add '@data' followed by the data rows."
        )
    return relation, attrs, rows


def _attribute(text: str, lineno: int) -> _Attribute:
    """One ``@attribute`` declaration (the text after the keyword)."""
    name, rest = _split_name(text)
    rest = rest.strip()
    if rest.startswith("{"):
        close = rest.rfind("}")
        if close < 0:
            raise ValueError("a nominal value list has no closing '}'")
        inner = rest[1:close].strip()
        levels = [str(v) for v in _split_arff(inner) if v is not _MISSING]
        return _Attribute(name, "nominal", levels if inner else [])
    kind = rest.split()[0].lower() if rest.split() else ""
    if kind in ("numeric", "real", "integer"):
        return _Attribute(name, "numeric", integer=kind == "integer")
    if kind in ("string", "date"):
        return _Attribute(name, kind)
    if kind == "relational":
        raise DataError(
            f"Line {lineno}: relational attribute {_quoted(name)} is not "
            "supported. Flatten the file into one row per instance."
        )
    raise ValueError(f"unknown attribute type {_quoted(rest)}")


def _data_row(line: str, attrs: list[_Attribute]) -> list[Any]:
    if line.startswith("{"):
        return _sparse_row(line, attrs)
    values = _split_arff(line)
    # A trailing "{weight}" is Weka's instance weight, not data.
    if len(values) == len(attrs) + 1 and str(values[-1]).startswith("{"):
        values = values[:-1]
    if len(values) != len(attrs):
        raise ValueError(f"the row has {len(values)} values but there are {len(attrs)} attributes")
    return [None if v is _MISSING else v for v in values]


def _sparse_row(line: str, attrs: list[_Attribute]) -> list[Any]:
    close = line.find("}")
    if close < 0:
        # Without its closing brace the last value cannot be told from a cut line.
        raise ValueError("a sparse row starts with '{' but is not closed with '}'")
    rest = line[close + 1 :].strip()
    # After the row only Weka's instance weight may follow: ", {2.5}".
    if rest and not (rest.startswith(",") and rest[1:].strip().startswith("{")):
        raise ValueError(f"unexpected text {_quoted(rest, 40)} after the sparse row's '}}'")
    # Omitted values in sparse ARFF are 0, i.e. the first level of a nominal.
    row: list[Any] = [a.levels[0] if a.kind == "nominal" and a.levels else "0" for a in attrs]
    for item in line[1:close].split(","):
        item = item.strip()
        if not item:
            continue
        idx_text, _, value = item.partition(" ")
        try:
            idx = int(idx_text)
        except ValueError:
            raise ValueError(f"sparse index {_quoted(idx_text, 40)} is not a number") from None
        if not 0 <= idx < len(attrs):
            raise ValueError(f"sparse index {idx} is out of range")
        value = value.strip().strip("'\"")
        row[idx] = None if value == "?" else value
    return row


def _liac_message(exc: BaseException) -> str:
    """liac-arff's message for ``exc``, without running its ``%`` formatting.

    liac's exceptions build their text as ``message % line``, where ``message``
    already quotes the offending value: a value such as ``50%`` makes ``str(exc)``
    raise, and one such as ``%999999999d`` would build a gigabyte string. The line
    number goes in by plain replacement instead: liac's own placeholder always
    follows the word "line".
    """
    message = getattr(exc, "message", None)
    if isinstance(message, str):
        text = message.replace("line %d", f"line {getattr(exc, 'line', '?')}")
        if type(exc).__name__ == "BadLayout":
            text = text.replace("%%", "%")  # liac escapes the quoted text of this one only
    else:
        try:
            text = str(exc)
        except Exception:  # noqa: BLE001 - a broken __str__ must not hide the real problem
            text = "no message"
    return f"{type(exc).__name__}: {_shorten(text, 120)}"


def _check_data_lines(data: bytes, max_rows: int) -> None:
    """Refuse, before parsing, a file with more lines after ``@data`` than allowed rows."""
    marker = _DATA_MARKER.search(data)
    if marker is None:
        return  # the parsers say what is missing
    start = marker.end()
    lines = _count_breaks(data, start)
    if lines > max_rows + 1:
        lines = _count_rows(data, start)  # blank lines are not rows
    if lines > max_rows + 1:
        raise DataError(
            f"The file has about {lines} lines of data; the limit is {max_rows} rows. "
            "Use a random sample of the rows."
        )


def _liac_input(text: str) -> tuple[str, list[_Attribute], str] | None:
    """(relation, attributes, text for liac-arff): the header rewritten in a plain form.

    liac-arff's pattern for a nominal type backtracks exponentially in the number
    of levels when anything follows the closing brace (``{v0,...,v25} % note``: 20 s,
    doubling per level). So liac-arff never sees the header as written: this
    module's own parser (linear) reads it, and it is written back one declaration
    per line, every name and level quoted and nothing after the brace, which the
    pattern matches at its first try; the data section follows unchanged. None
    when this module's parser cannot read the header or it declares a date (which
    liac-arff does not read): liac-arff is then not asked.
    """
    marker = _TEXT_DATA_LINE.search(text)
    if marker is None:
        return None
    try:
        relation, attrs, _ = _parse_arff_tolerant(text[: marker.start()] + "@data\n")
    except DataError:
        return None
    if any(a.kind == "date" for a in attrs):
        return None
    lines = [f"@relation {_liac_quote(relation or 'data')}"]
    for a in attrs:
        if a.kind == "nominal":
            kind = "{" + ",".join(_liac_quote(v) for v in a.levels or []) + "}"
        else:
            kind = "string" if a.kind == "string" else "integer" if a.integer else "numeric"
        lines.append(f"@attribute {_liac_quote(a.name)} {kind}")
    # liac-arff ends lines at LF only; the other parsers also at a lone CR.
    body = text[marker.end() :].replace("\r\n", "\n").replace("\r", "\n")
    return relation, attrs, "\n".join(lines) + "\n@data" + body


def _liac_quote(value: str) -> str:
    """``value`` in single quotes, escaped the way liac-arff unescapes it."""
    escaped = value.replace("\\", "\\\\").replace("'", "\\'")
    return f"'{escaped}'"


def _check_data_cells(data: bytes, offset: int, n_cols: int, opts: _Options) -> None:
    """Refuse more data values than allowed, lines counted at every kind of line end."""
    rows = _count_breaks(data, offset) + 1
    if rows * n_cols > opts.max_cells:
        rows = _count_rows(data, offset)
    _check_cells(rows, n_cols, opts)


def _parse_arff_liac(text: str) -> tuple[str, list[_Attribute], list[list[Any]]]:
    import arff  # liac-arff

    prepared = _liac_input(text)
    if prepared is None:
        raise ValueError("not used: the header needs the tolerant parser")
    relation, attrs, plain = prepared
    obj = arff.loads(plain)
    return relation, attrs, list(obj["data"])


def load_arff(
    source: Any,
    target: str | int | None = None,
    *,
    missing: str = "impute",
    name: str | None = None,
    limits: LoadLimits | None = None,
    **options: Any,
) -> Dataset:
    """Load a Weka ARFF file as a Dataset.

    A plain dense data section (single quotes and comment lines allowed) is
    parsed by pandas' C parser, with the same result liac-arff gives; other files
    are read with liac-arff, and files it rejects (tab-separated headers, nominal
    lists with spaces such as ``{ C , H , G }``, padded values, values outside the
    declared list) by a tolerant parser of this module. Files that need those two
    pure-Python parsers are refused beyond 500,000 values. Nominal attributes
    are encoded like CSV text columns (ordinal codes follow the declared level
    order); nominal attributes whose levels are all numbers become numeric; date
    attributes become seconds since 1970.

    Parameters
    ----------
    source : str, pathlib.Path, bytes or file-like
        As for :func:`load_csv`.
    target : str or int, optional
        Name (or position) of the class attribute; default the last attribute.
    missing : {"impute", "drop", "keep"}, default="impute"
        How rows with missing feature values are treated, as for :func:`load_csv`;
        ARFF's ``?`` marks a missing value.
    name : str, optional
        Dataset name; default the file name without its extension, then the
        ``@relation``.
    limits : LoadLimits, optional
        The size limits and reading choices, as for :func:`load_csv`; larger inputs
        raise :class:`DataError`. Declared nominal levels are never merged, and only
        ``?`` marks a gap in an ARFF file (a declared level such as ``none`` is a level).
    **options
        Fields of `LoadLimits` one by one (``max_rows=...``, ``keep_columns=...``),
        overriding those of ``limits``.

    Returns
    -------
    Dataset
        ``source`` is "arff".

    Raises
    ------
    DataError
        For every problem with the input.
    """
    opts = _reading_options(missing, limits_of(limits, options, "load_arff"))
    data, file_name, text, encoding, codec = _checked_text(source, opts)
    report = [f"Read as {encoding}."]
    relation, table, nominal_levels = _parse_arff(data, text, codec, opts, report)
    stem = Path(file_name).stem if file_name else (relation or "uploaded data")
    full = text if len(data) <= _FULL_TEXT_BYTES else data.decode(codec)
    return _assemble(
        table,
        target,
        opts=opts,
        name=name or stem,
        source="arff",
        report=report,
        nominal_levels=nominal_levels,
        lines=arff_record_lines(full, len(table)),
        delimiter=",",
    )


def _checked_text(source: Any, opts: _Options) -> tuple[bytes, str | None, str, str, str]:
    """``(bytes, file name, text, encoding description, codec)`` of an ARFF source.

    Everything refused before the attributes are parsed is refused here: the size,
    a line too long, too many data lines or values, an undecodable or blank file.
    """
    data, file_name = _read_source(source, opts.max_bytes)
    _check_line_lengths(data)
    _check_data_lines(data, opts.max_rows)
    # The header alone (decoded provisionally) bounds the values before all is decoded.
    head = _arff_head(data, "utf-8-sig", errors="replace")
    if head is not None:
        _check_data_cells(data, head[2], len(head[1]), opts)
    # A large file is checked to decode whole but kept as text only in part: the pandas
    # path reads the bytes, and the full parsers decode it again if they need it.
    keep = None if len(data) <= _FULL_TEXT_BYTES else _FULL_TEXT_BYTES
    text, encoding, codec = _decode(data, "ARFF", keep=keep)
    if not text or text.isspace():
        raise DataError(
            "The file contains only blank lines. Upload an ARFF file with "
            "@attribute lines and a @data section."
        )
    return data, file_name, text, encoding, codec


def read_arff_header(
    source: Any,
    target: str | int | None = None,
    *,
    missing: str = "impute",
    name: str | None = None,
    limits: LoadLimits | None = None,
    **options: Any,
) -> list[str]:
    """The attribute names of an ARFF file, exactly as :func:`load_arff` names its columns.

    The same decoding and the same header parsing are used: a header the quick
    header reader understands is read alone, without the data rows; any other
    (UTF-16, or a declaration only liac-arff reads) goes through the same full
    parsers :func:`load_arff` falls back on, so the names still agree.

    Parameters
    ----------
    source : str, pathlib.Path, bytes or file-like
        As for :func:`load_arff`; an upload is not consumed.
    target : str or int, optional
        When given, checked against the names (a :class:`DataError` lists them
        if it is not there).
    missing : {"impute", "drop", "keep"}, default="impute"
        As for :func:`load_arff`; accepted so one set of keyword arguments serves both
        calls (it does not change the names).
    name : str, optional
        As for :func:`load_arff`; accepted and ignored (it does not change the names).
    limits : LoadLimits, optional
        As for :func:`load_arff`; the size, line, row, column and value limits apply
        here too (``max_classes`` and ``ordinal_threshold`` do not change the names).
    **options
        Fields of `LoadLimits` one by one (``max_rows=...``), overriding ``limits``'s.

    Returns
    -------
    list of str
        Attribute names in file order (quotes removed, surrounding spaces stripped),
        the class attribute included. Nominal attributes keep their own name here;
        the loaded ``X`` may hold them one-hot encoded as ``name=level`` columns.

    Raises
    ------
    DataError
        For everything :func:`load_arff` would refuse on the header, and for
        duplicate names.

    Examples
    --------
    >>> read_arff_header(b"@relation r\\n@attribute 'x 1' numeric\\n@attribute c {a,b}\\n@data\\n")
    ['x 1', 'c']
    """
    del name  # accepted for symmetry with load_arff; it does not affect the names
    opts = _reading_options(missing, limits_of(limits, options, "read_arff_header"))
    data, _, text, _, codec = _checked_text(source, opts)
    head = _arff_head(data, codec)
    if head is not None:
        names = [a.name.strip() for a in head[1]]
        _check_shape(0, len(names), opts)
        _check_names(names)
    else:
        names = [str(c) for c in _parse_arff(data, text, codec, opts, [])[1].columns]
    if target is not None:
        _resolve_target(names, target)
    return names


def _parse_arff(
    data: bytes, text: str, codec: str, opts: _Options, report: list[str], *, fast: bool = True
) -> tuple[str, pd.DataFrame, dict[str, list[str]]]:
    """The relation name, the typed table and the nominal levels of an ARFF file.

    A dense data section without quotes, comments or braces is parsed by pandas'
    C parser (``fast``); everything else by liac-arff, then the tolerant parser.
    Limits on columns and values are checked on the header, before the data.
    """
    head = _arff_head(data, codec)
    if head is not None:
        relation, attrs, offset = head
        names = [a.name.strip() for a in attrs]
        _check_shape(0, len(names), opts)
        _check_data_cells(data, offset, len(names), opts)
        _check_names(names)
        table = _read_dense(data, offset, codec, attrs, names) if fast else None
        if table is not None:
            _check_shape(len(table), len(names), opts)
            report.append("Parsed the plain data section with pandas' C parser.")
            report.append(f"Found {len(table)} rows and {len(names)} attributes.")
            return relation, *_typed_columns(attrs, names, table, report)
    if fast:  # without the shortcut (a comparison in the tests) every size is parsed
        values = _count_breaks(data, head[2]) * len(head[1]) if head is not None else None
        _check_slow_budget(values, len(data))
    if len(data) > _FULL_TEXT_BYTES:
        text = data.decode(codec)  # known to decode: _decode checked the whole file
    try:
        relation, attrs, rows = _parse_arff_liac(text)
        report.append("Parsed with liac-arff.")
    except ImportError:  # liac-arff not installed: no fault of the file
        from ternary._optional import missing_message

        note = missing_message("arff", "Reading this kind of ARFF file")
        try:
            relation, attrs, rows = _parse_arff_tolerant(text)
        except DataError as exc:
            raise DataError(f"{exc} ({note})") from exc
        report.append(f"Read with the tolerant ARFF parser: {note}")
    except Exception as liac_exc:  # noqa: BLE001 - liac raises many unrelated types
        liac_text = _liac_message(liac_exc)
        try:
            relation, attrs, rows = _parse_arff_tolerant(text)
        except DataError as exc:
            raise DataError(f"{exc} (liac-arff also failed: {liac_text})") from exc
        report.append(
            f"liac-arff could not read the file ({liac_text}); used the tolerant ARFF "
            "parser instead."
        )
    names = [a.name.strip() for a in attrs]
    _check_names(names)
    _check_shape(len(rows), len(names), opts)
    if not rows:
        raise DataError(
            "The ARFF file has no data rows after @data. Add at least two rows of data."
        )
    report.append(f"Found {len(rows)} rows and {len(names)} attributes.")
    return relation, *_typed_table(attrs, names, rows, report)


def _check_slow_budget(values: int | None, size: int) -> None:
    """Refuse a file too big for the pure-Python parsers (a few hundred thousand values/s)."""
    if values is not None and values <= _MAX_SLOW_VALUES:
        return
    if values is None and size <= _MAX_SLOW_BYTES:
        return
    amount = f"about {values:,} values" if values is not None else f"{size / 2**20:.1f} MB"
    raise DataError(
        f"This ARFF file has {amount}. Its data section has double quotes, backslash "
        "escapes, sparse rows or comments inside lines, which only the slower full ARFF "
        f"parsers read, and they take at most {_MAX_SLOW_VALUES:,} values. Save it "
        "again without those (Weka and OpenML write plain files), or as CSV."
    )


def _arff_head(
    data: bytes, codec: str, errors: str = "strict"
) -> tuple[str, list[_Attribute], int] | None:
    """(relation, attributes, offset of the first data line) from the header alone.

    None when the header cannot be read this way (UTF-16, no @data line, or a
    declaration only liac-arff understands): the full parsers then decide.
    """
    marker = _DATA_MARKER.search(data)
    if marker is None or codec in ("utf-16", "utf-32"):
        return None
    ends = [k for k in (data.find(b"\n", marker.end()), data.find(b"\r", marker.end())) if k >= 0]
    offset = min(ends) + 1 if ends else len(data)
    try:
        header = data[: marker.start()].decode(codec, errors=errors)
        relation, attrs, _ = _parse_arff_tolerant(header + "@data\n")
    except (DataError, UnicodeDecodeError):
        return None
    return relation, attrs, offset


def _plain_section(data: bytes, offset: int) -> bool:
    """Whether pandas reads the data section exactly as liac-arff would.

    Single quotes are fine; double quotes, backslash escapes, doubled quotes, a
    quoted '?' (a value, not a missing one), sparse rows, a comma ending a line and
    a '%' anywhere but at the start of a line (a comment) are left to the full
    parsers.
    """
    for token in (b'"', b"\\", b"''", b"'?'", b"{", b",\n", b",\r"):
        if data.find(token, offset) >= 0:
            return False
    comments = data.count(b"\n%", offset) + (data[offset : offset + 1] == b"%")
    return data.count(b"%", offset) == comments


def _read_dense(
    data: bytes, offset: int, codec: str, attrs: list[_Attribute], names: list[str]
) -> pd.DataFrame | None:
    """The data section parsed by pandas, or None when only the full parsers can read it.

    Every row must hold exactly one value per attribute, as liac-arff requires.
    pandas pads a short row with empty values and only warns about a long one, so
    an extra column catches long rows, and the last column is read as raw text:
    no row may leave it empty (a '?' there is turned into a missing value after).
    """
    if not _plain_section(data, offset):
        return None
    last = names[-1]
    kinds = zip(attrs[:-1], names[:-1], strict=True)
    dtypes = {n: (np.float64 if a.kind == "numeric" else object) for a, n in kinds}
    stream = io.BytesIO(data)
    stream.seek(offset)
    try:
        with warnings.catch_warnings():
            # Every row is one field short of the names (the extra column), which
            # pandas warns about; the checks below are what decide.
            warnings.simplefilter("ignore", pd.errors.ParserWarning)
            frame = pd.read_csv(
                stream,
                encoding="utf-8" if codec == "utf-8-sig" else codec,
                header=None,
                names=[*names, _EXTRA],
                index_col=False,
                dtype={**dtypes, last: object, _EXTRA: object},
                sep=",",
                quotechar="'",
                comment="%",
                skipinitialspace=True,
                na_values={n: ["?"] for n in names[:-1]},
                keep_default_na=False,
                skip_blank_lines=True,
                engine="c",
                **_EXACT_FLOATS,
            )
        if len(frame) == 0 or (frame[_EXTRA] != "").any() or (frame[last] == "").any():
            return None
        frame = frame.drop(columns=_EXTRA)
        values = np.array(frame[last], dtype=object)  # a copy: pandas' arrays are read-only
        values[values == "?"] = None
        if attrs[-1].kind == "numeric":
            # Python's float(), as liac-arff uses: correctly rounded, like pandas' parser.
            values = np.asarray([np.nan if v is None else float(v) for v in values])
        frame[last] = values
    except (ValueError, TypeError, pd.errors.ParserError):
        return None  # UnicodeDecodeError is a ValueError
    for attr, name in zip(attrs, names, strict=True):
        if attr.integer:
            frame[name] = np.trunc(frame[name].to_numpy(dtype=np.float64))  # as liac-arff
    return frame


def _typed_table(
    attrs: list[_Attribute], names: list[str], rows: list[list[Any]], report: list[str]
) -> tuple[pd.DataFrame, dict[str, list[str]]]:
    """The rows as a table: numeric and date attributes as float64, the rest as text."""
    try:
        frame = pd.DataFrame(rows, columns=names, dtype=object)
    except (ValueError, TypeError) as exc:
        raise DataError(
            f"The ARFF data rows do not match the attributes: {_shorten(exc)}. Check "
            "that every row has one value per attribute."
        ) from exc
    return _typed_columns(attrs, names, frame, report)


def _typed_columns(
    attrs: list[_Attribute], names: list[str], frame: pd.DataFrame, report: list[str]
) -> tuple[pd.DataFrame, dict[str, list[str]]]:
    nominal_levels: dict[str, list[str]] = {}
    cols: dict[str, pd.Series] = {}
    for attr, col in zip(attrs, names, strict=True):
        series = frame[col]
        if attr.kind == "numeric" and series.dtype == np.float64:
            cols[col] = series
        elif attr.kind == "numeric":
            try:
                # Fast path: numpy turns floats, numeric strings and None (-> NaN)
                # into float64 directly, far quicker than to_numeric on objects.
                cols[col] = pd.Series(np.asarray(series.to_numpy(), dtype=np.float64))
            except (ValueError, TypeError):
                values = pd.to_numeric(series, errors="coerce")
                bad = int((values.isna() & series.notna()).sum())
                report.append(
                    f"Attribute {_quoted(col)}: {bad} non-numeric value(s) treated as missing."
                )
                cols[col] = values.astype(np.float64)
        elif attr.kind == "date":
            with warnings.catch_warnings():
                # Dates without a declared format are parsed one by one, which pandas
                # warns about; unreadable ones become missing and are handled as such.
                warnings.simplefilter("ignore", UserWarning)
                stamps = pd.to_datetime(series, errors="coerce", utc=True)
            seconds = (stamps - pd.Timestamp("1970-01-01", tz="UTC")).dt.total_seconds()
            cols[col] = seconds.astype(np.float64)
            report.append(f"Attribute {_quoted(col)}: dates converted to seconds since 1970.")
        else:
            cols[col] = series
            if attr.kind == "nominal" and attr.levels is not None:
                nominal_levels[col] = attr.levels
    return pd.DataFrame(cols), nominal_levels
