"""The Grafting page on a few painted points: the cross-validation takes as many folds as
the smallest class allows, and says plainly when it cannot run at all."""

from __future__ import annotations

import numpy as np

from appkit import paint
from tests.app.helpers import assert_clean, open_link

#: 8 painted points, 5 of class A and 3 of B: a stratified 5-fold CV cannot run
EIGHT = "1.eNoz0DE0NdAxMjCwBpM6xkCWoY4FUMwCwgKKmUNkgWImYBZQjY4phAUUMwOrM4ewAGFtD0U"


def test_eight_painted_points_graft_with_three_folds():
    assert sorted(c for c, _, _ in paint.decode(EIGHT)) == [0, 0, 0, 0, 0, 1, 1, 1]
    at = open_link({"paint": EIGHT}, page="grafting")
    assert_clean(at)
    assert at.slider(key="graft_step").max >= 1  # the stepper shows
    cv = at.dataframe[0].value["CV accuracy"].to_numpy()
    assert np.isfinite(cv).all() and ((cv >= 0) & (cv <= 1)).all()
    said = " ".join(c.value for c in at.caption)
    assert "stratified 3-fold cross-validation" in said, said


def test_folds_follow_the_smallest_class_and_say_why_when_none_can_run():
    from appkit import grafting

    assert grafting.cv_folds(["A"] * 20 + ["B"] * 9) == (5, "")
    assert grafting.cv_folds(["A"] * 5 + ["B"] * 3) == (3, "")
    assert grafting.cv_folds(["A"] * 5 + ["B"] * 2) == (2, "")
    # one row of B: it can sit in one fold only, so no stratified CV at all
    folds, why = grafting.cv_folds(["A"] * 6 + ["B"])
    assert folds == 0
    assert why.startswith("CV accuracy is unavailable") and "only 1 row" in why, why


def test_a_one_row_class_still_grafts_with_cv_unavailable():
    import pandas as pd

    from appkit import grafting
    from ternary.data import Dataset

    X = pd.DataFrame({"a": np.arange(9.0), "b": np.arange(9.0) % 3})
    ds = Dataset(X, np.array(["A"] * 8 + ["B"]), ["A", "B"], "tiny", "test")
    cart, graft = grafting.graft_specs(
        ("tiny-one-row",), ("a", "b"), mode="all", graft_alpha=0.05, ccp_alpha=0.0,
        max_depth=3, test_size=0.0, seed=0,
    )  # fmt: skip
    res = grafting.graft_comparison(ds, cart, graft)
    assert res.cv_folds == 0 and "only 1 row" in res.cv_note
    assert res.table["CV accuracy"].isna().all()
    assert (res.table["test accuracy"] == 1.0).all()  # the rest is computed as before
