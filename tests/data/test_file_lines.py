"""The loaders record what a page needs on the Dataset: each row's file line, the row
count and the delimiter (issue 28), so nothing re-reads the upload or parses the report."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ternary.data import load_arff, load_csv, load_file, make_moons_dataset


def _row_at(text: str, line: int) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")[line - 1]


def test_an_excel_sep_line_quoted_line_breaks_and_blank_lines_are_counted():
    text = (
        "sep=;\n"  # line 1: Excel's declaration, not the header
        "a;note;label\n"  # 2
        "\n"  # 3: blank, no row
        '1,5;"two\nlines";yes\n'  # 4-5: one row over two lines
        "2,5;plain;no\n"  # 6
        "   \n"  # 7: spaces only, no row (as pandas skips it)
        '3,5;"three\n\nlines";yes\n'  # 8-10
        "4,5;x;no\n"  # 11
    )
    ds = load_csv(text.encode(), name="t")
    assert ds.delimiter == ";"
    assert ds.file_rows == 4
    assert ds.file_lines.tolist() == [4, 6, 8, 11]
    for line, value in zip(ds.file_lines, ds.raw["a"], strict=True):
        assert _row_at(text, line).startswith(str(value).replace(".", ","))


def test_dropped_rows_keep_the_lines_of_the_rows_kept():
    text = "x,y,label\n1,2,a\n,3,b\n4,5,\n6,7,a\n8,9,b\n"
    ds = load_csv(text.encode(), missing="drop")
    assert ds.file_rows == 5  # parsed, before the label gap and the feature gap dropped rows
    assert len(ds.raw) == 3
    assert ds.file_lines.tolist() == [2, 5, 6]


def test_crlf_and_lone_cr_line_ends_count_as_the_parser_counts_them():
    for end in ("\r\n", "\r"):
        text = end.join(["x,label", "1,a", "", "2,b", "3,a", "4,b"]) + end
        ds = load_csv(text.encode())
        assert ds.file_lines.tolist() == [2, 4, 5, 6], repr(end)


def test_arff_comment_and_blank_lines_are_no_rows():
    text = (
        "% a comment\n"  # 1
        "@relation r\n"  # 2
        "@attribute x numeric\n"  # 3
        "@attribute c {a,b}\n"  # 4
        "@data\n"  # 5
        "1,a\n"  # 6
        "% not a row\n"  # 7
        "\n"  # 8
        "2,b\n"  # 9
        "3,a\n"  # 10
        "4,b\n"  # 11
    )
    ds = load_arff(text.encode())
    assert ds.file_lines.tolist() == [6, 9, 10, 11]
    assert ds.file_rows == 4 and ds.delimiter == ","


def test_generated_data_has_no_file_lines():
    ds = make_moons_dataset(n_samples=20)
    assert ds.file_lines is None and ds.file_rows is None and ds.delimiter is None


_cells = st.text(alphabet='ab ,;\n"x1', min_size=0, max_size=6)


@settings(max_examples=40, deadline=None)
@given(
    rows=st.lists(st.tuples(_cells, st.integers(0, 9)), min_size=4, max_size=12),
    blank_after=st.sets(st.integers(0, 11)),
    delimiter=st.sampled_from([",", ";", "\t"]),
)
def test_every_row_gets_the_line_it_starts_on(rows, blank_after, delimiter):
    """Quoted cells holding delimiters, quotes and line breaks; blank lines between rows."""
    lines = [delimiter.join(["note", "k", "n", "label"])]
    expected = []
    for i, (note, n) in enumerate(rows):
        expected.append(len("\n".join(lines).split("\n")) + 1)
        quoted = '"' + note.replace('"', '""') + '"'
        lines.append(delimiter.join([quoted, str(i), str(n), "ab"[i % 2]]))
        if i in blank_after:
            lines.append("")
    text = "\n".join(lines) + "\n"
    ds = load_csv(text.encode(), name="t")
    assert ds.raw["n"].tolist() == [n for _, n in rows]
    assert ds.file_rows == len(rows)
    assert ds.file_lines.tolist() == expected


@pytest.mark.parametrize("name", ["credit-g", "diabetes"])
def test_shared_arff_files_get_a_line_for_every_row(name, shared_datasets):
    path = shared_datasets / f"{name}.arff"
    ds = load_file(path)
    text = path.read_text().splitlines()
    assert len(ds.file_lines) == len(ds.raw) == ds.file_rows
    first = text[ds.file_lines[0] - 1]
    assert first.split(",")[0].strip("' ") == str(ds.raw.iloc[0, 0]).strip("' ").removesuffix(".0")
