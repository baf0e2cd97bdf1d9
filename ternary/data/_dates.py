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

The days are counted from the calendar, so every date of the years 0001 to 9999 is
read exactly (9999-12-31 is day 2,932,896): pandas' timestamps are taken at their own
resolution (microseconds), never through nanoseconds, whose span (1677 to 2262) once
wrapped 9999-12-31 round to 1816 without a word; where pandas cannot hold a date (its
nanosecond versions), Python's calendar reads it. A value in the column's shape that
names no day of that calendar (``0000-00-00``, a year 0) is a gap, counted in the
report apart from the values that are no date, and not held against the 5 %.

A **sentinel** is a date that tables write for "no date": an end of the calendar (a
year up to 0001 or from 2200 on: 9999-12-31, 3000-01-01), the first day of a century
(1900-01-01, 2000-01-01) or the last (1999-12-31, 2099-12-31), or a system's day zero
(1970-01-01, 1899-12-30, 1904-01-01, 1601-01-01, 1753-01-01, 2038-01-19). One that
fills at least 2 % of a column's rows (and 2 rows) beside other dates is named in the
report as a probable "no date" and gets its own 0/1 column, ``name=9999-12-31``; in
the days column it is then a gap, like an empty cell (imputed, dropped or kept as
``missing`` says), so a placeholder far in the future never reads as the latest date.
A rarer one is left a date: two rows of 1970-01-01 among 500 may well be real.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from datetime import datetime, timedelta

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
_EPOCH = datetime(1970, 1, 1)
_DAY_US = 86_400 * 10**6
# the days this module reads: 0001-01-01 up to (not including) the year 10000
_FIRST_DAY = (datetime(1, 1, 1) - _EPOCH).days
_END_DAY = (datetime(9999, 12, 31) - _EPOCH).days + 1
# Years pandas before 3.0 cannot hold (it parses at nanoseconds): Python's calendar reads them.
_YEAR = re.compile(r"(?<!\d)\d{4}(?!\d)")
_NS_YEARS = (1678, 2261)
# A numeric date whose year, month or day is zero: no day of the calendar (0000-00-00).
_NUMERIC = re.compile(r"(\d{1,4})[-/.](\d{1,2})[-/.](\d{1,4})(?:[ T]\d.*)?")
# Sentinels: a share of the rows (and a count) from which a "no date" placeholder is named.
_SENTINEL_SHARE = 0.02
_SENTINEL_MIN = 2
_DAY_ZEROS = frozenset(
    {"1601-01-01", "1753-01-01", "1899-12-30", "1899-12-31", "1904-01-01", "1970-01-01"}
    | {"2038-01-19"}
)


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
        texts = uniques[todo]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            parsed = pd.to_datetime(pd.Series(texts), format=fmt, errors="coerce")
        ok = parsed.notna().to_numpy()
        days = np.full(len(texts), np.nan)
        # At pandas' own resolution, made microseconds (years 1-9999 fit in an int64).
        micros = parsed.to_numpy()[ok].astype("datetime64[us]").astype(np.int64)
        days[ok] = micros / _DAY_US
        if not ok.all() and np.datetime_data(parsed.dtype)[0] == "ns":
            _calendar(texts, fmt, days)
            ok = ~np.isnan(days)
        # pandas reads a signed year (-0001-01-01) outside the calendar this module holds
        beyond = (days < _FIRST_DAY) | (days >= _END_DAY)
        days[beyond] = np.nan
        ok = ok & ~beyond
        if ok.any() and hits is not None:
            hits.append(fmt)
        idx = np.flatnonzero(todo)[ok]
        out[idx] = days[ok]
        todo[idx] = False
    return out


def _calendar(texts: np.ndarray, fmt: str, days: np.ndarray) -> None:
    """Fill ``days`` (NaN where pandas failed) by Python's calendar, for the texts whose
    year lies beyond the span pandas can hold at nanoseconds (its versions before 3.0)."""
    for i in np.flatnonzero(np.isnan(days)):
        text = str(texts[i])
        years = [int(y) for y in _YEAR.findall(text)]
        if not any(y < _NS_YEARS[0] or y > _NS_YEARS[1] for y in years):
            continue
        try:
            stamp = datetime.strptime(text, fmt)
        except ValueError:
            continue
        since = stamp - _EPOCH
        days[i] = since.days + (since.seconds * 10**6 + since.microseconds) / _DAY_US


def _outside_calendar(text) -> bool:
    """A numeric date whose year, month or day is zero (``0000-00-00``): no day at all."""
    match = _NUMERIC.fullmatch(str(text))
    if match is None:
        return False
    a, b, c = match.groups()
    year, others = (a, (b, c)) if len(a) == 4 else (c, (a, b))
    return len(year) == 4 and (int(year) == 0 or any(int(x) == 0 for x in others))


