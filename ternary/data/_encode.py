"""How a column read at fit becomes matrix columns: what was learned, the encodings, the names.

`_Rule` holds what `Preprocessor.fit` learned about one raw column; the functions
below turn it into the encoded columns and their names, the same way at fit and at
transform, and read a column of new rows with exactly the mapping fit learned
(`_convert_new`). Imports go one way: ``_preprocess`` imports this module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ._clean import _FLOAT32_MAX, _clean_text, _to_float, _unique_name, _with_nan
from ._columns import _INDICATOR_MIN, _INDICATOR_SHARE, GAP_LEVEL
from ._dataset import _quoted
from ._dates import _day_text, _days_of, _flags


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
    sentinels: tuple = ()  # dates read as "no date" (days), each with a 0/1 column
    span: tuple = ()  # a date column's first and last day at fit (sentinels left out)
    gap: str | None = None  # the level a text column's gaps became (None: none)


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
    if rule.kind == "numeric":
        names = [_unique_name(rule.name, taken)]
        if rule.indicator:
            names.append(_unique_name(f"{rule.name}={GAP_LEVEL}", taken))
        return names + [_unique_name(f"{rule.name}={_day_text(d)}", taken) for d in rule.sentinels]
    if rule.encoding == "binary":
        return [_unique_name(f"{rule.name}={levels[1]}", taken)]
    if rule.encoding == "onehot":
        return [_unique_name(f"{rule.name}={lv}", taken) for lv in levels]
    return [_unique_name(rule.name, taken)]


def _encode_values(rule: _Rule, values: np.ndarray, gaps=None, flags=None) -> list[np.ndarray]:
    """The encoded columns of one converted column (numbers as they are).

    ``gaps`` marks the rows that were gaps before filling (the 0/1 gap column);
    ``flags`` the sentinel date each row held (its index in ``rule.sentinels``, -1:
    none), each sentinel's 0/1 column.
    """
    if rule.kind == "numeric":
        out = [values.astype(np.float64, copy=False)]
        if rule.indicator:
            out.append(np.asarray(gaps, dtype=np.float64))
        for k in range(len(rule.sentinels)):
            out.append((flags == k).astype(np.float64))
        return out
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


def _convert_new(rule: _Rule, raw: pd.Series, tokens: frozenset):
    """One raw column of new rows read as at fit: ``(values, gap mask, flags, met)``.

    The mask marks the rows filled as gaps (gaps and unseen values), before filling;
    ``flags`` the sentinel date each row held (None: no sentinels); ``met`` counts
    what the rows held, by the `TransformReport` field that reports it.
    """
    flags = None
    if rule.kind == "numeric":
        if rule.dates:
            values, flags, met = _dates_new(rule, raw, tokens)
        else:
            values, met = _numbers_of(rule, raw, tokens), {"unseen": 0}
        infinite = np.isinf(values)
        if infinite.any():
            values = np.where(infinite, np.nan, values)
        with np.errstate(invalid="ignore"):
            if (np.abs(values) > _FLOAT32_MAX).any():
                values = np.clip(values, -_FLOAT32_MAX, _FLOAT32_MAX)
        filled = np.isnan(values)
        missing = filled if flags is None else filled & (flags < 0)
    else:
        values, missing, unseen = _levels_new(rule, raw, tokens)
        filled, met = missing, {"unseen": unseen}
    met["gaps"] = int(missing.sum()) - met["unseen"]
    if filled.any() and rule.fill is not None:
        values = np.where(filled, rule.fill, values)
        values = values.astype(np.float64 if rule.kind == "numeric" else object)
    return values, missing, flags, met


def _dates_new(rule: _Rule, raw: pd.Series, tokens: frozenset):
    """A date column of new rows: ``(days, flags, met)``, its sentinels made gaps."""
    text, marked = _clean_text(raw, tokens)
    days, outside = _days_of(text, rule.dates)
    met = {"unseen": int((np.isnan(days) & ~marked.to_numpy() & ~outside).sum())}
    flags = _flags(days, rule.sentinels)
    if flags is not None:
        met["no_date"] = int((flags >= 0).sum())
        days = np.where(flags >= 0, np.nan, days)
    if rule.span:
        with np.errstate(invalid="ignore"):
            met["beyond_training"] = int(((days < rule.span[0]) | (days > rule.span[1])).sum())
    return days, flags, met


def _levels_new(rule: _Rule, raw: pd.Series, tokens: frozenset):
    """A text column of new rows read with fit's mapping: ``(levels, missing, unseen)``.

    A text is a level only as fit read it: the levels of the rows, never the gap
    level, and with merged spellings the level whose spelling matches without
    letter case (``" NORTH"`` is ``North``).
    """
    text, missing_mask = _clean_text(raw, tokens)
    missing = missing_mask.to_numpy()
    real = [lv for lv in rule.levels or [] if lv != rule.gap]
    if rule.merge:
        lookup: dict[str, object] = {}
        for lv in real:  # a model saved before `gap` keeps its gap level last: never first
            lookup.setdefault(str(lv).lower(), lv)
        mapped = text.str.lower().map(lookup).astype(object)
        known = mapped.notna().to_numpy()
        values = mapped.to_numpy(dtype=object, copy=True)
        values[~known] = None
    else:
        values = text.to_numpy(dtype=object, na_value=None)
        known = pd.Series(values).isin(real).to_numpy()
    strange = ~missing & ~known
    missing = missing | strange
    values = np.where(missing, np.array(None, dtype=object), values).astype(object)
    return values, missing, int(strange.sum())


def _numbers_of(rule: _Rule, raw: pd.Series, tokens: frozenset) -> np.ndarray:
    if pd.api.types.is_bool_dtype(raw.dtype) or pd.api.types.is_numeric_dtype(raw.dtype):
        return raw.to_numpy(dtype=np.float64, na_value=np.nan)
    text, missing = _clean_text(raw, tokens)
    if rule.thousands:  # the group separator goes, as at fit
        text = text.str.replace("." if rule.decimal_comma else ",", "", regex=False)
    if rule.decimal_comma:
        text = text.str.replace(",", ".", regex=False)
    numbers = _to_float(text)
    failed = ~missing.to_numpy() & np.isnan(numbers)
    if failed.any():
        bad = text[failed]
        strange = ~bad.isin(list(rule.junk)).to_numpy() if rule.junk else np.ones(len(bad), bool)
        if strange.any():
            row = int(np.flatnonzero(failed)[np.argmax(strange)])
            raise ValueError(
                f"Column {_quoted(rule.name)} holds numbers in the training data but the text "
                f"{_quoted(bad.iloc[int(np.argmax(strange))])} in row {row + 1} of these rows. "
                "Write a number there, or leave the cell empty for a gap."
            )
    return numbers
