"""ternary.data.Preprocessor: the loader's cleaning as a fitted transformer.

The loaders build ``ds.X`` with the preprocessor they return, so its ``transform``
of the raw rows must give that matrix bit for bit, on every shared ARFF dataset and
on CSV files with every kind of column the cleaning knows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone

from ternary.data import DataError, Preprocessor, load_csv, load_file

MIXED_CSV = (
    "patient_id,age,sex,smoking,glucose,ward,flag,outcome\n"
    + "".join(
        f"P{i:04d},{20 + i % 50 if i % 7 else ''},{'FM'[i % 2]},"
        f"{['never', 'former', 'current', ''][i % 4]},{80 + (i * 37) % 90}.5,"
        f"W{i % 12},1,{['low', 'mid', 'high'][(i * 13) % 3]}\n"
        for i in range(120)
    )
).encode()


def _raw_features(ds):
    return ds.raw.drop(columns=[ds.target])


def _assert_same_matrix(ds):
    got = ds.preprocessor.transform(_raw_features(ds))
    want = ds.X.to_numpy()
    assert got.dtype == np.float64
    assert got.shape == want.shape
    assert np.array_equal(got, want, equal_nan=True)
    assert list(ds.preprocessor.get_feature_names_out()) == list(ds.X.columns)


@pytest.mark.parametrize("missing", ["impute", "keep", "drop"])
def test_csv_transform_gives_the_loader_matrix(missing):
    ds = load_csv(MIXED_CSV, target="outcome", missing=missing)
    _assert_same_matrix(ds)
    pre = ds.preprocessor
    # the identifier and the constant column are set aside, and kept in ds.raw for display
    assert pre.set_aside_ == {"patient_id": "identifier", "flag": "constant"}
    assert "patient_id" in ds.raw.columns and len(ds.raw) == ds.n_samples
    assert "sex=M" in ds.X.columns  # two levels: one 0/1 column
    if missing != "drop":  # 12 levels: ordinal codes (after dropping rows, 9 are left: one-hot)
        assert "ward" in ds.X.columns
    if missing == "drop":
        assert ds.n_samples < 120 and not ds.X.isna().any().any()
    if missing == "keep":
        assert ds.X.isna().any().any()


def test_fit_on_raw_rows_learns_what_the_loader_learned():
    ds = load_csv(MIXED_CSV, target="outcome")
    pre = Preprocessor().fit(_raw_features(ds))
    assert np.array_equal(pre.transform(_raw_features(ds)), ds.X.to_numpy())
    assert pre.report_ == [line for line in ds.report if line in pre.report_]
    refit = clone(ds.preprocessor).fit_transform(_raw_features(ds))
    # bit for bit, so even the sign of a zero agrees
    assert np.ascontiguousarray(refit).tobytes() == np.ascontiguousarray(ds.X).tobytes()


def test_every_shared_arff_dataset_round_trips(shared_datasets):
    paths = sorted(shared_datasets.glob("*.arff"))
    assert len(paths) >= 60
    checked = 0
    for path in paths:
        if path.stat().st_size > 3_000_000:
            continue  # the big ones cost seconds each; the small ones cover every encoding
        ds = load_file(path, missing="keep" if checked % 2 else "impute")
        _assert_same_matrix(ds)
        checked += 1
    assert checked >= 40


def test_new_rows_matched_by_name_with_gaps_unseen_and_extra_columns():
    ds = load_csv(MIXED_CSV, target="outcome")
    pre = ds.preprocessor
    new = pd.DataFrame(
        {
            "note": ["x", "y"],
            "smoking": ["never", "vaping"],
            "glucose": ["", "101.5"],
            "sex": ["M", "F"],
            "ward": ["W3", "W99"],
            "age": [33, None],
        }
    )
    X, report = pre.transform_with_report(new)
    names = list(pre.get_feature_names_out())
    fills = {r.name: r.fill for r in pre._rules if r.role == "feature"}
    row0 = dict(zip(names, X[0], strict=True))
    row1 = dict(zip(names, X[1], strict=True))
    assert row0["age"] == 33 and row1["age"] == fills["age"]
    assert row0["glucose"] == fills["glucose"] and row1["glucose"] == 101.5
    assert row0["smoking=never"] == 1.0
    # an unseen level is treated like a gap: the most frequent level
    assert row1[f"smoking={fills['smoking']}"] == 1.0
    assert report.extra_columns == ["note"]
    assert report.gaps == {"glucose": 1, "age": 1}
    assert report.unseen == {"smoking": 1, "ward": 1}
    assert any("never seen" in line for line in report.lines())
    # patient_id and flag are set aside, so rows need not carry them
    assert "patient_id" not in new.columns


def test_missing_column_is_named_and_text_in_a_numeric_column_is_refused():
    pre = load_csv(MIXED_CSV, target="outcome").preprocessor
    rows = pd.DataFrame({"age": [30], "sex": ["F"], "smoking": ["never"], "ward": ["W1"]})
    with pytest.raises(ValueError, match="'glucose'"):
        pre.transform(rows)
    rows["glucose"] = ["high"]
    with pytest.raises(ValueError, match=r"Column 'glucose' holds numbers.*'high' in row 1"):
        pre.transform(rows)


def test_junk_seen_at_fit_stays_missing_and_keep_leaves_nan():
    body = "".join(f"{i if i != 5 else 'n.d.'},{i % 2}\n" for i in range(40))
    ds = load_csv(("a,y\n" + body).encode(), missing="keep")
    _assert_same_matrix(ds)
    out = ds.preprocessor.transform(pd.DataFrame({"a": ["n.d.", "7"]}))
    assert np.isnan(out[0, 0]) and out[1, 0] == 7.0


def test_decimal_comma_and_float32_clipping_repeat_on_new_rows():
    rows = ["a;b;y"] + [f"{i};{i % 3},5;{i % 2}" for i in range(30)] + ["1e39;1,5;0"]
    ds = load_csv("\n".join(rows).encode())
    assert ds.X["a"].max() == float(np.finfo(np.float32).max)
    _assert_same_matrix(ds)
    new = ds.preprocessor.transform(pd.DataFrame({"a": ["-1e40", "2"], "b": ["2,5", "1,5"]}))
    assert new[0, 0] == -float(np.finfo(np.float32).max) and new[0, 1] == 2.5


def test_unfitted_and_bad_options_are_clear():
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        Preprocessor().transform(pd.DataFrame({"a": [1]}))
    with pytest.raises(DataError, match="missing='x' is not a choice"):
        Preprocessor(missing="x").fit(pd.DataFrame({"a": [1.0, 2.0]}))


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.one_of(st.none(), st.floats(-1e6, 1e6, allow_nan=False)),
            st.sampled_from(["a", "b", "c", None, " a "]),
        ),
        min_size=3,
        max_size=40,
    )
)
def test_fit_transform_equals_transform(rows):
    frame = pd.DataFrame(rows, columns=["num", "cat"])
    frame["num2"] = np.arange(len(frame), dtype=float)
    pre = Preprocessor()
    try:
        direct = pre.fit_transform(frame)
    except DataError:
        return  # nothing usable left (e.g. every column constant): refused, not mangled
    assert np.array_equal(direct, pre.transform(frame), equal_nan=True)
    # columns in another order give the same matrix
    assert np.array_equal(direct, pre.transform(frame[frame.columns[::-1]]), equal_nan=True)
    assert not np.isnan(direct).any()
