"""export_sql against a real SQLite database and DuckDB, row by row.

Each setting scores at least 10,000 rows, the edge rows of `helpers.edge_rows` first
(θ, θ±δ, their double and float32 neighbours), and asserts predictions and verdicts equal
the library's on every row and probabilities within 1e-6.
"""

from __future__ import annotations

import sqlite3

import numpy as np
import pandas as pd
import pytest

from ternary import DELTA_METHODS, TernaryForestClassifier, TernaryTreeClassifier, export_sql
from ternary.codegen import f32_le, sql_number
from tests.rules.helpers import data, scoring_rows

duckdb = pytest.importorskip("duckdb", reason="DuckDB is a test dependency (requirements-dev)")

X, Y = data()
LABELS = np.array(["ash", "birch", "cedar"])


def _table(X_rows):
    frame = pd.DataFrame(X_rows, columns=[f"f{i}" for i in range(X_rows.shape[1])])
    frame.insert(0, "row_id", np.arange(X_rows.shape[0]))
    return frame


def _run(query, frame):
    """The query's rows from SQLite and from DuckDB, ordered by row id."""
    con = sqlite3.connect(":memory:")
    frame.to_sql("scored", con, index=False)
    cursor = con.execute(query)
    lite = pd.DataFrame(cursor.fetchall(), columns=[d[0] for d in cursor.description])
    duck = duckdb.connect()
    duck.register("scored", frame)
    ducked = duck.execute(query).df()
    return [out.sort_values("row_id").reset_index(drop=True) for out in (lite, ducked)]


def _assert_same(model, X_rows):
    frame = _table(X_rows)
    features = frame.drop(columns="row_id")
    query = export_sql(model, table="scored", key="row_id")
    proba, verdict = model.predict_proba_verdict(features)
    predicted = model.predict(features)
    for out in _run(query, frame):
        assert len(out) == X_rows.shape[0] >= 10_000
        assert (out["prediction"].to_numpy() == predicted).all()
        assert (out["verdict"].to_numpy() == verdict).all()
        got = out[[f"proba_{k}" for k in range(proba.shape[1])]].to_numpy(dtype=float)
        np.testing.assert_allclose(got, proba, rtol=0, atol=1e-6)
    # the settings are only telling if both verdicts occur, blends included
    assert 0 < verdict.mean() < 1


def _fit(**params):
    frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    return TernaryTreeClassifier(max_depth=6, random_state=0, **params).fit(frame, LABELS[Y])


@pytest.mark.parametrize("method", [m for m in DELTA_METHODS if m != "none"])
def test_every_delta_method_matches_the_library(method):
    model = _fit(delta_method=method)
    _assert_same(model, scoring_rows([model], X))


@pytest.mark.parametrize("routing", ["deferred", "hard_middle"])
def test_every_routing_matches_the_library(routing):
    model = _fit(routing=routing, min_samples_middle=3)
    _assert_same(model, scoring_rows([model], X))


def test_a_big_tree_blended_by_the_per_row_walk_matches():
    # over 64 leaves the library blends with its per-row walk, whose weights differ in the
    # last bit from the dense kernel's; deferred routing exercises the "entered" flags too
    frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    model = TernaryTreeClassifier(max_depth=9, routing="deferred", random_state=1)
    model.fit(frame, LABELS[Y])
    assert model.get_n_leaves() > 64
    _assert_same(model, scoring_rows([model], X))


def test_a_grafted_tree_matches():
    model = _fit(graft="all", delta_method="quality_plateau")
    assert model.tree_.grafted.any()
    _assert_same(model, scoring_rows([model], X))


def test_a_forest_of_ten_trees_matches():
    frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    forest = TernaryForestClassifier(n_estimators=10, max_depth=5, random_state=0)
    forest.fit(frame, LABELS[Y])
    _assert_same(forest, scoring_rows(forest.estimators_, X))


def test_plain_cart_has_no_blend_and_every_row_decided():
    model = _fit(delta_method="none")
    rows = scoring_rows([model], X)
    frame = _table(rows)
    for out in _run(export_sql(model, table="scored", key="row_id"), frame):
        assert (out["verdict"] == 1).all()
        assert (out["prediction"].to_numpy() == model.predict(frame.drop(columns="row_id"))).all()


