"""`load_model` refuses a tree whose arrays the routing kernels would read out of bounds.

A file may hold only allowed types (`MODEL_TYPES`) and still describe a tree no fit makes:
a child id past the last node (predict segfaulted), a child pointing back at the root
(predict never returned), a split on a feature the model does not have (segfault), or a
``tree_`` that is not a tree (a traceback). Each is made here by editing a real saved file,
and each is refused with a message before anything is scored; every tree the library fits,
grafted ones included (grafting reuses node ids), still loads.
"""

from __future__ import annotations

import io
import itertools
import json
import zipfile

import numpy as np
import pytest
from sklearn.datasets import make_classification

from ternary import DELTA_METHODS, ROUTINGS, TernaryForestClassifier, TernaryTreeClassifier
from ternary.pipeline import ModelFileError, load_model

skops_io = pytest.importorskip("skops.io")


@pytest.fixture(scope="module")
def data():
    return make_classification(300, 5, n_classes=3, n_informative=3, random_state=0)


@pytest.fixture(scope="module")
def saved(data):
    X, y = data
    tree = TernaryTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    return skops_io.dumps(tree)


def _edit(blob: bytes, attr: str, change) -> bytes:
    """``blob`` with the tree's array ``attr`` (the estimator's when it starts with
    ``^``) replaced by ``change(array)``."""
    source = zipfile.ZipFile(io.BytesIO(blob))
    schema = json.loads(source.read("schema.json"))
    owner = schema["content"]["content"]
    if attr.startswith("^"):
        node = owner[attr[1:]]
    else:
        node = owner["tree_"]["content"]["content"][attr]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == node.get("file"):
                buffer = io.BytesIO()
                np.save(buffer, change(np.load(io.BytesIO(data))), allow_pickle=False)
                data = buffer.getvalue()
            target.writestr(info.filename, data)
    return out.getvalue()


def _set(index, value):
    def change(array):
        array = array.copy()
        array[index] = value
        return array

    return change


@pytest.mark.parametrize(
    ("attr", "change", "says"),
    [
        ("children_left", _set(0, 10**9), "not in the tree"),  # segfaulted in predict
        ("children_right", _set(0, -5), "not in the tree"),
        ("children_left", _set(0, 0), "child of two splits"),  # predict never returned
        ("children_middle", _set(0, 1), "child of two splits"),
        ("feature", _set(0, 10**6), "feature outside the model's 5"),  # segfaulted
        ("feature", _set(0, -2), "feature outside"),
        ("children_left", lambda a: a[:-1], "one entry per node"),
        ("value", lambda a: a.ravel(), "one entry per node"),
        ("children_left", lambda a: a.astype(np.float64), "does not hold integers"),
        # tracebacks in score (IndexError), and in the ranking's per-feature scale
        ("value", lambda a: a[:, :1], "classes do not match"),
        ("^classes_", lambda a: a[:1], "classes do not match"),
        ("^_feature_scale", lambda a: a[:1], "_feature_scale does not have one entry"),
    ],
)
def test_a_damaged_tree_is_refused_before_scoring(saved, attr, change, says):
    with pytest.raises(ModelFileError, match="damaged tree") as info:
        load_model(_edit(saved, attr, change))
    assert says in str(info.value)


def test_a_tree_that_is_not_a_tree_is_refused(saved):
    source = zipfile.ZipFile(io.BytesIO(saved))
    schema = json.loads(source.read("schema.json"))
    schema["content"]["content"]["tree_"] = {
        "__class__": "str",
        "__module__": "builtins",
        "__loader__": "JsonNode",
        "content": '"x"',
        "is_json": True,
        "__id__": 1,
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            if info.filename != "schema.json":
                target.writestr(info.filename, source.read(info))
        target.writestr("schema.json", json.dumps(schema))
    with pytest.raises(ModelFileError, match="its tree_ is a str, not a TernaryTree"):
        load_model(out.getvalue())


def test_every_fitted_tree_and_forest_still_loads(data):
    X, y = data
    for delta_method, routing, graft in itertools.product(
        DELTA_METHODS, ROUTINGS, ("none", "one", "all")
    ):
        try:
            tree = TernaryTreeClassifier(
                delta_method=delta_method, routing=routing, graft=graft, random_state=0
            ).fit(X, y)
        except ValueError:  # a combination the estimator refuses (grafting hard_middle)
            continue
        loaded = load_model(skops_io.dumps(tree))
        assert (loaded.predict(X) == tree.predict(X)).all()
    forest = TernaryForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    assert (load_model(skops_io.dumps(forest)).predict(X) == forest.predict(X)).all()
