"""`load_model` opens exactly what ternary saves, and refuses every other file before it runs.

Each hostile file is made here: a scikit-learn pipeline of FunctionTransformers that reaches
``builtins.eval``, a module attribute (``sklearn.utils._testing.os``), ``os.system``, a class
of ``__main__``, a zip bomb, an archive of too many members, a pickle, truncated and empty
files. `MODEL_TYPES` is checked against the types of every kind of model the app and the
library save, regenerated from real files (grafted trees included: their DataFrame report
once made them unsavable).
"""

from __future__ import annotations

import importlib
import io
import itertools
import json
import os
import pickle
import random
import warnings
import zipfile

import numpy as np
import pandas as pd
import pytest
from sklearn.dummy import DummyClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import FunctionTransformer

from ternary import (
    DELTA_METHODS,
    ROUTINGS,
    TernaryForestClassifier,
    TernaryPipeline,
    TernaryTreeClassifier,
    make_pipeline,
)
from ternary.cli import main as ternary_main
from ternary.data import load_csv
from ternary.pipeline import (
    MAX_MEMBERS,
    MODEL_TYPES,
    ModelFileError,
    load_model,
)
from ternary.selective import RiskControlledClassifier
from tests.pipeline.model_fuzz import hostile_files, mutate_model, valid_model_blob

sio = pytest.importorskip("skops.io")


def _table(n: int = 160) -> bytes:
    """A credit-like file: numbers with gaps, a two-level and a many-level text column."""
    rng = np.random.default_rng(0)
    lines = ["age,sex,job,income,when,y"]
    for i in range(n):
        age = "" if i % 11 == 0 else str(20 + i % 40)
        sex = "" if i % 13 == 0 else "FM"[i % 2]
        job = "abcdefghijkl"[i % 12]
        label = ["good", "bad"][(i % 3 > 0) ^ (i % 7 == 0)]
        lines.append(f"{age},{sex},{job},{rng.normal(50, 10):.2f},2020-01-0{1 + i % 5},{label}")
    return ("\n".join(lines) + "\n").encode()


@pytest.fixture(scope="module")
def ds():
    return load_csv(_table())


@pytest.fixture(scope="module")
def tree_pipe(ds):
    tree = TernaryTreeClassifier(max_depth=3, random_state=0).fit(ds.X, ds.y)
    return make_pipeline(ds.preprocessor, tree)


def _nodes(blob: bytes) -> set[tuple[str, str]]:
    """(type, skops loader) of every node in a skops file's schema."""
    found, stack = set(), [json.loads(zipfile.ZipFile(io.BytesIO(blob)).read("schema.json"))]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "__loader__" in node:
                found.add((f"{node['__module__']}.{node['__class__']}", node["__loader__"]))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _resolve(name: str):
    module, _, attr = name.rpartition(".")
    return getattr(importlib.import_module(module), attr)


