"""Numbers the app quotes from Smits (2026), kept in this one place.

A test checks `PAPER_CC18_MEANS` against the paper's Table 5 in
``../shared/paper_tables`` and `MARGIN_EFFICIENCY` against the paper's text;
`OUR_CC18_MEANS` against the table of our reproduction run in
``benchmarks/results/reproduce_paper.md``. The app reads neither file at run time.
"""

from __future__ import annotations

import pandas as pd

__all__ = [
    "ETA_NOTE",
    "MARGIN_EFFICIENCY",
    "PAPER_TEXT_ETA",
    "OUR_CC18_MEANS",
    "PAPER_CC18_MEANS",
    "fig2_figure",
    "fig2_table",
    "paper_cc18_means",
]

#: η of the margin method on OpenML-CC18, from the abstract and §4 of the paper
#: (its mean over datasets, so it differs a little from Table 5's means put into η)
MARGIN_EFFICIENCY = 0.104

#: η as the paper's text prints it (§4: "class-overlap achieves η = 0.068 and gain-ratio
#: η = 0.072, compared to η = 0.104 for margin"), probabilistic routing; Table 5's means put
#: into η give 0.107, 0.053 and 0.054 instead
PAPER_TEXT_ETA = {
    ("margin", "probabilistic"): MARGIN_EFFICIENCY,
    ("class_overlap", "probabilistic"): 0.068,
    ("gain_ratio", "probabilistic"): 0.072,
}

#: what the three η columns of `fig2_table` are, shown under the table
ETA_NOTE = (
    "η = (decided accuracy − CART's) / uncertain share. *eta paper* and *eta ours* are "
    "recomputed here from the means in the table; *eta paper text* is the value the paper's "
    "text quotes, for the three methods it names. They differ (margin 0.104 against 0.107, "
    "class overlap 0.068 against 0.053, gain ratio 0.072 against 0.054): the paper does "
    "not say how it computed its own, and a mean of per-dataset η is not η of the means."
)

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
#: regenerated on 2026-12-01, issue 31), over the 50 CC18 datasets we hold (48 for node
#: bootstrap), from the table "OpenML-CC18 summary (Table 1)" of
#: ``benchmarks/results/reproduce_paper.md`` (columns "ours dec.acc" and "ours undec%")
OUR_CC18_MEANS = pd.DataFrame(
    [
        ("gain_ratio", "probabilistic", 0.7729, 0.587),
        ("class_overlap", "probabilistic", 0.7700, 0.722),
        ("node_bootstrap", "probabilistic", 0.7565, 0.339),
        ("margin", "probabilistic", 0.7491, 0.177),
        ("quality_plateau", "probabilistic", 0.7477, 0.151),
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
    """The paper's and our CC18 means side by side, one row per combination.

    ``eta_paper`` and ``eta_ours`` are η recomputed from the means;
    ``eta_paper_text`` is the paper's own quoted η (`PAPER_TEXT_ETA`), NaN where
    its text quotes none (`ETA_NOTE` says why the two differ).
    """
    keys = ["delta_method", "routing"]
    table = PAPER_CC18_MEANS.merge(OUR_CC18_MEANS, on=keys, suffixes=("_paper", "_ours"))
    cart = table["delta_method"] == "none"
    for who in ("paper", "ours"):
        base = float(table.loc[cart, f"decided_accuracy_{who}"].iloc[0])
        rate = table[f"uncertain_rate_{who}"]
        gain = table[f"decided_accuracy_{who}"] - base
        table[f"eta_{who}"] = (gain / rate.where(rate > 0)).round(3)
    pairs = zip(table["delta_method"], table["routing"], strict=True)
    quoted = [PAPER_TEXT_ETA.get(pair) for pair in pairs]
    table.insert(
        table.columns.get_loc("eta_paper") + 1, "eta_paper_text", pd.Series(quoted, dtype=float)
    )
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
