"""The Your data page names the rows to review by the confidence ranking (issue 30, item 3):
a review budget chosen by the person, a review column and the rule that flagged each row,
the zone verdict kept as its own column, and the downloads carrying them."""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from appkit.yourdata_view import _threshold_shown
from ternary.review import review_threshold
from tests.app.helpers import GOOD_CSV, assert_clean, open_app

pytestmark = pytest.mark.skipif(
    not hasattr(AppTest, "file_uploader"), reason="AppTest cannot upload files"
)


def _cases(at: AppTest) -> pd.DataFrame:
    tables = [d.value for d in at.dataframe if "flagged by" in d.value.columns]
    assert len(tables) == 1
    return tables[0]


def _stored_threshold(downloads) -> float:
    """The review threshold the page's model download carries."""
    from ternary.pipeline import load_model

    path = Path(tempfile.mkdtemp()) / "m.skops"
    path.write_bytes(downloads["ternary_people.skops"])
    return load_model(str(path)).review_threshold_


def test_the_budget_flags_the_least_confident_rows_beside_the_verdict(downloads):
    at = open_app("data")
    at.file_uploader(key="upload").set_value(("people.csv", GOOD_CSV, "text/csv")).run()
    assert_clean(at)
    assert at.slider(key="review_pct").value == 10
    text = " ".join(i.value for i in at.info)
    # the page says plainly which list is better, with the measured figures and the baseline
    assert "least confident ones, not the rows in a boundary zone" in text
    assert "50 OpenML-CC18 tables" in text and "73.7 %" in text and "74.6 %" in text
    assert "CART with Laplace-smoothed leaves" in text
    assert at.radio(key="cases_filter").value == "review"
    shown = _cases(at)  # the default filter: the rows to review only
    assert 0 < len(shown) <= 8 and (shown["review"] == 1).all()  # at most 10 % of 80 rows
    cases = pd.read_csv(io.BytesIO(downloads["cases_people.csv"]), keep_default_na=False)
    assert {"review", "flagged by", "verdict", "confidence"} <= set(cases.columns)
    review = cases["review"].to_numpy() == 1
    assert review.sum() == len(shown)
    assert cases.loc[review, "confidence"].max() < cases.loc[~review, "confidence"].min()
    rule = next(m.value for m in at.markdown if "Review rule:" in m.value)
    # the model's threshold, learned on its own confidence over the training rows
    stored = _stored_threshold(downloads)
    assert f"below **{stored:.4g}**" in rule
    full = at.session_state["user_dataset"]
    # the cases table's threshold, on the out-of-fold scale
    threshold = review_threshold(cases["confidence"].to_numpy(), 0.1)
    assert cases.loc[review, "confidence"].max() < threshold
    assert cases.loc[~review, "confidence"].min() >= threshold
    name = f"confidence below {threshold:.4g} (out of fold, 10 %)"
    expected = np.where(
        review & (cases["verdict"] == 0),
        "both",
        np.where(review, name, np.where(cases["verdict"] == 0, "boundary zone", "")),
    )
    assert cases["flagged by"].tolist() == expected.tolist()
    # written with the digits that keep every row on its side (4, more for near-ties)
    said = _threshold_shown(threshold, cases["confidence"])
    assert f"confidence below {said}, {100 * review.mean():.1f} % of the rows" in rule
    assert full.n_samples == 80 and "of the 80 training rows fall below it" in rule

    at.slider(key="review_pct").set_value(25).run()
    assert_clean(at)
    n25 = len(_cases(at))
    assert 8 < n25 <= 20
    cases = pd.read_csv(io.BytesIO(downloads["cases_people.csv"]), keep_default_na=False)
    assert int(cases["review"].sum()) == n25
    flagged_by = set(cases.loc[cases["review"] == 1, "flagged by"])
    assert {"both"} != flagged_by and all(
        b == "both" or b.endswith("(out of fold, 25 %)") for b in flagged_by
    )
    shell = [c.value for c in at.code if "ternary predict" in c.value]
    # the model carries the threshold: the command needs no quota
    assert shell and shell[0].endswith("--out scored.csv")

    at.file_uploader(key="score_upload").set_value(("new.csv", GOOD_CSV, "text/csv")).run()
    assert_clean(at)
    scored = pd.read_csv(io.BytesIO(downloads["scored_new.csv"]), keep_default_na=False)
    n_review = int(scored["review"].sum())
    assert any(f"{n_review} to review (confidence below" in s.value for s in at.success)
    threshold = _stored_threshold(downloads)
    assert scored["review"].tolist() == (scored["confidence"] < threshold).astype(int).tolist()
    assert "verdict" in scored.columns
