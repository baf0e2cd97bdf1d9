"""`ternary report`: the paper's tables and the three comparisons, on the stored paper run.

The stored run (benchmarks/results/reproduce_paper_rows.csv, 72 datasets) is in the
repository; its CC18 Table 1 in BENCHMARKS.md was printed by reproduce_paper.py,
and the report must give the same numbers from the same rows.
"""

from __future__ import annotations

import fnmatch
import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ternary.experiment import main, read_results, report_main
from ternary.experiment._report import holm

REPO = Path(__file__).resolve().parents[2]
STORED = REPO / "benchmarks" / "results" / "reproduce_paper_rows.csv"
# the stored run also holds the Breiman, medical-only and one-hot sets; Table 1 is CC18's
NOT_CC18 = ["* (one-hot)", "* (generated)", "waveform-5000", "twonorm", "ringnorm"]
NOT_CC18 += ["heart-statlog", "mammography", "heart-c"]
CC18 = [str(STORED), *[a for p in NOT_CC18 for a in ("--exclude", p)]]
LABELS = {
    "Gain-Ratio": "gain_ratio",
    "Class-Overlap": "class_overlap",
    "Node-Bootstrap": "node_bootstrap",
    "Margin": "margin",
    "Quality-Plateau": "quality_plateau",
}


def _tables(text: str) -> dict[str, pd.DataFrame]:
    """Every Markdown table of a report, by its ### title."""
    tables, title, lines = {}, None, []
    for line in [*text.splitlines(), ""]:
        if line.startswith("### "):
            title, lines = line[4:], []
        elif line.startswith("|"):
            lines.append([c.strip() for c in line.strip("|").split("|")])
        elif lines and title:
            tables[title] = pd.DataFrame(lines[2:], columns=lines[0])
            lines = []
    return tables


def _benchmarks_table1() -> pd.DataFrame:
    text = (REPO / "BENCHMARKS.md").read_text(encoding="utf-8")
    start = text.index("| method | paper dec.acc (72)")
    lines = []
    for line in text[start:].splitlines():
        if not line.startswith("|"):
            break
        lines.append([c.strip() for c in line.strip("|").split("|")])
    frame = pd.DataFrame(lines[2:], columns=lines[0])
    name, routing = frame["method"].str.extract(r"^(.*) \((.*)\)$").T.to_numpy()
    frame["combination"] = [
        "CART"
        if n == "CART"
        else f"{LABELS[n]} / {'probabilistic' if r == 'prob.' else 'hard_middle'}"
        for n, r in zip(name, routing, strict=True)
    ]
    return frame.set_index("combination")


def _stored_rows(exclude=NOT_CC18) -> pd.DataFrame:
    """The stored fold rows, read with pandas alone (not the report's reader)."""
    rows = pd.read_csv(STORED, dtype={"dataset": str, "combo": str})
    for pattern in exclude:
        rows = rows[~rows["dataset"].map(lambda n, p=pattern: fnmatch.fnmatchcase(n, p))]
    return rows


def _derived(rows: pd.DataFrame, mine: str, ref: str, threshold: float = 0.005) -> pd.DataFrame:
    """Per combination, from the rows themselves: the W/T/L of ``mine`` against ``ref`` over
    the datasets' fold means, the one-sided Wilcoxon p and Holm's p (statsmodels)."""
    from scipy.stats import wilcoxon
    from statsmodels.stats.multitest import multipletests

    means = rows.groupby(["dataset", "combo"], sort=False)[[mine, ref]].mean().reset_index()
    out = []
    for combo, part in means.groupby("combo", sort=False):
        if combo == "CART":
            continue
        d = np.round((part[mine] - part[ref]).to_numpy(dtype=float), 12)
        d = d[~np.isnan(d)]
        nonzero = d[d != 0]
        p = wilcoxon(nonzero, alternative="greater").pvalue if nonzero.size > 1 else np.nan
        wins, losses = int((d > threshold).sum()), int((d < -threshold).sum())
        wtl = f"{wins}/{d.size - wins - losses}/{losses}"
        out.append({"combo": combo, "n": d.size, "wtl": wtl, "p": p})
    frame = pd.DataFrame(out).set_index("combo")
    ok = frame["p"].notna()
    frame["p_holm"] = np.nan
    frame.loc[ok, "p_holm"] = multipletests(frame.loc[ok, "p"], method="holm")[1]
    return frame


def _run(argv, capsys) -> str:
    assert report_main(argv) == 0
    return capsys.readouterr().out


@pytest.fixture(scope="module")
def stored_report():
    out = io.StringIO()
    from contextlib import redirect_stdout

    with redirect_stdout(out):
        assert report_main(CC18) == 0
    return out.getvalue()


