"""`LoadLimits`: what the file loaders accept and how they read it, in one frozen object.

`load_csv`, `load_arff`, `read_csv_header`, `read_arff_header`, `read_header`,
`load_file` and `load_openml` take one ``limits=LoadLimits(...)``; the fields one by one
(``max_rows=...``) still work as keyword arguments and override ``limits``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np

from ._clean import (
    _MAX_CELLS,
    _MAX_CLASSES,
    _MAX_COLUMNS,
    _MAX_ROWS,
    _ORDINAL_THRESHOLD,
    _names_tuple,
    _Options,
    _options,
)
from ._source import MAX_FILE_BYTES

__all__ = ["LoadLimits", "limits_of"]


@dataclass(frozen=True)
class LoadLimits:
    """The size limits and reading choices of the file loaders, in one frozen object.

    Pass one as ``limits=`` to `load_csv`, `load_arff`, `load_file`, `load_openml` or the
    header readers; one object then serves the header read and the load alike. Each
    field may also be given to a loader as a keyword argument of its own name, which
    overrides the field of ``limits``.

    Parameters
    ----------
    max_rows : int, default=200,000
        The most data rows a file may hold; a larger file raises `DataError`.
    max_columns : int, default=2,000
        The most columns a file may hold.
    max_values : int, default=10,000,000
        The most values (data rows × columns) a text file may hold; parsing and
        cleaning cost time and memory per value.
    max_bytes : int, default=MAX_FILE_BYTES
        The largest file read, in bytes (200 MB). A path must be a regular file (not a
        named pipe or a device); a stream is read no further than this.
    max_classes : int, default=100
        More distinct labels than this means the target is not a class column.
    ordinal_threshold : int, default=10
        Text columns with at most this many levels are one-hot encoded (a single 0/1
        column for two levels); more levels become codes in order of frequency (0 the
        most frequent level, ties alphabetical).
    merge_spellings : bool, default=True
        Read levels that differ only in letter case as one level, named by the most
        frequent spelling (surrounding spaces are never part of a level); False keeps
        letter cases apart.
    keep_columns : tuple of str, default=()
        Columns to keep as features although they look like identifiers (one name
        alone is read as a tuple of it).

    Raises
    ------
    ValueError
        When a limit is not a whole number of at least 1 (``ordinal_threshold``: not a
        whole number).

    See Also
    --------
    load_csv : Load a delimited text file.

    Examples
    --------
    >>> from ternary.data import LoadLimits, load_csv
    >>> small = LoadLimits(max_rows=3)
    >>> load_csv(b"x,y\\n1,a\\n2,b\\n3,a\\n", limits=small).X.shape
    (3, 1)
    >>> load_csv(b"x,y\\n1,a\\n2,b\\n3,a\\n4,b\\n", limits=small)
    Traceback (most recent call last):
    ...
    ternary.data._dataset.DataError: The file has 4 data rows; the limit is 3. ...
    """

    max_rows: int = _MAX_ROWS
    max_columns: int = _MAX_COLUMNS
    max_values: int = _MAX_CELLS
    max_bytes: int = MAX_FILE_BYTES
    max_classes: int = _MAX_CLASSES
    ordinal_threshold: int = _ORDINAL_THRESHOLD
    merge_spellings: bool = True
    keep_columns: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # the conversions the loaders always made of these arguments
        for name in (
            "max_rows",
            "max_columns",
            "max_values",
            "max_bytes",
            "max_classes",
            "ordinal_threshold",
        ):
            value = getattr(self, name)
            try:
                number = int(value)
            except (TypeError, ValueError, OverflowError) as exc:  # NaN, inf, "ten"
                raise ValueError(
                    f"LoadLimits {name} must be a whole number; got {value!r}."
                ) from exc
            if number < 1 and name != "ordinal_threshold":  # a limit of 0 refuses every file
                raise ValueError(f"LoadLimits {name} must be at least 1; got {value!r}.")
            object.__setattr__(self, name, number)
        # bool("no") is True: only a truth value (or 0/1) says what the user meant
        merge = self.merge_spellings
        if not (isinstance(merge, (bool, np.bool_, int, np.integer)) and merge in (0, 1)):
            raise ValueError(
                f"LoadLimits merge_spellings must be True or False; got {self.merge_spellings!r}."
            )
        object.__setattr__(self, "merge_spellings", bool(self.merge_spellings))
        object.__setattr__(self, "keep_columns", _names_tuple(self.keep_columns))


_FIELDS = frozenset(f.name for f in fields(LoadLimits))


def limits_of(limits: LoadLimits | None, overrides: Mapping[str, Any], loader: str) -> LoadLimits:
    """``limits`` (default `LoadLimits`) with the fields given one by one as keywords.

    A keyword that is no field raises the TypeError Python raises for an unknown
    keyword argument, naming ``loader``.
    """
    unknown = sorted(set(overrides) - _FIELDS)
    if unknown:
        raise TypeError(f"{loader}() got an unexpected keyword argument {unknown[0]!r}")
    if limits is not None and not isinstance(limits, LoadLimits):
        raise TypeError(
            f"{loader}(limits=...) takes a ternary.data.LoadLimits; got "
            f"{type(limits).__name__}. Build one with LoadLimits(max_rows=..., ...)."
        )
    base = limits if limits is not None else LoadLimits()
    return replace(base, **overrides) if overrides else base


def _reading_options(missing: str, limits: LoadLimits) -> _Options:
    """The cleaning options of one load: ``missing`` and the limits."""
    return _options(
        missing,
        limits.max_rows,
        limits.max_columns,
        limits.max_bytes,
        limits.max_classes,
        limits.ordinal_threshold,
        limits.max_values,
        merge_spellings=limits.merge_spellings,
        keep_columns=limits.keep_columns,
    )
