"""appkit.paper and the Webb example: the numbers quoted from the papers."""

from __future__ import annotations

import numpy as np
import pandas as pd

import ternary
from appkit import paper


def test_paper_table5_is_the_shared_csv_and_eta_is_the_papers(shared_paper_tables):
    table = shared_paper_tables / "smits_table5_cc18_means.csv"
    pd.testing.assert_frame_equal(paper.paper_cc18_means(), pd.read_csv(table))
    papers = shared_paper_tables.parent / "papers"
    text = next(papers.glob("000_*.txt")).read_text(encoding="utf-8")
    assert f"η = {paper.MARGIN_EFFICIENCY} for margin" in text


def test_webb_example_holds_the_counts_of_the_papers_section_3():
    ds = ternary.data.load_builtin("webb example")
    A, B, y = ds.X["A"].to_numpy(), ds.X["B"].to_numpy(), ds.y

    def counts(mask):
        return {c: int(np.sum(y[mask] == c)) for c in ("star", "dot", "circle")}

    # C4.5's leaves: A > 7: o (10); A <= 2: * (4); B <= 5: * (5/1); B > 5: · (11)
    assert counts(A > 7) == {"star": 0, "dot": 0, "circle": 10}
    assert counts(A <= 2) == {"star": 4, "dot": 0, "circle": 0}
    middle = (A > 2) & (A <= 7)
    assert counts(middle & (B <= 5)) == {"star": 4, "dot": 1, "circle": 0}
    assert counts(middle & (B > 5)) == {"star": 0, "dot": 11, "circle": 0}
    # the root's cuts on B the grafting text quotes
    assert counts(B <= 5) == {"star": 4, "dot": 1, "circle": 9}
    assert counts(B <= 3) == {"star": 0, "dot": 0, "circle": 9}
    assert B[A <= 2].min() == 6 and A.min() in A[A <= 2] and B.max() in B[A <= 2]
    assert counts(middle & (A <= 5)) == {"star": 0, "dot": 10, "circle": 0}
