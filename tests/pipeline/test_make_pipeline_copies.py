"""`make_pipeline` never changes a step it is given; `run_cv` takes a DataFrame-returning
preprocessor.

The app hands the dataset's shared ``ds.preprocessor`` to `make_pipeline`, which set it
to pandas output; `run_cv` then met DataFrames where it tested arrays with ``np.isnan``
("The truth value of a Series is ambiguous") on Accuracy vs coverage and Grafting.
"""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ternary import TernaryTreeClassifier, make_pipeline
from ternary.data import load_csv
from ternary.experiment import run_cv


def _table(n: int = 150, seed: int = 0) -> bytes:
    rng = np.random.default_rng(seed)
    lines = ["age,colour,size,y"]
    for i in range(n):
        age = "" if i % 9 == 0 else str(int(rng.integers(18, 80)))
        colour = ["red", "green", "blue", ""][int(rng.integers(0, 4))]
        size = rng.normal(5, 2)
        label = "yes" if size + (colour == "red") * 2 + rng.normal(0, 1) > 6 else "no"
        lines.append(f"{age},{colour},{size:.2f},{label}")
    return ("\n".join(lines) + "\n").encode()


@pytest.fixture(scope="module")
def ds():
    return load_csv(_table())


def _output_config(step) -> dict:
    return dict(getattr(step, "_sklearn_output_config", {}))


def test_the_given_steps_are_left_as_they_were(ds):
    pre = ds.preprocessor
    params, config = copy.deepcopy(pre.get_params()), _output_config(pre)
    raw = ds.raw.drop(columns=[ds.target])
    before = pre.transform(raw)
    tree = TernaryTreeClassifier(max_depth=3, random_state=0).fit(ds.X, ds.y)
    tree_params = tree.get_params()
    pipe = make_pipeline(pre, tree)
    assert pre.get_params() == params and _output_config(pre) == config
    assert isinstance(pre.transform(raw), np.ndarray)  # still arrays, as before
    np.testing.assert_array_equal(pre.transform(raw), before)
    assert tree.get_params() == tree_params and pipe[-1] is tree
    # the pipeline's own copy is fitted and hands out named DataFrames
    assert pipe[0] is not pre and _output_config(pipe[0]) == {"transform": "pandas"}
    out = pipe[0].transform(raw)
    assert isinstance(out, pd.DataFrame) and list(out.columns) == list(ds.X.columns)
    np.testing.assert_array_equal(out.to_numpy(), before)
    np.testing.assert_array_equal(pipe.predict_proba(raw), tree.predict_proba(ds.X))


def _combos():
    return [{"delta_method": "margin"}, {"delta_method": "none"}]


def test_run_cv_takes_a_preprocessor_that_returns_dataframes(ds):
    raw = ds.raw.drop(columns=[ds.target])
    arrays = run_cv(raw, ds.y, _combos(), cv=3, preprocessor=ds.preprocessor, seed=1)
    frames_pre = copy.deepcopy(ds.preprocessor).set_output(transform="pandas")
    frames = run_cv(raw, ds.y, _combos(), cv=3, preprocessor=frames_pre, seed=1)
    cols = ["combo", "fold", "decided_accuracy", "uncertain_rate", "accuracy", "n_leaves"]
    pd.testing.assert_frame_equal(frames[cols], arrays[cols])


@pytest.fixture(scope="module")
def own_ds():
    """A dataset of this test alone (no other test's pipeline touched its preprocessor)."""
    return load_csv(_table(seed=1))


@settings(max_examples=8, deadline=None)
@given(order=st.permutations(range(3)), pandas_first=st.booleans())
def test_building_pipelines_in_any_order_changes_no_given_step(own_ds, order, pandas_first):
    ds = own_ds
    pre = copy.deepcopy(ds.preprocessor)
    if pandas_first:
        pre.set_output(transform="pandas")
    config = _output_config(pre)
    models = [
        TernaryTreeClassifier(max_depth=2, random_state=0).fit(ds.X, ds.y),
        TernaryTreeClassifier(max_depth=3, random_state=0),  # not fitted
        TernaryTreeClassifier(max_depth=2).fit(ds.X.to_numpy(), ds.y),  # fitted without names
    ]
    for i in order:
        make_pipeline(pre, models[i])
        assert _output_config(pre) == config
