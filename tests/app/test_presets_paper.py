"""The Home presets reproduce the papers' figures (issue 21), driven with AppTest.

Fig. 1 is the author's setting (make_moons(250, 0.28, seed 42), standardised,
quality plateau ε = 0.15, depth 3, fitted and scored on every row); Figs. 3-4 are
fitted on all 569 rows of breast cancer; Fig. 2 is drawn from the published
means without a cross-validation run.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from appkit import links, paper
from tests.app.helpers import assert_clean, metrics, open_link

ROOT = Path(__file__).resolve().parents[2]


def _preset(prefix: str):
    return next(p for p in links.PRESETS if p[0].startswith(prefix))


def test_every_preset_says_where_its_numbers_come_from():
    assert set(links.PRESET_SOURCES) == {label for label, _, _ in links.PRESETS}
    assert all(len(text) > 40 for text in links.PRESET_SOURCES.values())


def test_fig1_preset_shows_the_papers_46_4_percent_and_0_948():
    label, page, params = _preset("Paper Fig. 1")
    at = open_link(params, page)
    assert_clean(at)
    cards = metrics(at)
    assert cards["Boundary-uncertain"] == "46.4%"
    assert cards["Decided accuracy"] == "94.8%"
    assert any("Decided accuracy: 0.948" in c.value for c in at.caption)
    assert any("all 250 rows" in c.value for c in at.caption)
    # the generator's settings are ordinary settings, and travel back into the address
    assert at.session_state["standardize"] is True and at.session_state["test_size"] == 0.0
    assert at.query_params["standardize"] in ("True", ["True"])
    assert at.query_params["test_size"] in ("0", ["0"])


@pytest.mark.parametrize("prefix", ["Paper Fig. 3", "Paper Fig. 4"])
def test_fig3_and_fig4_presets_fit_on_all_569_rows(prefix):
    label, page, params = _preset(prefix)
    at = open_link(params, page)
    assert_clean(at)
    root = at.selectbox(key="inspect_node").options[0]
    assert "worst radius ≤ 16.795" in root and "δ = 0.175" in root and "n = 569" in root
    children = " ".join(at.selectbox(key="inspect_node").options[1:])
    assert "worst concave points ≤ 0.1358" in children and "δ = 0.0021" in children
    assert any("fitted on 569 training rows" in c.value for c in at.caption)


def test_fig2_preset_draws_the_papers_means_without_running_the_cv():
    label, page, params = _preset("Paper Fig. 2")
    at = open_link(params, page)
    assert_clean(at)
    charts = at.get("plotly_chart")
    assert len(charts) == 1  # the paper's figure only: no cross-validation was run
    assert not at.get("progress")
    names = [t.get("name", "") for t in json.loads(charts[0].proto.spec)["data"]]
    assert "ours: reproduction run, 50 CC18 sets" in names  # hollow: our means
    assert "margin / probabilistic" in names and "CART (δ = 0)" in names  # the paper's
    table = at.table[0].value
    assert len(table) == 11


def _our_table() -> pd.DataFrame:
    text = (ROOT / "benchmarks" / "results" / "reproduce_paper.md").read_text(encoding="utf-8")
    section = text.split("## OpenML-CC18 summary (Table 1)")[1].split("\n## ")[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line]
    header = [c.strip() for c in rows[0].strip("|").split("|")]
    body = [[c.strip() for c in r.strip("|").split("|")] for r in rows[1:]]
    return pd.DataFrame(body, columns=header)


def test_our_cc18_means_are_the_stored_reproduction_runs():
    names = {
        "Gain-Ratio": "gain_ratio",
        "Class-Overlap": "class_overlap",
        "Node-Bootstrap": "node_bootstrap",
        "Margin": "margin",
        "Quality-Plateau": "quality_plateau",
    }
    table = _our_table()
    ours = paper.OUR_CC18_MEANS.set_index(["delta_method", "routing"])
    assert len(table) == len(ours) == 11
    for row in table.itertuples(index=False):
        name = row[0]
        if name.startswith("CART"):
            key = ("none", "cart")
        else:
            method, routing = re.match(r"(\S+) \((prob|h\.m)\.\)", name).groups()
            key = (names[method], "probabilistic" if routing == "prob" else "hard_middle")
        assert ours.loc[key, "decided_accuracy"] == pytest.approx(float(row[3]))
        assert ours.loc[key, "uncertain_rate"] == pytest.approx(float(row[6]) / 100)


def test_copy_link_holds_the_setting_presentation_and_hidden_controls():
    at = open_link({"delta_method": "gain_ratio", "present": "1", "hide": "model"}, "regions")
    assert_clean(at)
    link = next(c.value for c in at.sidebar.code)
    query = link.split("?", 1)[1]
    assert "delta_method=gain_ratio" in query and "present=1" in query and "hide=model" in query


def test_fig2_captions_describe_what_is_drawn():
    label, page, params = _preset("Paper Fig. 2")
    at = open_link(params, page)
    assert_clean(at)
    captions = " ".join(c.value for c in at.caption)
    names = [t.get("name", "") for t in json.loads(at.get("plotly_chart")[0].proto.spec)["data"]]
    # no Chow curve in this figure, and no caption that says there is one
    assert not [n for n in names if "Chow" in n]
    assert "The solid curve is CART flagging" not in captions
    assert "no Chow curve is drawn" in captions
    assert any(n.startswith("η = ") for n in names) and "dotted lines are efficiencies" in captions
    assert paper.ETA_NOTE in captions  # the paper's quoted η beside ours, with why they differ
    assert "eta paper text" in at.table[0].value.columns
