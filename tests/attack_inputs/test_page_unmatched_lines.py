"""The Your data page on a file whose lines the loader cannot match to its rows."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from appkit import yourdata
from tests.app.helpers import assert_clean, open_app

# space-separated (an Excel sep= line), quoted cells, and a last line of spaces that the
# parser reads as a record: the line walk and the parser disagree, so no lines are known
UNMATCHED = (
    "sep= \nrid f1 f2 label\n"
    + "".join(f'{i} {i % 7} "a b" {"xy"[i % 2]}\n' for i in range(3, 23))
    + "   \n"
).encode()


@pytest.mark.skipif(not hasattr(AppTest, "file_uploader"), reason="AppTest cannot upload files")
def test_the_page_says_why_the_first_column_counts_data_rows():
    at = open_app("data")
    at.file_uploader(key="upload").set_value(("spaced.csv", UNMATCHED, "text/csv")).run()
    assert_clean(at)
    assert at.session_state["user_dataset"].file_lines is None
    table = next(d.value for d in at.dataframe if "flagged by" in d.value.columns)
    assert table.columns[0] == "data row"
    assert ((table["data row"] + 2) == table["rid"]).all()  # below the sep= line and header
    # was: a bare "data row" column, with nothing saying why there were no lines
    assert yourdata.NO_LINES_TEXT in [c.value for c in at.caption]
