"""Issue 36 item 1: text dates of the years 0001-9999 read exactly; "no date" placeholders.

A text date column was parsed by pandas at microseconds and moved to nanoseconds, where
numpy wrapped every date outside 1677-2262 without a word (9999-12-31 became the year
1816). These tests read such dates through the loaders, the `Preprocessor` and
``ternary predict``, and keep ARFF dates (always read right) as they are.
"""

from __future__ import annotations

import csv
from datetime import date

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ternary import TernaryTreeClassifier, make_pipeline
from ternary.cli import main as cli_main
from ternary.data import Preprocessor, load_arff, load_csv


def _day(text: str) -> int:
    """Days since 1970-01-01 of an ISO date, from Python's calendar."""
    return date.fromisoformat(text).toordinal() - date(1970, 1, 1).toordinal()


def _open_ended(n: int = 120, seed: int = 0, share: float = 0.25) -> pd.DataFrame:
    """2012-2021 dates (the label: before or after 2017), ``share`` of them 9999-12-31."""
    rng = np.random.default_rng(seed)
    offsets = rng.integers(0, 3650, n)
    stamps = pd.Timestamp("2012-01-01") + pd.to_timedelta(offsets, unit="D")
    text = stamps.strftime("%Y-%m-%d").to_numpy(dtype=object)
    text[: int(share * n)] = "9999-12-31"
    label = np.where(offsets < 1825, "early", "late")
    return pd.DataFrame({"when": text, "x": rng.normal(size=n).round(3), "label": label})


def _csv(frame: pd.DataFrame) -> bytes:
    return frame.to_csv(index=False).encode()


# ------------------------------------------------------------- the calendar
def test_dates_of_every_century_read_as_their_own_days():
    frame = _open_ended()
    frame.loc[30, "when"] = "0001-01-01"
    frame.loc[31, "when"] = "1500-06-15"
    frame.loc[32, "when"] = "1600-01-01 12:00"
    ds = load_csv(_csv(frame), target="label")
    when = ds.X["when"].to_numpy()
    # Before: -78,650.05 (the year 1754), 42,004.98 (2085) and a day of 1874.
    assert when[30] == _day("0001-01-01") == -719_162
    assert when[31] == _day("1500-06-15") == -171_499
    assert when[32] == _day("1600-01-01") + 0.5
    real = [_day(t) for t in frame["when"][33:]]
    np.testing.assert_array_equal(when[33:], real)
    line = next(x for x in ds.report if x.startswith("Column 'when': read"))
    assert "0001-01-01 to 9999-12-31" in line and "in time order" in line


def test_a_rare_far_date_stays_a_date_and_the_latest():
    frame = _open_ended(share=0.0)
    frame.loc[0, "when"] = "9999-12-31"  # 1 row of 120: below 2 %, a real date
    ds = load_csv(_csv(frame), target="label")
    assert ds.X["when"][0] == _day("9999-12-31") == 2_932_896  # was -56,159.75 (1816)
    assert ds.X["when"].max() == ds.X["when"][0]
    assert ds.feature_names == ["when", "x"]


def test_dates_read_without_nanoseconds_when_pandas_cannot_hold_them(monkeypatch):
    # pandas before 3.0 parses at nanoseconds: a date beyond 2262 is NaT there.
    real = pd.to_datetime

    def nanoseconds_only(arg, *args, **kwargs):
        out = real(arg, *args, **kwargs)
        if isinstance(out, pd.Series) and out.dtype.kind == "M":
            low, high = pd.Timestamp.min, pd.Timestamp.max  # the nanosecond span
            out = out.where((out >= low) & (out <= high)).astype("datetime64[ns]")
        return out

    monkeypatch.setattr(pd, "to_datetime", nanoseconds_only)
    frame = _open_ended(share=0.0)
    frame.loc[0, "when"] = "9999-12-31"
    frame.loc[1, "when"] = "0001-01-01 06:00"
    ds = load_csv(_csv(frame), target="label")
    assert ds.X["when"][0] == 2_932_896
    assert ds.X["when"][1] == -719_162 + 0.25
    np.testing.assert_array_equal(ds.X["when"][2:], [_day(t) for t in frame["when"][2:]])


