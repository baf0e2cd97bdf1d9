"""The grafting page (app_pages/4_grafting.py): CART against CART + grafting, and
Webb's example preset.
"""

from __future__ import annotations

import numpy as np

from appkit import datasets, links
from appkit.state import DEFAULTS
from ternary import experiment
from tests.app.helpers import assert_clean, open_app, open_link
from viz.colors import GRAFTED_COLOR


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
    # the stepper's tree, then the grafted tree at its natural size and its legend (as on
    # the tree page)
    _, tree, legend = (c.proto.spec for c in at.get("graphviz_chart"))
    assert len(at.get("plotly_chart")) == 3 and "Grafted node" in legend
    assert "Grafted node" not in tree and GRAFTED_COLOR in tree  # the grafted nodes' border
    at.radio(key="graft_features").set_value("all features").run()
    assert_clean(at)


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
        test_size=0.0, seed=DEFAULTS["seed"],
    )  # fmt: skip
    grafted = model.fit(model.split_data(ds, graft_spec), graft_spec)
    rules = export_text(grafted)
    # C4.5's cuts (CART puts them halfway between the values), then Webb's two grafts in
    # the leaf 2 < A <= 7, B <= 5: A <= 5 relabelled ·, B <= 3 relabelled o
    for cut in ("A <= 7.5000", "A <= 2.5000", "B <= 5.5000"):
        assert f"{cut}\n" in rules
    assert "A <= 5.0000  [grafted]" in rules and "B <= 3.0000  [grafted]" in rules
    # the page's graft report lists those two grafts, fitted on all 30 rows as in the paper:
    # their Laplace estimates (P+1)/(T+2) are §3's, 10 · give 11/12, 9 o give 10/11
    # the graft report (readable headers; the CSV keeps the library's names), after the
    # table of the one training row the grafts relabel
    report = next(d.value for d in at.dataframe if "cut at" in d.value.columns)
    assert not [c for c in report.columns if "_" in c], list(report.columns)
    graft = dict(zip(report["feature"], report["Laplace accuracy, graft"], strict=True))
    assert sorted(zip(report["feature"], report["cut at"], strict=True)) == [("A", 5.0), ("B", 3.0)]
    np.testing.assert_allclose([graft["A"], graft["B"]], [11 / 12, 10 / 11])
    assert dict(zip(report["feature"], report["rows in region (T)"], strict=True)) == {
        "A": 10,
        "B": 9,
    }
    assert any("30 training rows" in c.value for c in at.caption)  # nothing held out
