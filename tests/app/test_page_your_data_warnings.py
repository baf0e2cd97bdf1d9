"""Issue 29: the load report's warnings stand outside the Your data page's details."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.helpers import open_app, shown

# 'weight' is missing in 32 of 80 rows (40 %): more than the 20 % that warns.
GAPPY_CSV = (
    "height,weight,label\n"
    + "".join(
        f"{150 + i % 40},{'' if i % 5 < 2 else 50 + (i * 7) % 30},{'a' if i % 40 > 18 else 'b'}\n"
        for i in range(80)
    )
).encode()


@pytest.mark.skipif(not hasattr(AppTest, "file_uploader"), reason="AppTest cannot upload files")
def test_a_mostly_imputed_column_is_a_warning_above_the_details():
    at = open_app("data")
    at.file_uploader(key="upload").set_value(("gappy.csv", GAPPY_CSV, "text/csv")).run()
    assert not at.exception and not at.error
    warnings = [shown(w) for w in at.warning]
    assert warnings == [
        "Warning: column 'weight' had 40 % of its values missing (more than 20 %), filled "
        "with the median 65: its splits rest on the few values measured."
    ]
    # The same line is in the details too, with the rest of the report.
    details = at.expander[0].markdown[0].value
    assert "40 % of its values missing" in details
