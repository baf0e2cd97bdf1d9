"""Tests for load_openml and its offline cache (ternary/data/_openml.py).

No test touches the network: they either block sockets or replace openml's functions
with fakes.
"""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ternary.data import (
    DataError,
    Dataset,
    load_openml,
    openml_cc18_tasks,
)


def report_text(ds: Dataset) -> str:
    return "\n".join(ds.report)


# ---------------------------------------------------------------------------
# OpenML, with the network disabled
# ---------------------------------------------------------------------------


@pytest.fixture
def no_network(monkeypatch):
    """Make every DNS lookup and socket connect fail, as on an offline machine."""

    def refuse(*args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "network disabled by the test")

    def refuse_connect(self, *args, **kwargs):
        raise OSError("network disabled by the test")

    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse_connect)
    import openml

    # openml sleeps between retries; there is nothing to wait for here.
    monkeypatch.setattr(openml._api_calls.time, "sleep", lambda s: None)


class FakeOpenMLDataset:
    dataset_id = 61
    name = "iris"
    default_target_attribute = "class"

    def get_data(self, target=None, **kwargs):
        frame = pd.DataFrame(
            {
                "sepal": [5.1, 4.9, 6.3, 5.8, np.nan, 6.0],
                "shape": pd.Categorical(
                    ["round", "long", "long", "round", "flat", "none"],
                    categories=["round", "long", "flat", "none"],
                ),
                "class": pd.Categorical(
                    ["setosa", "setosa", "virginica", "virginica", "setosa", "virginica"]
                ),
            }
        )
        return frame, None, [False, True, True], list(frame.columns)


def test_openml_offline_without_cache_says_network_unreachable(tmp_path, no_network):
    with pytest.raises(DataError) as info:
        load_openml(61, cache_dir=tmp_path)
    message = str(info.value)
    assert "network is unreachable" in message
    assert "holds no datasets yet" in message


def test_openml_download_is_cached_and_loads_offline(tmp_path, monkeypatch):
    import openml

    calls = []

    def fake_get_dataset(key, **kwargs):
        calls.append((key, kwargs, openml.config.get_cache_directory()))
        return FakeOpenMLDataset()

    monkeypatch.setattr(openml.datasets, "get_dataset", fake_get_dataset)
    saved_root = openml.config._root_cache_directory
    first = load_openml("61", cache_dir=tmp_path)
    # The description comes first (its qualities state the size); the data after it.
    assert calls[0][0] == 61 and calls[0][1]["download_qualities"] is True
    # openml's own cache pointed at ours during the call, and was restored after.
    assert calls[0][2].startswith(str(tmp_path))
    assert openml.config._root_cache_directory == saved_root
    assert first.source == "openml" and first.name == "iris"
    assert list(first.y) == ["setosa", "setosa", "virginica", "virginica", "setosa", "virginica"]
    # "none" is a category here, not a missing value; 4 levels -> 4 one-hot columns.
    assert first.feature_names == ["sepal", "shape=round", "shape=long", "shape=flat", "shape=none"]
    assert first.X["sepal"].iloc[4] == pytest.approx(5.8)  # median of the five present
    assert (tmp_path / "ternary-frames" / "61" / "meta.json").is_file()

    def offline(*args, **kwargs):
        raise AssertionError("the cache must be used without calling openml")

    monkeypatch.setattr(openml.datasets, "get_dataset", offline)
    for key in (61, "61", "iris", "IRIS"):
        again = load_openml(key, cache_dir=tmp_path)
        pd.testing.assert_frame_equal(again.X, first.X)
        np.testing.assert_array_equal(again.y, first.y)
        assert "from the local cache" in report_text(again)
    # A different target on the cached copy.
    by_shape = load_openml(61, cache_dir=tmp_path, target="shape")
    assert by_shape.class_names == ["flat", "long", "none", "round"]


def test_openml_offline_lists_cached_datasets(tmp_path, monkeypatch, no_network):
    import openml

    real = openml.datasets.get_dataset
    monkeypatch.setattr(openml.datasets, "get_dataset", lambda *a, **k: FakeOpenMLDataset())
    load_openml(61, cache_dir=tmp_path)
    monkeypatch.setattr(openml.datasets, "get_dataset", real)
    with pytest.raises(DataError) as info:
        load_openml(31, cache_dir=tmp_path)
    message = str(info.value)
    assert "network is unreachable" in message
    assert "61 (iris)" in message


