"""Built-in sets with many features open on their two most important ones, never a constant."""

from __future__ import annotations

import numpy as np

from appkit import datasets
from appkit.model import important_pair
from ternary.data import load_builtin
from tests.app.helpers import assert_clean, open_app


def test_digits_opens_on_two_varying_pixels_not_the_constant_corner():
    ds = load_builtin("digits")
    assert ds.X["pixel_0_0"].nunique() == 1  # the old default: every point on one line
    pair = important_pair(ds, datasets.dataset_key(ds))
    assert all(ds.X[name].nunique() > 1 for name in pair)
    at = open_app("regions")
    at.selectbox(key="dataset").set_value("digits").run()
    assert_clean(at)
    shown = (at.selectbox(key="feature_x").value, at.selectbox(key="feature_y").value)
    assert shown == pair


def test_a_constant_column_never_fills_the_second_slot():
    import pandas as pd

    from ternary.data import Dataset

    rng = np.random.default_rng(0)
    x = rng.normal(size=200)
    frame = pd.DataFrame({"c1": 1.0, "c2": 2.0, "signal": x, "noise": rng.normal(size=200)})
    y = (x > 0).astype(int)
    ds = Dataset(X=frame, y=y, class_names=["0", "1"], name="t", source="csv")
    assert important_pair(ds, ("t", 1)) == ("signal", "noise")


def test_small_builtins_keep_their_first_two_features():
    at = open_app("regions")
    at.selectbox(key="dataset").set_value("iris").run()
    names = load_builtin("iris").feature_names
    assert at.selectbox(key="feature_x").value == names[0]
