"""Numbers the app quotes from Smits (2026), kept in this one place.

A test checks `PAPER_CC18_MEANS` against the paper's Table 5 in
``../shared/paper_tables`` and `MARGIN_EFFICIENCY` against the paper's text.
"""

from __future__ import annotations

import pandas as pd

__all__ = ["MARGIN_EFFICIENCY", "PAPER_CC18_MEANS", "paper_cc18_means"]

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
