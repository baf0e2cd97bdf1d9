"""Webb's (1997) grafting experiment, repeated with `ternary.graft` on CART trees.

Design (Webb §4): for each dataset, R runs of stratified 10-fold CV; in each
fold a tree is grown unpruned (``max_depth=None``) and pruned, and each is
post-processed three ways: none, one, all (``graft_alpha=0.05``). Reported:
mean error % over the R×10 test folds, win/loss counts of "all" against the
other treatments with a one-tailed sign test (`scipy.stats.binomtest`), and
mean node counts (the shapes of Webb's Tables 2 and 4), beside Webb's own
C4.5/C4.5+ numbers (``../shared/paper_tables/webb_table2_error_pct.csv``) and,
where ``/usr/share/java/weka.jar`` exists, Weka's J48 and J48graft.

Choices, stated once:

* Trees are scikit-learn CART (Gini, binary splits, ``min_samples_leaf=1``)
  via `TernaryTreeClassifier(delta_method="none")`, not C4.5. "Pruned" is
  cost-complexity pruning with one ``ccp_alpha`` per dataset, chosen by
  5-fold CV on the whole dataset over the tree's pruning path (so pruning
  sees the data once; grafting never does).
* Nominal attributes are one-hot (or 0/1) encoded and missing values filled
  with the column median by `ternary.data.load_arff`. As in Webb, grafting
  cuts on continuous attributes only: those declared numeric/real/integer in
  the ARFF header (`graft_tree(..., continuous_features=mask)`).
* Webb's waveform has 300 cases and the 21 signal attributes: we draw 300
  rows (stratified, seed 0) of waveform-5000's first 21 attributes. His
  "dis" dataset is not in ../shared/datasets and is skipped. Our
  echocardiogram has 131 rows (his 74) and differs in attributes.
* Weka's J48graft implements Webb's later (1999) all-tests-but-one-partition
  grafting with its own binomial test, so it is a reference, not a replica.
  Its tree sizes are those of the tree built on all the data (Weka prints
  only that one); its errors are over ``--weka-runs`` 10-fold CV runs.

Usage::

    python benchmarks/bench_graft.py              # full run (about 10 minutes on 2 cores)
    python benchmarks/bench_graft.py --quick      # 4 small datasets, 1 run
    python benchmarks/bench_graft.py --runs 3 --datasets iris,glass,sonar
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed
from scipy.stats import binomtest
from sklearn.datasets import make_classification
from sklearn.model_selection import StratifiedKFold, train_test_split
from sklearn.tree import DecisionTreeClassifier

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from ternary import TernaryTreeClassifier  # noqa: E402
from ternary.data import load_arff  # noqa: E402
from ternary.graft import graft_tree  # noqa: E402
from ternary.tree import traverse  # noqa: E402

SHARED = REPO.parent / "shared"
DATASETS = SHARED / "datasets"
WEBB_TABLE = SHARED / "paper_tables" / "webb_table2_error_pct.csv"
WEKA_JAR = Path("/usr/share/java/weka.jar")
RESULTS = REPO / "benchmarks" / "results" / "bench_graft.md"

#: Webb's dataset name → our ARFF file (his own copies in webb1997/ where they exist).
WEBB_DATASETS = {
    "anneal": "webb1997/anneal.arff",
    "balance-scale": "webb1997/balance-scale.arff",
    "breast-wisc": "breast-w.arff",
    "cleveland": "webb1997/cleveland.arff",
    "crx": "credit-a.arff",
    "dis": None,
    "echocardiogram": "echocardiogram.arff",
    "german-credit": "webb1997/german.arff",
    "glass": "glass.arff",
    "hepatitis": "webb1997/hepatitis.arff",
    "horse-colic": "colic.arff",
    "hungarian-hd": "webb1997/hungarian.arff",
    "hypo": "webb1997/hypothyroid.arff",
    "iris": "iris.arff",
    "labor-neg": "labor.arff",
    "new-thyroid": "new-thyroid.arff",
    "pima-diabetes": "diabetes.arff",
    "sick": "webb1997/sick.arff",
    "sonar": "sonar.arff",
    "waveform": "waveform-5000.arff",
}
QUICK = ["iris", "glass", "pima-diabetes", "sonar"]
TREATMENTS = ("all", "none", "one")
GRAFT_ALPHA = 0.05


# --------------------------------------------------------------------------- data


def numeric_attributes(path: Path) -> set[str]:
    """Names of the attributes an ARFF header declares numeric, real or integer."""
    names = set()
    pattern = re.compile(r"^\s*@attribute\s+(?:'([^']*)'|\"([^\"]*)\"|(\S+))\s+(.+?)\s*$", re.I)
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if line.strip().lower().startswith("@data"):
                break
            m = pattern.match(line)
            if m and m.group(4).lower() in ("numeric", "real", "integer"):
                names.add((m.group(1) or m.group(2) or m.group(3)).strip())
    return names


def load(name: str):
    """(X float32, y codes, continuous mask, class count, arff path for Weka, note)."""
    path = DATASETS / WEBB_DATASETS[name]
    data = load_arff(path)
    X = data.X.to_numpy(dtype=np.float32)
    y = np.unique(np.asarray(data.y), return_inverse=True)[1]
    numeric = numeric_attributes(path)
    mask = np.array([str(c) in numeric for c in data.X.columns])
    note = ""
    if name == "waveform":
        keep = np.arange(21)
        idx, _ = train_test_split(np.arange(len(y)), train_size=300, stratify=y, random_state=0)
        X, y, mask = X[np.sort(idx)][:, keep], y[np.sort(idx)], mask[keep]
        note = "300 rows × 21 signal attributes of waveform-5000"
    if name == "echocardiogram":
        note = f"{len(y)} rows (Webb: 74)"
    return X, y, mask, note


def write_arff(path: Path, X, y, name: str):
    with open(path, "w") as fh:
        fh.write(f"@relation {name}\n")
        for j in range(X.shape[1]):
            fh.write(f"@attribute a{j} numeric\n")
        fh.write("@attribute class {" + ",".join(f"c{k}" for k in np.unique(y)) + "}\n@data\n")
        for row, label in zip(X, y, strict=True):
            fh.write(",".join(f"{v:.6g}" for v in row) + f",c{label}\n")


# --------------------------------------------------------------------------- our trees


def choose_ccp_alpha(X, y, seed=0, max_candidates=25):
    """The ccp_alpha with the lowest 5-fold CV error on the tree's pruning path."""
    path = DecisionTreeClassifier(random_state=seed).cost_complexity_pruning_path(X, y)
    alphas = np.unique(path.ccp_alphas[:-1])  # the last one prunes to the root
    if alphas.size > max_candidates:
        alphas = np.unique(np.quantile(alphas, np.linspace(0, 1, max_candidates)))
    cv = StratifiedKFold(5, shuffle=True, random_state=seed)
    errors = np.zeros(alphas.size)
    for train, test in cv.split(X, y):
        for i, a in enumerate(alphas):
            tree = DecisionTreeClassifier(ccp_alpha=a, random_state=seed).fit(X[train], y[train])
            errors[i] += np.mean(tree.predict(X[test]) != y[test])
    best = np.flatnonzero(errors <= errors.min() + 1e-12)
    return float(alphas[best[-1]])  # ties: the simpler tree


