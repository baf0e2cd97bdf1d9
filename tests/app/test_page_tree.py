"""The tree-diagram page (app_pages/2_tree_diagram.py): node picker and inspector,
exports, the forest's member trees, the clicked row's path.
"""

from __future__ import annotations

import shutil

import numpy as np

import viz
from appkit import datasets
from appkit.model import FitSpec
from appkit.state import DEFAULTS
from tests.app.helpers import PAGES, assert_clean, open_app, open_link


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
    assert len(at.table[0].value) == 5
    labels = [b.label for b in at.get("download_button")]
    assert "Download DOT" in labels
    if shutil.which("dot"):
        assert "Download SVG" in labels
    else:  # no box on every visit: the DOT button's help says how to get the SVG
        assert not any("graphviz" in i.value.lower() for i in at.info)
        dot_button = next(b for b in at.get("download_button") if b.label == "Download DOT")
        assert "apt-get install graphviz" in dot_button.help


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
    assert at.selectbox(key="feature_x").value == "worst radius"  # its most important feature


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
        "ternary.tree.TernaryTree",
    ]
    loaded = sio.load(path, trusted=untrusted)
    np.testing.assert_array_equal(loaded.predict_proba(X), clf.predict_proba(X))


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
    # (its legend drawn apart, under it)
    drawn = dict(names, highlight_node=0, legend="none")
    assert dot == viz.tree_dot(clf, **drawn, path=story.path)
    assert dot != viz.tree_dot(clf, **drawn)
    assert any(f"row {clicked['index']}" in c.value for c in at.caption)