def test_dates_that_name_no_day_are_counted_gaps_and_the_rest_are_read():
    frame = _open_ended(share=0.0)
    frame.loc[:29, "when"] = "0000-00-00"  # MySQL's zero date, a quarter of the rows
    frame.loc[30, "when"] = "2015-00-10"
    ds = load_csv(_csv(frame), target="label")  # before: the column stayed text
    assert ds.X["when=(missing)"].tolist() == [1.0] * 31 + [0.0] * 89
    median = float(np.median([_day(t) for t in frame["when"][31:]]))
    assert (ds.X["when"][:31] == median).all()
    line = next(x for x in ds.report if x.startswith("Column 'when': read 89 dates"))
    assert "31 value(s) that name no day of the calendar" in line and "'0000-00-00'" in line


def test_a_signed_year_before_the_calendar_is_a_counted_gap_not_a_crash():
    frame = _open_ended(share=0.0)
    frame.loc[7, "when"] = "-0001-01-01"  # pandas reads a year -1: before 0001-01-01
    ds = load_csv(_csv(frame), target="label")  # before: OverflowError in the report's range
    line = next(x for x in ds.report if x.startswith("Column 'when': read 119 dates"))
    assert "1 value(s) that are no date were treated as gaps" in line
    first = min(frame["when"].drop(index=7))
    assert f"{first} to " in line  # the range is the real dates'
    rest = ds.X["when"].drop(index=7).to_numpy()
    assert rest.tolist() == [_day(t) for t in frame["when"].drop(index=7)]


# ---------------------------------------------------------------- sentinels
def test_an_open_end_is_named_and_gets_its_own_column():
    frame = _open_ended()
    ds = load_csv(_csv(frame), target="label")
    assert ds.feature_names == ["when", "when=9999-12-31", "x"]
    flagged = (frame["when"] == "9999-12-31").to_numpy(dtype=float)
    np.testing.assert_array_equal(ds.X["when=9999-12-31"], flagged)
    real = np.array([_day(t) for t in frame["when"][30:]], dtype=float)
    # A gap in the days: the median of the real dates, never a date after them all.
    assert (ds.X["when"][:30] == np.median(real)).all()
    np.testing.assert_array_equal(ds.X["when"][30:], real)
    assert (
        "Column 'when': '9999-12-31' fills 30 of 120 rows (25 %), a date tables write for "
        '"no date" (a placeholder or an open end): read as a gap in the days, marked in its '
        "own 0/1 column 'when=9999-12-31'." in ds.report
    )
    assert 'imputed 30 value(s) (0 missing, 30 "no date") with the median' in " ".join(ds.report)


@pytest.mark.parametrize("sentinel", ["9999-12-31", "1900-01-01", "0001-01-01", "1970-01-01"])
def test_each_kind_of_sentinel_from_two_percent_on(sentinel):
    frame = _open_ended(n=200, share=0.0)
    frame.loc[:3, "when"] = sentinel  # 4 rows of 200: 2 %
    ds = load_csv(_csv(frame), target="label")
    assert ds.X[f"when={sentinel}"].tolist() == [1.0] * 4 + [0.0] * 196
    assert any(f"'{sentinel}' fills 4 of 200 rows (2 %)" in x for x in ds.report)
    frame.loc[:2, "when"] = frame.loc[4, "when"]  # 1 row of 200: a date like the others
    frame.loc[3, "when"] = sentinel
    ds = load_csv(_csv(frame), target="label")
    assert ds.feature_names == ["when", "x"]
    assert ds.X["when"][3] == _day(sentinel)


def test_an_ordinary_frequent_date_is_no_sentinel():
    frame = _open_ended(share=0.0)
    frame.loc[:29, "when"] = "2015-06-01"  # a busy day, a quarter of the rows
    ds = load_csv(_csv(frame), target="label")
    assert ds.feature_names == ["when", "x"]
    assert (ds.X["when"][:30] == _day("2015-06-01")).all()


def test_missing_keep_leaves_a_sentinel_as_nan_and_drop_drops_its_rows():
    frame = _open_ended()
    frame.loc[40, "when"] = ""
    keep = load_csv(_csv(frame), target="label", missing="keep")
    assert np.isnan(keep.X["when"][:30]).all() and np.isnan(keep.X["when"][40])
    assert keep.X["when=9999-12-31"].sum() == 30
    drop = load_csv(_csv(frame), target="label", missing="drop")
    assert len(drop.y) == 89
    assert "when=9999-12-31" not in drop.feature_names  # constant once its rows are gone


