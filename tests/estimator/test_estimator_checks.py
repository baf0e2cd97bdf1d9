"""scikit-learn's own estimator suite, on the configurations that run different code.

scikit-learn's checks (63 per configuration) test the estimator's contract: fit and
predict on odd inputs (one row, one feature, one class, memmaps, pandas, float32),
sample weights, pickling, cloning, idempotence. Run over every δ method × routing
(18 configurations, 1,134 tests, 38 % of the suite's tests) most of them ran the same
code again. Which code each configuration reaches was measured (issue 39) by branch
coverage of ``ternary/`` (coverage.py arcs, numba's JIT off so that the compiled kernels
are traced as Python) under each configuration's 63 checks:

* the 18 together reach 2,419 arcs; the 7 below reach all but 4 of them;
* where the code differs: the binary routings grow scikit-learn's CART and run one
  whole-tree δ pass per method (margin's, the zone methods' shared loops with one
  loop each for quality plateau, gain ratio and class overlap, node bootstrap's
  node-by-node pass, none's zeros); hard-middle grows its own tree and calls each
  method's sorted kernel per node (margin's, the zone methods' via
  ``node_delta_sorted``, and ``node_delta`` for node bootstrap and none); probabilistic
  and deferred differ at predict time (the blend against the deferred walk);
* so each δ method appears once, each routing at least twice, margin (whose sorted
  kernel only hard-middle calls) twice, and none with hard-middle (the
  ``node_delta`` path of the growth);
* the 4 arcs left: ``_no_zones`` (none's whole-tree pass, one ``return``), which
  ``test_delta_none_is_cart`` (test_classes.py) runs, and class overlap's skip of a
  node with fewer than two weighted rows in its whole-tree pass, which the δ passes'
  property test (tests/delta/test_curve_kernels.py) runs against the node-by-node
  oracle.

One configuration takes the paper's closed zone edges (``θ−δ < x ≤ θ+δ``), which none
of the 18 did; the others keep the default open ones. The forest and
RiskControlledClassifier have their own files.
"""

import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from ternary import DELTA_METHODS, ROUTINGS, TernaryTreeClassifier

#: (δ method, routing, extra parameters): see the module docstring for why these
CONFIGURATIONS = [
    ("margin", "probabilistic", {}),
    ("margin", "hard_middle", {}),
    ("node_bootstrap", "deferred", {}),
    ("quality_plateau", "deferred", {"zone_edges": "closed"}),
    ("gain_ratio", "probabilistic", {}),
    ("class_overlap", "hard_middle", {}),
    ("none", "hard_middle", {}),
]

ESTIMATORS = [
    TernaryTreeClassifier(delta_method=method, routing=routing, random_state=0, **extra)
    for method, routing, extra in CONFIGURATIONS
]


def test_the_configurations_take_every_method_and_routing():
    assert {method for method, _, _ in CONFIGURATIONS} == set(DELTA_METHODS)
    routings = [routing for _, routing, _ in CONFIGURATIONS]
    assert all(routings.count(routing) >= 2 for routing in ROUTINGS)


def expected_failed_checks(estimator):
    """Checks that cannot hold by design, each with the reason."""
    failures = {}
    if estimator.delta_method == "node_bootstrap":
        failures["check_sample_weight_equivalence_on_dense_data"] = (
            "node_bootstrap resamples rows: a duplicated row can be drawn twice independently, "
            "a row of weight 2 cannot, so the thresholds' spread differs"
        )
    if estimator.routing == "hard_middle" and estimator.delta_method == "gain_ratio":
        failures["check_sample_weight_equivalence_on_dense_data"] = (
            "min_samples_middle and min_samples_leaf count rows, as scikit-learn's "
            "min_samples_leaf does, so a duplicated row and a weight of 2 can grow a "
            "different middle subtree"
        )
    return failures


@pytest.mark.slow
@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failed_checks)
def test_sklearn_compatible(estimator, check):
    check(estimator)
