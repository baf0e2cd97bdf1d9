"""Hostile CSV layouts against the file lines the loader records (Dataset.file_lines).

Each file holds its own expected line in a ``rid`` column, written by hand here, so
a line the loader gets wrong or gives up on shows as a mismatch.
"""

from __future__ import annotations

import pytest

from ternary.data import load_csv


def _file(lines: list[str], eol: str = "\n") -> bytes:
    """The lines joined; ``{L}`` in a line becomes the number of the line it is on."""
    return "".join(line.replace("{L}", str(n)) + eol for n, line in enumerate(lines, 1)).encode()


@pytest.mark.parametrize("empty_row", ["\t\t\t", "\t", " \t "])
@pytest.mark.parametrize("sep_line", [False, True])
def test_a_tab_file_with_a_spreadsheets_empty_rows_keeps_its_lines(empty_row, sep_line):
    # Excel's tab-delimited export writes an empty row as a line of tabs: pandas reads
    # it as a record (of gaps, dropped for its missing label), not as a blank line
    lines = ["sep=\t"] if sep_line else []
    lines.append("rid\tx\ty\tlabel")
    for i in range(6):
        lines += ["{L}\t" + f"{i}\t{i % 3}\t{'ab'[i % 2]}", empty_row]
    ds = load_csv(_file(lines))
    assert ds.file_lines is not None
    assert ds.file_lines.tolist() == ds.raw["rid"].tolist()
    assert ds.file_rows == 12  # the empty rows were parsed, then dropped


@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"])
def test_a_line_of_spaces_above_the_header_is_no_header(eol):
    # pandas skips it; the header reader took it for a one-column header, and the
    # loader refused the file ("Target column 'label' is not in the file")
    lines = ["", "   ", "rid,x,label"] + ["{L}," + f"{i},{'ab'[i % 2]}" for i in range(6)]
    ds = load_csv(_file(lines, eol), target="label")
    assert list(ds.raw.columns) == ["rid", "x", "label"]
    assert ds.file_lines.tolist() == ds.raw["rid"].tolist() == [4, 5, 6, 7, 8, 9]


@pytest.mark.parametrize("sep_line", ["sep=;;;;", '"sep=;"', '"sep=;";;;', "sep=; ", "SEP=;"])
def test_an_excel_sep_line_written_back_by_a_spreadsheet_is_still_a_declaration(sep_line):
    # a spreadsheet that reads "sep=;" as a cell pads it with the row's empty cells or
    # quotes it on saving; the loader took such a line for the header ('sep=', 'column_2')
    lines = [sep_line, "rid;x;label"] + ["{L};" + f"{i},5;{'ab'[i % 2]}" for i in range(6)]
    ds = load_csv(_file(lines))
    assert ds.delimiter == ";"
    assert list(ds.raw.columns) == ["rid", "x", "label"]
    assert ds.X["x"].tolist() == [i + 0.5 for i in range(6)]  # the decimal comma read
    assert ds.file_lines.tolist() == ds.raw["rid"].tolist() == [3, 4, 5, 6, 7, 8]
