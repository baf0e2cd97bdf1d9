"""The Your data page names the rows to review by the confidence ranking (issue 30, item 3):
a review budget chosen by the person, a review column and the rule that flagged each row,
the zone verdict kept as its own column, and the downloads carrying them."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from tests.app.helpers import GOOD_CSV, assert_clean, open_app

pytestmark = pytest.mark.skipif(
    not hasattr(AppTest, "file_uploader"), reason="AppTest cannot upload files"
)


def _cases(at: AppTest) -> pd.DataFrame:
    tables = [d.value for d in at.dataframe if "flagged by" in d.value.columns]
    assert len(tables) == 1
    return tables[0]


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
    assert len(shown) == 8 and (shown["review"] == 1).all()  # 10 % of 80 rows
    cases = pd.read_csv(io.BytesIO(downloads["cases_people.csv"]), keep_default_na=False)
    assert {"review", "flagged by", "verdict", "confidence"} <= set(cases.columns)
    review = cases["review"].to_numpy() == 1
    assert review.sum() == 8
    assert cases.loc[review, "confidence"].max() <= cases.loc[~review, "confidence"].min()
    expected = np.where(
        review & (cases["verdict"] == 0),
        "both",
        np.where(
            review, "least confident 10 %", np.where(cases["verdict"] == 0, "boundary zone", "")
        ),
    )
    assert cases["flagged by"].tolist() == expected.tolist()

    at.slider(key="review_pct").set_value(25).run()
    assert_clean(at)
    assert len(_cases(at)) == 20
    cases = pd.read_csv(io.BytesIO(downloads["cases_people.csv"]), keep_default_na=False)
    assert int(cases["review"].sum()) == 20
    flagged_by = set(cases.loc[cases["review"] == 1, "flagged by"])
    assert flagged_by <= {"least confident 25 %", "both"} and flagged_by != {"both"}
    shell = [c.value for c in at.code if "ternary predict" in c.value]
    assert shell and shell[0].endswith("--review-share 0.25")

    at.file_uploader(key="score_upload").set_value(("new.csv", GOOD_CSV, "text/csv")).run()
    assert_clean(at)
    assert any("20 to review (the least confident 25 %)" in s.value for s in at.success)
    scored = pd.read_csv(io.BytesIO(downloads["scored_new.csv"]), keep_default_na=False)
    assert int(scored["review"].sum()) == 20
    assert set(scored.loc[scored["review"] == 1, "review_rule"]) == {"least confident 25 %"}
    assert "verdict" in scored.columns
