"""appkit.links: the whole setting in the address, hidden controls, presets."""

from __future__ import annotations

import pytest

from appkit import datasets, links
from tests.app.helpers import assert_clean, metrics, open_app, open_link, pct, shown, slider_keys


def test_a_link_restores_dataset_and_method():
    at = open_link({"dataset": "blobs", "delta_method": "quality_plateau"}, "regions")
    assert_clean(at)
    assert at.selectbox(key="dataset").value == "blobs"
    assert at.selectbox(key="delta_method").value == "quality_plateau"
    assert "epsilon" in slider_keys(at)  # the method's own control came with it
    assert len(at.get("plotly_chart")) == 1
    # the link's generator defaults are blobs', not two moons'
    assert at.slider(key="noise").value == datasets.generator_defaults("blobs")["noise"]


def test_the_address_follows_the_widgets():
    at = open_app("regions")
    assert dict(at.query_params) == {}  # defaults only: a short address
    at.selectbox(key="dataset").set_value("circles").run()
    assert at.query_params["dataset"] in ("circles", ["circles"])
    at.slider(key="delta_scale").set_value(2.0).run()
    params = {k: at.query_params[k] for k in at.query_params}
    flat = {k: v[0] if isinstance(v, list) else v for k, v in params.items()}
    assert flat == {"dataset": "circles", "delta_scale": "2"}
    # that address, opened in a new session, is the same setting
    again = open_link(flat, "regions")
    assert_clean(again)
    assert again.slider(key="delta_scale").value == 2.0
    assert metrics(again) == metrics(at)


def test_a_bad_link_is_ignored_with_a_note_and_numbers_are_clipped():
    at = open_link({"delta_method": "magic", "max_depth": "99", "noise": "nan", "dataset": "x"})
    assert not at.exception and not at.error
    notes = " ".join(shown(t) for t in at.toast)
    assert "delta_method='magic'" in notes and "dataset='x'" in notes and "noise='nan'" in notes
    assert at.session_state["delta_method"] == "margin"
    assert at.session_state["max_depth"] == 12  # the slider's largest value


def test_hide_removes_controls_but_keeps_their_linked_values():
    at = open_link(
        {"delta_method": "class_overlap", "hide": "delta_method,routing,data"}, "regions"
    )
    assert_clean(at)
    keys = {w.key for w in [*at.selectbox, *at.slider]}
    assert not keys & {"delta_method", "routing", "dataset", "n_samples"}
    assert "q" in keys and "delta_scale" in keys  # what is left to play with
    assert at.session_state["delta_method"] == "class_overlap"
    assert pct(metrics(at)["Boundary-uncertain"]) > 0


@pytest.mark.parametrize("preset", range(len(links.PRESETS)))
def test_presets_open_their_page_with_the_papers_setting(preset):
    label, page, params = links.PRESETS[preset]
    at = open_link(params, page)
    assert_clean(at)
    for key, value in params.items():
        assert str(at.session_state[key]) == value, (label, key)
    home = open_app()
    assert label in [p.proto.label for p in home.get("page_link")]


def test_a_link_carries_b_as_the_librarys_auto_or_a_clipped_integer():
    base = {"delta_method": "node_bootstrap"}
    at = open_link({**base, "n_bootstraps": "50"}, "regions")
    assert_clean(at)
    assert at.select_slider(key="n_bootstraps").value == 50
    assert at.query_params["n_bootstraps"] in ("50", ["50"])
    assert open_link({**base, "n_bootstraps": "999"}).session_state["n_bootstraps"] == 100
    auto = open_link({**base, "n_bootstraps": "auto"}, "regions")
    assert_clean(auto)
    assert auto.session_state["n_bootstraps"] == "auto"
    assert "n_bootstraps" not in auto.query_params  # the default: a short address
    bad = open_link({**base, "n_bootstraps": "many"})
    assert "n_bootstraps='many'" in " ".join(shown(t) for t in bad.toast)
    assert bad.session_state["n_bootstraps"] == "auto"
