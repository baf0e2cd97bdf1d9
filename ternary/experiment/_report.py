"""``ternary report RESULTS``: the paper's tables, and the tests that decide its claim.

From any results database or CSV file (or several), over datasets (or over the
folds of a single dataset):

1. **Table 1's shape**, per combination: mean decided accuracy, flag rate, accuracy
   on all rows, efficiency η, W/T/L against CART and against Chow's rule.
2. **Every comparison three ways**, each a one-sided Wilcoxon signed-rank test
   (`scipy.stats.wilcoxon`) with Holm's correction across the combinations:

   * against CART's accuracy on *all* rows (the paper's comparison; it flatters any
     method that flags rows, since dropping the hardest rows raises accuracy
     whatever the flags mean);
   * against Chow's (1970) rule at the same flag rate: the same fold's CART
     flagging as many of its least confident rows (the fair baseline);
   * AURC (area under the risk–coverage curve) against Chow's ranking: the
     combination's confidence ranking of the rows against CART's largest class
     probability, over every coverage at once.
3. A **Friedman test** over all combinations on the datasets that have them all,
   with Nemenyi's post-hoc test and the critical-difference diagram of Demšar
   (2006) (scikit-posthocs), written with ``--cd-diagram FILE``.
4. With ``--per-dataset``, **Table 4's shape**: one row per dataset.

The report's first table is what the command line prints at the end of a run.
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from ternary.experiment._csvstore import ResultsFileError
from ternary.experiment._render import FORMATS, Table, cd_diagram, render
from ternary.experiment._store import read_results, write_results
from ternary.experiment._summary import _prepared, _round_diff, summarize

__all__ = ["COMPARISONS", "compare_to_baselines", "friedman", "holm", "main", "summary_table"]

ALPHA = 0.05
# (key, title, column of the method, column of the reference, higher is better)
COMPARISONS = (
    ("cart", "vs CART, all rows", "decided_accuracy", "cart_accuracy", True),
    ("chow", "vs Chow, same flag rate", "decided_accuracy", "chow_decided_accuracy", True),
    ("aurc", "AURC vs Chow's ranking", "aurc", "cart_aurc", False),
    (
        "laplace",
        "vs CART, Laplace leaves + tie-break, same flag rate",
        "decided_accuracy",
        "laplace_decided_accuracy",
        True,
    ),
    (
        "laplace_aurc",
        "AURC vs CART, Laplace leaves + tie-break",
        "aurc",
        "laplace_aurc",
        False,
    ),
)
# the comparisons' column prefixes in the tests table
_SHORT = {
    "cart": "CART",
    "chow": "Chow",
    "aurc": "AURC",
    "laplace": "Laplace",
    "laplace_aurc": "Laplace AURC",
}
_BASELINE = "CART"
_NO_DATA = "no data"
# the columns every run_suite row has, without which no table of the report exists
_REQUIRED = ("decided_accuracy", "uncertain_rate", "accuracy", "cart_accuracy")

LEGEND = [
    "**Legend.** *unit*: a dataset (the mean of its folds) when the results hold several "
    "datasets, else a fold. *decided acc.*: accuracy on the rows the combination does not "
    "flag. *flagged %*: share of test rows flagged (boundary-uncertain). *acc. all rows*: "
    "accuracy on every row, flagged ones predicted as usual. *η*: efficiency, (decided acc. − "
    "CART's accuracy) / flag rate: accuracy gained per unit flagged. *Chow acc.*: decided "
    "accuracy of the same fold's CART when it flags as many rows, its least confident ones "
    "(Chow 1970; ties at the cut in row order, or averaged with --chow-ties mean). *AURC*: area "
    "under the risk–coverage curve of the combination's confidence ranking (lower is better); "
    "*Chow AURC* the same for CART's largest class probability. *Laplace*: the same fold's "
    "CART ranking its rows by Laplace-smoothed leaves, (n_c + 1) / (n + K), the row's "
    "smallest std-scaled distance to a threshold on its path breaking ties (the strongest "
    "zone-free ranking measured, issue 30). *gain*: mean over units of the "
    "method's number minus the reference's (for AURC the reference's minus the method's: "
    "positive is better throughout). *W/T/L*: units where the method is better by more than "
    "the threshold (0.5 points unless --threshold), within it, or worse. *p*: one-sided "
    "Wilcoxon signed-rank test of 'the method is better' over the units (zero differences "
    "dropped; – with fewer than two non-zero differences). *p Holm*: Holm's step-down "
    "correction of p across the combinations of that comparison. *rank*: mean Friedman rank "
    "(1 = best) over the units that have every combination.",
]


def holm(pvalues: Sequence[float] | np.ndarray | pd.Series) -> np.ndarray:
    """Holm's (1979) step-down adjusted p-values (NaN stays NaN and is not counted).

    The i-th smallest of m p-values becomes max over j ≤ i of min(1, (m − j + 1) · p_(j)).
    """
    p = np.asarray(pvalues, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    order = ok[np.argsort(p[ok], kind="stable")]
    m = order.size
    if m:
        scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
        out[order] = np.maximum.accumulate(scaled)
    return out


def _wilcoxon_greater(d: np.ndarray) -> float:
    from scipy.stats import wilcoxon

    d = d[d != 0]
    if d.size < 2:
        return float("nan")
    return float(wilcoxon(d, alternative="greater").pvalue)


def units(rows: pd.DataFrame, chow_ties: str = "row_order") -> tuple[pd.DataFrame, str]:
    """Per-(unit, combination) means, and the unit's name ("dataset" or "fold")."""
    df, _, metrics = _prepared(rows)
    if chow_ties == "mean" and "chow_decided_accuracy_ties_mean" in df:
        df["chow_decided_accuracy"] = df["chow_decided_accuracy_ties_mean"]
    unit = "dataset" if df["dataset"].nunique() > 1 else "fold"
    means = df.groupby([unit, "combo"], sort=False)[metrics].mean().reset_index()
    return means, unit