def one_run(name, X, y, mask, ccp_alpha, run):
    """Errors (%) and node counts of every treatment on the 10 folds of one CV run."""
    rows = []
    cv = StratifiedKFold(10, shuffle=True, random_state=run)
    for fold, (train, test) in enumerate(cv.split(X, y)):
        for pruning, alpha in (("unpruned", 0.0), ("pruned", ccp_alpha)):
            clf = TernaryTreeClassifier(
                delta_method="none", max_depth=None, ccp_alpha=alpha, random_state=run
            ).fit(X[train], y[train])
            codes = np.searchsorted(clf.classes_, y[train])
            trees = {"none": (clf.tree_, 0.0)}
            for mode in ("one", "all"):
                t0 = time.perf_counter()
                tree, _ = graft_tree(
                    clf.tree_,
                    X[train],
                    codes,
                    mode=mode,
                    alpha=GRAFT_ALPHA,
                    continuous_features=mask,
                )
                trees[mode] = (tree, time.perf_counter() - t0)
            for mode, (tree, seconds) in trees.items():
                pred = clf.classes_[np.argmax(traverse(tree, X[test], "probabilistic")[0], axis=1)]
                rows.append(
                    {
                        "dataset": name,
                        "run": run,
                        "fold": fold,
                        "pruning": pruning,
                        "graft": mode,
                        "error": 100.0 * np.mean(pred != y[test]),
                        "nodes": tree.node_count,
                        "graft_seconds": seconds,
                    }
                )
    return rows


