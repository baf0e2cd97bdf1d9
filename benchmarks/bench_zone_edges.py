"""Zone edges (issue 30): the open zone against the paper's closed one, on the CC18 tables.

The paper's zone is ``θ−δ < x ≤ θ+δ``; a row at exactly θ+δ is flagged although the blend
sends all of it right. ``zone_edges="open"`` (the library's default) flags only the rows
the blend sends both ways. This script measures, on every OpenML-CC18 table of
``../shared/datasets`` (the paper's Table 4 list, as `reproduce_paper.py` picks it):

* how many flags move: rows the closed zone flags and the open one does not, with the
  default δ method (margin), per dataset and in total;
* for every δ method, with both settings, the decided accuracy against Chow's reject rule
  on CART at the same flag share (CART's least confident rows flagged, ties at the cut
  averaged), and against the strongest simple ranking of issue 30, CART with
  Laplace-smoothed leaves and the scaled gap to the nearest threshold breaking ties
  (`ternary.experiment.laplace_cart_confidence`) flagging as many rows in each fold:
  wins/ties/losses over the datasets and the one-sided Wilcoxon p of "the verdict beats
  the baseline" (``scipy.stats.wilcoxon``, ``alternative="greater"``).

Protocol: `ternary.experiment.run_cv`, the paper's (stratified 5-fold, seed 42, features
standardised per fold, depth 4); one CART per fold shared by every combination, node
bootstrap skipped above 20,000 rows as in the reproduction; one process (``n_jobs=1``).

Run: ``python benchmarks/bench_zone_edges.py``; it writes
``benchmarks/results/bench_zone_edges.md`` and prints the summary.
"""

from __future__ import annotations

import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import wilcoxon
from sklearn.impute import SimpleImputer
from sklearn.model_selection import StratifiedKFold
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from reproduce_paper import (  # noqa: E402
    CV,
    NB_MAX_ROWS,
    SEED,
    TABLES,
    _arff_loader,
    _cc18_available,
)

from ternary import PARAMETERS  # noqa: E402
from ternary.experiment import laplace_cart_confidence, run_cv  # noqa: E402
from ternary.selective import tie_averaged_errors  # noqa: E402

METHODS = ("margin", "quality_plateau", "node_bootstrap", "gain_ratio", "class_overlap")
EDGES = ("closed", "open")
DEPTH = 4
OUT = HERE / "results" / "bench_zone_edges.md"


def _folds(y) -> list:
    """run_cv's stratified folds: (train, test) index pairs."""
    splitter = StratifiedKFold(CV, shuffle=True, random_state=SEED)
    return list(splitter.split(np.zeros((len(y), 1)), y))


def laplace_decided(X, y, rows: pd.DataFrame) -> np.ndarray:
    """Per row of ``rows`` (a fold and a flag count): the Laplace baseline's decided accuracy.

    Each fold is prepared as run_cv prepares it (median imputation where values are missing,
    standardisation, float32, fitted on the training rows); its CART (depth 4, the same seed)
    flags its least confident rows under `laplace_cart_confidence`, as many as the verdict
    flags, ties at the cut averaged.
    """
    X = np.asarray(X, dtype=np.float64)
    out = np.full(len(rows), np.nan)
    for f, (train, test) in enumerate(_folds(y)):
        X_train, X_test = X[train], X[test]
        if np.isnan(X_train).any() or np.isnan(X_test).any():
            imputer = SimpleImputer(strategy="median", keep_empty_features=True).fit(X_train)
            X_train, X_test = imputer.transform(X_train), imputer.transform(X_test)
        scaler = StandardScaler().fit(X_train)
        X_train = scaler.transform(X_train).astype(np.float32)
        X_test = scaler.transform(X_test).astype(np.float32)
        cart = DecisionTreeClassifier(max_depth=DEPTH, random_state=SEED).fit(X_train, y[train])
        y_pred, confidence = laplace_cart_confidence(cart, X_test, X_train.std(axis=0))
        errors = tie_averaged_errors((y_pred != y[test]).astype(np.float64), confidence)
        for i in np.flatnonzero(rows["fold"].to_numpy() == f):
            kept = len(test) - int(rows["flagged"].iloc[i])
            out[i] = (kept - errors[kept - 1]) / kept if kept > 0 else np.nan
    return out


def one_dataset(name: str, stem: str) -> pd.DataFrame:
    """Per (δ method, zone_edges): flagged rows, decided accuracy, Chow's at equal flags."""
    ds = _arff_loader(stem, name)()
    methods = [m for m in METHODS if m != "node_bootstrap" or ds.X.shape[0] <= NB_MAX_ROWS]
    combos = [{"delta_method": m, "zone_edges": e} for m in methods for e in EDGES]
    # the ranking plays no part here: the paper's is the cheapest to compute
    extra = {"confidence": "paper"} if "confidence" in PARAMETERS else {}
    rows = run_cv(ds.X, ds.y, combos=combos, cv=CV, seed=SEED, max_depth=DEPTH, **extra)
    y = np.asarray(ds.y)
    sizes = np.array([len(test) for _, test in _folds(y)])
    rows["flagged"] = np.rint(rows["uncertain_rate"] * sizes[rows["fold"].to_numpy()])
    rows["laplace"] = laplace_decided(ds.X, y, rows)
    out = rows.groupby(["delta_method", "zone_edges"], sort=False).agg(
        flagged=("flagged", "sum"),
        flag_share=("uncertain_rate", "mean"),
        decided_accuracy=("decided_accuracy", "mean"),
        chow=("chow_decided_accuracy_ties_mean", "mean"),
        laplace=("laplace", "mean"),
    )
    out = out.reset_index()
    out.insert(0, "dataset", name)
    out["n_rows"] = int(sizes.sum())
    return out


