"""The tree page's rules panel (appkit/rules.py): the rule list beside the diagram, the
C4.5 toggle, and downloads of the rules, the SQL query and the Python function."""

from __future__ import annotations

import sqlite3

import numpy as np
import pandas as pd

from appkit import datasets, rules
from appkit.model import FitSpec, fit, model_params, split_data
from appkit.state import DEFAULTS
from tests.app.helpers import assert_clean, open_app, shown


def _rule_lines(at):
    lines = [shown(m).replace("**", "") for m in at.markdown]
    return [line for line in lines if line.startswith("R") and " IF " in line]


def test_tree_page_lists_the_rules_and_offers_the_three_downloads():
    at = open_app("tree")
    lines = _rule_lines(at)
    assert lines and lines[0].startswith("R1 IF ")
    assert any("decided" in line for line in lines)
    assert any("boundary-uncertain" in line for line in lines)
    caption = next(c.value for c in at.caption if "decided rules cover" in c.value)
    assert "Each training row meets exactly one rule" in caption
    labels = [b.label for b in at.get("download_button")]
    assert {"Rules (CSV)", "SQL query", "Python function"} <= set(labels)
    at.toggle(key="rules_simplify").set_value(True).run()
    assert_clean(at)
    simplified = _rule_lines(at)
    assert simplified and sum(line.count(" AND ") for line in simplified) <= sum(
        line.count(" AND ") for line in lines
    )
    assert any("may overlap" in c.value for c in at.caption)


def test_the_downloaded_query_and_function_score_like_the_model():
    ds, key = datasets.load_builtin("two moons", n_samples=500, noise=0.3, random_state=0)
    spec = FitSpec(key, None, 0.3, 0, model_params(DEFAULTS))
    sp = split_data(ds, spec)
    model = fit(sp, spec)
    names = list(sp.X_train.columns.astype(str))
    sql, python, why_no_sql = rules.model_code(model, spec.key, tuple(names))
    assert why_no_sql is None
    con = sqlite3.connect(":memory:")
    sp.X_test.to_sql(rules.SQL_TABLE, con, index=False)
    out = pd.DataFrame(con.execute(sql).fetchall()).to_numpy()
    assert (out[:, 0] == model.predict(sp.X_test)).all()
    assert (out[:, 1] == model.predict_verdict(sp.X_test)).all()
    namespace: dict = {}
    exec(python, namespace)
    row = sp.X_test.iloc[0].to_numpy()
    label, verdict, proba = namespace["predict_row"](row)
    assert np.allclose(proba, model.predict_proba(sp.X_test.iloc[:1])[0], atol=1e-12)
    frame, summary = rules.rule_table(model, sp.X_train, sp.y_train, spec.key, tuple(names), False)
    assert frame["support"].sum() == len(sp.y_train)
    assert 0 < summary["coverage"] <= 1


def test_for_a_forest_the_rules_are_the_members_and_the_code_the_whole_forest():
    from tests.app.helpers import open_link

    at = open_link({"model": "forest", "n_estimators": "6"}, "tree")
    assert_clean(at)
    assert _rule_lines(at)
    labels = [b.label for b in at.get("download_button")]
    assert {"Rules (CSV)", "SQL query", "Python function"} <= set(labels)
    ds, key = datasets.load_builtin("two moons", n_samples=500, noise=0.3, random_state=0)
    spec = FitSpec(key, None, 0.3, 0, model_params({**DEFAULTS, "model": "forest"}))
    spec = spec.with_params({**spec.params, "n_estimators": 6})
    forest = fit(split_data(ds, spec), spec)
    sql, python, _ = rules.model_code(forest, spec.key, ("x1", "x2"))
    namespace: dict = {}
    exec(python, namespace)
    row = ds.X.iloc[0].to_numpy()
    assert namespace["predict_row"](row)[1] == forest.predict_verdict(ds.X.iloc[:1])[0]
    assert sql is not None  # all six trees are in the query: it answers as the forest does
    con = sqlite3.connect(":memory:")
    ds.X.iloc[:50].to_sql(rules.SQL_TABLE, con, index=False)
    scored = np.array(con.execute(sql).fetchall(), dtype=float)
    np.testing.assert_allclose(scored[:, 2:], forest.predict_proba(ds.X.iloc[:50]), atol=1e-9)