# --------------------------------------------------------------------------- Weka


def weka_cv(arff: Path, classifier: str, unpruned: bool, seed: int):
    cmd = [
        "java",
        "-Xmx1g",
        "-cp",
        str(WEKA_JAR),
        f"weka.classifiers.trees.{classifier}",
        "-t",
        str(arff),
        "-x",
        "10",
        "-s",
        str(seed),
    ] + (["-U"] if unpruned else [])
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=900).stdout
    except subprocess.TimeoutExpired:
        return np.nan, np.nan
    cv = out.split("=== Stratified cross-validation ===")[-1]
    error = re.search(r"Incorrectly Classified Instances\s+\d+\s+([\d.]+)\s*%", cv)
    size = re.search(r"Size of the tree\s*:\s*(\d+)", out)
    return (float(error.group(1)) if error else np.nan), (int(size.group(1)) if size else np.nan)


def run_weka(files: dict, runs: int, n_jobs: int):
    jobs = [
        (name, clf, unpruned, seed)
        for name in files
        for clf in ("J48", "J48graft")
        for unpruned in (False, True)
        for seed in range(1, runs + 1)
    ]
    out = Parallel(n_jobs=n_jobs, prefer="threads")(
        delayed(weka_cv)(files[name], clf, unpruned, seed) for name, clf, unpruned, seed in jobs
    )
    table = {}
    for (name, clf, unpruned, _), (err, size) in zip(jobs, out, strict=True):
        key = (name, clf, "unpruned" if unpruned else "pruned")
        table.setdefault(key, []).append((err, size))
    return {k: (float(np.mean([e for e, _ in v])), v[0][1]) for k, v in table.items()}


# --------------------------------------------------------------------------- summaries


def sign_test(all_err, other_err):
    """Datasets where "all" has lower / higher mean error, and the one-tailed sign-test p."""
    wins = int(np.sum(all_err < other_err))
    losses = int(np.sum(all_err > other_err))
    p = binomtest(wins, wins + losses, 0.5, alternative="greater").pvalue if wins + losses else 1.0
    return wins, losses, p


def read_webb():
    if not WEBB_TABLE.exists():
        return {}
    with open(WEBB_TABLE) as fh:
        return {
            row["dataset"]: {k: float(v) for k, v in row.items() if k != "dataset"}
            for row in csv.DictReader(fh)
        }


def fmt(x, digits=1):
    return "—" if x is None or (isinstance(x, float) and np.isnan(x)) else f"{x:.{digits}f}"


