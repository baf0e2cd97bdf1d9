"""Column and class names from an upload are echoed capped (`appkit.guard.capped`): in the
pickers and in the figures, however long the file made them."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from appkit.guard import WORD_LIMIT
from tests.app.helpers import PAGES, assert_clean, open_app

LONG = "w" * 5_000


@pytest.mark.skipif(not hasattr(AppTest, "file_uploader"), reason="AppTest cannot upload files")
def test_a_5000_character_column_name_is_shown_capped_in_pickers_and_figures():
    # the long-named column is the one that predicts the label: the tree splits on it
    csv = f"{LONG},noise,label\n" + "".join(
        f"{150 + i % 40},{i % 17},{'tall' if i % 40 > 18 else 'short'}\n" for i in range(80)
    )
    at = open_app("data")
    at.file_uploader(key="upload").set_value(("long.csv", csv.encode(), "text/csv")).run()
    assert_clean(at)
    at.switch_page(PAGES["regions"]).run()
    assert_clean(at)
    picker = at.sidebar.selectbox(key="feature_x")
    assert picker.value == LONG  # the setting is the real name
    shown = picker.options  # what the picker shows
    assert any(o.startswith("w" * (WORD_LIMIT - 1) + "…") for o in shown), shown
    assert max(len(o) for o in shown) <= WORD_LIMIT
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    axes = [v for k, v in spec["layout"].items() if k[:5] in ("xaxis", "yaxis")]
    titles = [a.get("title", {}).get("text", "") for a in axes]
    assert LONG not in json.dumps(spec)  # nowhere in the figure at full length
    assert any(t.startswith("w" * 50) and len(t) <= WORD_LIMIT for t in titles), titles
    # the tree diagram and its node picker too (the DOT download keeps the name whole)
    at.switch_page(PAGES["tree"]).run()
    assert_clean(at)
    drawn = " ".join(c.proto.spec for c in at.get("graphviz_chart"))
    assert LONG not in drawn and "w" * (WORD_LIMIT - 1) in drawn
    assert max(len(o) for o in at.selectbox(key="inspect_node").options) < 2 * WORD_LIMIT
