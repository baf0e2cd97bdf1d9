"""Rebuild BENCHMARKS.md from the tables the benchmark scripts wrote to benchmarks/results/.

Usage: python benchmarks/assemble.py

Each script (bench_core, bench_app, bench_viz, bench_data, bench_graft, reproduce_paper)
writes its own markdown; this joins them under one heading each, so the figures in
BENCHMARKS.md are always the ones a script printed.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"

SECTIONS = [
    ("bench_core", "Core estimator speed against scikit-learn", "python benchmarks/bench_core.py"),
    ("bench_app", "App responsiveness", "python benchmarks/bench_app.py"),
    ("bench_viz", "Figure builders", "python benchmarks/bench_viz.py"),
    ("bench_data", "Loaders", "python benchmarks/bench_data.py"),
    ("bench_graft", "Grafting: Webb's experiment on CART", "python benchmarks/bench_graft.py"),
    (
        "bench_selective",
        "Selective classification: risk–coverage rankings and calibrated δ",
        "python benchmarks/bench_selective.py",
    ),
    ("bench_forest", "Ternary forests against random forests", "python benchmarks/bench_forest.py"),
    ("bench_fuzz", "Hostile input: the loaders under fuzzing", "python benchmarks/bench_fuzz.py"),
    (
        "bench_scale",
        "The full protocol at scale, local and on Dask",
        "python benchmarks/bench_scale.py",
    ),
    (
        "bench_small",
        "Speed on small data: run_cv, hard-middle and forest fits",
        "python benchmarks/bench_small.py",
    ),
    (
        "reproduce_paper",
        "Reproducing Smits (2026), section 4",
        "python benchmarks/reproduce_paper.py",
    ),
]

INTRO = """# Benchmarks

Every figure below was printed by a script under `benchmarks/` and copied here by
`python benchmarks/assemble.py`. Speed is always a ratio against scikit-learn (or pandas)
measured in the same run on the same data: these are 2-core machines shared with other jobs,
so absolute times move between runs by a factor of two or more, while the ratios move much
less. Nothing here is asserted by the test suite.
"""


def demote(text: str) -> str:
    """Push every heading two levels down so each script's file nests under its section."""
    return re.sub(r"^(#+) ", lambda m: "#" * min(len(m.group(1)) + 2, 6) + " ", text, flags=re.M)


def main():
    parts = [INTRO]
    for stem, title, command in SECTIONS:
        path = RESULTS / f"{stem}.md"
        parts.append(f"## {title}\n\n`{command}`\n")
        parts.append(
            demote(path.read_text(encoding="utf-8")).strip() + "\n"
            if path.exists()
            else f"_Not run yet: `{command}` writes `{path.relative_to(ROOT)}`._\n"
        )
    (ROOT / "BENCHMARKS.md").write_text("\n".join(parts), encoding="utf-8")
    print(f"wrote {ROOT / 'BENCHMARKS.md'}")


if __name__ == "__main__":
    main()
