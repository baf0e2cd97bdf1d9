"""`load_model` refuses models of allowed types whose values no fit makes (issue 36, item 3).

Each file is a real fitted tree or forest, saved with skops and then edited: thresholds
stored as text, complex leaf values, ``_feature_scale = None``, a forest member naming a
class the forest lacks and ``n_classes_ = 10**12`` ended ``ternary predict`` in a traceback
(the last a MemoryError asking for 364 TiB); δ = inf, NaN or negative leaf values, NaN
thresholds and a forest without trees were accepted and written out as NaN or −1
probabilities (the empty forest answered "no" for every row). Every one is now refused
with a message, and `ternary predict` exits 2 without writing anything.
"""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification

from ternary import TernaryForestClassifier, TernaryTreeClassifier
from ternary.cli import main as ternary_main
from ternary.pipeline import ModelFileError, load_model

sio = pytest.importorskip("skops.io")


@pytest.fixture(scope="module")
def data():
    return make_classification(300, 5, n_classes=3, n_informative=3, random_state=0)


@pytest.fixture(scope="module")
def tree_blob(data):
    return sio.dumps(TernaryTreeClassifier(max_depth=3, random_state=0).fit(*data))


@pytest.fixture(scope="module")
def forest_blob(data):
    forest = TernaryForestClassifier(n_estimators=3, max_depth=3, random_state=0)
    return sio.dumps(forest.fit(*data))


def _tampered(blob: bytes, path: list, *, array=None, node=None, edit=None) -> bytes:
    """``blob`` with the attribute at ``path`` (keys from the estimator's attributes; an int
    picks a forest member) given the array ``array(old)``, the schema node ``node``, or
    edited in place by ``edit(node)``."""
    source = zipfile.ZipFile(io.BytesIO(blob))
    schema = json.loads(source.read("schema.json"))
    holder = schema["content"]["content"]
    for key in path[:-1]:  # an int: that member of a list of estimators, its attributes
        holder = holder[key] if isinstance(key, str) else holder["content"][key]["content"]
        holder = holder["content"] if isinstance(key, int) else holder
    target = holder[path[-1]]
    if node is not None:
        holder[path[-1]] = node
    if edit is not None:
        edit(target)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for info in source.infolist():
            raw = source.read(info)
            if array is not None and info.filename == target.get("file"):
                buffer = io.BytesIO()
                np.save(buffer, array(np.load(io.BytesIO(raw))), allow_pickle=False)
                raw = buffer.getvalue()
            if info.filename == "schema.json":
                raw = json.dumps(schema).encode()
            archive.writestr(info.filename, raw)
    return out.getvalue()


def _at(index, value):
    def change(old):
        new = old.astype(np.result_type(old, np.asarray(value)), copy=True)
        new[index] = value
        return new

    return change


_NONE = {"__class__": "str", "__module__": "builtins", "__loader__": "JsonNode",
         "content": "null", "is_json": True, "__id__": 7}  # fmt: skip
TREE = ["tree_", "content", "content"]  # the tree's arrays, below the estimator's attributes


def _set_json(text):
    """Give a JsonNode the text ``text`` and an id of its own (skops builds one object per
    id: a 3 shares its id with every other 3 of the file)."""
    return lambda node: node.update(content=text, __id__=11)


TREE_CASES = [
    # tracebacks before
    ("threshold as text", TREE + ["threshold"], {"array": lambda a: a.astype("U32")},
     "threshold does not hold real numbers"),
    ("complex leaf values", TREE + ["value"], {"array": lambda a: a.astype(complex)},
     "value does not hold real numbers"),
    ("_feature_scale = None", ["_feature_scale"], {"node": _NONE},
     "_feature_scale does not have one entry per feature"),
    # NaN or -1 answers before
    ("delta = inf", TREE + ["delta"], {"array": _at(0, np.inf)}, "δ is not a finite number"),
    ("negative delta", TREE + ["delta"], {"array": _at(0, -0.5)}, "δ is not a finite number ≥ 0"),
    ("NaN threshold", TREE + ["threshold"], {"array": _at(0, np.nan)},
     "a threshold is not a finite number"),
    ("NaN leaf value", TREE + ["value"], {"array": _at((-1, 0), np.nan)},
     "negative or not finite"),
    ("negative leaf value", TREE + ["value"], {"array": _at((-1, 0), -1.0)},
     "negative or not finite"),
    ("leaf values of 5", TREE + ["value"], {"array": lambda a: a * 5}, "does not sum to 1"),
    ("threshold 1e308 with delta 1e308", TREE + ["threshold"], {"array": _at(0, -1e308)},
     None),  # paired with δ below
    ("a scale of 0", ["_feature_scale"], {"array": _at(0, 0.0)}, "finite numbers > 0"),
    ("n_classes_ = 10**12", ["n_classes_"], {"edit": _set_json("1000000000000")},
     "n_classes_ is 1,000,000,000,000 but it has 3 classes"),
    ("classes out of order", ["classes_"], {"array": lambda a: a[::-1].copy()},
     "not distinct and sorted"),
    ("routing 'x'", ["routing"], {"edit": _set_json('"x"')}, "routing is 'x'"),
    ("delta_scale_ NaN", ["delta_scale_"], {"edit": _set_json("NaN")}, "delta_scale_ is nan"),
    ("delta_scale_ -1", ["delta_scale_"], {"edit": _set_json("-1.0")}, "delta_scale_ is -1.0"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "path", "change", "says"), TREE_CASES, ids=[c[0] for c in
                         TREE_CASES])  # fmt: skip
