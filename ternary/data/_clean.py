"""The shared cleaning helpers: the loaders' options and limits, the target, column reading.

The loaders (through ``_assemble``) and the :class:`Preprocessor` (``_preprocess``)
both import from here; this module imports neither, so the imports go one way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ._columns import (
    _column_tokens,
    _read_text,
    _reading_lines,
    _TextReading,
)
from ._dataset import DataError, _quote_list, _quoted
from ._dates import _as_dates
from ._source import MAX_FILE_BYTES

# A numeric-looking text column is still treated as numeric when at most this
# fraction of its non-missing values fail to parse (they become missing and are
# reported); beyond it the column is taken to be categorical.
_JUNK_FRACTION = 0.05
# A text column whose values are nearly all distinct is an identifier (name, id,
# free text) rather than a feature once it has more than this many rows.
_IDENTIFIER_SHARE = 0.95
_IDENTIFIER_MIN_ROWS = 20
# A float target with non-integer values and more distinct values than this is
# a regression target, not classes.
_CONTINUOUS_MIN_DISTINCT = 20

# The loaders' default limits besides the byte size.
_MAX_ROWS = 200_000
_MAX_COLUMNS = 2_000
_MAX_CLASSES = 100
# Text files are refused before parsing beyond this many values (data rows × columns):
# parsing and cleaning cost time and memory per value, and 10 million keep a load
# within about 5 s on a two-core machine that is not shared (a 150 MB file: 3.6 s) and
# within 600 MB resident (150 MB file: +491 MB, 187 MB: +566 MB; benchmarks/bench_fuzz.py).
_MAX_CELLS = 10_000_000
_ORDINAL_THRESHOLD = 10
_MISSING_CHOICES = ("impute", "drop", "keep")
_FLOAT32_MAX = float(np.finfo(np.float32).max)


@dataclass
class _Options:
    missing: str = "impute"
    max_rows: int = _MAX_ROWS
    max_columns: int = _MAX_COLUMNS
    max_bytes: int = MAX_FILE_BYTES
    max_classes: int = _MAX_CLASSES
    ordinal_threshold: int = _ORDINAL_THRESHOLD
    max_cells: int = _MAX_CELLS
    merge_spellings: bool = True
    keep_columns: tuple = ()


def _options(
    missing: str,
    max_rows: int,
    max_columns: int,
    max_bytes: int,
    max_classes: int,
    ordinal_threshold: int,
    max_cells: int = _MAX_CELLS,
    *,
    merge_spellings: bool = True,
    keep_columns=(),
) -> _Options:
    if missing not in _MISSING_CHOICES:
        raise DataError(
            f"missing={_quoted(missing)} is not a choice; use 'impute' (fill with the "
            "column median), 'drop' (remove rows with missing values) or 'keep' (leave "
            "them as NaN, for imputing inside each cross-validation fold)."
        )
    return _Options(
        missing,
        int(max_rows),
        int(max_columns),
        int(max_bytes),
        int(max_classes),
        int(ordinal_threshold),
        int(max_cells),
        bool(merge_spellings),
        _names_tuple(keep_columns),
    )


def _names_tuple(names) -> tuple:
    """``keep_columns`` as a tuple of names (one name alone is accepted too)."""
    if names is None:
        return ()
    if isinstance(names, str):
        return (names,)
    return tuple(str(n) for n in names)


def _resolve_target(columns: list[str], target: str | int | None) -> str:
    if target is None:
        return columns[-1]
    if isinstance(target, (int, np.integer)) and not isinstance(target, bool):
        if -len(columns) <= int(target) < len(columns):
            return columns[int(target)]
        raise DataError(
            f"Target column number {target} is out of range: the file has "
            f"{len(columns)} columns. Available columns: {_quote_list(columns)}."
        )
    wanted = str(target)
    if wanted in columns:
        return wanted
    # Be forgiving about case and stray spaces, but only when unambiguous.
    loose = [c for c in columns if c.strip().lower() == wanted.strip().lower()]
    if len(loose) == 1:
        return loose[0]
    raise DataError(
        f"Target column {_quoted(wanted)} is not in the file. "
        f"Available columns: {_quote_list(columns)}. Pick one of these."
    )


def _clean_text(series: pd.Series, tokens: frozenset[str]) -> tuple[pd.Series, pd.Series]:
    """Strip whitespace and mark missing tokens; return (text, missing mask)."""
    text = series.astype("string").str.strip()
    missing = text.isna()
    if tokens:
        missing = missing | text.str.lower().isin(tokens)
    missing = missing.fillna(True).astype(bool)
    return text.mask(missing), missing


def _to_float(text: pd.Series) -> np.ndarray:
    # Parse each distinct value once: to_numeric is slow on text that fails to
    # parse, and categorical columns repeat a few values many times.
    codes, uniques = pd.factorize(text, use_na_sentinel=True)
    parsed = pd.to_numeric(pd.Series(np.asarray(uniques, dtype=object)), errors="coerce")
    table = np.append(parsed.to_numpy(dtype=np.float64, na_value=np.nan), np.nan)
    return table[codes]


def _prepare_target(
    raw: pd.Series, column: str, opts: _Options, report: list[str], tokens: frozenset[str]
) -> tuple[np.ndarray, np.ndarray]:
    """Return (labels for kept rows, mask of kept rows)."""
    if pd.api.types.is_numeric_dtype(raw.dtype) and not pd.api.types.is_bool_dtype(raw.dtype):
        values = raw.to_numpy(dtype=np.float64, na_value=np.nan)
        keep = ~np.isnan(values)
        text = None
    else:
        # A marker word that is a frequent label ("none") is a class, as in a feature.
        tokens = _column_tokens(raw.astype("string").str.strip(), tokens)
        text, missing = _clean_text(raw, tokens)
        keep = ~missing.to_numpy()
        values = _to_float(text)
        # Labels are numbers only if every present label parses as one.
        if np.isnan(values[keep]).any():
            values = None
    n_missing = int((~keep).sum())
    if n_missing:
        report.append(f"Dropped {n_missing} rows whose target {_quoted(column)} is missing.")
    if not keep.any():
        raise DataError(
            f"The target column {_quoted(column)} has no values in any row. Choose another "
            "target column."
        )
    if values is not None:
        labels = _numeric_labels(values, keep, column, report)
    else:
        assert text is not None  # values is None only for a text target
        labels = text[keep].to_numpy(dtype=object)
    n_classes = len(np.unique(labels))
    if n_classes < 2:
        only = labels[0] if len(labels) else "?"
        raise DataError(
            f"The target column {_quoted(column)} has a single class ({_quoted(only)}); a "
            "classifier needs at least two. Choose another target column or add rows of "
            "other classes."
        )
    if n_classes > opts.max_classes:
        raise DataError(
            f"The target column {_quoted(column)} has {n_classes} distinct values (the limit is "
            f"{opts.max_classes}); it looks like a regression target or an identifier. "
            "Choose a column with class labels as the target."
        )
    return labels, keep


def _numeric_labels(
    values: np.ndarray, keep: np.ndarray, column: str, report: list[str]
) -> np.ndarray:
    """Labels that are all numbers: integers stay integers, a few decimals become names."""
    kept = values[keep]
    infinite = np.isinf(kept)
    if infinite.any():
        row = int(np.flatnonzero(keep)[np.argmax(infinite)]) + 1
        raise DataError(
            f"The label column {_quoted(column)} holds an infinite value in data row {row}. "
            "A class label must be a name or a finite number: fix that row, or choose "
            "another target column."
        )
    if np.all(kept == np.round(kept)) and np.all(np.abs(kept) < 2**53):
        return kept.astype(np.int64)
    distinct = np.unique(kept)
    if len(distinct) > _CONTINUOUS_MIN_DISTINCT:
        raise DataError(
            f"The label column {_quoted(column)} holds {len(distinct)} distinct decimal "
            "numbers; is it a measurement rather than a class (a regression target)? "
            "Choose a column with class labels as the target."
        )
    # A classifier needs discrete labels: a few decimal values are read as class
    # names, written the shortest way that reads back as the same number.
    names = np.array([repr(float(v)) for v in kept], dtype=object)
    report.append(
        f"The labels in {_quoted(column)} are decimal numbers "
        f"({_quote_list([repr(float(v)) for v in distinct], limit=5)}); "
        "each is used as the name of a class."
    )
    return names


@dataclass
class _Column:
    name: str
    kind: str  # "numeric" or "categorical"
    values: np.ndarray  # float64 for numeric; object (str or None) for categorical
    levels: list[str] | None = None
    declared: bool = False  # levels come from an ARFF declaration
    from_text: bool = False  # numbers that were stored as text
    decimal_comma: bool = False  # numbers read with a decimal comma
    junk: frozenset = frozenset()  # the few texts of a numeric column read as missing
    fill: Any = None  # the value that fills its gaps (set by the Preprocessor)
    thousands: bool = False  # numbers written with digit groups (1,234.5 or 1.234,5)
    dates: tuple = ()  # the date formats a text column was read with (days since 1970)
    gaps: dict | None = None  # stripped spelling -> rows the cleaning read as a gap
    tokens: frozenset | None = None  # the markers read as gaps here (None: all)
    gap_mask: np.ndarray | None = None  # the gaps before imputation
    indicator: bool = False  # a 0/1 column of its own marks the gaps (numbers)
    merge: bool = False  # levels matched without letter case
    integer: bool = False  # numbers written as whole numbers (an int column, or "12" texts)


def _convert_feature(
    name: str,
    raw: pd.Series,
    levels: list[str] | None,
    decimal_comma: bool,
    report: list[str],
    tokens: frozenset[str],
    merge: bool = True,
) -> _Column:
    if pd.api.types.is_bool_dtype(raw.dtype):
        return _Column(name, "numeric", raw.to_numpy(dtype=np.float64, na_value=np.nan))
    if pd.api.types.is_numeric_dtype(raw.dtype):
        values = raw.to_numpy(dtype=np.float64, na_value=np.nan)
        return _Column(name, "numeric", values, integer=pd.api.types.is_integer_dtype(raw.dtype))
    text, missing = _clean_text(raw, tokens)
    numbers = _to_float(text)
    present = ~missing.to_numpy()
    gaps = _spellings(raw, missing) if tokens else None
    n_present = int(present.sum())
    failed = present & np.isnan(numbers)
    if n_present == 0:
        return _Column(name, "numeric", numbers, gaps=gaps)
    if failed.any() and decimal_comma:
        # Semicolon- or tab-separated files from European locales write 1,5.
        alt = _to_float(text.str.replace(",", ".", regex=False))
        if not (present & np.isnan(alt)).any():
            report.append(f"Column {_quoted(name)}: read decimal commas (e.g. '1,5') as numbers.")
            return _Column(name, "numeric", alt, decimal_comma=True, gaps=gaps)
    if failed.any():
        grouped = _thousands(name, text, present, decimal_comma, report)
        if grouped is not None:
            grouped.gaps = gaps
            return grouped
    n_failed = int(failed.sum())
    if n_failed == 0:
        whole = bool(text[present].str.fullmatch(r"[+-]?\d+").all())
        return _Column(name, "numeric", numbers, from_text=True, gaps=gaps, integer=whole)
    if n_failed < n_present and n_failed <= _JUNK_FRACTION * n_present:
        examples = _quote_list(sorted(set(text[failed].tolist()))[:3], limit=3)
        report.append(
            f"Column {_quoted(name)}: {n_failed} non-numeric value(s) in a numeric "
            f"column (e.g. {examples}) were treated as missing."
        )
        return _Column(name, "numeric", numbers, junk=frozenset(text[failed].tolist()), gaps=gaps)
    return _text_feature(name, raw, levels, report, tokens, merge)


def _spellings(raw: pd.Series, missing: pd.Series) -> dict:
    """``{stripped text: rows}`` of the cells read as gaps that hold a text."""
    marked = missing.to_numpy() & raw.notna().to_numpy()
    if not marked.any():
        return {}
    counts = raw[marked].astype("string").str.strip().value_counts()
    return {str(k): int(v) for k, v in counts.items()}


def _text_feature(
    name: str,
    raw: pd.Series,
    levels: list[str] | None,
    report: list[str],
    tokens: frozenset[str],
    merge: bool,
) -> _Column:
    """A text column as levels, or as dates when every value reads as one."""
    reading: _TextReading = _read_text(raw, tokens, merge and levels is None)
    values = reading.values
    kept = tokens - {str(w).lower() for w in reading.kept_markers}
    if levels is None:
        dates = _as_dates(name, values)
        if dates is not None:
            report.append(dates.line)
        if dates is not None and dates.days is not None:
            return _Column(
                name, "numeric", dates.days, dates=dates.formats, gaps=reading.gaps, tokens=kept
            )
    report.extend(_reading_lines(name, reading, len(values)))
    present = set(pd.unique(values[values != None]))  # noqa: E711 - elementwise
    present.discard(None)
    present_levels = sorted(present)
    if levels is not None:
        declared = set(levels)
        # Keep the declared order; values outside the declaration go last.
        ordered = [lv for lv in levels if lv in present]
        ordered += [lv for lv in present_levels if lv not in declared]
        return _Column(
            name, "categorical", values, ordered, declared=True, gaps=reading.gaps, tokens=kept
        )
    return _Column(
        name, "categorical", values, present_levels, gaps=reading.gaps, tokens=kept, merge=merge
    )


# Numbers with digit groups: 1,234.5 (a comma file) or 1.234,5 (a decimal-comma file).
# Anchored, and no two parts can match the same digits: linear in the value's length.
_GROUPED = {
    False: re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"),
    True: re.compile(r"[+-]?(?:\d{1,3}(?:\.\d{3})+|\d+)(?:,\d+)?"),
}


def _thousands(
    name: str, text: pd.Series, present: np.ndarray, decimal_comma: bool, report: list[str]
) -> _Column | None:
    """The column read as numbers with thousands separators, when every value is one.

    Only the file's own convention is read (groups of three digits separated by
    ``,`` beside a decimal point, or by ``.`` beside a decimal comma), and only
    when at least one value has a separator; the report says so.
    """
    group, point = (".", ",") if decimal_comma else (",", ".")
    values = pd.unique(text[present].to_numpy(dtype=object))
    pattern = _GROUPED[decimal_comma]
    if not any(group in v for v in values) or not all(pattern.fullmatch(v) for v in values):
        return None
    plain = text.str.replace(group, "", regex=False).str.replace(point, ".", regex=False)
    example = next(v for v in values if group in v)
    number = float(example.replace(group, "").replace(point, "."))
    separator = "comma" if group == "," else "point"
    report.append(
        f"Column {_quoted(name)}: read {_quoted(example)} as {number:.10g}, the {separator} "
        "separating thousands. If it means something else, save the column without it."
    )
    return _Column(name, "numeric", _to_float(plain), from_text=True, thousands=True)


def _unique_name(name: str, taken: set[str]) -> str:
    out, k = name, 2
    while out in taken:
        out, k = f"{name}_{k}", k + 1
    taken.add(out)
    return out


def _looks_like_identifier(values: np.ndarray) -> bool:
    """A text column is an identifier when at least 95 % of its present values are distinct.

    Such a column cannot generalise, and it can leak the label when its codes follow
    the row order (splice's ``Instance_name`` is declared in class order).
    """
    present = pd.Series(values).dropna()
    return len(present) > _IDENTIFIER_MIN_ROWS and present.nunique() >= _IDENTIFIER_SHARE * len(
        present
    )


def _finite_float32(c: _Column, report: list[str]) -> None:
    """Infinities become missing; finite values beyond float32 are clipped to its range.

    Trees compare features as float32 (scikit-learn's convention), where 1e39 is
    already infinite and a fit stops with "Input contains infinity". Clipping keeps
    such a value the largest of its column, which is all a split can use of it.
    """
    infinite = np.isinf(c.values)
    if infinite.any():
        c.values = np.where(infinite, np.nan, c.values)
        report.append(
            f"Column {_quoted(c.name)}: {int(infinite.sum())} infinite value(s) treated as missing."
        )
    with np.errstate(invalid="ignore"):
        beyond = np.abs(c.values) > _FLOAT32_MAX
    if beyond.any():
        c.values = np.clip(c.values, -_FLOAT32_MAX, _FLOAT32_MAX)
        report.append(
            f"Column {_quoted(c.name)}: {int(beyond.sum())} value(s) beyond the float32 range were "
            f"clipped to ±{_FLOAT32_MAX:.4g}, the largest magnitude a tree can compare."
        )


def _is_missing(c: _Column) -> np.ndarray:
    if c.kind == "numeric":
        return np.isnan(c.values)
    return pd.isna(c.values)


def _fill_value(c: _Column):
    """What fills a gap of ``c``: its median (numbers) or most frequent value (text)."""
    miss = _is_missing(c)
    if miss.all():
        return None
    if c.kind == "numeric":
        return float(np.nanmedian(c.values)) if miss.any() else float(np.median(c.values))
    counts = pd.Series(c.values[~miss]).value_counts()
    # Ties go to the alphabetically first level so results are stable.
    return sorted(counts.index[counts == counts.max()])[0]


def _with_nan(values: np.ndarray, missing: np.ndarray) -> np.ndarray:
    if missing.any():
        values[missing] = np.nan
    return values


def _is_constant(values: np.ndarray) -> bool:
    present = values[~np.isnan(values)]
    return len(present) == 0 or bool(present.min() == present.max())


def _check_cells(n_rows: int, n_cols: int, opts: _Options) -> None:
    """Refuse, before parsing, a text file with more values than the loaders handle."""
    if n_rows * n_cols > opts.max_cells:
        raise DataError(
            f"The file has about {n_rows:,} rows × {n_cols:,} columns = {n_rows * n_cols:,} "
            f"values; the limit is {opts.max_cells:,} values. Use a random sample of the "
            "rows or fewer columns."
        )


def _check_shape(n_rows: int, n_cols: int, opts: _Options) -> None:
    if n_cols > opts.max_columns:
        raise DataError(
            f"The file has {n_cols} columns; the limit is {opts.max_columns}. "
            "Remove columns you do not need."
        )
    if n_rows > opts.max_rows:
        raise DataError(
            f"The file has {n_rows} data rows; the limit is {opts.max_rows}. "
            "Use a random sample of the rows."
        )


def _check_names(names: list[str]) -> None:
    seen: dict[str, int] = {}
    for n in names:
        seen[n] = seen.get(n, 0) + 1
    dups = [n for n, k in seen.items() if k > 1]
    if dups:
        raise DataError(
            f"Duplicate column names: {_quote_list(dups)}. Give every column a "
            "unique name in the header row."
        )
