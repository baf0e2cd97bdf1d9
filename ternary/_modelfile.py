"""Open a saved model (a skops file) without running anything the file brings along.

A skops file is a zip archive: ``schema.json`` describes the objects, one node per
object with its type (``__module__`` + ``__class__``) and the skops loader that builds
it (``__loader__``), and ``.npy`` members hold the arrays. skops builds only the types
it is told to trust, but "trust" is the caller's to decide, and a prefix rule such as
"every ``numpy.`` or ``builtins.`` name" lets a file call ``numpy.full_like`` and
``builtins.eval`` through scikit-learn's ``FunctionTransformer``. `load_model` trusts
exactly `MODEL_TYPES`: the types, each with the loaders, that the models this project
saves contain (the trees, the forest, the pipeline with its ``Preprocessor``). No
function, no method, no module attribute is among them, so nothing in an accepted
file can be called while it is built.

The archive is measured before anything is unpacked: first its end record (the
member count, and the directory's size, which is what `zipfile` parses on opening),
then its directory: at most `MAX_MEMBERS` members, and the sizes they declare
unpacked, each and summed, within ``max(MIN_UNPACKED_BYTES, MAX_RATIO * file size)``
and never above `MAX_UNPACKED_BYTES`; ``schema.json`` at most `MAX_SCHEMA_BYTES`.
The members are then unpacked 1 MiB at a time, each to at most its declared size and
checked against its CRC, into an uncompressed archive, which is what skops reads: a
single ``read()`` of a deflated member would inflate all of its data at once (zipfile
cuts it to the declared size only afterwards), so a member that lies about its size
could still take gigabytes. These bounds therefore bound what reading the file takes. For scale:
the largest forest the app fits (100 trees of depth 12 on 8,000 rows) is a 7.2 MB file
of 1,402 members, its schema 2.4 MB; compressed with deflate it unpacks 4.7 times.
"""

from __future__ import annotations

import io
import json
import os
import struct
import tempfile
import zipfile
from typing import Any

__all__ = [
    "MAX_MEMBERS",
    "MAX_RATIO",
    "MAX_SCHEMA_BYTES",
    "MAX_UNPACKED_BYTES",
    "MIN_UNPACKED_BYTES",
    "MODEL_TYPES",
    "ModelFileError",
    "load_model",
]

#: Every type a model saved by ternary holds, with the skops loaders that build it;
#: derived by saving every kind of model the app and the library save (tree and forest
#: with every δ method, routing and option, pipelines with a file's ``Preprocessor``)
#: and listing the nodes of each file (tests/pipeline/test_modelfile.py regenerates it).
#: A class that moves keeps its earlier name here while that name still imports it.
MODEL_TYPES: dict[str, tuple[str, ...]] = {
    "builtins.dict": ("DictNode",),
    "builtins.frozenset": ("ConstructorFromReduceNode",),
    "builtins.list": ("ListNode",),
    "builtins.str": ("JsonNode", "TypeNode"),
    "builtins.tuple": ("TupleNode",),
    "numpy.ndarray": ("NdArrayNode",),
    "ternary._classes.TernaryTreeClassifier": ("ObjectNode",),
    "ternary._forest.TernaryForestClassifier": ("ObjectNode",),
    "ternary.data._preprocess.Preprocessor": ("ObjectNode",),
    # one column's rule, by the module it is defined in (``_encode``) and the one files
    # saved before it moved there name (``_preprocess``, which still exports it)
    "ternary.data._encode._Rule": ("ObjectNode",),
    "ternary.data._preprocess._Rule": ("ObjectNode",),
    "ternary.pipeline.TernaryPipeline": ("ObjectNode",),
    "ternary.selective.RiskControlledClassifier": ("ObjectNode",),
    "ternary.tree.TernaryTree": ("ObjectNode",),
}
#: most members an archive may have (the app's largest forest has 1,402)
MAX_MEMBERS = 50_000
#: most bytes the members may unpack to per byte of the file (deflate packs a saved
#: forest about 5 to 1; a zip bomb of zeros about 1000 to 1)
MAX_RATIO = 100
#: what any file may unpack to, whatever its size (small files compress well too)
MIN_UNPACKED_BYTES = 64 * 2**20
#: what no file may unpack to (1 GiB), nor be
MAX_UNPACKED_BYTES = 2**30
#: the largest ``schema.json`` read (parsed JSON takes several times its size)
MAX_SCHEMA_BYTES = 64 * 2**20
# a zip archive's end record; a directory entry's bytes on average, at most (46 bytes of
# fields, then the member's name: skops names its arrays with about 20 characters)
_END_RECORD = 22
_ENTRY_BYTES = 300


