"""`to_csv`: the one CSV writer of the project, safe to open in a spreadsheet.

Every CSV the project hands out (the app's downloads, ``ternary predict --out``,
``ternary report --format csv``) is written here, so that no call site can forget the
escaping. A spreadsheet reads a cell that begins with ``=``, ``+``, ``-`` or ``@`` (and,
in some programs, after a tab or carriage return) as a formula: a feature name, a class
label or a file name from someone else's file could then compute, fetch a URL or run a
command when the CSV is opened (OWASP, "CSV Injection").
"""

from __future__ import annotations

import csv
import re

import numpy as np
import pandas as pd
from pandas.api import types

__all__ = ["to_csv"]

#: a text cell starting with one of these is prefixed with ``'`` (OWASP's list)
FORMULA_TRIGGERS = frozenset("=+-@\t\r")
# A plain decimal number: a spreadsheet reads it as that number, never as a formula, so
# text such as the class label "-1" keeps its value. No spaces, no "inf" or "nan".
_NUMBER = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
_NUMBER_RE = re.compile(_NUMBER)
# A spreadsheet set to split on ";" or a tab (a comma-decimal locale, an import dialog)
# would start a new cell after one, which may begin with "="; a lone CR is not quoted by
# pandas when lines end in "\n", and a reader starts a new row there. A table holding any
# of them has every text cell quoted, so each stays one cell wherever it is read.
_SPLITS = r"[;\t\r]"


def _escaped(text: str) -> str:
    if text[:1] in FORMULA_TRIGGERS and _NUMBER_RE.fullmatch(text) is None:
        return "'" + text
    return text


def _keeps_values(dtype) -> bool:
    """True when every value of ``dtype`` is written as a number or a date: never escaped."""
    return (
        types.is_bool_dtype(dtype)
        or types.is_integer_dtype(dtype)
        or types.is_float_dtype(dtype)
        or types.is_datetime64_any_dtype(dtype)
    )


def _escaped_column(column: pd.Series) -> tuple[np.ndarray | None, bool]:
    """``(values, quote)``: the column's values with each formula-like text escaped (None
    when none is), and whether a text holds a character other programs split cells on."""
    values = np.asarray(column.astype(object), dtype=object)
    present = np.flatnonzero(pd.notna(values))
    if present.size == 0:
        return None, False
    texts = pd.Series(values[present], dtype=object).astype(str)
    quote = bool(texts.str.contains(_SPLITS, regex=True).any())
    risky = texts.str[:1].isin(FORMULA_TRIGGERS) & ~texts.str.fullmatch(_NUMBER)
    if not risky.any():
        return None, quote
    values = values.copy()
    for position, text in zip(present[risky.to_numpy()], texts[risky], strict=True):
        values[position] = "'" + text
    return values, quote


def _escaped_columns(columns: pd.Index) -> tuple[pd.Index, bool]:
    if isinstance(columns, pd.MultiIndex):
        labels = [str(level) for label in columns for level in label]
        tuples = [tuple(_escaped(str(level)) for level in label) for label in columns]
        escaped = pd.MultiIndex.from_tuples(tuples, names=columns.names)
    else:
        labels = [str(label) for label in columns]
        escaped = pd.Index([_escaped(label) for label in labels], dtype=object)
    return escaped, any(re.search(_SPLITS, label) for label in labels)


def to_csv(frame: pd.DataFrame, path_or_buf=None, *, lineterminator: str | None = None):
    """Write ``frame`` as CSV with every formula-like text escaped, numbers left as numbers.

    The rule (OWASP's, for CSV injection): a header or a text cell that begins with
    ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is written with a single quote
    ``'`` in front, which spreadsheets show as text and never evaluate. Two kinds of value
    are left as they are, because a spreadsheet reads them as numbers, never as formulas:

    * every value of a numeric column (bool, integer or float dtype) and of a date column,
      so a float column keeps ``-1.5``;
    * text that is a plain decimal number (``-1``, ``+2.5``, ``-1.5e-3``: an optional sign,
      digits, an optional fraction and exponent, nothing else), so a class label ``"-1"``
      stays ``-1``. Anything more (``-2+3``, ``-inf``, ``- 1``) is escaped.

    Other cells of a text column (``str(value)`` for non-text objects) follow the rule;
    missing values are written empty. The frame's index is not written, and ``frame``
    is never modified. Quotes, commas and line breaks inside cells are quoted as pandas
    always does; when a header or text cell holds a semicolon, a tab or a carriage
    return, every header and text cell is quoted, so that a spreadsheet that splits on
    them (a comma-decimal locale) still sees one cell, and a reader never starts a row
    at a lone carriage return.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table to write.
    path_or_buf : str, path or text file object, optional
        Where to write, as in `pandas.DataFrame.to_csv`; by default the CSV is returned.
    lineterminator : str, optional
        The end of each line; by default ``os.linesep``, as pandas.

    Returns
    -------
    str or None
        The CSV text when ``path_or_buf`` is None, else None.

    Examples
    --------
    >>> import pandas as pd
    >>> from ternary.data import to_csv
    >>> frame = pd.DataFrame({"=name": ["=1+1", "-1", "@SUM(A1)"], "x": [-1.5, 2.0, 3.0]})
    >>> print(to_csv(frame, lineterminator="\\n"), end="")
    '=name,x
    '=1+1,-1.5
    -1,2.0
    '@SUM(A1),3.0
    """
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"to_csv writes a pandas DataFrame; got {type(frame).__name__}.")
    out = None
    columns, quote = _escaped_columns(frame.columns)
    for i in range(frame.shape[1]):
        column = frame.iloc[:, i]
        if _keeps_values(column.dtype):
            continue
        escaped, splits = _escaped_column(column)
        quote = quote or splits
        if escaped is not None:
            if out is None:
                out = frame.copy()
            out.isetitem(i, escaped)
    out = frame.copy(deep=False) if out is None else out
    out.columns = columns
    return out.to_csv(
        path_or_buf,
        index=False,
        lineterminator=lineterminator,
        quoting=csv.QUOTE_NONNUMERIC if quote else csv.QUOTE_MINIMAL,
    )
