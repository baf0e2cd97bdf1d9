"""Datasets for ternary trees: built-in generators and tolerant file loaders.

Everything here returns a :class:`Dataset`: a float64 feature frame, a 1-D label
array that keeps the original label values, and a ``report`` of what loading did
(rows dropped, values imputed, columns encoded or dropped), so the app can show a
person exactly how their file was turned into a classification problem.

Loaders never let a raw pandas, csv, arff or openml exception escape: every
problem is re-raised as :class:`DataError` whose message says what is wrong *and*
what to do about it. Loaders never modify the bytes or the file object they are
given.

Three families of data are provided:

* built-in generators that need no network (two moons, circles, xor, blobs and
  Breiman's twonorm, ringnorm and waveform, each with its published Bayes error)
  and scikit-learn's bundled datasets (iris, wine, breast cancer, digits);
* ``load_csv`` / ``load_arff`` / ``load_file`` for user files and uploads;
* ``load_openml`` with an offline cache, and ``openml_cc18_tasks``.

OpenML cache design
-------------------
openml's own cache cannot serve a dataset by *name* offline (its name-to-id
lookup always queries the server), and its on-disk layout is internal and has
changed between releases. ``load_openml`` therefore puts a thin cache of its own
in front of it: after the first successful download the raw table is stored as
``<cache_dir>/ternary-frames/<id>/data.csv.gz`` plus ``meta.json`` (name, default
target, nominal levels), and every later call -- by id or by name -- reads from
there first without touching the network. openml's own cache is pointed at the
same ``cache_dir`` so its downloads land there too.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import math
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

__all__ = [
    "BUILTIN_DATASETS",
    "DEFAULT_DATASET",
    "DataError",
    "Dataset",
    "list_local_arff",
    "load_arff",
    "load_breast_cancer",
    "load_builtin",
    "load_csv",
    "load_digits",
    "load_file",
    "load_iris",
    "load_openml",
    "load_wine",
    "make_blobs_dataset",
    "make_circles_dataset",
    "make_moons_dataset",
    "make_ringnorm",
    "make_twonorm",
    "make_waveform",
    "make_xor_dataset",
    "openml_cc18_tasks",
]

#: Name of the dataset the app shows first.
DEFAULT_DATASET = "two moons"

# Tokens that people and tools commonly write for "no value"; compared after
# stripping whitespace and lower-casing.
_MISSING_TOKENS = frozenset(
    {"", "?", "na", "n/a", "nan", "-nan", "null", "none", "missing", "#n/a", "<na>", "nil"}
)
# The same tokens in the exact spellings pandas should treat as missing while
# parsing, so numeric columns with them still parse straight to float64.
_CSV_NA_VALUES = sorted(
    {t for tok in _MISSING_TOKENS for t in (tok, tok.upper(), tok.capitalize())}
)

# A numeric-looking text column is still treated as numeric when at most this
# fraction of its non-missing values fail to parse (they become missing and are
# reported); beyond it the column is taken to be categorical.
_JUNK_FRACTION = 0.05
# A text column whose values are all distinct is an identifier (name, id, free
# text) rather than a feature once it has more than this many rows.
# pandas 3 parses floats exactly by default (and deprecates the argument); pandas 2 needs
# "round_trip", or a CSV loads back numbers one bit off the ones it holds.
_EXACT_FLOATS = {"float_precision": "round_trip"} if int(pd.__version__.split(".")[0]) < 3 else {}
_IDENTIFIER_SHARE = 0.95
_IDENTIFIER_MIN_ROWS = 20
# A float target with non-integer values and more distinct values than this is
# a regression target, not classes.
_CONTINUOUS_MIN_DISTINCT = 20

_BINARY_SIGNATURES = (
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"%PDF", "a PDF document"),
    (b"PK\x03\x04", "a ZIP archive (or an Excel .xlsx workbook)"),
    (b"\x1f\x8b", "a gzip-compressed file"),
    (b"BZh", "a bzip2-compressed file"),
    (b"7z\xbc\xaf", "a 7-Zip archive"),
    (b"\xd0\xcf\x11\xe0", "an old Excel .xls / Office document"),
    (b"PAR1", "a Parquet file"),
)

_DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}


class DataError(ValueError):
    """A dataset could not be loaded; the message says why and what to do."""


@dataclass
class Dataset:
    """A classification dataset ready for a tree.

    Parameters
    ----------
    X : pandas.DataFrame
        Numeric features, one float64 column per feature, named.
    y : numpy.ndarray
        1-D array of labels, keeping the original label values (e.g. strings).
    class_names : list of str
        Sorted unique labels, as strings.
    name : str
        Human-readable name.
    source : str
        Where it came from: "builtin", "sklearn", "breiman", "csv", "arff" or
        "openml".
    bayes_error : float or None
        Published (or analytic) Bayes error rate, when known.
    report : list of str
        Human-readable lines describing what loading did.
    """

    X: pd.DataFrame
    y: np.ndarray
    class_names: list[str]
    name: str
    source: str
    bayes_error: float | None = None
    report: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        # Catch programming errors early: a mismatch here would otherwise
        # surface as a confusing shape error deep inside a fit.
        if len(self.X) != len(self.y):
            raise DataError(
                f"X has {len(self.X)} rows but y has {len(self.y)} labels; "
                "build the Dataset from aligned features and labels."
            )

    @property
    def n_samples(self) -> int:
        """Number of rows."""
        return int(self.X.shape[0])

    @property
    def n_features(self) -> int:
        """Number of feature columns."""
        return int(self.X.shape[1])

    @property
    def feature_names(self) -> list[str]:
        """Feature column names, in order."""
        return [str(c) for c in self.X.columns]

    @property
    def n_classes(self) -> int:
        """Number of distinct labels."""
        return len(self.class_names)

    def summary(self) -> dict[str, Any]:
        """Describe the dataset in a small JSON-friendly dict.

        Returns
        -------
        dict
            Keys ``name``, ``source``, ``n_samples``, ``n_features``,
            ``n_classes``, ``class_names``, ``class_counts`` (label string to
            count), ``bayes_error``.
        """
        labels, counts = np.unique(self.y, return_counts=True)
        return {
            "name": self.name,
            "source": self.source,
            "n_samples": self.n_samples,
            "n_features": self.n_features,
            "n_classes": self.n_classes,
            "class_names": list(self.class_names),
            "class_counts": {str(k): int(v) for k, v in zip(labels, counts, strict=True)},
            "bayes_error": self.bayes_error,
        }


def _class_names(y: np.ndarray) -> list[str]:
    return [str(v) for v in np.unique(y)]


def _from_arrays(
    X: np.ndarray,
    y: np.ndarray,
    feature_names: list[str],
    *,
    name: str,
    source: str,
    bayes_error: float | None = None,
    report: list[str] | None = None,
) -> Dataset:
    frame = pd.DataFrame(np.asarray(X, dtype=np.float64), columns=feature_names)
    lines = list(report or [])
    lines.append(
        f"Loaded {frame.shape[0]} rows, {frame.shape[1]} features, {len(np.unique(y))} classes."
    )
    return Dataset(
        X=frame,
        y=np.asarray(y),
        class_names=_class_names(np.asarray(y)),
        name=name,
        source=source,
        bayes_error=bayes_error,
        report=lines,
    )


# ---------------------------------------------------------------------------
# Built-in generators
# ---------------------------------------------------------------------------


def make_moons_dataset(
    n_samples: int = 500, noise: float = 0.3, random_state: int | None = 0
) -> Dataset:
    """Two interleaving half circles (scikit-learn's ``make_moons``).

    Parameters
    ----------
    n_samples : int, default=500
        Number of points.
    noise : float, default=0.3
        Standard deviation of Gaussian noise added to the coordinates.
    random_state : int or None, default=0
        Seed; the same seed gives the same data.

    Returns
    -------
    Dataset
        2 features ``x1``, ``x2``; labels 0 and 1.
    """
    from sklearn.datasets import make_moons

    X, y = make_moons(n_samples=n_samples, noise=noise, random_state=random_state)
    return _from_arrays(
        X,
        y,
        ["x1", "x2"],
        name="two moons",
        source="builtin",
        report=[f"Generated two moons (noise={noise}, seed={random_state})."],
    )


def make_circles_dataset(
    n_samples: int = 500,
    noise: float = 0.1,
    random_state: int | None = 0,
    factor: float = 0.5,
) -> Dataset:
    """A small circle inside a large one (scikit-learn's ``make_circles``).

    Parameters
    ----------
    n_samples : int, default=500
        Number of points.
    noise : float, default=0.1
        Standard deviation of Gaussian noise added to the coordinates.
    random_state : int or None, default=0
        Seed.
    factor : float, default=0.5
        Radius of the inner circle relative to the outer one.

    Returns
    -------
    Dataset
        2 features; label 1 is the inner circle.
    """
    from sklearn.datasets import make_circles

    X, y = make_circles(n_samples=n_samples, noise=noise, factor=factor, random_state=random_state)
    return _from_arrays(
        X,
        y,
        ["x1", "x2"],
        name="circles",
        source="builtin",
        report=[f"Generated circles (noise={noise}, seed={random_state})."],
    )


def make_xor_dataset(
    n_samples: int = 500, noise: float = 0.2, random_state: int | None = 0
) -> Dataset:
    """The XOR problem: the label is 1 where exactly one coordinate is positive.

    Points are drawn uniformly on [-1, 1]^2, labelled by quadrant, and then
    jittered with Gaussian noise so the quadrant borders overlap.

    Parameters
    ----------
    n_samples : int, default=500
        Number of points.
    noise : float, default=0.2
        Standard deviation of the Gaussian jitter added after labelling.
    random_state : int or None, default=0
        Seed.

    Returns
    -------
    Dataset
        2 features; labels 0 and 1.
    """
    rng = np.random.default_rng(random_state)
    X = rng.uniform(-1.0, 1.0, size=(n_samples, 2))
    y = ((X[:, 0] > 0) ^ (X[:, 1] > 0)).astype(np.int64)
    X = X + rng.normal(0.0, noise, size=X.shape)
    return _from_arrays(
        X,
        y,
        ["x1", "x2"],
        name="xor",
        source="builtin",
        report=[f"Generated xor (noise={noise}, seed={random_state})."],
    )


def make_blobs_dataset(
    n_samples: int = 500,
    noise: float = 1.0,
    random_state: int | None = 0,
    centers: int = 3,
) -> Dataset:
    """Isotropic Gaussian blobs in 2-D (scikit-learn's ``make_blobs``).

    Parameters
    ----------
    n_samples : int, default=500
        Number of points.
    noise : float, default=1.0
        Standard deviation of each blob (``cluster_std``).
    random_state : int or None, default=0
        Seed.
    centers : int, default=3
        Number of blobs, i.e. classes.

    Returns
    -------
    Dataset
        2 features; labels 0 .. centers-1.
    """
    from sklearn.datasets import make_blobs

    X, y = make_blobs(
        n_samples=n_samples,
        n_features=2,
        centers=centers,
        cluster_std=noise,
        random_state=random_state,
    )
    return _from_arrays(
        X,
        y,
        ["x1", "x2"],
        name="blobs",
        source="builtin",
        report=[f"Generated {centers} blobs (std={noise}, seed={random_state})."],
    )


def _normal_cdf(z: float) -> float:
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def _feature_names(n: int) -> list[str]:
    return [f"x{i + 1}" for i in range(n)]


def make_twonorm(
    n_samples: int = 7400, n_features: int = 20, random_state: int | None = 0
) -> Dataset:
    """Breiman's twonorm: two Gaussians N(+a·1, I) and N(-a·1, I), a = 2/sqrt(20).

    From Breiman (1996), "Bias, variance and arcing classifiers". Each row's
    class is drawn with probability 1/2. The Bayes rule is ``sign(sum(x))``; its
    error is Phi(-a·sqrt(d)), which is 0.023 for the published d = 20.

    Parameters
    ----------
    n_samples : int, default=7400
        Number of rows (7400 as in the published benchmark).
    n_features : int, default=20
        Dimension d; ``a`` stays 2/sqrt(20) as published.
    random_state : int or None, default=0
        Seed.

    Returns
    -------
    Dataset
        Labels 0 (mean -a) and 1 (mean +a); ``bayes_error`` 0.023 at d = 20.
    """
    rng = np.random.default_rng(random_state)
    a = 2.0 / math.sqrt(20.0)
    y = rng.integers(0, 2, size=n_samples)
    X = rng.standard_normal((n_samples, n_features)) + np.where(y == 1, a, -a)[:, None]
    bayes = round(_normal_cdf(-a * math.sqrt(n_features)), 3)
    return _from_arrays(
        X,
        y,
        _feature_names(n_features),
        name="twonorm",
        source="breiman",
        bayes_error=bayes,
        report=[f"Generated twonorm (Breiman 1996), seed={random_state}."],
    )


def make_ringnorm(
    n_samples: int = 7400, n_features: int = 20, random_state: int | None = 0
) -> Dataset:
    """Breiman's ringnorm: N(0, 4I) against N(a·1, I), a = 1/sqrt(20).

    From Breiman (1996). Each row's class is drawn with probability 1/2.

    Parameters
    ----------
    n_samples : int, default=7400
        Number of rows.
    n_features : int, default=20
        Dimension d; ``a`` stays 1/sqrt(20) as published.
    random_state : int or None, default=0
        Seed.

    Returns
    -------
    Dataset
        Label 0 is the wide N(0, 4I) class, 1 the shifted N(a·1, I) class;
        ``bayes_error`` is the published 0.017 at d = 20 and None otherwise
        (there is no closed form).
    """
    rng = np.random.default_rng(random_state)
    a = 1.0 / math.sqrt(20.0)
    y = rng.integers(0, 2, size=n_samples)
    Z = rng.standard_normal((n_samples, n_features))
    X = np.where((y == 0)[:, None], 2.0 * Z, Z + a)
    bayes = 0.017 if n_features == 20 else None
    return _from_arrays(
        X,
        y,
        _feature_names(n_features),
        name="ringnorm",
        source="breiman",
        bayes_error=bayes,
        report=[f"Generated ringnorm (Breiman 1996), seed={random_state}."],
    )


def _waveform_bases() -> np.ndarray:
    i = np.arange(1, 22)
    h1 = np.maximum(6 - np.abs(i - 11), 0).astype(np.float64)
    h2 = np.maximum(6 - np.abs(i - 4 - 11), 0).astype(np.float64)  # h1(i - 4)
    h3 = np.maximum(6 - np.abs(i + 4 - 11), 0).astype(np.float64)  # h1(i + 4)
    return np.vstack([h1, h2, h3])


# Which pair of base waves each waveform class mixes, as in Breiman et al. (1984).
_WAVEFORM_PAIRS = ((0, 1), (0, 2), (1, 2))


def make_waveform(n_samples: int = 5000, random_state: int | None = 0) -> Dataset:
    """Breiman's waveform: 21 noisy mixtures of two of three triangular waves.

    h1(i) = max(6 - |i - 11|, 0), h2(i) = h1(i - 4), h3(i) = h1(i + 4) for
    i = 1..21. Class 0 is u·h1 + (1-u)·h2, class 1 is u·h1 + (1-u)·h3, class 2 is
    u·h2 + (1-u)·h3, with u ~ U(0, 1) per row and N(0, 1) noise per feature;
    classes are equally likely. The published Bayes error is 0.14.

    Parameters
    ----------
    n_samples : int, default=5000
        Number of rows.
    random_state : int or None, default=0
        Seed.

    Returns
    -------
    Dataset
        21 features, labels 0, 1, 2, ``bayes_error`` 0.14.
    """
    rng = np.random.default_rng(random_state)
    bases = _waveform_bases()
    pairs = np.asarray(_WAVEFORM_PAIRS)
    y = rng.integers(0, 3, size=n_samples)
    u = rng.uniform(0.0, 1.0, size=(n_samples, 1))
    X = (
        u * bases[pairs[y, 0]]
        + (1.0 - u) * bases[pairs[y, 1]]
        + rng.standard_normal((n_samples, 21))
    )
    return _from_arrays(
        X,
        y,
        _feature_names(21),
        name="waveform",
        source="breiman",
        bayes_error=0.14,
        report=[f"Generated waveform (Breiman et al. 1984), seed={random_state}."],
    )


def _sklearn_bundle(loader: Callable[..., Any], name: str, label_names: bool) -> Dataset:
    bunch = loader()
    codes = np.asarray(bunch.target)
    # Named labels ("setosa", "malignant") read better in the app than codes.
    y = np.asarray(bunch.target_names, dtype=object)[codes] if label_names else codes
    names = [str(n) for n in bunch.feature_names]
    return _from_arrays(
        bunch.data,
        y,
        names,
        name=name,
        source="sklearn",
        report=[f"Loaded scikit-learn's bundled {name} dataset."],
    )


def load_iris() -> Dataset:
    """Fisher's iris (150 × 4, 3 classes), bundled with scikit-learn.

    Returns
    -------
    Dataset
        Labels are the species names.
    """
    from sklearn import datasets

    return _sklearn_bundle(datasets.load_iris, "iris", label_names=True)


def load_wine() -> Dataset:
    """UCI wine recognition (178 × 13, 3 classes), bundled with scikit-learn.

    Returns
    -------
    Dataset
        Labels ``class_0``, ``class_1``, ``class_2``.
    """
    from sklearn import datasets

    return _sklearn_bundle(datasets.load_wine, "wine", label_names=True)


def load_breast_cancer() -> Dataset:
    """Wisconsin diagnostic breast cancer (569 × 30, 2 classes), from scikit-learn.

    Returns
    -------
    Dataset
        Labels ``malignant`` and ``benign``.
    """
    from sklearn import datasets

    return _sklearn_bundle(datasets.load_breast_cancer, "breast cancer", label_names=True)


def load_digits() -> Dataset:
    """8×8 handwritten digits (1797 × 64, 10 classes), bundled with scikit-learn.

    Returns
    -------
    Dataset
        Labels are the integers 0-9.
    """
    from sklearn import datasets

    return _sklearn_bundle(datasets.load_digits, "digits", label_names=False)


#: Built-in datasets by display name; each value is called with keyword
#: arguments only and returns a :class:`Dataset`. None needs the network.
BUILTIN_DATASETS: dict[str, Callable[..., Dataset]] = {
    "two moons": make_moons_dataset,
    "circles": make_circles_dataset,
    "xor": make_xor_dataset,
    "blobs": make_blobs_dataset,
    "twonorm": make_twonorm,
    "ringnorm": make_ringnorm,
    "waveform": make_waveform,
    "iris": load_iris,
    "wine": load_wine,
    "breast cancer": load_breast_cancer,
    "digits": load_digits,
}


def _normalise_key(name: str) -> str:
    return re.sub(r"[\s_\-]+", " ", str(name).strip().lower())


def load_builtin(name: str, **kwargs: Any) -> Dataset:
    """Load a built-in dataset by name.

    Parameters
    ----------
    name : str
        A key of :data:`BUILTIN_DATASETS`; case, underscores and hyphens are
        ignored ("Two_Moons" works).
    **kwargs
        Passed to the generator, e.g. ``n_samples``, ``noise``, ``random_state``.

    Returns
    -------
    Dataset

    Raises
    ------
    DataError
        For an unknown name (the message lists the valid ones) or arguments the
        generator does not take.
    """
    key = _normalise_key(name)
    lookup = {_normalise_key(k): k for k in BUILTIN_DATASETS}
    if key not in lookup:
        choices = ", ".join(repr(k) for k in BUILTIN_DATASETS)
        raise DataError(f"Unknown built-in dataset {name!r}. Choose one of: {choices}.")
    func = BUILTIN_DATASETS[lookup[key]]
    try:
        return func(**kwargs)
    except TypeError as exc:
        raise DataError(
            f"The built-in dataset {lookup[key]!r} does not accept these arguments "
            f"({', '.join(sorted(kwargs))}): {exc}. Remove or rename them."
        ) from exc


# ---------------------------------------------------------------------------
# Reading bytes from a path, bytes or an upload, and decoding them
# ---------------------------------------------------------------------------


def _mb(n: int) -> str:
    return f"{n / 2**20:.1f} MB"


def _read_source(source: Any, max_bytes: int) -> tuple[bytes, str | None]:
    """Return the bytes of ``source`` and its file name, without consuming it."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        name = None
    elif isinstance(source, (str, os.PathLike)):
        if isinstance(source, str) and "\n" in source:
            # A common slip: passing the file's contents where a path is expected.
            raise DataError(
                "Got text with line breaks where a file path was expected. Pass "
                "the contents as bytes instead, e.g. text.encode('utf-8')."
            )
        path = Path(source).expanduser()
        try:
            exists = path.exists()
        except OSError as exc:  # e.g. a name too long for the file system
            raise DataError(
                f"Cannot use {str(path)[:80]!r} as a file path ({exc}). Check the path."
            ) from exc
        if not exists:
            raise DataError(f"File not found: {str(path)!r}. Check the path and try again.")
        if path.is_dir():
            raise DataError(f"{str(path)!r} is a folder, not a file. Pick a file inside it.")
        size = path.stat().st_size
        if size > max_bytes:
            raise DataError(
                f"The file is too large ({_mb(size)}; the limit is {_mb(max_bytes)}). "
                "Use a sample of the rows or fewer columns."
            )
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise DataError(
                f"Could not read {str(path)!r}: {exc}. Check the file's permissions."
            ) from exc
        name = path.name
    elif hasattr(source, "getvalue") or hasattr(source, "read"):
        size = getattr(source, "size", None)
        if isinstance(size, int) and size > max_bytes:
            raise DataError(
                f"The upload is too large ({_mb(size)}; the limit is {_mb(max_bytes)}). "
                "Use a sample of the rows or fewer columns."
            )
        try:
            if hasattr(source, "getvalue"):
                # getvalue() returns the whole buffer and leaves the position alone.
                raw = source.getvalue()
            else:
                seekable = bool(getattr(source, "seekable", lambda: False)())
                pos = source.tell() if seekable else None
                if seekable:
                    source.seek(0)
                raw = source.read()
                if seekable:
                    source.seek(pos)
        except (OSError, ValueError) as exc:
            raise DataError(f"Could not read the upload: {exc}. Upload the file again.") from exc
        data = raw.encode("utf-8") if isinstance(raw, str) else bytes(raw)
        name = getattr(source, "name", None)
        name = Path(str(name)).name if name else None
    else:
        raise DataError(
            f"Cannot read data from a {type(source).__name__}. Pass a file path, the "
            "file's bytes, or an uploaded file object."
        )
    if len(data) > max_bytes:
        raise DataError(
            f"The file is too large ({_mb(len(data))}; the limit is {_mb(max_bytes)}). "
            "Use a sample of the rows or fewer columns."
        )
    return data, name


def _check_not_binary(data: bytes, what: str) -> None:
    for magic, kind in _BINARY_SIGNATURES:
        if data.startswith(magic):
            raise DataError(
                f"This is not a text {what} file: it looks like {kind}. "
                f"Export the data as a plain-text {what} file and upload that."
            )
    sample = data[:65536]
    if b"\x00" in sample:
        raise DataError(
            f"This is not a text {what} file: it contains NUL bytes, so it is binary "
            f"data. Export the data as a plain-text {what} file (UTF-8) and upload that."
        )
    controls = sum(1 for b in sample if b < 32 and b not in (9, 10, 12, 13))
    if sample and controls / len(sample) > 0.01:
        raise DataError(
            f"This is not a text {what} file: {controls} of its first {len(sample)} bytes "
            f"are control characters. Export the data as a plain-text {what} file."
        )


def _decode(data: bytes, what: str) -> tuple[str, str]:
    """Decode text, returning it and a description of the encoding used."""
    if not data:
        raise DataError(
            "The file is empty (0 bytes). Upload a "
            f"{what} with a header row and at least two rows of data."
        )
    # Excel's "Unicode text" export is UTF-16 with a BOM; it would otherwise be
    # rejected as binary because every other byte is NUL.
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), "UTF-16"
        except UnicodeDecodeError as exc:
            raise DataError(
                f"The file starts like UTF-16 text but cannot be decoded "
                f"({exc}). Save it as UTF-8 and try again."
            ) from exc
    _check_not_binary(data, what)
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return data[3:].decode("utf-8"), "UTF-8 (with byte-order mark)"
        except UnicodeDecodeError:
            pass
    else:
        try:
            return data.decode("utf-8"), "UTF-8"
        except UnicodeDecodeError:
            pass
    # Windows-1252 is what spreadsheet programs usually write when not UTF-8
    # (it adds e.g. the euro sign to Latin-1); Latin-1 itself never fails.
    try:
        return data.decode("cp1252"), "Latin-1 (Windows-1252): the file is not valid UTF-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "Latin-1: the file is not valid UTF-8"


# ---------------------------------------------------------------------------
# The shared cleaning pipeline: raw table -> Dataset
# ---------------------------------------------------------------------------


@dataclass
class _Options:
    missing: str = "impute"
    max_rows: int = 200_000
    max_columns: int = 2_000
    max_bytes: int = 200 * 2**20
    max_classes: int = 100
    ordinal_threshold: int = 10


def _options(
    missing: str,
    max_rows: int,
    max_columns: int,
    max_bytes: int,
    max_classes: int,
    ordinal_threshold: int,
) -> _Options:
    if missing not in ("impute", "drop"):
        raise DataError(
            f"missing={missing!r} is not a choice; use 'impute' (fill with the "
            "column median) or 'drop' (remove rows with missing values)."
        )
    return _Options(
        missing,
        int(max_rows),
        int(max_columns),
        int(max_bytes),
        int(max_classes),
        int(ordinal_threshold),
    )


def _quote_list(names: list[str], limit: int = 30) -> str:
    shown = ", ".join(repr(str(n)) for n in names[:limit])
    if len(names) > limit:
        shown += f", … ({len(names) - limit} more)"
    return shown


def _resolve_target(columns: list[str], target: str | int | None) -> str:
    if target is None:
        return columns[-1]
    if isinstance(target, (int, np.integer)) and not isinstance(target, bool):
        if -len(columns) <= int(target) < len(columns):
            return columns[int(target)]
        raise DataError(
            f"Target column number {target} is out of range: the file has "
            f"{len(columns)} columns. Available columns: {_quote_list(columns)}."
        )
    wanted = str(target)
    if wanted in columns:
        return wanted
    # Be forgiving about case and stray spaces, but only when unambiguous.
    loose = [c for c in columns if c.strip().lower() == wanted.strip().lower()]
    if len(loose) == 1:
        return loose[0]
    raise DataError(
        f"Target column {wanted!r} is not in the file. "
        f"Available columns: {_quote_list(columns)}. Pick one of these."
    )


def _clean_text(series: pd.Series, tokens: frozenset[str]) -> tuple[pd.Series, pd.Series]:
    """Strip whitespace and mark missing tokens; return (text, missing mask)."""
    text = series.astype("string").str.strip()
    missing = text.isna()
    if tokens:
        missing = missing | text.str.lower().isin(tokens)
    missing = missing.fillna(True).astype(bool)
    return text.mask(missing), missing


def _to_float(text: pd.Series) -> np.ndarray:
    # Parse each distinct value once: to_numeric is slow on text that fails to
    # parse, and categorical columns repeat a few values many times.
    codes, uniques = pd.factorize(text, use_na_sentinel=True)
    parsed = pd.to_numeric(pd.Series(np.asarray(uniques, dtype=object)), errors="coerce")
    table = np.append(parsed.to_numpy(dtype=np.float64, na_value=np.nan), np.nan)
    return table[codes]


def _prepare_target(
    raw: pd.Series, column: str, opts: _Options, report: list[str], tokens: frozenset[str]
) -> tuple[np.ndarray, np.ndarray]:
    """Return (labels for kept rows, mask of kept rows)."""
    if pd.api.types.is_numeric_dtype(raw.dtype) and not pd.api.types.is_bool_dtype(raw.dtype):
        values = raw.to_numpy(dtype=np.float64, na_value=np.nan)
        keep = ~np.isnan(values)
        text = None
    else:
        text, missing = _clean_text(raw, tokens)
        keep = ~missing.to_numpy()
        values = _to_float(text)
        # Labels are numbers only if every present label parses as one.
        if np.isnan(values[keep]).any():
            values = None
    n_missing = int((~keep).sum())
    if n_missing:
        report.append(f"Dropped {n_missing} rows whose target {column!r} is missing.")
    if not keep.any():
        raise DataError(
            f"The target column {column!r} has no values in any row. Choose another target column."
        )
    if values is not None:
        kept = values[keep]
        if np.all(kept == np.round(kept)) and np.all(np.abs(kept) < 2**53):
            labels = kept.astype(np.int64)
        else:
            n_distinct = len(np.unique(kept))
            if n_distinct > _CONTINUOUS_MIN_DISTINCT:
                raise DataError(
                    f"The target column {column!r} holds continuous numbers ({n_distinct} "
                    "distinct non-integer values), which looks like a regression target. "
                    "Choose a column with class labels as the target."
                )
            labels = kept
    else:
        labels = text[keep].to_numpy(dtype=object)
    n_classes = len(np.unique(labels))
    if n_classes < 2:
        only = labels[0] if len(labels) else "?"
        raise DataError(
            f"The target column {column!r} has a single class ({str(only)!r}); a classifier "
            "needs at least two. Choose another target column or add rows of other classes."
        )
    if n_classes > opts.max_classes:
        raise DataError(
            f"The target column {column!r} has {n_classes} distinct values (the limit is "
            f"{opts.max_classes}); it looks like a regression target or an identifier. "
            "Choose a column with class labels as the target."
        )
    return labels, keep


@dataclass
class _Column:
    name: str
    kind: str  # "numeric" or "categorical"
    values: np.ndarray  # float64 for numeric; object (str or None) for categorical
    levels: list[str] | None = None
    declared: bool = False  # levels come from an ARFF declaration
    from_text: bool = False  # numbers that were stored as text


def _convert_feature(
    name: str,
    raw: pd.Series,
    levels: list[str] | None,
    decimal_comma: bool,
    report: list[str],
    tokens: frozenset[str],
) -> _Column:
    if pd.api.types.is_bool_dtype(raw.dtype):
        return _Column(name, "numeric", raw.to_numpy(dtype=np.float64, na_value=np.nan))
    if pd.api.types.is_numeric_dtype(raw.dtype):
        return _Column(name, "numeric", raw.to_numpy(dtype=np.float64, na_value=np.nan))
    text, missing = _clean_text(raw, tokens)
    numbers = _to_float(text)
    present = ~missing.to_numpy()
    n_present = int(present.sum())
    failed = present & np.isnan(numbers)
    if n_present == 0:
        return _Column(name, "numeric", numbers)
    if failed.any() and decimal_comma:
        # Semicolon- or tab-separated files from European locales write 1,5.
        alt = _to_float(text.str.replace(",", ".", regex=False))
        if not (present & np.isnan(alt)).any():
            report.append(f"Column {name!r}: read decimal commas (e.g. '1,5') as numbers.")
            return _Column(name, "numeric", alt)
    n_failed = int(failed.sum())
    if n_failed == 0:
        return _Column(name, "numeric", numbers, from_text=True)
    if n_failed < n_present and n_failed <= _JUNK_FRACTION * n_present:
        examples = _quote_list(sorted(set(text[failed].tolist()))[:3], limit=3)
        report.append(
            f"Column {name!r}: {n_failed} non-numeric value(s) in a numeric "
            f"column (e.g. {examples}) were treated as missing."
        )
        return _Column(name, "numeric", numbers)
    values = text.to_numpy(dtype=object, na_value=None)
    present = set(pd.unique(values[values != None]))  # noqa: E711 - elementwise
    present.discard(None)
    present_levels = sorted(present)
    if levels is not None:
        declared = set(levels)
        # Keep the declared order; values outside the declaration go last.
        ordered = [lv for lv in levels if lv in present]
        ordered += [lv for lv in present_levels if lv not in declared]
        return _Column(name, "categorical", values, ordered, declared=True)
    return _Column(name, "categorical", values, present_levels)


def _unique_name(name: str, taken: set[str]) -> str:
    out, k = name, 2
    while out in taken:
        out, k = f"{name}_{k}", k + 1
    taken.add(out)
    return out


def _looks_like_identifier(values: np.ndarray) -> bool:
    """A text column is an identifier when at least 95 % of its present values are distinct.

    Such a column cannot generalise, and it can leak the label when its codes follow
    the row order (splice's ``Instance_name`` is declared in class order).
    """
    present = pd.Series(values).dropna()
    return len(present) > _IDENTIFIER_MIN_ROWS and present.nunique() >= _IDENTIFIER_SHARE * len(
        present
    )


def _assemble(
    frame: pd.DataFrame,
    target: str | int | None,
    *,
    opts: _Options,
    name: str,
    source: str,
    report: list[str],
    nominal_levels: dict[str, list[str]] | None = None,
    decimal_comma: bool = False,
    missing_tokens: frozenset[str] = frozenset(),
) -> Dataset:
    """Turn a raw table (float or text columns) into a clean :class:`Dataset`.

    ``missing_tokens`` are the (lower-case) texts that mean "no value"; CSV
    passes the usual spellings, while ARFF and OpenML mark missing values
    themselves, so there a nominal level such as "none" stays a level.
    """
    nominal_levels = nominal_levels or {}
    columns = [str(c) for c in frame.columns]
    target_col = _resolve_target(columns, target)
    feature_cols = [c for c in columns if c != target_col]
    if not feature_cols:
        raise DataError(
            f"The file has only the target column {target_col!r} and no feature columns. "
            "If it should have more columns, check the delimiter (comma, semicolon or tab)."
        )
    labels, keep = _prepare_target(frame[target_col], target_col, opts, report, missing_tokens)
    frame = frame.loc[keep, feature_cols] if not keep.all() else frame[feature_cols]

    converted: list[_Column] = []
    all_nan: list[str] = []
    identifiers: list[str] = []
    for col in feature_cols:
        c = _convert_feature(
            col, frame[col], nominal_levels.get(col), decimal_comma, report, missing_tokens
        )
        if c.kind == "numeric":
            infinite = np.isinf(c.values)
            if infinite.any():
                # Trees (and scikit-learn's input checks) cannot use infinities.
                c.values = np.where(infinite, np.nan, c.values)
                report.append(
                    f"Column {col!r}: {int(infinite.sum())} infinite value(s) treated as missing."
                )
        if c.kind == "numeric" and np.isnan(c.values).all():
            all_nan.append(col)
        elif c.kind == "categorical" and _looks_like_identifier(c.values):
            identifiers.append(col)
        else:
            converted.append(c)
    from_text = [c.name for c in converted if c.from_text]
    if from_text:
        report.append(
            f"Read {len(from_text)} column(s) of numbers stored as text (quoted, "
            f"padded with spaces, or declared nominal) as numeric: "
            f"{_quote_list(from_text, limit=10)}."
        )
    if all_nan:
        report.append(
            f"Dropped {len(all_nan)} column(s) with no values at all: {_quote_list(all_nan)}."
        )
    if identifiers:
        report.append(
            f"Dropped {len(identifiers)} text column(s) whose values are (nearly) all "
            f"different (identifiers, not features): {_quote_list(identifiers)}."
        )
    if not converted:
        raise DataError(
            "No usable feature columns are left: every feature column is empty "
            "or an identifier. Add numeric or categorical feature columns."
        )

    def is_missing(c: _Column) -> np.ndarray:
        if c.kind == "numeric":
            return np.isnan(c.values)
        return pd.isna(c.values)

    n_rows = len(labels)
    if opts.missing == "drop":
        row_missing = np.zeros(n_rows, dtype=bool)
        for c in converted:
            row_missing |= is_missing(c)
        n_drop = int(row_missing.sum())
        if n_drop == n_rows:
            raise DataError(
                "No usable rows are left: every row has at least one missing feature "
                "value. Use missing='impute' to fill them in, or remove mostly-empty columns."
            )
        if n_drop:
            report.append(
                f"Dropped {n_drop} rows with missing feature values ({n_rows - n_drop} remain)."
            )
            ok = ~row_missing
            labels = labels[ok]
            for c in converted:
                c.values = c.values[ok]
    else:
        for c in converted:
            miss = is_missing(c)
            n_miss = int(miss.sum())
            if not n_miss:
                continue
            if c.kind == "numeric":
                median = float(np.nanmedian(c.values))
                c.values = np.where(miss, median, c.values)
                report.append(
                    f"Column {c.name!r}: imputed {n_miss} missing value(s) with "
                    f"the median {median:g}."
                )
            else:
                present = pd.Series(c.values[~miss])
                counts = present.value_counts()
                # Ties go to the alphabetically first level so results are stable.
                top = sorted(counts.index[counts == counts.max()])[0]
                c.values = np.where(miss, top, c.values).astype(object)
                report.append(
                    f"Column {c.name!r}: filled {n_miss} missing value(s) with "
                    f"the most frequent value {top!r}."
                )

    if len(np.unique(labels)) < 2:
        raise DataError(
            "Only one class is left after removing rows with missing values; a classifier "
            "needs at least two. Use missing='impute' instead of 'drop'."
        )

    out: dict[str, np.ndarray] = {}
    taken: set[str] = set()
    encoded: list[str] = []
    for c in converted:
        if c.kind == "numeric":
            out[_unique_name(c.name, taken)] = c.values.astype(np.float64)
            continue
        present = set(c.values.tolist())
        levels = [lv for lv in c.levels if lv in present]
        if len(levels) <= opts.ordinal_threshold:
            if len(levels) == 2:
                # One indicator carries all the information of a two-level column.
                col = _unique_name(f"{c.name}={levels[1]}", taken)
                out[col] = (c.values == levels[1]).astype(np.float64)
                encoded.append(
                    f"Column {c.name!r} ({levels[0]!r}/{levels[1]!r}) encoded as "
                    f"one 0/1 column {col!r}."
                )
            else:
                for lv in levels:
                    out[_unique_name(f"{c.name}={lv}", taken)] = (c.values == lv).astype(np.float64)
                encoded.append(
                    f"Column {c.name!r} ({len(levels)} levels) one-hot encoded "
                    f"into {len(levels)} columns."
                )
        else:
            codes = {lv: float(i) for i, lv in enumerate(levels)}
            out[_unique_name(c.name, taken)] = np.array([codes[v] for v in c.values])
            order = "declared order" if c.declared else "alphabetical order"
            encoded.append(
                f"Column {c.name!r} ({len(levels)} levels) encoded as ordinal "
                f"codes 0–{len(levels) - 1} ({order})."
            )
    report.extend(encoded)

    constant = [k for k, v in out.items() if len(v) == 0 or np.all(v == v[0])]
    if constant:
        report.append(f"Dropped {len(constant)} constant column(s): {_quote_list(constant)}.")
        for k in constant:
            del out[k]
    if not out:
        raise DataError(
            "No feature columns are left after dropping constant and empty "
            "columns. Add columns whose values vary between rows."
        )
    X = pd.DataFrame(out)
    X.index = pd.RangeIndex(len(X))
    y = np.asarray(labels)
    report.append(
        f"Loaded {X.shape[0]} rows × {X.shape[1]} features, "
        f"{len(np.unique(y))} classes (target {target_col!r})."
    )
    return Dataset(X=X, y=y, class_names=_class_names(y), name=name, source=source, report=report)


def _check_shape(n_rows: int, n_cols: int, opts: _Options) -> None:
    if n_cols > opts.max_columns:
        raise DataError(
            f"The file has {n_cols} columns; the limit is {opts.max_columns}. "
            "Remove columns you do not need."
        )
    if n_rows > opts.max_rows:
        raise DataError(
            f"The file has {n_rows} data rows; the limit is {opts.max_rows}. "
            "Use a random sample of the rows."
        )


def _check_names(names: list[str]) -> None:
    seen: dict[str, int] = {}
    for n in names:
        seen[n] = seen.get(n, 0) + 1
    dups = [n for n, k in seen.items() if k > 1]
    if dups:
        raise DataError(
            f"Duplicate column names: {_quote_list(dups)}. Give every column a "
            "unique name in the header row."
        )


# ---------------------------------------------------------------------------
# CSV
# ---------------------------------------------------------------------------


def _sample_lines(text: str, limit: int = 50) -> list[str]:
    sample = text[:65536]
    lines = [ln for ln in sample.splitlines() if ln.strip()]
    if len(text) > 65536 and lines:
        lines = lines[:-1]  # the last one may be cut in the middle
    return lines[:limit]


def _field_counts(lines: list[str], delimiter: str) -> list[int]:
    try:
        return [len(r) for r in csv.reader(lines, delimiter=delimiter)]
    except csv.Error:
        return []


def _consistency(counts: list[int]) -> float:
    if not counts or counts[0] < 2:
        return 0.0
    return sum(1 for k in counts if k == counts[0]) / len(counts)


def _sniff_delimiter(text: str) -> str:
    lines = _sample_lines(text)
    if not lines:
        return ","
    try:
        guess = csv.Sniffer().sniff("\n".join(lines), delimiters=",;\t|").delimiter
    except csv.Error:
        guess = None
    # The sniffer is easily fooled (e.g. by decimal commas in a semicolon file),
    # so accept its guess only if it splits the rows consistently.
    if guess is not None and _consistency(_field_counts(lines, guess)) >= 0.9:
        return guess
    best, best_score = ",", (0.0, 0)
    for delim in (",", ";", "\t", "|"):
        counts = _field_counts(lines, delim)
        score = (_consistency(counts), counts[0] if counts else 0)
        if score[0] > 0 and score > best_score:
            best, best_score = delim, score
    return best


def _looks_like_index(values: pd.Series) -> bool:
    nums = pd.to_numeric(values, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    if len(nums) < 2 or np.isnan(nums).any():
        return False
    start = nums[0]
    return start in (0.0, 1.0) and np.array_equal(nums, start + np.arange(len(nums)))


def load_csv(
    source: Any,
    target: str | int | None = None,
    *,
    missing: str = "impute",
    max_rows: int = 200_000,
    max_columns: int = 2_000,
    max_bytes: int = 200 * 2**20,
    max_classes: int = 100,
    ordinal_threshold: int = 10,
    name: str | None = None,
) -> Dataset:
    """Load a delimited text file (CSV, semicolon- or tab-separated) as a Dataset.

    Parameters
    ----------
    source : str, pathlib.Path, bytes or file-like
        A path, the raw bytes, or an uploaded file object (anything with
        ``getvalue()`` or ``read()``). The object is not consumed: its position
        is restored and its bytes are not modified.
    target : str or int, optional
        Name (or position) of the label column; default the last column.
    missing : {"impute", "drop"}, default="impute"
        Fill missing feature values (numeric: column median, text: most frequent
        value) or drop the rows that have them. Rows with a missing target are
        always dropped.
    max_rows, max_columns, max_bytes : int
        Size limits; larger inputs raise :class:`DataError`.
    max_classes : int, default=100
        More distinct labels than this means the target is not a class column.
    ordinal_threshold : int, default=10
        Text columns with at most this many levels are one-hot encoded (a single
        0/1 column for two levels); more levels become ordinal codes.
    name : str, optional
        Dataset name; default the file name without its extension.

    Returns
    -------
    Dataset
        ``source`` is "csv"; ``report`` says what was detected and changed.

    Raises
    ------
    DataError
        For every problem with the input, with a message that says what to do.
    """
    opts = _options(missing, max_rows, max_columns, max_bytes, max_classes, ordinal_threshold)
    data, file_name = _read_source(source, opts.max_bytes)
    text, encoding = _decode(data, "CSV")
    if not text.strip():
        raise DataError(
            "The file contains only blank lines. Upload a CSV with a header "
            "row and at least two rows of data."
        )
    delimiter = _sniff_delimiter(text)
    report = [f"Read as {encoding}; {_DELIMITER_NAMES[delimiter]}-separated."]

    try:
        header = next(csv.reader(io.StringIO(text.lstrip("\r\n")), delimiter=delimiter))
    except (csv.Error, StopIteration) as exc:
        raise DataError(
            f"Could not read the header row: {exc}. Make sure the first line "
            "holds the column names."
        ) from exc
    names = [h.strip() for h in header]
    blank = [i for i, n in enumerate(names) if not n]
    for i in blank:
        names[i] = f"column_{i + 1}"
    _check_names(names)
    _check_shape(0, len(names), opts)
    if not np.isnan(_to_float(pd.Series(names, dtype="string"))).any():
        report.append(
            "Warning: every column name is a number; the first row was used as "
            "the header. If the file has no header row, add one."
        )

    named = [n for i, n in enumerate(names) if i not in blank]
    # A trailing delimiter on every line (common in spreadsheet exports) adds an
    # unnamed empty last column; the default target is the last *named* column.
    target_name = _resolve_target(
        names, target if target is not None else (named[-1] if named else None)
    )
    try:
        frame = pd.read_csv(
            io.StringIO(text),
            sep=delimiter,
            header=0,
            names=names,
            dtype={target_name: str},
            na_values=_CSV_NA_VALUES,
            keep_default_na=False,
            skipinitialspace=True,
            skip_blank_lines=True,
            low_memory=False,
            engine="c",
            **_EXACT_FLOATS,
        )
    except pd.errors.EmptyDataError as exc:
        raise DataError(
            "The file has no data. Upload a CSV with a header row and at least two rows of data."
        ) from exc
    except (pd.errors.ParserError, ValueError, csv.Error) as exc:
        raise DataError(
            f"Could not parse the file as {_DELIMITER_NAMES[delimiter]}-separated values: "
            f"{str(exc).strip()}. Check that every row has the same number of fields as "
            "the header and that quotes are balanced."
        ) from exc
    if len(frame) == 0:
        raise DataError(
            "The file has a header row but no data rows. Add at least two rows "
            "of data below the header."
        )
    _check_shape(len(frame), frame.shape[1], opts)
    report.append(f"Found {len(frame)} rows and {frame.shape[1]} columns.")

    empty_unnamed = [
        names[i] for i in blank if names[i] != target_name and frame[names[i]].isna().all()
    ]
    if empty_unnamed:
        frame = frame.drop(columns=empty_unnamed)
        report.append(
            f"Dropped {len(empty_unnamed)} empty column(s) without a name (trailing delimiters)."
        )
    blank = [i for i in blank if names[i] not in empty_unnamed]
    # A blank first header over 0,1,2,... is the row index pandas writes by
    # default; as a feature it would only leak the row order.
    if blank and blank[0] == 0 and target_name != names[0] and _looks_like_index(frame[names[0]]):
        frame = frame.drop(columns=[names[0]])
        blank = blank[1:]
        report.append("Dropped the unnamed first column: it is a row number (0, 1, 2, …).")
    if blank:
        report.append(
            f"Named {len(blank)} column(s) with an empty header: "
            f"{_quote_list([names[i] for i in blank])}."
        )
    stem = Path(file_name).stem if file_name else "uploaded data"
    return _assemble(
        frame,
        target_name,
        opts=opts,
        name=name or stem,
        source="csv",
        report=report,
        decimal_comma=delimiter != ",",
        missing_tokens=_MISSING_TOKENS,
    )


# ---------------------------------------------------------------------------
# ARFF
# ---------------------------------------------------------------------------


@dataclass
class _Attribute:
    name: str
    kind: str  # "numeric", "nominal", "string" or "date"
    levels: list[str] | None = None


_MISSING = object()  # an unquoted '?' in the tolerant parser


def _split_arff(line: str) -> list[Any]:
    """Split a comma-separated ARFF line; '?' unquoted becomes ``_MISSING``."""
    if "'" not in line and '"' not in line:
        out: list[Any] = []
        for v in line.split(","):
            v = v.strip()
            out.append(_MISSING if v == "?" else v)
        return out
    fields: list[Any] = []
    buf: list[str] = []
    quote: str | None = None
    quoted = False
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        if quote:
            if ch == "\\" and i + 1 < n:
                buf.append(line[i + 1])
                i += 1
            elif ch == quote:
                quote = None
            else:
                buf.append(ch)
        elif ch in "'\"" and not "".join(buf).strip():
            quote, quoted, buf = ch, True, []
        elif ch == ",":
            v = "".join(buf) if quoted else "".join(buf).strip()
            fields.append(_MISSING if (v == "?" and not quoted) else v)
            buf, quoted = [], False
        elif not (quoted and ch.isspace()):
            buf.append(ch)
        i += 1
    if quote:
        raise ValueError("a quoted value is not closed")
    v = "".join(buf) if quoted else "".join(buf).strip()
    fields.append(_MISSING if (v == "?" and not quoted) else v)
    return fields


def _split_name(rest: str) -> tuple[str, str]:
    rest = rest.strip()
    if rest[:1] in ("'", '"'):
        end = rest.find(rest[0], 1)
        if end < 0:
            raise ValueError("an attribute name's quote is not closed")
        return rest[1:end], rest[end + 1 :]
    parts = rest.split(None, 1)
    if len(parts) < 2:
        raise ValueError("an attribute has no type")
    # Names may run into a nominal list without a space: name{a,b}.
    if "{" in parts[0]:
        k = rest.index("{")
        return rest[:k], rest[k:]
    return parts[0], parts[1]


def _parse_arff_tolerant(text: str) -> tuple[str, list[_Attribute], list[list[Any]]]:
    """A forgiving ARFF reader for files that liac-arff rejects."""
    relation = ""
    attrs: list[_Attribute] = []
    rows: list[list[Any]] = []
    in_data = False
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        try:
            if not in_data:
                low = line.lower()
                if low.startswith("@relation"):
                    relation = line[len("@relation") :].strip().strip("'\"")
                elif low.startswith("@attribute"):
                    name, rest = _split_name(line[len("@attribute") :])
                    rest = rest.strip()
                    if rest.startswith("{"):
                        close = rest.rfind("}")
                        if close < 0:
                            raise ValueError("a nominal value list has no closing '}'")
                        inner = rest[1:close].strip()
                        levels = [str(v) for v in _split_arff(inner) if v is not _MISSING]
                        attrs.append(_Attribute(name, "nominal", levels if inner else []))
                    else:
                        kind = rest.split()[0].lower() if rest.split() else ""
                        if kind in ("numeric", "real", "integer"):
                            attrs.append(_Attribute(name, "numeric"))
                        elif kind == "string":
                            attrs.append(_Attribute(name, "string"))
                        elif kind == "date":
                            attrs.append(_Attribute(name, "date"))
                        elif kind == "relational":
                            raise DataError(
                                f"Line {lineno}: relational attribute {name!r} is not "
                                "supported. Flatten the file into one row per instance."
                            )
                        else:
                            raise ValueError(f"unknown attribute type {rest!r}")
                elif low.startswith("@data"):
                    if not attrs:
                        raise ValueError("@data comes before any @attribute")
                    in_data = True
                elif low.startswith("@end"):
                    continue
                else:
                    raise DataError(
                        f"Line {lineno}: expected @relation, @attribute or @data but found "
                        f"{line[:40]!r}, so this does not look like an ARFF file. If it holds "
                        "comma-separated values, load it as CSV (a .csv file name)."
                    )
            else:
                if line.startswith("{"):
                    rows.append(_sparse_row(line, attrs))
                    continue
                values = _split_arff(line)
                # A trailing "{weight}" is Weka's instance weight, not data.
                if len(values) == len(attrs) + 1 and str(values[-1]).startswith("{"):
                    values = values[:-1]
                if len(values) != len(attrs):
                    raise ValueError(
                        f"the row has {len(values)} values but there are {len(attrs)} attributes"
                    )
                rows.append([None if v is _MISSING else v for v in values])
        except DataError:
            raise
        except ValueError as exc:
            raise DataError(
                f"Line {lineno} of the ARFF file: {exc}. Fix that line, or "
                "export the file again from Weka or OpenML."
            ) from exc
    if not attrs:
        raise DataError(
            "No @attribute lines were found, so this is not an ARFF file. "
            "Upload an ARFF file (or use a .csv name for CSV data)."
        )
    if not in_data:
        raise DataError(
            "The ARFF file has no @data section. Add '@data' followed by the data rows."
        )
    return relation, attrs, rows


def _sparse_row(line: str, attrs: list[_Attribute]) -> list[Any]:
    inner = line[1 : line.rfind("}")]
    # Omitted values in sparse ARFF are 0, i.e. the first level of a nominal.
    row: list[Any] = [a.levels[0] if a.kind == "nominal" and a.levels else "0" for a in attrs]
    for item in inner.split(","):
        item = item.strip()
        if not item:
            continue
        idx_text, _, value = item.partition(" ")
        idx = int(idx_text)
        if not 0 <= idx < len(attrs):
            raise ValueError(f"sparse index {idx} is out of range")
        value = value.strip().strip("'\"")
        row[idx] = None if value == "?" else value
    return row


def _parse_arff_liac(text: str) -> tuple[str, list[_Attribute], list[list[Any]]]:
    import arff  # liac-arff

    obj = arff.loads(text)
    attrs: list[_Attribute] = []
    for name, kind in obj["attributes"]:
        if isinstance(kind, list):
            attrs.append(_Attribute(str(name), "nominal", [str(v) for v in kind]))
        else:
            k = str(kind).split()[0].upper()
            attrs.append(
                _Attribute(str(name), {"STRING": "string", "DATE": "date"}.get(k, "numeric"))
            )
    return str(obj.get("relation", "")), attrs, list(obj["data"])


def load_arff(
    source: Any,
    target: str | int | None = None,
    *,
    missing: str = "impute",
    max_rows: int = 200_000,
    max_columns: int = 2_000,
    max_bytes: int = 200 * 2**20,
    max_classes: int = 100,
    ordinal_threshold: int = 10,
    name: str | None = None,
) -> Dataset:
    """Load a Weka ARFF file as a Dataset.

    The file is read with liac-arff; files it rejects (tab-separated headers,
    nominal lists with spaces such as ``{ C , H , G }``, padded values, values
    outside the declared list) are read by a tolerant parser of this module.
    Nominal attributes are encoded like CSV text columns (ordinal codes follow
    the declared level order); nominal attributes whose levels are all numbers
    become numeric; date attributes become seconds since 1970.

    Parameters
    ----------
    source : str, pathlib.Path, bytes or file-like
        As for :func:`load_csv`.
    target : str or int, optional
        Name (or position) of the class attribute; default the last attribute.
    missing, max_rows, max_columns, max_bytes, max_classes, ordinal_threshold, name
        As for :func:`load_csv`; ``name`` defaults to the file name, then the
        ``@relation``.

    Returns
    -------
    Dataset
        ``source`` is "arff".

    Raises
    ------
    DataError
        For every problem with the input.
    """
    opts = _options(missing, max_rows, max_columns, max_bytes, max_classes, ordinal_threshold)
    data, file_name = _read_source(source, opts.max_bytes)
    text, encoding = _decode(data, "ARFF")
    if not text.strip():
        raise DataError(
            "The file contains only blank lines. Upload an ARFF file with "
            "@attribute lines and a @data section."
        )
    report = [f"Read as {encoding}."]
    try:
        relation, attrs, rows = _parse_arff_liac(text)
        report.append("Parsed with liac-arff.")
    except Exception as liac_exc:  # noqa: BLE001 - liac raises many unrelated types
        try:
            relation, attrs, rows = _parse_arff_tolerant(text)
        except DataError as exc:
            raise DataError(f"{exc} (liac-arff also failed: {liac_exc})") from exc
        report.append(
            f"liac-arff could not read the file ({type(liac_exc).__name__}: "
            f"{str(liac_exc)[:80]}); used the tolerant ARFF parser instead."
        )
    names = [a.name.strip() for a in attrs]
    _check_names(names)
    _check_shape(len(rows), len(names), opts)
    if not rows:
        raise DataError(
            "The ARFF file has no data rows after @data. Add at least two rows of data."
        )
    report.append(f"Found {len(rows)} rows and {len(names)} attributes.")

    try:
        frame = pd.DataFrame(rows, columns=names, dtype=object)
    except (ValueError, TypeError) as exc:
        raise DataError(
            f"The ARFF data rows do not match the attributes: {exc}. Check "
            "that every row has one value per attribute."
        ) from exc
    nominal_levels: dict[str, list[str]] = {}
    cols: dict[str, pd.Series] = {}
    for attr, col in zip(attrs, names, strict=True):
        series = frame[col]
        if attr.kind == "numeric":
            try:
                # Fast path: numpy turns floats, numeric strings and None (-> NaN)
                # into float64 directly, far quicker than to_numeric on objects.
                cols[col] = pd.Series(np.asarray(series.to_numpy(), dtype=np.float64))
            except (ValueError, TypeError):
                values = pd.to_numeric(series, errors="coerce")
                bad = int((values.isna() & series.notna()).sum())
                report.append(f"Attribute {col!r}: {bad} non-numeric value(s) treated as missing.")
                cols[col] = values.astype(np.float64)
        elif attr.kind == "date":
            stamps = pd.to_datetime(series, errors="coerce", utc=True)
            seconds = (stamps - pd.Timestamp("1970-01-01", tz="UTC")).dt.total_seconds()
            cols[col] = seconds.astype(np.float64)
            report.append(f"Attribute {col!r}: dates converted to seconds since 1970.")
        else:
            cols[col] = series
            if attr.kind == "nominal" and attr.levels is not None:
                nominal_levels[col] = attr.levels
    table = pd.DataFrame(cols)
    stem = Path(file_name).stem if file_name else (relation or "uploaded data")
    return _assemble(
        table,
        target,
        opts=opts,
        name=name or stem,
        source="arff",
        report=report,
        nominal_levels=nominal_levels,
    )


# ---------------------------------------------------------------------------
# Files and folders
# ---------------------------------------------------------------------------

_CSV_SUFFIXES = (".csv", ".tsv", ".txt")
_ARFF_SUFFIXES = (".arff",)


def list_local_arff(directory: str | os.PathLike) -> list[Path]:
    """List the ``*.arff`` and ``*.csv`` files in a folder (not its subfolders).

    Parameters
    ----------
    directory : str or path-like
        The folder.

    Returns
    -------
    list of pathlib.Path
        Sorted by file name.

    Raises
    ------
    DataError
        If the folder does not exist.
    """
    folder = Path(directory).expanduser()
    if not folder.is_dir():
        raise DataError(
            f"Folder not found: {str(folder)!r}. Pass an existing folder that "
            "holds .arff or .csv files."
        )
    return sorted(
        (p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in (".arff", ".csv")),
        key=lambda p: p.name.lower(),
    )


def load_file(path_or_upload: Any, target: str | int | None = None, **kwargs: Any) -> Dataset:
    """Load a CSV or ARFF file, choosing the loader by file extension.

    Parameters
    ----------
    path_or_upload : str, pathlib.Path or file-like
        A path, or an uploaded file object with a ``name``.
    target : str or int, optional
        The label column; default the last one.
    **kwargs
        Passed to :func:`load_csv` or :func:`load_arff`.

    Returns
    -------
    Dataset

    Raises
    ------
    DataError
        For an unsupported extension, or anything the loader rejects.
    """
    if isinstance(path_or_upload, (str, os.PathLike)):
        file_name = str(path_or_upload)
    else:
        file_name = str(getattr(path_or_upload, "name", "") or "")
    suffix = Path(file_name).suffix.lower()
    if suffix in _CSV_SUFFIXES:
        return load_csv(path_or_upload, target, **kwargs)
    if suffix in _ARFF_SUFFIXES:
        return load_arff(path_or_upload, target, **kwargs)
    shown = f"'{suffix}'" if suffix else "no extension"
    raise DataError(
        f"Cannot tell the format of {Path(file_name).name or 'this data'!r} "
        f"({shown}). Use a file ending in .csv, .tsv, .txt or .arff."
    )


# ---------------------------------------------------------------------------
# OpenML
# ---------------------------------------------------------------------------

_OPENML_ENV = "TERNARY_OPENML_CACHE"
_FRAMES_DIR = "ternary-frames"
_CC18_FILE = "cc18_tasks.csv"


def _openml_root(cache_dir: str | os.PathLike | None) -> Path:
    if cache_dir is not None:
        return Path(cache_dir).expanduser()
    env = os.environ.get(_OPENML_ENV)
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ternary" / "openml"


def _cached_entries(root: Path) -> list[tuple[int, str, Path]]:
    entries = []
    folder = root / _FRAMES_DIR
    if not folder.is_dir():
        return entries
    for sub in folder.iterdir():
        meta_file = sub / "meta.json"
        if not (sub.is_dir() and meta_file.is_file() and (sub / "data.csv.gz").is_file()):
            continue
        try:
            meta = json.loads(meta_file.read_text(encoding="utf-8"))
            entries.append((int(meta["id"]), str(meta["name"]), sub))
        except (OSError, ValueError, KeyError, TypeError):
            continue  # a half-written or foreign folder: not usable offline
    return sorted(entries)


def _find_cached(root: Path, key: int | str) -> Path | None:
    entries = _cached_entries(root)
    text = str(key).strip()
    if text.isdigit():
        return next((p for i, _, p in entries if i == int(text)), None)
    wanted = text.lower()
    # Several versions may share a name; like openml, prefer the oldest id.
    return next((p for _, n, p in entries if n.lower() == wanted), None)


def _describe_cache(root: Path) -> str:
    entries = _cached_entries(root)
    if not entries:
        return f"The local cache at {str(root)!r} holds no datasets yet."
    listed = ", ".join(f"{i} ({n})" for i, n, _ in entries)
    return f"Datasets available offline from the cache at {str(root)!r}: {listed}."


def _normalise_openml_frame(frame: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, list[str]]]:
    """Numeric columns to float64, everything else to text; keep category order."""
    levels: dict[str, list[str]] = {}
    cols: dict[str, pd.Series] = {}
    for col in frame.columns:
        s = frame[col]
        name = str(col)
        if isinstance(s.dtype, pd.CategoricalDtype):
            levels[name] = [str(c) for c in s.cat.categories]
            cols[name] = (
                s.astype(object).where(s.notna(), None).map(lambda v: None if v is None else str(v))
            )
        elif pd.api.types.is_bool_dtype(s.dtype) or pd.api.types.is_numeric_dtype(s.dtype):
            cols[name] = s.astype(np.float64)
        else:
            cols[name] = (
                s.astype(object).where(s.notna(), None).map(lambda v: None if v is None else str(v))
            )
    return pd.DataFrame(cols), levels


def _write_frame_cache(
    root: Path,
    did: int,
    name: str,
    default_target: str | None,
    frame: pd.DataFrame,
    levels: dict[str, list[str]],
) -> Path:
    folder = root / _FRAMES_DIR
    folder.mkdir(parents=True, exist_ok=True)
    final = folder / str(did)
    # Write into a temporary folder and rename it, so a crash never leaves a
    # half-written entry that a later offline load would trust.
    tmp = Path(tempfile.mkdtemp(prefix=f".{did}-", dir=folder))
    try:
        with gzip.open(tmp / "data.csv.gz", "wt", encoding="utf-8", newline="") as fh:
            frame.to_csv(fh, index=False, na_rep="")
        meta = {
            "id": did,
            "name": name,
            "default_target": default_target,
            "columns": [str(c) for c in frame.columns],
            "numeric": [
                str(c) for c in frame.columns if pd.api.types.is_float_dtype(frame[c].dtype)
            ],
            "nominal_levels": levels,
        }
        (tmp / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
        if final.exists():
            shutil.rmtree(final)
        tmp.rename(final)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return final


def _read_frame_cache(folder: Path) -> tuple[dict[str, Any], pd.DataFrame]:
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    numeric = set(meta["numeric"])
    dtypes = {c: (np.float64 if c in numeric else object) for c in meta["columns"]}
    with gzip.open(folder / "data.csv.gz", "rt", encoding="utf-8", newline="") as fh:
        # Only the empty string means missing, so text such as "NA" survives.
        frame = pd.read_csv(fh, dtype=dtypes, keep_default_na=False, na_values=[""])
    frame.columns = [str(c) for c in frame.columns]
    return meta, frame


def _is_network_error(exc: BaseException) -> bool:
    import socket

    kinds: list[type] = [ConnectionError, TimeoutError, socket.gaierror, socket.timeout]
    try:
        import requests

        kinds.append(requests.exceptions.RequestException)
    except ImportError:  # pragma: no cover - requests ships with openml
        pass
    try:
        import urllib3

        kinds.append(urllib3.exceptions.HTTPError)
    except ImportError:  # pragma: no cover
        pass
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, tuple(kinds)):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


class _OpenMLSettings:
    """Point openml at our cache and cap its retries, restoring both afterwards."""

    def __init__(self, openml: Any, root: Path) -> None:
        self.config = openml.config
        self.root = root

    def __enter__(self) -> None:
        self.saved_root = getattr(self.config, "_root_cache_directory", None)
        self.saved_retries = getattr(self.config, "connection_n_retries", None)
        self.config.set_root_cache_directory(str(self.root))
        # openml sleeps between retries; offline that only delays the answer.
        if self.saved_retries is not None:
            self.config.connection_n_retries = min(int(self.saved_retries), 2)

    def __exit__(self, *exc: object) -> None:
        if self.saved_root is not None:
            self.config.set_root_cache_directory(self.saved_root)
        if self.saved_retries is not None:
            self.config.connection_n_retries = self.saved_retries


def _import_openml() -> Any:
    try:
        import openml
    except ImportError as exc:
        raise DataError(
            "The 'openml' package is not installed. Install it with "
            "'pip install openml' to load OpenML datasets."
        ) from exc
    return openml


def _default_target(meta: dict[str, Any], columns: list[str]) -> str:
    default = meta.get("default_target")
    if default and "," not in default and default in columns:
        return default
    return columns[-1]


def load_openml(
    data_id_or_name: int | str,
    *,
    cache_dir: str | os.PathLike | None = None,
    target: str | None = None,
) -> Dataset:
    """Load an OpenML dataset by id or name, from the local cache when possible.

    A dataset downloaded once is stored under ``cache_dir`` (see the module
    docstring) and later loads without any network access, by id or by name.

    Parameters
    ----------
    data_id_or_name : int or str
        OpenML dataset id (e.g. 61) or name (e.g. "iris").
    cache_dir : str or path-like, optional
        Cache folder. Default: the ``TERNARY_OPENML_CACHE`` environment
        variable, else ``~/.cache/ternary/openml`` (honouring XDG_CACHE_HOME).
    target : str, optional
        Label column; default the dataset's default target attribute (or the
        last column when it has none).

    Returns
    -------
    Dataset
        ``source`` is "openml".

    Raises
    ------
    DataError
        When the dataset is not cached and OpenML cannot be reached (the message
        lists the datasets available offline), when OpenML has no such dataset,
        or when the data cannot be turned into a classification problem.
    """
    root = _openml_root(cache_dir)
    cached = _find_cached(root, data_id_or_name)
    opts = _Options()
    if cached is not None:
        try:
            meta, frame = _read_frame_cache(cached)
        except (OSError, ValueError, KeyError, EOFError) as exc:
            raise DataError(
                f"The cached copy in {str(cached)!r} is damaged ({exc}). Delete "
                "that folder and load the dataset again while online."
            ) from exc
        report = [
            f"Loaded OpenML dataset {meta['id']} ({meta['name']}) from the local "
            f"cache {str(cached)!r}; no network needed."
        ]
        chosen = target if target is not None else _default_target(meta, list(frame.columns))
        return _assemble(
            frame,
            chosen,
            opts=opts,
            name=str(meta["name"]),
            source="openml",
            report=report,
            nominal_levels=meta.get("nominal_levels") or {},
        )

    openml = _import_openml()
    key: int | str = data_id_or_name
    if isinstance(key, str) and key.strip().isdigit():
        key = int(key.strip())
    try:
        with _OpenMLSettings(openml, root):
            remote = openml.datasets.get_dataset(
                key, download_data=True, download_qualities=False, download_features_meta_data=False
            )
            raw, _, _, _ = remote.get_data(target=None)
    except DataError:
        raise
    except Exception as exc:  # noqa: BLE001 - openml raises many unrelated types
        if _is_network_error(exc):
            raise DataError(
                f"Cannot load OpenML dataset {data_id_or_name!r}: the network is "
                f"unreachable ({type(exc).__name__}). {_describe_cache(root)} Connect to "
                "the internet, or pick one of the cached datasets or a built-in one."
            ) from exc
        message = str(exc)
        if "Unknown dataset" in message or "No active datasets" in message:
            raise DataError(
                f"OpenML has no dataset {data_id_or_name!r}. Check the id or name on openml.org."
            ) from exc
        raise DataError(
            f"OpenML could not provide dataset {data_id_or_name!r}: "
            f"{type(exc).__name__}: {message}. Try again later or pick "
            "another dataset."
        ) from exc
    frame, levels = _normalise_openml_frame(raw)
    did = int(remote.dataset_id)
    ds_name = str(remote.name)
    default = getattr(remote, "default_target_attribute", None)
    report = [f"Downloaded OpenML dataset {did} ({ds_name})."]
    try:
        folder = _write_frame_cache(root, did, ds_name, default, frame, levels)
        report.append(f"Saved a copy in {str(folder)!r} for offline use.")
    except OSError as exc:
        report.append(
            f"Could not save an offline copy ({exc}); it will be downloaded again next time."
        )
    meta = {"default_target": default}
    chosen = target if target is not None else _default_target(meta, list(frame.columns))
    return _assemble(
        frame,
        chosen,
        opts=opts,
        name=ds_name,
        source="openml",
        report=report,
        nominal_levels=levels,
    )


def openml_cc18_tasks(cache_dir: str | os.PathLike | None = None) -> pd.DataFrame:
    """List the tasks of the OpenML-CC18 benchmark suite (suite 99).

    Parameters
    ----------
    cache_dir : str or path-like, optional
        As for :func:`load_openml`. A successful listing is saved there and is
        returned (with ``attrs["from_cache"] = True``) when OpenML is unreachable.

    Returns
    -------
    pandas.DataFrame
        One row per task, as returned by ``openml.tasks.list_tasks`` (task id
        ``tid``, dataset id ``did``, ``name`` and dataset qualities).

    Raises
    ------
    DataError
        When OpenML cannot be reached and no listing was saved before.
    """
    root = _openml_root(cache_dir)
    saved = root / _CC18_FILE
    openml = _import_openml()
    try:
        with _OpenMLSettings(openml, root):
            suite = openml.study.get_suite(99)
            tasks = openml.tasks.list_tasks(output_format="dataframe", task_id=list(suite.tasks))
    except Exception as exc:  # noqa: BLE001 - openml raises many unrelated types
        if saved.is_file():
            try:
                table = pd.read_csv(saved)
            except (OSError, ValueError) as read_exc:
                raise DataError(
                    f"OpenML is unreachable and the saved CC18 list at "
                    f"{str(saved)!r} is damaged ({read_exc}). Delete it and "
                    "retry online."
                ) from exc
            table.attrs["from_cache"] = True
            return table
        reason = (
            "the network is unreachable"
            if _is_network_error(exc)
            else f"{type(exc).__name__}: {exc}"
        )
        raise DataError(
            f"Cannot list the OpenML-CC18 tasks: {reason}. Connect to the "
            "internet and try again; no saved copy exists yet."
        ) from exc
    table = pd.DataFrame(tasks).reset_index(drop=True)
    try:
        root.mkdir(parents=True, exist_ok=True)
        table.to_csv(saved, index=False)
    except OSError:
        pass  # the listing is still returned; only the offline copy is missing
    table.attrs["from_cache"] = False
    return table
