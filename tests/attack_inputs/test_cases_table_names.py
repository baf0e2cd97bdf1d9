"""The Your data page's cases table against a file whose columns already use its names."""

from __future__ import annotations

from appkit import yourdata
from ternary.data import load_csv


def test_columns_named_line_and_line_file_keep_both_and_add_the_lines():
    # was "cannot insert line (file), already exists": the page's error box, no answers
    text = "line,line (file),label\n" + "".join(
        f"{i % 5},{i % 3},{'ab'[i % 2]}\n" for i in range(20)
    )
    ds = load_csv(text.encode())
    params = {"delta_method": "margin", "max_depth": 2}
    table = yourdata.cases_table(ds, yourdata.out_of_fold(ds, params))
    assert table.columns[0] == "line (file) (file)"
    assert sorted(table.iloc[:, 0]) == list(range(2, 22))  # the file's lines 2..21
    assert sorted(table["line"]) == sorted(i % 5 for i in range(20))  # the file's column kept
    assert sorted(table["line (file)"]) == sorted(i % 3 for i in range(20))