class ModelFileError(ValueError):
    """A file that is not a model ternary saved, or one it will not open; the message says why."""


def _archive(source: Any, name: str) -> tuple[Any, int]:
    """An open binary file of ``source`` (a path or the bytes) and its size."""
    if isinstance(source, (bytes, bytearray)):
        data = bytes(source)
        return io.BytesIO(data), len(data)
    path = os.fspath(source)
    if not os.path.isfile(path):
        raise ModelFileError(f"No model file {name}. Give the path of a .skops file.")
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed by load_model
    except OSError as exc:
        raise ModelFileError(f"Could not open {name}: {exc.strerror or exc}.") from exc
    return handle, os.fstat(handle.fileno()).st_size


def _check_directory(handle, size: int, name: str) -> None:
    """Refuse, from the end record alone, an archive whose directory passes the bounds.

    `zipfile` reads every entry of the central directory when it opens an archive, as
    many as the directory's size holds (whatever count the end record states), so the
    count and the directory's size are checked first: at most `MAX_MEMBERS` entries of
    at most `_ENTRY_BYTES` each on average. An archive without an end record is left to
    `zipfile`, which refuses it.
    """
    tail_size = min(size, _END_RECORD + 0xFFFF)  # the record, then a comment of <= 64 KiB
    handle.seek(size - tail_size)
    tail = handle.read(tail_size)
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) - at < _END_RECORD:
        return
    entries, directory = struct.unpack("<H2L", tail[at + 10 : at + 20])[0:2]
    if entries > MAX_MEMBERS or directory > MAX_MEMBERS * _ENTRY_BYTES:
        raise ModelFileError(
            f"{name} has {entries:,} members in a {directory:,}-byte directory, more than "
            f"the {MAX_MEMBERS:,} members a saved model may have; it is not read."
        )


def _check_members(archive: zipfile.ZipFile, size: int, name: str) -> None:
    """Refuse an archive whose members, by number or declared size, pass the bounds."""
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise ModelFileError(
            f"{name} has {len(infos):,} members, more than the {MAX_MEMBERS:,} a saved "
            "model may have; it is not read."
        )
    bound = min(MAX_UNPACKED_BYTES, max(MIN_UNPACKED_BYTES, MAX_RATIO * size))
    total = 0
    for info in infos:
        total += info.file_size
        if info.file_size > bound or total > bound:
            raise ModelFileError(
                f"{name} would unpack to more than {bound:,} bytes (member "
                f"{info.filename!r} declares {info.file_size:,} from a {size:,}-byte "
                f"file; the bound is {MAX_RATIO} times the file's size, at least "
                f"{MIN_UNPACKED_BYTES:,} and at most {MAX_UNPACKED_BYTES:,} bytes); "
                "it is not read."
            )
    try:
        schema = archive.getinfo("schema.json")
    except KeyError:
        raise ModelFileError(f"{name} is not a skops model file (it has no schema.json).") from None
    if schema.file_size > MAX_SCHEMA_BYTES:
        raise ModelFileError(
            f"{name}'s schema.json declares {schema.file_size:,} bytes, more than the "
            f"{MAX_SCHEMA_BYTES:,} a saved model's may have; it is not read."
        )


def _unpacked(archive: zipfile.ZipFile, name: str):
    """The members of ``archive`` unpacked, 1 MiB at a time, into an uncompressed archive.

    A single ``read()`` of a deflated member inflates all of its data at once, however
    small the size it declares (zipfile only cuts the result to that size afterwards),
    so skops is never given compressed data: here no call inflates more than 1 MiB, no
    member gives more than it declares, and each is checked against its CRC.
    """
    spool = tempfile.SpooledTemporaryFile(max_size=MIN_UNPACKED_BYTES)
    try:
        with zipfile.ZipFile(spool, "w", zipfile.ZIP_STORED) as plain:
            for info in archive.infolist():
                if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                    raise ModelFileError(
                        f"{name}'s member {info.filename!r} uses a compression skops never "
                        "writes (only stored and deflated members are read)."
                    )
                with archive.open(info) as source, plain.open(info.filename, "w") as target:
                    while chunk := source.read(2**20):
                        target.write(chunk)
    except ModelFileError:
        spool.close()
        raise
    except Exception as exc:  # noqa: BLE001 - CRC, zlib and truncation errors alike
        spool.close()
        raise ModelFileError(
            f"{name} is not a skops model file (a member cannot be unpacked: "
            f"{type(exc).__name__}: {exc})."
        ) from exc
    spool.seek(0)
    return spool


