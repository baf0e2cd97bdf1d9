"""Labels and help texts the pages show, for names that live in `ternary`.

The δ methods and routings themselves come from `ternary` (`DELTA_METHODS`,
`ROUTINGS`), and which parameter each δ method owns and which are swept from its
parameter table (`ternary.PARAMETERS`); this module only says how to show them, so a
method added to the library appears in every picker and a test catches a missing label.
"""

from __future__ import annotations

from ternary import DELTA_METHODS, GRAFT_MODES, PARAMETERS, ROUTINGS

__all__ = [
    "DELTA_METHODS",
    "GRAFT_CHOICES",
    "METHOD_HELP",
    "METHOD_LABELS",
    "METHOD_PARAM",
    "MISSING_POLICIES",
    "ROUTINGS",
    "ROUTING_HELP",
    "ROUTING_LABELS",
    "SWEEP_LABELS",
    "SWEEP_PARAMS",
    "USER_PREFIX",
    "ZONE_METHODS",
]

#: the δ methods that draw a zone: every method but "none" (which is plain CART)
ZONE_METHODS = tuple(m for m in DELTA_METHODS if m != "none")

#: the grafting modes that graft (the Grafting page's choice): every mode but "none"
GRAFT_CHOICES = tuple(m for m in GRAFT_MODES if m != "none")

#: sidebar entry of an uploaded dataset, followed by its name
USER_PREFIX = "Your data: "

METHOD_LABELS = {
    "margin": "margin (recommended)",
    "node_bootstrap": "node bootstrap",
    "quality_plateau": "quality plateau",
    "gain_ratio": "gain ratio",
    "class_overlap": "class overlap",
    "none": "none (plain CART)",
}
METHOD_HELP = (
    "How the half-width δ of each split's uncertainty zone is computed, from the training rows "
    "that reach the node. **margin**: distance to the nearest training row of another class "
    "across θ, no parameter (the paper's recommendation). **node bootstrap**: spread of θ over "
    "B resamples of the node. **quality plateau**: width of the thresholds whose split quality "
    "is within ε of the best. **gain ratio**: α times the split entropy over the gain. "
    "**class overlap**: overlap of the classes' q…1−q percentile bands. **none**: δ = 0, CART."
)
ROUTING_LABELS = {
    "probabilistic": "probabilistic (blend both children)",
    "deferred": "deferred",
    "hard_middle": "hard middle (third branch)",
}
ROUTING_HELP = (
    "What happens to a row inside a zone. **probabilistic**: it goes down both children and "
    "their predictions are blended by distance to θ. **deferred**: the row blends only at the "
    "first zone it meets; below that split it routes like CART, one way at every split. "
    "**hard middle**: the zone gets its own middle subtree, "
    "grown on the training rows inside it. Every row gets a class either way; rows that touched "
    "a zone are flagged boundary-uncertain."
)
#: the one extra parameter each δ method has (the library's ``Parameter.method``)
METHOD_PARAM = {p.method: name for name, p in PARAMETERS.items() if p.method is not None}

MISSING_POLICIES = {"impute": "fill in (median / a (missing) level)", "drop": "drop rows with gaps"}

#: how the sweep's picker names each parameter the library marks sweepable
SWEEP_LABELS = {
    "epsilon": "ε (quality plateau)",
    "alpha": "α (gain ratio)",
    "q": "q (class overlap)",
    "delta_scale": "δ scale",
}
#: sweepable parameters (the library's ``Parameter.sweep``): label, range of the slider
#: (``Parameter.span``), default range (``Parameter.sweep``)
SWEEP_PARAMS = {
    name: (SWEEP_LABELS[name], p.span, p.sweep)
    for name, p in PARAMETERS.items()
    if p.sweep is not None
}
