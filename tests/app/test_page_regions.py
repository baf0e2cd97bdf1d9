"""The Streamlit app, driven headlessly with streamlit.testing's AppTest.

Every page is opened with its defaults, then the interactions a user makes are
replayed (δ method, sliders, grafting, dataset, node picker, run buttons,
upload) and the page is checked for the elements and values they must produce.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_
from streamlit.testing.v1 import AppTest

import ternary
import viz
from appkit import coverage, datasets, links, paper, vocabulary
from appkit.model import CVSpec, FitSpec
from appkit.state import DEFAULTS
from ternary import experiment
from ternary.data import MAX_FILE_BYTES
from ternary.experiment import DEFAULT_COMBOS, combo_label

ROOT = Path(__file__).resolve().parents[2]

APP = str(ROOT / "app.py")
PAGES = {
    "regions": "app_pages/1_decision_regions.py",
    "tree": "app_pages/2_tree_diagram.py",
    "coverage": "app_pages/3_accuracy_coverage.py",
    "grafting": "app_pages/4_grafting.py",
    "data": "app_pages/5_your_data.py",
}


def open_app(page: str | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert_clean(at)
    if page is not None:
        at.switch_page(PAGES[page]).run()
        assert_clean(at)
    return at


def assert_clean(at: AppTest) -> None:
    """No uncaught exception, no error box (page_guard turns exceptions into those), and
    no warning (Streamlit warns there when a widget's state is set twice)."""
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert not at.warning, [w.value for w in at.warning]


def shown(element) -> str:
    """An element's markdown as a reader sees it: backslash escapes resolved."""
    return re.sub(r"\\(.)", r"\1", element.value)


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def slider_keys(at: AppTest) -> set[str]:
    return {s.key for s in at.slider}


def pct(text: str) -> float:
    return float(text.rstrip("%")) / 100


# ----------------------------------------------------------------------------- home
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


def test_every_control_explains_itself():
    at = open_app("regions")
    widgets = [*at.selectbox, *at.slider, *at.radio, *at.number_input]
    assert len(widgets) >= 9
    for w in widgets:
        assert w.help, f"{w.key} has no help text"


# ----------------------------------------------------------------------------- every page
@pytest.mark.parametrize(
    "page, plotly, graphviz",
    [("regions", 1, 0), ("tree", 1, 1), ("coverage", 2, 0), ("grafting", 2, 1), ("data", 0, 0)],
)
def test_page_renders_with_defaults(page, plotly, graphviz):
    at = open_app(page)
    assert len(at.get("plotly_chart")) == plotly
    assert len(at.get("graphviz_chart")) == graphviz
    # the shared dataset picker is on every page
    assert at.sidebar.selectbox(key="dataset").value == "two moons"


# ----------------------------------------------------------------------------- decision regions
def test_method_sliders_appear_only_for_their_method():
    at = open_app("regions")
    own = {
        "quality_plateau": "epsilon",
        "gain_ratio": "alpha",
        "class_overlap": "q",
        "node_bootstrap": "n_bootstraps",
    }
    assert not slider_keys(at) & set(own.values())  # margin has no parameter
    for method, key in own.items():
        at.selectbox(key="delta_method").set_value(method).run()
        assert_clean(at)
        assert slider_keys(at) & set(own.values()) == {key}
        assert len(at.get("plotly_chart")) == 1


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
    assert any("hard-middle" in c.value for c in at.sidebar.caption)


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
        for page, plotly in (("regions", 1), ("tree", 1), ("grafting", 2)):
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


# ----------------------------------------------------------------------------- tree diagram
def test_tree_page_node_picker_and_inspector():
    at = open_app("tree")
    picker = at.selectbox(key="inspect_node")
    nodes = list(picker.options)
    assert len(nodes) >= 2 and nodes[0].startswith("node 0:") and "≤" in nodes[0]
    dot = at.get("graphviz_chart")[0].proto.spec
    assert dot.startswith("digraph")
    second = int(nodes[1].split(":")[0].removeprefix("node "))
    picker.select_index(1).run()
    assert_clean(at)
    assert at.selectbox(key="inspect_node").value == second
    assert at.get("graphviz_chart")[0].proto.spec != dot  # the outline moved
    for method in ("quality_plateau", "class_overlap", "node_bootstrap"):
        at.selectbox(key="inspect_method").set_value(method).run()
        assert_clean(at)
        assert len(at.get("plotly_chart")) == 1
    # the δ table lists the five methods
    assert len(at.dataframe[0].value) == 5
    labels = [b.label for b in at.get("download_button")]
    assert "Download DOT" in labels
    if shutil.which("dot"):
        assert "Download SVG" in labels
    else:
        assert any("apt-get install graphviz" in i.value for i in at.info)


def test_tree_page_can_fit_on_all_features():
    at = open_app()
    at.selectbox(key="dataset").set_value("breast cancer").run()
    at.switch_page(PAGES["tree"]).run()
    assert_clean(at)
    assert at.radio(key="tree_features").value == "all features"
    caption = next(c.value for c in at.caption if "training rows" in c.value)
    assert "398 training rows" in caption  # 569 rows, 30 % held out
    at.radio(key="tree_features").set_value("the two plotted features").run()
    assert_clean(at)
    assert at.selectbox(key="feature_x").value == "mean radius"


# ----------------------------------------------------------------------------- accuracy-coverage
def test_coverage_page_draws_on_arrival_and_runs_a_sweep():
    at = open_app("coverage")
    # two moons at its default size is quick: no button, the figure is there
    assert not [b for b in at.button if b.key == "run_cv"]
    assert len(at.get("plotly_chart")) == 2  # accuracy–coverage and risk–coverage
    at.slider(key="cv_folds").set_value(3).run()
    assert_clean(at)
    summary = at.dataframe[0].value
    # the paper's 11 combinations: 5 δ methods × 2 routings, plus CART
    assert sorted(summary["combo"]) == sorted(combo_label(c) for c in DEFAULT_COMBOS)
    assert len(at.get("download_button")) == 2
    # the AURC table: CART's Chow ranking and every zone method, E-AURC ≤ AURC
    aurc = at.dataframe[1].value
    assert set(aurc["method"]) == {"CART (Chow's rule)", *vocabulary.ZONE_METHODS}
    assert (aurc["E-AURC"] <= aurc["AURC"] + 1e-12).all()
    assert aurc["AURC"].is_monotonic_increasing
    star = json.loads(at.get("plotly_chart")[1].proto.spec)["data"][-1]
    assert star["marker"]["symbol"] == "star" and "δ scale = bayes (Bayes error ≈" in star["name"]

    at.button(key="run_sweep").click().run()
    assert_clean(at)
    assert len(at.get("plotly_chart")) == 3
    sweep = at.dataframe[2].value
    np.testing.assert_allclose(sorted(sweep["delta_scale"]), np.linspace(0.0, 2.0, 5))
    # δ scale 0 turns the zones off: nothing is flagged
    assert sweep.loc[sweep["delta_scale"] == 0.0, "uncertain_rate"].item() == 0.0


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


def test_estimate_grows_with_the_data_and_covers_the_builtins_at_their_default_size():
    small = coverage.estimate_seconds(500, 2, 5)
    assert coverage.estimate_seconds(5000, 2, 5) > small
    assert coverage.estimate_seconds(500, 60, 5) > small
    assert coverage.estimate_seconds(500, 2, 10) > small
    for name in datasets.BUILTIN_NAMES:
        kwargs = datasets.builtin_kwargs(name, {**DEFAULTS, **datasets.generator_defaults(name)})
        ds, _ = datasets.load_builtin(name, **kwargs)
        assert coverage.estimate_seconds(ds.n_samples, ds.n_features, 5) <= (
            coverage.AUTO_RUN_SECONDS
        ), name


def test_sweep_parameters_follow_the_method():
    at = open_app("coverage")
    assert at.selectbox(key="sweep_param").options == ["δ scale"]  # margin has no own parameter
    at.selectbox(key="sweep_method").set_value("quality_plateau").run()
    assert_clean(at)
    assert at.selectbox(key="sweep_param").options == ["ε (quality plateau)", "δ scale"]


# ----------------------------------------------------------------------------- grafting
def test_grafting_page_compares_cart_and_grafted_tree():
    at = open_app("grafting")
    table = at.dataframe[0].value
    assert list(table["model"]) == ["CART", "CART + grafting (all)"]
    cart, grafted = table.iloc[0], table.iloc[1]
    assert cart["grafted nodes"] == 0
    # grafting only adds structure
    assert grafted["nodes"] >= cart["nodes"] and grafted["leaves"] >= cart["leaves"]
    # the rows whose prediction the grafts changed, with both predictions
    changed = at.dataframe[1].value
    assert (changed["CART"] != changed["grafted"]).all()
    # only changed rows can move the test accuracy, and they account for all of it
    gained = int((changed["grafted"] == changed["true"]).sum())
    lost = int((changed["CART"] == changed["true"]).sum())
    assert gained - lost == round((grafted["test accuracy"] - cart["test accuracy"]) * 150)
    at.radio(key="graft_mode").set_value("one").run()
    assert_clean(at)
    assert at.dataframe[0].value["model"].iloc[1] == "CART + grafting (one)"
    at.slider(key="ccp_alpha").set_value(0.01).run()
    assert_clean(at)
    assert len(at.get("plotly_chart")) == 2 and len(at.get("graphviz_chart")) == 1
    at.radio(key="graft_features").set_value("all features").run()
    assert_clean(at)


# ----------------------------------------------------------------------------- your data
GOOD_CSV = (
    "height,weight,colour,label\n"
    + "".join(
        f"{150 + i % 40},{50 + (i * 7) % 30},{'red' if i % 3 else 'blue'},"
        f"{'tall' if i % 40 > 18 else 'short'}\n"
        for i in range(80)
    )
).encode()


def test_load_user_data_accepts_a_good_csv_and_leaves_the_bytes_alone():
    data = bytes(GOOD_CSV)
    ds, error = datasets.load_user_data(data, "people.csv")
    assert error is None
    assert ds.n_samples == 80 and ds.n_classes == 2
    assert sorted(ds.class_names) == ["short", "tall"]
    assert data == GOOD_CSV
    ds, error = datasets.load_user_data(data, "people.csv", target="colour")
    assert error is None and sorted(ds.class_names) == ["blue", "red"]


@pytest.mark.parametrize(
    "data, name, words",
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "photo.csv", "PNG"),
        (b"a,b\n1,2\n3\n4,5,6,7\n", "ragged.csv", ""),
        (b"", "empty.csv", ""),
        (b"a,b,c\n1,2,x\n", "data.xlsx", "xlsx"),
    ],
)
def test_load_user_data_turns_bad_files_into_messages(data, name, words):
    ds, error = datasets.load_user_data(data, name)
    assert ds is None
    assert isinstance(error, str) and len(error) > 20
    assert "Traceback" not in error
    assert words in error


