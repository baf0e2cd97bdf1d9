"""The accuracy-coverage page (app_pages/3_accuracy_coverage.py): the CV run, the
sweep, the estimate that gates a slow run, clicks on the curves.
"""

from __future__ import annotations

import json

import numpy as np

import ternary
from appkit import coverage, datasets, vocabulary
from appkit.model import FitSpec
from appkit.state import DEFAULTS
from ternary.experiment import DEFAULT_COMBOS, combo_label
from tests.app.helpers import PAGES, assert_clean, open_app, open_link, shown


def test_coverage_page_draws_on_arrival_and_runs_a_sweep():
    at = open_app("coverage")
    # two moons at its default size is quick: no button, the figure is there
    assert not [b for b in at.button if b.key == "run_cv"]
    assert len(at.get("plotly_chart")) == 2  # accuracy–coverage and risk–coverage
    at.slider(key="cv_folds").set_value(3).run()
    assert_clean(at)
    summary = at.dataframe[0].value
    # readable headers on screen (the CSV download keeps the machine names)
    assert not [c for c in summary.columns if "_" in c], list(summary.columns)
    # the paper's 11 combinations: 5 δ methods × 2 routings, plus CART
    assert sorted(summary["combination"]) == sorted(combo_label(c) for c in DEFAULT_COMBOS)
    assert len(at.get("download_button")) == 2
    # the AURC table: CART's Chow and Laplace rankings and every zone method, E-AURC ≤ AURC
    aurc = at.dataframe[2].value  # [1]: W/T/L over the folds
    assert set(aurc["method"]) == {
        "CART (Chow's rule)",
        "CART (Laplace leaves + tie-break)",
        *vocabulary.ZONE_METHODS,
    }
    assert (aurc["E-AURC"] <= aurc["AURC"] + 1e-12).all()
    assert aurc["AURC"].is_monotonic_increasing
    star = json.loads(at.get("plotly_chart")[1].proto.spec)["data"][-1]
    assert star["marker"]["symbol"] == "star" and "δ scale = bayes (Bayes error ≈" in star["name"]

    at.button(key="run_sweep").click().run()
    assert_clean(at)
    assert len(at.get("plotly_chart")) == 3
    sweep = at.dataframe[3].value
    np.testing.assert_allclose(sorted(sweep["delta scale"]), np.linspace(0.0, 2.0, 5))
    # δ scale 0 turns the zones off: nothing is flagged
    assert sweep.loc[sweep["delta scale"] == 0.0, "uncertain share"].item() == 0.0


def test_slow_data_waits_for_a_button_that_states_the_estimate(monkeypatch):
    monkeypatch.setattr(coverage, "AUTO_RUN_SECONDS", 0.0)
    at = open_app()
    at.session_state["cv_seed"] = 4321  # a setting no other test has run
    at.switch_page(PAGES["coverage"]).run()
    assert_clean(at)
    assert len(at.get("plotly_chart")) == 0
    button = at.button(key="run_cv")
    ds, _ = datasets.load_builtin("two moons", n_samples=500, noise=0.3, random_state=0)
    estimate = coverage.estimate_seconds(ds.n_samples, ds.n_features, 5)
    assert f"about {estimate:.0f} s" in button.label
    at.slider(key="cv_folds").set_value(4).run()
    at.button(key="run_cv").click().run()
    assert_clean(at)
    assert len(at.get("plotly_chart")) == 2


def test_sweep_parameters_follow_the_method():
    at = open_app("coverage")
    assert at.selectbox(key="sweep_param").options == ["δ scale"]  # margin has no own parameter
    at.selectbox(key="sweep_method").set_value("quality_plateau").run()
    assert_clean(at)
    assert at.selectbox(key="sweep_param").options == ["ε (quality plateau)", "δ scale"]


def test_coverage_page_explains_classes_too_small_for_the_folds():
    rare = "".join(
        f"{i},{(i * 5) % 11},{'rare' if i < 3 else ('a' if i % 2 else 'b')}\n" for i in range(60)
    )
    ds, error = datasets.load_user_data(("x,z,label\n" + rare).encode(), "rare.csv")
    assert error is None
    at = open_app()
    at.session_state["user_dataset"] = ds
    at.session_state["user_dataset_key"] = datasets.dataset_key(ds)
    at.run()
    at.selectbox(key="dataset").set_value(vocabulary.USER_PREFIX + ds.name).run()
    at.switch_page(PAGES["coverage"]).run()
    assert not at.exception
    assert len(at.error) == 1
    assert "'rare' (3 rows)" in shown(at.error[0]) and "Folds to 3" in shown(at.error[0])
    assert not at.button  # nothing to run until the settings allow it
    at.slider(key="cv_folds").set_value(3).run()
    assert_clean(at)
    assert len(at.get("plotly_chart")) == 2  # drawn as soon as the folds fit


def test_coverage_page_draws_the_forest_curve_and_counts_it_in_the_estimate():
    at = open_link({"model": "forest", "n_estimators": "5"}, "coverage")
    assert_clean(at)
    assert at.radio(key="model").value == "forest"
    table = at.dataframe[2].value
    assert "forest (5 trees, margin)" in set(table["method"])
    spec = json.loads(at.get("plotly_chart")[1].proto.spec)
    assert any(str(t.get("name", "")).startswith("forest (5 trees") for t in spec["data"])
    single = coverage.estimate_seconds(500, 2, 5)
    assert coverage.estimate_seconds(500, 2, 5, n_trees=25) > single
    assert coverage.estimate_seconds(500, 2, 5, n_trees=25) <= coverage.AUTO_RUN_SECONDS


def test_a_clicked_risk_coverage_point_sets_the_delta_scale_that_flags_its_share():
    from appkit import model

    at = open_app("coverage")
    point = {"customdata": ["risk-coverage", "margin", 0.2]}
    at.session_state["risk_chart"] = {
        "selection": {"points": [point], "point_indices": [], "box": [], "lasso": []}
    }
    at.run()
    assert_clean(at)
    scale = at.session_state["delta_scale"]
    assert at.session_state["delta_method"] == "margin" and scale > 0
    assert f"δ scale = {scale:g}" in at.success[0].value
    # a margin tree refitted at that scale on the page's split flags the clicked share
    ds, key = datasets.load_builtin("two moons", n_samples=500, noise=0.3, random_state=0)
    params = {"delta_method": "margin", "max_depth": 4, "random_state": 42}
    spec = FitSpec(key, None, DEFAULTS["test_size"], 42, {**params, "delta_scale": scale})
    sp = model.split_data(ds, spec)
    clf = ternary.TernaryTreeClassifier(**spec.params).fit(sp.X_train, sp.y_train)
    flagged = int(np.sum(clf.predict_verdict(sp.X_test) == 0))
    assert flagged == round(0.2 * len(sp.y_test))
    # CART's curve has no zone to scale: a note, the setting unchanged
    point["customdata"] = ["risk-coverage", "none", 0.3]
    at.session_state["risk_chart"] = {
        "selection": {"points": [point], "point_indices": [], "box": [], "lasso": []}
    }
    at.run()
    assert_clean(at)
    assert "no zone to widen" in at.info[0].value
    assert at.session_state["delta_scale"] == scale