def comparisons(per: pd.DataFrame, unit: str, threshold: float = 0.005) -> pd.DataFrame:
    """One row per (non-baseline) combination: n, gain, W/T/L, p and Holm's p of each comparison.

    Every comparison has its columns; ``{key}_n`` is 0 (and the rest NaN) for a
    combination without the comparison's numbers (an older file, an interrupted run).
    """
    combos = [c for c in dict.fromkeys(per["combo"]) if c != _BASELINE]
    table = pd.DataFrame({"combo": combos})
    for key, _title, mine, ref, higher in COMPARISONS:
        stats = []
        for combo in combos:
            d = np.array([])
            if mine in per and ref in per:
                part = per[per["combo"] == combo]
                diff = part[mine] - part[ref] if higher else part[ref] - part[mine]
                d = _round_diff(diff)
                d = d[~np.isnan(d)]
            stats.append(
                {
                    f"{key}_n": d.size,
                    f"{key}_gain": float(d.mean()) if d.size else np.nan,
                    f"{key}_wins": int(np.sum(d > threshold)) if d.size else np.nan,
                    f"{key}_ties": int(np.sum(np.abs(d) <= threshold)) if d.size else np.nan,
                    f"{key}_losses": int(np.sum(d < -threshold)) if d.size else np.nan,
                    f"{key}_p": _wilcoxon_greater(d),
                }
            )
        names = [f"{key}_{s}" for s in ("n", "gain", "wins", "ties", "losses", "p")]
        block = pd.DataFrame(stats, columns=names)
        block[f"{key}_n"] = block[f"{key}_n"].astype(int)
        block[f"{key}_p_holm"] = holm(block[f"{key}_p"])
        table = pd.concat([table, block], axis=1)
    return table


