"""The home page (app.py) and what holds across every page: defaults, presentation
mode, sessions kept apart, names from a file shown as plain text.
"""

from __future__ import annotations

import re

import pytest

from appkit import links, vocabulary
from tests.app.helpers import GOOD_CSV, PAGES, SEMICOLON_CSV, assert_clean, metrics, open_app


def test_home_starts_on_two_moons_and_links_every_page():
    at = open_app()
    assert at.selectbox(key="dataset").value == "two moons"
    # the README promises the default: two moons, 500 rows, noise 0.3
    assert at.slider(key="n_samples").value == 500
    assert at.slider(key="noise").value == pytest.approx(0.3)
    m = metrics(at)
    assert (m["Rows"], m["Features"], m["Classes"]) == ("500", "2", "2")
    assert m["Bayes error"] == "unknown"
    assert len(at.get("page_link")) == 5 + len(links.PRESETS)  # every page, then the presets
    # three sentences of explanation before anything else
    assert "uncertainty zone" in at.markdown[0].value


@pytest.mark.parametrize(
    "page, plotly, graphviz",
    [("regions", 1, 0), ("tree", 1, 2), ("coverage", 2, 0), ("grafting", 3, 3), ("data", 0, 0)],
)
def test_page_renders_with_defaults(page, plotly, graphviz):
    at = open_app(page)
    assert len(at.get("plotly_chart")) == plotly
    assert len(at.get("graphviz_chart")) == graphviz
    # the shared dataset picker is on every page
    assert at.sidebar.selectbox(key="dataset").value == "two moons"


def test_presentation_mode_enlarges_and_travels_in_the_link():
    at = open_app()
    # the page's own style (natural-size diagrams, wrapping labels), but not presentation's
    assert not any("font-size: 20px" in h.proto.body for h in at.get("html"))
    at.toggle(key="present").set_value(True).run()
    assert_clean(at)
    assert any("font-size: 20px" in h.proto.body for h in at.get("html"))
    assert at.query_params["present"] in ("1", ["1"])


def test_two_sessions_never_see_each_others_data_or_settings():
    first, second = open_app("data"), open_app("data")
    first.file_uploader(key="upload").set_value(("people.csv", GOOD_CSV, "text/csv")).run()
    second.file_uploader(key="upload").set_value(("body.csv", SEMICOLON_CSV, "text/csv")).run()
    first.switch_page(PAGES["regions"]).run()
    second.switch_page(PAGES["regions"]).run()
    first.selectbox(key="delta_method").set_value("gain_ratio").run()
    second.run()
    assert first.selectbox(key="dataset").value == vocabulary.USER_PREFIX + "people"
    assert second.selectbox(key="dataset").value == vocabulary.USER_PREFIX + "body"
    assert vocabulary.USER_PREFIX + "people" not in second.selectbox(key="dataset").options
    assert second.selectbox(key="delta_method").value == "margin"
    assert first.selectbox(key="feature_x").value == "height"
    assert second.selectbox(key="feature_x").value == "height, cm"


def test_names_from_a_file_reach_the_page_as_plain_text():
    hostile = (
        "![x](http://img.test/a.png),[site](http://link.test),<img src=x onerror=alert(1)>\n"
        + "".join(
            # the first column shuffled: 0..39 in file order would number the rows
            f"{(11 * i) % 40},{(i * 7) % 13},{'<b>yes</b>' if i % 2 else '[no](http://e.test)'}\n"
            for i in range(40)
        )
    ).encode()
    at = open_app("data")
    at.file_uploader(key="upload").set_value(
        ("![pic](http://img.test/p.png).csv", hostile, "text/csv")
    ).run()
    assert not at.exception and not at.error
    pages = [None, "data", "regions", "coverage"]
    for page in pages:
        if page is not None:
            at.switch_page(PAGES[page]).run()
        assert not at.exception
        texts = [
            e.value
            for kind in (
                "markdown",
                "caption",
                "success",
                "error",
                "subheader",
                "warning",
                "info",
                "title",
            )
            for e in at.get(kind)
        ]
        if page == "data":  # the label's name is on the page, escaped
            assert any("\\<img src" in t for t in texts)
        if page == "regions":  # plotly would render tags in a legend: escaped there too
            spec = at.get("plotly_chart")[0].proto.spec
            assert "<b>yes" not in spec and "&lt;b&gt;yes" in spec
        for t in texts:
            # every bracket and angle bracket that came from the file is escaped
            assert not re.search(r"(?<!\\)!\[|(?<!\\)\]\(|(?<!\\)<(img|b)\b", t), (page, t)
