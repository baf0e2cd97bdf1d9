"""export_python: the generated function equals the library row by row."""

from __future__ import annotations

import ast

import numpy as np
import pandas as pd
import pytest

from ternary import TernaryForestClassifier, TernaryTreeClassifier, export_python
from tests.rules.helpers import data, scoring_rows

X, Y = data()
NAMES = [f"f{i}" for i in range(X.shape[1])]


def _compiled(model):
    source = export_python(model)
    namespace: dict = {}
    exec(compile(source, "<export>", "exec"), namespace)
    return source, namespace["predict_row"]


def _assert_row_by_row(model, rows):
    _, predict_row = _compiled(model)
    frame = pd.DataFrame(rows, columns=NAMES)
    proba, verdict = model.predict_proba_verdict(frame)
    predicted = model.predict(frame)
    for i, row in enumerate(rows):
        label, v, p = predict_row(row)
        assert label == predicted[i] and v == verdict[i], i
        assert max(abs(a - b) for a, b in zip(p, proba[i], strict=True)) <= 1e-12, i
    assert 0 < verdict.mean() < 1


@pytest.mark.parametrize("routing", ["probabilistic", "deferred", "hard_middle"])
def test_every_routing_equals_the_library_row_by_row(routing):
    model = TernaryTreeClassifier(routing=routing, max_depth=6, random_state=0)
    model.fit(pd.DataFrame(X, columns=NAMES), np.array(["a", "b", "c"])[Y])
    _assert_row_by_row(model, scoring_rows([model], X, n=3_000))


def test_a_big_grafted_tree_equals_the_library():
    model = TernaryTreeClassifier(max_depth=9, graft="all", random_state=0)
    model.fit(pd.DataFrame(X, columns=NAMES), Y)
    assert model.get_n_leaves() > 64 and model.tree_.grafted.any()
    _assert_row_by_row(model, scoring_rows([model], X, n=1_500))


def test_a_forest_equals_the_library():
    forest = TernaryForestClassifier(n_estimators=10, max_depth=5, routing="deferred")
    forest.set_params(random_state=0, min_decided_fraction=0.7)
    forest.fit(pd.DataFrame(X, columns=NAMES), Y)
    _assert_row_by_row(forest, scoring_rows(forest.estimators_, X, n=1_500))


def test_the_function_imports_nothing_and_refuses_what_the_library_refuses():
    model = TernaryTreeClassifier(max_depth=3, random_state=0)
    model.fit(pd.DataFrame(X, columns=NAMES), Y)
    source, predict_row = _compiled(model)
    tree = ast.parse(source)
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
    assert [type(n).__name__ for n in tree.body] == ["FunctionDef"]
    by_name = dict(zip(NAMES, X[0], strict=True))
    assert predict_row(by_name) == predict_row(list(X[0]))
    for bad in (float("nan"), float("inf"), 1e39):
        with pytest.raises(ValueError, match="finite"):
            predict_row([bad, 0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="expected 4 values"):
        predict_row([0.0])
