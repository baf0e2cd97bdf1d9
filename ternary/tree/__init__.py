"""The ternary tree's structure and every walk of it; no learning happens here.

* `TernaryTree` (flat per-node arrays in scikit-learn's layout) and `TreeBuilder`, with
  the markers `LEAF` and `UNDEFINED` and the settings `ZONE_EDGES`;
* `traverse`: routing, blending and verdicts for the three routings, with the reference
  numpy `walk` every fast path is tested against (the compiled kernels live in
  `ternary.tree.kernels`, numba loaded on first use through `ternary.compiled`);
* the training-partition walk `iter_node_rows`, and `impurity_importances` over it;
* `zone_distance`, a row's distance to the zones on its path in units of δ;
* `zone_top`, the bound of a zone's upper test for either ``zone_edges`` setting;
* the split criterion: `impurity` and `split_quality`.

The learning code's building blocks (CART's split search of one node, ``best_split``;
the δ methods' quality curves; the compiled router and blends) stay importable from
here but are not part of this surface."""

from __future__ import annotations

from ternary.tree._criterion import (
    impurity,
    midpoint,
    split_proxy,
    split_qualities,
    split_quality,
)
from ternary.tree._distance import zone_distance
from ternary.tree._partition import (
    impurity_importances,
    iter_node_rows,
    split_row_pairs,
    stored_importances,
)
from ternary.tree._routing import (
    blend_dense,
    blend_uncertain,
    compiled_router,
    traverse,
    walk,
)
from ternary.tree._split import best_split, split_kernel_available
from ternary.tree._structure import LEAF, UNDEFINED, ZONE_EDGES, TernaryTree, TreeBuilder, zone_top

#: Importable from here but not part of the API: the learning code's building blocks,
#: which `ternary.delta`, the hard-middle builder, the estimator and the tests take from
#: here (CART's split search of one node, the δ methods' quality curves and row pairs,
#: CART's stored importances, the compiled router and the numpy blends).
_BUILDING_BLOCKS = (
    best_split,
    blend_dense,
    blend_uncertain,
    compiled_router,
    midpoint,
    split_kernel_available,
    split_proxy,
    split_qualities,
    split_row_pairs,
    stored_importances,
)

__all__ = [
    "LEAF",
    "UNDEFINED",
    "ZONE_EDGES",
    "TernaryTree",
    "TreeBuilder",
    "impurity",
    "impurity_importances",
    "iter_node_rows",
    "split_quality",
    "traverse",
    "walk",
    "zone_distance",
    "zone_top",
]

# pickles (and skops files) name the public path, which internal moves leave alone
TernaryTree.__module__ = TreeBuilder.__module__ = __name__
