"""appkit.specs: `FitSpec` (the one cache identity of a fit) and the settings read from the
library's parameter table, all without Streamlit."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_
from sklearn.datasets import make_moons

from appkit import specs
from appkit.model import FitSpec
from appkit.state import BOUNDS, DEFAULTS
from ternary import (
    FOREST_PARAMETERS,
    PARAMETERS,
    TernaryForestClassifier,
    TernaryTreeClassifier,
    validate_params,
)
from tests.app.helpers import ROOT

#: the estimator parameters the app's controls set; the test below must see all of them
APP_PARAMETERS = {
    "delta_method",
    "routing",
    "epsilon",
    "alpha",
    "q",
    "n_bootstraps",
    "delta_scale",
    "max_depth",
    "graft",
    "graft_alpha",
    "ccp_alpha",
}


def test_fit_spec_key_ignores_other_methods_parameters():
    base = {"delta_method": "quality_plateau", "routing": "probabilistic", "epsilon": 0.1}
    a = FitSpec(("d",), ["x", "y"], 0.3, 0, {**base, "alpha": 0.1, "q": 0.2})
    b = FitSpec(("d",), ("x", "y"), 0.3, 0, {**base, "alpha": 0.9})
    assert a.key == b.key and hash(a) == hash(b)
    assert a.with_params({**base, "epsilon": 0.2}).key != a.key
    assert "alpha" not in a.params and a.params["epsilon"] == 0.1
    with pytest.raises(TypeError):
        a.params["epsilon"] = 1.0  # read-only: a cached fit cannot drift from its key
    cart = a.cart()
    assert cart.params["delta_method"] == "none" and cart.features == a.features


@settings(max_examples=40, deadline=None)
@given(st_.permutations(sorted(specs.model_params(DEFAULTS).items())))
def test_fit_spec_key_does_not_depend_on_the_order_params_were_given(items):
    reference = FitSpec(("d",), None, 0.3, 0, specs.model_params(DEFAULTS))
    shuffled = FitSpec(("d",), None, 0.3, 0, dict(items))
    assert shuffled.key == reference.key and hash(shuffled) == hash(reference)


def test_specs_import_no_streamlit():
    code = "import sys, appkit.specs\nprint('streamlit' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"


def test_app_defaults_are_the_estimators_for_every_shared_parameter():
    tree = TernaryTreeClassifier().get_params()
    shared = set(DEFAULTS) & set(tree)
    assert APP_PARAMETERS <= shared  # the comparison below covers every control
    assert {k: DEFAULTS[k] for k in shared} == {k: tree[k] for k in shared}
    assert DEFAULTS["n_bootstraps"] == "auto"  # once typed as 20
    # the forest: the same, except the overrides the app states with their reasons
    forest = TernaryForestClassifier().get_params()
    shared = set(DEFAULTS) & set(forest)
    differ = {k for k in shared if DEFAULTS[k] != forest[k]}
    assert differ == set(specs.APP_OVERRIDES) == {"n_estimators", "max_depth"}
    for name, (value, reason) in specs.APP_OVERRIDES.items():
        assert DEFAULTS[name] == value and len(reason) > 30
    # and the table the app reads is the estimators' own signature defaults
    assert {k: p.default for k, p in PARAMETERS.items()} == tree
    assert {k: p.default for k, p in FOREST_PARAMETERS.items()} == forest


def test_app_bounds_lie_inside_the_librarys_constraints():
    for name, (low, high) in specs.MODEL_BOUNDS.items():
        table = PARAMETERS if name in PARAMETERS else FOREST_PARAMETERS
        parameter = table[name]
        assert BOUNDS[name] == (low, high)
        assert (low, high) == parameter.span, name  # the library's range, not a copy of it
        parameter.check(low)
        parameter.check(high)
        assert low >= parameter.low
        if parameter.high is not None:
            assert high <= parameter.high
        assert isinstance(low, int) == (parameter.kind == "integer"), name


def test_default_settings_are_accepted_by_the_library_and_fit():
    X, y = make_moons(120, noise=0.3, random_state=0)
    for state in (DEFAULTS, {**DEFAULTS, "model": "forest", "n_estimators": 3}):
        params = specs.model_params(state)
        forest = state["model"] == "forest"
        validate_params(params, forest=forest)
        estimator = TernaryForestClassifier if forest else TernaryTreeClassifier
        assert estimator(**params).fit(X, y).predict(X).shape == (120,)
    node = specs.model_params({**DEFAULTS, "delta_method": "node_bootstrap"})
    assert node["n_bootstraps"] == "auto"
    assert specs.model_params({**DEFAULTS, "n_bootstraps": 7})["n_bootstraps"] == 7


def test_grafting_is_off_where_the_library_refuses_it_with_fits_own_message():
    X, y = make_moons(60, noise=0.3, random_state=0)
    with pytest.raises(ValueError) as raised:
        TernaryTreeClassifier(routing="hard_middle", graft="all").fit(X, y)
    assert specs.graft_problem("hard_middle") == str(raised.value)
    assert specs.graft_problem("probabilistic") is None
    state = {**DEFAULTS, "routing": "hard_middle", "graft": "all"}
    assert specs.model_params(state)["graft"] == "none"
    assert specs.model_params({**state, "routing": "deferred"})["graft"] == "all"


def test_a_forest_with_hard_middle_routing_gets_the_librarys_refusal():
    X, y = make_moons(60, noise=0.3, random_state=0)
    with pytest.raises(ValueError) as raised:
        TernaryForestClassifier(routing="hard_middle", n_estimators=2).fit(X, y)
    problem = specs.forest_problem({**DEFAULTS, "model": "forest", "routing": "hard_middle"})
    assert problem.startswith(str(raised.value)) and problem.endswith("set Model to tree.")
    assert specs.forest_problem({**DEFAULTS, "model": "forest"}) is None
    assert specs.forest_problem({**DEFAULTS, "routing": "hard_middle"}) is None  # a tree
    params = specs.model_params({**DEFAULTS, "model": "forest"})
    assert "graft" not in params and params["n_estimators"] == 25


def test_fit_spec_of_a_state_and_a_split_without_held_out_rows():
    from ternary import data as tdata

    ds = tdata.load_builtin("iris")
    state = {**DEFAULTS, "test_size": 0.0, "seed": 3}
    spec = specs.fit_spec(("iris",), ["sepal length (cm)", "petal width (cm)"], state)
    assert (spec.test_size, spec.seed, spec.params["random_state"]) == (0.0, 3, 3)
    sp = specs.split_data(ds, spec)
    assert list(sp.X_train.columns) == ["sepal length (cm)", "petal width (cm)"]
    assert sp.X_train.equals(sp.X_test) and np.array_equal(sp.y_train, ds.y)
    held = specs.split_data(ds, specs.fit_spec(("iris",), None, DEFAULTS))
    assert len(held.y_test) == int(np.ceil(0.3 * len(ds.y)))
    assert len(held.y_train) + len(held.y_test) == len(ds.y)
