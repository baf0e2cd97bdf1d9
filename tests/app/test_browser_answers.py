"""Your data's answers in a real browser, on credit-g uploaded as a CSV (issue 38):

* the first row's "Why?" gives the prediction and probability of its row in the
  downloaded cases CSV (the fold model that answered it, not the full model);
* the table's first columns are the answers;
* a reload and a second browser context on the page's link show the upload's answers;
* a link to an evicted upload says so on the page until dismissed.

Uses the Streamlit server of tests/app/conftest.py (Debian's Chromium; skipped when it is
absent, failed in CI) and the run's upload store (``upload_store``).
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pandas as pd
import pytest
from playwright.sync_api import sync_playwright

from tests.app.test_browser import CHROMIUM, TIMEOUT_MS, _assert_no_errors, _open, _wait_idle

pytestmark = pytest.mark.slow

ANSWERS = ["line", "prediction", "verdict", "confidence", "review", "flagged by"]


def _download(page, name: str) -> pd.DataFrame:
    with page.expect_download() as info:
        page.get_by_role("button", name=name).first.click()
    return pd.read_csv(io.BytesIO(Path(info.value.path()).read_bytes()), keep_default_na=False)


def _cases_ready(page) -> None:
    page.get_by_text("Which rows can't the model decide?").first.wait_for()
    _wait_idle(page)
    button = page.get_by_role("button", name="Answer every row")
    if button.count():  # a loaded machine's estimate is over the on-arrival budget
        button.first.click()
    page.get_by_role("button", name="Download every row with its answers (CSV)").wait_for()
    _wait_idle(page)
    _assert_no_errors(page)


def _headers(page) -> list[str]:
    grid = page.locator('[data-testid="stDataFrame"]').filter(
        has=page.locator('th[role="columnheader"]', has_text="flagged by")
    )
    return [h.strip() for h in grid.first.locator('th[role="columnheader"]').all_inner_texts()]


def _why_rows(page) -> list[list[str]]:
    table = page.locator('[data-testid="stTable"]').filter(has_text="The table's answer").first
    table.wait_for()
    head = [c.strip() for c in table.locator("thead th").all_inner_texts()]
    rows = []
    for r in range(table.locator("tbody tr").count()):
        cells = table.locator("tbody tr").nth(r).locator("th, td").all_inner_texts()
        rows.append(dict(zip(head, [c.strip() for c in cells], strict=True)))
    return rows


def test_why_answers_first_and_the_upload_survives_a_reload(
    app_url, tmp_path, upload_store, shared_datasets
):
    from ternary.data import load_arff

    data = tmp_path / "credit-g.csv"
    load_arff(shared_datasets / "credit-g.arff").raw.to_csv(data, index=False)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900}, accept_downloads=True)
            page.set_default_timeout(3 * TIMEOUT_MS)
            page.goto(app_url)
            _wait_idle(page)
            _open(page, "Your data")
            page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(
                str(data)
            )
            _cases_ready(page)

            # the majority class beside the accuracy: credit-g is 70.0 % good
            assert "majority class 70.0 %" in page.inner_text("body")
            # the answers first, then the probabilities (then the file's columns)
            headers = _headers(page)
            assert headers[:6] == ANSWERS and headers[6:8] == ["P(bad)", "P(good)"]
            cases = _download(page, "Download every row with its answers (CSV)")
            assert len(cases) == 1000  # the download keeps the file's columns first
            assert list(cases.columns[1:3]) == ["checking_status", "duration"]

            # the first row's why: the fold model's answer is the row's answer in the download
            grid = page.locator('[data-testid="stDataFrame"]').filter(
                has=page.locator('th[role="columnheader"]', has_text="flagged by")
            )
            grid.first.scroll_into_view_if_needed()
            box = grid.first.bounding_box()
            page.mouse.click(box["x"] + 12, box["y"] + 35 + 17)  # the first row's marker
            title = page.get_by_text("Why? (line").first
            title.wait_for()
            _wait_idle(page)
            line = int(title.inner_text().split("line")[1].strip(" )"))
            fold, full = _why_rows(page)
            row = cases[cases["line"] == line].iloc[0]
            assert row["review"] == 1 and line == int(cases.iloc[0]["line"])  # the first row
            assert fold["prediction"] == row["prediction"]
            assert float(fold["P(good)"]) == pytest.approx(row["P(good)"], abs=5e-5)
            assert float(fold["P(bad)"]) == pytest.approx(row["P(bad)"], abs=5e-5)
            assert float(fold["confidence"]) == pytest.approx(row["confidence"], abs=5e-5)
            assert int(fold["verdict"]) == row["verdict"]
            said = page.locator('[data-testid="stMarkdownContainer"]').all_inner_texts()
            if full["prediction"] != fold["prediction"]:
                assert any("The two disagree on this row" in t for t in said)
            _assert_no_errors(page)

            # the link carries the upload's key: a reload shows the same answers
            query = parse_qs(urlparse(page.url).query)
            key = query["upload"][0]
            assert len(key) == 64 and query["upload_file"] == ["credit-g.csv"]
            link = page.url
            page.reload()
            _cases_ready(page)
            assert "No dataset loaded yet" not in page.inner_text("body")
            assert parse_qs(urlparse(page.url).query)["upload"] == [key]
            pd.testing.assert_frame_equal(
                _download(page, "Download every row with its answers (CSV)"), cases
            )

            # a second person (another browser context, no shared cookies) on the link
            other = browser.new_context(
                viewport={"width": 1400, "height": 900}, accept_downloads=True
            )
            second = other.new_page()
            second.set_default_timeout(3 * TIMEOUT_MS)
            second.goto(link)
            _cases_ready(second)
            pd.testing.assert_frame_equal(
                _download(second, "Download every row with its answers (CSV)"), cases
            )
            other.close()

            # the upload evicted: its link says so, naming the file, until dismissed
            shutil.rmtree(upload_store / key)
            gone = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
            gone.set_default_timeout(TIMEOUT_MS)
            gone.goto(link)
            _wait_idle(gone)
            notice = gone.get_by_text("no longer keeps").first
            notice.wait_for()
            text = notice.inner_text()
            assert "credit-g.csv" in text and "Upload the file again" in text
            gone.get_by_role("button", name="Dismiss").click()
            _wait_idle(gone)
            assert "no longer keeps" not in gone.inner_text("body")
            _assert_no_errors(gone)
        finally:
            browser.close()
