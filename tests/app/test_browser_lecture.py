"""The app in a lecture hall, in real Chromium (issue 21).

The Fig. 1 preset shows the paper's numbers, tree text stays legible at depth 4
(node text at least 11 px on screen, measured as the SVG font size times its
screen scale, and inside its box), and presentation mode with the sidebar open
cuts no metric label. Skips without Chromium, like the other browser tests.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import sync_playwright

from tests.app.test_browser import CHROMIUM, TIMEOUT_MS, _assert_no_errors, _wait_idle
from tests.app.test_browser import app_url as app_url  # the server fixture

pytestmark = pytest.mark.slow

FIG1 = (
    "decision_regions?dataset=two+moons&n_samples=250&noise=0.28&data_seed=42&standardize=True"
    "&delta_method=quality_plateau&epsilon=0.15&max_depth=3&test_size=0.0&seed=42"
)
#: per node of the first diagram: the smallest on-screen text size, and texts leaving the box
NODE_TEXT = """() => {
  const svg = document.querySelector('[data-testid="stGraphVizChart"] svg');
  let smallest = Infinity, outside = 0;
  svg.querySelectorAll('g.node').forEach(node => {
    const box = node.querySelector('path, polygon').getBoundingClientRect();
    node.querySelectorAll('text').forEach(t => {
      const m = t.getScreenCTM();
      smallest = Math.min(smallest, parseFloat(t.getAttribute('font-size')) * Math.hypot(m.a, m.b));
      const r = t.getBoundingClientRect();
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5) outside += 1;
    });
  });
  return [smallest, outside];
}"""
CUT_LABELS = """() => [...document.querySelectorAll('[data-testid="stMetricLabel"] *')]
  .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"""


def _settled(page, url: str, selector: str) -> None:
    page.goto(url)
    page.wait_for_selector(selector, timeout=TIMEOUT_MS)
    _wait_idle(page)
    _assert_no_errors(page)


def test_fig1_preset_tree_text_and_presentation_labels(app_url):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        try:
            _settled(page, f"{app_url}/{FIG1}", '[data-testid="stMetric"]')
            cards = page.locator('[data-testid="stMetric"]').all_inner_texts()
            assert any("Boundary-uncertain" in c and "46.4%" in c for c in cards), cards
            assert "Decided accuracy: 0.948" in page.inner_text("body")

            for dataset in ("breast+cancer", "digits"):  # depth 4, the default
                _settled(
                    page,
                    f"{app_url}/tree_diagram?dataset={dataset}",
                    '[data-testid="stGraphVizChart"] svg g.node',
                )
                smallest, outside = page.evaluate(NODE_TEXT)
                assert smallest >= 11.0, (dataset, smallest)
                assert outside == 0, dataset

            _settled(page, f"{app_url}/decision_regions?present=1", ".js-plotly-plot")
            page.locator('[data-testid="stExpandSidebarButton"]').first.click()
            page.wait_for_selector('[data-testid="stSidebarNav"]', timeout=TIMEOUT_MS)
            page.wait_for_timeout(800)
            assert page.evaluate(CUT_LABELS) == []
        finally:
            browser.close()
