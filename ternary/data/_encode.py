"""How a column read at fit becomes matrix columns: what was learned, the encodings, the names.

`_Rule` holds what `Preprocessor.fit` learned about one raw column; the functions
below turn it into the encoded columns and their names, the same way at fit and at
transform. Imports go one way: ``_preprocess`` imports this module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ._clean import _unique_name, _with_nan
from ._columns import _INDICATOR_MIN, _INDICATOR_SHARE, GAP_LEVEL
from ._dataset import _quoted


@dataclass
class _Rule:
    """What fit learned about one raw column."""

    name: str
    role: str  # "feature", "identifier" or "empty"
    kind: str = "numeric"  # "numeric" or "categorical"
    decimal_comma: bool = False
    thousands: bool = False  # digit groups: 1,234.5 (or 1.234,5 with decimal_comma)
    junk: tuple = ()  # texts a numeric column read as missing at fit (sorted)
    fill: Any = None  # imputation value (None: leave the gap as NaN)
    levels: list | None = None  # categorical levels, in code order
    encoding: str = "number"  # "number", "binary", "onehot" or "ordinal"
    outputs: list = field(default_factory=list)  # encoded column names
    kept: list = field(default_factory=list)  # which outputs survive the constant check
    dates: tuple = ()  # date formats: a text column read as days since 1970-01-01
    tokens: tuple | None = None  # the gap markers of this column (None: the preprocessor's)
    merge: bool = False  # levels matched without letter case
    indicator: bool = False  # a 0/1 column marks the gaps (numbers)


def _indicated(gaps: np.ndarray) -> bool:
    """Whether a numeric column's gaps are common enough for a 0/1 gap column."""
    n = int(gaps.sum())
    return n >= _INDICATOR_MIN and n >= _INDICATOR_SHARE * len(gaps)


def _encoding_of(levels: list, threshold: int, declared: bool = True) -> str:
    if len(levels) > threshold:
        # Declared (ARFF) levels keep their order; other text is never coded alphabetically.
        return "ordinal" if declared else "frequency"
    return "binary" if len(levels) == 2 else "onehot"


def _encoding_line(rule: _Rule, declared: bool, threshold: int) -> str:
    name, levels = _quoted(rule.name), rule.levels or []
    if rule.encoding == "binary":
        col = _quoted(rule.outputs[0]) if rule.outputs else _quoted(f"{rule.name}={levels[1]}")
        return (
            f"Column {name} ({_quoted(levels[0])}/{_quoted(levels[1])}) "
            f"encoded as one 0/1 column {col}."
        )
    if rule.encoding == "onehot":
        return f"Column {name} ({len(levels)} levels) one-hot encoded into {len(levels)} columns."
    if rule.encoding == "frequency":
        return (
            f"Column {name} ({len(levels)} levels, more than the {threshold} that are one-hot "
            f"encoded) encoded as codes 0–{len(levels) - 1} in order of frequency (0: the most "
            f"frequent level, {_quoted(levels[0])}; ties alphabetical)."
        )
    order = "declared order" if declared else "alphabetical order"
    return (
        f"Column {name} ({len(levels)} levels) encoded as ordinal codes "
        f"0–{len(levels) - 1} ({order})."
    )


def _output_names(rule: _Rule, taken: set[str]) -> list[str]:
    levels = rule.levels or []
    if rule.kind == "numeric" and rule.indicator:
        return [_unique_name(rule.name, taken), _unique_name(f"{rule.name}={GAP_LEVEL}", taken)]
    if rule.encoding == "binary":
        return [_unique_name(f"{rule.name}={levels[1]}", taken)]
    if rule.encoding == "onehot":
        return [_unique_name(f"{rule.name}={lv}", taken) for lv in levels]
    return [_unique_name(rule.name, taken)]


def _encode_values(rule: _Rule, values: np.ndarray, gaps=None) -> list[np.ndarray]:
    """The encoded columns of one converted column (numbers as they are).

    ``gaps`` marks the rows that were gaps before filling (the 0/1 gap column).
    """
    if rule.kind == "numeric":
        if rule.indicator:
            return [values.astype(np.float64, copy=False), np.asarray(gaps, dtype=np.float64)]
        return [values.astype(np.float64, copy=False)]
    # Only missing='keep' (or an unseen value) leaves a gap here; its rows stay NaN in
    # every column the text becomes, so a fold-wise imputer sees them.
    missing = pd.isna(values)
    levels = rule.levels or []
    if rule.encoding == "binary":
        return [_with_nan((values == levels[1]).astype(np.float64), missing)]
    if rule.encoding == "onehot":
        return [_with_nan((values == lv).astype(np.float64), missing) for lv in levels]
    codes = {lv: float(i) for i, lv in enumerate(levels)}
    return [np.array([codes.get(v, np.nan) for v in values], dtype=np.float64)]
