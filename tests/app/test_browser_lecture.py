"""The app in a lecture hall, in real Chromium (issue 21).

The server pays its warm-up before any visitor; the Fig. 1 preset shows the
paper's numbers; tree text stays legible at depth 4 (node text at least 11 px on
screen, measured as the SVG font size times its screen scale, and inside its
box); presentation mode with the sidebar open cuts no metric or navigation
label and lays no legend over a title. One server, one browser tab, two page
loads: the rest are reruns (a dataset picked, presentation mode switched on) as
a teacher would make them. Skips without Chromium, like the other browser tests.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import sync_playwright

from appkit import warmup
from tests.app.test_browser import CHROMIUM, TIMEOUT_MS, _assert_no_errors, _wait_idle

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
#: what a projector would show wrong: cut labels, legends on titles or on each other
LAYOUT = """() => {
  const out = [], cut = e => e.scrollWidth > e.clientWidth + 1;
  document.querySelectorAll('[data-testid="stMetricLabel"] *').forEach(e => {
    if (cut(e)) out.push('metric label cut: ' + e.textContent); });
  document.querySelectorAll('[data-testid="stSidebarNav"] a span').forEach(e => {
    if (cut(e)) out.push('navigation label cut: ' + e.textContent); });
  const meet = (a, b) => a.width && b.width && !(a.right <= b.left || b.right <= a.left
    || a.bottom <= b.top || b.bottom <= a.top);
  document.querySelectorAll('.js-plotly-plot').forEach((plot, i) => {
    const frame = plot.querySelector('.main-svg').getBoundingClientRect();
    const titles = [...plot.querySelectorAll('.gtitle, .annotation-text')];
    const legends = [...plot.querySelectorAll('.legend .bg')].map(l => l.getBoundingClientRect());
    legends.forEach((box, j) => {
      titles.forEach(t => { if (meet(box, t.getBoundingClientRect()))
        out.push(`figure ${i}: legend over "${t.textContent.slice(0, 40)}"`); });
      legends.slice(j + 1).forEach(other => { if (meet(box, other))
        out.push(`figure ${i}: legends overlap`); });
      if (box.right > frame.right + 1) out.push(`figure ${i}: legend cut at the right`);
    });
  });
  return out;
}"""
#: text of the first tree node, to see a rerun replace the diagram
FIRST_NODE = (
    "() => document.querySelector('[data-testid=\"stGraphVizChart\"] svg g.node')?.textContent"
)


def _rerun(page, action, ready: str) -> None:
    """Do ``action`` (a click that reruns the script) and wait for ``ready`` and the run's end."""
    action()
    page.wait_for_function(ready, timeout=TIMEOUT_MS)
    _wait_idle(page)
    _assert_no_errors(page)


def _present(page) -> None:
    """Switch presentation mode on from the sidebar, which stays open."""
    toggle = page.locator('[data-testid="stSidebar"]').get_by_text("Presentation mode")
    _rerun(
        page,
        toggle.click,
        # presentation mode's 20 px root (its title is smaller, to leave room for the figure)
        "() => parseFloat(getComputedStyle(document.documentElement).fontSize) >= 20",
    )


def _node_text(page, dataset: str) -> None:
    smallest, outside = page.evaluate(NODE_TEXT)
    assert smallest >= 11.0, (dataset, smallest)
    assert outside == 0, dataset


def test_warm_up_before_any_visitor_then_fig1_legible_trees_and_presentation(app_server):
    url, warm_up_line = app_server
    # the server's start-up hook ran the whole warm-up before any browser connected
    assert warm_up_line.startswith(warmup.DONE) and " s (imports, kernels" in warm_up_line
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.set_default_timeout(TIMEOUT_MS)
        try:
            page.goto(f"{url}/{FIG1}&present=1")  # the link opens with the sidebar closed
            page.wait_for_function(
                "() => document.querySelectorAll('[data-testid=\"stMetricValue\"]').length == 5"
            )
            _wait_idle(page)
            _assert_no_errors(page)
            cards = page.locator('[data-testid="stMetric"]').all_inner_texts()
            assert any("Boundary-uncertain" in c and "46.4%" in c for c in cards), cards
            assert "Decided accuracy: 0.948" in page.inner_text("body")
            page.get_by_test_id("stExpandSidebarButton").click()  # open beside the figure
            page.locator('[data-testid="stSidebar"][data-collapsed="false"]').wait_for()
            page.get_by_text("Presentation mode").wait_for()
            assert page.evaluate(LAYOUT) == []

            page.goto(f"{url}/tree_diagram?dataset=breast+cancer")  # depth 4, the default
            page.wait_for_selector('[data-testid="stGraphVizChart"] svg g.node')
            _wait_idle(page)
            _assert_no_errors(page)
            _node_text(page, "breast cancer")
            before = page.evaluate(FIRST_NODE)
            picker = page.locator('[data-testid="stSidebar"] input[aria-label="Dataset"]')
            picker.click()
            picker.fill("digits")
            changed = f"() => ({FIRST_NODE})() !== {json.dumps(before)}"
            _rerun(page, lambda: picker.press("Enter"), changed)
            _node_text(page, "digits")
            _present(page)  # the node inspector's ten-class legend beside its wrapped title
            assert page.evaluate(LAYOUT) == []
        finally:
            browser.close()