def timing_section(repeats=7):
    """Grafting alone vs growing the CART tree, on the same data, in this run."""
    lines = [
        "## Timing: grafting alone",
        "",
        "Median of repeated calls on one core, measured in this run. The CART fit is "
        "scikit-learn's `DecisionTreeClassifier` with the same settings.",
        "",
        "| case | rows × features | leaves | grafts | CART fit (s) | graft_tree (s) | ratio |",
        "|---|---|---|---|---|---|---|",
    ]
    cases = [
        ("1,000 rows, pruned to ~6 leaves, ~10 grafts", 1000, 10, dict(ccp_alpha=0.01)),
        ("1,000 rows, pruned to ~10 leaves", 1000, 10, dict(ccp_alpha=0.004)),
        ("1,000 rows, unpruned", 1000, 10, dict()),
        ("5,000 rows, unpruned", 5000, 20, dict()),
    ]
    for label, n, f, params in cases:
        X, y = make_classification(n, f, n_informative=5, flip_y=0.1, random_state=0)
        X = X.astype(np.float32)
        clf = TernaryTreeClassifier(
            delta_method="none", max_depth=None, random_state=0, **params
        ).fit(X, y)
        fit_t, graft_t = [], []
        for _ in range(repeats):
            t0 = time.perf_counter()
            DecisionTreeClassifier(random_state=0, **params).fit(X, y)
            fit_t.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            _, grafts = graft_tree(clf.tree_, X, y, mode="all", alpha=GRAFT_ALPHA)
            graft_t.append(time.perf_counter() - t0)
        fit_s, graft_s = float(np.median(fit_t)), float(np.median(graft_t))
        lines.append(
            f"| {label} | {n} × {f} | {clf.tree_.n_leaves} | {len(grafts)} | "
            f"{fit_s:.4f} | {graft_s:.4f} | {graft_s / fit_s:.1f}× |"
        )
    return lines


def report(records, ccp, notes, weka, weka_runs, runs, names, elapsed, n_jobs, weka_status):
    import pandas as pd

    df = pd.DataFrame.from_records(records)
    webb = read_webb()
    err = df.groupby(["dataset", "pruning", "graft"])["error"].mean().unstack(["pruning", "graft"])
    nodes = (
        df.groupby(["dataset", "pruning", "graft"])["nodes"].mean().unstack(["pruning", "graft"])
    )
    secs = df[df["graft"] != "none"].groupby("dataset")["graft_seconds"].mean()
    order = [n for n in names if n in err.index]
    L = ["# bench_graft: Webb (1997) grafting, repeated on CART", ""]
    L += [
        f"Ran {runs} run(s) of stratified 10-fold CV on {len(order)} dataset(s), "
        f"n_jobs={n_jobs}, in {elapsed / 60:.1f} min on {platform.machine()} "
        f"({os.cpu_count()} CPUs, Python {platform.python_version()}); graft_alpha = "
        f"{GRAFT_ALPHA}. Command: "
        f"`{' '.join(['python benchmarks/bench_graft.py'] + sys.argv[1:])}`.",
        "",
        "Trees are scikit-learn CART (binary, Gini, min_samples_leaf=1), not C4.5; "
        "pruning is cost-complexity pruning with one ccp_alpha per dataset (5-fold CV on "
        "the whole dataset). Grafting cuts on the ARFF's numeric attributes only, as Webb's "
        "C4.5+. See the script's docstring for every choice.",
        "",
    ]

    common = [n for n in order if n in webb]
    L += error_section(err, order, webb, common, notes, ccp)
    L += node_section(nodes, secs, order)
    L += weka_section(weka, weka_runs, order, weka_status)
    L += [""] + timing_section()
    return "\n".join(L) + "\n"


