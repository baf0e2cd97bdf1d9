"""The public surface fits one screen: internals are importable but not in ``__all__``."""

import importlib

import pytest

import ternary
import ternary.tree

#: What a user of the package reads (issue 28): estimators, pipeline, tree, exporters and
#: the choices of the main parameters.
PUBLIC = {
    "DELTA_METHODS",
    "GRAFT_MODES",
    "ROUTINGS",
    "ZONE_EDGES",
    "TernaryForestClassifier",
    "TernaryPipeline",
    "TernaryTree",
    "TernaryTreeClassifier",
    "export_python",
    "export_sql",
    "export_text",
    "extract_rules",
    "make_pipeline",
    "rezone",
}
APP_PLUMBING = ("PARAMETERS", "FOREST_PARAMETERS", "validate_params", "default_feature_names")
TREE_BUILDING_BLOCKS = (
    "best_split",
    "blend_dense",
    "blend_uncertain",
    "compiled_router",
    "midpoint",
    "split_kernel_available",
    "split_proxy",
    "split_qualities",
    "split_row_pairs",
    "stored_importances",
)


def test_the_package_surface_is_the_user_s():
    assert set(ternary.__all__) == PUBLIC
    assert len(ternary.__all__) <= 15


@pytest.mark.parametrize("name", APP_PLUMBING)
def test_the_app_plumbing_stays_importable_from_the_package(name):
    assert name not in ternary.__all__
    value = getattr(importlib.import_module("ternary"), name)
    home = importlib.import_module(ternary._PLUMBING[name])
    assert value is getattr(home, name)
    assert name in dir(ternary)


def test_the_tree_surface_has_no_kernel_internals():
    assert not set(TREE_BUILDING_BLOCKS) & set(ternary.tree.__all__)
    assert {"MAX_DENSE_LEAVES", "warm_up"}.isdisjoint(ternary.tree.__all__)
    assert {"TernaryTree", "traverse", "walk", "iter_node_rows", "zone_distance"} <= set(
        ternary.tree.__all__
    )
    assert len(ternary.tree.__all__) <= 15
    for name in TREE_BUILDING_BLOCKS:  # the learning code and the tests still take them
        assert callable(getattr(ternary.tree, name)), name


def test_an_unknown_name_is_still_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        ternary.nothing_here  # noqa: B018
