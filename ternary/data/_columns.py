"""How one raw column is read: gap markers, spellings of a level, identifiers, level order.

The rules the loaders and the :class:`Preprocessor` share (issue 29), each stated
once here with its threshold:

* A gap marker is a text people write for "no value" (``_MISSING_TOKENS``). The
  marks ``""``, ``?``, ``NA``, ``null``... are always gaps; the words ``none``,
  ``nil`` and ``missing`` are gaps only where they are not a level of the column:
  in a text column where a word makes up at least 2 % of the rows (and at least
  2 rows) it is a category (credit-g's ``other_parties`` is 91 % ``none``).
* Gaps in a text column become a level of their own, ``(missing)`` (``(missing 2)``
  where a value of the column is spelled ``(missing)`` in any letter case: the gaps
  never take a real level's rows, at fit or at transform); a numeric column keeps
  its median imputation plus a 0/1 column ``name=(missing)`` when at least 5 % of its
  rows (and at least 2) are gaps; a column with more than 20 % of its values imputed
  gets a warning line.
* Levels that differ only in surrounding whitespace or letter case are one level,
  named by the most frequent spelling (ties: the alphabetically first).
* An integer column whose values are all different and whose name says
  identifier (``id``, ``*_id``, ``customerId``, ``key``, ``uuid``, ``guid``, ``*_no``,
  ``*_number``, ``index``..., in any case) is set aside like a text identifier, and so is
  one written as whole numbers that numbers the rows, 1..n or 0..n−1 in file order,
  whatever its name (a ``record_no`` kept as a feature lets a tree split on the file's
  order). A measurement that happens to be all different, such as a price, stays.
* A text column with more levels than are one-hot encoded gets codes in order of
  frequency (0 the most frequent level), never alphabetical codes; levels an ARFF
  header declares keep the declared order.

This module imports nothing of the package but ``_dataset``: ``_clean`` and
``_preprocess`` import from it, never the other way.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._dataset import _quote_list, _quoted

# Tokens that people and tools commonly write for "no value"; compared after
# stripping whitespace and lower-casing.
_MISSING_TOKENS = frozenset(
    {"", "?", "na", "n/a", "nan", "-nan", "null", "none", "missing", "#n/a", "<na>", "nil"}
)
# Words that are also ordinary category names; the rest of the tokens are marks only.
_WORD_MARKERS = frozenset({"none", "nil", "missing"})
_GAP_MARKS = _MISSING_TOKENS - _WORD_MARKERS
# A marker word is a level of a text column when it fills at least this share of the
# column's rows, and at least this many rows.
_MARKER_LEVEL_SHARE = 0.02
_MARKER_LEVEL_MIN = 2
#: the level that the gaps of a text column become (also in the feature names)
GAP_LEVEL = "(missing)"
# A numeric column gets a 0/1 gap indicator when this share of its rows (and at
# least _INDICATOR_MIN rows) are gaps: rarer gaps carry too few rows for a split.
_INDICATOR_SHARE = 0.05
_INDICATOR_MIN = 2
# More than this share of a column imputed gets a warning line.
_WARN_SHARE = 0.20
# An all-distinct integer column is an identifier when its name says so.
_IDENTIFIER_NAME = re.compile(
    r"(?i:(?:^|[_\W])(?:id|key|uuid|guid|identifier|row_?id|no|number)$|^index$)"
    r"|[a-z0-9](?:Id|ID|No|Number)$"
)
_IDENTIFIER_MIN_ROWS = 20


@dataclass
class _TextReading:
    """A text column read as levels: the values, and what the reading decided."""

    values: np.ndarray  # object: the level of each row, None for a gap
    gaps: dict = field(default_factory=dict)  # stripped spelling -> rows read as a gap
    kept_markers: dict = field(default_factory=dict)  # marker level -> rows
    merged: dict = field(default_factory=dict)  # level -> the other spellings merged into it


def _read_text(raw: pd.Series, tokens: frozenset, merge: bool) -> _TextReading:
    """Read a text column as levels, deciding on markers and spellings per distinct value.

    ``tokens`` are the lower-case gap markers; a marker word frequent enough in the
    column is a level instead (see the module docstring). With ``merge`` the levels
    are matched without letter case; surrounding whitespace always goes.
    """
    codes, uniques = pd.factorize(raw, use_na_sentinel=True)
    n_rows = len(codes)
    counts = np.bincount(codes[codes >= 0], minlength=len(uniques))
    spelled = [str(u) for u in uniques]
    stripped = [s.strip() for s in spelled]
    lower = [s.lower() for s in stripped]
    words: dict[str, int] = defaultdict(int)
    for low, k in zip(lower, counts, strict=True):
        if low in tokens and low in _WORD_MARKERS:
            words[low] += int(k)
    floor = max(_MARKER_LEVEL_MIN, _MARKER_LEVEL_SHARE * n_rows)
    kept = {w for w, k in words.items() if k >= floor}
    is_gap = [low in tokens and low not in kept for low in lower]
    key = lower if merge else stripped
    by_spelling: dict[str, int] = defaultdict(int)
    group: dict[str, set] = defaultdict(set)
    for i, k in enumerate(counts):
        if not is_gap[i]:
            by_spelling[stripped[i]] += int(k)
            group[key[i]].add(stripped[i])
    name = {g: min(spellings, key=lambda s: (-by_spelling[s], s)) for g, spellings in group.items()}
    table = [None if is_gap[i] else name[key[i]] for i in range(len(spelled))]
    values = np.array([*table, None], dtype=object)[codes]
    out = _TextReading(values)
    for i, k in enumerate(counts):
        if is_gap[i]:
            out.gaps[stripped[i]] = out.gaps.get(stripped[i], 0) + int(k)
    variants: dict[str, set] = defaultdict(set)
    for i in range(len(spelled)):
        if not is_gap[i] and spelled[i] != name[key[i]]:
            variants[name[key[i]]].add(spelled[i])
    out.merged = {lv: sorted(v) for lv, v in variants.items()}
    out.kept_markers = {
        name[key[i]]: int(by_spelling_total)
        for i, by_spelling_total in _marker_rows(lower, counts, kept).items()
    }
    return out


def _marker_rows(lower: list[str], counts: np.ndarray, kept: set) -> dict[int, int]:
    """``{index of a spelling of each kept marker: its rows, all spellings counted}``."""
    first: dict[str, int] = {}
    rows: dict[str, int] = defaultdict(int)
    for i, low in enumerate(lower):
        if low in kept:
            first.setdefault(low, i)
            rows[low] += int(counts[i])
    return {first[w]: rows[w] for w in first}


def _column_tokens(text: pd.Series, tokens: frozenset) -> frozenset:
    """``tokens`` less the marker words that are levels of this (stripped) text column."""
    words = tokens & _WORD_MARKERS
    if not words:
        return tokens
    lowered = text.str.lower()
    floor = max(_MARKER_LEVEL_MIN, _MARKER_LEVEL_SHARE * len(text))
    kept = {w for w in words if int((lowered == w).sum()) >= floor}
    return tokens - kept


def _gap_line(name: str, gaps: dict, parsed: dict | None) -> str | None:
    """The report line naming the texts read as gaps in column ``name``, with counts.

    ``gaps`` maps the stripped spellings the cleaning read as gaps to their rows;
    ``parsed`` the spellings the file parser already read as gaps ("" an empty cell).
    Nothing is said when the only gaps are empty cells.
    """
    spelled: dict[str, int] = defaultdict(int)
    for source in (parsed or {}, gaps):
        for s, k in source.items():
            spelled[str(s).strip()] += int(k)
    if not any(s for s in spelled if s):
        return None
    parts = [
        f"{'empty' if s == '' else _quoted(s)} ×{k}"
        for s, k in sorted(spelled.items(), key=lambda kv: (-kv[1], kv[0]))
    ]
    total = sum(spelled.values())
    return f"Column {_quoted(name)}: read {total} cell(s) as gaps: {', '.join(parts[:10])}."


def _reading_lines(name: str, reading: _TextReading, share_of: int) -> list[str]:
    """The report lines for the marker words kept as levels and the spellings merged."""
    lines = []
    for level, rows in reading.kept_markers.items():
        lines.append(
            f"Column {_quoted(name)}: {_quoted(level)} ({rows} rows, "
            f"{100 * rows / max(share_of, 1):.0f} %) is kept as a level, not read as a gap: "
            f"a marker word that fills at least {100 * _MARKER_LEVEL_SHARE:.0f} % of a text "
            "column is one of its categories."
        )
    if reading.merged:
        shown = [
            f"{_quoted(lv)} (also {_quote_list(v, limit=5)})"
            for lv, v in sorted(reading.merged.items())
        ]
        lines.append(
            f"Column {_quoted(name)}: merged spellings that differ only in letter case or "
            f"surrounding spaces: {', '.join(shown[:10])}"
            + (f", … ({len(shown) - 10} more)" if len(shown) > 10 else "")
            + ". Pass merge_spellings=False to keep letter cases apart."
        )
    return lines


def _is_numeric_identifier(name: str, values: np.ndarray) -> bool:
    """An integer column of all-different values whose name says identifier."""
    if not _IDENTIFIER_NAME.search(name):
        return False
    present = values[~np.isnan(values)]
    if len(present) <= _IDENTIFIER_MIN_ROWS or not np.all(present == np.round(present)):
        return False
    return len(np.unique(present)) == len(present)


def _numbers_the_rows(values: np.ndarray) -> bool:
    """Whether ``values`` (a column written as whole numbers, in file order) are exactly
    1, 2, ..., n or 0, 1, ..., n−1: a row number, never a gap, more than
    ``_IDENTIFIER_MIN_ROWS`` rows. (A column written ``0.0, 1.0, ...`` is a measurement.)"""
    values = np.asarray(values, dtype=np.float64)
    n = len(values)
    if n <= _IDENTIFIER_MIN_ROWS or values[0] not in (0.0, 1.0):
        return False
    return bool(np.array_equal(values, values[0] + np.arange(n)))


def _by_frequency(values: np.ndarray, levels: list) -> list:
    """``levels`` from the most to the least frequent in ``values`` (ties alphabetical)."""
    counts = pd.Series(values).value_counts(dropna=True)
    return sorted(levels, key=lambda lv: (-int(counts.get(lv, 0)), str(lv)))
