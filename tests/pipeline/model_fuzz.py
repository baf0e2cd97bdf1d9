"""Hostile and mutated model files, for tests/pipeline/test_modelfile.py and
benchmarks/bench_fuzz.py (``--models``): each is made here, from a small saved pipeline."""

from __future__ import annotations

import io
import json
import pickle
import random
import struct
import zipfile
from pathlib import Path

import numpy as np

from tests.data.test_fuzz import mutate

#: (module, name, skops loader) a hostile node may claim
HOSTILE_NODES = [
    ("builtins", "eval", "TypeNode"),
    ("builtins", "exec", "FunctionNode"),
    ("posix", "system", "FunctionNode"),
    ("sklearn.utils._testing", "os", "TypeNode"),
    ("subprocess", "Popen", "ObjectNode"),
    ("sklearn.preprocessing._function_transformer", "FunctionTransformer", "ObjectNode"),
    ("numpy", "full_like", "FunctionNode"),
    ("builtins", "getattr", "OperatorFuncNode"),
    ("functools", "partial", "PartialNode"),
    ("numpy", "ndarray", "ReduceNode"),
    ("builtins", "str", "MethodNode"),
    ("__main__", "Anything", "ObjectNode"),
]


def valid_model_blob(n: int = 200) -> bytes:
    """A saved pipeline of a file's preprocessor and a ternary tree (text, gaps, numbers)."""
    import skops.io as sio

    from ternary import TernaryTreeClassifier, make_pipeline
    from ternary.data import load_csv

    rng = np.random.default_rng(0)
    lines = ["age,colour,size,y"]
    for i in range(n):
        age = "" if i % 9 == 0 else str(int(rng.integers(18, 80)))
        colour = ["red", "green", "blue", ""][i % 4]
        size = rng.normal(5, 2)
        lines.append(f"{age},{colour},{size:.2f},{'yes' if size > 5 else 'no'}")
    ds = load_csv(("\n".join(lines) + "\n").encode())
    tree = TernaryTreeClassifier(max_depth=3, random_state=0).fit(ds.X, ds.y)
    return sio.dumps(make_pipeline(ds.preprocessor, tree))


def rezip(blob: bytes, replace: dict[str, bytes]) -> bytes:
    """``blob``'s archive with the members in ``replace`` given new bytes."""
    source = zipfile.ZipFile(io.BytesIO(blob))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            target.writestr(info.filename, replace.get(info.filename, source.read(info)))
    return out.getvalue()


