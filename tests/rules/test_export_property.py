"""export_python and export_sql (on SQLite) equal the library on random trees, by hypothesis."""

from __future__ import annotations

import sqlite3

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings

from ternary import export_python, export_sql
from tests.rules.helpers import edge_rows, fitted


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fitted())
def test_exports_equal_the_library_on_random_trees(case):
    clf, X, _, rng = case
    rows = np.vstack([X + rng.normal(0, 0.5, X.shape), edge_rows([clf], X)])
    proba, verdict = clf.predict_proba_verdict(rows)
    predicted = clf.predict(rows)
    namespace: dict = {}
    exec(export_python(clf), namespace)
    for i, row in enumerate(rows):
        label, v, p = namespace["predict_row"](row)
        assert (label, v) == (predicted[i], verdict[i])
        np.testing.assert_allclose(p, proba[i], rtol=0, atol=1e-12)
    frame = pd.DataFrame(rows, columns=[f"x{j}" for j in range(rows.shape[1])])
    frame.insert(0, "i", np.arange(len(rows)))
    con = sqlite3.connect(":memory:")
    frame.to_sql("t", con, index=False)
    out = np.array(sorted(con.execute(export_sql(clf, table="t", key="i")).fetchall()))
    assert (out[:, 1] == predicted).all() and (out[:, 2] == verdict).all()
    np.testing.assert_allclose(out[:, 3:].astype(float), proba, rtol=0, atol=1e-9)
