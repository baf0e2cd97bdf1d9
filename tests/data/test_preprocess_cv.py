"""run_cv with a Preprocessor: the cleaning is learned on each training fold only."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ternary.data import Preprocessor, load_csv
from ternary.experiment import run_cv

FITTED: list[set] = []


class _Spy(Preprocessor):
    """Records which rows each fold's preprocessor learned from."""

    def fit_transform(self, X, y=None, **kw):
        FITTED.append(set(X["row"]))
        return super().fit_transform(X.drop(columns=["row"]))

    def transform(self, X):
        return super().transform(X.drop(columns=["row"]) if "row" in X else X)


def _table(n=150, gaps=True):
    rng = np.random.default_rng(1)
    a = rng.normal(size=n)
    b = rng.choice(["x", "y", "z"], size=n)
    y = (a + (b == "x") > 0.3).astype(int)
    a_text = [("" if gaps and i % 6 == 0 else f"{v:.4f}") for i, v in enumerate(a)]
    body = "".join(f"{u},{v},{w}\n" for u, v, w in zip(a_text, b, y, strict=True))
    return load_csv(("a,b,y\n" + body).encode())


def test_each_fold_learns_from_its_training_rows_only():
    ds = _table()
    raw = ds.raw.drop(columns=[ds.target]).reset_index(drop=True)
    raw["row"] = np.arange(len(raw))
    FITTED.clear()
    rows = run_cv(raw, ds.y, combos=[{"delta_method": "margin"}], cv=5, preprocessor=_Spy())
    assert len(rows) == 5 and rows["decided_accuracy"].notna().all()
    assert len(FITTED) == 5
    held_out = [set(range(len(raw))) - seen for seen in FITTED]
    # every row is held out exactly once: the folds' test parts, never learned from
    assert sorted(i for part in held_out for i in part) == list(range(len(raw)))


def test_numeric_rows_give_the_same_scores_as_the_matrix():
    rng = np.random.default_rng(3)
    frame = pd.DataFrame(rng.normal(size=(120, 3)), columns=["p", "q", "r"])
    y = (frame["p"] + frame["q"] > 0).to_numpy().astype(int)
    combos = [{"delta_method": "margin"}]
    with_pre = run_cv(frame, y, combos=combos, cv=4, preprocessor=Preprocessor())
    plain = run_cv(frame.to_numpy(), y, combos=combos, cv=4)
    for col in ("decided_accuracy", "uncertain_rate", "accuracy"):
        assert np.array_equal(with_pre[col].to_numpy(), plain[col].to_numpy(), equal_nan=True)


def test_drop_and_arrays_are_refused():
    ds = _table()
    raw = ds.raw.drop(columns=[ds.target])
    with pytest.raises(ValueError, match="missing='drop'"):
        run_cv(raw, ds.y, cv=3, preprocessor=Preprocessor(missing="drop"))
    with pytest.raises(ValueError, match="DataFrame of raw rows"):
        run_cv(raw.to_numpy(), ds.y, cv=3, preprocessor=Preprocessor())