SEMICOLON_CSV = (
    '"height, cm";"weight, kg";"shoe size, EU";label\n'
    + "".join(
        f"{160 + i % 35}.{i % 10};{55 + (i * 7) % 40}.3;{38 + i % 9}.1;"
        f"{'tall' if i % 35 > 17 else 'short'}\n"
        for i in range(60)
    )
).encode()


def test_upload_columns_read_headers_for_the_label_picker():
    assert datasets.upload_columns(b"a;b;c\n1;2;3\n", "x.csv") == ["a", "b", "c"]
    assert datasets.upload_columns(b"a\tb\n1\t2\n", "x.tsv") == ["a", "b"]
    arff = b"@relation r\n@attribute 'x 1' numeric\n@attribute cls {a,b}\n@data\n1,a\n"
    assert datasets.upload_columns(arff, "r.arff") == ["x 1", "cls"]
    assert datasets.upload_columns(b"\xff\xfe\x00", "x.csv") == []
    # quoted names holding the other delimiter: the loader's own header reader decides
    names = datasets.upload_columns(SEMICOLON_CSV, "body.csv")
    assert names == ["height, cm", "weight, kg", "shoe size, EU", "label"]
    ds, error = datasets.load_user_data(SEMICOLON_CSV, "body.csv", target=names[-1])
    assert error is None and sorted(ds.class_names) == ["short", "tall"]