def test_openml_cache_dir_from_environment(tmp_path, monkeypatch):
    import openml

    monkeypatch.setattr(openml.datasets, "get_dataset", lambda *a, **k: FakeOpenMLDataset())
    monkeypatch.setenv("TERNARY_OPENML_CACHE", str(tmp_path / "env-cache"))
    load_openml(61)
    assert (tmp_path / "env-cache" / "ternary-frames" / "61" / "data.csv.gz").is_file()
    monkeypatch.delenv("TERNARY_OPENML_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    load_openml(61)
    assert (tmp_path / "xdg" / "ternary" / "openml" / "ternary-frames" / "61").is_dir()


def test_openml_unknown_dataset_and_other_errors(tmp_path, monkeypatch):
    import openml
    from openml.exceptions import OpenMLServerException

    def unknown(*args, **kwargs):
        raise OpenMLServerException("Unknown dataset", code=111)

    monkeypatch.setattr(openml.datasets, "get_dataset", unknown)
    with pytest.raises(DataError, match="OpenML has no dataset 999999"):
        load_openml(999999, cache_dir=tmp_path)

    def broken(*args, **kwargs):
        raise KeyError("oml:data_set_description")

    monkeypatch.setattr(openml.datasets, "get_dataset", broken)
    with pytest.raises(DataError, match="could not provide dataset 5.*Try again later"):
        load_openml(5, cache_dir=tmp_path)


def test_cc18_listing_online_then_cached_offline(tmp_path, monkeypatch):
    import openml

    class Suite:
        tasks = [3, 6, 11]

    def list_tasks(output_format, task_id):
        assert output_format == "dataframe"
        return pd.DataFrame(
            {"tid": task_id, "did": [3, 6, 11], "name": ["kr-vs-kp", "letter", "balance-scale"]}
        )

    monkeypatch.setattr(openml.study, "get_suite", lambda sid: Suite())
    monkeypatch.setattr(openml.tasks, "list_tasks", list_tasks)
    online = openml_cc18_tasks(cache_dir=tmp_path)
    assert list(online["tid"]) == [3, 6, 11]
    assert online.attrs["from_cache"] is False

    def unreachable(*args, **kwargs):
        import requests

        raise requests.exceptions.ConnectionError("offline")

    monkeypatch.setattr(openml.study, "get_suite", unreachable)
    cached = openml_cc18_tasks(cache_dir=tmp_path)
    assert cached.attrs["from_cache"] is True
    assert list(cached["name"]) == ["kr-vs-kp", "letter", "balance-scale"]


def test_cc18_offline_without_saved_copy(tmp_path, no_network):
    with pytest.raises(DataError, match="network is unreachable.*no saved copy"):
        openml_cc18_tasks(cache_dir=tmp_path)


def test_importing_the_module_does_not_import_openml():
    code = "import sys, ternary.data; print('openml' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert out.stdout.strip() == "False"


class FakeHugeDataset(FakeOpenMLDataset):
    """OpenML states a size beyond the limits; its data must never be fetched."""

    qualities = {"NumberOfInstances": 5_000_000.0, "NumberOfFeatures": 12.0}

    def get_data(self, target=None, **kwargs):
        raise AssertionError("the data was downloaded although OpenML stated its size")


def test_openml_limits_apply_before_and_after_the_download(tmp_path, monkeypatch):
    import openml

    monkeypatch.setattr(openml.datasets, "get_dataset", lambda *a, **k: FakeHugeDataset())
    with pytest.raises(DataError, match="5000000 data rows; the limit is 200000"):
        load_openml(99, cache_dir=tmp_path)
    # Without stated qualities, the downloaded table is checked against the same limits.
    monkeypatch.setattr(openml.datasets, "get_dataset", lambda *a, **k: FakeOpenMLDataset())
    with pytest.raises(DataError, match="6 data rows; the limit is 5"):
        load_openml(61, cache_dir=tmp_path, max_rows=5)
    assert not (tmp_path / "ternary-frames" / "61").exists()
    # missing="keep" reaches the OpenML path too: the one missing sepal stays NaN.
    kept = load_openml(61, cache_dir=tmp_path, missing="keep")
    assert int(kept.X["sepal"].isna().sum()) == 1
    # And the cached copy is held to the limits as well.
    with pytest.raises(DataError, match="6 data rows; the limit is 5"):
        load_openml("iris", cache_dir=tmp_path, max_rows=5)


def test_digits_that_are_not_ascii_are_a_name_not_a_crash(tmp_path, monkeypatch):
    import openml

    asked = []

    def unknown(key, **kwargs):
        asked.append(key)
        raise openml.exceptions.OpenMLServerException("Unknown dataset")

    monkeypatch.setattr(openml.datasets, "get_dataset", unknown)
    with pytest.raises(DataError, match="OpenML has no dataset '²'"):
        load_openml("²", cache_dir=tmp_path)
    assert asked == ["²"]  # looked up as a name: int("²") would have raised