def _saved_models(ds):
    """Every kind of model ternary saves (the app's downloads, the library's estimators),
    each with rows it scores."""
    X, y, pre = ds.X, ds.y, ds.preprocessor
    raw = ds.raw.drop(columns=[ds.target])
    for delta_method, routing in itertools.product(DELTA_METHODS, ROUTINGS):
        tree = TernaryTreeClassifier(
            max_depth=3, delta_method=delta_method, routing=routing, random_state=0
        ).fit(X, y)
        yield tree, X
        yield make_pipeline(pre, tree), raw
    options = [
        {"graft": "all"},
        {"graft": "one", "routing": "deferred"},
        {"class_weight": "balanced"},
        {"class_weight": {"good": 2.0, "bad": 1.0}},
        {"criterion": "entropy", "max_features": "sqrt"},
        {"max_features": 0.5, "ccp_alpha": 0.01},
        {"delta_method": "node_bootstrap", "n_bootstraps": 5},
        {"delta_scale": "bayes", "max_depth": None},
        {"routing": "hard_middle", "min_samples_middle": 2},
    ]
    for option in options:
        yield make_pipeline(pre, TernaryTreeClassifier(random_state=0, **option).fit(X, y)), raw
    for delta_method, routing in itertools.product(DELTA_METHODS, ("probabilistic", "deferred")):
        forest = TernaryForestClassifier(
            n_estimators=3, max_depth=3, delta_method=delta_method, routing=routing, random_state=0
        ).fit(X, y)
        yield make_pipeline(pre, forest), raw
    oob = TernaryForestClassifier(
        n_estimators=3, max_depth=3, oob_score=True, class_weight="balanced", random_state=0
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # three trees leave rows out of every bag
        yield oob.fit(X, y), X
    yield TernaryForestClassifier(n_estimators=2, bootstrap=False, random_state=0).fit(X, y), X
    bare = TernaryTreeClassifier(max_depth=3, random_state=0).fit(X.to_numpy(), y)
    yield bare, X.to_numpy()  # fitted without feature names
    body = b"".join(b"%d,%d,%d\n" % (i % 7, i % 5, i % 3) for i in range(90))
    numeric = load_csv(b"a,b,y\n" + body)  # integer labels, numbers only
    tree = TernaryTreeClassifier(max_depth=2).fit(numeric.X, numeric.y)
    yield make_pipeline(numeric.preprocessor, tree), numeric.raw.drop(columns=["y"])
    risk = RiskControlledClassifier(TernaryTreeClassifier(max_depth=3, random_state=0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # few calibration rows: all flagged
        risk.fit(X, y)
    yield make_pipeline(pre, risk), raw


def test_model_types_is_exactly_what_saved_models_hold(ds):
    seen: set[tuple[str, str]] = set()
    for model, rows in _saved_models(ds):
        blob = sio.dumps(model)
        seen |= _nodes(blob)
        # skops' own list of what it would not trust by default is inside the constant
        assert set(sio.get_untrusted_types(data=blob)) <= set(MODEL_TYPES)
        loaded = load_model(blob)
        assert type(loaded) is type(model)
        np.testing.assert_array_equal(loaded.predict_proba(rows), model.predict_proba(rows))
    allowed = {(name, loader) for name, loaders in MODEL_TYPES.items() for loader in loaders}
    assert seen <= allowed
    # every other entry is the earlier name of a class seen (a file saved before it moved)
    seen_classes = {_resolve(name) for name, _ in seen if name.startswith("ternary.")}
    for name, loader in allowed - seen:
        assert _resolve(name) in seen_classes and (name.rsplit(".", 1)[1], loader) in {
            (n.rsplit(".", 1)[1], ld) for n, ld in seen
        }, name
    # no function, method or module attribute is trusted
    assert {loader for _, loader in allowed} <= {
        "ObjectNode",
        "DictNode",
        "ListNode",
        "TupleNode",
        "JsonNode",
        "NdArrayNode",
        "ConstructorFromReduceNode",
        "TypeNode",
    }
    assert {name for name, loader in allowed if loader == "TypeNode"} == {"builtins.str"}


@pytest.mark.parametrize("routing", ["probabilistic", "deferred"])
@pytest.mark.parametrize("graft", ["all", "one"])
def test_a_grafted_tree_saves_and_loads_with_its_report(ds, graft, routing):
    # graft_report_ is a DataFrame, which skops cannot save: the tree page's download of a
    # grafted tree failed ("Something went wrong while preparing the exports")
    tree = TernaryTreeClassifier(max_depth=3, graft=graft, routing=routing, random_state=0)
    tree.fit(ds.X, ds.y)
    blob = sio.dumps(make_pipeline(ds.preprocessor, tree))
    assert isinstance(tree.graft_report_, pd.DataFrame)  # saving changed nothing
    loaded = load_model(blob)
    pd.testing.assert_frame_equal(loaded[-1].graft_report_, tree.graft_report_)
    raw = ds.raw.drop(columns=[ds.target])
    np.testing.assert_array_equal(loaded.predict_proba(raw), tree.predict_proba(ds.X))
    copied = pickle.loads(pickle.dumps(tree))
    pd.testing.assert_frame_equal(copied.graft_report_, tree.graft_report_)


# --- hostile files ---------------------------------------------------------------------


def _predict(model_path, tmp_path, capsys) -> tuple[int, str]:
    data = tmp_path / "rows.csv"
    data.write_bytes(b"a,b\n1,2\n3,4\n")
    status = ternary_main(["predict", str(model_path), str(data), "--out", str(tmp_path / "o.csv")])
    return status, capsys.readouterr().err


def _eval_chain(marker, final):
    """numpy.full_like -> numpy.ravel -> builtins.max -> builtins.eval: code runs on predict."""
    code = f"__import__('pathlib').Path({str(marker)!r}).write_text('ran')"
    steps = [
        ("fill", FunctionTransformer(np.full_like, kw_args={"fill_value": code, "dtype": object})),
        ("flat", FunctionTransformer(np.ravel)),
        ("pick", FunctionTransformer(max)),
        ("run", FunctionTransformer(eval)),
    ]
    return steps + [("model", final)]


@pytest.mark.parametrize("container", [Pipeline, TernaryPipeline])
def test_function_transformer_chain_to_eval_is_refused_and_never_runs(container, tmp_path, capsys):
    marker = tmp_path / "PWNED"
    final = DummyClassifier().fit([[0, 0], [1, 1]], [0, 1])
    path = tmp_path / "evil.skops"
    sio.dump(container(_eval_chain(marker, final)), path)
    # the file does what it says on an open that trusts it (the attack is real)
    assert "builtins.eval" in sio.get_untrusted_types(file=path)
    status, err = _predict(path, tmp_path, capsys)
    assert status == 2 and "Traceback" not in err
    first = (
        "sklearn.pipeline.Pipeline"
        if container is Pipeline
        else ("sklearn.preprocessing._function_transformer.FunctionTransformer")
    )
    assert f"holds the type {first}" in err
    assert not marker.exists()
    with pytest.raises(ModelFileError, match="FunctionTransformer|Pipeline"):
        load_model(path)
    assert not marker.exists()


def _edited(blob: bytes, edit) -> bytes:
    """``blob`` with its schema.json changed by ``edit(schema)`` (the arrays kept)."""
    source = zipfile.ZipFile(io.BytesIO(blob))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "schema.json":
                schema = json.loads(data)
                edit(schema)
                data = json.dumps(schema).encode()
            target.writestr(info.filename, data)
    return out.getvalue()


def _tree_attrs(schema: dict) -> dict:
    return schema["content"]["content"]


def test_module_attribute_types_are_refused(tmp_path, capsys):
    X, y = np.arange(40.0).reshape(20, 2), np.arange(20) % 2
    tree = TernaryTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    module_os = {
        "__class__": "os",
        "__module__": "sklearn.utils._testing",
        "__loader__": "TypeNode",
        "__id__": 1,
    }
    blob = _edited(sio.dumps(tree), lambda s: _tree_attrs(s).__setitem__("helper", module_os))
    path = tmp_path / "os.skops"
    path.write_bytes(blob)
    # a prefix rule ("sklearn." is trusted) would build the tree with the os module inside
    assert "sklearn.utils._testing.os" in sio.get_untrusted_types(data=blob)
    status, err = _predict(path, tmp_path, capsys)
    assert status == 2 and "holds the type sklearn.utils._testing.os" in err


def test_os_system_is_refused(tmp_path, capsys):
    final = DummyClassifier().fit([[0, 0], [1, 1]], [0, 1])
    path = tmp_path / "system.skops"
    sio.dump(TernaryPipeline([("sh", FunctionTransformer(os.system)), ("m", final)]), path)
    status, err = _predict(path, tmp_path, capsys)
    assert status == 2 and "FunctionTransformer" in err and "Traceback" not in err
    # the function itself, were the transformer allowed, is refused by name too
    blob = _edited(
        path.read_bytes(),
        lambda s: s["content"]["content"].__setitem__(
            "steps",
            {
                "__class__": "system",
                "__module__": os.system.__module__,
                "__loader__": "FunctionNode",
                "__id__": 2,
                "content": {"module_path": os.system.__module__, "function": "system"},
            },
        ),
    )
    with pytest.raises(ModelFileError, match=rf"{os.system.__module__}\.system"):
        load_model(blob)


def test_classes_of_main_are_refused(tmp_path, capsys):
    X, y = np.arange(40.0).reshape(20, 2), np.arange(20) % 2
    tree = TernaryTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    blob = _edited(sio.dumps(tree), lambda s: s.__setitem__("__module__", "__main__"))
    path = tmp_path / "main.skops"
    path.write_bytes(blob)
    status, err = _predict(path, tmp_path, capsys)
    assert status == 2 and "holds the type __main__.TernaryTreeClassifier" in err


def test_pickles_truncated_and_empty_files_are_refused(tree_pipe, tmp_path, capsys):
    good = sio.dumps(tree_pipe)
    cases = {
        "pickle.skops": pickle.dumps(tree_pipe),
        "half.skops": good[: len(good) // 2],
        "tail.skops": good[:-30],
        "empty.skops": b"",
    }
    for name, blob in cases.items():
        path = tmp_path / name
        path.write_bytes(blob)
        status, err = _predict(path, tmp_path, capsys)
        assert status == 2, name
        assert "not a skops model file" in err or "Could not load" in err, (name, err)
        assert "Traceback" not in err
    assert not (tmp_path / "o.csv").exists()


def test_zip_bomb_is_refused_before_it_is_unpacked(tree_pipe, tmp_path, capsys):
    path = tmp_path / "bomb.skops"
    good = zipfile.ZipFile(io.BytesIO(sio.dumps(tree_pipe)))
    zeros = bytes(2**20)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as bomb:
        bomb.writestr("schema.json", good.read("schema.json"))
        with bomb.open("bomb.npy", "w", force_zip64=True) as member:
            for _ in range(600):  # 600 MB of zeros, 1 MB in memory at a time
                member.write(zeros)
    assert path.stat().st_size < 2 * 2**20
    status, err = _predict(path, tmp_path, capsys)
    assert status == 2 and "would unpack to more than" in err
    assert "'bomb.npy' declares 629,145,600" in err


def test_deflated_models_within_the_bound_load(tree_pipe, ds):
    blob = sio.dumps(tree_pipe, compression=zipfile.ZIP_DEFLATED)
    rows = ds.raw.drop(columns=[ds.target])
    assert load_model(blob).predict(rows).tolist() == tree_pipe.predict(rows).tolist()


def test_too_many_members_are_refused(tree_pipe, tmp_path, capsys):
    path = tmp_path / "many.skops"
    good = zipfile.ZipFile(io.BytesIO(sio.dumps(tree_pipe)))
    with zipfile.ZipFile(path, "w") as many:
        many.writestr("schema.json", good.read("schema.json"))
        for i in range(MAX_MEMBERS):
            many.writestr(f"{i}.npy", b"")
    status, err = _predict(path, tmp_path, capsys)
    assert status == 2 and f"has {MAX_MEMBERS + 1:,} members" in err


def test_missing_file_and_a_model_that_is_no_classifier(tmp_path):
    with pytest.raises(ModelFileError, match="No model file"):
        load_model(tmp_path / "none.skops")
    with pytest.raises(ModelFileError, match="holds a list, not a fitted classifier"):
        load_model(sio.dumps(["a"]))


def test_mutated_model_files_load_or_are_refused_never_crash():
    # the seeded corpus of benchmarks/bench_fuzz.py --models (which also times it)
    # (its mutations include values no fit makes: NaN, inf, negative, text, complex)
    blob = valid_model_blob()
    rng = random.Random(0)
    rows = pd.DataFrame({"age": ["30", "", "70"], "colour": ["red", "blue", ""],
                         "size": ["4.5", "7", ""]})  # fmt: skip
    outcomes = {"loaded": 0, "refused": 0}
    for _ in range(120):
        try:
            model = load_model(mutate_model(blob, rng))
        except ModelFileError:
            outcomes["refused"] += 1
        else:
            # a model that loads answers probabilities: never NaN, negative or above 1
            proba = model.predict_proba(rows)
            assert np.isfinite(proba).all() and proba.min() >= 0 and proba.max() <= 1
            outcomes["loaded"] += 1
    assert outcomes["refused"] > 60 and outcomes["loaded"] + outcomes["refused"] == 120


def test_named_hostile_files_are_refused(tmp_path):
    blob = valid_model_blob()
    for name, path in hostile_files(tmp_path, blob):
        with pytest.raises(ModelFileError):
            load_model(path)
        assert not (tmp_path / "PWNED").exists(), name


def test_a_member_lying_about_its_size_is_never_inflated_whole(tree_pipe, tmp_path):
    # 600 MB of zeros as a deflated schema.json that declares 1 KB (and the CRC of its
    # first 1 KB): a plain read() of it (skops reads the schema so) inflates all 600 MB
    # before zipfile cuts the result to 1 KB
    import struct
    import subprocess
    import sys
    import zlib

    archive = zipfile.ZipFile(io.BytesIO(sio.dumps(tree_pipe)))
    first = "schema.json"
    path = tmp_path / "liar.skops"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as liar:
        for name in archive.namelist():
            if name != first:
                liar.writestr(name, archive.read(name))
        with liar.open(first, "w") as member:
            for _ in range(600):
                member.write(bytes(2**20))
    data = bytearray(path.read_bytes())
    crc, size = struct.pack("<I", zlib.crc32(bytes(1024))), struct.pack("<I", 1024)
    with zipfile.ZipFile(path) as z:
        local, entry = z.getinfo(first).header_offset, z.start_dir  # the central directory
    data[local + 14 : local + 18], data[local + 22 : local + 26] = crc, size
    while data[entry + 46 : entry + 46 + len(first)] != first.encode():
        entry = data.find(b"PK\x01\x02", entry + 4)
    data[entry + 16 : entry + 20], data[entry + 24 : entry + 28] = crc, size
    path.write_bytes(bytes(data))
    assert zipfile.ZipFile(path).getinfo(first).file_size == 1024
    # the peak is VmHWM, this process image's own: ru_maxrss keeps the forking pytest
    # worker's peak across exec (623 MB under xdist), which measured the worker, not this
    code = (
        "import sys\n"
        "from ternary.pipeline import ModelFileError, load_model\n"
        "try:\n"
        "    load_model(sys.argv[1])\n"
        "except ModelFileError as exc:\n"
        "    print('refused', exc)\n"
        "status = open('/proc/self/status').read().split('VmHWM:')[1].split()\n"
        "print(int(status[0]) // 1024)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    *_, peak_mb = out.stdout.split()
    assert "refused" in out.stdout or "Could not load" in out.stdout
    assert int(peak_mb) < 450, out.stdout  # the 600 MB were never held
