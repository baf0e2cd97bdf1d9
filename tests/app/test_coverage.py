"""appkit.coverage: the run-time estimate, the cached CV table, clicks on a sweep
point, and the δ scale that flags a chosen share.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st_

from appkit import coverage, datasets
from appkit.model import CVSpec
from appkit.state import DEFAULTS
from ternary import experiment


def test_estimate_grows_with_the_data_and_covers_the_builtins_at_their_default_size():
    small = coverage.estimate_seconds(500, 2, 5)
    assert coverage.estimate_seconds(5000, 2, 5) > small
    assert coverage.estimate_seconds(500, 60, 5) > small
    assert coverage.estimate_seconds(500, 2, 10) > small
    for name in datasets.BUILTIN_NAMES:
        kwargs = datasets.builtin_kwargs(name, {**DEFAULTS, **datasets.generator_defaults(name)})
        ds, _ = datasets.load_builtin(name, **kwargs)
        assert coverage.estimate_seconds(ds.n_samples, ds.n_features, 5) <= (
            coverage.AUTO_RUN_SECONDS
        ), name


def test_cv_results_are_cached_and_handed_out_as_copies():
    from ternary import data as tdata

    ds = tdata.load_builtin("iris")
    spec = CVSpec(datasets.dataset_key(ds) + ("test-cache",), 3, 2, 0)
    calls = []
    first = coverage.cv_results(ds, spec, progress=lambda d, t, m="": calls.append(d))
    assert calls[-1] == 11 * 3  # 11 combinations × 3 folds, reported as they finish
    first.loc[:, "accuracy"] = -1.0  # a page scribbling on its copy...
    calls.clear()
    again = coverage.cv_results(ds, spec, progress=lambda d, t, m="": calls.append(d))
    assert calls == []  # ...served from the cache, no refit
    assert (again["accuracy"] >= 0).all()  # ...does not reach the cache
    # it is run_cv's own table, nothing recomputed on the side
    direct = experiment.run_cv(ds.X, ds.y, cv=3, max_depth=2, seed=0)
    pd.testing.assert_frame_equal(
        again.drop(columns="fit_seconds"), direct.drop(columns="fit_seconds")
    )


def test_a_clicked_sweep_point_becomes_the_model_setting():
    assert coverage.selected_setting(None) is None
    assert coverage.selected_setting({"selection": {"points": [{"customdata": 3}]}}) is None
    point = {"customdata": ["epsilon", 0.15, "quality_plateau", "hard_middle"]}
    assert coverage.selected_setting({"selection": {"points": [point]}}) == {
        "epsilon": 0.15,
        "delta_method": "quality_plateau",
        "routing": "hard_middle",
    }


@given(
    st_.lists(st_.floats(0, 50, allow_nan=False), min_size=1, max_size=40),
    st_.floats(0, 1),
)
@settings(max_examples=60, deadline=None)
def test_scale_for_share_flags_exactly_the_nearest_rows(distances, share):
    d = np.array(distances)
    scale = coverage.scale_for_share(d, share, 1.0)
    k = round(share * len(d))
    # rows tied at one distance go together: the reachable counts, nearest k wins
    reachable = sorted({int(np.sum(d < v)) for v in d} | {len(d)})
    target = min(reachable, key=lambda c: (abs(c - k), c))
    high = coverage.BOUNDS["delta_scale"][1]
    if scale < high:
        assert np.sum(d < scale) == target
    else:  # capped at the slider's end: as near as the cap can reach
        assert np.sum(d < scale) <= target
