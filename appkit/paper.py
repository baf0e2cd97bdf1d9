"""Numbers the app quotes from Smits (2026), kept in this one place.

A test checks `PAPER_CC18_MEANS` against the paper's Table 5 in
``../shared/paper_tables`` and `MARGIN_EFFICIENCY` against the paper's text;
`OUR_CC18_MEANS` against the table of our reproduction run in
``benchmarks/results/reproduce_paper.md``. The app reads neither file at run time.
"""

from __future__ import annotations

import pandas as pd

__all__ = [
    "MARGIN_EFFICIENCY",
    "OUR_CC18_MEANS",
    "PAPER_CC18_MEANS",
    "fig2_figure",
    "fig2_table",
    "paper_cc18_means",
]

#: η of the margin method on OpenML-CC18, from the abstract and §4 of the paper
#: (its mean over datasets, so it differs a little from Table 5's means put into η)
MARGIN_EFFICIENCY = 0.104

#: Table 5: OpenML-CC18 means over 71 datasets, 5-fold CV, depth 4
PAPER_CC18_MEANS = pd.DataFrame(
    [
        ("class_overlap", "probabilistic", 0.7624, 0.712),
        ("gain_ratio", "probabilistic", 0.7562, 0.584),
        ("node_bootstrap", "hard_middle", 0.7458, 0.177),
        ("node_bootstrap", "probabilistic", 0.7455, 0.323),
        ("margin", "probabilistic", 0.7426, 0.168),
        ("quality_plateau", "probabilistic", 0.7361, 0.174),
        ("none", "cart", 0.7247, 0.000),
        ("margin", "hard_middle", 0.7229, 0.097),
        ("quality_plateau", "hard_middle", 0.7148, 0.109),
        ("gain_ratio", "hard_middle", 0.7032, 0.269),
        ("class_overlap", "hard_middle", 0.6788, 0.323),
    ],
    columns=["delta_method", "routing", "decided_accuracy", "uncertain_rate"],
)


def paper_cc18_means() -> pd.DataFrame:
    """A copy of `PAPER_CC18_MEANS` (callers may edit their copy)."""
    return PAPER_CC18_MEANS.copy()


#: ours: the same means from the stored reproduction run (`benchmarks/reproduce_paper.py`,
#: run of 2026-11-29), over the 50 CC18 datasets we hold (48 for node bootstrap), from the
#: table "OpenML-CC18 summary (Table 1)" of ``benchmarks/results/reproduce_paper.md``
#: (columns "ours dec.acc" and "ours undec%")
OUR_CC18_MEANS = pd.DataFrame(
    [
        ("gain_ratio", "probabilistic", 0.7729, 0.587),
        ("class_overlap", "probabilistic", 0.7700, 0.722),
        ("node_bootstrap", "probabilistic", 0.7565, 0.338),
        ("margin", "probabilistic", 0.7492, 0.177),
        ("quality_plateau", "probabilistic", 0.7478, 0.151),
        ("node_bootstrap", "hard_middle", 0.7430, 0.186),
        ("margin", "hard_middle", 0.7362, 0.122),
        ("none", "cart", 0.7339, 0.000),
        ("quality_plateau", "hard_middle", 0.7325, 0.108),
        ("gain_ratio", "hard_middle", 0.7224, 0.287),
        ("class_overlap", "hard_middle", 0.7073, 0.354),
    ],
    columns=["delta_method", "routing", "decided_accuracy", "uncertain_rate"],
)


def fig2_table() -> pd.DataFrame:
    """The paper's and our CC18 means side by side, one row per combination."""
    keys = ["delta_method", "routing"]
    table = PAPER_CC18_MEANS.merge(OUR_CC18_MEANS, on=keys, suffixes=("_paper", "_ours"))
    cart = table["delta_method"] == "none"
    for who in ("paper", "ours"):
        base = float(table.loc[cart, f"decided_accuracy_{who}"].iloc[0])
        rate = table[f"uncertain_rate_{who}"]
        gain = table[f"decided_accuracy_{who}"] - base
        table[f"eta_{who}"] = (gain / rate.where(rate > 0)).round(3)
    return table


def fig2_figure(label_scale: float = 1.0):
    """The paper's Fig. 2 redrawn: its Table 5 means filled, ours hollow beside them
    (``label_scale``: the labels' text size over the plain page's)."""
    import viz

    paper = PAPER_CC18_MEANS
    base = float(paper.loc[paper["delta_method"] == "none", "decided_accuracy"].iloc[0])
    return viz.accuracy_coverage_figure(
        paper,
        baseline_accuracy=base,
        paper_means=OUR_CC18_MEANS,
        reference_label="ours: reproduction run, 50 CC18 sets",
        title="Fig. 2 of Smits (2026): accuracy against coverage, OpenML-CC18 means",
        label_scale=label_scale,
    )
