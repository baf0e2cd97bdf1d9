"""Accuracy vs. coverage marks degenerate combinations and draws the majority class
where it falls inside the plot (issue 37, items 5 and 6)."""

from __future__ import annotations

import pandas as pd

import viz


def _summary(note=True):
    frame = pd.DataFrame(
        {
            "delta_method": ["none", "margin", "gain_ratio"],
            "routing": ["probabilistic", "probabilistic", "hard_middle"],
            "decided_accuracy": [0.57, 0.58, 0.1013],
            "uncertain_rate": [0.0, 0.03, 0.0],
        }
    )
    if note:
        frame["note"] = ["", "", "one leaf"]
    return frame


def _named(fig, start):
    return [t for t in fig.data if str(t.name).startswith(start)]


def test_a_noted_combination_is_ringed_and_labelled():
    fig = viz.accuracy_coverage_figure(_summary(), baseline_accuracy=0.57, majority_rate=0.1013)
    (ring,) = _named(fig, "degenerate fit")
    assert list(ring.x) == [0.0] and list(ring.y) == [0.1013]
    assert list(ring.text) == ["gain_ratio (h.m.): one leaf"]
    (point,) = _named(fig, "gain_ratio / hard_middle")
    assert "one leaf" in point.hovertemplate
    assert list(point.text) in (["gain_ratio (h.m.): one leaf"], [""])  # "" only when crowded
    (floor,) = _named(fig, "majority class")
    assert list(floor.y) == [0.1013, 0.1013] and floor.name == "majority class (10.1%)"


def test_no_ring_without_notes_and_no_majority_line_outside_the_plot():
    fig = viz.accuracy_coverage_figure(
        _summary(note=False).iloc[:2], baseline_accuracy=0.57, majority_rate=0.1013
    )
    assert not _named(fig, "degenerate fit")
    assert not _named(fig, "majority class")  # 0.10 lies far below 0.57 … 0.58: not drawn
    fig = viz.accuracy_coverage_figure(_summary(), baseline_accuracy=0.57)
    assert not _named(fig, "majority class")


def test_a_noted_sweep_value_is_ringed_with_its_value():
    sweep = pd.DataFrame(
        {
            "param": "delta_scale",
            "value": [0.5, 1.0],
            "delta_method": "gain_ratio",
            "routing": "hard_middle",
            "uncertain_rate": [0.2, 0.0],
            "decided_accuracy": [0.6, 0.1013],
            "note": ["", "one leaf"],
        }
    )
    fig = viz.accuracy_coverage_figure(_summary(), baseline_accuracy=0.57, sweep=sweep)
    (ring,) = _named(fig, "degenerate fit")
    assert list(ring.text) == [
        "gain_ratio (h.m.): one leaf",
        "gain_ratio (h.m.), delta_scale=1: one leaf",
    ]


def test_the_ring_at_zero_flagged_is_drawn_whole():
    fig = viz.accuracy_coverage_figure(_summary(), baseline_accuracy=0.57)
    (ring,) = _named(fig, "degenerate fit")
    assert ring.cliponaxis is False  # a single leaf sits on the y axis (x = 0)
