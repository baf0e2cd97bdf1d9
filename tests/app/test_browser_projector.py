"""Trees and figures on a projector, in real Chromium (issue 32, item 2).

At 1400x900 and 1920x1080, presentation mode off and on: no tree diagram is cut
(its content fits its container, or the container scrolls sideways with the SVG
at its natural size), node text is at least 11 px on screen (the SVG font size
times its screen scale), the "why" path is drawn on that readable tree with the
split feature's rows at each node, and Fig. 2 when presenting keeps its legend
beside the plot, its ticks at 14 px or more and no toolbar over its titles. One
server for all (tests/app/conftest.py); each test opens two or three pages.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import sync_playwright

from tests.app.test_browser import CHROMIUM, TIMEOUT_MS, _assert_no_errors, _wait_idle

pytestmark = pytest.mark.slow

SIZES = [(1400, 900), (1920, 1080)]
FIG3 = (
    "tree_diagram?dataset=breast+cancer&delta_method=margin&routing=hard_middle&max_depth=2"
    "&test_size=0.0&seed=42&zone_edges=closed"
)
FIG1 = (
    "decision_regions?dataset=two+moons&n_samples=250&noise=0.28&data_seed=42&standardize=True"
    "&delta_method=quality_plateau&epsilon=0.15&max_depth=3&test_size=0.0&seed=42"
)
#: every Graphviz diagram: is it cut, how small is its node text, does text leave a box
TREES = """() => [...document.querySelectorAll('[data-testid="stGraphVizChart"]')].map(c => {
  const svg = c.querySelector('svg'), box = c.getBoundingClientRect();
  const r = svg.getBoundingClientRect(), style = getComputedStyle(c);
  const scrolls = ['auto', 'scroll'].includes(style.overflowX);
  let smallest = Infinity, outside = 0;
  svg.querySelectorAll('g.node').forEach(node => {
    if (node.querySelector('title')?.textContent === 'legend') return;  // a table, no box
    const shape = node.querySelector('path, polygon');
    const edge = shape ? shape.getBoundingClientRect() : {width: 0};
    node.querySelectorAll('text').forEach(t => {
      const m = t.getScreenCTM();
      smallest = Math.min(smallest, parseFloat(t.getAttribute('font-size')) * Math.hypot(m.a, m.b));
      const b = t.getBoundingClientRect();
      const out = b.left < edge.left - 0.5 || b.right > edge.right + 0.5;
      if (edge && edge.width && out) outside += 1;
    });
  });
  return {svgWidth: r.width, boxWidth: box.width, scrollWidth: c.scrollWidth,
          clientWidth: c.clientWidth, scrolls, smallest, outside,
          nodes: svg.querySelectorAll('g.node').length,
          // visible part of the page: no ancestor narrower than the box clips it
          pageRight: document.querySelector('[data-testid="stMain"]').getBoundingClientRect().right,
          right: box.right};
})"""


def _launch(p):
    return p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])


def _open(page, url: str, selector: str) -> None:
    page.goto(url)
    page.wait_for_selector(selector)
    _wait_idle(page)
    _assert_no_errors(page)


def _assert_trees_readable(page, where: str) -> list[dict]:
    trees = page.evaluate(TREES)
    assert trees, where
    for i, t in enumerate(trees):
        label = f"{where}, diagram {i}: {t}"
        assert t["smallest"] >= 11.0, label  # never shrunk to the page's width
        assert t["outside"] == 0, label  # no text spills out of its box
        assert t["right"] <= t["pageRight"] + 1, label  # the container itself is on the page
        fits = t["scrollWidth"] <= t["clientWidth"] + 1
        # wider than its container: it scrolls, and the whole SVG can be scrolled to
        assert fits or (t["scrolls"] and t["scrollWidth"] >= t["svgWidth"] - 1), label
    return trees


#: the page laid out at the window's size: Streamlit's columns, and every plotly figure
#: relaid out to its container's width (plotly redraws on the window's resize event)
LAID_OUT = """(w) => window.innerWidth === w
  && [...document.querySelectorAll('.js-plotly-plot')].every(p => p._fullLayout
    && Math.abs(p.getBoundingClientRect().width - p._fullLayout.width) < 2)"""


def _sizes(page):
    """Each of `SIZES` in turn, the page resized to it (no reload: nothing on the server
    depends on the window, so one page load checks both sizes)."""
    for size in SIZES:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.wait_for_function(LAID_OUT, arg=size[0])
        page.wait_for_timeout(200)  # Graphviz containers and the figures settle
        yield size


def _page(browser):
    page = browser.new_page(viewport={"width": SIZES[0][0], "height": SIZES[0][1]})
    page.set_default_timeout(TIMEOUT_MS)
    return page


def test_figs_3_4_tree_fits_at_natural_size(app_url):
    with sync_playwright() as p:
        browser = _launch(p)
        page = _page(browser)
        try:
            for present in ("", "&present=1"):
                _open(
                    page, f"{app_url}/{FIG3}{present}", '[data-testid="stGraphVizChart"] svg g.node'
                )
                for size in _sizes(page):
                    tree = _assert_trees_readable(page, f"Figs. 3/4 {size} {present}")[0]
                    assert tree["nodes"] == 13
                    # the preset's nine leaves fit the page without scrolling (1,135 px cut before)
                    assert tree["scrollWidth"] <= tree["clientWidth"] + 1, tree
                    if present:
                        page.screenshot(path=f"/tmp/projector_fig3_{size[0]}.png")
        finally:
            browser.close()


def _why_checks(page, where: str, present: str) -> None:
    tree = _assert_trees_readable(page, where)[0]
    # the path is drawn: thick (penwidth 3) node borders on the readable tree
    thick = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="stGraphVizChart"] '
        + 'g.node path, [data-testid="stGraphVizChart"] g.node polygon')]
        .filter(s => parseFloat(s.getAttribute('stroke-width')) >= 3).length"""
    )
    assert 2 <= thick < tree["nodes"], thick
    # the split feature's rows at each node of the path: one panel per split
    titles = page.evaluate(
        "() => [...document.querySelectorAll('.js-plotly-plot .annotation-text')]"
        ".map(t => t.textContent)"
    )
    panels = [t for t in titles if t.startswith("node ")]
    assert panels and panels[0].startswith("node 0:"), titles
    ticks = page.evaluate(
        """() => Math.min(...[...[...document.querySelectorAll('.js-plotly-plot')]
        .at(-1).querySelectorAll('.xtick text')].map(t =>
        parseFloat(getComputedStyle(t).fontSize)))"""
    )
    assert ticks >= (14 if present else 13), ticks