def test_impossible_tree_values_are_refused(tree_blob, what, path, change, says, tmp_path, capsys):
    data = _tampered(tree_blob, path, **change)
    if says is None:  # θ = −1e308 alone is finite; with δ = 1e308, θ − δ is not
        data = _tampered(data, TREE + ["delta"], array=_at(0, 1e308))
        says = "beyond the floating-point range"
    with pytest.raises(ModelFileError, match="holds a damaged") as info:
        load_model(data)
    assert says in str(info.value)
    model, rows = tmp_path / "m.skops", tmp_path / "rows.csv"
    model.write_bytes(data)
    rows.write_text("x0,x1,x2,x3,x4\n" + "0.5,-1,2,0,1\n" * 5)
    status = ternary_main(["predict", str(model), str(rows), "--out", str(tmp_path / "o.csv")])
    err = capsys.readouterr().err
    assert status == 2 and says in err and "Traceback" not in err
    assert not (tmp_path / "o.csv").exists()


FOREST = ["estimators_"]
FOREST_CASES = [
    ("a member naming class 7", FOREST + [0, "classes_"], {"array": _at(2, 7)},
     "member 0 names a class the forest does not have"),
    ("a member's classes as text", FOREST + [1, "classes_"], {"array": lambda a: a.astype("U3")},
     "member 1 names a class the forest does not have"),
    ("no trees", FOREST, {"edit": lambda node: node.__setitem__("content", [])},
     "it has no trees"),
    ("n_classes_ = 10**12", ["n_classes_"], {"edit": _set_json("1000000000000")},
     "n_classes_ is 1,000,000,000,000"),
    ("NaN threshold in member 2", FOREST + [2, *TREE, "threshold"],
     {"array": _at(0, np.nan)}, "a threshold is not a finite number"),
    ("min_decided_fraction NaN", ["min_decided_fraction"], {"edit": _set_json("NaN")},
     "min_decided_fraction is nan"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "path", "change", "says"), FOREST_CASES, ids=[c[0] for c in
                         FOREST_CASES])  # fmt: skip
def test_impossible_forests_are_refused(forest_blob, what, path, change, says):
    with pytest.raises(ModelFileError, match="holds a damaged") as info:
        load_model(_tampered(forest_blob, path, **change))
    assert says in str(info.value)


def test_the_leaf_marker_is_what_fitted_trees_hold(data, tree_blob):
    # the convention the threshold check relies on: −2 at every leaf, δ = 0 there
    tree = load_model(tree_blob).tree_
    leaves = tree.children_left == -1
    assert set(tree.threshold[leaves]) == {-2.0} and set(tree.delta[leaves]) == {0.0}
    # arrays of other integer and float widths are read as the kernels' own
    data32 = _tampered(tree_blob, TREE + ["children_left"], array=lambda a: a.astype(np.int32))
    data32 = _tampered(data32, TREE + ["threshold"], array=lambda a: a.astype(">f8"))
    loaded = load_model(data32)
    assert loaded.tree_.children_left.dtype == np.intp
    assert (loaded.predict_proba(data[0]) == load_model(tree_blob).predict_proba(data[0])).all()


@settings(max_examples=40, deadline=None)
@given(
    attr=st.sampled_from(["threshold", "delta", "value", "weighted_n_node_samples"]),
    node=st.integers(0, 6),
    value=st.sampled_from([np.nan, np.inf, -np.inf, -1e-3, 1e308, -1e308, 0.0, 0.25, 3.0]),
)
def test_a_loaded_model_answers_probabilities_or_is_refused(data, tree_blob, attr, node, value):
    # whatever one value of a node array holds, load_model either refuses the file or the
    # model it returns gives finite probabilities in [0, 1] that sum to 1
    index = (node, 0) if attr == "value" else node
    try:
        model = load_model(_tampered(tree_blob, TREE + [attr], array=_at(index, value)))
    except ModelFileError:
        return
    proba = model.predict_proba(data[0])
    assert np.all(np.isfinite(proba)) and proba.min() >= 0 and proba.max() <= 1
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-9)
