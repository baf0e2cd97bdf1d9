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


def _paper_text(shared_paper_tables, number: str) -> str:
    papers = shared_paper_tables.parent / "papers"
    return next(papers.glob(f"{number}_*.txt")).read_text(encoding="utf-8")


def test_webb_preset_gives_the_laplace_estimates_printed_in_section_3(shared_paper_tables):
    from appkit import datasets, grafting, links, model

    text = _paper_text(shared_paper_tables, "001")
    # §3: "a cut at A = 5 creates a leaf containing 10 · ... accuracy estimate is 0.917",
    # "a cut, at B = 3 ... contains 9 o ... accuracy estimate is ... 0.909"
    assert "The resulting accuracy estimate is 0.917" in text and "= 0.909" in text
    params = dict(links.PRESETS[-1][2])
    ds, key = datasets.load_builtin(params["dataset"])
    _, spec = grafting.graft_specs(
        key, ["A", "B"], mode="all", graft_alpha=0.05, ccp_alpha=0.0,
        max_depth=int(params["graft_max_depth"]), test_size=float(params["test_size"]), seed=0,
    )  # fmt: skip
    sp = model.split_data(ds, spec)
    assert len(sp.y_train) == 30  # every row of the example, as Webb grows the tree
    report = model.fit(sp, spec).graft_report_
    laplace = dict(zip(report["feature"], report["laplace_cut"].round(3), strict=True))
    assert laplace == {0: 0.917, 1: 0.909}  # feature 0 is A, 1 is B


def test_fig2_table_shows_the_papers_quoted_eta_beside_the_recomputed_one(shared_paper_tables):
    text = _paper_text(shared_paper_tables, "000")
    eta = {method: value for (method, _), value in paper.PAPER_TEXT_ETA.items()}
    assert (
        f"class-overlap achieves η = {eta['class_overlap']} and gainratio η = "
        f"{eta['gain_ratio']}, compared to η = {eta['margin']} for margin"
    ) in text
    table = paper.fig2_table().set_index(["delta_method", "routing"])
    columns = list(table.columns)
    assert columns.index("eta_paper_text") == columns.index("eta_paper") + 1
    probabilistic = [(m, "probabilistic") for m in ("margin", "class_overlap", "gain_ratio")]
    assert table.loc[probabilistic, "eta_paper"].tolist() == [0.107, 0.053, 0.054]
    assert table.loc[probabilistic, "eta_paper_text"].tolist() == [0.104, 0.068, 0.072]
    assert table["eta_paper_text"].notna().sum() == 3  # only what the text quotes
    for value in ("0.104", "0.107", "0.068", "0.053", "0.072", "0.054"):
        assert value in paper.ETA_NOTE