def error_section(err, order, webb, common, notes, ccp):
    """Error % in the shape of Webb's Table 2, then the win/loss sign tests."""
    L = []
    # Table 2 shape
    L += [
        "## Error % (the shape of Webb's Table 2)",
        "",
        "| dataset | rows | cont. | ccp_alpha | pruned all | none | one "
        "| unpruned all | none | one "
        "| Webb pruned all | none | one | Webb unpruned all | none | one |",
        "|" + "---|" * 16,
    ]
    for name in order:
        w = webb.get(name, {})
        cells = [fmt(err.loc[name, (p, g)]) for p in ("pruned", "unpruned") for g in TREATMENTS]
        cells += [fmt(w.get(f"{p}_{g}")) for p in ("pruned", "unpruned") for g in TREATMENTS]
        info = notes[name]
        L.append(
            f"| {name} | {info['rows']} | {info['cont']} | {ccp[name]:.4g} | "
            + " | ".join(cells)
            + " |"
        )
    means = [fmt(err.loc[order, (p, g)].mean()) for p in ("pruned", "unpruned") for g in TREATMENTS]
    wmeans = [
        fmt(np.mean([webb[n][f"{p}_{g}"] for n in common])) if common else "—"
        for p in ("pruned", "unpruned")
        for g in TREATMENTS
    ]
    L.append("| **mean** | | | | " + " | ".join(means + wmeans) + " |")

    L += [
        "",
        '### Win/loss of "all" (datasets where all has lower/higher mean error), '
        "one-tailed sign test",
        "",
        "| comparison | ours pruned | p | ours unpruned | p "
        "| Webb pruned | p | Webb unpruned | p |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for other in ("none", "one"):
        cells = []
        for p in ("pruned", "unpruned"):
            w_, l_, pv = sign_test(
                err.loc[order, (p, "all")].to_numpy(), err.loc[order, (p, other)].to_numpy()
            )
            cells += [f"{w_}/{l_}", f"{pv:.3f}"]
        for p in ("pruned", "unpruned"):
            if common:
                a = np.array([webb[n][f"{p}_all"] for n in common])
                o = np.array([webb[n][f"{p}_{other}"] for n in common])
                w_, l_, pv = sign_test(a, o)
                cells += [f"{w_}/{l_}", f"{pv:.3f}"]
            else:
                cells += ["—", "—"]
        L.append(f"| all vs {other} | " + " | ".join(cells) + " |")
    w_, l_, pv = sign_test(
        err.loc[order, ("pruned", "all")].to_numpy(), err.loc[order, ("unpruned", "all")].to_numpy()
    )
    L += [
        "",
        f"Pruned-then-grafted (all) against unpruned-then-grafted (all): {w_}/{l_} "
        f"datasets, one-tailed p = {pv:.3f} (Webb: 12/3, p = 0.017).",
        f"Webb's columns are his published numbers on the {len(common)} datasets in this "
        "table (his 'dis' has no file here); his win/loss is recomputed on them.",
    ]

    return L


def node_section(nodes, secs, order):
    """Node counts in the shape of Webb's Table 4."""
    L = []
    # Table 4 shape
    L += [
        "",
        "## Node count (the shape of Webb's Table 4)",
        "",
        "| dataset | pruned all | none | one | unpruned all | none | one | graft s/fold |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name in order:
        cells = [fmt(nodes.loc[name, (p, g)]) for p in ("pruned", "unpruned") for g in TREATMENTS]
        L.append(f"| {name} | " + " | ".join(cells) + f" | {secs[name]:.3f} |")
    L += [
        "",
        "Our trees are binary, so node counts are not C4.5's (multiway splits on nominal "
        "attributes); compare the none → one → all growth, not the absolute sizes.",
    ]

    return L


def weka_section(weka, weka_runs, order, weka_status):
    """Weka's J48 and J48graft beside ours, or why they are absent."""
    L = []
    if weka:
        L += [
            "",
            f"## Weka {weka['version']}: J48 and J48graft (error % over {weka_runs} "
            "10-fold CV run(s); size of the tree built on all the data)",
            "",
            "| dataset | J48 pruned | J48graft pruned | J48 unpruned | J48graft unpruned "
            "| size J48 | "
            "size J48graft | size J48 -U | size J48graft -U |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        t = weka["table"]
        for name in order:
            e = [
                fmt(t[(name, c, p)][0]) for p in ("pruned", "unpruned") for c in ("J48", "J48graft")
            ]
            s = [
                fmt(float(t[(name, c, p)][1]), 0)
                for p in ("pruned", "unpruned")
                for c in ("J48", "J48graft")
            ]
            L.append(f"| {name} | " + " | ".join(e + s) + " |")
        for p in ("pruned", "unpruned"):
            a = np.array([t[(n, "J48graft", p)][0] for n in order])
            b = np.array([t[(n, "J48", p)][0] for n in order])
            w_, l_, pv = sign_test(a, b)
            L.append(f"\nJ48graft vs J48 ({p}): {w_}/{l_}, one-tailed p = {pv:.3f}.")
    elif weka_status == "absent":
        L += [
            "",
            f"Weka ({WEKA_JAR}) or java was not found, so the J48/J48graft columns are left out.",
        ]
    else:
        L += ["", "Weka was skipped (--no-weka)."]
    return L


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="4 small datasets, 1 run, 1 Weka run")
    ap.add_argument("--runs", type=int, default=None, help="CV runs per dataset (default 10)")
    ap.add_argument("--datasets", default=None, help="comma-separated Webb names (default all)")
    ap.add_argument("--n-jobs", type=int, default=2)
    ap.add_argument("--weka-runs", type=int, default=None, help="Weka CV runs (default 3)")
    ap.add_argument("--no-weka", action="store_true")
    ap.add_argument("--out", default=str(RESULTS))
    args = ap.parse_args(argv)
    if not DATASETS.is_dir():
        print(f"The shared datasets folder {DATASETS} is absent; nothing to run.")
        return 1
    names = (
        args.datasets.split(",")
        if args.datasets
        else (QUICK if args.quick else list(WEBB_DATASETS))
    )
    unknown = [n for n in names if n not in WEBB_DATASETS]
    if unknown:
        ap.error(f"unknown dataset(s) {unknown}; choose from {', '.join(WEBB_DATASETS)}")
    names = [n for n in names if WEBB_DATASETS[n] is not None]
    runs = args.runs or (1 if args.quick else 10)
    weka_runs = args.weka_runs or (1 if args.quick else 3)
    t_start = time.perf_counter()

    loaded, notes, ccp = {}, {}, {}
    for name in names:
        X, y, mask, note = load(name)
        loaded[name] = (X, y, mask)
        notes[name] = {"rows": len(y), "cont": int(mask.sum()), "note": note}
    ccp_values = Parallel(n_jobs=args.n_jobs)(
        delayed(choose_ccp_alpha)(loaded[n][0], loaded[n][1]) for n in names
    )
    ccp = dict(zip(names, ccp_values, strict=True))
    print(f"ccp_alpha chosen in {time.perf_counter() - t_start:.0f}s", flush=True)

    # biggest first, so the two workers finish together
    tasks = sorted(
        ((n, r) for n in names for r in range(runs)), key=lambda t: -loaded[t[0]][0].size
    )
    chunks = Parallel(n_jobs=args.n_jobs, verbose=5)(
        delayed(one_run)(n, *loaded[n], ccp[n], r) for n, r in tasks
    )
    records = [row for chunk in chunks for row in chunk]
    print(f"our trees done in {time.perf_counter() - t_start:.0f}s", flush=True)

    weka = None
    weka_status = "skipped" if args.no_weka else "absent"
    if not args.no_weka and WEKA_JAR.exists() and shutil.which("java"):
        with tempfile.TemporaryDirectory() as tmp:
            files = {}
            for name in names:
                if name == "waveform":  # Weka sees the same 300-row subsample
                    files[name] = Path(tmp) / "waveform-300.arff"
                    write_arff(files[name], loaded[name][0], loaded[name][1], "waveform-300")
                else:
                    files[name] = DATASETS / WEBB_DATASETS[name]
            version = (
                subprocess.run(
                    ["java", "-cp", str(WEKA_JAR), "weka.core.Version"],
                    capture_output=True,
                    text=True,
                )
                .stdout.strip()
                .splitlines()
            )
            weka = {
                "table": run_weka(files, weka_runs, args.n_jobs),
                "version": version[0] if version else "(unknown version)",
            }
        print(f"Weka done in {time.perf_counter() - t_start:.0f}s", flush=True)
    elapsed = time.perf_counter() - t_start
    for name in names:
        if notes[name]["note"]:
            print(f"note: {name}: {notes[name]['note']}")
    text = report(
        records, ccp, notes, weka, weka_runs, runs, names, elapsed, args.n_jobs, weka_status
    )
    notes_lines = [f"- {n}: {notes[n]['note']}" for n in names if notes[n]["note"]]
    if notes_lines:
        text += "\n## Dataset notes\n\n" + "\n".join(notes_lines) + "\n"
    print(text)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
