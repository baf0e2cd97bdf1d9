"""Point labels of the accuracy-coverage figure placed apart at the size they are shown.

Presentation mode shows the labels 1.5 times larger in a narrower plot (its margins and
legend grow with the text); placed for the plain size, they crowded a corner. Placed at
the shown size, labels move, fewer fit in a crowd, and the others are left to the hover.
"""

import numpy as np
import pandas as pd

from viz.coverage import accuracy_coverage_figure, place_labels

# eight long labels stacked in one corner, and one point far from them
XS = [*np.linspace(0.05, 0.15, 8), 0.6]
YS = [*np.linspace(0.88, 0.90, 8), 0.96]
TEXTS = ["quality_plateau (h.m.)"] * 8 + ["gain_ratio"]
RANGES = ((0.0, 0.95), (0.87, 1.0))


def _places(scale):
    return place_labels(XS, YS, TEXTS, *RANGES, scale=scale)


def test_larger_text_keeps_fewer_labels_in_a_crowd_and_the_lone_one():
    plain, presenting = _places(1.0), _places(1.5)
    assert all(p is not None for p in plain)  # at the plain size they all fit
    assert sum(p is not None for p in presenting) < len(TEXTS)
    assert presenting[-1] is not None  # the lone point keeps its label at any size


def test_the_figure_places_its_labels_at_the_scale_it_is_given():
    summary = pd.DataFrame(
        {
            "delta_method": ["none", "margin", "margin", "quality_plateau", "quality_plateau"],
            "routing": ["probabilistic", "hard_middle", "probabilistic"]
            + ["probabilistic", "hard_middle"],
            "decided_accuracy": [0.880, 0.879, 0.889, 0.893, 0.893],
            "uncertain_rate": [0.0, 0.05, 0.07, 0.09, 0.11],  # close enough to crowd
        }
    )

    def positions(scale):
        fig = accuracy_coverage_figure(summary, baseline_accuracy=0.88, label_scale=scale)
        return [
            t.textposition for t in fig.data if t.mode and "text" in t.mode and t.name[0] != "η"
        ]

    assert positions(1.5) != positions(1.0)
