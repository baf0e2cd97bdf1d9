"""Every CSV the app hands out, from an upload whose names and cells are spreadsheet
formulas: each is escaped (a leading ``'``), numbers stay numbers (issue 27).

The app is driven headlessly; ``download_button`` is wrapped to keep what each download
would give, by file name, so the test reads the very bytes a visitor gets.
"""

from __future__ import annotations

import csv
import io
import re

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from tests.app.helpers import PAGES, assert_clean, open_app

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
NOTES = ["=1+1", "+cmd", "-2+3", "@SUM(A1)"]


def _hostile_csv(rows: int, label: bool = True) -> bytes:
    """Two numeric features named like formulas, a text column of formulas, and classes
    that are formulas; the first feature decides the class, with some noise."""
    head = '"=HYPERLINK(1)","@b","-note"' + (',"label"' if label else "")
    lines = [head]
    for i in range(rows):
        a = (i * 37) % 100 - 50  # negative values too: they must stay numbers
        cls = "=1+1" if (a > 0) != (i % 11 == 0) else "-2+3"
        line = f"{a}.5,{(i * 13) % 17},{NOTES[i % 4]}"
        lines.append(line + (f",{cls}" if label else ""))
    return ("\n".join(lines) + "\n").encode()


def _cells(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))


def _assert_no_formula(name: str, data: bytes) -> list[list[str]]:
    rows = _cells(data)
    for row in rows:
        for cell in row:
            assert cell[:1] not in TRIGGERS or NUMBER.fullmatch(cell), (name, cell)
    return rows


@pytest.mark.skipif(not hasattr(AppTest, "file_uploader"), reason="AppTest cannot upload files")
def test_every_csv_download_escapes_formula_names_and_cells(downloads):
    at = open_app("data")
    at.file_uploader(key="upload").set_value(("evil.csv", _hostile_csv(160), "text/csv")).run()
    assert_clean(at)
    at.file_uploader(key="score_upload").set_value(
        ("new.csv", _hostile_csv(30, label=False), "text/csv")
    ).run()
    assert_clean(at)
    for page in ("regions", "tree", "coverage", "grafting"):
        at.switch_page(PAGES[page]).run()
        assert_clean(at)
    csvs = {name: data for name, data in downloads.items() if name.endswith(".csv")}
    expected = {"cases_evil.csv", "scored_new.csv", "rules_", "flagged_evil.csv", "summary_"}
    expected |= {"cv_results_", "grafts_"}
    for stem in expected:
        assert any(name.startswith(stem) for name in csvs), (stem, sorted(csvs))
    for name, data in csvs.items():
        _assert_no_formula(name, data)

    cases = _cells(csvs["cases_evil.csv"])
    head = cases[0]
    assert {"'=HYPERLINK(1)", "'@b", "'-note", "label"} <= set(head)
    assert {r[head.index("'-note")] for r in cases[1:]} == {"'" + n for n in NOTES}
    assert {r[head.index("label")] for r in cases[1:]} == {"'=1+1", "'-2+3"}
    prediction = cases[0].index("prediction")
    assert {r[prediction] for r in cases[1:]} <= {"'=1+1", "'-2+3"}
    frame = pd.read_csv(io.BytesIO(csvs["cases_evil.csv"]))
    assert frame["'=HYPERLINK(1)"].dtype.kind == "f" and frame["'=HYPERLINK(1)"].min() < 0

    scored = _cells(csvs["scored_new.csv"])
    assert {"'=HYPERLINK(1)", "'@b", "'-note"} <= set(scored[0])
    assert {r[scored[0].index("'-note")] for r in scored[1:]} == {"'" + n for n in NOTES}

    rules = next(data for name, data in csvs.items() if name.startswith("rules_"))
    text = rules.decode("utf-8")
    assert "'=HYPERLINK(1)" in text or "'@b" in text  # a condition that opens with a name
    flagged = _cells(csvs["flagged_evil.csv"])
    assert any(cell in ("'=1+1", "'-2+3") for row in flagged[1:] for cell in row)
    grafts = next(data for name, data in csvs.items() if name.startswith("grafts_"))
    assert b"'=1+1" in grafts or b"'-2+3" in grafts  # the class each graft predicts
