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


#: values no fit makes, which a mutation writes into a node array (issue 36)
HOSTILE_VALUES = [np.nan, np.inf, -np.inf, -1.0, -1e-9, 1e308, -1e308, 2.0, 10**12]


def _value_mutation(blob: bytes, rng: random.Random) -> bytes:
    """One array member of ``blob`` with one entry set to a hostile value (or cast to
    text, complex or another width)."""
    archive = zipfile.ZipFile(io.BytesIO(blob))
    name = rng.choice([n for n in archive.namelist() if n.endswith(".npy")])
    array = np.load(io.BytesIO(archive.read(name)))
    if array.size and array.dtype.kind in "fiub":
        cast = rng.choice([None, None, None, "U8", complex, np.int32, ">f8", np.float32])
        array = array.astype(cast) if cast is not None else array.astype(np.float64)
        if cast is None:
            array.flat[rng.randrange(array.size)] = rng.choice(HOSTILE_VALUES)
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    return rezip(blob, {name: buffer.getvalue()})


def _end_mutation(blob: bytes, rng: random.Random) -> bytes:
    """``blob`` with its end record's bytes changed, or a ZIP64 record put before it."""
    if rng.random() < 0.3:
        return with_zip64_end(blob, marks=rng.random() < 0.5)
    data = bytearray(blob)
    for _ in range(rng.randint(1, 3)):
        data[len(data) - rng.randint(1, 22)] = rng.choice([0, 0xFF, 0x50, 0x4B, 5, 6, 1])
    return bytes(data)


def mutate_model(blob: bytes, rng: random.Random) -> bytes:
    """One mutation of a model file: its archive's bytes, its schema's bytes, a node of its
    schema, an array member's bytes, an array's values or dtype, or its end record."""
    kind = rng.randrange(6)
    if kind == 0:
        return mutate(blob, rng)
    if kind == 4:
        return _value_mutation(blob, rng)
    if kind == 5:
        return _end_mutation(blob, rng)
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


# --- archives whose end records or schema walk around the bounds (issue 36) -------------


def _entry(name: bytes) -> bytes:
    """A central directory entry of an empty stored member (no local header behind it)."""
    fields = (b"PK\x01\x02", 20, 20, 0, 0, 0, 0, 0, 0, 0, len(name), 0, 0, 0, 0, 0, 0)
    return struct.pack("<4s6H3L5H2L", *fields) + name


def _directory(n: int) -> bytes:
    return b"".join(_entry(b"%07d.npy" % i) for i in range(n))


def _end(on_disk: int, total: int, size: int, offset: int, comment: bytes = b"") -> bytes:
    return struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, on_disk, total, size, offset, len(comment))


def _zip64_end(entries: int, size: int, offset: int, where: int) -> bytes:
    """A ZIP64 end record at ``where`` and its locator."""
    record = struct.pack(
        "<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, entries, entries, size, offset
    )
    return record + struct.pack("<4sLQL", b"PK\x06\x07", 0, where, 1)


def counts_spell_the_signature(n: int) -> bytes:
    """A directory of ``n`` entries whose end record's two entry counts spell
    ``PK\\x05\\x06``: a search for the last signature lands inside the record."""
    directory = _directory(n)
    return directory + _end(0x4B50, 0x0605, len(directory), 0)


def zip64_behind_classic(n: int) -> bytes:
    """A directory of ``n`` entries, stated by a ZIP64 end record, behind a classic end
    record stating its first entry alone (zipfile reads the ZIP64 one)."""
    directory = _directory(n)
    first = len(_entry(b"0000000.npy"))
    return directory + _zip64_end(n, len(directory), 0, len(directory)) + _end(1, 1, first, 0)


def with_zip64_end(blob: bytes, marks: bool = False) -> bytes:
    """``blob`` given a ZIP64 end record that agrees with its classic one (which states
    "see ZIP64", all bits set, when ``marks``)."""
    at = blob.rfind(b"PK\x05\x06")
    _, _, _, n, _, size, offset, _ = struct.unpack("<4s4H2LH", blob[at : at + 22])
    classic = _end(0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF) if marks else blob[at : at + 22]
    return blob[:at] + _zip64_end(n, size, offset, at) + classic


def end_record_past_the_end(blob: bytes) -> bytes:
    """``blob`` whose end record states a 100-byte comment the file does not have."""
    return blob[:-2] + struct.pack("<H", 100)