def compare_to_baselines(
    results: pd.DataFrame, threshold: float = 0.005, chow_ties: str = "row_order"
) -> pd.DataFrame:
    """Each combination against CART on all rows, Chow's rule at the same flag rate, and AURC.

    The units are the datasets (each the mean of its folds) when ``results`` holds
    several, else the folds of the one dataset.

    Parameters
    ----------
    results : pandas.DataFrame
        Rows as `run_cv` or `run_suite` give them (one per combination and fold,
        with a ``dataset`` column for several datasets), CART's combination among them.
    threshold : float, default=0.005
        The W/T/L margin (the paper's 0.5 points).
    chow_ties : {"row_order", "mean"}, default="row_order"
        Chow's baseline with the tied rows at the cut flagged in row order, or averaged.

    Returns
    -------
    pandas.DataFrame
        One row per combination except CART: ``combo``, ``unit`` ("dataset" or "fold")
        and, for each comparison key ``cart``, ``chow``, ``aurc`` (where the columns
        exist), ``{key}_n`` (units), ``{key}_gain`` (mean difference, positive is
        better), ``{key}_wins``, ``{key}_ties``, ``{key}_losses``, ``{key}_p``
        (one-sided Wilcoxon signed-rank) and ``{key}_p_holm`` (Holm across the
        combinations).
    """
    per, unit = units(results, chow_ties)
    table = comparisons(per, unit, threshold)
    table.insert(1, "unit", unit)
    return table


def friedman(per: pd.DataFrame, unit: str, measure: str) -> dict | None:
    """Friedman's test and Nemenyi's post-hoc test of ``measure`` over complete units.

    ``measure`` is a column of ``per`` (higher is better), or "gain_vs_chow"
    (decided accuracy minus Chow's at the same flag rate; CART's is 0 by definition).
    Returns None when fewer than 2 units or 3 combinations are complete.
    """
    from scipy.stats import friedmanchisquare, rankdata, studentized_range

    frame = per
    if "chow_decided_accuracy" in per:
        frame = per.assign(gain_vs_chow=per["decided_accuracy"] - per["chow_decided_accuracy"])
    if measure not in frame:
        return None
    matrix = frame.pivot_table(index=unit, columns="combo", values=measure, aggfunc="first")
    matrix = matrix[[c for c in dict.fromkeys(per["combo"]) if c in matrix]].dropna()
    n, k = matrix.shape
    if n < 2 or k < 3:
        return None
    values = _round_diff(matrix.to_numpy())
    stat, p = friedmanchisquare(*values.T)
    ranks = pd.Series(rankdata(-values, axis=1).mean(axis=0), index=matrix.columns)
    q = studentized_range.ppf(1 - ALPHA, k, np.inf) / np.sqrt(2.0)
    result = {
        "measure": measure,
        "unit": unit,
        "n": n,
        "k": k,
        "statistic": float(stat),
        "p": float(p),
        "cd": float(q * np.sqrt(k * (k + 1) / (6.0 * n))),
        "ranks": ranks.sort_values(),
        "nemenyi": None,
    }
    try:
        import scikit_posthocs as sp

        result["nemenyi"] = sp.posthoc_nemenyi_friedman(
            pd.DataFrame(values, columns=matrix.columns)
        )
    except ImportError:
        pass
    return result


def _wtl(row, key) -> str:
    if not row.get(f"{key}_n", 0):
        return _NO_DATA
    return f"{int(row[f'{key}_wins'])}/{int(row[f'{key}_ties'])}/{int(row[f'{key}_losses'])}"


