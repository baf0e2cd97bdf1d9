"""The knobs of the parameter table: which parameters a person turns, over which range.

The app offers exactly these (issue 28): its controls, sliders, sweeps and links read
``knob``, ``span``, ``sweep`` and ``method`` from `ternary.PARAMETERS` and type none again,
so the table itself must be sound: every span accepted at both ends, every sweep inside
its span, every method's parameter a parameter of a real method.
"""

from __future__ import annotations

import pytest

from ternary import DELTA_METHODS, FOREST_PARAMETERS, PARAMETERS

TABLES = pytest.mark.parametrize("table", [PARAMETERS, FOREST_PARAMETERS], ids=["tree", "forest"])


@TABLES
def test_a_numeric_knob_and_only_it_has_a_span_the_library_accepts_at_both_ends(table):
    for name, p in table.items():
        numeric = p.kind in ("integer", "real")
        assert (p.span is not None) == (p.knob and numeric), name
        if not p.knob:
            assert p.sweep is None and p.method is None, name
        if p.span is None:
            continue
        low, high = p.span
        assert low < high, name
        p.check(low)
        p.check(high)
        assert p.low <= low and (p.high is None or high <= p.high), name
        if p.kind == "integer":
            assert type(low) is int and type(high) is int, name


def test_the_knobs_are_the_papers_settings_not_carts_pass_through():
    tree = [name for name, p in PARAMETERS.items() if p.knob]
    assert tree == [
        "delta_method",
        "routing",
        "max_depth",
        "epsilon",
        "alpha",
        "q",
        "n_bootstraps",
        "delta_scale",
        "graft",
        "graft_alpha",
        "ccp_alpha",
        "zone_edges",
    ]
    forest_only = [n for n, p in FOREST_PARAMETERS.items() if p.knob and n not in PARAMETERS]
    assert forest_only == ["n_estimators"]
    assert FOREST_PARAMETERS["n_estimators"].span == (1, 100)


def test_a_sweep_lies_inside_its_span_and_only_zone_widths_are_swept():
    swept = {name: p for name, p in PARAMETERS.items() if p.sweep is not None}
    assert list(swept) == ["epsilon", "alpha", "q", "delta_scale"]
    for name, p in swept.items():
        assert p.kind == "real", name
        assert p.span[0] <= p.sweep[0] < p.sweep[1] <= p.span[1], name


def test_each_delta_method_owns_at_most_one_parameter_of_a_real_method():
    owners = {name: p.method for name, p in PARAMETERS.items() if p.method is not None}
    assert owners == {
        "epsilon": "quality_plateau",
        "alpha": "gain_ratio",
        "q": "class_overlap",
        "n_bootstraps": "node_bootstrap",
    }
    assert set(owners.values()) <= set(DELTA_METHODS)
    assert len(set(owners.values())) == len(owners)


def test_the_forest_keeps_its_members_knobs_with_the_binary_routings_only():
    for name in set(PARAMETERS) & set(FOREST_PARAMETERS):
        tree, forest = PARAMETERS[name], FOREST_PARAMETERS[name]
        assert (tree.knob, tree.span, tree.sweep, tree.method) == (
            forest.knob,
            forest.span,
            forest.sweep,
            forest.method,
        ), name
    assert FOREST_PARAMETERS["routing"].choices == ("probabilistic", "deferred")
    assert FOREST_PARAMETERS["routing"].default == PARAMETERS["routing"].default