def test_missing_and_unusable_values_give_null_outputs_and_keep_the_key():
    model = _fit()
    rows = np.vstack([X[:3], X[:3]])
    frame = _table(rows)
    frame.loc[0, "f0"] = None
    frame.loc[1, "f1"] = np.inf
    frame.loc[2, "f2"] = 1e39  # beyond float32's range: the library refuses it
    for out in _run(export_sql(model, table="scored", key="row_id"), frame):
        assert out["row_id"].tolist() == list(range(6))
        assert out.loc[:2, ["prediction", "verdict", "proba_0"]].isna().all().all()
        assert out.loc[3:, "prediction"].tolist() == list(model.predict(frame.iloc[3:, 1:]))
    with pytest.raises(ValueError):
        model.predict(frame.iloc[1:2, 1:])


def test_columns_rename_the_features_and_labels_are_quoted():
    model = TernaryTreeClassifier(max_depth=3, random_state=0).fit(
        X, np.array(["o'k", "b", "c"])[Y]
    )
    frame = pd.DataFrame(X[:50], columns=["a b", 'q"t', "c", "d"])
    frame.insert(0, "id", range(50))
    con = sqlite3.connect(":memory:")
    frame.to_sql("my table", con, index=False)
    query = export_sql(model, table="my table", key="id", columns=["a b", 'q"t', "c", "d"])
    got = [r[1] for r in con.execute(query).fetchall()]
    assert got == list(model.predict(X[:50]))
    with pytest.raises(ValueError, match="one column name per feature"):
        export_sql(model, table="t", columns=["a"])
    with pytest.raises(ValueError, match="clashes"):
        export_sql(model, table="t", key="verdict")


def test_too_large_a_forest_is_refused_with_what_to_do():
    forest = TernaryForestClassifier(n_estimators=40, max_depth=None, random_state=0).fit(X, Y)
    with pytest.raises(ValueError, match="smaller model"):
        export_sql(forest, table="t")


def test_the_query_grows_linearly_with_the_tree():
    sizes = []
    for depth in (4, 8):
        model = TernaryTreeClassifier(max_depth=depth, random_state=0).fit(X, Y)
        sizes.append((model.tree_.node_count, len(export_sql(model, table="t"))))
    (n_small, small), (n_big, big) = sizes
    per_node_small, per_node_big = small / n_small, big / n_big
    assert n_big > 4 * n_small
    assert per_node_big < 2 * per_node_small


def test_float32_boundaries_agree_with_numpy_on_every_edge():
    rng = np.random.default_rng(3)
    thresholds = np.concatenate(
        [
            rng.normal(0, 1, 300),
            rng.normal(0, 1, 300).astype(np.float32).astype(float),
            [0.0, -0.0, 1e-40, -1e-40, 3.4e38, -3.4e38, 2.0**-126],
        ]
    )
    for t in thresholds:
        b, inclusive = f32_le(t)
        xs = np.array([b, np.nextafter(b, -np.inf), np.nextafter(b, np.inf), t])
        xs = xs[np.abs(xs) < 3.4028234e38]
        expected = xs.astype(np.float32).astype(np.float64) <= t
        got = xs <= b if inclusive else xs < b
        assert (got == expected).all(), t


def test_numbers_read_back_exactly_where_shortest_decimals_do_not():
    # SQLite 3.40 reads this shortest decimal one ulp off; the exact form is read right
    tricky = [-3.516404732843404e-17, 0.1, 1 / 3, 2.0**-1074, 1.7976931348623157e308, 5e-324]
    con = sqlite3.connect(":memory:")
    duck = duckdb.connect()
    for v in tricky:
        assert con.execute(f"SELECT {sql_number(v)}").fetchone()[0] == v
        assert duck.execute(f"SELECT {sql_number(v)}").fetchone()[0] == v


def test_other_estimators_and_pipelines_are_refused_with_what_to_do():
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    with pytest.raises(TypeError, match="TernaryTreeClassifier"):
        export_sql(DecisionTreeClassifier().fit(X, Y), table="t")
    pipeline = make_pipeline(StandardScaler(), TernaryTreeClassifier(max_depth=2)).fit(X, Y)
    with pytest.raises(TypeError, match=r"pipeline\[-1\]"):
        export_sql(pipeline, table="t")
