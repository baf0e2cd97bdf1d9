"""Files and folders: :func:`load_file` picks the loader by extension."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ._arff import load_arff
from ._csv import load_csv
from ._dataset import DataError, Dataset, _quoted

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
