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

import pandas as pd

from ._arff import _checked_text, _parse_arff
from ._clean import _options
from ._csv import _drop_unnamed, _open_csv, _parse_rows
from ._files import _looks_like_arff
from ._source import _read_source

__all__ = ["read_rows"]

_ARFF_SUFFIXES = {".arff"}


def read_rows(source: Any, *, max_rows: int = 200_000) -> pd.DataFrame:
    """Every column of a CSV or ARFF file as parsed, one row per data row, nothing cleaned.

    Parameters
    ----------
    source : str, pathlib.Path, bytes or file-like
        As for `load_file`; the format is taken from the file name (``.arff``) or,
        without one, from the content.
    max_rows : int, default=200000
        As for `load_csv`; the other limits are the loaders' defaults.

    Returns
    -------
    pandas.DataFrame
        The file's columns in order (numbers as floats, the rest as text); the
        index is each row's position among the data rows, from 0.

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
    frame = _parse_rows(head, last, opts)
    return _drop_unnamed(frame, head, last)


def _is_arff(source: Any, opts) -> bool:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _looks_like_arff(bytes(source[:65_536]))
    if isinstance(source, io.IOBase) or hasattr(source, "read"):
        data, _ = _read_source(source, opts.max_bytes)
        return _looks_like_arff(data)
    return False
