"""Speed of TernaryTreeClassifier against scikit-learn's DecisionTreeClassifier, in one run.

Usage: python benchmarks/bench_core.py [--quick] [--repeats 5]

Prints (and writes to benchmarks/results/bench_core.md) the median time of each
operation over ``--repeats`` runs and its ratio to scikit-learn measured in the
same run on the same data. Every repeat times scikit-learn and the ternary tree
back to back, so a busy machine slows both alike.

* Breiman's waveform, fit on 20,000 × 21 rows at max_depth=4, every δ method
  (node_bootstrap with B = 20), against a scikit-learn fit;
* ``predict_proba`` and ``predict_verdict`` on 200,000 rows against scikit-learn's
  ``predict_proba``, with the compiled blend (numba) and with the numpy fallback;
* numba's cost: installed size of numba + llvmlite, import time, first-call compile
  time in a fresh process with an empty cache, and the load time from the disk cache;
* unless ``--quick``: one fit per method on 1,000,000 × 20 (make_classification).

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

from ternary import TernaryTreeClassifier, _blend  # noqa: E402
from ternary.data import make_waveform  # noqa: E402

METHODS = ["margin", "quality_plateau", "gain_ratio", "class_overlap", "node_bootstrap"]
RESULTS = Path(__file__).resolve().parent / "results"


def paired_medians(reference, candidate, repeats):
    """Median seconds of ``reference()`` and ``candidate()``, timed back to back."""
    ref, cand = [], []
    for _ in range(repeats):
        for fn, out in ((reference, ref), (candidate, cand)):
            start = time.perf_counter()
            fn()
            out.append(time.perf_counter() - start)
    return float(np.median(ref)), float(np.median(cand))


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
        "t = time.perf_counter(); from ternary import _blend; ok = _blend.warm_up(); "
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
    parser.add_argument("--quick", action="store_true", help="skip the 1,000,000-row fits")
    args = parser.parse_args(argv)

    data = make_waveform(220_000, random_state=0)
    X = np.ascontiguousarray(data.X.to_numpy(dtype=np.float64))
    y = np.asarray(data.y)
    X_fit, y_fit, X_pred = X[:20_000], y[:20_000], X[20_000:]
    _blend.warm_up()  # compile (or load) the kernels before timing, as the app does at start
    cart = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X_fit, y_fit)
    rows = []
    for method in METHODS:
        sk_fit, fit = paired_medians(
            lambda: DecisionTreeClassifier(max_depth=4, random_state=0).fit(X_fit, y_fit),
            lambda m=method: TernaryTreeClassifier(**_params(m)).fit(X_fit, y_fit),
            args.repeats,
        )
        model = TernaryTreeClassifier(**_params(method)).fit(X_fit, y_fit)
        sk_pred, proba = paired_medians(
            lambda: cart.predict_proba(X_pred),
            lambda m=model: m.predict_proba(X_pred),
            args.repeats,
        )
        sk_pred_v, verdict = paired_medians(
            lambda: cart.predict_proba(X_pred),
            lambda m=model: m.predict_verdict(X_pred),
            args.repeats,
        )
        saved = _blend._KERNEL.get("blend")
        _blend._KERNEL["blend"] = None  # the numpy fallback, as without numba
        sk_pred_np, proba_np = paired_medians(
            lambda: cart.predict_proba(X_pred),
            lambda m=model: m.predict_proba(X_pred),
            args.repeats,
        )
        _blend._KERNEL["blend"] = saved
        flagged = 1 - model.predict_verdict(X_pred).mean()
        rows.append(
            (method, fit / sk_fit, proba / sk_pred, verdict / sk_pred_v, proba_np / sk_pred_np)
            + (flagged, proba * 1e3, sk_pred * 1e3, sk_fit * 1e3)
        )

    lines = [
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}; median of {args.repeats}, scikit-learn timed "
        "back to back with each measurement. Breiman's waveform: fit on 20,000 × 21 at "
        "max_depth=4 (node_bootstrap B = 20), predictions on 200,000 rows.",
        "",
        "| δ method | fit / sklearn fit | predict_proba / sklearn | predict_verdict / sklearn "
        "| predict_proba, numpy fallback | flagged | predict_proba ms (sklearn ms) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    lines += [
        f"| {m} | {f:.2f}× | {p:.2f}× | {v:.2f}× | {pn:.2f}× | {u:.1%} | {pm:.1f} ({sm:.1f}) |"
        for m, f, p, v, pn, u, pm, sm, _ in rows
    ]
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
            "`ternary._blend.warm_up()` pays this at start-up; `import ternary` loads no numba.",
        ]
    lines += big_fits(args.quick)
    text = "\n".join(lines)
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "bench_core.md").write_text(text + "\n", encoding="utf-8")


def big_fits(quick):
    if quick:
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
