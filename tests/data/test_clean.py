"""Tests for the shared cleaning steps (ternary/data/_clean.py): labels, values, missing data.

Files that load must be fittable: labels a classifier accepts, features a tree can
compare. What cannot be made so is refused at load time, in words.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.multiclass import type_of_target

from ternary.data import DataError, load_arff, load_csv


def _csv(labels, features=None) -> bytes:
    features = features if features is not None else [str(i) for i in range(len(labels))]
    pairs = enumerate(zip(features, labels, strict=True))
    rows = "".join(f"{f},{i % 3},{lab}\n" for i, (f, lab) in pairs)
    return ("x,z,label\n" + rows).encode()


def test_a_few_decimal_labels_become_class_names_a_classifier_accepts():
    ds = load_csv(_csv(["0.5", "1.5", "0.50", "1.5", "2.25", "0.5"]))
    assert ds.class_names == ["0.5", "1.5", "2.25"]
    assert list(ds.y) == ["0.5", "1.5", "0.5", "1.5", "2.25", "0.5"]
    assert type_of_target(ds.y) == "multiclass"
    DecisionTreeClassifier().fit(ds.X, ds.y)  # "Unknown label type: continuous" before
    assert any("decimal numbers" in line and "name of a class" in line for line in ds.report)


def test_many_decimal_labels_are_refused_as_a_measurement():
    labels = [f"{0.1 + 0.37 * i:.2f}" for i in range(37)]
    with pytest.raises(DataError, match="holds 37 distinct decimal numbers; is it a measurement"):
        load_csv(_csv(labels))


@pytest.mark.parametrize("bad", ["inf", "-inf", "Infinity"])
def test_an_infinite_label_is_refused_naming_the_row(bad):
    with pytest.raises(DataError, match="infinite value in data row 3"):
        load_csv(_csv(["1", "2", bad, "1", "2"]))


def test_values_beyond_float32_are_clipped_and_reported():
    features = ["1", "1e39", "-3e40", "2", "5", "7"]
    ds = load_csv(_csv(["a", "b", "a", "b", "a", "b"], features))
    top = float(np.finfo(np.float32).max)
    np.testing.assert_array_equal(ds.X["x"], [1, top, -top, 2, 5, 7])
    assert np.isfinite(ds.X.to_numpy(dtype=np.float32)).all()
    assert any("2 value(s) beyond the float32 range were clipped" in line for line in ds.report)
    DecisionTreeClassifier().fit(ds.X, ds.y)


MISSING_CSV = b"""num,colour,grade,label
1.0,red,g1,a
,blue,g2,b
3.0,,g3,a
4.0,red,,b
5.0,blue,g5,a
6.0,red,g6,b
7.0,blue,g7,a
8.0,red,g8,b
9.0,blue,g9,a
10.0,red,g10,b
11.0,blue,g11,a
12.0,red,g12,b
"""


def test_missing_keep_leaves_nan_in_every_column_a_value_becomes():
    ds = load_csv(MISSING_CSV, missing="keep", ordinal_threshold=3)
    X = ds.X
    assert np.isnan(X["num"].iloc[1]) and X["num"].iloc[2] == 3.0
    # Two levels: one indicator, NaN where the colour is missing.
    assert np.isnan(X["colour=red"].iloc[2]) and X["colour=red"].iloc[0] == 1.0
    # Eleven levels: ordinal codes, NaN where the grade is missing.
    assert np.isnan(X["grade"].iloc[3])
    assert int(X.isna().sum().sum()) == 3
    assert ds.n_samples == 12
    assert any("Kept 3 missing feature value(s) as NaN" in line for line in ds.report)
    imputed = load_csv(MISSING_CSV, ordinal_threshold=3)
    assert not imputed.X.isna().any().any()
    # Where nothing was missing, keep and impute give the same numbers (impute adds a
    # '(missing)' level to the text columns with a gap, and a gap column to 'num').
    present = ~X.isna().any(axis=1)
    for col in ("num", "colour=red"):
        np.testing.assert_array_equal(X[col][present], imputed.X[col][present])
    assert "num=(missing)" not in imputed.X  # 1 gap in 12 rows: no gap column


def test_missing_keep_for_arff_and_the_choices_in_the_error():
    arff = b"@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n1,x\n?,y\n3,x\n4,y\n"
    ds = load_arff(arff, missing="keep")
    assert np.isnan(ds.X["a"].iloc[1])
    with pytest.raises(DataError, match="'impute'.*'drop'.*'keep'"):
        load_csv(MISSING_CSV, missing="fill")


def test_a_column_constant_apart_from_missing_values_is_dropped_under_keep():
    data = b"a,b,y\n1,5,p\n,6,q\n1,7,p\n1,8,q\n"
    ds = load_csv(data, missing="keep")
    assert ds.feature_names == ["b"]
    assert any("constant" in line and "'a'" in line for line in ds.report)
