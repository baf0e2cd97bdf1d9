"""The parameters of the estimators in one table: name → default, constraint, choices.

`PARAMETERS` (tree) and `FOREST_PARAMETERS` (forest) are read by the estimators'
validation (`validate_tree_params`, `validate_forest_params`) and, through the public
face ``ternary.PARAMETERS`` / ``ternary.FOREST_PARAMETERS``, by the app for its
controls: which parameters it offers (the knobs), their defaults, choices and slider
ranges, which δ method owns each and which are swept; the app types none of them again.
The estimators' ``__init__`` defaults are tested equal to the table. Every refusal names
the parameter, its value and what is allowed, with inf and NaN refused like any other
out-of-range number. This module imports numpy and the
δ registry only, so reading the table is cheap.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from ternary._validation import check_choice, check_max_features, check_number
from ternary.delta import DELTA_METHODS
from ternary.tree import ZONE_EDGES

__all__ = [
    "CRITERIA",
    "DELTA_METHODS",
    "FOREST_PARAMETERS",
    "GRAFT_MODES",
    "PARAMETERS",
    "ROUTINGS",
    "ZONE_EDGES",
    "Parameter",
    "validate_forest_params",
    "validate_params",
    "validate_tree_params",
]

#: The names ``routing`` accepts: how a row in a zone travels down the tree.
ROUTINGS = ("probabilistic", "hard_middle", "deferred")
#: The names ``graft`` accepts: no grafting, Webb's C4.5A (every candidate), or C4.5+ (one).
GRAFT_MODES = ("none", "all", "one")
#: The split criteria, as scikit-learn's trees name them.
CRITERIA = ("gini", "entropy", "log_loss")
MAX_FEATURES_NAMES = ("sqrt", "log2")
#: The rankings ``confidence`` accepts (`ternary._confidence`), the default first.
CONFIDENCES = ("laplace", "paper")


@dataclass(frozen=True)
class Parameter:
    """One parameter: its default and what it accepts.

    Attributes
    ----------
    name : str
    default : object
    kind : {"choice", "integer", "real", "max_features", "flag", "free"}
        "choice": one of ``choices``; "integer"/"real": a finite number in
        ``[low, high]`` (``low`` excluded when ``low_open``), or None when
        ``allow_none``, or one of the strings in ``choices`` (``"auto"``, ``"bayes"``);
        "max_features": scikit-learn's (None, "sqrt", "log2", int ≥ 1, fraction in
        (0, 1]); "flag": True or False; "free": passed on unchecked (``class_weight``,
        ``random_state``: scikit-learn checks them).
    choices : tuple of str
    low, high : float or None
    low_open, allow_none : bool
    knob : bool
        One of the settings a person turns to study the zones and the grafts (the
        app's controls and links read these); False for scikit-learn's CART settings
        passed through, the expert caps, the seeds and the rankings.
    span : tuple of two numbers, or None
        For a numeric knob, the range worth exploring (a slider's ends): inside
        ``[low, high]``, and closed where that range is open-ended.
    sweep : tuple of two floats, or None
        For a knob that widens or narrows the zones smoothly, the range a sweep of
        accuracy against coverage starts with; None: not swept.
    method : str or None
        The δ method (one of `DELTA_METHODS`) whose own parameter this is; None for a
        parameter every method reads.
    """

    name: str
    default: object
    kind: str
    choices: tuple[str, ...] = field(default=())
    low: float | None = None
    high: float | None = None
    low_open: bool = False
    allow_none: bool = False
    knob: bool = False
    span: tuple[float, float] | None = None
    sweep: tuple[float, float] | None = None
    method: str | None = None

    def check(self, value) -> None:
        """Raise a ValueError saying what is wrong with ``value``, if anything is."""
        if self.kind == "choice":
            check_choice(self.name, value, self.choices)
        elif self.kind == "max_features":
            check_max_features(value)
        elif self.kind == "flag":
            if not isinstance(value, (bool, np.bool_)):
                raise ValueError(f"{self.name} must be True or False; got {value!r}.")
        elif self.kind in ("integer", "real"):
            if isinstance(value, str) and value in self.choices:
                return
            if isinstance(value, str) and self.choices and self.kind == "real":
                options = " or ".join(map(repr, self.choices))
                raise ValueError(
                    f"{self.name}={value!r} is not supported; give a number ≥ {self.low:g} "
                    f"or {options}."
                )
            check_number(
                self.name,
                value,
                self.low,
                self.high,
                integer=self.kind == "integer",
                low_open=self.low_open,
                allow_none=self.allow_none,
            )


def _table(*parameters: Parameter) -> dict[str, Parameter]:
    return {p.name: p for p in parameters}


#: `TernaryTreeClassifier`'s parameters, in the order of its signature.
PARAMETERS: dict[str, Parameter] = _table(
    Parameter("delta_method", "margin", "choice", DELTA_METHODS, knob=True),
    Parameter("routing", "probabilistic", "choice", ROUTINGS, knob=True),
    # the paper's depths are 2 to 8; at 12 a tree may have 4,096 leaves, past reading
    Parameter("max_depth", 4, "integer", low=1, allow_none=True, knob=True, span=(1, 12)),
    Parameter("criterion", "gini", "choice", CRITERIA),
    Parameter("min_samples_split", 2, "integer", low=2),
    Parameter("min_samples_leaf", 1, "integer", low=1),
    Parameter("min_weight_fraction_leaf", 0.0, "real", low=0.0, high=0.5),
    Parameter("max_features", None, "max_features", MAX_FEATURES_NAMES),
    # a plateau within 50 % of the best quality spans nearly every threshold
    Parameter(
        "epsilon",
        0.05,
        "real",
        low=0.0,
        high=1.0,
        knob=True,
        span=(0.0, 0.5),
        sweep=(0.0, 0.2),
        method="quality_plateau",
    ),
    # α is a fraction of the node's range: past 1, every δ meets the max_delta_fraction cap
    Parameter(
        "alpha",
        0.10,
        "real",
        low=0.0,
        knob=True,
        span=(0.0, 1.0),
        sweep=(0.0, 0.3),
        method="gain_ratio",
    ),
    Parameter(
        "q",
        0.10,
        "real",
        low=0.0,
        high=0.5,
        knob=True,
        span=(0.0, 0.5),
        sweep=(0.0, 0.3),
        method="class_overlap",
    ),
    # B beyond 100 steadies δ no further visibly, and costs B fits a node
    Parameter(
        "n_bootstraps",
        "auto",
        "integer",
        ("auto",),
        low=2,
        knob=True,
        span=(2, 100),
        method="node_bootstrap",
    ),
    Parameter("max_delta_fraction", 0.25, "real", low=0.0),
    # at the default cap (a quarter of the node's range) a scale of 3 spans three quarters
    Parameter(
        "delta_scale",
        1.0,
        "real",
        ("bayes",),
        low=0.0,
        knob=True,
        span=(0.0, 3.0),
        sweep=(0.0, 2.0),
    ),
    Parameter("min_samples_middle", 5, "integer", low=1),
    Parameter("class_weight", None, "free"),
    Parameter("random_state", None, "free"),
    Parameter("graft", "none", "choice", GRAFT_MODES, knob=True),
    # α = 0 accepts no graft; above 0.2 a graft needs hardly any evidence
    Parameter("graft_alpha", 0.05, "real", low=0.0, high=1.0, knob=True, span=(0.001, 0.2)),
    # larger values prune most trees to a few leaves before grafting
    Parameter("ccp_alpha", 0.0, "real", low=0.0, knob=True, span=(0.0, 0.05)),
    # "open" flags only two-sided blends; "closed" is the paper's zone (θ−δ, θ+δ]
    Parameter("zone_edges", "open", "choice", ZONE_EDGES, knob=True),
    Parameter("confidence", "laplace", "choice", CONFIDENCES),
)

_FOREST_ONLY = _table(
    # up to the default: more trees steady the blended probabilities little further
    Parameter("n_estimators", 100, "integer", low=1, knob=True, span=(1, 100)),
    Parameter("min_decided_fraction", 0.5, "real", low=0.0, high=1.0),
    Parameter("bootstrap", True, "flag"),
    Parameter("oob_score", False, "flag"),
    Parameter("n_jobs", None, "integer", low=-(2**31), allow_none=True),
    # the forest's own Laplace ranking lost to the paper's at depths 4 and 8 (issue 30)
    Parameter("confidence", "paper", "choice", CONFIDENCES),
)
#: The member parameters a forest passes to its trees unchanged, in the tree's meaning.
FOREST_TREE_PARAMS = (
    "delta_method",
    "routing",
    "max_depth",
    "criterion",
    "min_samples_split",
    "min_samples_leaf",
    "min_weight_fraction_leaf",
    "max_features",
    "epsilon",
    "alpha",
    "q",
    "n_bootstraps",
    "max_delta_fraction",
    "delta_scale",
    "ccp_alpha",
    "zone_edges",
)
_FOREST_DEFAULTS = {"max_depth": None, "max_features": "sqrt"}
_FOREST_ROUTINGS = tuple(r for r in ROUTINGS if r != "hard_middle")

#: `TernaryForestClassifier`'s parameters: its own, its members' (with the forest's
#: defaults: unlimited depth, "sqrt" features, binary routings only) and class_weight,
#: random_state.
FOREST_PARAMETERS: dict[str, Parameter] = {
    **_FOREST_ONLY,
    **{
        name: (
            replace(PARAMETERS["routing"], choices=_FOREST_ROUTINGS)
            if name == "routing"
            else Parameter(
                **{
                    **PARAMETERS[name].__dict__,
                    "default": _FOREST_DEFAULTS.get(name, PARAMETERS[name].default),
                }
            )
        )
        for name in FOREST_TREE_PARAMS
    },
    "class_weight": PARAMETERS["class_weight"],
    "random_state": PARAMETERS["random_state"],
}


def _tree_rules(params) -> None:
    """The rules that tie two tree parameters together."""
    if params["graft"] != "none" and params["routing"] == "hard_middle":
        raise ValueError(
            "graft is not supported with routing='hard_middle': grafting adds binary splits "
            "judged on CART's training partition, which the middle branches change. Use "
            "routing='probabilistic' or 'deferred' (or delta_method='none') with grafting."
        )
    if params["ccp_alpha"] > 0 and params["routing"] == "hard_middle":
        raise ValueError(
            "ccp_alpha (CART cost-complexity pruning) applies to the binary routings only; "
            "use routing='probabilistic' or 'deferred', or set ccp_alpha=0."
        )


def _forest_rules(params) -> None:
    if params["n_jobs"] == 0:
        raise ValueError("n_jobs=0 runs nothing; use None or 1 (one job), 2, … or -1.")
    if params["routing"] == "hard_middle":
        raise ValueError(
            "routing='hard_middle' is not supported by TernaryForestClassifier: hard-middle "
            "trees are grown node by node in Python rather than by scikit-learn's compiled "
            "builder, too slow to grow a forest of. Use routing='probabilistic' or "
            "'deferred', or a single TernaryTreeClassifier for hard-middle routing."
        )
    if params["oob_score"] and not params["bootstrap"]:
        raise ValueError(
            "oob_score=True needs bootstrap=True: without bootstrap samples every tree "
            "sees every row, so no row is out of bag."
        )


def validate_params(params: dict, *, forest: bool = False) -> None:
    """Check a dict of estimator parameters without fitting, as ``fit`` would.

    Parameters missing from ``params`` take the table's default, so the app can check
    the few it sets. The ValueError is the one ``fit`` raises.

    Parameters
    ----------
    params : dict
        Parameter name → value.
    forest : bool, default=False
        Check against `FOREST_PARAMETERS` (a `TernaryForestClassifier`) instead of
        `PARAMETERS`.

    Raises
    ------
    ValueError
        Naming the parameter, the value given and what is accepted; for an unknown name
        too.
    """
    table = FOREST_PARAMETERS if forest else PARAMETERS
    unknown = sorted(set(params) - set(table))
    if unknown:
        raise ValueError(f"unknown parameter(s) {', '.join(unknown)}; known: {', '.join(table)}.")
    full = {name: params.get(name, p.default) for name, p in table.items()}
    if forest:
        for name in _FOREST_ONLY:
            table[name].check(full[name])
        _forest_rules(full)
        # the members' parameters get the tree's own checks and messages
        validate_params({name: full[name] for name in FOREST_TREE_PARAMS})
        return
    for name, parameter in table.items():
        parameter.check(full[name])
    _tree_rules(full)


def validate_tree_params(estimator) -> None:
    """Check every parameter of a `TernaryTreeClassifier`, raising a clear ValueError.

    `fit` calls it first; callers that build many estimators (the experiment grid) call it
    to reject a bad combination before any work. Every numeric parameter must be finite.

    Parameters
    ----------
    estimator : TernaryTreeClassifier
        Its parameters are read, not changed.

    Raises
    ------
    ValueError
        Naming the parameter, the value given and what is accepted.
    """
    validate_params({name: getattr(estimator, name) for name in PARAMETERS})


def validate_forest_params(estimator) -> None:
    """Check every parameter of a `TernaryForestClassifier` (see `validate_params`)."""
    validate_params({name: getattr(estimator, name) for name in FOREST_PARAMETERS}, forest=True)
