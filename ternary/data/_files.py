"""Files and folders: :func:`load_file` picks the loader by extension, and
:func:`read_header` the header reader the same way (by content for bare bytes)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from ._arff import load_arff, read_arff_header
from ._csv import load_csv, read_csv_header
from ._dataset import DataError, Dataset, _quoted
from ._limits import LoadLimits, limits_of
from ._source import _read_source, _wide_codec

_CSV_SUFFIXES = (".csv", ".tsv", ".txt")
_ARFF_SUFFIXES = (".arff",)


def list_local_arff(directory: str | os.PathLike) -> list[Path]:
    """List the ``*.arff`` and ``*.csv`` files in a folder (not its subfolders).

    Parameters
    ----------
    directory : str or path-like
        The folder.

    Returns
    -------
    list of pathlib.Path
        Sorted by file name.

    Raises
    ------
    DataError
        If the folder does not exist.
    """
    folder = Path(directory).expanduser()
    if not folder.is_dir():
        raise DataError(
            f"Folder not found: {_quoted(str(folder))}. Pass an existing folder that "
            "holds .arff or .csv files."
        )
    return sorted(
        (p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in (".arff", ".csv")),
        key=lambda p: p.name.lower(),
    )


def load_file(path_or_upload: Any, target: str | int | None = None, **kwargs: Any) -> Dataset:
    """Load a CSV or ARFF file, choosing the loader by file extension.

    Parameters
    ----------
    path_or_upload : str, pathlib.Path or file-like
        A path, or an uploaded file object with a ``name``.
    target : str or int, optional
        The label column; default the last one.
    **kwargs
        Passed to :func:`load_csv` or :func:`load_arff`.

    Returns
    -------
    Dataset
        What :func:`load_csv` (for .csv, .tsv and .txt) or :func:`load_arff` (for
        .arff) returns; the extension is matched in any case.

    Raises
    ------
    DataError
        For an unsupported extension, or anything the loader rejects.
    """
    if isinstance(path_or_upload, (str, os.PathLike)):
        file_name = str(path_or_upload)
    else:
        file_name = str(getattr(path_or_upload, "name", "") or "")
    suffix = Path(file_name).suffix.lower()
    if suffix in _CSV_SUFFIXES:
        return load_csv(path_or_upload, target, **kwargs)
    if suffix in _ARFF_SUFFIXES:
        return load_arff(path_or_upload, target, **kwargs)
    shown = f"'{suffix}'" if suffix else "no extension"
    raise DataError(
        f"Cannot tell the format of {_quoted(Path(file_name).name or 'this data')} "
        f"({shown}). Use a file ending in .csv, .tsv, .txt or .arff."
    )


# The first line of an ARFF file that is not blank or a '%' comment declares it.
_ARFF_START = re.compile(r"@(relation|attribute|data)\b", re.IGNORECASE)
_SNIFF_BYTES = 65_536


def _looks_like_arff(data: bytes) -> bool:
    """Whether the first line that is not blank or a ``%`` comment is an ARFF declaration."""
    head = data[:_SNIFF_BYTES]
    wide = _wide_codec(head)
    if wide is not None:  # UTF-32 or UTF-16 with a byte-order mark
        text = head[: len(head) // 4 * 4].decode(wide[1], errors="replace")
    else:
        text = head.decode("utf-8", errors="replace")
    for line in text.lstrip("\ufeff").splitlines():
        line = line.strip()
        if line and not line.startswith("%"):
            return _ARFF_START.match(line) is not None
    return False


def read_header(
    source: Any,
    target: str | int | None = None,
    *,
    missing: str = "impute",
    name: str | None = None,
    limits: LoadLimits | None = None,
    **options: Any,
) -> list[str]:
    """The column names of a CSV or ARFF file, exactly as its loader names them.

    The reader is chosen like :func:`load_file` chooses the loader: a file name
    ending in .arff (a path, or an upload's ``name``) is ARFF and .csv, .tsv or
    .txt is CSV. Without such a name (bare bytes, another suffix) the content
    decides: ARFF when the first line that is neither blank nor a ``%`` comment
    starts with ``@relation``, ``@attribute`` or ``@data``, CSV otherwise. Then
    :func:`read_csv_header` or :func:`read_arff_header` reads the names with the
    loader's own decoding and header parsing.

    Parameters
    ----------
    source : str, pathlib.Path, bytes or file-like
        As for :func:`load_csv`; an upload is not consumed.
    target : str or int, optional
        When given, checked against the names.
    missing : {"impute", "drop", "keep"}, default="impute"
        As for :func:`load_csv`; passed on to the header reader (it does not change
        the names).
    name : str, optional
        As for :func:`load_csv`; passed on and ignored (it does not change the names).
    limits : LoadLimits, optional
        The loaders' limits (`LoadLimits`; default ``LoadLimits()``); the byte, line
        and column limits apply here too.
    **options
        Fields of `LoadLimits` one by one (``max_rows=...``), overriding ``limits``'s.

    Returns
    -------
    list of str
        Column names in file order, the label column included.

    Raises
    ------
    DataError
        For everything the loader would refuse before reading the data rows.

    Examples
    --------
    >>> read_header(b'"height, cm";"weight, kg";label\\n181.2;75.3;tall\\n')
    ['height, cm', 'weight, kg', 'label']
    >>> read_header(b"%c\\n@relation r\\n@attribute x numeric\\n@attribute y {a,b}\\n@data\\n")
    ['x', 'y']
    """
    limits = limits_of(limits, options, "read_header")
    data, file_name = _read_source(source, limits.max_bytes)
    suffix = Path(file_name or "").suffix.lower()
    arff = suffix in _ARFF_SUFFIXES or (suffix not in _CSV_SUFFIXES and _looks_like_arff(data))
    reader = read_arff_header if arff else read_csv_header
    return reader(data, target, missing=missing, name=name, limits=limits)