@pytest.mark.skipif(not hasattr(AppTest, "file_uploader"), reason="AppTest cannot upload files")
def test_upload_drives_every_page_and_bad_files_show_an_error():
    at = open_app("data")
    at.file_uploader(key="upload").set_value(("people.csv", GOOD_CSV, "text/csv")).run()
    assert_clean(at)
    assert at.session_state["dataset"] == vocabulary.USER_PREFIX + "people"
    assert any("80 rows" in s.value for s in at.success)
    assert at.selectbox(key="upload_target").value == "label"  # default: the last column
    at.selectbox(key="upload_target").set_value("colour").run()
    assert_clean(at)
    assert sorted(at.session_state["user_dataset"].class_names) == ["blue", "red"]

    at.switch_page(PAGES["regions"]).run()
    assert_clean(at)
    assert len(at.get("plotly_chart")) == 1
    assert at.sidebar.selectbox(key="dataset").value == vocabulary.USER_PREFIX + "people"

    at.switch_page(PAGES["data"]).run()
    at.file_uploader(key="upload").set_value(
        ("photo.csv", b"\x89PNG\r\n\x1a\n\x00\x00", "text/csv")
    ).run()
    assert not at.exception
    assert len(at.error) == 1 and "PNG" in at.error[0].value
    # the last good dataset stays in use
    assert at.session_state["dataset"] == vocabulary.USER_PREFIX + "people"


