"""`ternary.data.to_csv`: no cell or header a spreadsheet would run as a formula."""

from __future__ import annotations

import csv
import io
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ternary.data import to_csv

HOSTILE = ["=1+1", "+cmd", "-2+3", "@SUM(A1)", "\tx", "\rx"]
TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def hostile_table() -> pd.DataFrame:
    """Hostile text cells and headers beside numeric columns with negative values."""
    return pd.DataFrame(
        {
            "=HYPERLINK(1)": HOSTILE,
            "label": ["-1", "+1", "ok", "-1.5", "-inf", "- 1"],
            "x": [-1.5, 2.0, -3.25, 0.0, np.nan, -0.5],
            "-n": [-1, 2, -3, 4, -5, 6],
            "flag": [True, False, True, True, False, False],
        }
    )


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def test_hostile_cells_and_headers_are_escaped_numbers_stay():
    rows = rows_of(to_csv(hostile_table()))
    assert rows[0] == ["'=HYPERLINK(1)", "label", "x", "'-n", "flag"]
    assert [r[0] for r in rows[1:]] == ["'" + h for h in HOSTILE]
    # plain decimal numbers stay (a spreadsheet reads them as numbers); the rest is escaped
    assert [r[1] for r in rows[1:]] == ["-1", "+1", "ok", "-1.5", "'-inf", "'- 1"]
    assert [r[2] for r in rows[1:]] == ["-1.5", "2.0", "-3.25", "0.0", "", "-0.5"]
    assert [r[3] for r in rows[1:]] == ["-1", "2", "-3", "4", "-5", "6"]


def test_read_back_numeric_columns_stay_numeric():
    back = pd.read_csv(io.StringIO(to_csv(hostile_table())))
    assert back["x"].dtype == np.float64
    assert back["x"].tolist()[:4] == [-1.5, 2.0, -3.25, 0.0]
    assert back["'-n"].dtype == np.int64
    assert back["flag"].dtype == bool


def test_the_frame_is_not_modified():
    frame = hostile_table()
    before = frame.copy()
    to_csv(frame)
    pd.testing.assert_frame_equal(frame, before)


def test_writes_to_a_path_and_to_a_buffer(tmp_path):
    path = tmp_path / "out.csv"
    assert to_csv(hostile_table(), path) is None
    buffer = io.StringIO()
    to_csv(hostile_table(), buffer)
    assert path.read_bytes().decode() == buffer.getvalue() == to_csv(hostile_table())


def test_line_terminator_is_passed_on():
    assert to_csv(pd.DataFrame({"a": ["=1"]}), lineterminator="\r\n") == "a\r\n'=1\r\n"


def test_categories_objects_and_duplicate_index_labels():
    frame = pd.DataFrame(
        {
            "c": pd.Categorical(["=1", "a", "=1"]),
            "o": [-2, "@x", None],  # an object column of mixed values
        },
        index=[0, 0, 0],
    )
    assert rows_of(to_csv(frame))[1:] == [["'=1", "-2"], ["a", "'@x"], ["'=1", ""]]


def test_integer_and_multi_level_headers():
    assert rows_of(to_csv(pd.DataFrame([[1, 2]], columns=[-1, "@a"])))[0] == ["-1", "'@a"]
    frame = pd.DataFrame([[1]], columns=pd.MultiIndex.from_tuples([("=a", "b")]))
    assert rows_of(to_csv(frame))[:2] == [["'=a"], ["b"]]


def test_a_string_dtype_column_is_escaped():
    frame = pd.DataFrame({"s": pd.array(["=1+1", None, "b"], dtype="string")})
    assert rows_of(to_csv(frame))[1:] == [["'=1+1"], [""], ["b"]]


def test_not_a_frame_is_refused():
    with pytest.raises(TypeError, match="DataFrame"):
        to_csv([["=1"]])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.text(alphabet=st.sampled_from("=+-@\t\r,\"'.;1eaA( )\n"), max_size=6),
        min_size=1,
        max_size=8,
    )
)
def test_no_written_cell_is_a_formula_and_each_reads_back(cells):
    """Every cell read back is either the original or ``'`` + the original, and never
    starts with a trigger unless it is a plain number."""
    frame = pd.DataFrame({"=h": pd.Series(cells, dtype=object)})
    back = [row[0] for row in rows_of(to_csv(frame, lineterminator="\n"))]
    assert back[0] == "'=h"
    for original, written in zip(cells, back[1:], strict=True):
        risky = original[:1] in TRIGGERS and not NUMBER.fullmatch(original)
        assert written == ("'" + original if risky else original)
        assert written[:1] not in TRIGGERS or NUMBER.fullmatch(written)


def test_a_friendly_table_is_written_as_pandas_writes_it():
    frame = pd.DataFrame({"name": ["a b", "c,d", 'e"f'], "x": [-1.5, 0.1, 1e-5], "k": [1, 2, 3]})
    assert to_csv(frame) == frame.to_csv(index=False)


@pytest.mark.parametrize("cell", ["x;=1+1", "x\t=1+1", "x\r=1+1"])
def test_a_cell_split_elsewhere_is_quoted_whole(cell):
    """A semicolon or tab (a comma-decimal spreadsheet's separator) or a lone CR inside a
    cell: every text cell is quoted, so no program starts a cell or a row at ``=``."""
    text = to_csv(pd.DataFrame({"a": [cell, "plain"], "x": [-1.5, 2.0]}), lineterminator="\n")
    assert text == f'"a","x"\n"{cell}",-1.5\n"plain",2.0\n'
    assert rows_of(text)[1] == [cell, "-1.5"]
    assert pd.read_csv(io.StringIO(text))["x"].dtype == np.float64
