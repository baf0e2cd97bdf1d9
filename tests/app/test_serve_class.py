"""Serving a class from one server (issue 32): the settings that keep each page run cheap,
and the accuracy-coverage page's derived tables and figures computed once per CV setting.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from appkit import context, coverage, datasets
from appkit.model import CVSpec, FitSpec
from appkit.state import DEFAULTS
from ternary import data as tdata

ROOT = Path(__file__).resolve().parents[2]


def test_the_server_runs_no_full_collection_and_no_file_watcher_after_each_page_run():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["runner"]["postScriptGC"] is False
    assert config["server"]["fileWatcherType"] == "none"


def test_streamlit_knows_both_settings():
    # hidden options are still options: a misspelt key would be ignored with a warning only
    from streamlit import config

    assert config.get_option("runner.postScriptGC") in (True, False)
    assert config.get_option("server.fileWatcherType") in ("auto", "watchdog", "poll", "none")
    with pytest.raises(RuntimeError, match="not defined"):  # what a misspelt key would get
        config.get_option("runner.postScriptGc")


def _iris_spec(tag: str) -> tuple:
    ds = tdata.load_builtin("iris")
    return ds, CVSpec(datasets.dataset_key(ds) + (tag,), 3, 2, 0)


def test_the_coverage_view_is_derived_once_per_setting_and_equals_a_fresh_derivation():
    ds, spec = _iris_spec("test-view")
    results = coverage.cv_results(ds, spec)
    first = coverage.coverage_view(ds, spec, results, False, 1.0)
    # a second student with the same setting gets the very same objects: nothing recomputed
    assert coverage.coverage_view(ds, spec, coverage.cv_results(ds, spec), False, 1.0) is first
    pd.testing.assert_frame_equal(first.summary, coverage.summarize(results, ds.bayes_error))
    pd.testing.assert_frame_equal(first.win_tie_loss, coverage.win_tie_loss(results).round(4))
    assert first.baseline == float(results["cart_accuracy"].mean())
    names = [trace.name for trace in first.figure.data]
    assert any("Chow" in str(name) for name in names)
    # the paper overlay and the text size are part of the setting: their own views
    with_paper = coverage.coverage_view(ds, spec, results, True, 1.0)
    assert with_paper is not first
    assert len(with_paper.figure.data) > len(first.figure.data)
    assert coverage.coverage_view(ds, spec, results, False, 1.5) is not first


def test_the_selective_view_is_shared_and_holds_the_curves_it_draws():
    ds = tdata.load_builtin("iris")
    key = datasets.dataset_key(ds) + ("test-selective",)
    params = {"delta_method": "none", "max_depth": 2, "random_state": 0}
    spec = FitSpec(key, None, DEFAULTS["test_size"], 0, params)
    view = coverage.selective_view(ds, spec)
    assert coverage.selective_view(ds, spec) is view
    fresh = coverage.selective_curves(ds, spec)
    pd.testing.assert_frame_equal(view.result.curves, fresh.curves)
    pd.testing.assert_frame_equal(view.table, context.rounded(fresh.table))
    drawn = {str(trace.name) for trace in view.figure.data}
    assert any("Chow" in name for name in drawn)


def test_a_class_asking_for_the_same_new_run_at_once_computes_it_once():
    import threading

    calls, started, release = [], threading.Event(), threading.Event()
    table = pd.DataFrame({"accuracy": [0.9]})

    def compute():
        calls.append(threading.current_thread().name)
        started.set()
        release.wait(30)
        return table

    key = ("test-single-flight", object())
    got = {}

    def student(name):
        got[name] = coverage._stored(key, compute)

    first = threading.Thread(target=student, args=("first",), name="first")
    first.start()
    assert started.wait(30)
    second = threading.Thread(target=student, args=("second",), name="second")
    second.start()
    second.join(0.3)  # the second student is waiting for the first one's run meanwhile
    release.set()
    first.join(30)
    second.join(30)
    assert calls == ["first"]
    pd.testing.assert_frame_equal(got["first"], table)
    pd.testing.assert_frame_equal(got["second"], table)
    assert got["second"] is not got["first"]  # each session its own copy


def test_a_failed_run_lets_the_waiting_student_run_it_again():
    def broken():
        raise RuntimeError("no luck")

    key = ("test-single-flight-failure",)
    with pytest.raises(RuntimeError, match="no luck"):
        coverage._stored(key, broken)
    table = pd.DataFrame({"accuracy": [0.5]})
    pd.testing.assert_frame_equal(coverage._stored(key, lambda: table), table)
