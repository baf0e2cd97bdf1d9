"""LoadLimits against values a caller may pass by mistake: each is refused in words."""

from __future__ import annotations

import math

import pytest

from ternary.data import LoadLimits, load_csv


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("max_rows", math.nan, "whole number"),  # was "cannot convert float NaN to integer"
        ("max_values", math.inf, "whole number"),
        ("max_columns", "ten", "whole number"),
        ("max_rows", 0, "at least 1"),  # was every file refused: "the limit is 0 data rows"
        ("max_bytes", -1, "at least 1"),
        ("max_classes", 0, "at least 1"),
    ],
)
def test_a_limit_that_is_no_positive_whole_number_is_refused(field, value, says):
    with pytest.raises(ValueError, match=f"LoadLimits {field} must be .*{says}"):
        LoadLimits(**{field: value})


def test_a_keyword_override_is_checked_too():
    with pytest.raises(ValueError, match="max_rows must be at least 1"):
        load_csv(b"x,label\n1,a\n2,b\n", max_rows=0)


def test_the_old_conversions_still_hold():
    assert LoadLimits(max_rows="10", ordinal_threshold=0).max_rows == 10
    assert LoadLimits(max_rows=2.9).max_rows == 2