def summary_table(rows: pd.DataFrame, threshold: float = 0.005, chow_ties="row_order") -> Table:
    """Table 1's shape: the report's first table and the command line's end-of-run summary."""
    view = rows
    if chow_ties == "mean" and "chow_decided_accuracy_ties_mean" in rows:
        view = rows.assign(chow_decided_accuracy=rows["chow_decided_accuracy_ties_mean"])
    summary = summarize(view, threshold=threshold)
    per, unit = units(rows, chow_ties)
    tests = comparisons(per, unit, threshold).set_index("combo")
    out = pd.DataFrame(
        {
            "combination": summary["combo"],
            "n": summary["combo"].map(per.groupby("combo")[unit].nunique()).astype(int),
            "decided acc.": summary["decided_accuracy"],
            "± std": summary["decided_accuracy_std"],
            "flagged %": summary["uncertain_pct"],
            "acc. all rows": summary["accuracy"],
            "η": summary["efficiency"],
        }
    )
    for key, label in (
        ("cart", "W/T/L vs CART"),
        ("chow", "W/T/L vs Chow"),
        ("laplace", "W/T/L vs Laplace"),
    ):
        out[label] = [
            "ref." if c == _BASELINE or c not in tests.index else _wtl(tests.loc[c], key)
            for c in summary["combo"]
        ]
    if "chow_decided_accuracy" in summary:
        out.insert(7, "Chow acc.", summary["chow_decided_accuracy"])
    over = "datasets (each the mean of its folds)" if unit == "dataset" else "folds of one dataset"
    notes = [
        f"Means over {over}; ± std over the same units. W/T/L at a {100 * threshold:.1f}-point "
        "threshold."
    ]
    digits = {"± std": 3, "flagged %": 1, "η": 3}
    return Table("Summary per combination (the shape of the paper's Table 1)", out, notes, digits)


def _without_data(tests: pd.DataFrame, key: str) -> list[str]:
    return [c for c, n in zip(tests["combo"], tests[f"{key}_n"], strict=True) if not n]


def tests_table(per: pd.DataFrame, unit: str, threshold: float) -> Table:
    """Every comparison side by side, with Holm's correction per comparison.

    Each comparison states its number of units (``n``); a combination without the
    comparison's numbers reads "no data", never "0/0/0".
    """
    tests = comparisons(per, unit, threshold)
    out = pd.DataFrame({"combination": tests["combo"]})
    for key, _title, *_ in COMPARISONS:
        short = _SHORT[key]
        out[f"{short}: n"] = tests[f"{key}_n"]
        out[f"{short}: gain"] = tests[f"{key}_gain"]
        out[f"{short}: W/T/L"] = [_wtl(r, key) for _, r in tests.iterrows()]
        out[f"{short}: p"] = tests[f"{key}_p"]
        out[f"{short}: p Holm"] = tests[f"{key}_p_holm"]
    notes = [
        f"One-sided Wilcoxon signed-rank tests over the {unit}s that have the numbers of the "
        f"comparison (its n) that the combination is better than the reference; Holm's "
        f"correction across the combinations of each comparison that have data."
    ]
    if unit == "fold":
        k = per["fold"].nunique()
        notes.append(
            f"These tests are over the {k} folds of one dataset: the smallest possible one-sided "
            f"p is then 1/2^{k} = {0.5**k:.3f} before correction, so they are weak tests."
        )
    for key, title, mine, ref, _ in COMPARISONS:
        lacking = _without_data(tests, key)
        if lacking:
            columns = " or ".join(c for c in (mine, ref) if c not in per) or f"{mine}/{ref}"
            notes.append(
                f"No data for {title} ({len(lacking)} of {len(tests)} combinations: "
                f"{_listed(lacking)}): these results hold no {columns} for them (written "
                "before the column existed, or by a run that did not compute it)."
            )
    digits = {c: (-1 if "p" in c.split(": ")[-1] else 4) for c in out.columns[1:]}
    title = (
        "Every comparison: CART on all rows; Chow and CART with Laplace leaves at the same "
        "flag rate; AURC against both rankings"
    )
    return Table(title, out, notes, digits)


