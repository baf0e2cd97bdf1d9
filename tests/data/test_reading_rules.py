"""Issue 29: uploads read as the person means them, each rule on a generated table.

Gap markers that are a real category, gaps as gaps, one spelling per level,
identifier columns set aside, dates in time order, many levels coded by frequency,
and the round trip: a saved pipeline scores raw rows with gaps, new spellings, new
dates and an unseen category the way the load report describes.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.stats import spearmanr

from ternary import TernaryTreeClassifier, make_pipeline
from ternary.data import Preprocessor, load_arff, load_csv


def _csv(frame: pd.DataFrame) -> bytes:
    return frame.to_csv(index=False).encode()


# ----------------------------------------------------------------- 1. markers
def test_credit_g_written_as_csv_keeps_every_none_level(shared_datasets, tmp_path):
    ds = load_arff(shared_datasets / "credit-g.arff")
    path = tmp_path / "credit-g.csv"
    ds.raw.to_csv(path, index=False)
    csv = load_csv(path)
    for column, rows in (("other_parties", 907), ("other_payment_plans", 814)):
        assert csv.X[f"{column}=none"].sum() == rows
        assert any(
            line.startswith(f"Column '{column}': 'none' ({rows} rows") for line in csv.report
        )
    # own_telephone is 'none'/'yes': a 0/1 column, not a constant dropped.
    assert csv.X["own_telephone=yes"].sum() == 1000 - 596
    assert not any("constant" in line for line in csv.report)
    assert not any("missing value" in line for line in csv.report)
    assert csv.n_features == ds.n_features == 59


def test_a_marker_word_is_a_level_where_frequent_and_a_gap_where_rare():
    rng = np.random.default_rng(0)
    n = 200
    plan = rng.choice(["basic", "gold"], n).astype(object)
    plan[:170] = "none"  # 85 % of the column, and the label's rule
    rare = rng.choice(["a", "b"], n).astype(object)
    rare[5] = "none"  # 1 row of 200: below 2 %, a gap
    number = rng.normal(size=n).round(3).astype(object)
    number[:40] = "none"  # a numeric column: 'none' is a gap whatever its share
    y = (plan == "none").astype(int)
    frame = pd.DataFrame({"plan": plan, "rare": rare, "number": number, "y": y})
    ds = load_csv(_csv(frame))
    assert "plan=none" in ds.feature_names
    np.testing.assert_array_equal(ds.X["plan=none"], y)
    assert ds.X["rare=(missing)"].tolist() == [float(i == 5) for i in range(n)]
    assert "Column 'rare': read 1 cell(s) as gaps: 'none' ×1." in ds.report
    assert "Column 'number': read 40 cell(s) as gaps: 'none' ×40." in ds.report
    assert ds.X["number=(missing)"].sum() == 40


def test_the_report_counts_each_marker_per_column():
    data = b"a,b,y\n1,x,p\nNA,y,q\n?,x,p\n,y,q\nnull,x,p\n5,N/A,q\n7,x,p\n8,y,q\n"
    ds = load_csv(data)
    assert "Column 'a': read 4 cell(s) as gaps: empty ×1, '?' ×1, 'NA' ×1, 'null' ×1." in (
        ds.report
    )
    assert "Column 'b': read 1 cell(s) as gaps: 'N/A' ×1." in ds.report


def test_a_none_label_is_a_class_where_frequent():
    frame = pd.DataFrame({"x": np.arange(40.0), "y": ["none"] * 20 + ["some"] * 20})
    ds = load_csv(_csv(frame))
    assert ds.class_names == ["none", "some"] and ds.n_samples == 40


# ---------------------------------------------------------------- 2. gaps
def test_text_gaps_are_a_level_and_numeric_gaps_get_a_column_when_common():
    rng = np.random.default_rng(1)
    n = 100
    colour = rng.choice(["red", "green", "blue"], n).astype(object)
    colour[:30] = None
    common = rng.normal(size=n)
    common[::10] = np.nan  # 10 % gaps: a gap column
    rare = rng.normal(size=n)
    rare[3] = np.nan  # 1 %: imputed, no gap column
    frame = pd.DataFrame({"colour": colour, "common": common, "rare": rare, "y": np.arange(n) % 2})
    ds = load_csv(_csv(frame))
    assert ds.X["colour=(missing)"].sum() == 30
    assert "common=(missing)" in ds.feature_names and "rare=(missing)" not in ds.feature_names
    np.testing.assert_array_equal(ds.X["common=(missing)"], np.arange(n) % 10 == 0)
    assert ds.X["common"][0] == np.nanmedian(common)
    assert "Column 'colour': 30 missing value(s) kept as a level of their own, '(missing)'." in (
        ds.report
    )
    assert ds.warnings == []  # 10 % imputed: below the 20 % that warns


def test_columns_with_gaps_in_the_same_rows_share_one_gap_column():
    a = np.arange(40.0)
    b = np.arange(40.0) * 2
    c = np.arange(40.0) * 3
    a[:4] = b[:4] = np.nan  # the same 4 rows
    c[10:14] = np.nan  # other rows
    frame = pd.DataFrame({"a": a, "b": b, "c": c, "y": np.arange(40) % 2})
    ds = load_csv(_csv(frame))
    assert [f for f in ds.feature_names if f.endswith("=(missing)")] == [
        "a=(missing)",
        "c=(missing)",
    ]
    assert (
        "Column 'b': imputed 4 missing value(s) with the median 43; the 0/1 column "
        "'a=(missing)' marks them (gaps in the same rows)." in ds.report
    )
    new = pd.DataFrame({"a": [1.0, None], "b": [None, 2.0], "c": [None, None]})
    X = pd.DataFrame(ds.preprocessor.transform(new), columns=ds.feature_names)
    assert X["a=(missing)"].tolist() == [0.0, 1.0] and X["b"].tolist() == [43.0, 2.0]


def test_more_than_a_fifth_imputed_is_a_warning():
    x = np.arange(50.0)
    x[:15] = np.nan
    ds = load_csv(_csv(pd.DataFrame({"x": x, "z": np.arange(50) % 7, "y": np.arange(50) % 2})))
    assert ds.warnings == [
        "Warning: column 'x' had 30 % of its values missing (more than 20 %), filled with the "
        "median 32: its splits rest on the few values measured."
    ]


# ------------------------------------------------------------- 3. spellings
REGIONS = ["North", "north ", " NORTH", "South", "south", "East", "EAST ", "West", "west"]


def test_levels_differing_in_case_or_spaces_are_one_level():
    region = [REGIONS[i % len(REGIONS)] for i in range(90)] + ["North"] * 5
    frame = pd.DataFrame({"region": region, "y": np.arange(95) % 2})
    ds = load_csv(_csv(frame))
    # North is its level's most frequent spelling (15 rows); the other levels have two
    # spellings of 10 rows each: the alphabetically first names the level.
    assert ds.feature_names == ["region=EAST", "region=North", "region=South", "region=West"]
    assert ds.X["region=North"].sum() == 35 and ds.X["region=EAST"].sum() == 20
    line = next(x for x in ds.report if "merged spellings" in x)
    # The CSV parser drops a leading space; a trailing one is a spelling of its own.
    assert "'EAST' (also 'EAST ', 'East')" in line
    assert "'North' (also 'NORTH', 'north ')" in line
    apart = load_csv(_csv(frame), merge_spellings=False)
    assert {f.split("=")[1] for f in apart.feature_names} >= {"North", "north", "NORTH"}


# ----------------------------------------------------------- 4. identifiers
def test_an_integer_id_column_is_set_aside_and_kept_on_request():
    n = 60
    frame = pd.DataFrame(
        {
            "customer_id": np.arange(1000, 1000 + n),
            # all distinct, but not named an identifier nor numbering the rows
            "count": np.random.default_rng(0).permutation(n),
            "x": np.arange(n) % 5,
            "y": np.arange(n) % 2,
        }
    )
    ds = load_csv(_csv(frame))
    assert "customer_id" not in ds.feature_names and "count" in ds.feature_names
    assert ds.preprocessor.set_aside_ == {"customer_id": "identifier"}
    assert ds.raw["customer_id"].tolist() == list(range(1000, 1000 + n))  # kept for display
    assert any("keep_columns=['customer_id']" in line for line in ds.report)
    kept = load_csv(_csv(frame), keep_columns=["customer_id"])
    assert "customer_id" in kept.feature_names
    frame["customer_id"] = np.arange(n) % 30  # repeats: not an identifier
    assert "customer_id" in load_csv(_csv(frame)).feature_names


@pytest.mark.parametrize("name", ["id", "ID", "row_id", "customerId", "key", "uuid", "User ID"])
def test_identifier_names(name):
    frame = pd.DataFrame({name: np.arange(30), "x": np.arange(30) % 4, "y": np.arange(30) % 2})
    assert name not in load_csv(_csv(frame)).feature_names


@pytest.mark.parametrize("name", ["paid", "valid", "idea", "keys_pressed"])
def test_names_that_only_contain_id_are_features(name):
    shuffled = np.random.default_rng(0).permutation(30)  # 0..29 in file order numbers rows
    frame = pd.DataFrame({name: shuffled, "x": np.arange(30) % 4, "y": np.arange(30) % 2})
    assert name in load_csv(_csv(frame)).feature_names


# ---------------------------------------------------------------- 5. dates
def _signups(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    days = np.sort(rng.integers(0, 900, n))
    dates = pd.Timestamp("2021-06-01") + pd.to_timedelta(days, unit="D")
    styles = [
        lambda d: d.strftime("%Y-%m-%d"),
        lambda d: d.strftime("%m/%d/%Y"),
        lambda d: d.strftime("%d %b %Y"),
    ]
    text = [styles[i % 3](d) for i, d in enumerate(dates)]
    text[1] = "08/13/2022"  # settles month-first
    dates = dates.to_numpy().copy()
    dates[1] = np.datetime64("2022-08-13")
    return text, dates


def test_mixed_date_formats_become_days_in_time_order():
    text, dates = _signups(300)
    frame = pd.DataFrame({"signup": text, "y": np.arange(300) % 2})
    ds = load_csv(_csv(frame))
    assert ds.feature_names == ["signup"]
    expected = (dates - np.datetime64("1970-01-01")) / np.timedelta64(1, "D")
    np.testing.assert_array_equal(ds.X["signup"], expected)
    assert spearmanr(ds.X["signup"], expected).statistic == pytest.approx(1.0, abs=1e-12)
    line = next(x for x in ds.report if x.startswith("Column 'signup': read"))
    assert "days since 1970-01-01" in line and "month-first ('" in line


def test_ambiguous_and_mixed_conventions_stay_text_and_say_why():
    amb = [f"{d:02d}/{m:02d}/2022" for d in range(1, 13) for m in range(1, 4)]
    frame = pd.DataFrame({"when": amb, "z": np.arange(36), "y": np.arange(36) % 2})
    ds = load_csv(_csv(frame), keep_columns=["when"])
    assert any(x.startswith("Column 'when' stays text: its dates could be") for x in ds.report)
    both = ["13/01/2022", "01/13/2022", "02/03/2022"] * 10
    ds = load_csv(_csv(pd.DataFrame({"when": both, "z": np.arange(30), "y": np.arange(30) % 2})))
    assert any("mixes day-first ('13/01/2022') and month-first" in x for x in ds.report)
    junk = [f"2022-01-{d:02d}" for d in range(1, 21)] + ["soon"] * 10
    ds = load_csv(_csv(pd.DataFrame({"when": junk, "z": np.arange(30), "y": np.arange(30) % 2})))
    assert any("only 20 of its 30 values read as dates" in x for x in ds.report)


# ------------------------------------------------------------ 6. many levels
def test_many_levels_are_coded_by_frequency_never_alphabetically():
    # 'zeta' is the most frequent level: code 0, although last in the alphabet.
    levels = ["zeta"] * 20 + [f"l{k:02d}" for k in range(15) for _ in range(2)]
    frame = pd.DataFrame({"kind": levels, "y": np.arange(len(levels)) % 2})
    ds = load_csv(_csv(frame))
    assert ds.X["kind"][:20].tolist() == [0.0] * 20
    assert ds.X["kind"][20:].tolist() == [float(1 + k) for k in range(15) for _ in range(2)]
    assert any("in order of frequency (0: the most frequent level, 'zeta'" in x for x in ds.report)


# ------------------------------------------------------------- round trip
def _training_table(n: int = 240) -> pd.DataFrame:
    rng = np.random.default_rng(3)
    signup, _ = _signups(n, seed=3)
    region = [REGIONS[i % len(REGIONS)] for i in range(n)]
    colour = rng.choice(["red", "green", "blue"], n).astype(object)
    colour[::7] = None
    age = rng.integers(18, 80, n).astype(float)
    age[::9] = np.nan
    return pd.DataFrame(
        {
            "id": np.arange(n),
            "signup": signup,
            "region": region,
            "colour": colour,
            "age": age,
            "y": (age > 40).astype(int),
        }
    )


def test_a_saved_pipeline_scores_new_raw_rows_as_the_report_describes(tmp_path):
    sio = pytest.importorskip("skops.io")
    ds = load_csv(_csv(_training_table()))
    assert "id" not in ds.feature_names
    tree = TernaryTreeClassifier(random_state=0).fit(ds.X, ds.y)
    path = tmp_path / "model.skops"
    sio.dump(make_pipeline(ds.preprocessor, tree), path)
    pipe = sio.load(path, trusted=sio.get_untrusted_types(file=path))
    new = pd.DataFrame(
        {
            "id": [9001, 9002, 9003, 9004],
            "signup": ["2024-01-05", "Mar 3, 2024", "02/29/2024", "not a date"],
            "region": ["  NORTH", "sOuTh", "West ", "Atlantis"],
            "colour": [None, "NA", "purple", "red"],
            "age": ["NA", 30, None, "55"],
        }
    )
    pre = pipe.steps[0][1]
    X, notes = pre.transform_with_report(new)
    X = pd.DataFrame(X, columns=pre.get_feature_names_out())
    epoch = np.datetime64("1970-01-01")
    days = [
        (np.datetime64(d) - epoch) / np.timedelta64(1, "D")
        for d in ("2024-01-05", "2024-03-03", "2024-02-29")
    ]
    median_days = ds.preprocessor._rules[0].fill
    np.testing.assert_array_equal(X["signup"], [*days, median_days])
    # New spellings are the level they spell; an unseen region is a gap, filled with the
    # most frequent level (region had no gap at fit).
    fill = next(r.fill for r in ds.preprocessor._rules if r.name == "region")
    assert fill == "NORTH"  # the most frequent level (its most frequent spelling)
    region = {c.lower(): c for c in X.columns if c.startswith("region=")}
    assert X[region["region=north"]].tolist() == [1.0, 0.0, 0.0, 1.0]
    assert X[region["region=south"]].tolist() == [0.0, 1.0, 0.0, 0.0]
    assert X[region["region=west"]].tolist() == [0.0, 0.0, 1.0, 0.0]
    # Colour had gaps at fit: gaps and an unseen colour go to its '(missing)' level.
    assert X["colour=(missing)"].tolist() == [1.0, 1.0, 1.0, 0.0]
    assert X["colour=red"].tolist() == [0.0, 0.0, 0.0, 1.0]
    # Age: the gaps are filled with the median and marked in the gap column.
    assert X["age=(missing)"].tolist() == [1.0, 0.0, 1.0, 0.0]
    assert X["age"][1] == 30 and X["age"][3] == 55
    assert notes.unseen == {"signup": 1, "region": 1, "colour": 1}
    assert notes.gaps == {"colour": 2, "age": 2}
    assert notes.extra_columns == []  # "id" is a column of the file, set aside at fit
    assert pipe.predict(new).shape == (4,)


# ---------------------------------------------------------- properties
@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.sampled_from(["a", "A", " a", "b", "B ", "none", "NONE", "", "NA", "c"]),
        min_size=30,
        max_size=80,
    )
)
def test_fit_transform_equals_transform_on_messy_text(values):
    frame = pd.DataFrame({"t": values, "n": np.arange(len(values)) % 3})
    pre = Preprocessor()
    try:
        block = pre.fit_transform(frame)
    except Exception as exc:  # a single level: no usable feature is fine
        assert "No " in str(exc)
        return
    np.testing.assert_array_equal(block, pre.transform(frame))
    # Case variants never make levels of their own.
    levels = [n.split("=", 1)[1] for n in pre.get_feature_names_out() if n.startswith("t=")]
    assert len({lv.lower() for lv in levels}) == len(levels)


def test_read_back_from_text_as_a_buffer():
    ds = load_csv(io.BytesIO(_csv(_training_table())))
    assert {"colour=(missing)", "age=(missing)", "signup"} <= set(ds.feature_names)


_STYLES = ("%Y-%m-%d", "%d %b %Y", "%b %d, %Y", "%Y-%m-%d %H:%M")
# The sentinel dates of 1970 to 2079, the days the test below draws from.
_NO_DATES = ("1970-01-01", "1999-12-31", "2000-01-01", "2038-01-19")
_DAY = {s: (pd.Timestamp(s) - pd.Timestamp("1970-01-01")).days for s in _NO_DATES}


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 40_000), st.integers(0, 1439), st.sampled_from(_STYLES)),
        min_size=25,
        max_size=60,
    )
)
def test_unambiguous_dates_in_mixed_styles_read_as_exact_days(cells):
    epoch = pd.Timestamp("1970-01-01")
    stamps = [epoch + pd.Timedelta(days=d, minutes=m) for d, m, _ in cells]
    text = [s.strftime(style) for s, (_, _, style) in zip(stamps, cells, strict=True)]
    n = len(text)
    frame = pd.DataFrame({"when": text, "z": np.arange(n) % 3, "y": np.arange(n) % 2})
    expected = [d + (m / 1440 if style.endswith("%M") else 0) for d, m, style in cells]
    assume(len(set(expected)) > 1)  # one date only: a constant column, set aside
    # A "no date" placeholder in 2 rows or more is a gap with a 0/1 column of its own
    # (tested in test_dates.py); here every date is read as a date.
    assume(all(expected.count(_DAY[s]) < 2 for s in _NO_DATES))
    ds = load_csv(_csv(frame), keep_columns=["when"])
    np.testing.assert_allclose(ds.X["when"], expected, rtol=0, atol=1e-9)
