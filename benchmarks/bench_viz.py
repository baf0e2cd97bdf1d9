"""Timing of the figure builders on the sizes the app uses.

decision_regions_figure at 300×300 on a 1,000-point two-moons model (median of
5; the model asked on its grid by appkit.answers.regions_figure, as the app
does), split into the model's one grid prediction and the figure assembly, with
scikit-learn's own predict_proba on the same grid as the reference; plus the
figure's JSON serialisation (what Streamlit ships to the browser), tree_dot and
the node inspector. Writes benchmarks/results/bench_viz.md and prints it.

Run: python benchmarks/bench_viz.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.datasets import load_breast_cancer, make_moons
from sklearn.tree import DecisionTreeClassifier

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from appkit.answers import regions_figure as decision_regions_figure  # noqa: E402
from ternary import TernaryTreeClassifier  # noqa: E402
from ternary.explain import explain_node  # noqa: E402
from viz import node_inspector_figure, tree_dot  # noqa: E402
from viz.regions import RegionGrid, grid_axes  # noqa: E402
from viz.regions import decision_regions_figure as regions_from_answers  # noqa: E402

REPEATS = 5


def median_seconds(fn, repeats=REPEATS):
    fn()  # warm-up: imports, plotly validators
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def assembly_rows(model, cart, X, y):
    """The figure's assembly alone, from the model's answers on the grid (what a slider
    move rebuilds): the plain-dict builder against the plotly-object build it replaced
    (issue 32), kept as the tests' reference in tests/viz/regions_reference.py."""
    from appkit.answers import grid_answers
    from tests.viz.regions_reference import reference_figure

    grid = RegionGrid.around(X, 300)
    proba, verdict = grid_answers(model, grid.points)
    kw = dict(classes=model.classes_, proba=proba, verdict=verdict, scores=(0.9, 0.3))
    two = dict(kw, cart_proba=cart.predict_proba(grid.points), cart_scores=(0.8, 0.0))
    rows = []
    for label, args in (("1 panel", kw), ("2 panels", two)):
        before = median_seconds(lambda args=args: reference_figure(X, y, grid, **args))
        after = median_seconds(lambda args=args: regions_from_answers(X, y, grid, **args))
        rows.append(
            (
                f"  assembly only, {label}: plain dict (before: plotly objects {before:.4f} s)",
                after,
                f"{before / after:.1f}× faster",
            )
        )
    return rows


def main():
    X, y = make_moons(1000, noise=0.3, random_state=0)
    model = TernaryTreeClassifier(delta_method="quality_plateau", max_depth=3, random_state=0).fit(
        X, y
    )
    deep = TernaryTreeClassifier(delta_method="margin", max_depth=8, random_state=0).fit(X, y)
    cart = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    xs, ys = grid_axes(X, 300)
    gx, gy = np.meshgrid(xs, ys)
    grid = np.column_stack([gx.ravel(), gy.ravel()])

    rows = []
    t_fig = median_seconds(lambda: decision_regions_figure(model, X, y, resolution=300))
    t_fig_cart = median_seconds(
        lambda: decision_regions_figure(model, X, y, resolution=300, cart_model=cart)
    )
    t_fig_deep = median_seconds(lambda: decision_regions_figure(deep, X, y, resolution=300))
    t_pred = median_seconds(lambda: model.predict_proba_verdict(grid))
    t_sk = median_seconds(lambda: cart.predict_proba(grid))
    fig = decision_regions_figure(model, X, y, resolution=300)
    t_json = median_seconds(fig.to_json)
    size_kb = len(fig.to_json()) / 1e3
    n_rects = (
        len(next(t for t in fig.data if t.type == "scatter" and t.fill == "toself").x) // 6 + 1
    )
    rows += [
        (
            "decision_regions_figure 300×300, depth 3",
            t_fig,
            f"{t_fig / t_sk:.0f}× sklearn predict_proba",
        ),
        ("  same, with CART panel (1×2)", t_fig_cart, f"{t_fig_cart / t_sk:.0f}×"),
        ("  same, depth-8 margin tree", t_fig_deep, f"{t_fig_deep / t_sk:.0f}×"),
        ("  of which predict_proba_verdict(90,000 rows)", t_pred, f"{t_pred / t_sk:.1f}×"),
        ("  sklearn DecisionTreeClassifier.predict_proba (reference)", t_sk, "1×"),
        (f"  fig.to_json() ({size_kb:.0f} kB, {n_rects} hatched rectangles)", t_json, ""),
    ]

    rows += assembly_rows(model, cart, X, y)

    data = load_breast_cancer()
    cancer = {
        d: TernaryTreeClassifier(
            delta_method="margin", routing="hard_middle", max_depth=d, random_state=0
        ).fit(data.data, data.target)
        for d in (2, 6)
    }
    for d, m in cancer.items():
        t = median_seconds(lambda m=m: tree_dot(m, class_names=list(data.target_names)))
        rows.append(
            (f"tree_dot, breast cancer hard_middle depth {d} ({m.tree_.node_count} nodes)", t, "")
        )
    t_explain = median_seconds(lambda: explain_node(cancer[6], data.data, data.target, 0))
    e = explain_node(cancer[6], data.data, data.target, 0)
    rows.append(("explain_node, root of breast cancer (569 rows)", t_explain, ""))
    for method in ("margin", "quality_plateau", "class_overlap"):
        t = median_seconds(lambda method=method: node_inspector_figure(e, method=method))
        rows.append((f"node_inspector_figure, {method}", t, ""))

    lines = [
        "# bench_viz",
        "",
        f"Median of {REPEATS} runs after one warm-up; {sys.platform}, numpy {np.__version__}; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.",
        "",
        "| what | seconds | ratio |",
        "|---|---:|---|",
    ]
    lines += [f"| {name} | {sec:.4f} | {ratio} |" for name, sec, ratio in rows]
    text = "\n".join(lines) + "\n"
    out = REPO / "benchmarks" / "results" / "bench_viz.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
