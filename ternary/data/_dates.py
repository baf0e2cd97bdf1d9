"""Dates and times in a text column read as numbers in time order: days since 1970-01-01.

A text column is read as dates when each of its values parses in one reading: ISO
(``2023-06-29``, with an optional time), numeric day/month/year with ``/``, ``.`` or
``-`` (day-first or month-first), and month names (``05 Feb 2022``, ``Feb 5, 2022``);
a column may mix these formats. Numeric day/month dates are read the one way the
column allows: a value with a first number above 12 (``13/08/2022``) makes it
day-first, one with a second number above 12 (``08/13/2022``) month-first; a column
with both, or with neither and a value that reads as two different dates
(``05/06/2022``), stays text and the report says why. At most 5 % of the present
values may fail to parse (they become gaps, reported); more, and the column stays
text. The days are a float (times are fractions of a day).
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ._dataset import _quoted

_TIMES = ("", " %H:%M", " %H:%M:%S", "T%H:%M", "T%H:%M:%S", " %H:%M:%S.%f", "T%H:%M:%S.%f")
_ISO = tuple(f"%Y{s}%m{s}%d{t}" for s in "-/" for t in _TIMES)
_DAY_FIRST = tuple(f"%d{s}%m{s}%Y{t}" for s in "/.-" for t in _TIMES[:3])
_MONTH_FIRST = tuple(f"%m{s}%d{s}%Y{t}" for s in "/.-" for t in _TIMES[:3])
_NAMED = tuple(
    f
    for m in ("%b", "%B")
    for f in (f"%d {m} %Y", f"%d-{m}-%Y", f"{m} %d %Y", f"{m} %d, %Y", f"%d {m}, %Y")
)
_FAMILIES = {"iso": _ISO, "day-first": _DAY_FIRST, "month-first": _MONTH_FIRST, "named": _NAMED}
_NAMES = {
    "iso": "ISO",
    "day-first": "day-first",
    "month-first": "month-first",
    "named": "with month names",
}
# A quick look before parsing: a date starts with digits and a separator, or a month name.
_LOOKS = re.compile(
    r"\d{1,4}[-/.]\d{1,2}[-/.]\d{2,4}(?:[ T]\d.*)?|\d{1,2}[ -][A-Za-z]{3,9},?[ -]\d{4}"
    r"|[A-Za-z]{3,9} \d{1,2},? \d{4}"
)
_SAMPLE = 200
_PROBE = 500
_LOOK_SHARE = 0.8
_JUNK_SHARE = 0.05
EPOCH = "1970-01-01"
_DAY_NS = 86_400 * 10**9


@dataclass
class _DateReading:
    """A text column read as dates, or why it was not."""

    days: np.ndarray | None  # float64 days since the epoch, NaN where unreadable
    formats: tuple = ()  # the formats accepted, in the order tried
    line: str = ""  # the report line


def _parse(uniques: np.ndarray, formats: tuple, hits: list | None = None) -> np.ndarray:
    """Days of each unique text under the first format that reads it (NaN: none).

    ``hits`` collects the formats that read at least one text.
    """
    out = np.full(len(uniques), np.nan)
    todo = np.ones(len(uniques), dtype=bool)
    for fmt in formats:
        if not todo.any():
            break
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            parsed = pd.to_datetime(pd.Series(uniques[todo]), format=fmt, errors="coerce")
        ok = parsed.notna().to_numpy()
        if ok.any() and hits is not None:
            hits.append(fmt)
        days = parsed.to_numpy(dtype="datetime64[ns]").astype(np.int64) / _DAY_NS
        idx = np.flatnonzero(todo)[ok]
        out[idx] = days[ok]
        todo[idx] = False
    return out


def _families(uniques: np.ndarray) -> tuple[dict, dict]:
    """Each family's days of ``uniques`` (ISO first, the others for what ISO left), and
    the formats of each family that read something."""
    hits: dict[str, list] = {fam: [] for fam in _FAMILIES}
    by_family = {"iso": _parse(uniques, _ISO, hits["iso"])}
    rest = np.isnan(by_family["iso"])
    for fam in ("day-first", "month-first", "named"):
        days = np.full(len(uniques), np.nan)
        if rest.any():  # a text failing every format is pandas' slow case: try few
            days[rest] = _parse(uniques[rest], _FAMILIES[fam], hits[fam])
        by_family[fam] = days
    return by_family, hits


def _as_dates(name: str, values: np.ndarray) -> _DateReading | None:
    """``values`` (object, None for gaps) read as dates; None when they do not look like dates.

    The readings are found on the first distinct values (``_PROBE``), every value is
    then parsed with the formats found there only: a column of date-like texts that
    are no dates costs a few hundred failed parses, not one per format and value.
    """
    present = values[pd.notna(values)]
    if not len(present):
        return None
    codes, uniques = pd.factorize(present)
    uniques = np.asarray(uniques, dtype=object)
    sample = uniques[:_SAMPLE]
    looks = sum(1 for u in sample if len(u) <= 40 and _LOOKS.fullmatch(u))
    if looks < _LOOK_SHARE * len(sample):
        return None
    probe = uniques[:_PROBE]
    by_family, hits = _families(probe)
    dmy, mdy = by_family["day-first"], by_family["month-first"]
    only_dmy = ~np.isnan(dmy) & np.isnan(mdy)
    only_mdy = np.isnan(dmy) & ~np.isnan(mdy)
    both = ~np.isnan(dmy) & ~np.isnan(mdy) & (dmy != mdy)
    q = _quoted(name)
    if only_dmy.any() and only_mdy.any():
        a, b = probe[np.argmax(only_dmy)], probe[np.argmax(only_mdy)]
        return _DateReading(
            None,
            line=f"Column {q} stays text: it mixes day-first ({_quoted(a)}) and month-first "
            f"({_quoted(b)}) dates, so a date such as 05/06 cannot be read one way.",
        )
    if both.any() and not (only_dmy.any() or only_mdy.any()):
        return _DateReading(
            None,
            line=f"Column {q} stays text: its dates could be day-first or month-first "
            f"({_quoted(probe[np.argmax(both)])}) and no value settles which. Write them "
            "as 2022-06-05 (ISO) to have them read as dates.",
        )
    numeric = "month-first" if only_mdy.any() else "day-first"
    found = tuple(f for fam in ("iso", numeric, "named") for f in hits[fam])
    days = _parse(uniques, found) if found else np.full(len(uniques), np.nan)
    # The rest of the families found (a second named style, a time of day), on the few
    # values left; new rows are read with all of them too.
    families = [fam for fam in ("iso", numeric, "named") if hits[fam]]
    formats = found + tuple(f for fam in families for f in _FAMILIES[fam] if f not in found)
    left = np.isnan(days)
    if found and left.any() and left.sum() <= max(_PROBE, _JUNK_SHARE * len(uniques)):
        days[left] = _parse(uniques[left], formats[len(found) :])
    used = [
        (fam, probe[np.argmax(~np.isnan(by_family[fam]))])
        for fam in ("iso", numeric, "named")
        if hits[fam]
    ]
    row_days = days[codes]
    failed = np.isnan(row_days)
    if not used or failed.sum() > _JUNK_SHARE * len(present):
        return _DateReading(
            None,
            line=f"Column {q} stays text: only {int((~failed).sum())} of its {len(present)} "
            f"values read as dates (at least {100 - 100 * _JUNK_SHARE:.0f} % must).",
        )
    shown = ", ".join(f"{_NAMES[fam]} ({_quoted(example)})" for fam, example in used)
    line = (
        f"Column {q}: read {len(present) - int(failed.sum())} dates ({shown}) as days since "
        f"{EPOCH}, in time order."
    )
    if failed.any():
        line += f" {int(failed.sum())} value(s) that are no date were treated as gaps."
    out = np.full(len(values), np.nan)
    out[np.flatnonzero(pd.notna(values))] = row_days
    return _DateReading(out, formats, line)


def _days_of(text: pd.Series, formats: tuple) -> np.ndarray:
    """New texts read with the formats learned at fit (NaN: a gap or not such a date)."""
    codes, uniques = pd.factorize(text, use_na_sentinel=True)
    days = _parse(np.asarray(uniques, dtype=object), formats)
    return np.append(days, np.nan)[codes]
