"""`appkit.present.shown_table`: the accuracy-coverage tables as the grid shows them."""

from __future__ import annotations

import numpy as np
import pandas as pd

from appkit import present


def test_a_missing_value_reads_as_a_dash_and_columns_stay_numbers():
    summary = pd.DataFrame(
        {
            "combo": ["CART", "margin / probabilistic"],
            "decided_accuracy": [0.881234567, 0.90123],
            "efficiency": [np.nan, 0.0612345],
            "uncertain_pct": [0.0, 61.8],
        }
    )
    styled = present.shown_table(summary)
    assert list(styled.data.columns) == ["combination", "decided accuracy", "η", "uncertain %"]
    assert styled.data["η"].dtype == np.float64  # sorts as numbers in the grid
    html = styled.to_html()
    assert "—" in html and "None" not in html and "nan" not in html
    assert "0.8812" in html and "0.0612" in html and "0.881234567" not in html
    assert ">61.8<" in html and "61.80" not in html and ">0<" in html