def _listed(names: Sequence[str], most: int = 6) -> str:
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def verdict(per: pd.DataFrame, unit: str, threshold: float) -> list[str]:
    """The plain sentences the report opens with; only comparisons with data are counted."""
    tests = comparisons(per, unit, threshold)
    lines = []
    if tests.empty:
        return [
            f"- Only {_BASELINE}'s rows: there is no combination to compare (an interrupted "
            "run stops after some datasets; rerun it to add the others)."
        ]
    for key, title, *_ in COMPARISONS:
        has = tests[tests[f"{key}_n"] > 0]
        if has.empty:
            lines.append(f"- **{title}**: no data (no combination has its numbers).")
            continue
        p, raw = has[f"{key}_p_holm"].dropna(), has[f"{key}_p"].dropna()
        better = int((p < ALPHA).sum())
        n_lo, n_hi = int(has[f"{key}_n"].min()), int(has[f"{key}_n"].max())
        over = f"{n_hi}" if n_lo == n_hi else f"{n_lo}–{n_hi}"
        text = (
            f"- **{title}**: {better} of {len(has)} combinations with data better at "
            f"Holm-adjusted p < {ALPHA}, over {over} {unit}s"
        )
        if not p.empty:
            text += (
                f" (one-sided Wilcoxon p {raw.min():.4f}–{raw.max():.4f}, "
                f"Holm-adjusted {p.min():.4f}–{p.max():.4f})"
            )
        lacking = _without_data(tests, key)
        if lacking:
            text += f"; no data for {len(lacking)} ({_listed(lacking, 3)})"
        lines.append(text + ".")
    if (tests["cart_n"] > 0).any() and (tests["chow_n"] > 0).any():
        lines.append(
            "- The comparison with CART on all rows is the paper's and flatters: flagging the "
            "hardest rows raises decided accuracy whatever the flags mean. The comparison with "
            "Chow's rule at the same flag rate is the one that decides whether a δ method adds "
            "anything over CART's own probabilities; CART with Laplace-smoothed leaves is the "
            "stronger of CART's own rankings."
        )
    return lines


def friedman_tables(per: pd.DataFrame, unit: str) -> tuple[list[Table], dict]:
    """Friedman's test on two measures, and the mean ranks; also the results by measure."""
    found = {m: friedman(per, unit, m) for m in ("decided_accuracy", "gain_vs_chow")}
    results: dict[str, dict] = {m: r for m, r in found.items() if r is not None}
    if not results:
        return [], {}
    names = {
        "decided_accuracy": "decided accuracy",
        "gain_vs_chow": "decided acc. − Chow acc.",
    }
    test = pd.DataFrame(
        [
            {
                "measure": names[m],
                f"{unit}s": r["n"],
                "combinations": r["k"],
                "χ²": r["statistic"],
                "p": r["p"],
                "CD (Nemenyi, α = 0.05)": r["cd"],
            }
            for m, r in results.items()
        ]
    )
    ranks = pd.DataFrame({"combination": next(iter(results.values()))["ranks"].index})
    for m, r in results.items():
        ranks[f"rank: {names[m]}"] = ranks["combination"].map(r["ranks"])
    ranks = ranks.sort_values(ranks.columns[1], kind="stable").reset_index(drop=True)
    n = max(r["n"] for r in results.values())
    notes = [
        f"Friedman's test over the {n} {unit}s that have every combination (others are left "
        "out); two combinations whose mean ranks differ by more than CD differ at α = 0.05 "
        "(Nemenyi; Demšar 2006). Ranking by decided accuracy rewards flagging many rows; "
        "ranking by the gain over Chow does not."
    ]
    digits = {"χ²": 2, "p": -1, "CD (Nemenyi, α = 0.05)": 3}
    return [
        Table("Friedman test over all combinations", test, notes, digits),
        Table("Mean Friedman ranks (1 = best)", ranks, [], {c: 2 for c in ranks.columns}),
    ], results


