"""Every loader's last step: a parsed table to a :class:`Dataset`.

Every loader parses its format into a raw table and hands it to :func:`_assemble`,
which picks the target (``_clean``), fits the :class:`Preprocessor` that converts
and encodes the features (``_preprocess``) and writes the report. Imports go one
way: ``_clean`` (shared helpers) <- ``_preprocess`` <- ``_assemble`` <- the loaders.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._clean import _Options, _prepare_target, _resolve_target
from ._dataset import DataError, Dataset, _class_names, _quoted
from ._preprocess import Preprocessor


def _assemble(
    frame: pd.DataFrame,
    target: str | int | None,
    *,
    opts: _Options,
    name: str,
    source: str,
    report: list[str],
    nominal_levels: dict[str, list[str]] | None = None,
    decimal_comma: bool = False,
    missing_tokens: frozenset[str] = frozenset(),
    parsed_gaps: dict | None = None,
    lines: np.ndarray | None = None,
    delimiter: str | None = None,
) -> Dataset:
    """Turn a raw table (float or text columns) into a clean :class:`Dataset`.

    ``missing_tokens`` are the (lower-case) texts that mean "no value"; CSV
    passes the usual spellings, while ARFF and OpenML mark missing values
    themselves, so there a nominal level such as "none" stays a level.
    ``parsed_gaps`` names, per column, the texts the CSV parser read as gaps.
    ``lines`` (the file line of each row of ``frame``) and ``delimiter`` are kept on
    the Dataset for the rows it keeps.
    """
    columns = [str(c) for c in frame.columns]
    target_col = _resolve_target(columns, target)
    feature_cols = [c for c in columns if c != target_col]
    if not feature_cols:
        raise DataError(
            f"The file has only the target column {_quoted(target_col)} and no feature columns. "
            "If it should have more columns, check the delimiter (comma, semicolon or tab)."
        )
    labels, keep = _prepare_target(frame[target_col], target_col, opts, report, missing_tokens)
    pre = Preprocessor(
        missing=opts.missing,
        ordinal_threshold=opts.ordinal_threshold,
        missing_tokens=tuple(sorted(missing_tokens)),  # a tuple: skops stores it as is
        decimal_comma=decimal_comma,
        nominal_levels=nominal_levels or None,
        merge_spellings=opts.merge_spellings,
        keep_columns=opts.keep_columns,
    )
    block = pre._fit(
        frame,
        report,
        keep=None if keep.all() else keep,
        columns=feature_cols,
        labels=labels,
        parsed_gaps=parsed_gaps,
    )
    rows = pre.kept_rows_
    labels = labels[rows]
    X = pd.DataFrame(block, columns=list(pre.feature_names_out_), copy=False)
    y = np.asarray(labels)
    report.append(
        f"Loaded {X.shape[0]} rows × {X.shape[1]} features, "
        f"{len(np.unique(y))} classes (target {_quoted(target_col)})."
    )
    kept = np.flatnonzero(keep)[rows]
    raw = frame if len(kept) == len(frame) else frame.iloc[kept]
    return Dataset(
        X=X,
        y=y,
        class_names=_class_names(y),
        name=name,
        source=source,
        report=report,
        preprocessor=pre,
        raw=raw,
        target=target_col,
        file_rows=len(frame),
        file_lines=None if lines is None else lines[kept],
        delimiter=delimiter,
    )