def fake_end_in_comment(blob: bytes) -> bytes:
    """``blob`` whose comment is a second end record, stating one entry."""
    at = blob.rfind(b"PK\x05\x06")
    _, _, _, _, _, size, offset, _ = struct.unpack("<4s4H2LH", blob[at : at + 22])
    fake = _end(1, 1, size, offset)
    real = _end(*struct.unpack("<4H2L", blob[at + 4 : at + 20])[2:], comment=fake)
    return blob[:at] + real + fake


def _with_extra(blob: bytes, node: dict, members: dict[str, bytes] | None = None,
                raw: tuple[str, str] | None = None) -> bytes:  # fmt: skip
    """``blob`` (a saved pipeline or estimator) whose final estimator gets the attribute
    ``extra`` = ``node``, deflated, with ``members`` added; ``raw`` replaces a placeholder
    in the schema's text."""
    archive = zipfile.ZipFile(io.BytesIO(blob))
    schema = json.loads(archive.read("schema.json"))
    attrs = schema["content"]  # the estimator's attributes (a DictNode)
    if "steps" in attrs["content"]:
        attrs = attrs["content"]["steps"]["content"][-1]["content"][1]["content"]
    attrs["content"]["extra"] = node
    attrs["key_types"]["content"].append(attrs["key_types"]["content"][0])  # str
    text = json.dumps(schema)
    if raw is not None:
        text = text.replace(*raw)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in archive.infolist():
            if info.filename != "schema.json":
                target.writestr(info.filename, archive.read(info))
        for name, data in (members or {}).items():
            target.writestr(name, data)
        target.writestr("schema.json", text)
    return out.getvalue()


def _json_node(content: str, i: int = 0) -> dict:
    return {"__class__": "str", "__module__": "builtins", "__loader__": "JsonNode",
            "content": content, "is_json": True, "__id__": 10**9 + i}  # fmt: skip


def _list_node(items: list, i: int = 0) -> dict:
    return {"__class__": "list", "__module__": "builtins", "__loader__": "ListNode",
            "content": items, "__id__": 2 * 10**9 + i}  # fmt: skip


def dicts_in_a_json_node(blob: bytes, mib: float, escaped: bool = False) -> bytes:
    """A JsonNode whose text is ``mib`` MiB of ``[{},{},…]`` (``escaped``: each ``{``, ``}``
    and ``,`` written ``\\u007b`` and so on in the schema's text, which skops' second parse
    of the node's text reads as dicts)."""
    unit = "\\u007b\\u007d\\u002c" if escaped else "{},"
    k = int(mib * 2**20) // len(unit)
    return _with_extra(blob, _json_node("PLACEHOLDER"), raw=('"PLACEHOLDER"',
                       '"[' + unit * k + '0]"'))  # fmt: skip


def many_nodes(blob: bytes, n: int) -> bytes:
    """A list of ``n`` JsonNodes, each the number 0."""
    return _with_extra(blob, _list_node([_json_node("0", i) for i in range(n)]))


def one_array_read_many_times(blob: bytes, mib: int, times: int) -> bytes:
    """``times`` array nodes all naming one member of ``mib`` MiB of zeros (deflated)."""
    buffer = io.BytesIO()
    np.save(buffer, np.zeros(mib * 2**17))
    node = {"__class__": "ndarray", "__module__": "numpy", "__loader__": "NdArrayNode",
            "type": "numpy", "file": "zeros.npy"}  # fmt: skip
    items = [{**node, "__id__": 3 * 10**9 + i} for i in range(times)]
    return _with_extra(blob, _list_node(items), {"zeros.npy": buffer.getvalue()})


def issue36_files(blob: bytes, entries: int = 200_000) -> list[tuple[str, bytes]]:
    """Issue 36's model files that walk around the bounds: (what it is, bytes)."""
    return [
        (f"end record's counts spell its signature, {entries:,} entries",
         counts_spell_the_signature(entries)),
        (f"ZIP64 record of {entries:,} entries behind a classic one of 1",
         zip64_behind_classic(entries)),
        ("end record stating a comment the file lacks", end_record_past_the_end(blob)),
        ("a second end record in the comment", fake_end_in_comment(blob)),
        ("24 MiB of `[{},…]` in a JsonNode, deflated", dicts_in_a_json_node(blob, 24)),
        ("12 MiB of `[{},…]` in a JsonNode, deflated", dicts_in_a_json_node(blob, 12)),
        ("12 MiB of escaped `{},` in a JsonNode", dicts_in_a_json_node(blob, 12, True)),
        ("60,000 schema nodes", many_nodes(blob, 60_000)),
        ("45,000 schema nodes, the most the bounds let through", many_nodes(blob, 45_000)),
        ("one 8 MiB array read by 20 nodes", one_array_read_many_times(blob, 8, 20)),
    ]  # fmt: skip