def per_dataset_table(rows: pd.DataFrame, chow_ties: str = "row_order") -> Table:
    """Table 4's shape: one row per dataset, one column per combination."""
    df, _, metrics = _prepared(rows)
    if chow_ties == "mean" and "chow_decided_accuracy_ties_mean" in df:
        df["chow_decided_accuracy"] = df["chow_decided_accuracy_ties_mean"]
    per = df.groupby(["dataset", "combo"], sort=False)[metrics].mean()
    out = pd.DataFrame({"dataset": list(dict.fromkeys(df["dataset"]))})
    out["CART acc."] = out["dataset"].map(df.groupby("dataset")["cart_accuracy"].mean())
    for combo in dict.fromkeys(df["combo"]):
        if combo == _BASELINE:
            continue
        out[combo] = [_per_dataset_cell(per, d, combo) for d in out["dataset"]]
    notes = [
        "Each cell: mean decided accuracy over the folds (flagged %, Chow's decided accuracy "
        "at the same flag rate). – where the combination was not run or flagged every row."
    ]
    return Table("Per dataset (the shape of the paper's Table 4)", out, notes, {})


def _per_dataset_cell(per: pd.DataFrame, dataset: str, combo: str) -> str:
    if (dataset, combo) not in per.index:
        return "–"
    row = per.loc[(dataset, combo)]
    if pd.isna(row["decided_accuracy"]):
        return "–"
    chow = row.get("chow_decided_accuracy", np.nan)
    chow_text = f", Chow {chow:.4f}" if pd.notna(chow) else ""
    return f"{row['decided_accuracy']:.4f} ({100 * row['uncertain_rate']:.1f} %{chow_text})"


def report_tables(
    rows: pd.DataFrame,
    threshold: float = 0.005,
    per_dataset: bool = False,
    chow_ties: str = "row_order",
) -> tuple[list[str], list[Table], dict]:
    """The report: opening sentences, tables, and the Friedman results by measure."""
    per, unit = units(rows, chow_ties)
    tables = [summary_table(rows, threshold, chow_ties), tests_table(per, unit, threshold)]
    extra, fried = friedman_tables(per, unit)
    tables += extra
    if per_dataset:
        tables.append(per_dataset_table(rows, chow_ties))
    n_units = per[unit].nunique()
    missing = coverage_notes(rows, per, unit)
    head = [
        f"# Results: {rows['dataset'].nunique() if 'dataset' in rows else 1} dataset(s), "
        f"{per['combo'].nunique()} combination(s), {len(rows)} fold rows",
        "",
        f"Comparisons over {n_units} {unit}s.",
        "",
        *verdict(per, unit, threshold),
        "",
        *provenance_lines(rows.attrs.get("protocols", [])),
        "",
        *([*(f"- {m}" for m in missing), ""] if missing else []),
        *[f"Note: {n}" for n in rows.attrs.get("notes", [])],
        *LEGEND,
        "",
    ]
    return head, tables, fried


def coverage_notes(rows: pd.DataFrame, per: pd.DataFrame, unit: str) -> list[str]:
    """What a partial (interrupted) or older results file lacks, in plain sentences."""
    notes = []
    if unit == "dataset":
        counts = per.groupby("combo", sort=False)["dataset"].nunique()
        short = counts[counts < counts.max()]
        if len(short):
            listed = _listed([f"{c} ({n} of {counts.max()})" for c, n in short.items()])
            notes.append(
                f"Missing: not every combination has every dataset ({listed} datasets); each "
                "comparison counts the datasets it has (its n)."
            )
    folds = rows.groupby(["dataset", "combo"], sort=False)["fold"].nunique()
    cv = pd.to_numeric(rows["cv"], errors="coerce") if "cv" in rows else pd.Series([np.nan])
    cv = cv[np.isfinite(cv) & (cv >= 2) & (cv <= 10_000)]
    expected = int(cv.max()) if len(cv) else None
    if expected and (folds < expected).any():
        notes.append(
            f"Missing: {int((folds < expected).sum())} (dataset, combination) pair(s) have fewer "
            f"than their {expected} folds (an interrupted run); their means are over the folds "
            "present. Rerun the same command to complete them."
        )
    absent = [
        c for c in ("chow_decided_accuracy", "aurc", "cart_aurc", "laplace_aurc") if c not in rows
    ]
    if absent:
        notes.append(
            f"Missing: these results have no {', '.join(absent)} column (written by an older "
            "version); the comparisons that need them read 'no data'."
        )
    return notes


