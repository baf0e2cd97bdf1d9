"""Your data in a real browser: upload a mixed file, download its cases, score a second file.

Uses the Streamlit server of tests/test_browser.py (Debian's Chromium; skipped when it is
absent, failed in CI). Set ``YOURDATA_SHOTS`` to a folder to keep screenshots of the page.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pandas as pd
import pytest
from playwright.sync_api import sync_playwright

from tests.app.test_browser import CHROMIUM, TIMEOUT_MS, _assert_no_errors, _open, _wait_idle
from tests.app.test_yourdata import patients_csv

pytestmark = pytest.mark.slow


def _download(page, name: str) -> pd.DataFrame:
    with page.expect_download() as info:
        page.get_by_role("button", name=name).first.click()
    path = info.value.path()
    return pd.read_csv(io.BytesIO(Path(path).read_bytes()), keep_default_na=False)


def _shot(page, name: str) -> None:
    folder = os.environ.get("YOURDATA_SHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / name), full_page=True)


@pytest.mark.parametrize("viewport", [(1400, 900)])
def test_upload_cases_download_and_score_a_second_file(app_url, tmp_path, viewport):  # noqa: F811
    first = tmp_path / "patients.csv"
    first.write_bytes(patients_csv(300))
    second = tmp_path / "new_patients.csv"
    second.write_bytes(patients_csv(40, label=False, seed=4))
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page(
                viewport={"width": viewport[0], "height": viewport[1]}, accept_downloads=True
            )
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(app_url)
            _wait_idle(page)
            _open(page, "Your data")
            uploads = page.locator('[data-testid="stFileUploaderDropzoneInput"]')
            uploads.first.set_input_files(str(first))
            page.get_by_text("Which rows can't the model decide?").first.wait_for()
            _wait_idle(page)
            _assert_no_errors(page)
            _shot(page, f"yourdata_cases_{viewport[0]}.png")

            cases = _download(page, "Download every row with its answers (CSV)")
            assert len(cases) == 300
            assert {"line", "patient_id", "verdict", "prediction", "confidence"} <= set(cases)
            assert cases["patient_id"].str.startswith("P0").all()
            assert set(cases["verdict"]) <= {0, 1}

            page.locator('[data-testid="stFileUploaderDropzoneInput"]').nth(1).set_input_files(
                str(second)
            )
            page.get_by_text("Scored 40 rows").first.wait_for()
            _wait_idle(page)
            _assert_no_errors(page)
            assert "never seen in training" in page.inner_text("body")
            _shot(page, f"yourdata_scores_{viewport[0]}.png")
            scores = _download(page, "Download the scored rows (CSV)")
            assert list(scores.columns[:5]) == ["patient_id", "age", "sex", "smoking", "glucose"]
            assert len(scores) == 40 and set(scores["verdict"]) <= {0, 1}
        finally:
            browser.close()
