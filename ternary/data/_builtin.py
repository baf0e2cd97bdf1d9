"""Built-in datasets: generators that need no network and scikit-learn's bundled sets.

Breiman's twonorm, ringnorm and waveform carry their published Bayes error, so a
tree's error can be read against the best any classifier can do.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from ._dataset import DataError, Dataset, _class_names, _quoted

#: Name of the dataset the app shows first.
DEFAULT_DATASET = "two moons"


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
    """Generate Breiman's twonorm: two Gaussians N(+a·1, I) and N(-a·1, I), a = 2/sqrt(20).

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
    """Generate Breiman's ringnorm: N(0, 4I) against N(a·1, I), a = 1/sqrt(20).

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
    """Generate Breiman's waveform: 21 noisy mixtures of two of three triangular waves.

    ``h1(i) = max(6 - |i - 11|, 0)``, ``h2(i) = h1(i - 4)``, ``h3(i) = h1(i + 4)`` for
    i = 1..21. Class 0 is ``u·h1 + (1-u)·h2``, class 1 is ``u·h1 + (1-u)·h3``, class 2 is
    ``u·h2 + (1-u)·h3``, with u ~ U(0, 1) per row and N(0, 1) noise per feature;
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
    """Load Fisher's iris (150 × 4, 3 classes), bundled with scikit-learn.

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


def _breast_cancer_paper() -> Dataset:
    """Breast cancer labelled in scikit-learn's class order, as Smits (2026) fitted it.

    scikit-learn codes malignant 0 and benign 1, and the paper's trees (its Figs. 3
    and 4) were fitted on those codes; a leaf whose classes tie takes the first
    class, so its two 50/50 leaves read malignant. The estimator orders classes by
    sorting their labels, which puts "benign" first; here each label starts with
    its scikit-learn code ("0 malignant", "1 benign") so that sorting keeps the
    paper's order, and the tie goes to malignant in ``predict`` and in every
    drawing alike. Rows and features are `load_breast_cancer`'s.
    """
    from sklearn import datasets

    bunch = datasets.load_breast_cancer()
    labels = np.asarray([f"{code} {name}" for code, name in enumerate(bunch.target_names)])
    return _from_arrays(
        bunch.data,
        labels.astype(object)[np.asarray(bunch.target)],
        [str(n) for n in bunch.feature_names],
        name="breast cancer (paper)",
        source="sklearn",
        report=[
            "Loaded scikit-learn's bundled breast cancer dataset.",
            "Labels carry scikit-learn's codes (0 malignant, 1 benign), the order the paper's "
            "trees were fitted in: a tie between the classes goes to the first, malignant.",
        ],
    )


def load_digits() -> Dataset:
    """8×8 handwritten digits (1797 × 64, 10 classes), bundled with scikit-learn.

    Returns
    -------
    Dataset
        Labels are the integers 0-9.
    """
    from sklearn import datasets

    return _sklearn_bundle(datasets.load_digits, "digits", label_names=False)


#: Webb (1997) §3, reconstructed: (A, B) of each training example, by class. The text gives
#: the C4.5 tree (A > 7: o (10); A ≤ 2: * (4); 2 < A ≤ 7, B ≤ 5: * (5, 1 wrong); B > 5: · (11))
#: and, while grafting, more counts: B ≤ 5 holds 1 ·, 4 * and 9 o; B ≤ 3 holds the 9 o only;
#: the leaf A ≤ 2 has B ≥ 6 there and the data's lowest A and highest B; within 2 < A ≤ 7 a cut
#: at A = 5 isolates 10 · (the misclassified · at A = 4, B = 4 among them). The integer
#: positions below satisfy all of these; Figure 1's exact positions are not in the text.
_WEBB_POINTS = {
    "star": [(1, 6), (2, 8), (1, 10), (2, 9), (6, 4), (7, 5), (6, 5), (7, 4)],
    "dot": [
        (4, 4),
        (3, 6),
        (3, 7),
        (3, 8),
        (4, 6),
        (4, 7),
        (4, 8),
        (5, 6),
        (5, 7),
        (5, 8),
        (6, 7),
        (7, 8),
    ],
    "circle": [(8, 1), (9, 1), (10, 1), (8, 2), (9, 2), (10, 2), (8, 3), (9, 3), (10, 3), (9, 8)],
}


def webb_example() -> Dataset:
    """The worked example of Webb (1997, §3): 30 examples, attributes A and B, three classes.

    A reconstruction, not the paper's data: the paper draws its instance space in
    Figure 1 without listing coordinates. These integer points reproduce every count
    §3 states: C4.5's cuts at A = 7, A = 2 and B = 5 with leaves o (10), * (4),
    * (5, one misclassified ·, at A = 4, B = 4) and · (11); 1 ·, 4 * and 9 o with
    B ≤ 5; only the 9 o with B ≤ 3; and 10 · alone on one side of A = 5 within
    2 < A ≤ 7. The classes *, · and o are named ``star``, ``dot`` and ``circle``.

    Returns
    -------
    Dataset
        2 features ``A``, ``B``; labels ``star`` (8 rows), ``dot`` (12) and ``circle`` (10).

    Examples
    --------
    >>> ds = webb_example()
    >>> ds.X.shape, sorted(ds.class_names)
    ((30, 2), ['circle', 'dot', 'star'])
    """
    labels = [name for name, points in _WEBB_POINTS.items() for _ in points]
    X = np.array([p for points in _WEBB_POINTS.values() for p in points], dtype=np.float64)
    return _from_arrays(
        X,
        np.array(labels, dtype=object),
        ["A", "B"],
        name="webb example",
        source="builtin",
        report=[
            "Webb (1997), section 3: a reconstruction of Figure 1's 30 training examples "
            "from the counts the text gives (the figure's exact positions are not in the text).",
            "Classes *, · and o are named star, dot and circle.",
        ],
    )


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
    # the paper's Figs. 3 and 4: its class order, so its 50/50 leaves read malignant
    "breast cancer (paper)": _breast_cancer_paper,
    "digits": load_digits,
    "webb example": webb_example,
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
        The generated or bundled data, as the named function of
        :data:`BUILTIN_DATASETS` returns it (``source`` is "builtin", "breiman" or
        "sklearn").

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
        raise DataError(f"Unknown built-in dataset {_quoted(name)}. Choose one of: {choices}.")
    func = BUILTIN_DATASETS[lookup[key]]
    try:
        return func(**kwargs)
    except TypeError as exc:
        raise DataError(
            f"The built-in dataset {_quoted(lookup[key])} does not accept these arguments "
            f"({', '.join(sorted(kwargs))}): {exc}. Remove or rename them."
        ) from exc