def _first_untrusted(schema: Any) -> str | None:
    """The first node (in the file's order) whose type or loader is not `MODEL_TYPES`'."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "__loader__" in node:
                module, cls, loader = (
                    node.get("__module__"),
                    node.get("__class__"),
                    node.get("__loader__"),
                )
                kind = f"{module}.{cls}"
                if loader not in MODEL_TYPES.get(kind, ()):
                    return f"{kind} (built by skops' {loader})"
            stack.extend(reversed(list(node.values())))
        elif isinstance(node, list):
            stack.extend(reversed(node))
    return None


def _checked_schema(archive: zipfile.ZipFile, name: str) -> None:
    try:
        schema = json.loads(archive.read("schema.json"))
    except (ValueError, RecursionError, zipfile.BadZipFile, OSError, EOFError) as exc:
        raise ModelFileError(
            f"{name} is not a skops model file (its schema.json: {type(exc).__name__})."
        ) from exc
    untrusted = _first_untrusted(schema)
    if untrusted is not None:
        raise ModelFileError(
            f"{name} holds the type {untrusted}, which no model saved by ternary holds, "
            "so it is not loaded (a file can run code through such types). Open it with "
            "skops.io.load yourself only if you trust where it came from."
        )


def _trees(model: Any):
    """Every (owner, tree) pair in ``model``: objects with a ``tree_``, and that tree."""
    seen: set[int] = set()
    stack = [model]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, (str, bytes, int, float)):
            continue
        seen.add(id(obj))
        if isinstance(obj, dict):
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple)):
            stack.extend(obj)
        elif type(obj).__module__.startswith("ternary") and hasattr(obj, "__dict__"):
            if "tree_" in vars(obj):
                yield obj, obj.tree_
            stack.extend(vars(obj).values())


def _check_trees(model: Any, name: str) -> None:
    """Refuse a model whose trees' arrays the routing kernels would read out of bounds.

    The kernels index the node arrays by the child ids and the rows by the split
    features without bounds checks, so a file that holds only allowed types can still
    crash the process (a child id past the end) or loop for ever (a child pointing
    back); in a tree this project fits (grafted ones too) every node but the root has
    one parent.
    """
    from ternary.tree import TernaryTree

    for owner, tree in _trees(model):
        n_features = getattr(owner, "n_features_in_", None)
        problem = _tree_problem(tree, n_features, TernaryTree) or _owner_problem(
            owner, tree, n_features
        )
        if problem is not None:
            raise ModelFileError(
                f"{name} holds a damaged tree ({problem}); a tree ternary fits has none, "
                "so it is not loaded."
            )


def _owner_problem(owner: Any, tree: Any, n_features: Any) -> str | None:
    """What does not fit between an estimator's arrays and its (sound) tree, or None."""
    import numpy as np

    classes = getattr(owner, "classes_", None)
    if not isinstance(classes, np.ndarray) or classes.shape != (tree.value.shape[1],):
        return "its classes do not match its leaves' class columns"
    scale = getattr(owner, "_feature_scale", None)  # read per split feature by the ranking
    if scale is not None and (not isinstance(scale, np.ndarray) or scale.shape != (n_features,)):
        return "_feature_scale does not have one entry per feature"
    return None


