"""Issue 36 item 6: a text column's gap level never takes a real level's rows.

`Preprocessor.transform` looked levels up without letter case, so a real level spelled
``(MISSING)`` beside empty cells was read as the gap level ``(missing)`` when the
training rows were transformed again. Now transform uses exactly fit's mapping, and
the gap level is renamed when a value of the column is spelled ``(missing)``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ternary.data import Preprocessor, load_csv

SPELLINGS = ["(MISSING)", "(missing)", " (Missing) ", "(missing 2)", "", None, "NA", "a", "A", "b"]


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=True))


def test_a_real_level_spelled_missing_keeps_its_rows():
    column = ["(MISSING)"] * 15 + [""] * 15 + ["a"] * 15 + ["b"] * 15
    raw = pd.DataFrame({"c": column, "x": np.arange(60) % 7 * 1.5})
    pre = Preprocessor()
    fitted = pre.fit_transform(raw)
    again = pre.transform(raw)
    assert int((fitted != again).any(axis=1).sum()) == 0  # was 15 of 60 rows
    names = pre.get_feature_names_out().tolist()
    assert names == ["c=(MISSING)", "c=a", "c=b", "c=(missing 2)", "x"]
    assert again[:15, 0].tolist() == [1.0] * 15 and again[15:30, 3].tolist() == [1.0] * 15
    assert (
        "Column 'c': its gaps are the level '(missing 2)', not '(missing)': '(MISSING)' is "
        "one of its values, kept apart." in pre.report_
    )
    _, report = pre.transform_with_report(raw)
    assert report.unseen == {} and report.gaps == {"c": 15}


def test_a_real_level_named_exactly_missing_is_no_longer_merged_into_the_gaps():
    column = ["(missing)"] * 10 + [None] * 10 + ["a"] * 10
    ds = load_csv(pd.DataFrame({"c": column, "y": np.arange(30) % 2}).to_csv(index=False).encode())
    # Before: one level '(missing)' of 20 rows (the real 10 and the 10 gaps).
    assert ds.X["c=(missing)"].tolist() == [1.0] * 10 + [0.0] * 20
    assert ds.X["c=(missing 2)"].tolist() == [0.0] * 10 + [1.0] * 10 + [0.0] * 10


def test_a_new_text_spelled_like_the_gap_level_is_unseen_not_a_level():
    pre = Preprocessor().fit(pd.DataFrame({"c": ["a", "b", None, "a", "b", None]}))
    _, report = pre.transform_with_report(pd.DataFrame({"c": ["(missing)", "a"]}))
    assert report.unseen == {"c": 1}


@pytest.mark.parametrize("merge", [True, False])
def test_declared_levels_spelled_missing_rename_the_gap_level(merge):
    raw = pd.DataFrame({"c": ["a", "b", None, "a", "b", None]})
    pre = Preprocessor(nominal_levels={"c": ["a", "b", "(Missing)"]}, merge_spellings=merge)
    pre.fit(raw)
    assert "c=(missing 2)" in pre.get_feature_names_out().tolist()


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(SPELLINGS), min_size=4, max_size=40),
    st.booleans(),
    st.sampled_from(["impute", "keep"]),
    st.integers(1, 12),
)
def test_fit_then_transform_encodes_the_training_rows_identically(cells, merge, missing, cut):
    raw = pd.DataFrame({"c": pd.Series(cells, dtype=object), "x": np.arange(len(cells), 0.0, -1)})
    pre = Preprocessor(merge_spellings=merge, missing=missing, ordinal_threshold=cut)
    fitted = pre.fit_transform(raw)
    assert _same(pre.transform(raw), fitted)
    # The gap level (named in the report) is spelled like no value of the column.
    said = [x for x in pre.report_ if x.startswith("Column 'c': ") and "level of their own" in x]
    real = {str(v).strip().lower() for v in cells if v is not None}
    for line in said:
        gap = line.rsplit(", '", 1)[1][:-2]
        assert gap.startswith("(missing") and gap.lower() not in real
