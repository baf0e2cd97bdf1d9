"""The ternary tree's structure and every walk of it; no learning happens here.

* `TernaryTree` (flat per-node arrays in scikit-learn's layout) and `TreeBuilder`;
* `traverse`: routing, blending and verdicts for the three routings, with the reference
  numpy `walk` every fast path is tested against (the compiled kernels live in
  `ternary.tree.kernels`, numba loaded on first use through `ternary.compiled`);
* the training-partition walks `iter_node_rows` and `split_row_pairs`, and
  `impurity_importances` over them;
* `zone_distance`, a row's distance to the zones on its path in units of δ;
* `zone_top`, the bound of a zone's upper test for either ``zone_edges`` setting;
* the split criterion: `impurity`, `split_quality`, and `best_split`, CART's split of one
  node over all features in one compiled call (the hard-middle growth's split search).
"""

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
    blend_dense,  # noqa: F401 - the numpy blend the kernels' tests compare with; not public
    blend_uncertain,
    compiled_router,
    traverse,
    walk,
)
from ternary.tree._split import best_split, split_kernel_available
from ternary.tree._structure import LEAF, UNDEFINED, ZONE_EDGES, TernaryTree, TreeBuilder, zone_top

__all__ = [
    "LEAF",
    "UNDEFINED",
    "ZONE_EDGES",
    "TernaryTree",
    "TreeBuilder",
    "best_split",
    "blend_uncertain",
    "compiled_router",
    "impurity",
    "impurity_importances",
    "iter_node_rows",
    "midpoint",
    "split_proxy",
    "split_qualities",
    "split_quality",
    "split_kernel_available",
    "split_row_pairs",
    "stored_importances",
    "traverse",
    "walk",
    "zone_distance",
    "zone_top",
]

# pickles (and skops files) name the public path, which internal moves leave alone
TernaryTree.__module__ = TreeBuilder.__module__ = __name__