def _wtl(diff: np.ndarray) -> str:
    return f"{int((diff > 0).sum())}/{int((diff == 0).sum())}/{int((diff < 0).sum())}"


def _p_greater(a: np.ndarray, b: np.ndarray) -> float:
    if np.all(a == b):
        return float("nan")
    return float(wilcoxon(a, b, alternative="greater").pvalue)


def summaries(frame: pd.DataFrame) -> tuple[str, str]:
    """The flags table (margin, per dataset and total) and the equal-share comparison."""
    margin = frame[frame["delta_method"] == "margin"].pivot(
        index="dataset", columns="zone_edges", values="flagged"
    )
    n_rows = frame.groupby("dataset")["n_rows"].first()
    moved = margin["closed"] - margin["open"]
    lines = [
        "| dataset | rows | flagged, closed | flagged, open | flags moved | share moved |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name in margin.index:
        share = moved[name] / margin["closed"][name] if margin["closed"][name] else 0.0
        lines.append(
            f"| {name} | {n_rows[name]} | {margin['closed'][name]:.0f} | "
            f"{margin['open'][name]:.0f} | {moved[name]:.0f} | {share:.1%} |"
        )
    total_closed, total_open = margin["closed"].sum(), margin["open"].sum()
    lines.append(
        f"| **total** | {n_rows.sum()} | {total_closed:.0f} | {total_open:.0f} | "
        f"{total_closed - total_open:.0f} | {(total_closed - total_open) / total_closed:.1%} |"
    )
    flags = "\n".join(lines)
    lines = [
        "| δ method | zone_edges | datasets | mean flag share | decided acc. | Chow | "
        "W/T/L, p vs Chow | Laplace + tie-break | W/T/L, p vs Laplace |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for method in METHODS:
        for edges in EDGES:
            part = frame[(frame["delta_method"] == method) & (frame["zone_edges"] == edges)]
            part = part.dropna(subset=["decided_accuracy", "chow", "laplace"])
            tree, chow = part["decided_accuracy"].to_numpy(), part["chow"].to_numpy()
            laplace = part["laplace"].to_numpy()
            lines.append(
                f"| {method} | {edges} | {len(part)} | {part['flag_share'].mean():.3f} | "
                f"{tree.mean():.4f} | {chow.mean():.4f} | {_wtl(tree - chow)}, "
                f"{_p_greater(tree, chow):.3g} | {laplace.mean():.4f} | "
                f"{_wtl(tree - laplace)}, {_p_greater(tree, laplace):.3g} |"
            )
    return flags, "\n".join(lines)


def main() -> int:
    table4 = pd.read_csv(TABLES / "smits_table4_cc18_per_dataset.csv")
    datasets = _cc18_available(table4, quick=False)
    start, cpu = time.perf_counter(), time.process_time()
    frames = []
    for i, (name, stem) in enumerate(datasets, 1):
        frames.append(one_dataset(name, stem))
        print(f"[{i}/{len(datasets)}] {name}", file=sys.stderr, flush=True)
    frame = pd.concat(frames, ignore_index=True)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    flags, comparison = summaries(frame)
    load = os.getloadavg()
    header = (
        f"# Zone edges: open against closed on {frame['dataset'].nunique()} CC18 tables\n\n"
        f"Depth {DEPTH}, stratified {CV}-fold CV (seed {SEED}), features standardised per "
        "fold, one CART per fold shared by every combination (`run_cv`). "
        f"{wall:.0f} s wall, {cpu:.0f} s CPU in one process on {platform.machine()} "
        f"(Python {platform.python_version()}), load average "
        f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} (1/5/15 min) at the end.\n"
    )
    text = (
        f"{header}\n## Flags that move (margin, the default δ method)\n\n{flags}\n\n"
        "## Decided accuracy against Chow and Laplace at the same flag share\n\n"
        "Per dataset: the verdict's decided accuracy (mean over folds) against CART's "
        "with its least confident rows flagged, as many as the verdict flags in each "
        "fold (ties at the cut averaged): by CART's leaf probability (Chow) and by "
        "Laplace-smoothed leaves with the scaled gap to the nearest threshold breaking "
        "ties. W/T/L counts datasets where the verdict is better, equal, worse; p is the "
        "one-sided Wilcoxon p of the verdict being better.\n\n"
        f"{comparison}\n"
    )
    OUT.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
