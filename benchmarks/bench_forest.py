"""Ternary forests against scikit-learn's RandomForestClassifier, in one run.

Usage: python benchmarks/bench_forest.py [--quick] [--n-estimators 50] [--max-depth 8]
       [--jobs 2] [--sets diabetes,phoneme] [--rows-cache /tmp/bench_forest_rows.csv]

Writes benchmarks/results/bench_forest.md with three tables:

* **CC18**: every OpenML-CC18 dataset of the paper's Table 4 held in ../shared/datasets
  (nominal attributes as ordinal codes, identifier columns dropped, as the paper
  reproduction loads them), stratified 5-fold CV (shuffled, seed 0). In every fold the forest
  (``TernaryForestClassifier``, default margin δ, probabilistic routing) and a
  ``RandomForestClassifier`` with the same ``n_estimators``, ``max_depth`` and
  ``random_state`` are fitted on the same rows. Per fold: accuracy; AURC (tie-averaged,
  `ternary.selective.aurc`) of the forest's ``predict_confidence`` against the random
  forest's Chow ranking (its max ``predict_proba``); decided accuracy at the forest's flag
  rate against the random forest flagging the same number of its least confident rows
  (ties drawn at random, in expectation: ``chow_decided_accuracy(ties="mean")``). Per-dataset
  figures are fold means; W/T/L count datasets (a tie is a difference below 0.0005), and
  the p-values are one-sided Wilcoxon signed-rank tests in the forest's favour.
* **Generated**: the seven built-in generated sets (``ternary.data.load_builtin`` defaults),
  5-fold accuracy of both forests at the run's ``max_depth`` and at ``max_depth=None``
  (goal: never more than 2 percentage points below the random forest), and the AURC of
  both rankings as on CC18.
* **Fit time**: 5 alternating pairs of fits on ``make_classification`` data, ``n_jobs`` 1 and
  2, as the median ratio to the random forest in the same run. Goal: within 2.5×.

Per-fold CC18 rows are appended to ``--rows-cache`` as they finish, so an interrupted run
resumes where it stopped.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import wilcoxon
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import StratifiedKFold

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _timing import median_time  # noqa: E402

from ternary import TernaryForestClassifier  # noqa: E402
from ternary import data as tdata  # noqa: E402
from ternary.experiment import chow_decided_accuracy  # noqa: E402
from ternary.selective import aurc, risk_coverage_curve  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
DATASETS = REPO.parent / "shared" / "datasets"
TABLE4 = REPO.parent / "shared" / "paper_tables" / "smits_table4_cc18_per_dataset.csv"
RESULTS = REPO / "benchmarks" / "results"
ALIAS = {"credit-approval": "credit-a"}
GENERATED = ["two moons", "circles", "xor", "blobs", "twonorm", "ringnorm", "waveform"]
QUICK_SETS = ["diabetes", "banknote-authentication", "vehicle", "wdbc"]
TIE = 0.0005


# ----------------------------------------------------------------------------- data
def cc18_stems(quick: bool, only: list[str] | None) -> list[str]:
    """File stems of the Table 4 datasets held locally, smallest file first."""
    names = pd.read_csv(TABLE4)["dataset"].drop_duplicates()
    stems = [ALIAS.get(n, n) for n in names if (DATASETS / f"{ALIAS.get(n, n)}.arff").is_file()]
    if only:
        stems = [s for s in stems if s in only]
    elif quick:
        stems = [s for s in stems if s in QUICK_SETS]
    return sorted(stems, key=lambda s: (DATASETS / f"{s}.arff").stat().st_size)


def load_cc18(stem: str):
    ds = tdata.load_arff(DATASETS / f"{stem}.arff", ordinal_threshold=1)
    ids = [c for c in ds.X.columns if str(c).lower().startswith("instance_name")]
    X = ds.X.drop(columns=ids) if ids else ds.X
    return np.asarray(X, dtype=np.float64), np.asarray(ds.y)


def folds(y, seed=0):
    # a class with fewer rows than folds cannot be stratified: scikit-learn warns and
    # still splits, which is what we want here
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return list(StratifiedKFold(5, shuffle=True, random_state=seed).split(np.zeros(len(y)), y))


# ----------------------------------------------------------------------------- CC18
def fold_row(X, y, train, test, args, fold):
    forest = TernaryForestClassifier(
        n_estimators=args.n_estimators,
        max_depth=args.max_depth,
        n_jobs=args.jobs,
        random_state=fold,
    )
    rf = RandomForestClassifier(
        n_estimators=args.n_estimators,
        max_depth=args.max_depth,
        n_jobs=args.jobs,
        random_state=fold,
    )
    start = time.perf_counter()
    forest.fit(X[train], y[train])
    fit_forest = time.perf_counter() - start
    start = time.perf_counter()
    rf.fit(X[train], y[train])
    fit_rf = time.perf_counter() - start
    pred, verdict = forest.predict_with_verdict(X[test])
    verdict = verdict.astype(bool)
    confidence = forest.predict_confidence(X[test])
    rf_proba = rf.predict_proba(X[test])
    rf_pred = rf.classes_[rf_proba.argmax(axis=1)]
    n_flagged = int((~verdict).sum())
    yt = y[test]
    return {
        "fold": fold,
        "acc_forest": float(np.mean(pred == yt)),
        "acc_rf": float(np.mean(rf_pred == yt)),
        "aurc_forest": aurc(yt, pred, confidence),
        "aurc_rf": aurc(yt, rf_pred, rf_proba.max(axis=1)),
        "flag_rate": n_flagged / len(test),
        "dacc_forest": float(np.mean(pred[verdict] == yt[verdict])) if verdict.any() else np.nan,
        "dacc_rf": chow_decided_accuracy(yt, rf_proba, n_flagged, classes=rf.classes_, ties="mean"),
        # the forest's own ranking, flagging as many rows as its verdict does (ties averaged)
        "dacc_forest_rank": (
            1.0 - float(risk_coverage_curve(yt, pred, confidence)[1][len(test) - n_flagged - 1])
            if n_flagged < len(test)
            else np.nan
        ),
        "fit_forest": fit_forest,
        "fit_rf": fit_rf,
    }


def run_cc18(args) -> pd.DataFrame:
    cache = Path(args.rows_cache)
    done = pd.read_csv(cache) if cache.is_file() else pd.DataFrame(columns=["dataset", "fold"])
    key = f"n{args.n_estimators}_d{args.max_depth}"
    if "config" in done:
        done = done[done["config"] == key]
    stems = cc18_stems(args.quick, args.sets)
    # start the process pool before any fold is timed
    warm = make_classification(200, 5, random_state=0)
    TernaryForestClassifier(n_estimators=4, n_jobs=args.jobs).fit(*warm)
    started = time.perf_counter()
    for i, stem in enumerate(stems):
        have = set(done.loc[done["dataset"] == stem, "fold"])
        if len(have) == 5:
            continue
        if args.budget and time.perf_counter() - started > args.budget:
            print(f"time budget reached before {stem}; stopping", file=sys.stderr)
            break
        X, y = load_cc18(stem)
        for fold, (train, test) in enumerate(folds(y)):
            if fold in have:
                continue
            row = {"config": key, "dataset": stem, **fold_row(X, y, train, test, args, fold)}
            pd.DataFrame([row]).to_csv(cache, mode="a", header=not cache.is_file(), index=False)
            done = pd.concat([done, pd.DataFrame([row])], ignore_index=True)
        print(f"[{i + 1}/{len(stems)}] {stem} ({len(y)} rows)", file=sys.stderr, flush=True)
    return done[done["dataset"].isin(stems)]


def _wtl(a, b, higher_better):
    diff = (a - b) if higher_better else (b - a)
    return f"{int((diff > TIE).sum())}/{int((diff.abs() <= TIE).sum())}/{int((diff < -TIE).sum())}"


def _p(a, b, higher_better):
    diff = (a - b).to_numpy()
    if np.all(np.abs(diff) < 1e-12):
        return float("nan")
    return float(wilcoxon(a, b, alternative="greater" if higher_better else "less").pvalue)


def cc18_tables(rows: pd.DataFrame) -> list[str]:
    per = rows.drop(columns=["config", "fold"]).groupby("dataset", sort=False).mean()
    lines = [
        "| dataset | acc forest | acc RF | AURC forest | AURC RF (Chow) | flagged | "
        "decided acc forest | RF, same number flagged | forest ranking, same number | "
        "fit forest / RF |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in per.iterrows():
        lines.append(
            f"| {name} | {r.acc_forest:.4f} | {r.acc_rf:.4f} | {r.aurc_forest:.4f} | "
            f"{r.aurc_rf:.4f} | {100 * r.flag_rate:.1f}% | {r.dacc_forest:.4f} | "
            f"{r.dacc_rf:.4f} | {r.dacc_forest_rank:.4f} | {r.fit_forest / r.fit_rf:.2f}× |"
        )
    dacc = per.dropna(subset=["dacc_forest", "dacc_rf"])
    summary = [
        "",
        "Columns: *flagged* is the share of test rows the forest's verdict flags "
        "(min_decided_fraction=0.5); *decided acc forest* the accuracy on the rows it decides; "
        "*RF, same number flagged* the random forest flagging as many rows, least max "
        "probability first (Chow); *forest ranking, same number* the forest flagging as many "
        "rows by its own predict_confidence instead of its verdict. Ties in a ranking are "
        "averaged over random orders.",
        "",
        f"Over {len(per)} datasets (means of 5 folds); W/T/L from the forest's side "
        f"(tie: |difference| ≤ {TIE}); p: one-sided Wilcoxon signed-rank, forest better.",
        "",
        "| measure | forest mean | RF mean | W/T/L | p |",
        "|---|---|---|---|---|",
        f"| accuracy | {per.acc_forest.mean():.4f} | {per.acc_rf.mean():.4f} | "
        f"{_wtl(per.acc_forest, per.acc_rf, True)} | {_p(per.acc_forest, per.acc_rf, True):.3g} |",
        f"| AURC (lower is better) | {per.aurc_forest.mean():.4f} | {per.aurc_rf.mean():.4f} | "
        f"{_wtl(per.aurc_forest, per.aurc_rf, False)} | "
        f"{_p(per.aurc_forest, per.aurc_rf, False):.3g} |",
        f"| decided accuracy at the forest's flag rate | {dacc.dacc_forest.mean():.4f} | "
        f"{dacc.dacc_rf.mean():.4f} | {_wtl(dacc.dacc_forest, dacc.dacc_rf, True)} | "
        f"{_p(dacc.dacc_forest, dacc.dacc_rf, True):.3g} |",
        f"| the same, forest flagging by predict_confidence | "
        f"{dacc.dacc_forest_rank.mean():.4f} | {dacc.dacc_rf.mean():.4f} | "
        f"{_wtl(dacc.dacc_forest_rank, dacc.dacc_rf, True)} | "
        f"{_p(dacc.dacc_forest_rank, dacc.dacc_rf, True):.3g} |",
        "",
        f"Mean flag rate of the forest: {100 * per.flag_rate.mean():.1f}%. Fit time ratio "
        f"(forest / RF, same n_jobs) median over datasets: "
        f"{(per.fit_forest / per.fit_rf).median():.2f}×.",
    ]
    return lines + summary


# ----------------------------------------------------------------------------- generated
def generated_table(args) -> list[str]:
    lines = [
        "| dataset | rows | max_depth | acc forest | acc RF | difference | goal (≥ −0.02) | "
        "AURC forest | AURC RF (Chow) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name in GENERATED:
        ds = tdata.load_builtin(name)
        X, y = np.asarray(ds.X, dtype=np.float64), np.asarray(ds.y)
        for depth in dict.fromkeys([args.max_depth, None]):
            scores = np.zeros((2, 2, 5))  # (forest, RF) × (accuracy, AURC) × fold
            for fold, (train, test) in enumerate(folds(y)):
                for j, cls in enumerate((TernaryForestClassifier, RandomForestClassifier)):
                    model = cls(
                        n_estimators=args.n_estimators,
                        max_depth=depth,
                        n_jobs=args.jobs,
                        random_state=fold,
                    ).fit(X[train], y[train])
                    proba = model.predict_proba(X[test])
                    pred = model.classes_[proba.argmax(axis=1)]
                    ranking = model.predict_confidence(X[test]) if j == 0 else proba.max(axis=1)
                    scores[j, 0, fold] = np.mean(pred == y[test])
                    scores[j, 1, fold] = aurc(y[test], pred, ranking)
            (f, f_aurc), (r, r_aurc) = scores.mean(axis=2)
            lines.append(
                f"| {name} | {len(y)} | {depth} | {f:.4f} | {r:.4f} | {f - r:+.4f} | "
                f"{'met' if f - r >= -0.02 else 'MISSED'} | {f_aurc:.4f} | {r_aurc:.4f} |"
            )
        print(f"generated: {name}", file=sys.stderr, flush=True)
    return lines


# ----------------------------------------------------------------------------- timing
def _paired_times(X, y, common, repeats=5):
    """Median forest and RF fit times and the median of their per-pair ratios.

    The two fits alternate, so a burst of load from other jobs on this shared machine
    lands on both members of a pair rather than on one estimator's whole series.
    """
    pairs = []
    for _ in range(repeats):
        pair = []
        for cls in (TernaryForestClassifier, RandomForestClassifier):
            pair.append(median_time(lambda c=cls: c(**common, random_state=0).fit(X, y), 1))
        pairs.append(pair)
    pairs = np.array(pairs)
    return np.median(pairs[:, 0]), np.median(pairs[:, 1]), np.median(pairs[:, 0] / pairs[:, 1])


def timing_table(args) -> list[str]:
    lines = [
        "| rows × features | max_depth | n_jobs | forest (s) | RF (s) | ratio | goal (≤ 2.5×) |",
        "|---|---|---|---|---|---|---|",
    ]
    sizes = [(2000, 20)] if args.quick else [(2000, 20), (10000, 20)]
    for n, p in sizes:
        X, y = make_classification(n, p, n_informative=8, flip_y=0.05, random_state=0)
        for depth in dict.fromkeys([args.max_depth, None]):
            for jobs in (1, 2):
                common = dict(n_estimators=args.n_estimators, max_depth=depth, n_jobs=jobs)
                # one untimed fit starts the process pool, so the pool's start is not timed
                TernaryForestClassifier(**common, random_state=0).fit(X[:200], y[:200])
                tf, tr, ratio = _paired_times(X, y, common)
                lines.append(
                    f"| {n:,} × {p} | {depth} | {jobs} | {tf:.2f} | {tr:.2f} | {ratio:.2f}× | "
                    f"{'met' if ratio <= 2.5 else 'MISSED'} |"
                )
    lines += [
        "",
        "Median of 5 alternating pairs of fits; the ratio is the median of the per-pair ratios.",
    ]
    return lines


# ----------------------------------------------------------------------------- main
def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n-estimators", type=int, default=50)
    parser.add_argument("--max-depth", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="4 CC18 sets, small timing")
    parser.add_argument("--sets", type=lambda s: s.split(","), default=None)
    parser.add_argument("--rows-cache", default="/tmp/bench_forest_rows.csv")
    parser.add_argument("--budget", type=float, default=0, help="stop CC18 after N seconds")
    parser.add_argument("--skip", default="", help="comma list of parts: cc18,generated,timing")
    args = parser.parse_args(argv)
    skip = set(args.skip.split(",")) if args.skip else set()

    config = f"n_estimators={args.n_estimators}, max_depth={args.max_depth}, n_jobs={args.jobs}"
    out = [
        f"Forest: `TernaryForestClassifier` defaults (margin δ, probabilistic routing, "
        f"max_features='sqrt', bootstrap, min_decided_fraction=0.5) against "
        f"`RandomForestClassifier`, both with {config}.",
        "",
    ]
    if "timing" not in skip:
        out += ["### Fit time", "", *timing_table(args), ""]
    if "generated" not in skip:
        out += ["### Generated benchmarks (5-fold CV)", "", *generated_table(args), ""]
    if "cc18" not in skip:
        rows = run_cc18(args)
        n_sets = rows["dataset"].nunique()
        out += [f"### OpenML-CC18 ({n_sets} local datasets, 5-fold CV)", "", *cc18_tables(rows)]
    out += [
        "",
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores "
        f"(shared with other jobs); Python {platform.python_version()}.",
    ]
    text = "\n".join(out) + "\n"
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "bench_forest.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
