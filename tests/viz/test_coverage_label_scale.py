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


def _kept_boxes(places, scale):
    """The pixel boxes of the labels kept, in `place_labels`' own model of the plot."""
    from viz.coverage import _FIGURE_PX, _PLOT_HEIGHT_PX, _SIDES_PX, _label_box

    (x0, x1), (y0, y1) = RANGES
    sx = (_FIGURE_PX - _SIDES_PX * scale) / (x1 - x0)
    sy = _PLOT_HEIGHT_PX / (y1 - y0)
    return [
        _label_box((x - x0) * sx, (y - y0) * sy, text, place, scale)
        for x, y, text, place in zip(XS, YS, TEXTS, places, strict=True)
        if place is not None
    ]


def _touching(boxes) -> int:
    return sum(
        a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
        for i, a in enumerate(boxes)
        for b in boxes[i + 1 :]
    )


def test_larger_text_keeps_fewer_labels_in_a_crowd_and_the_lone_one():
    plain, presenting = _places(1.0), _places(1.5)
    kept = [sum(p is not None for p in places) for places in (plain, presenting)]
    assert len(TEXTS) > kept[0] >= kept[1] >= 2  # the crowd cannot hold them all
    assert presenting[-1] is not None  # the lone point keeps its label at any size
    # no label kept touches another, at either size (a fifth of one could, before issue 37)
    assert _touching(_kept_boxes(plain, 1.0)) == 0
    assert _touching(_kept_boxes(presenting, 1.5)) == 0


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
