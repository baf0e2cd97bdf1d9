"""Raw rows of a file for scoring: parsed like the loaders do, but not cleaned.

`read_rows` is the reading half of `load_file`: the same decoding, delimiter
detection, limits and parsers, and no label, encoding or imputation, because a
fitted `Preprocessor` does that for rows to be scored.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ._arff import _checked_text, _parse_arff
from ._clean import _options
from ._columns import _MISSING_TOKENS
from ._csv import _drop_unnamed, _open_csv, _parse_rows, _read_frame
from ._files import _looks_like_arff
from ._source import _read_source

__all__ = ["read_rows"]

_ARFF_SUFFIXES = {".arff"}


def read_rows(source: Any, *, max_rows: int = 200_000, as_text: bool = False) -> pd.DataFrame:
    """Every column of a CSV or ARFF file as parsed, one row per data row, nothing cleaned.

    Parameters
    ----------
    source : str, pathlib.Path, bytes or file-like
        As for `load_file`; the format is taken from the file name (``.arff``) or,
        without one, from the content.
    max_rows : int, default=200000
        As for `load_csv`; the other limits are the loaders' defaults.
    as_text : bool, default=False
        Every cell of a CSV exactly as written (``56`` stays ``"56"``, ``NA`` stays
        ``"NA"``, an empty cell ``""``), for repeating the input unchanged; the
        same rows and columns as without it. An ARFF file's cells are parsed values
        either way.

    Returns
    -------
    pandas.DataFrame
        The file's columns in order (numbers as floats, the rest as text; all text
        with ``as_text``); the index is each row's position among the data rows,
        from 0.

    Raises
    ------
    DataError
        For anything the loaders would refuse in the file itself.
    """
    opts = _options("keep", max_rows, 2_000, 200 * 2**20, 100, 10)
    if isinstance(source, (str, os.PathLike)):
        name = str(source)
    else:
        name = str(getattr(source, "name", "") or "")
    if Path(name).suffix.lower() in _ARFF_SUFFIXES or (not name and _is_arff(source, opts)):
        data, _, text, _, codec = _checked_text(source, opts)
        _, table, _ = _parse_arff(data, text, codec, opts, [])
        return table
    head = _open_csv(source, opts)
    last = head.names[-1]
    frame = _drop_unnamed(_parse_rows(head, last, opts), head, last)
    if not as_text:
        return frame
    # A second parse, every cell as text: the first one decides the rows and columns.
    text = _read_frame(head, last, head.index_col, usecols=list(frame.columns), as_text=True)
    return text[list(frame.columns)].set_axis(frame.index)


def _is_arff(source: Any, opts) -> bool:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _looks_like_arff(bytes(source[:65_536]))
    if isinstance(source, io.IOBase) or hasattr(source, "read"):
        data, _ = _read_source(source, opts.max_bytes)
        return _looks_like_arff(data)
    return False


def _recognise_label(rows: pd.DataFrame, inputs, classes) -> tuple[str | None, np.ndarray | None]:
    """The label column of rows to score, if they hold one: ``(name, labels)``.

    A label column is a column the model does not take as input (``inputs``, the
    raw columns it was fitted on; None: unknown, no column is recognised) whose
    present values are all among the model's ``classes`` (numbers compared as
    numbers: "1.0" is the class 1). The last such column counts; ``labels`` holds
    the class of each row, None where the cell is a gap.
    """
    if inputs is None:
        return None, None
    known = {str(c) for c in inputs}
    for name in reversed([str(c) for c in rows.columns if str(c) not in known]):
        labels = _as_classes(rows[name], classes)
        if labels is not None:
            return name, labels
    return None, None


def _as_classes(values: pd.Series, classes) -> np.ndarray | None:
    codes, uniques = pd.factorize(values, use_na_sentinel=True)
    numeric = all(isinstance(c, (int, float, np.integer, np.floating)) for c in classes)
    by_text = {str(c): c for c in classes}
    table: list = []
    for u in uniques:
        text = str(u).strip()
        if text.lower() in _MISSING_TOKENS:
            table.append(None)
            continue
        if numeric:
            try:
                number = float(text)
            except ValueError:
                return None
            match = [c for c in classes if float(c) == number]
        else:
            match = [by_text[text]] if text in by_text else []
        if not match:
            return None
        table.append(match[0])
    if all(t is None for t in table):
        return None
    return np.array([*table, None], dtype=object)[codes]
