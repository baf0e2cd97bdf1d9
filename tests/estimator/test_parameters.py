"""Bad input and bad parameters: one table of parameters, one message format.

The estimators' parameters come from one table (``ternary.PARAMETERS``,
``ternary.FOREST_PARAMETERS``); `ternary.validate_params` checks a dict as ``fit`` would.
"""

import inspect

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification, make_moons
from sklearn.tree import DecisionTreeClassifier

from ternary import (
    FOREST_PARAMETERS,
    PARAMETERS,
    TernaryForestClassifier,
    TernaryTreeClassifier,
    validate_params,
)


@pytest.mark.parametrize(
    "estimator, table",
    [(TernaryTreeClassifier, PARAMETERS), (TernaryForestClassifier, FOREST_PARAMETERS)],
)
def test_the_estimators_defaults_are_the_tables(estimator, table):
    signature = inspect.signature(estimator.__init__).parameters
    defaults = {name: p.default for name, p in signature.items() if name != "self"}
    assert set(defaults) == set(table)
    assert {name: p.default for name, p in table.items()} == defaults


def test_the_table_gives_choices_and_bounds_the_app_can_read():
    assert PARAMETERS["routing"].choices == ("probabilistic", "hard_middle", "deferred")
    assert FOREST_PARAMETERS["routing"].choices == ("probabilistic", "deferred")
    assert (PARAMETERS["q"].low, PARAMETERS["q"].high) == (0.0, 0.5)
    assert PARAMETERS["n_bootstraps"].choices == ("auto",) and PARAMETERS["n_bootstraps"].low == 2
    assert PARAMETERS["delta_scale"].choices == ("bayes",)
    PARAMETERS["delta_scale"].check("bayes")
    with pytest.raises(ValueError, match="give a number ≥ 0 or 'bayes'"):
        PARAMETERS["delta_scale"].check("bays")
    with pytest.raises(ValueError, match="epsilon must be ≥ 0.0 and ≤ 1.0; got 2"):
        PARAMETERS["epsilon"].check(2)


def test_validate_params_raises_what_fit_raises():
    X, y = np.zeros((4, 1)), [0, 1, 0, 1]
    for params, forest, message in [
        ({"routing": "hard_middle", "graft": "all"}, False, "graft is not supported"),
        ({"routing": "hard_middle", "ccp_alpha": 0.1}, False, "ccp_alpha"),
        ({"routing": "hard_middle"}, True, "not supported by TernaryForestClassifier"),
        ({"oob_score": True, "bootstrap": False}, True, "oob_score=True needs bootstrap"),
        ({"n_jobs": 0}, True, "n_jobs=0 runs nothing"),
        ({"epsilon": 7}, True, "epsilon must be"),
    ]:
        with pytest.raises(ValueError, match=message):
            validate_params(params, forest=forest)
        estimator = TernaryForestClassifier if forest else TernaryTreeClassifier
        with pytest.raises(ValueError, match=message):
            estimator(**params).fit(X, y)
    with pytest.raises(ValueError, match="unknown parameter"):
        validate_params({"n_estimators": 5})  # a forest's, not a tree's
    validate_params({"n_estimators": 5, "routing": "deferred"}, forest=True)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_x_is_rejected(bad):
    X, y = make_moons(50, random_state=0)
    X[3, 1] = bad
    with pytest.raises(ValueError, match="(?i)nan|infinity"):
        TernaryTreeClassifier().fit(X, y)
    clf = TernaryTreeClassifier().fit(*make_moons(50, random_state=0))
    with pytest.raises(ValueError, match="(?i)nan|infinity"):
        clf.predict(X)


def test_one_dimensional_x_is_rejected():
    with pytest.raises(ValueError, match="2D"):
        TernaryTreeClassifier().fit(np.arange(10.0), [0, 1] * 5)


def test_mismatched_lengths_are_rejected():
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        TernaryTreeClassifier().fit(np.zeros((10, 2)), [0, 1] * 4)
    with pytest.raises(ValueError, match="one weight per row"):
        TernaryTreeClassifier().fit(np.zeros((10, 2)), [0, 1] * 5, sample_weight=np.ones(3))


@pytest.mark.parametrize(
    "param, value, choices",
    [
        ("delta_method", "magin", "'margin', 'node_bootstrap', 'quality_plateau'"),
        ("routing", "soft", "'probabilistic', 'hard_middle', 'deferred'"),
        ("criterion", "mse", "'gini', 'entropy'"),
        ("graft", "some", "'none', 'all', 'one'"),
    ],
)
def test_unknown_names_list_the_valid_choices(param, value, choices):
    with pytest.raises(ValueError, match=choices):
        TernaryTreeClassifier(**{param: value}).fit(np.zeros((4, 1)), [0, 1, 0, 1])