# ------------------------------------------------------- transform and predict
def test_transform_reads_new_dates_by_the_same_rules_and_says_what_it_met():
    frame = _open_ended()
    raw = frame[["when", "x"]]
    pre = Preprocessor()
    fitted = pre.fit_transform(raw)
    np.testing.assert_array_equal(pre.transform(raw), fitted)  # fit and transform agree
    new = pd.DataFrame(
        {"when": ["9999-12-31", "1600-01-01", "0001-01-01", "2013-05-05", "0000-00-00"], "x": 0}
    )
    matrix, report = pre.transform_with_report(new)
    names = pre.get_feature_names_out().tolist()
    when, flag = matrix[:, names.index("when")], matrix[:, names.index("when=9999-12-31")]
    median = float(np.median([_day(t) for t in frame["when"][30:]]))
    np.testing.assert_array_equal(
        when, [median, _day("1600-01-01"), -719_162, _day("2013-05-05"), median]
    )
    np.testing.assert_array_equal(flag, [1, 0, 0, 0, 0])
    assert report.no_date == {"when": 1}
    assert report.beyond_training == {"when": 2}
    assert report.gaps == {"when": 1} and report.unseen == {}
    lines = report.lines()
    assert any('1 date(s) that training read as a probable "no date"' in x for x in lines)
    assert any(
        x.startswith("2 date(s) in 'when' lie before or after every training") for x in lines
    )


def test_ternary_predict_scores_far_dates_in_time_order_and_says_so(tmp_path, capsys):
    sio = pytest.importorskip("skops.io")
    train = _open_ended(n=400, seed=1, share=0.0)
    ds = load_csv(_csv(train), target="label")
    tree = TernaryTreeClassifier(random_state=0).fit(ds.X, ds.y)
    model = tmp_path / "model.skops"
    sio.dump(make_pipeline(ds.preprocessor, tree), model)
    data = tmp_path / "new.csv"
    data.write_text("when,x\n9999-12-31,0\n1600-01-01,0\n2013-05-05,0\n2020-05-05,0\n")
    out = tmp_path / "out.csv"
    assert cli_main(["predict", str(model), str(data), "--out", str(out)]) == 0
    with open(out, newline="") as fh:
        rows = list(csv.DictReader(fh))
    # Before: 9999-12-31 was the year 1816 ("early") and 1600-01-01 the year 2184 ("late").
    assert [r["prediction"] for r in rows] == ["late", "early", "early", "late"]
    err = capsys.readouterr().err
    assert "2 date(s) in 'when' lie before or after every training date" in err


_ANY_DAY = st.integers(_day("0001-01-01"), _day("9999-12-31"))
_PLACEHOLDERS = st.sampled_from(["9999-12-31", "0001-01-01", "1900-01-01", "1970-01-01", ""])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(_ANY_DAY, _PLACEHOLDERS), min_size=8, max_size=60))
def test_any_day_of_the_calendar_reads_exactly_at_fit_and_at_transform(cells):
    text = [c if isinstance(c, str) else date.fromordinal(c + 719_163).isoformat() for c in cells]
    days = [_day(t) for t in text if t]
    assume(len(set(days)) > 1)
    raw = pd.DataFrame({"when": text})
    pre = Preprocessor()
    fitted = pre.fit_transform(raw)
    np.testing.assert_array_equal(pre.transform(raw), fitted)
    names = pre.get_feature_names_out().tolist()
    flagged = np.zeros(len(text), dtype=bool)
    for name in names:
        if name not in ("when", "when=(missing)"):
            held = np.array(text) == name.split("=", 1)[1]  # its rows are that date's
            np.testing.assert_array_equal(fitted[:, names.index(name)], held)
            flagged |= held
    read = np.array([bool(t) for t in text]) & ~flagged
    if "when" in names:  # else one date is left beside the placeholders: a constant
        # Every date not set aside as "no date" is its own calendar day.
        expected = [_day(t) for t, r in zip(text, read, strict=True) if r]
        np.testing.assert_array_equal(fitted[read, names.index("when")], expected)


# ------------------------------------------------------------- held: ARFF dates
def test_arff_dates_stay_exact_seconds(tmp_path):
    path = tmp_path / "dates.arff"
    days = ["9999-12-31", "0001-01-01", "1500-06-15", "2015-03-01", "2016-03-01", "1600-01-01"]
    rows = "\n".join(f"{d},{i},{'ab'[i % 2]}" for i, d in enumerate(days))
    path.write_text(
        "@relation r\n@attribute d date 'yyyy-MM-dd'\n@attribute x numeric\n"
        f"@attribute y {{a,b}}\n@data\n{rows}\n"
    )
    ds = load_arff(path)
    np.testing.assert_array_equal(ds.X["d"], [86_400.0 * _day(d) for d in days])
    assert "Attribute 'd': dates converted to seconds since 1970." in ds.report
