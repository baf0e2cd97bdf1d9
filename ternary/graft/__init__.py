"""Decision tree grafting (Webb 1997, C4.5+), on a fitted binary `TernaryTree`.

Grafting adds splits and leaves to a grown (and possibly pruned) tree: for every leaf
it looks, at each ancestor, for a cut inside the leaf's region on one attribute whose
region would be labelled with a class of clearly better Laplace accuracy than the
leaf's (a binomial test at level ``alpha``), and grafts it above the leaf as a new
split with a new leaf of that class. The evidence comes from outside the leaf, which
is why grafting complements pruning. How every step of the paper is read, and where
the paper contradicts its own example, is written out in the user guide ("How
ternary.graft reads Webb (1997)", docs/user_guide/grafting_reading.rst).

The search (`ternary.graft._search`), the statistics (`laplace`, `binomial_tail`) and
the surgery (`graft_tree`) live in their own modules; `graft_trace` records a run step
by step (which leaf, which ancestor's evidence, which Laplace accuracies and binomial
test decided each graft).

References
----------
G. I. Webb (1997). Decision Tree Grafting. IJCAI-97, pp. 846–850.

Examples
--------
>>> import numpy as np
>>> from ternary import TernaryTreeClassifier
>>> rng = np.random.RandomState(0)
>>> X = rng.uniform(size=(300, 2))
>>> y = (X[:, 0] + 0.3 * rng.normal(size=300) > 0.5).astype(int)
>>> clf = TernaryTreeClassifier(delta_method="none", max_depth=3, graft="all",
...                             random_state=0).fit(X, y)
>>> list(clf.graft_report_.columns[:4])
['leaf', 'ancestor', 'feature', 'feature_name']
>>> bool(clf.tree_.grafted.sum() == 2 * len(clf.graft_report_))
True
"""

from __future__ import annotations

from ternary._params import GRAFT_MODES
from ternary.graft._apply import GRAFT_REPORT_COLUMNS, graft_tree
from ternary.graft._search import leaf_bounds
from ternary.graft._statistics import binomial_tail, laplace
from ternary.graft._trace import GRAFT_TRACE_COLUMNS, GraftTrace, graft_trace

__all__ = [
    "GRAFT_MODES",
    "GRAFT_REPORT_COLUMNS",
    "GRAFT_TRACE_COLUMNS",
    "GraftTrace",
    "binomial_tail",
    "graft_trace",
    "graft_tree",
    "laplace",
    "leaf_bounds",
]