def test_a_one_feature_dataset_gets_a_readable_error_not_a_traceback():
    at = open_app()
    ds, error = datasets.load_user_data(
        b"x,label\n" + b"".join(f"{i},{i % 2}\n".encode() for i in range(40)), "one.csv"
    )
    assert error is None
    at.session_state["user_dataset"] = ds
    at.session_state["user_dataset_key"] = datasets.dataset_key(ds)
    at.run()  # the sidebar now offers it
    at.selectbox(key="dataset").set_value(vocabulary.USER_PREFIX + ds.name).run()
    assert_clean(at)
    assert metrics(at)["Features"] == "1"
    at.switch_page(PAGES["regions"]).run()
    assert not at.exception
    assert len(at.error) == 1 and "needs two" in at.error[0].value


# ----------------------------------------------------------------------------- error handling
def test_page_guard_shows_a_message_and_details_instead_of_a_traceback():
    script = """
from appkit.guard import page_guard
from ternary.data import DataError
with page_guard("testing"):
    raise DataError("Your file has no label column.")
with page_guard("testing"):
    raise RuntimeError("boom")
"""
    at = AppTest.from_string(script).run()
    assert not at.exception
    assert shown(at.error[0]) == "Your file has no label column."
    assert "boom" in shown(at.error[1]) and "testing" in shown(at.error[1])
    assert len(at.expander) == 1  # the details, folded away


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


def test_openml_fetch_flow_without_network(monkeypatch):
    from ternary import data as tdata

    asked = []

    def fake_openml(key, *, cache_dir=None, target=None):
        asked.append((key, target))
        if key == 999999:
            raise tdata.DataError("OpenML has no dataset 999999.")
        ds = tdata.load_builtin("iris")
        ds.name = "iris (OpenML 61)"
        return ds

    monkeypatch.setattr(tdata, "load_openml", fake_openml)
    assert datasets.load_openml_data("  ") == (
        None,
        "Type an OpenML dataset id (e.g. 61) or name (e.g. iris).",
    )
    at = open_app("data")
    at.radio(key="data_source").set_value("OpenML").run()
    at.text_input(key="openml_query").input("999999").run()
    at.button[0].click().run()
    assert not at.exception
    assert [shown(e) for e in at.error] == ["OpenML has no dataset 999999."]
    at.text_input(key="openml_query").input("61").run()
    at.button[0].click().run()
    assert_clean(at)
    assert asked == [(999999, None), (61, None)]  # ids are passed as integers
    assert at.session_state["dataset"] == vocabulary.USER_PREFIX + "iris (OpenML 61)"


def test_openml_box_takes_a_superscript_digit_as_a_name(monkeypatch, tmp_path):
    # '²'.isdigit() is True but int('²') raises: the box must look it up as a name and
    # show the loader's message, not a raw ValueError. Only OpenML's own fetch is
    # stubbed, so the app's and the loader's handling of the text both run.
    import openml

    asked = []

    def no_such_dataset(key, **kwargs):
        asked.append(key)
        raise RuntimeError(f"No active datasets exist with name {key}")

    monkeypatch.setenv("TERNARY_OPENML_CACHE", str(tmp_path))
    monkeypatch.setattr(openml.datasets, "get_dataset", no_such_dataset)
    at = open_app("data")
    at.radio(key="data_source").set_value("OpenML").run()
    at.text_input(key="openml_query").input("²").run()
    at.button[0].click().run()
    assert not at.exception
    assert asked == ["²"]  # passed on as text, never through int()
    assert [shown(e) for e in at.error] == [
        "OpenML has no dataset '²'. Check the id or name on openml.org."
    ]