def _node_mutation(schema: dict, rng: random.Random) -> None:
    """One node of ``schema`` claims a hostile type or loader, or loses a key."""
    nodes, stack = [], [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "__loader__" in node:
                nodes.append(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    node = rng.choice(nodes)
    kind = rng.randrange(4)
    if kind == 0:
        node["__module__"], node["__class__"], node["__loader__"] = rng.choice(HOSTILE_NODES)
    elif kind == 1:
        node["__loader__"] = rng.choice(HOSTILE_NODES)[2]
    elif kind == 2:
        node.pop(rng.choice(sorted(node)))
    else:
        node["content"] = rng.choice([None, [], {}, "x" * 1000, [[[[]]]], {"attrs": 1}])


def mutate_model(blob: bytes, rng: random.Random) -> bytes:
    """One mutation of a model file: its archive's bytes, its schema's bytes, a node of its
    schema, or an array member's bytes."""
    kind = rng.randrange(4)
    if kind == 0:
        return mutate(blob, rng)
    archive = zipfile.ZipFile(io.BytesIO(blob))
    schema = archive.read("schema.json")
    if kind == 1:
        return rezip(blob, {"schema.json": mutate(schema, rng)})
    if kind == 2:
        tree = json.loads(schema)
        for _ in range(rng.randint(1, 3)):
            _node_mutation(tree, rng)
        return rezip(blob, {"schema.json": json.dumps(tree).encode()})
    arrays = [n for n in archive.namelist() if n.endswith(".npy")]
    name = rng.choice(arrays)
    return rezip(blob, {name: mutate(archive.read(name), rng)})


def _lying_size(blob: bytes, member: str, declared: int) -> bytes:
    """``blob`` with ``member``'s declared unpacked size set to ``declared`` in both of its
    headers (the data left as it is)."""
    data = bytearray(blob)
    info = zipfile.ZipFile(io.BytesIO(blob)).getinfo(member)
    data[info.header_offset + 22 : info.header_offset + 26] = struct.pack("<I", declared)
    name = member.encode()
    at = data.find(b"PK\x01\x02")
    while at >= 0:
        length = struct.unpack("<H", data[at + 28 : at + 30])[0]
        if data[at + 46 : at + 46 + length] == name:
            data[at + 24 : at + 28] = struct.pack("<I", declared)
        at = data.find(b"PK\x01\x02", at + 4)
    return bytes(data)


def hostile_files(folder: Path, blob: bytes) -> list[tuple[str, Path]]:
    """Named hostile model files written to ``folder``: (what it is, path)."""
    import skops.io as sio
    from sklearn.dummy import DummyClassifier
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import FunctionTransformer

    files: list[tuple[str, Path]] = []

    def add(name: str, data: bytes) -> None:
        path = folder / f"hostile{len(files)}.skops"
        path.write_bytes(data)
        files.append((name, path))

    code = f"__import__('pathlib').Path({str(folder / 'PWNED')!r}).write_text('ran')"
    chain = Pipeline(
        [
            ("f", FunctionTransformer(np.full_like, kw_args={"fill_value": code, "dtype": object})),
            ("r", FunctionTransformer(np.ravel)),
            ("m", FunctionTransformer(max)),
            ("e", FunctionTransformer(eval)),
            ("c", DummyClassifier().fit([[0], [1]], [0, 1])),
        ]
    )
    add("FunctionTransformer chain to builtins.eval", sio.dumps(chain))
    schema = json.loads(zipfile.ZipFile(io.BytesIO(blob)).read("schema.json"))
    schema["content"]["content"]["x"] = {
        "__class__": "os",
        "__module__": "sklearn.utils._testing",
        "__loader__": "TypeNode",
        "__id__": 1,
    }
    add(
        "sklearn.utils._testing.os in a pipeline",
        rezip(blob, {"schema.json": json.dumps(schema).encode()}),
    )
    bomb = folder / "bomb.skops"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("schema.json", zipfile.ZipFile(io.BytesIO(blob)).read("schema.json"))
        with z.open("bomb.npy", "w", force_zip64=True) as member:
            for _ in range(600):
                member.write(bytes(2**20))
    files.append(("zip bomb: one member of 600 MB of zeros", bomb))
    many = io.BytesIO()
    with zipfile.ZipFile(many, "w") as z:
        z.writestr("schema.json", zipfile.ZipFile(io.BytesIO(blob)).read("schema.json"))
        for i in range(50_000):
            z.writestr(f"{i}.npy", b"")
    add("50,001 members", many.getvalue())
    archive = zipfile.ZipFile(io.BytesIO(blob))
    first = next(n for n in archive.namelist() if n.endswith(".npy"))
    deflated = io.BytesIO()
    with zipfile.ZipFile(deflated, "w", zipfile.ZIP_DEFLATED) as z:
        for name in archive.namelist():
            z.writestr(name, bytes(30 * 2**20) if name == first else archive.read(name))
    add("an array member of 30 MB declared as 1 KB", _lying_size(deflated.getvalue(), first, 1024))
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": "<f8", "fortran_order": False, "shape": (10**9,)}
    )
    add("an .npy header declaring 10⁹ values", rezip(blob, {first: header.getvalue() + bytes(64)}))
    add("a schema nested 100,000 lists deep", rezip(blob, {"schema.json": b"[" * 100_000}))
    add("a pickle renamed .skops", pickle.dumps({"a": 1}))
    add("an empty file", b"")
    add("the pipeline cut in half", blob[: len(blob) // 2])
    return files
