"""The Your data cases table's caption names the threshold its review column uses: the
out-of-fold one (the table holds out-of-fold answers), not the stored model's, which the
box above says applies to new rows and the download."""

from __future__ import annotations

import io
import re

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from tests.app.helpers import GOOD_CSV, assert_clean, open_app, shown

pytestmark = pytest.mark.skipif(
    not hasattr(AppTest, "file_uploader"), reason="AppTest cannot upload files"
)


def _caption_threshold(at: AppTest) -> float:
    said = next(shown(c) for c in at.caption if "review (1 =" in shown(c))
    found = re.search(r"review \(1 = out-of-fold confidence below ([0-9.e+-]+)", said)
    assert found, said
    return float(found.group(1))


@pytest.mark.parametrize("pct", [10, 30])
def test_the_cases_caption_names_the_threshold_its_review_column_uses(downloads, pct):
    at = open_app("data")
    at.file_uploader(key="upload").set_value(("people.csv", GOOD_CSV, "text/csv")).run()
    at.slider(key="review_pct").set_value(pct).run()
    assert_clean(at)
    threshold = _caption_threshold(at)
    cases = pd.read_csv(io.BytesIO(downloads["cases_people.csv"]), keep_default_na=False)
    review = cases["review"].to_numpy() == 1
    assert review.any() and (~review).any()
    # the caption's number (4 significant digits) separates the two groups exactly
    assert (cases.loc[review, "confidence"] < threshold).all()
    assert (cases.loc[~review, "confidence"] >= threshold).all()
    # the box says which threshold applies where, with both values
    rule = shown(next(m for m in at.markdown if "Review rule:" in m.value))
    assert f"the cases table below uses the out-of-fold threshold {threshold:.4g}" in rule
    assert "scored new rows, the model download and `ternary predict` use the stored" in rule