@pytest.mark.parametrize(
    "param, value",
    [
        ("epsilon", 1.5),
        ("q", 0.7),
        ("alpha", -1),
        ("max_depth", 0),
        ("delta_scale", -0.1),
        ("n_bootstraps", 1),
        ("n_bootstraps", "many"),
        ("min_samples_middle", 0),
        ("max_features", 0),
        ("max_features", 1.5),
        ("max_features", "half"),
    ],
)
def test_out_of_range_numbers_are_rejected(param, value):
    with pytest.raises(ValueError, match=param):
        TernaryTreeClassifier(**{param: value}).fit(np.zeros((4, 1)), [0, 1, 0, 1])


@pytest.mark.parametrize(
    "param",
    ["delta_scale", "epsilon", "alpha", "q", "max_delta_fraction", "graft_alpha", "ccp_alpha"]
    + ["min_weight_fraction_leaf", "max_features"],
)
@pytest.mark.parametrize("value", [np.inf, np.nan, -np.inf])
def test_non_finite_parameters_are_rejected_by_name(param, value):
    clf = TernaryTreeClassifier(**{param: value})
    with pytest.raises(ValueError, match=f"{param} must be a finite number"):
        validate_params(clf.get_params())
    with pytest.raises(ValueError, match=f"{param} must be a finite number"):
        clf.fit(np.zeros((4, 1)), [0, 1, 0, 1])


def test_parameters_are_keyword_only():
    with pytest.raises(TypeError):
        TernaryTreeClassifier("margin")


def test_validation_does_not_shadow_sklearn():
    # scikit-learn's BaseEstimator._validate_params is the inherited one, not an override
    assert "_validate_params" not in TernaryTreeClassifier.__dict__


@pytest.mark.parametrize("max_features", [1, 0.5, "sqrt", "log2"])
def test_max_features_is_cart_with_the_same_draws(max_features):
    X, y = make_classification(300, 9, n_informative=5, random_state=3)
    ours = TernaryTreeClassifier(
        delta_method="none", max_features=max_features, max_depth=5, random_state=4
    ).fit(X, y)
    cart = DecisionTreeClassifier(max_features=max_features, max_depth=5, random_state=4).fit(X, y)
    np.testing.assert_array_equal(ours.tree_.feature, cart.tree_.feature)
    np.testing.assert_array_equal(ours.predict_proba(X), cart.predict_proba(X))


def test_max_features_changes_the_hard_middle_splits():
    X, y = make_classification(300, 9, n_informative=5, random_state=3)
    full = TernaryTreeClassifier(routing="hard_middle", random_state=0).fit(X, y)
    root_feature = full.tree_.feature[0]
    # with one feature drawn per split, some seed draws another root feature than the best one
    features = {
        TernaryTreeClassifier(routing="hard_middle", max_features=1, random_state=seed)
        .fit(X, y)
        .tree_.feature[0]
        for seed in range(6)
    }
    assert features - {root_feature}


def test_graft_with_hard_middle_says_why():
    with pytest.raises(ValueError, match="hard_middle"):
        TernaryTreeClassifier(routing="hard_middle", graft="all").fit(
            np.zeros((4, 1)), [0, 1, 0, 1]
        )


def test_negative_or_zero_sum_weights_are_rejected():
    X, y = np.zeros((4, 1)), [0, 1, 0, 1]
    with pytest.raises(ValueError, match="non-negative"):
        TernaryTreeClassifier().fit(X, y, sample_weight=[1, -1, 1, 1])
    with pytest.raises(ValueError, match="sum to zero"):
        TernaryTreeClassifier().fit(X, y, sample_weight=[0, 0, 0, 0])


@pytest.mark.parametrize(
    "labels, message",
    [
        (pd.Series(["a", None, "b", "a"]), r"1 missing label\(s\) \(None or NaN\), first at row 1"),
        (np.array(["a", 1, "b", 2], dtype=object), r"mixes text .*'a' and 1.*astype\(str\)"),
        (pd.Series([True, "x", False, "y"]), "mixes text"),
    ],
)
def test_labels_that_cannot_be_classes_are_refused_in_words(labels, message):
    with pytest.raises(ValueError, match=message):
        TernaryTreeClassifier().fit(np.arange(8.0).reshape(4, 2), labels)
