"""Tests for the built-in datasets (ternary/data/_builtin.py) and the Dataset container."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from ternary.data import (
    BUILTIN_DATASETS,
    DEFAULT_DATASET,
    DataError,
    Dataset,
    load_breast_cancer,
    load_builtin,
    load_digits,
    load_iris,
    load_wine,
    make_blobs_dataset,
    make_circles_dataset,
    make_moons_dataset,
    make_ringnorm,
    make_twonorm,
    make_waveform,
    make_xor_dataset,
)

# ---------------------------------------------------------------------------
# Built-in datasets
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "shape", "classes", "bayes", "source"),
    [
        ("two moons", (500, 2), ["0", "1"], None, "builtin"),
        ("circles", (500, 2), ["0", "1"], None, "builtin"),
        ("xor", (500, 2), ["0", "1"], None, "builtin"),
        ("blobs", (500, 2), ["0", "1", "2"], None, "builtin"),
        ("twonorm", (7400, 20), ["0", "1"], 0.023, "breiman"),
        ("ringnorm", (7400, 20), ["0", "1"], 0.017, "breiman"),
        ("waveform", (5000, 21), ["0", "1", "2"], 0.14, "breiman"),
        ("iris", (150, 4), ["setosa", "versicolor", "virginica"], None, "sklearn"),
        ("wine", (178, 13), ["class_0", "class_1", "class_2"], None, "sklearn"),
        ("breast cancer", (569, 30), ["benign", "malignant"], None, "sklearn"),
        ("digits", (1797, 64), [str(d) for d in range(10)], None, "sklearn"),
    ],
)
def test_builtin_shapes_classes_and_bayes_error(key, shape, classes, bayes, source):
    ds = load_builtin(key)
    assert ds.X.shape == shape
    assert ds.class_names == classes
    assert ds.bayes_error == bayes
    assert ds.source == source
    assert (ds.X.dtypes == np.float64).all()
    assert ds.y.ndim == 1 and len(ds.y) == shape[0]
    summary = ds.summary()
    assert summary["n_samples"] == shape[0] and summary["n_features"] == shape[1]
    assert sum(summary["class_counts"].values()) == shape[0]


def test_registry_has_every_builtin_and_the_default():
    assert set(BUILTIN_DATASETS) == {
        "two moons",
        "circles",
        "xor",
        "blobs",
        "twonorm",
        "ringnorm",
        "waveform",
        "webb example",
        "iris",
        "wine",
        "breast cancer",
        "breast cancer (paper)",
        "digits",
    }
    assert DEFAULT_DATASET == "two moons"
    ds = load_builtin(DEFAULT_DATASET)
    expected = make_moons_dataset(n_samples=500, noise=0.3, random_state=0)
    pd.testing.assert_frame_equal(ds.X, expected.X)


@pytest.mark.parametrize(
    "make",
    [
        make_moons_dataset,
        make_circles_dataset,
        make_xor_dataset,
        make_blobs_dataset,
        make_twonorm,
        make_ringnorm,
        make_waveform,
    ],
)
def test_generators_are_reproducible(make):
    a = make(n_samples=300, random_state=7)
    b = make(n_samples=300, random_state=7)
    c = make(n_samples=300, random_state=8)
    pd.testing.assert_frame_equal(a.X, b.X)
    np.testing.assert_array_equal(a.y, b.y)
    assert not np.allclose(a.X.to_numpy(), c.X.to_numpy())
    assert a.n_samples == 300


def test_load_builtin_names_are_forgiving_and_unknown_names_list_choices():
    assert load_builtin("Two_Moons", n_samples=50).n_samples == 50
    assert load_builtin("breast-cancer").n_features == 30
    with pytest.raises(DataError) as info:
        load_builtin("mnist")
    assert "Unknown built-in dataset 'mnist'" in str(info.value)
    for key in BUILTIN_DATASETS:
        assert repr(key) in str(info.value)
    with pytest.raises(DataError, match="does not accept"):
        load_builtin("iris", noise=0.1)


def test_twonorm_sign_rule_matches_published_bayes_error():
    ds = make_twonorm(n_samples=20_000, random_state=1)
    predicted = (ds.X.to_numpy().sum(axis=1) > 0).astype(int)
    error = float(np.mean(predicted != ds.y))
    assert abs(error - 0.023) < 0.01
    # The class means are ±2/sqrt(20) in every coordinate.
    a = 2 / math.sqrt(20)
    means = ds.X.to_numpy()[ds.y == 1].mean(axis=0)
    np.testing.assert_allclose(means, a, atol=0.05)


def test_ringnorm_quadratic_bayes_rule_matches_published_error():
    ds = make_ringnorm(n_samples=20_000, random_state=1)
    X = ds.X.to_numpy()
    d = X.shape[1]
    a = 1 / math.sqrt(20)
    log_wide = -np.sum(X**2, axis=1) / 8 - d * math.log(2)  # N(0, 4I)
    log_shifted = -np.sum((X - a) ** 2, axis=1) / 2  # N(a·1, I)
    predicted = (log_shifted > log_wide).astype(int)
    error = float(np.mean(predicted != ds.y))
    assert abs(error - 0.017) < 0.01
    np.testing.assert_allclose(X[ds.y == 0].std(axis=0), 2.0, atol=0.1)


def test_waveform_follows_breimans_recipe():
    ds = make_waveform(n_samples=30_000, random_state=2)
    i = np.arange(1, 22)
    h1 = np.maximum(6 - np.abs(i - 11), 0)
    h2 = np.maximum(6 - np.abs(i - 4 - 11), 0)
    h3 = np.maximum(6 - np.abs(i + 4 - 11), 0)
    X = ds.X.to_numpy()
    # E[u] = 1/2, so each class mean is the average of its two base waves.
    for label, (p, q) in enumerate([(h1, h2), (h1, h3), (h2, h3)]):
        np.testing.assert_allclose(X[ds.y == label].mean(axis=0), (p + q) / 2, atol=0.1)
    assert ds.bayes_error == 0.14
    counts = np.bincount(ds.y)
    assert counts.min() > 0.3 * len(ds.y)


def test_sklearn_wrappers_keep_feature_names():
    iris = load_iris()
    assert iris.feature_names[0] == "sepal length (cm)"
    assert list(iris.y[:1]) == ["setosa"]
    assert load_wine().source == "sklearn"
    assert load_breast_cancer().class_names == ["benign", "malignant"]
    assert load_digits().y.dtype.kind == "i"


def test_dataset_rejects_misaligned_rows():
    with pytest.raises(DataError, match="3 rows but y has 2"):
        Dataset(
            X=pd.DataFrame({"a": [1.0, 2.0, 3.0]}),
            y=np.array([0, 1]),
            class_names=["0", "1"],
            name="bad",
            source="builtin",
        )