def test_cv_results_are_cached_and_handed_out_as_copies():
    from ternary import data as tdata

    ds = tdata.load_builtin("iris")
    spec = CVSpec(datasets.dataset_key(ds) + ("test-cache",), 3, 2, 0)
    calls = []
    first = coverage.cv_results(ds, spec, progress=lambda d, t, m="": calls.append(d))
    assert calls[-1] == 11 * 3  # 11 combinations × 3 folds, reported as they finish
    first.loc[:, "accuracy"] = -1.0  # a page scribbling on its copy...
    calls.clear()
    again = coverage.cv_results(ds, spec, progress=lambda d, t, m="": calls.append(d))
    assert calls == []  # ...served from the cache, no refit
    assert (again["accuracy"] >= 0).all()  # ...does not reach the cache
    # it is run_cv's own table, nothing recomputed on the side
    direct = experiment.run_cv(ds.X, ds.y, cv=3, max_depth=2, seed=0)
    pd.testing.assert_frame_equal(
        again.drop(columns="fit_seconds"), direct.drop(columns="fit_seconds")
    )


# ----------------------------------------------------------------------------- one source
def test_paper_table5_is_the_shared_csv_and_eta_is_the_papers(shared_paper_tables):
    table = shared_paper_tables / "smits_table5_cc18_means.csv"
    pd.testing.assert_frame_equal(paper.paper_cc18_means(), pd.read_csv(table))
    papers = shared_paper_tables.parent / "papers"
    text = next(papers.glob("000_*.txt")).read_text(encoding="utf-8")
    assert f"η = {paper.MARGIN_EFFICIENCY} for margin" in text


def test_pickers_offer_the_librarys_methods_and_routings():
    assert vocabulary.DELTA_METHODS is ternary.DELTA_METHODS
    assert vocabulary.ROUTINGS is ternary.ROUTINGS
    assert set(vocabulary.METHOD_LABELS) == set(ternary.DELTA_METHODS)
    assert set(vocabulary.ROUTING_LABELS) == set(ternary.ROUTINGS)
    assert "none" not in vocabulary.ZONE_METHODS
    assert len(vocabulary.ZONE_METHODS) == len(ternary.DELTA_METHODS) - 1
    at = open_app("regions")
    assert tuple(at.selectbox(key="delta_method").options) == tuple(
        vocabulary.METHOD_LABELS[m] for m in ternary.DELTA_METHODS
    )


def test_fit_spec_key_ignores_other_methods_parameters():
    base = {"delta_method": "quality_plateau", "routing": "probabilistic", "epsilon": 0.1}
    a = FitSpec(("d",), ["x", "y"], 0.3, 0, {**base, "alpha": 0.1, "q": 0.2})
    b = FitSpec(("d",), ("x", "y"), 0.3, 0, {**base, "alpha": 0.9})
    assert a.key == b.key and hash(a) == hash(b)
    assert a.with_params({**base, "epsilon": 0.2}).key != a.key
    assert "alpha" not in a.params and a.params["epsilon"] == 0.1
    with pytest.raises(TypeError):
        a.params["epsilon"] = 1.0  # read-only: a cached fit cannot drift from its key
    cart = a.cart()
    assert cart.params["delta_method"] == "none" and cart.features == a.features