def test_why_path_drawn_on_a_readable_tree_with_its_nodes_rows(app_url):
    with sync_playwright() as p:
        browser = _launch(p)
        page = _page(browser)
        try:
            for present in ("", "&present=1"):
                _open(page, f"{app_url}/{FIG1}{present}", ".js-plotly-plot .main-svg")
                point = page.locator(".js-plotly-plot .scatterlayer .trace .points path").nth(5)
                box = point.bounding_box()
                page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                page.get_by_text("Test row").first.wait_for()
                page.wait_for_selector('[data-testid="stGraphVizChart"] svg g.node')
                _wait_idle(page)
                _assert_no_errors(page)
                for size in _sizes(page):
                    _why_checks(page, f"why {size} {present}", present)
                    if present:
                        why = page.get_by_text("Why is this row flagged").first
                        why.scroll_into_view_if_needed()
                        page.screenshot(path=f"/tmp/projector_why_{size[0]}.png")
        finally:
            browser.close()


#: Fig. 2's plot area, legend, tick size, toolbar and whether a text leaves the figure
FIG2 = """() => {
  const plot = document.querySelector('.js-plotly-plot');
  const area = plot.querySelector('.nsewdrag').getBoundingClientRect();
  const legend = plot.querySelector('.legend .bg').getBoundingClientRect();
  const frame = plot.querySelector('.main-svg').getBoundingClientRect();
  const ticks = [...plot.querySelectorAll('.xtick text, .ytick text')]
    .map(t => parseFloat(getComputedStyle(t).fontSize));
  const bar = plot.querySelector('.modebar-container');
  const eta = [...plot.querySelectorAll('.textpoint text')]
    .filter(t => t.textContent.startsWith('η'))
    .map(t => { const b = t.getBoundingClientRect();
      return b.top >= area.top - 1 && b.bottom <= area.bottom + 1 && b.right <= area.right + 1; });
  // the point labels (not the η ones): pairs closer than 2 px, and labels over a marker
  const boxes = [...plot.querySelectorAll('.textpoint text')]
    .filter(t => t.textContent && !t.textContent.startsWith('η'))
    .map(t => [t.textContent, t.getBoundingClientRect()]);
  const marks = [...plot.querySelectorAll('.scatterlayer .point')]
    .map(m => m.getBoundingClientRect());
  const near = (a, b, g) => a.left < b.right + g && b.left < a.right + g
    && a.top < b.bottom + g && b.top < a.bottom + g;
  const touching = [];
  boxes.forEach(([s, a], i) => boxes.slice(i + 1).forEach(([t, b]) => {
    if (near(a, b, 2)) touching.push([s, t]); }));
  const onMarkers = boxes.filter(([, a]) => marks.some(m => near(a, m, 0))).map(([s]) => s);
  return {labels: boxes.length, touching, onMarkers,
          plotHeight: area.height, legendLeft: legend.left, plotRight: area.right,
          legendRight: legend.right, frameRight: frame.right, tick: Math.min(...ticks),
          toolbar: bar ? getComputedStyle(bar).display : 'none', etaInside: eta};
}"""