def _day_text(day: float) -> str:
    """A day count as ISO text: ``9999-12-31``, with the time of day when it has one."""
    stamp = _EPOCH + timedelta(microseconds=round(day * _DAY_US))
    if stamp.time() == datetime.min.time():
        return stamp.date().isoformat()
    return stamp.isoformat(sep=" ", timespec="seconds" if not stamp.microsecond else "auto")


def _is_sentinel_day(day: float) -> bool:
    """Whether a date is one tables write for "no date" (see the module docstring)."""
    try:
        stamp = _EPOCH + timedelta(days=float(np.floor(day)))
    except OverflowError:
        return False
    year, month_day = stamp.year, (stamp.month, stamp.day)
    if year <= 1 or year >= 2200:
        return True
    if month_day == (1, 1) and year % 100 == 0 or month_day == (12, 31) and year % 100 == 99:
        return True
    return stamp.date().isoformat() in _DAY_ZEROS


def _sentinels(days: np.ndarray) -> tuple[float, ...]:
    """The sentinel dates among ``days`` that fill at least 2 % of its rows (and 2 rows),
    ascending; none when no other date is left beside them."""
    present = days[~np.isnan(days)]
    if not len(present):
        return ()
    values, counts = np.unique(present, return_counts=True)
    floor = max(_SENTINEL_MIN, _SENTINEL_SHARE * len(days))
    found = tuple(
        float(v) for v, k in zip(values, counts, strict=True) if k >= floor and _is_sentinel_day(v)
    )
    return found if len(found) < len(values) else ()


def _flags(days: np.ndarray, sentinels: tuple) -> np.ndarray | None:
    """Per row, the index of the sentinel it holds (-1: none); None without sentinels."""
    if not sentinels:
        return None
    flags = np.full(len(days), -1, dtype=np.int64)
    for k, day in enumerate(sentinels):
        flags[days == day] = k
    return flags


def _sentinel_line(name: str, day: float, rows: int, n_rows: int) -> str:
    """The report line naming a sentinel date of column ``name``."""
    text = _day_text(day)
    return (
        f"Column {_quoted(name)}: {_quoted(text)} fills {rows} of {n_rows} rows "
        f'({100 * rows / max(n_rows, 1):.0f} %), a date tables write for "no date" (a '
        f"placeholder or an open end): read as a gap in the days, marked in its own 0/1 "
        f"column {_quoted(f'{name}={text}')}."
    )


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
    outside = _outside(uniques, days)[codes]
    junk = failed & ~outside
    if not used or junk.sum() > _JUNK_SHARE * len(present):
        return _DateReading(
            None,
            line=f"Column {q} stays text: only {int((~failed).sum())} of its {len(present)} "
            f"values read as dates (at least {100 - 100 * _JUNK_SHARE:.0f} % must).",
        )
    shown = ", ".join(f"{_NAMES[fam]} ({_quoted(example)})" for fam, example in used)
    read = days[~np.isnan(days)]
    line = (
        f"Column {q}: read {len(present) - int(failed.sum())} dates ({shown}), "
        f"{_day_text(read.min())} to {_day_text(read.max())}, as days since {EPOCH}, in "
        "time order."
    )
    if outside.any():
        example = uniques[codes[np.argmax(outside)]]
        line += (
            f" {int(outside.sum())} value(s) that name no day of the calendar (years 0001 to "
            f"9999; e.g. {_quoted(example)}) were treated as gaps."
        )
    if junk.any():
        line += f" {int(junk.sum())} value(s) that are no date were treated as gaps."
    out = np.full(len(values), np.nan)
    out[np.flatnonzero(pd.notna(values))] = row_days
    return _DateReading(out, formats, line)


def _outside(uniques: np.ndarray, days: np.ndarray) -> np.ndarray:
    """Which unread ``uniques`` name no day of the calendar (``0000-00-00``).

    Looked for only among as many unread texts as the other formats are tried on
    (at most 500 or 5 % of the distinct texts): such texts are a few spellings, and
    a column of more unread texts is no column of dates.
    """
    out = np.zeros(len(uniques), dtype=bool)
    unread = np.flatnonzero(np.isnan(days))
    if len(unread) <= max(_PROBE, _JUNK_SHARE * len(uniques)):
        for i in unread:
            out[i] = _outside_calendar(uniques[i])
    return out


def _days_of(text: pd.Series, formats: tuple) -> tuple[np.ndarray, np.ndarray]:
    """New texts read with the formats learned at fit: ``(days, outside)``.

    ``days`` is NaN for a gap or a text that is no such date; ``outside`` marks the
    texts that name no day of the calendar (``0000-00-00``), gaps as at fit.
    """
    codes, uniques = pd.factorize(text, use_na_sentinel=True)
    uniques = np.asarray(uniques, dtype=object)
    days = _parse(uniques, formats)
    outside = np.append(_outside(uniques, days), False)[codes]
    return np.append(days, np.nan)[codes], outside
