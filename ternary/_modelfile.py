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

The archive is measured before anything is unpacked: first its end records, read as the
zip format defines them and refused when `zipfile` would read them otherwise or a ZIP64
record disagrees with the classic one, and its directory, walked entry by entry (the
member count, and the directory's size, which is what `zipfile` parses on opening; see
``ternary._zipcheck``); then the members: at most `MAX_MEMBERS`, and the sizes they declare
unpacked, each and summed, within ``max(MIN_UNPACKED_BYTES, MAX_RATIO * file size)``
and never above `MAX_UNPACKED_BYTES`; ``schema.json`` at most twice the file's size
(16 MiB whatever the size, never above `MAX_SCHEMA_BYTES`), its parse bounded in the
objects it builds as well (``ternary._schemacheck``). Once built, the model's trees,
forests and classes are checked for what no fit makes (``ternary._modelcheck``).
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
import tempfile
import zipfile
from typing import Any

from ternary._modelcheck import model_problem
from ternary._schemacheck import parse_estimate, schema_problem
from ternary._zipcheck import directory_problem

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
#: the largest ``schema.json`` read (parsed JSON takes several times its size); below it,
#: at most ``_SCHEMA_RATIO`` times the file's size, and ``_MIN_SCHEMA_BYTES`` whatever the
#: size (the app's largest forest has 2.6 MB, 1.4 times its file deflated)
MAX_SCHEMA_BYTES = 64 * 2**20
_MIN_SCHEMA_BYTES = 16 * 2**20
_SCHEMA_RATIO = 2
#: what the schema's parses may take, estimated (``ternary._schemacheck``): this much, or
#: this many times the file's size (the app's largest forest: 12 MB, 6.3 times deflated)
_MIN_SCHEMA_PARSE = 64 * 2**20
_SCHEMA_PARSE_RATIO = 8
#: the most objects a schema may describe (skops builds a node for each, about 70 µs; the
#: app's largest forest has 9,765, about 97 a tree)
_MAX_NODES = 50_000
#: the unpacked members stay in memory up to this size, then go to a temporary file
_SPOOL_BYTES = 16 * 2**20
# a directory entry's bytes on average, at most (46 bytes of
# fields, then the member's name: skops names its arrays with about 20 characters)
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
    """Refuse an archive whose end records or directory `zipfile` would read past the bounds.

    `zipfile` reads every entry of the central directory when it opens an archive, as
    many as the directory's size holds (whatever count the end record states), so the
    records are read first, as the zip format defines them (``ternary._zipcheck``): at
    most `MAX_MEMBERS` entries of at most `_ENTRY_BYTES` each on average, refused from
    the records alone; then the directory is walked and must hold exactly the entries
    stated. Records that disagree (two end records, a ZIP64 record unlike the classic
    one) are refused, as is a file without an end record.
    """
    found = directory_problem(handle, size, MAX_MEMBERS, _ENTRY_BYTES)
    if found is None:
        return
    problem, bound = found
    if bound:
        raise ModelFileError(
            f"{name} has {problem}, more than the {MAX_MEMBERS:,} members a saved model "
            "may have; it is not read."
        )
    raise ModelFileError(f"{name} is not a skops model file (not a zip archive: {problem}).")


def _unpack_bound(size: int) -> int:
    """What a file of ``size`` bytes may unpack to."""
    return min(MAX_UNPACKED_BYTES, max(MIN_UNPACKED_BYTES, MAX_RATIO * size))


def _check_members(archive: zipfile.ZipFile, size: int, name: str) -> None:
    """Refuse an archive whose members, by number or declared size, pass the bounds."""
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise ModelFileError(
            f"{name} has {len(infos):,} members, more than the {MAX_MEMBERS:,} a saved "
            "model may have; it is not read."
        )
    bound = _unpack_bound(size)
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
    schema_bound = min(MAX_SCHEMA_BYTES, max(_MIN_SCHEMA_BYTES, _SCHEMA_RATIO * size))
    if schema.file_size > schema_bound:
        raise ModelFileError(
            f"{name}'s schema.json declares {schema.file_size:,} bytes, more than the "
            f"{schema_bound:,} a saved model's may have ({_SCHEMA_RATIO} times the file's "
            f"size, at least {_MIN_SCHEMA_BYTES:,} and at most {MAX_SCHEMA_BYTES:,}); "
            "it is not read."
        )