def provenance_lines(protocols: Sequence[dict]) -> list[str]:
    """The stored protocol and the library versions that made the rows."""
    versions: list[dict] = []
    settings = []
    for protocol in protocols:
        for v in protocol.get("versions", []) if isinstance(protocol, dict) else []:
            if isinstance(v, dict) and v not in versions:
                versions.append(v)
        shown = {k: v for k, v in protocol.items() if k != "versions"}
        if shown and shown not in settings:
            settings.append(shown)
    lines = [
        "Protocol: "
        + "; ".join(f"{k} {str(v)[:200]}" for k, v in sorted(s.items()) if v not in ({}, None))
        + "."
        for s in settings
    ]
    if not versions:
        return [
            *lines,
            "Library versions: not recorded in these results (written before run_suite stored "
            "them beside the protocol).",
        ]
    names = {"python": "Python", "numpy": "numpy", "scipy": "scipy"}
    names.update({"scikit-learn": "scikit-learn", "ternary": "ternary"})
    for v in versions:
        lines.append(
            "Made with "
            + ", ".join(f"{shown} {str(v.get(n, '?'))[:40]}" for n, shown in names.items())
            + ("" if len(versions) == 1 else " (the rows come from more than one set of versions)")
            + "."
        )
    return lines


_CD_MEASURES = {
    "decided_accuracy": "decided accuracy",
    "gain_vs_chow": "gain in decided accuracy over Chow's rule at the same flag rate",
}


def cd_title(measure: str, result: dict) -> str:
    """The CD diagram's title: what is ranked, over what, and how to read the bars."""
    unit = "datasets" if result.get("unit", "dataset") == "dataset" else "folds"
    return (
        f"Mean rank by {_CD_MEASURES.get(measure, measure)} (1 = best), "
        f"over {result['n']} {unit} with every combination\n"
        f"Friedman p = {result['p']:.2g}; combinations joined by a bar do not differ "
        "significantly (Nemenyi)"
    )


def _parser(prog: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog or "ternary report",
        description="The paper's tables, and the tests that decide its claim, from results "
        "databases or CSV files written by `ternary run` (python -m ternary.experiment).",
    )
    parser.add_argument("results", nargs="+", metavar="RESULTS", help="results database or CSV")
    parser.add_argument(
        "--format", choices=FORMATS, default="markdown", help="(default: %(default)s)"
    )
    parser.add_argument("--per-dataset", action="store_true", help="add the per-dataset table")
    parser.add_argument("--cd-diagram", metavar="FILE", help="write the CD diagram (.svg/.png)")
    parser.add_argument(
        "--cd-measure",
        choices=("decided_accuracy", "gain_vs_chow"),
        default="decided_accuracy",
        help="what the CD diagram ranks (default: %(default)s)",
    )
    parser.add_argument(
        "--threshold", type=float, default=0.005, help="W/T/L margin (default: 0.005)"
    )
    parser.add_argument(
        "--chow-ties",
        choices=("row_order", "mean"),
        default="row_order",
        help="Chow's baseline with ties at the cut in row order or averaged (default: row_order)",
    )
    parser.add_argument(
        "--datasets", metavar="NAMES", help="comma-separated dataset names to keep (exact)"
    )
    parser.add_argument(
        "--exclude",
        metavar="PATTERN",
        action="append",
        default=[],
        help="leave out datasets whose name matches this shell pattern (repeatable)",
    )
    parser.add_argument("--output", metavar="FILE", help="write the report here, not stdout")
    parser.add_argument(
        "--export-rows",
        metavar="FILE",
        help="also write the selected fold rows to a new database, or CSV file if FILE ends "
        "in .csv (imports an old CSV results file into a database)",
    )
    return parser