def test_fig2_presenting_legend_beside_ticks_readable_no_toolbar(app_url):
    with sync_playwright() as p:
        browser = _launch(p)
        page = _page(browser)
        try:
            _open(
                page,
                f"{app_url}/accuracy_coverage?coverage_view=paper&present=1",
                ".js-plotly-plot .main-svg",
            )
            for size in _sizes(page):
                page.locator(".js-plotly-plot").first.hover()
                fig = page.evaluate(FIG2)
                assert fig["legendLeft"] >= fig["plotRight"] - 1, fig  # beside, not below
                assert fig["legendRight"] <= fig["frameRight"] + 1, fig
                assert fig["plotHeight"] >= 350, fig  # was 245 px with the legend below
                assert fig["tick"] >= 14, fig
                assert fig["toolbar"] == "none", fig  # no toolbar over the titles when presenting
                assert fig["etaInside"] and all(fig["etaInside"]), fig
                # every point label shown, apart from the others and off the markers
                assert fig["labels"] == 11 and not fig["touching"], fig
                assert not fig["onMarkers"], fig
                page.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
                page.screenshot(path=f"/tmp/projector_fig2_{size[0]}.png")
        finally:
            browser.close()


#: plotly's toolbar, shown by the hover, against every figure title and panel title
TOOLBAR = """() => [...document.querySelectorAll('.js-plotly-plot')].map(p => {
  const box = p.querySelector('.modebar-container'), bar = p.querySelector('.modebar');
  if (!bar || getComputedStyle(box).display === 'none') return {shown: false, over: []};
  const b = bar.getBoundingClientRect();
  const over = [...p.querySelectorAll('.gtitle, .annotation-text')].filter(t => {
    const r = t.getBoundingClientRect();
    return r.width > 0 && r.left < b.right && b.left < r.right && r.top < b.bottom
      && b.top < r.bottom;
  }).map(t => t.textContent);
  return {shown: b.width > 0, over};
})"""


def test_no_toolbar_over_a_title_outside_presentation(app_url):
    """The Grafting page's two panels (a long title ran under the right one's toolbar) and
    the accuracy-coverage page's figures, each hovered, at both sizes."""
    with sync_playwright() as p:
        browser = _launch(p)
        page = _page(browser)
        try:
            for path in ("grafting", "accuracy_coverage"):
                _open(page, f"{app_url}/{path}", ".js-plotly-plot .main-svg")
                page.wait_for_function(
                    "() => document.querySelectorAll('.js-plotly-plot').length >= 2"
                )
                for size in _sizes(page):
                    plots = page.locator(".js-plotly-plot")
                    for i in range(plots.count()):
                        plots.nth(i).scroll_into_view_if_needed()
                        plots.nth(i).hover()
                        page.wait_for_timeout(300)  # the toolbar fades in
                        bar = page.evaluate(TOOLBAR)[i]
                        assert bar["shown"] and not bar["over"], (path, size, i, bar)
        finally:
            browser.close()
