"""One real-browser run of the app: `streamlit run app.py` driven by Chromium.

Uses the server of tests/app/conftest.py (one for every browser test), clicks
through every page in the sidebar navigation and checks that the charts are
actually drawn (plotly's SVG, the Graphviz SVG) and that no error or exception
box appears. Skips when Debian's Chromium is not installed (fails in CI, where a
skip would pass silently).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
TIMEOUT_MS = 60_000

pytestmark = pytest.mark.slow


def _assert_no_errors(page) -> None:
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.locator('[data-testid="stAlertContentError"]').count() == 0
    assert "Traceback" not in page.inner_text("body")


def _wait_idle(page) -> None:
    """Wait until the script run finished (the running indicator is gone)."""
    page.wait_for_timeout(300)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=TIMEOUT_MS
    )


def _open(page, title: str) -> None:
    page.locator('[data-testid="stSidebarNav"] a').filter(has_text=title).first.click()
    page.wait_for_function(
        f"() => document.title.length > 0 && document.body.innerText.includes({title!r})",
        timeout=TIMEOUT_MS,
    )
    _wait_idle(page)


def _plotly_count(page) -> int:
    return page.locator(".js-plotly-plot .main-svg").count()


def _model_pages(page) -> None:
    """Every page of the navigation draws its charts, a clicked point tells its row's story."""
    _open(page, "Decision regions")
    page.locator(".js-plotly-plot .main-svg").first.wait_for()
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=\"stMetricValue\"]').length == 5"
    )
    _assert_no_errors(page)

    # click a test point: the explanation of its row appears
    point = page.locator(".js-plotly-plot .scatterlayer .trace .points path").last
    box = point.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.get_by_text("Test row").first.wait_for()
    _wait_idle(page)
    story = page.inner_text("body")
    assert "Decided" in story or "lies inside the zone of" in story
    _assert_no_errors(page)

    _open(page, "Tree diagram")
    page.locator('[data-testid="stGraphVizChart"] svg').first.wait_for()
    page.locator(".js-plotly-plot .main-svg").first.wait_for()  # node inspector
    assert page.locator('[data-testid="stGraphVizChart"] svg g.node').count() >= 3
    _assert_no_errors(page)

    _open(page, "Accuracy vs. coverage")  # drawn on arrival, no button
    page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot').length >= 2")
    _wait_idle(page)
    _assert_no_errors(page)

    _open(page, "Grafting")
    page.locator('[data-testid="stGraphVizChart"] svg').first.wait_for()
    page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot').length >= 2")
    assert _plotly_count(page) >= 2
    _assert_no_errors(page)


def _uploads(page, tmp_path) -> None:
    """Two uploads on the Your data page; the second then drives the regions page."""
    _open(page, "Your data")
    csv = tmp_path / "patients.csv"
    csv.write_text(
        "age,dose,outcome\n"
        + "".join(
            f"{20 + i % 50},{(i * 13) % 17},{'ok' if i % 50 > 20 else 'bad'}\n" for i in range(120)
        )
    )
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(str(csv))
    page.get_by_text("Loaded patients").first.wait_for()
    _wait_idle(page)
    _assert_no_errors(page)

    # a spreadsheet export with a comma decimal locale: semicolons between
    # fields, commas inside the quoted names; the label picker must see 4 columns
    body = tmp_path / "body.csv"
    body.write_text(
        '"height, cm";"weight, kg";"shoe size, EU";label\n'
        "181.2;75.3;43.1;tall\n"
        + "".join(
            f"{160 + i % 35}.{i % 10};{55 + (i * 7) % 40}.3;{38 + i % 9}.1;"
            f"{'tall' if i % 35 > 17 else 'short'}\n"
            for i in range(59)
        )
    )
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(str(body))
    page.get_by_text("Loaded body").first.wait_for()
    _wait_idle(page)
    _assert_no_errors(page)
    label = page.locator('input[aria-label="Label column"]')
    assert label.input_value() == "label"
    assert "3 features, 2 classes" in page.inner_text("body")

    # the upload now drives the other pages
    _open(page, "Decision regions")
    page.locator(".js-plotly-plot .main-svg").first.wait_for()
    picker = page.locator('[data-testid="stSidebar"] input[aria-label="Dataset"]')
    assert picker.input_value() == "Your data: body"
    _assert_no_errors(page)


def _shared_link(browser, app_url) -> None:
    """A shared link opens its page with its setting, in a new tab."""
    shared = browser.new_page(viewport={"width": 1440, "height": 900})
    shared.set_default_timeout(TIMEOUT_MS)
    shared.goto(f"{app_url}/decision_regions?dataset=blobs&delta_method=quality_plateau")
    shared.locator(".js-plotly-plot .main-svg").first.wait_for()
    _wait_idle(shared)
    sidebar = shared.locator('[data-testid="stSidebar"]')
    assert sidebar.locator('input[aria-label="Dataset"]').input_value() == "blobs"
    method = sidebar.locator('input[aria-label="δ method"]')
    assert method.input_value() == "quality plateau"
    assert "ε (plateau tolerance)" in sidebar.inner_text()
    _assert_no_errors(shared)


def test_every_page_draws_in_a_real_browser(app_url, tmp_path):
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(app_url)
            page.get_by_text("Ternary decision trees").first.wait_for()
            _wait_idle(page)
            # the default dataset: two moons, 500 rows
            page.get_by_test_id("stMetricValue").get_by_text("500", exact=True).wait_for()
            _assert_no_errors(page)
            _model_pages(page)
            _uploads(page, tmp_path)
            _shared_link(browser, app_url)
        finally:
            browser.close()
