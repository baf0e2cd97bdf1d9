"""Speed of TernaryTreeClassifier against scikit-learn's DecisionTreeClassifier, in one run.

Usage: python benchmarks/bench_core.py [--big] [--repeats 5]

Prints (and writes to benchmarks/results/bench_core.md) the median time of each
operation over ``--repeats`` runs and its ratio to scikit-learn measured in the
same run on the same data. Every repeat times scikit-learn and the ternary tree
back to back, so a busy machine slows both alike; both are single-threaded, so the
ratio of CPU times (``time.process_time``) is given too: on a shared machine it is
the steadier figure.

* Breiman's waveform, fit on 20,000 × 21 rows at max_depth=4, every δ method
  (node_bootstrap with B = 20), against a scikit-learn fit;
* ``predict_proba`` and ``predict_verdict`` on 200,000 rows against scikit-learn's
  ``predict_proba``, with the compiled blend (numba) and with the numpy fallback;
* numba's cost: installed size of numba + llvmlite, import time, first-call compile
  time in a fresh process with an empty cache, and the load time from the disk cache;
* with ``--big``: one fit per method on 1,000,000 × 20 (make_classification).

Targets (issue 10): predict_proba ≤ 2.0× for every method, predict_verdict ≤ 1.5×,
node_bootstrap fit (B = 20) ≤ 1.5×.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ternary import TernaryTreeClassifier  # noqa: E402
from ternary.compiled import warm_up, without  # noqa: E402
from ternary.data import make_waveform  # noqa: E402

METHODS = ["margin", "quality_plateau", "gain_ratio", "class_overlap", "node_bootstrap"]
RESULTS = Path(__file__).resolve().parent / "results"


def paired_ratios(reference, candidate, repeats):
    """Median over repeats of the wall and CPU ratios of ``candidate()`` to ``reference()``.

    Each repeat times the two back to back and takes their ratio, so load that changes
    between repeats cancels out. Returns ``(wall ratio, cpu ratio, candidate wall
    seconds, reference wall seconds)``, the seconds as medians.
    """
    times = {"ref": [], "cand": []}
    for _ in range(repeats):
        for fn, key in ((reference, "ref"), (candidate, "cand")):
            wall, cpu = time.perf_counter(), time.process_time()
            fn()
            times[key].append((time.perf_counter() - wall, time.process_time() - cpu))
    ref, cand = np.array(times["ref"]), np.array(times["cand"])
    ratio = np.median(cand / ref, axis=0)
    return (
        float(ratio[0]),
        float(ratio[1]),
        float(np.median(cand[:, 0])),
        float(np.median(ref[:, 0])),
    )


def _params(method):
    params = dict(delta_method=method, max_depth=4, random_state=0)
    if method == "node_bootstrap":
        params["n_bootstraps"] = 20
    return params


def numba_costs():
    """Install size (MB), import seconds, first-call compile and cached-load seconds."""
    import importlib.util

    size = 0
    for name in ("numba", "llvmlite"):
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            return None
        folder = Path(spec.origin).parent
        size += sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
    probe = (
        "import time; t = time.perf_counter(); import numba; i = time.perf_counter() - t; "
        "t = time.perf_counter(); from ternary.compiled import warm_up; ok = warm_up(); "
        "from ternary.delta import NodeRows, bootstrap_thresholds; import numpy as np; "
        "r = NodeRows.from_arrays(np.arange(20.0), np.arange(20) % 2, np.ones(20), 9.5, 2); "
        "bootstrap_thresholds(r, 'gini', 3, 0); print(i, time.perf_counter() - t, ok)"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
        runs = []
        for _ in range(2):  # first: compile into the empty cache; second: load from it
            out = subprocess.run(
                [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True
            ).stdout.split()
            runs.append((float(out[0]), float(out[1])))
    return size / 1e6, runs[0][0], runs[0][1], runs[1][1]


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--big", action="store_true", help="add the 1,000,000-row fits")
    args = parser.parse_args(argv)

    data = make_waveform(220_000, random_state=0)
    X = np.ascontiguousarray(data.X.to_numpy(dtype=np.float64))
    y = np.asarray(data.y)
    X_fit, y_fit, X_pred = X[:20_000], y[:20_000], X[20_000:]
    warm_up()  # compile (or load) the kernels before timing, as the app does at start
    cart = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X_fit, y_fit)
    rows = []
    for method in METHODS:
        fit = paired_ratios(
            lambda: DecisionTreeClassifier(max_depth=4, random_state=0).fit(X_fit, y_fit),
            lambda m=method: TernaryTreeClassifier(**_params(m)).fit(X_fit, y_fit),
            args.repeats,
        )
        model = TernaryTreeClassifier(**_params(method)).fit(X_fit, y_fit)
        sk_proba = lambda: cart.predict_proba(X_pred)  # noqa: E731
        proba = paired_ratios(sk_proba, lambda m=model: m.predict_proba(X_pred), args.repeats)
        verdict = paired_ratios(sk_proba, lambda m=model: m.predict_verdict(X_pred), args.repeats)
        with without("blend"):  # the numpy fallback, as without numba
            fallback = paired_ratios(
                sk_proba, lambda m=model: m.predict_proba(X_pred), args.repeats
            )
        flagged = 1 - model.predict_verdict(X_pred).mean()
        rows.append((method, fit, proba, verdict, fallback, flagged))

    lines = [
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}; median of {args.repeats}, scikit-learn timed "
        "back to back with each measurement. Breiman's waveform: fit on 20,000 × 21 at "
        "max_depth=4 (node_bootstrap B = 20), predictions on 200,000 rows. Each cell: "
        "median of the paired ratios, wall time / CPU time, to scikit-learn (fit: a "
        "scikit-learn fit; predictions: scikit-learn's predict_proba).",
        "",
        "| δ method | fit | predict_proba | predict_verdict | predict_proba, numpy fallback "
        "| flagged | predict_proba ms (sklearn ms), wall |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for method, fit, proba, verdict, fallback, flagged in rows:
        cells = " | ".join(f"{r[0]:.2f}× / {r[1]:.2f}×" for r in (fit, proba, verdict, fallback))
        lines.append(
            f"| {method} | {cells} | {flagged:.1%} | {proba[2] * 1e3:.1f} ({proba[3] * 1e3:.1f}) |"
        )
    lines += [
        "",
        "Targets: predict_proba ≤ 2.0×, predict_verdict ≤ 1.5×, node_bootstrap fit ≤ 1.5×.",
    ]
    costs = numba_costs()
    if costs is not None:
        size, imp, first, cached = costs
        lines += [
            "",
            f"numba + llvmlite installed: {size:.0f} MB. In a fresh process: `import numba` "
            f"{imp:.2f} s; first call of every kernel with an empty cache (compile) {first:.2f} s; "
            f"the same with the disk cache filled (`cache=True`) {cached:.2f} s. "
            "`ternary.compiled.warm_up()` pays this at start-up; `import ternary` loads no numba.",
        ]
    lines += big_fits(args.big)
    text = "\n".join(lines)
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "bench_core.md").write_text(text + "\n", encoding="utf-8")


def big_fits(big):
    if not big:
        return []
    Xb, yb = make_classification(
        1_000_000, 20, n_informative=10, n_redundant=4, flip_y=0.05, random_state=1
    )
    start = time.perf_counter()
    DecisionTreeClassifier(max_depth=4, random_state=0).fit(Xb, yb)
    sk_big = time.perf_counter() - start
    lines = [
        "",
        f"n = 1,000,000 × 20 (make_classification), one fit each (sklearn {sk_big:.2f} s):",
        "",
        "| δ method | fit s | / sklearn |",
        "|---|---:|---:|",
    ]
    for method in METHODS:
        start = time.perf_counter()
        TernaryTreeClassifier(delta_method=method, max_depth=4, random_state=0).fit(Xb, yb)
        seconds = time.perf_counter() - start
        lines.append(f"| {method} | {seconds:.2f} | {seconds / sk_big:.2f}× |")
    return lines


if __name__ == "__main__":
    main()
