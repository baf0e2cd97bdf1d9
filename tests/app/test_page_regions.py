"""The decision-regions page (app_pages/1_decision_regions.py): sliders, metrics,
the flagged table, datasets, the forest.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import ternary
from appkit import datasets, specs
from appkit.state import DEFAULTS
from tests.app.helpers import (
    PAGES,
    assert_clean,
    metrics,
    open_app,
    open_link,
    pct,
    shown,
    slider_keys,
    two_moons_split,
)


def test_every_control_explains_itself():
    at = open_app("regions")
    widgets = [*at.selectbox, *at.slider, *at.radio, *at.number_input]
    assert len(widgets) >= 9
    for w in widgets:
        assert w.help, f"{w.key} has no help text"


def test_method_sliders_appear_only_for_their_method():
    at = open_app("regions")
    own = {
        "quality_plateau": "epsilon",
        "gain_ratio": "alpha",
        "class_overlap": "q",
        "node_bootstrap": "n_bootstraps",
    }

    def controls():
        return slider_keys(at) | {s.key for s in at.select_slider}

    assert not controls() & set(own.values())  # margin has no parameter
    for method, key in own.items():
        at.selectbox(key="delta_method").set_value(method).run()
        assert_clean(at)
        assert controls() & set(own.values()) == {key}
        assert len(at.get("plotly_chart")) == 1
    # B starts at the library's "auto" and offers every B the table allows, up to the cap
    b = at.select_slider(key="n_bootstraps")
    assert b.value == ternary.PARAMETERS["n_bootstraps"].default == "auto"
    assert list(b.options) == ["auto", *map(str, range(2, 101))]
    b.set_value(30).run()
    assert_clean(at)
    assert at.session_state["n_bootstraps"] == 30


def test_metrics_change_with_the_delta_method():
    at = open_app("regions")
    margin = metrics(at)
    assert set(margin) == {
        "Decided accuracy",
        "Boundary-uncertain",
        "Accuracy, all test rows",
        "CART accuracy",
        "η (efficiency vs CART)",
    }
    at.selectbox(key="delta_method").set_value("class_overlap").run()
    assert_clean(at)
    overlap = metrics(at)
    assert overlap["Boundary-uncertain"] != margin["Boundary-uncertain"]
    # the CART baseline does not depend on the δ method
    assert overlap["CART accuracy"] == margin["CART accuracy"]
    # δ = 0 everywhere is CART itself: nothing flagged, decided accuracy = CART's, η undefined
    at.selectbox(key="delta_method").set_value("none").run()
    none = metrics(at)
    assert none["Boundary-uncertain"] == "0.0%"
    assert none["Decided accuracy"] == none["CART accuracy"] == none["Accuracy, all test rows"]
    assert none["η (efficiency vs CART)"] == "—"


def test_delta_scale_slider_rerenders_the_page():
    at = open_app("regions")
    at.slider(key="delta_scale").set_value(0.0).run()
    assert_clean(at)
    off = metrics(at)
    assert off["Boundary-uncertain"] == "0.0%"
    assert off["Decided accuracy"] == off["CART accuracy"]
    assert at.info  # nothing flagged: the table is replaced by a note
    at.slider(key="delta_scale").set_value(2.0).run()
    wide = metrics(at)
    at.slider(key="delta_scale").set_value(1.0).run()
    normal = metrics(at)
    # a wider zone around every split cannot flag fewer test rows
    assert pct(wide["Boundary-uncertain"]) >= pct(normal["Boundary-uncertain"]) > 0
    assert len(at.get("plotly_chart")) == 1


def test_flagged_table_lists_exactly_the_uncertain_test_rows():
    at = open_app("regions")
    m = metrics(at)
    table = at.dataframe[0].value
    n_test = int(np.ceil(0.3 * 500))
    assert len(table) == round(pct(m["Boundary-uncertain"]) * n_test)
    proba = table[[c for c in table.columns if c.startswith("P(")]].to_numpy()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-3)
    assert {"predicted", "true"} <= set(table.columns)
    assert any(b.label.startswith("Download flagged") for b in at.get("download_button"))


def test_grafting_toggle_and_its_hard_middle_explanation():
    at = open_app("regions")
    at.radio(key="graft").set_value("all").run()
    assert_clean(at)
    assert len(at.get("plotly_chart")) == 1
    at.selectbox(key="routing").set_value("hard_middle").run()
    assert_clean(at)
    assert at.radio(key="graft").disabled
    # the reason is the library's own refusal, the one fit raises
    refusal = specs.graft_problem("hard_middle")
    assert refusal is not None and "routing='hard_middle'" in refusal
    assert f"Grafting is off: {refusal}" in [shown(c) for c in at.sidebar.caption]
    assert tuple(at.radio(key="graft").options) == ternary.GRAFT_MODES


def test_changing_dataset_changes_features_and_summary():
    at = open_app("regions")
    at.selectbox(key="dataset").set_value("iris").run()
    assert_clean(at)
    fx = at.selectbox(key="feature_x")
    assert len(fx.options) == 4 and fx.value == fx.options[0]
    assert at.selectbox(key="feature_y").value == fx.options[1]
    assert len(at.get("plotly_chart")) == 1
    at.switch_page(PAGES["regions"]).run()  # stays put
    at.selectbox(key="feature_y").set_value(fx.options[3]).run()
    assert_clean(at)
    at.selectbox(key="dataset").set_value("wine").run()
    assert_clean(at)
    assert len(at.selectbox(key="feature_x").options) == 13


def test_every_builtin_dataset_draws_on_the_model_pages():
    at = open_app()
    for name in datasets.BUILTIN_NAMES:
        at.selectbox(key="dataset").set_value(name).run()
        assert_clean(at)
        for page, plotly in (("regions", 1), ("tree", 1), ("grafting", 3)):
            at.switch_page(PAGES[page]).run()
            assert_clean(at)
            assert len(at.get("plotly_chart")) == plotly, (name, page)


def test_same_feature_on_both_axes_is_corrected_with_a_warning():
    at = open_app("regions")
    at.selectbox(key="feature_y").set_value("x1").run()
    assert not at.exception and not at.error
    assert len(at.warning) == 1 and "'x2'" in shown(at.warning[0])
    assert len(at.get("plotly_chart")) == 1


def test_model_settings_survive_a_trip_through_other_pages():
    at = open_app("regions")
    at.selectbox(key="delta_method").set_value("quality_plateau").run()
    at.slider(key="epsilon").set_value(0.2).run()
    at.switch_page(PAGES["coverage"]).run()
    assert_clean(at)
    at.switch_page(PAGES["tree"]).run()
    assert_clean(at)
    assert at.selectbox(key="delta_method").value == "quality_plateau"
    assert at.slider(key="epsilon").value == pytest.approx(0.2)


def test_regions_metrics_and_panel_titles_come_from_one_scoring():
    at = open_app("regions")
    m = metrics(at)
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    titles = " | ".join(a["text"] for a in spec["layout"]["annotations"])
    assert f"decided accuracy {m['Decided accuracy']}" in titles
    assert f"boundary-uncertain {m['Boundary-uncertain']}" in titles
    assert f"CART — accuracy {m['CART accuracy']}" in titles


def test_forest_choice_travels_in_the_link_and_hatches_where_the_forest_flags():
    from appkit import model

    at = open_link({"model": "forest", "n_estimators": "5"}, "regions")
    assert_clean(at)
    assert at.radio(key="model").value == "forest"
    assert at.slider(key="n_estimators").value == 5
    m = metrics(at)
    # the page's numbers are the forest's own verdicts, refitted here independently
    params = {**model.model_params(DEFAULTS), "n_estimators": 5}
    del params["graft"]
    spec, sp = two_moons_split(params)
    forest = ternary.TernaryForestClassifier(**spec.params).fit(sp.X_train, sp.y_train)
    verdict = forest.predict_verdict(sp.X_test)
    assert pct(m["Boundary-uncertain"]) == pytest.approx(np.mean(verdict == 0), abs=5e-4)
    assert "No-zone forest accuracy" in m
    figure = json.loads(at.get("plotly_chart")[0].proto.spec)
    titles = " ".join(a["text"] for a in figure["layout"]["annotations"])
    assert "Ternary forest" in titles and "Forest without zones" in titles
    hatched = [t for t in figure["data"] if t.get("fillpattern")]
    assert hatched  # the forest's verdict-0 cells
    # the number of trees is a live control that travels in the address
    at.slider(key="n_estimators").set_value(8).run()
    assert_clean(at)
    assert at.query_params["n_estimators"] in ("8", ["8"])
    eight = ternary.TernaryForestClassifier(**{**spec.params, "n_estimators": 8})
    verdict = eight.fit(sp.X_train, sp.y_train).predict_verdict(sp.X_test)
    assert pct(metrics(at)["Boundary-uncertain"]) == pytest.approx(np.mean(verdict == 0), abs=5e-4)
    # back to a tree: the address forgets the forest
    at.radio(key="model").set_value("tree").run()
    assert_clean(at)
    assert "model" not in at.query_params and "n_estimators" not in at.query_params


@pytest.mark.parametrize("page", ["regions", "tree"])
def test_forest_with_hard_middle_routing_is_a_plain_message(page):
    at = open_link({"model": "forest", "routing": "hard_middle"}, page)
    assert_clean(at)
    # the library's refusal (what the forest's fit raises), then what to do in the app
    with pytest.raises(ValueError) as refusal:
        ternary.validate_params({"routing": "hard_middle"}, forest=True)
    assert at.info[0].value.startswith(str(refusal.value))
    assert "set Model to tree" in at.info[0].value
    assert not at.get("plotly_chart") and not at.get("graphviz_chart")