def _unpacked(archive: zipfile.ZipFile, name: str):
    """The members of ``archive`` unpacked, 1 MiB at a time, into an uncompressed archive.

    A single ``read()`` of a deflated member inflates all of its data at once, however
    small the size it declares (zipfile only cuts the result to that size afterwards),
    so skops is never given compressed data: here no call inflates more than 1 MiB, no
    member gives more than it declares, and each is checked against its CRC.
    """
    spool = tempfile.SpooledTemporaryFile(max_size=_SPOOL_BYTES)
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


def _checked_schema(archive: zipfile.ZipFile, name: str, size: int) -> None:
    """Refuse a schema whose parse would pass the bounds, or that names an untrusted type.

    The parse is bounded before it starts, by the estimate of ``ternary._schemacheck``
    (at most ``max(_MIN_SCHEMA_PARSE, _SCHEMA_PARSE_RATIO * size)``); the parsed schema
    then bounds skops' work after it: its nodes, the parses of its ``JsonNode`` texts and
    the array bytes its nodes read (see `schema_problem`).
    """
    parse_bound = max(_MIN_SCHEMA_PARSE, _SCHEMA_PARSE_RATIO * size)
    try:
        text = archive.read("schema.json").decode("utf-8")
    except (ValueError, zipfile.BadZipFile, OSError, EOFError) as exc:
        raise ModelFileError(
            f"{name} is not a skops model file (its schema.json: {type(exc).__name__})."
        ) from exc
    estimate = parse_estimate(text)
    if estimate > parse_bound:
        raise ModelFileError(
            f"{name}'s schema.json would take about {estimate:,} bytes to read, more "
            f"than the {parse_bound:,} a saved model's may ({_SCHEMA_PARSE_RATIO} times "
            f"the file's size, at least {_MIN_SCHEMA_PARSE:,}); it is not read."
        )
    try:
        schema = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ModelFileError(
            f"{name} is not a skops model file (its schema.json: {type(exc).__name__})."
        ) from exc
    del text
    found = schema_problem(
        schema,
        trusted=MODEL_TYPES,
        member_sizes={info.filename: info.file_size for info in archive.infolist()},
        parse_left=parse_bound - estimate,
        max_nodes=_MAX_NODES,
        read_bound=_unpack_bound(size),
    )
    if found is None:
        return
    problem, untrusted = found
    if untrusted:
        raise ModelFileError(
            f"{name} holds the type {problem}, which no model saved by ternary holds, "
            "so it is not loaded (a file can run code through such types). Open it with "
            "skops.io.load yourself only if you trust where it came from."
        )
    raise ModelFileError(f"{name}'s schema.json {problem}; it is not read.")


def _check_trees(model: Any, name: str) -> None:
    """Refuse a model whose trees, forests or classes no fit makes (``ternary._modelcheck``):
    arrays the routing kernels would read out of bounds or walk in a cycle, values that are
    text, complex, infinite, NaN or negative where a fit makes none, classes that do not
    match, an empty forest."""
    found = model_problem(model)
    if found is not None:
        what, problem = found
        raise ModelFileError(
            f"{name} holds a damaged {what} ({problem}); a {what} ternary fits has none, "
            "so it is not loaded."
        )


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
        tree whose arrays the routing would read out of bounds or walk in a cycle, or
        values no fit makes (thresholds that are text or NaN, δ = inf, negative or NaN
        leaf values, a forest without trees or with a member's class it lacks,
        ``n_classes_`` unlike ``classes_``); the message says which.
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
            _checked_schema(plain, name, size)
        unpacked.seek(0)
        try:
            model = sio.load(unpacked, trusted=sorted(MODEL_TYPES))
        except Exception as exc:  # noqa: BLE001 - a damaged file fails in many ways
            raise ModelFileError(f"Could not load {name}: {type(exc).__name__}: {exc}") from exc
    if not (hasattr(model, "predict_proba") and hasattr(model, "classes_")):
        raise ModelFileError(f"{name} holds a {type(model).__name__}, not a fitted classifier.")
    _check_trees(model, name)
    return model