def load_rows(paths: Sequence[str], keep=None, exclude=()) -> pd.DataFrame:
    """The rows of every results file, filtered by dataset name; one row per key."""
    frames = [read_results(p) for p in paths]
    protocols = [f.attrs.get("protocol") or {} for f in frames]
    notes = [n for f in frames for n in f.attrs.get("notes", [])]
    frames = [f for f in frames if len(f)]
    if not frames:
        raise ResultsFileError(f"No rows in {', '.join(map(str, paths))}.")
    rows = pd.concat(frames, ignore_index=True)
    rows.attrs = {}
    lacking = [c for c in _REQUIRED if c not in rows]
    if lacking:
        raise ResultsFileError(
            f"{', '.join(map(str, paths))} hold(s) no {', '.join(lacking)} column: not rows "
            "of `ternary run` (run_suite), which writes every one of them."
        )
    if keep:
        unknown = sorted(set(keep) - set(rows["dataset"]))
        if unknown:
            raise ResultsFileError(f"No rows of the dataset(s) {', '.join(unknown)}.")
        rows = rows[rows["dataset"].isin(keep)]
    for pattern in exclude:
        rows = rows[~rows["dataset"].map(lambda n, p=pattern: fnmatch.fnmatchcase(n, p))]
    twice = rows.duplicated(["dataset", "combo", "fold"])
    if twice.any():
        warnings.warn(
            f"{int(twice.sum())} row(s) appear in more than one file; the first is kept.",
            stacklevel=2,
        )
        rows = rows[~twice]
    if rows.empty:
        raise ResultsFileError("No rows are left after --datasets/--exclude.")
    rows = rows.reset_index(drop=True)
    rows.attrs = {"protocols": protocols, "notes": notes}
    return rows


def _refuse_overwriting(outputs, results) -> None:
    """Refuse an output file that is one of the results files read: the report would
    replace the run's rows."""
    for out in filter(None, outputs):
        for path in results:
            try:
                same = Path(out).exists() and Path(out).samefile(path)
            except OSError:  # a results file that is not there is reported when read
                same = False
            if same:
                raise ValueError(
                    f"{str(out)!r} is the results file {str(path)!r} that is read; writing "
                    "there would replace its rows. Choose another output file."
                )


def main(argv: list[str] | None = None, *, prog: str | None = None) -> int:
    """``ternary report``; returns the exit status (0 done, 2 an input or output problem).

    ``prog`` names the command in the usage line (default ``ternary report``).

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments after the command's name; ``sys.argv[1:]`` when omitted.
    prog : str, optional
        The command's name in the usage line.

    Returns
    -------
    int
        The exit status.
    """
    args = _parser(prog).parse_args(argv)
    keep = [n.strip() for n in args.datasets.split(",") if n.strip()] if args.datasets else None
    try:
        _refuse_overwriting((args.output, args.cd_diagram), args.results)
        rows = load_rows(args.results, keep, args.exclude)
        head, tables, fried = report_tables(rows, args.threshold, args.per_dataset, args.chow_ties)
        if args.cd_diagram:
            result = fried.get(args.cd_measure)
            if result is None or result["nemenyi"] is None:
                raise ValueError(
                    "No critical-difference diagram: it needs at least 2 units with 3 or more "
                    "combinations each, and scikit-posthocs (pip install 'ternary[report]')."
                )
            title = cd_title(args.cd_measure, result)
            cd_diagram(args.cd_diagram, result["ranks"], result["nemenyi"], result["cd"], title)
        text = render(tables, args.format, head)
        if args.export_rows:
            write_results(rows, args.export_rows)
        if args.output:
            Path(args.output).write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
    except BrokenPipeError:  # stdout's reader left: not an input problem (see ternary.cli)
        raise
    except (ValueError, ImportError, OSError) as exc:  # ResultsFileError is a ValueError
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