def test_upload_caption_states_the_real_limit():
    at = open_app("data")
    import streamlit as st

    limit = min(st.get_option("server.maxUploadSize"), MAX_FILE_BYTES // 2**20)
    assert f"Up to {limit} MB" in at.get("file_uploader")[0].help
    assert datasets.upload_limit_mb() == limit


def test_regions_metrics_and_panel_titles_come_from_one_scoring():
    at = open_app("regions")
    m = metrics(at)
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    titles = " | ".join(a["text"] for a in spec["layout"]["annotations"])
    assert f"decided accuracy {m['Decided accuracy']}" in titles
    assert f"boundary-uncertain {m['Boundary-uncertain']}" in titles
    assert f"CART — accuracy {m['CART accuracy']}" in titles


def test_grafting_cv_accuracy_is_run_cvs():
    at = open_app("grafting")
    table = at.dataframe[0].value
    ds, _ = datasets.load_builtin("two moons", n_samples=500, noise=0.3, random_state=0)
    rows = experiment.run_cv(
        ds.X,
        ds.y,
        combos=[
            {"delta_method": "none", "routing": "probabilistic", "ccp_alpha": 0.0},
            {
                "delta_method": "none",
                "routing": "probabilistic",
                "ccp_alpha": 0.0,
                "graft": "all",
                "graft_alpha": 0.05,
            },
        ],
        cv=5,
        max_depth=4,
        seed=0,
    )
    expected = rows.groupby("combo", sort=False)["accuracy"].mean().to_numpy()
    np.testing.assert_allclose(table["CV accuracy"].to_numpy(), expected)


# ----------------------------------------------------------------------------- links
def open_link(params: dict, page: str | None = None) -> AppTest:
    """The app opened from a shared address holding ``params``."""
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    if page is not None:
        at.switch_page(PAGES[page]).run()
    return at


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


def test_presentation_mode_enlarges_and_travels_in_the_link():
    at = open_app()
    assert not at.get("html")
    at.toggle(key="present").set_value(True).run()
    assert_clean(at)
    assert any("font-size" in h.proto.body for h in at.get("html"))
    assert at.query_params["present"] in ("1", ["1"])


@pytest.mark.parametrize("preset", range(len(links.PRESETS)))
def test_presets_open_their_page_with_the_papers_setting(preset):
    label, page, params = links.PRESETS[preset]
    at = open_link(params, page)
    assert_clean(at)
    for key, value in params.items():
        assert str(at.session_state[key]) == value, (label, key)
    home = open_app()
    assert label in [p.proto.label for p in home.get("page_link")]


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


# ----------------------------------------------------------------------------- why flagged
@pytest.mark.parametrize("routing", ["probabilistic", "deferred", "hard_middle"])
def test_row_story_retraces_the_estimators_own_prediction(routing):
    from sklearn.datasets import make_moons

    from appkit.why import row_story
    from ternary import TernaryTreeClassifier

    X, y = make_moons(300, noise=0.3, random_state=0)
    clf = TernaryTreeClassifier(
        delta_method="quality_plateau", routing=routing, max_depth=4, random_state=0
    ).fit(X, y)
    proba, verdict = clf.predict_proba_verdict(X)
    assert (verdict == 0).any() and (verdict == 1).any()
    for i in range(len(X)):
        story = row_story(clf, X[i], ["x1", "x2"])
        np.testing.assert_allclose(story.proba, proba[i], atol=1e-12)
        assert story.flagged == (verdict[i] == 0)
        assert story.steps["node"].iloc[0] == 0  # from the root down
        # the shares of the row over the leaves it reaches add up to the whole row
        leaves = [n for n in story.path if clf.tree_.is_leaf[n]]
        assert sum(story.path[n] for n in leaves) == pytest.approx(1.0)
        assert story.path[0] == 1.0
    flagged = row_story(clf, X[np.flatnonzero(verdict == 0)[0]], ["x1", "x2"])
    assert "lies inside the zone of" in flagged.sentence
    assert ("% left /" in flagged.sentence) == (routing != "hard_middle")
    decided = row_story(clf, X[np.flatnonzero(verdict == 1)[0]], ["x1", "x2"])
    assert decided.sentence.startswith("Decided")


def test_a_clicked_point_names_its_test_row():
    from appkit.regions import selected_row

    assert selected_row(None) is None
    assert selected_row({"selection": {"points": []}}) is None
    event = {"selection": {"points": [{"curve_number": 3, "customdata": 17}]}}
    assert selected_row(event) == 17
    assert selected_row({"selection": {"points": [{"customdata": [4]}]}}) == 4


def test_names_from_a_file_reach_the_page_as_plain_text():
    hostile = (
        "![x](http://img.test/a.png),[site](http://link.test),<img src=x onerror=alert(1)>\n"
        + "".join(
            f"{i},{(i * 7) % 13},{'<b>yes</b>' if i % 2 else '[no](http://e.test)'}\n"
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


# ----------------------------------------------------------------------------- take it away
def test_tree_page_exports_rules_model_and_a_script_that_rebuilds_it(tmp_path):
    import skops.io as sio

    from appkit import export, model
    from ternary import export_text

    at = open_app("tree")
    labels = [b.label for b in at.get("download_button")]
    assert "Download the model (skops)" in labels and "Download a script that rebuilds it" in labels
    codes = [c.value.strip() for c in at.code]
    ds, key = datasets.load_builtin("two moons", n_samples=500, noise=0.3, random_state=0)
    spec = FitSpec(key, None, 0.3, 0, model.model_params(DEFAULTS))
    clf = model.fit(model.split_data(ds, spec), spec)
    assert export_text(clf).strip() in codes  # the rules, as the library writes them
    # the script, run on its own, fits the very tree the page shows
    script = export.rebuild_script(ds, spec, generator_kwargs=datasets.builtin_kwargs(ds.name))
    assert script.strip() in codes
    namespace = {}
    exec(compile(script, "rebuild.py", "exec"), namespace)  # noqa: S102 - our own script
    X = ds.X
    np.testing.assert_array_equal(namespace["clf"].predict_proba(X), clf.predict_proba(X))
    # the skops file loads back into the same model, trusting only ternary's two types
    path = tmp_path / "tree.skops"
    path.write_bytes(export.model_bytes(clf, spec.key))
    untrusted = sio.get_untrusted_types(file=path)
    assert sorted(untrusted) == [
        "ternary._classes.TernaryTreeClassifier",
        "ternary._tree.TernaryTree",
    ]
    loaded = sio.load(path, trusted=untrusted)
    np.testing.assert_array_equal(loaded.predict_proba(X), clf.predict_proba(X))


def test_a_clicked_sweep_point_becomes_the_model_setting():
    assert coverage.selected_setting(None) is None
    assert coverage.selected_setting({"selection": {"points": [{"customdata": 3}]}}) is None
    point = {"customdata": ["epsilon", 0.15, "quality_plateau", "hard_middle"]}
    assert coverage.selected_setting({"selection": {"points": [point]}}) == {
        "epsilon": 0.15,
        "delta_method": "quality_plateau",
        "routing": "hard_middle",
    }


# ----------------------------------------------------------------------------- forest
def _two_moons_split(params):
    from appkit import model

    ds, key = datasets.load_builtin("two moons", n_samples=500, noise=0.3, random_state=0)
    spec = FitSpec(key, ("x1", "x2"), 0.3, 0, params)
    return spec, model.split_data(ds, spec)


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
    spec, sp = _two_moons_split(params)
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
    assert "cannot use hard-middle routing" in at.info[0].value
    assert not at.get("plotly_chart") and not at.get("graphviz_chart")


def test_tree_page_shows_the_chosen_member_tree_of_the_forest():
    from ternary import export_text

    at = open_link({"model": "forest", "n_estimators": "6"}, "tree")
    assert_clean(at)
    member = at.number_input(key="member")
    assert (member.min, member.max) == (0, 5)
    member.set_value(4).run()
    assert_clean(at)
    assert "member tree #4 of the forest's 6" in at.info[0].value
    ds, key = datasets.load_builtin("two moons", n_samples=500, noise=0.3, random_state=0)
    from appkit import model

    spec = FitSpec(key, None, 0.3, 0, model.model_params({**DEFAULTS, "model": "forest"}))
    spec = spec.with_params({**spec.params, "n_estimators": 6})
    forest = model.fit(model.split_data(ds, spec), spec)
    rules = export_text(forest.estimators_[4], feature_names=["x1", "x2"]).strip()
    assert rules in [c.value.strip() for c in at.code]
    assert rules != export_text(forest.estimators_[0], feature_names=["x1", "x2"]).strip()


def test_coverage_page_draws_the_forest_curve_and_counts_it_in_the_estimate():
    at = open_link({"model": "forest", "n_estimators": "5"}, "coverage")
    assert_clean(at)
    assert at.radio(key="model").value == "forest"
    table = at.dataframe[1].value
    assert "forest (5 trees, margin)" in set(table["method"])
    spec = json.loads(at.get("plotly_chart")[1].proto.spec)
    assert any(str(t.get("name", "")).startswith("forest (5 trees") for t in spec["data"])
    single = coverage.estimate_seconds(500, 2, 5)
    assert coverage.estimate_seconds(500, 2, 5, n_trees=25) > single
    assert coverage.estimate_seconds(500, 2, 5, n_trees=25) <= coverage.AUTO_RUN_SECONDS


# ----------------------------------------------------------------------------- curve clicks
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


@given(
    st_.lists(st_.floats(0, 50, allow_nan=False), min_size=1, max_size=40),
    st_.floats(0, 1),
)
@settings(max_examples=60, deadline=None)
def test_scale_for_share_flags_exactly_the_nearest_rows(distances, share):
    d = np.array(distances)
    scale = coverage.scale_for_share(d, share, 1.0)
    k = round(share * len(d))
    # rows tied at one distance go together: the reachable counts, nearest k wins
    reachable = sorted({int(np.sum(d < v)) for v in d} | {len(d)})
    target = min(reachable, key=lambda c: (abs(c - k), c))
    high = coverage.BOUNDS["delta_scale"][1]
    if scale < high:
        assert np.sum(d < scale) == target
    else:  # capped at the slider's end: as near as the cap can reach
        assert np.sum(d < scale) <= target


def test_the_tree_page_draws_the_path_of_the_row_clicked_on_the_regions_page():
    from appkit import model, why

    at = open_app("regions")
    at.session_state["regions_chart"] = {
        "selection": {"points": [{"customdata": 7}], "point_indices": [], "box": [], "lasso": []}
    }
    at.run()
    assert_clean(at)
    clicked = at.session_state["clicked_row"]
    at.switch_page(PAGES["tree"]).run()
    assert_clean(at)
    dot = at.get("graphviz_chart")[0].proto.spec
    ds, key = datasets.load_builtin("two moons", n_samples=500, noise=0.3, random_state=0)
    spec = FitSpec(key, None, 0.3, 0, model.model_params(DEFAULTS))
    clf = model.fit(model.split_data(ds, spec), spec)
    story = why.row_story(clf, ds.X.loc[clicked["index"]].to_numpy(), ["x1", "x2"])
    names = dict(feature_names=["x1", "x2"], class_names=[str(c) for c in clf.classes_])
    # the page's diagram is the tree with that row's way drawn, and differs from the plain one
    assert dot == viz.tree_dot(clf, **names, highlight_node=0, path=story.path)
    assert dot != viz.tree_dot(clf, **names, highlight_node=0)
    assert any(f"row {clicked['index']}" in c.value for c in at.caption)


# ----------------------------------------------------------------------------- Webb's example
def test_webb_example_holds_the_counts_of_the_papers_section_3():
    ds = ternary.data.load_builtin("webb example")
    A, B, y = ds.X["A"].to_numpy(), ds.X["B"].to_numpy(), ds.y

    def counts(mask):
        return {c: int(np.sum(y[mask] == c)) for c in ("star", "dot", "circle")}

    # C4.5's leaves: A > 7: o (10); A <= 2: * (4); B <= 5: * (5/1); B > 5: · (11)
    assert counts(A > 7) == {"star": 0, "dot": 0, "circle": 10}
    assert counts(A <= 2) == {"star": 4, "dot": 0, "circle": 0}
    middle = (A > 2) & (A <= 7)
    assert counts(middle & (B <= 5)) == {"star": 4, "dot": 1, "circle": 0}
    assert counts(middle & (B > 5)) == {"star": 0, "dot": 11, "circle": 0}
    # the root's cuts on B the grafting text quotes
    assert counts(B <= 5) == {"star": 4, "dot": 1, "circle": 9}
    assert counts(B <= 3) == {"star": 0, "dot": 0, "circle": 9}
    assert B[A <= 2].min() == 6 and A.min() in A[A <= 2] and B.max() in B[A <= 2]
    assert counts(middle & (A <= 5)) == {"star": 0, "dot": 10, "circle": 0}


def test_webb_preset_opens_the_grafting_page_on_c45s_tree_and_its_grafts():
    from appkit import grafting, model
    from ternary import export_text

    label, page, params = links.PRESETS[-1]
    assert page == "grafting" and params["dataset"] == "webb example"
    at = open_link(params, page)
    assert_clean(at)
    ds, key = datasets.load_builtin("webb example")
    _, graft_spec = grafting.graft_specs(
        key, ["A", "B"], mode="all", graft_alpha=0.05, ccp_alpha=0.0, max_depth=3,
        test_size=0.1, seed=1,
    )  # fmt: skip
    grafted = model.fit(model.split_data(ds, graft_spec), graft_spec)
    rules = export_text(grafted)
    # C4.5's cuts (CART puts them halfway between the values), then Webb's two grafts in
    # the leaf 2 < A <= 7, B <= 5: A <= 5 relabelled ·, B <= 3 relabelled o
    for cut in ("A <= 7.5000", "A <= 2.5000", "B <= 5.5000"):
        assert f"{cut}\n" in rules
    assert "A <= 5.0000  [grafted]" in rules and "B <= 3.0000  [grafted]" in rules
    # the page's graft report lists those two grafts; their Laplace estimates are §3's
    # (P+1)/(T+2) with one row fewer each than the paper's 10 · and 9 o: seed 1 holds out
    # the dot at (5, 6) and the circle at (10, 2)
    report = at.dataframe[1].value
    cuts = sorted(zip(report["feature_name"], report["cut"], strict=True))
    assert cuts == [("A", 5.0), ("B", 3.0)]
    np.testing.assert_allclose(sorted(report["laplace_cut"]), [9 / 10, 10 / 11])
