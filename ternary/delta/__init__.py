"""The five ways to compute a node's uncertainty half-width δ (Smits 2026, §3.3).

Every method sees only the training rows that reach the node (`NodeRows`): their
values on the node's split feature ``c`` (sorted), their class codes, their weights,
and the threshold θ* CART chose. Each returns a raw, non-negative δ; `node_delta` then
clamps it to ``[0, max_delta_fraction · (max c − min c)]`` and multiplies by
``delta_scale`` (in that order). One private module per method holds its formula and
the reading of the paper pinned for it (the paper's extracted formulas are partly
garbled); the registry (`DELTA_METHODS`) lists them.

Shared readings:

* Split quality is CART's impurity decrease
  ``Q(θ) = imp(parent) − (w_L/W · imp(L) + w_R/W · imp(R))`` with weighted class
  counts, Gini or entropy (bits) (`ternary.tree.impurity`). Candidate thresholds are
  midpoints between consecutive distinct sorted values (computed as ``a/2 + b/2`` like
  scikit-learn), restricted to those leaving ``min_samples_leaf`` rows on each side
  (`quality_curve`). These are the splits CART could have made, with one difference:
  scikit-learn's splitter treats two consecutive values at most 1e-7 apart (its
  ``FEATURE_THRESHOLD``) as one and never cuts between them, while these candidates
  do. Only float32 values of magnitude below 1 can be that close; of the shipped
  datasets, mfeat-fourier, mfeat-zernike and segment have such pairs, and CART's rule
  would move ``quality_plateau``'s δ at 2 nodes of mfeat-zernike's unbounded
  hard-middle tree (none at depth 4, none with probabilistic routing).
* Rows with zero weight are treated as absent everywhere, so a zero weight and a
  removed row give the same δ.
* The zone is ``θ−δ < x < θ+δ`` by default, the paper's half-open ``θ−δ < x ≤ θ+δ`` with
  ``zone_edges="closed"``: ``x ≤ θ−δ`` is decided left either way (δ itself does not
  depend on the setting).
"""

from __future__ import annotations

from ternary.delta._base import (
    DeltaMethod,
    DeltaParams,
    NodeRows,
    quality_curve,
    resolve_n_bootstraps,
)
from ternary.delta._class_overlap import class_bands, delta_class_overlap, widest_overlap
from ternary.delta._gain_ratio import delta_gain_ratio, gain_ratio_parts
from ternary.delta._margin import delta_margin, margin_deltas, margin_support
from ternary.delta._node_bootstrap import bootstrap_thresholds, delta_node_bootstrap
from ternary.delta._quality_plateau import delta_quality_plateau, plateau_bounds
from ternary.delta._registry import (
    DELTA_METHODS,
    REGISTRY,
    compute_raw_delta,
    node_delta,
    split_deltas,
)
from ternary.tree import impurity

__all__ = [
    "DELTA_METHODS",
    "REGISTRY",
    "DeltaMethod",
    "DeltaParams",
    "NodeRows",
    "bootstrap_thresholds",
    "class_bands",
    "compute_raw_delta",
    "delta_class_overlap",
    "delta_gain_ratio",
    "delta_margin",
    "delta_node_bootstrap",
    "delta_quality_plateau",
    "gain_ratio_parts",
    "impurity",
    "margin_deltas",
    "margin_support",
    "node_delta",
    "plateau_bounds",
    "quality_curve",
    "resolve_n_bootstraps",
    "split_deltas",
    "widest_overlap",
]
