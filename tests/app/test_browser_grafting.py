"""The Grafting page on a projector, in real Chromium (issue 37, items 1 and 4).

Webb's preset in presentation mode at 1024x768, 1400x900 and 1920x1080: the stepper's
regions figure and its tree are each at least 90 % inside the first screen, without
scrolling; at 1400x900 "Next" moves the stepper to step 2, whose line shows the graft's
Laplace values (0.917 vs 0.714, p = 0.0346), and the figure stays on the screen. One
server for all (tests/app/conftest.py), one browser, one page load per size.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import sync_playwright

from tests.app.test_browser import CHROMIUM, TIMEOUT_MS, _assert_no_errors, _wait_idle

pytestmark = pytest.mark.slow

SIZES = [(1024, 768), (1400, 900), (1920, 1080)]
WEBB = "grafting?dataset=webb+example&graft_max_depth=3&test_size=0.0&present=1"
#: the share of an element's box inside the window, and its box
VISIBLE = """(selector) => {
  const el = document.querySelector(selector);
  if (!el) return null;
  const r = el.getBoundingClientRect(), vw = window.innerWidth, vh = window.innerHeight;
  const w = Math.max(0, Math.min(r.right, vw) - Math.max(r.left, 0));
  const h = Math.max(0, Math.min(r.bottom, vh) - Math.max(r.top, 0));
  return {share: r.width * r.height > 0 ? (w * h) / (r.width * r.height) : 0,
          width: r.width, height: r.height, top: r.top, bottom: r.bottom};
}"""
CHART = ".st-key-graft_step_regions .js-plotly-plot"
TREE = '.st-key-graft_step_tree [data-testid="stGraphVizChart"] svg'


def _line(page) -> str:
    return page.locator("p", has_text="Step ").filter(has_text=" of 5").first.inner_text()


def _assert_on_screen(page, where: str) -> None:
    for selector in (CHART, TREE):
        box = page.evaluate(VISIBLE, selector)
        assert box is not None, f"{where}: {selector} not drawn"
        assert box["share"] >= 0.9, f"{where}: {selector} {box}"
        # the figure fills most of what the window leaves: not a thumbnail
        assert box["height"] >= 0.4 * page.viewport_size["height"], f"{where}: {box}"
    assert page.evaluate("() => window.scrollY") == 0


def test_stepper_fills_the_projector_and_moves(app_url):
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            for width, height in SIZES:
                page.set_viewport_size({"width": width, "height": height})
                page.goto(f"{app_url}/{WEBB}")
                page.wait_for_selector(CHART + " .main-svg")
                page.wait_for_selector(TREE)
                _wait_idle(page)
                _assert_no_errors(page)
                page.wait_for_timeout(500)  # plotly's relayout to the box
                where = f"{width}x{height}"
                assert "Step 1 of 5" in _line(page) and "0.909 vs 0.833" in _line(page)
                _assert_on_screen(page, where)
                if (width, height) != (1400, 900):
                    continue
                page.get_by_role("button", name="Next ▶").click()
                page.wait_for_function(
                    "() => document.body.innerText.includes('Step 2 of 5')", timeout=TIMEOUT_MS
                )
                _wait_idle(page)
                _assert_no_errors(page)
                line = _line(page)
                assert "A ≤ 5 → dot" in line and "0.917 vs 0.714" in line, line
                assert "p = 0.0346" in line and line.endswith("graft"), line
                _assert_on_screen(page, where + ", step 2")
        finally:
            browser.close()
