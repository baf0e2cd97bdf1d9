"""Decision regions with more than two features: the note, and the rings of the full model."""

from __future__ import annotations

import numpy as np

from appkit import datasets, regions
from appkit.model import FitSpec, fit, model_params, split_data
from appkit.state import DEFAULTS
from ternary.data import load_builtin
from tests.app.helpers import assert_clean, open_app


def test_rings_mark_exactly_the_rows_the_all_feature_model_flags():
    ds = load_builtin("wine")
    key = datasets.dataset_key(ds)
    pair = tuple(ds.feature_names[:2])
    spec = FitSpec(key, pair, 0.3, 0, model_params(DEFAULTS))
    res = regions.regions_result(ds, spec)
    full = FitSpec(key, None, 0.3, 0, model_params(DEFAULTS))
    sp = split_data(ds, full)
    flags = fit(sp, full).predict_verdict(sp.X_test)
    assert list(sp.X_test.index) == list(res.split.X_test.index)  # the same test rows
    ring = next(t for t in res.figure.data if t.name.startswith("flagged on all"))
    assert list(ring.customdata) == list(np.flatnonzero(flags == 0))
    assert np.array_equal(ring.x, res.split.X_test.iloc[np.flatnonzero(flags == 0), 0])
    assert "two plotted features only" in res.note and f"all {ds.n_features}" in res.note


def test_two_feature_data_has_no_note_and_the_page_shows_it_for_wine():
    ds = load_builtin("two moons")
    spec = FitSpec(datasets.dataset_key(ds), tuple(ds.feature_names), 0.3, 0, {})
    res = regions.regions_result(ds, spec)
    assert res.note is None
    assert not any(str(t.name).startswith("flagged on all") for t in res.figure.data)
    at = open_app("regions")
    at.sidebar.selectbox(key="dataset").set_value("wine").run()
    assert_clean(at)
    assert any("two plotted features only" in i.value for i in at.info)
