"""Markup and links in an upload's names, on all six pages in Chromium (issue 27).

Feature names and class labels carry an ``<img onerror>`` payload, an ``<a href>``, a
Markdown link, a bare URL, a www. name and an e-mail address. On every page nothing may
run (the payload would set ``window.__pwned``), no element may link to the hostile site
(HTML, SVG or a GFM autolink) and no image the payload names may load. Uses the Streamlit
server of tests/app/conftest.py (skipped without Chromium, failed in CI).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import sync_playwright

from tests.app.test_browser import CHROMIUM, TIMEOUT_MS, _assert_no_errors, _open, _wait_idle

pytestmark = pytest.mark.slow

# the first decides the class: the root splits on it, so the node inspector names it
FEATURES = [
    '<a href="https://evil.example/a">a</a>',
    '<img src="pwn.png" onerror="window.__pwned=1">',
    "https://evil.example/x",
]
CLASSES = ["[click](https://evil.example/md)", "www.evil.example a@evil.example"]
#: each page and how many figures (plotly or Graphviz) it draws for the upload
PAGES = {
    "Home": 0,
    "Decision regions": 1,
    "Tree diagram": 2,
    "Accuracy vs. coverage": 2,
    "Grafting": 3,
}
#: at least ``n`` figures on the page, and every one drawn (plotly laid out, Graphviz's SVG in)
DRAWN = """(n) => {
  const plots = [...document.querySelectorAll('.js-plotly-plot')];
  const trees = [...document.querySelectorAll('[data-testid="stGraphVizChart"]')];
  return plots.length + trees.length >= n
    && plots.every(p => p._fullLayout && p.querySelector('.main-svg'))
    && trees.every(t => t.querySelector('svg g.node'));
}"""

# every element that links to the hostile site (HTML or SVG), every image the payload names
HOSTILE_ELEMENTS = """() => {
    const links = [...document.querySelectorAll('a')].filter(a => {
        const href = a.getAttribute('href') || a.getAttribute('xlink:href') || '';
        return href.includes('evil');
    });
    const images = [...document.querySelectorAll('img')].filter(
        i => (i.getAttribute('src') || '').includes('pwn'));
    return links.length + images.length;
}"""


def _csv() -> str:
    def cell(text: str) -> str:
        return '"' + text.replace('"', '""') + '"'

    head = ",".join(cell(n) for n in [*FEATURES, "label"])
    rows = []
    for i in range(120):
        a, b, c = i % 40, (i * 7) % 13, (i * 3) % 11
        rows.append(f"{a},{b},{c},{cell(CLASSES[int(a > 18)])}")
    return head + "\n" + "\n".join(rows) + "\n"


def _assert_inert(page, where: str) -> None:
    _assert_no_errors(page)
    assert page.evaluate("() => window.__pwned") is None, where
    assert page.evaluate(HOSTILE_ELEMENTS) == 0, where


def test_markup_in_names_is_text_on_every_page(app_url, tmp_path):
    upload = tmp_path / "names.csv"
    upload.write_text(_csv(), encoding="utf-8")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(app_url)
            _wait_idle(page)
            _open(page, "Your data")
            page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(
                str(upload)
            )
            page.get_by_text("Loaded names").first.wait_for()
            _wait_idle(page)
            _assert_inert(page, "Your data")
            assert "3 features, 2 classes" in page.inner_text("body")
            for title, figures in PAGES.items():
                _open(page, title)
                page.wait_for_function(DRAWN, arg=figures)  # not a fixed 1.5 s any more
                _wait_idle(page)
                _assert_inert(page, title)
            # the tree page's rules list shows the URL name as text
            _open(page, "Tree diagram")
            page.get_by_text("The tree as rules").first.wait_for()
            _assert_inert(page, "rules")
        finally:
            browser.close()