def _tree_problem(tree: Any, n_features: Any, kind: Any) -> str | None:
    """What is wrong with ``tree``'s structure, or None."""
    import numpy as np

    if not isinstance(tree, kind):
        return f"its tree_ is a {type(tree).__name__}, not a TernaryTree"
    if not isinstance(n_features, int) or n_features < 1:
        return "its number of features is missing"
    arrays: dict[str, Any] = {a: getattr(tree, a, None) for a in kind._ARRAYS}
    if not all(isinstance(a, np.ndarray) for a in arrays.values()):
        return "a node array is missing"
    n = arrays["children_left"].shape[0] if arrays["children_left"].ndim == 1 else 0
    for attr, array in arrays.items():
        ndim = 2 if attr == "value" else 1
        if n < 1 or array.ndim != ndim or array.shape[0] != n or array.dtype.hasobject:
            return f"{attr} does not have one entry per node"
    if arrays["value"].shape[1] < 1:
        return "value has no classes"
    children = []
    for attr in ("children_left", "children_right", "children_middle"):
        child = arrays[attr]
        if child.dtype.kind not in "iu" or not np.all((child >= -1) & (child < n)):
            return f"{attr} names a node that is not in the tree"
        children.append(child[child >= 0])
    # one parent per node and none for the root: then no walk from the root meets a
    # node twice (a cycle it can reach would give its first node two parents)
    parents = np.bincount(np.concatenate(children).astype(np.intp), minlength=n)
    if parents[0] or np.any(parents > 1):
        return "a node is the child of two splits, or of its own subtree"
    inner = arrays["children_left"] != -1
    feature = arrays["feature"]
    if feature.dtype.kind not in "iu" or np.any(arrays["children_right"][inner] == -1):
        return "a split has no right child"
    if np.any((feature[inner] < 0) | (feature[inner] >= n_features)):
        return f"a split tests a feature outside the model's {n_features}"
    return None


def load_model(source, *, name: str | None = None):
    """The fitted model in a skops file, built only from the types ternary's models hold.

    The archive is measured before it is unpacked (members and declared sizes, see
    the bounds in ``ternary.pipeline``'s `MAX_MEMBERS`, `MAX_RATIO`,
    `MIN_UNPACKED_BYTES`, `MAX_UNPACKED_BYTES` and `MAX_SCHEMA_BYTES`), then every
    object it describes must be one of `MODEL_TYPES`, built the way ternary saves it.
    A scikit-learn ``FunctionTransformer``, a function, a module attribute or a class
    of another package is refused before anything is built, with its name.

    Parameters
    ----------
    source : str, os.PathLike or bytes
        The path of the file (``.skops``, the app's model download or
        ``skops.io.dump(model, path)``), or its bytes.
    name : str, optional
        How messages name the file; default its path, or "the model file" for bytes.

    Returns
    -------
    estimator
        The fitted model: a `TernaryPipeline`, a ternary tree or forest (anything
        `MODEL_TYPES` allows that has ``classes_`` and ``predict_proba``).

    Raises
    ------
    ModelFileError
        When the file is missing, is not a skops archive, passes a bound, holds a
        type outside `MODEL_TYPES`, cannot be built, holds no classifier, or holds a
        tree whose arrays the routing would read out of bounds or walk in a cycle; the
        message says which.
    ternary._optional.MissingOptionalDependency
        When skops is not installed (the message says how to install it).

    Examples
    --------
    >>> import skops.io as sio
    >>> from sklearn.datasets import make_moons
    >>> from ternary import TernaryTreeClassifier
    >>> from ternary.pipeline import load_model
    >>> X, y = make_moons(100, random_state=0)
    >>> tree = TernaryTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    >>> bool((load_model(sio.dumps(tree)).predict(X) == tree.predict(X)).all())
    True
    """
    from ternary._optional import optional_import

    sio = optional_import("skops.io", "Reading a model")
    if name is None:
        name = "the model file" if isinstance(source, (bytes, bytearray)) else repr(str(source))
    handle, size = _archive(source, name)
    with handle:
        if size > MAX_UNPACKED_BYTES:
            raise ModelFileError(
                f"{name} is {size:,} bytes, more than the {MAX_UNPACKED_BYTES:,} a saved "
                "model may be; it is not read."
            )
        _check_directory(handle, size, name)
        handle.seek(0)
        try:
            archive = zipfile.ZipFile(handle)
        except Exception as exc:  # noqa: BLE001 - whatever zipfile raises, it is no archive
            raise ModelFileError(
                f"{name} is not a skops model file (not a zip archive: {type(exc).__name__})."
            ) from exc
        with archive:
            _check_members(archive, size, name)
            unpacked = _unpacked(archive, name)
    with unpacked:
        with zipfile.ZipFile(unpacked) as plain:
            _checked_schema(plain, name)
        unpacked.seek(0)
        try:
            model = sio.load(unpacked, trusted=sorted(MODEL_TYPES))
        except Exception as exc:  # noqa: BLE001 - a damaged file fails in many ways
            raise ModelFileError(f"Could not load {name}: {type(exc).__name__}: {exc}") from exc
    if not (hasattr(model, "predict_proba") and hasattr(model, "classes_")):
        raise ModelFileError(f"{name} holds a {type(model).__name__}, not a fitted classifier.")
    _check_trees(model, name)
    return model