def test_report_reproduces_table_1_of_benchmarks_md(stored_report):
    tables = _tables(stored_report)
    ours = tables["Summary per combination (the shape of the paper's Table 1)"]
    ours = ours.set_index("combination")
    tests = tables[next(t for t in tables if t.startswith("Every comparison"))]
    tests = tests.set_index("combination")
    bench = _benchmarks_table1()
    assert sorted(ours.index) == sorted(bench.index) and len(ours) == 11
    pairs = {
        "ours dec.acc": "decided acc.",
        "ours ±std": "± std",
        "ours undec%": "flagged %",
        "ours acc.all": "acc. all rows",
        "ours η": "η",
        "ours Chow": "Chow acc.",
        "n": "n",
    }
    for theirs, mine in pairs.items():
        assert list(ours.loc[bench.index, mine]) == list(bench[theirs]), theirs
    cmp = [c for c in bench.index if c != "CART"]
    assert list(ours.loc[cmp, "W/T/L vs CART"]) == list(bench.loc[cmp, "ours W/T/L vs CART"])
    assert list(ours.loc[cmp, "W/T/L vs Chow"]) == list(bench.loc[cmp, "ours W/T/L vs Chow"])
    for mine, theirs in (("CART: p", "ours p (vs CART)"), ("Chow: p", "ours p (vs Chow)")):
        got = tests.loc[cmp, mine].astype(float).to_numpy()
        want = bench.loc[cmp, theirs].astype(float).to_numpy()
        np.testing.assert_allclose(got, want, atol=5e-5 + 1e-9)


def test_report_prints_the_chow_comparison_with_holm_adjusted_p(stored_report):
    tests = _tables(stored_report)
    tests = tests[next(t for t in tests if t.startswith("Every comparison"))]
    tests = tests.set_index("combination")
    raw, adjusted = tests["Chow: p"].astype(float), tests["Chow: p Holm"].astype(float)
    assert len(tests) == 10 and (adjusted >= raw - 1e-4).all()
    rows = _stored_rows()
    for key, mine, ref, title in (
        ("Chow", "decided_accuracy", "chow_decided_accuracy", "vs Chow, same flag rate"),
        ("CART", "decided_accuracy", "cart_accuracy", "vs CART, all rows"),
    ):
        want = _derived(rows, mine, ref).loc[tests.index]
        assert tests[f"{key}: W/T/L"].tolist() == want["wtl"].tolist()
        assert tests[f"{key}: n"].astype(int).tolist() == want["n"].tolist()
        np.testing.assert_allclose(tests[f"{key}: p"].astype(float), want["p"], atol=5e-5)
        better = int((want["p_holm"] < 0.05).sum())
        assert f"**{title}**: {better} of 10 combinations with data better" in stored_report


def test_on_all_72_stored_datasets_the_p_values_are_those_of_the_rows(capsys):
    tests = _tables(_run([str(STORED)], capsys))
    tests = tests[next(t for t in tests if t.startswith("Every comparison"))]
    tests = tests.set_index("combination")
    rows = _stored_rows(exclude=())
    assert len(tests) == 10 and rows["dataset"].nunique() == 72
    for key, ref in (("CART", "cart_accuracy"), ("Chow", "chow_decided_accuracy")):
        want = _derived(rows, "decided_accuracy", ref).loc[tests.index]
        np.testing.assert_allclose(tests[f"{key}: p"].astype(float), want["p"], atol=5e-5)
        np.testing.assert_allclose(tests[f"{key}: p Holm"].astype(float), want["p_holm"], atol=5e-5)
        assert tests[f"{key}: W/T/L"].tolist() == want["wtl"].tolist()


@pytest.mark.parametrize("suffix, magic", [(".svg", b"<svg"), (".png", b"\x89PNG")])
def test_report_writes_the_critical_difference_diagram(tmp_path, capsys, suffix, magic):
    path = tmp_path / f"cd{suffix}"
    text = _run([*CC18, "--cd-diagram", str(path)], capsys)
    head = path.read_bytes()[:4096]
    assert magic in head
    friedman = _tables(text)["Friedman test over all combinations"]
    rows = _stored_rows()
    combos = rows["combo"].nunique()
    complete = rows.groupby("dataset")["combo"].nunique().eq(combos).sum()
    flagged_all = rows.groupby(["dataset", "combo"])["decided_accuracy"].mean().isna()
    complete -= flagged_all[flagged_all].reset_index()["dataset"].nunique()
    assert friedman["datasets"].tolist() == [str(complete)] * 2
    assert float(friedman["p"].iloc[0]) < 0.05
    ranks = _tables(text)["Mean Friedman ranks (1 = best)"]
    assert len(ranks) == 11
    mean_rank = ranks.iloc[:, 1:].astype(float).mean()
    np.testing.assert_allclose(mean_rank, 6.0, atol=0.01)  # ranks 1..11 average to 6


def test_the_cd_diagram_has_no_overlapping_text_and_a_title_a_reader_understands(
    tmp_path, capsys, monkeypatch
):
    import matplotlib.figure
    import matplotlib.text

    seen = []
    save = matplotlib.figure.Figure.savefig

    def capture(fig, *args, **kwargs):
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        texts = [
            t for t in fig.findobj(matplotlib.text.Text) if t.get_visible() and t.get_text().strip()
        ]
        seen.append([(t.get_text(), t.get_window_extent(renderer)) for t in texts])
        return save(fig, *args, **kwargs)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", capture)
    for measure in ("gain_vs_chow", "decided_accuracy"):
        _run([*CC18, "--cd-diagram", str(tmp_path / "cd.svg"), "--cd-measure", measure], capsys)
    assert len(seen) == 2
    for boxes in seen:
        labels = [text for text, _ in boxes]
        assert any(t.startswith("CD = ") or " CD = " in t for t in labels)
        for i, (a, box_a) in enumerate(boxes):
            for b, box_b in boxes[i + 1 :]:
                assert not box_a.overlaps(box_b), f"{a!r} overlaps {b!r}"
    titles = [t for t, _ in seen[0] if t.startswith("Mean rank")]
    assert titles and "gain vs chow" not in titles[0]
    assert "over Chow's rule at the same flag rate" in titles[0] and "1 = best" in titles[0]


def test_bad_diagram_name_and_missing_file_exit_2(tmp_path, capsys):
    assert report_main([*CC18, "--cd-diagram", str(tmp_path / "cd.pdf")]) == 2
    assert ".svg or .png" in capsys.readouterr().err
    assert report_main([str(tmp_path / "none.sqlite")]) == 2
    assert "No such results file" in capsys.readouterr().err
    assert report_main([str(STORED), "--datasets", "nope"]) == 2
    assert "nope" in capsys.readouterr().err


def test_latex_csv_and_per_dataset_outputs(capsys):
    latex = _run([*CC18, "--format", "latex"], capsys)
    assert latex.count(r"\begin{tabular}") == 4 and r"gain\_ratio / probabilistic" in latex
    text = _run([*CC18, "--format", "csv", "--per-dataset"], capsys)
    blocks = [b for b in text.split("# ") if b.strip()]
    frames = {b.splitlines()[0]: pd.read_csv(io.StringIO(b.split("\n", 1)[1])) for b in blocks}
    per = frames["Per dataset (the shape of the paper's Table 4)"]
    assert len(per) == 50 and per.columns[:2].tolist() == ["dataset", "CART acc."]
    summary = frames["Summary per combination (the shape of the paper's Table 1)"]
    row = summary.set_index("combination").loc["gain_ratio / probabilistic"]
    rows = _stored_rows()
    part = rows[rows["combo"] == "gain_ratio / probabilistic"]
    mean = part.groupby("dataset")["decided_accuracy"].mean().mean()
    assert row["decided acc."] == pytest.approx(mean, abs=5e-5)
    chow = _derived(rows, "decided_accuracy", "chow_decided_accuracy")
    assert row["W/T/L vs Chow"] == chow.loc["gain_ratio / probabilistic", "wtl"]


def test_python_m_ternary_experiment_report_dispatches(tmp_path, capsys):
    out = tmp_path / "report.md"
    assert main(["report", str(STORED), "--datasets", "diabetes", "--output", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "Comparisons over 5 folds" in text and "weak tests" in text
    # the export is the same rows, now in a database
    db = tmp_path / "diabetes.sqlite"
    assert main(["report", str(STORED), "--datasets", "diabetes", "--export-rows", str(db)]) == 0
    assert len(read_results(db)) == (_stored_rows(exclude=())["dataset"] == "diabetes").sum()


def test_holm_matches_a_hand_computed_case_and_statsmodels():
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(0)
    for _ in range(20):
        p = rng.uniform(0, 0.2, size=int(rng.integers(1, 15)))
        np.testing.assert_allclose(holm(p), multipletests(p, method="holm")[1], rtol=1e-12)
    got = holm([0.01, 0.04, 0.03, np.nan])
    # sorted 0.01, 0.03, 0.04 times 3, 2, 1 -> 0.03, 0.06, 0.04 -> running max 0.03, 0.06, 0.06
    np.testing.assert_allclose(got[:3], [0.03, 0.06, 0.06])
    assert np.isnan(got[3])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(0.0, 1.0), min_size=1, max_size=12))
def test_holm_never_lowers_a_p_keeps_the_order_and_stays_at_most_1(pvalues):
    p = np.array(pvalues)
    adjusted = holm(p)
    assert np.all(adjusted >= p - 1e-12) and np.all(adjusted <= 1.0)
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(adjusted[order]) >= -1e-12)
