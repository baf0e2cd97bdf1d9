"""Model settings as data: `FitSpec`, `CVSpec`, the split, and what a setting may be.

A `FitSpec` says which rows and columns a tree is fitted on and with which
parameters; its `.key` is the cache key of every fit, score and figure built
from it, so no page builds a key by hand. `CVSpec` does the same for a
cross-validation run.

Which estimator parameters the app offers (the table's knobs), their defaults, slider
ranges and choices are read from the library's parameter table (`ternary.PARAMETERS`,
`ternary.FOREST_PARAMETERS`), never typed again; the two defaults the app sets
otherwise are `APP_OVERRIDES`, each with its reason. A combination the library
refuses (a forest with hard-middle routing, grafting with it) is refused with the
library's own message (`ternary.validate_params`). No Streamlit here: the widgets are
in `appkit.model`, and everything in this module is tested without an app.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from appkit.vocabulary import METHOD_PARAM
from ternary import FOREST_PARAMETERS, PARAMETERS, validate_params

__all__ = [
    "APP_OVERRIDES",
    "CVSpec",
    "FitSpec",
    "MODEL_BOUNDS",
    "MODEL_DEFAULTS",
    "MODEL_KINDS",
    "SPLIT_DEFAULTS",
    "Split",
    "fit_spec",
    "forest_problem",
    "graft_problem",
    "is_forest",
    "model_params",
    "split_data",
]

#: the model choice: one ternary tree, or a `ternary.TernaryForestClassifier`
MODEL_KINDS = ("tree", "forest")

#: the estimator parameters the app's controls set (the grafting page's too): the
#: library's knobs (``Parameter.knob``), the tree's in its signature's order, then the
#: forest's own
_KNOBS = {
    **{name: p for name, p in PARAMETERS.items() if p.knob},
    **{name: p for name, p in FOREST_PARAMETERS.items() if p.knob and name not in PARAMETERS},
}
MODEL_PARAMS = tuple(_KNOBS)

#: the defaults the app sets otherwise than the estimators, and why
APP_OVERRIDES = {
    "n_estimators": (
        25,
        "a forest is refitted live on every change; 25 trees keep that within a second "
        "on the built-in data (the forest's default is 100)",
    ),
    "max_depth": (
        4,
        "the paper's depth for the forest's trees as for the tree (the tree's default too; "
        "the forest's default grows every tree until its leaves are pure)",
    ),
}


def _bounds(name) -> tuple:
    """A slider's ends: the library's ``span``, as integers for an integer parameter."""
    p = _KNOBS[name]
    kind = int if p.kind == "integer" else float
    return kind(p.span[0]), kind(p.span[1])


#: every estimator parameter's default in the app: the library's (a tree's), but for
#: `APP_OVERRIDES`
MODEL_DEFAULTS: dict[str, Any] = {
    name: APP_OVERRIDES[name][0] if name in APP_OVERRIDES else p.default
    for name, p in _KNOBS.items()
}
#: the numeric estimator settings: the knobs with a range worth exploring
_NUMERIC = tuple(name for name, p in _KNOBS.items() if p.span is not None)
#: the range of every numeric estimator setting: the library's ``span``
MODEL_BOUNDS: dict[str, tuple] = {name: _bounds(name) for name in _NUMERIC}

#: the split and model-kind settings a `FitSpec` is built from, besides the parameters
SPLIT_DEFAULTS = {"test_size": 0.3, "seed": 0, "model": "tree"}


def _frozen(params: Mapping[str, Any]) -> Mapping[str, Any]:
    # a parameter the chosen δ method ignores must not split the caches
    own = METHOD_PARAM.get(params.get("delta_method"))
    kept = {k: v for k, v in params.items() if k == own or k not in METHOD_PARAM.values()}
    return MappingProxyType(dict(sorted(kept.items())))


@dataclass(frozen=True)
class FitSpec:
    """One fit: dataset, plotted features, held-out share, seed and estimator parameters.

    Parameters
    ----------
    data_key : tuple, the dataset's identity (`appkit.datasets.dataset_key`)
    features : tuple of str or None; None fits on every feature
    test_size : float, share of rows held out (stratified)
    seed : int, seed of the split
    params : mapping of `TernaryTreeClassifier` parameters, or of
        `TernaryForestClassifier` ones when it holds ``n_estimators``; stored
        read-only, without the parameters of δ methods other than the chosen one
    """

    data_key: tuple
    features: tuple[str, ...] | None
    test_size: float
    seed: int
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        features = None if self.features is None else tuple(map(str, self.features))
        object.__setattr__(self, "features", features)
        object.__setattr__(self, "test_size", float(self.test_size))
        object.__setattr__(self, "seed", int(self.seed))
        object.__setattr__(self, "params", _frozen(self.params))

    @property
    def key(self) -> tuple:
        """The hashable identity every cache of this fit uses."""
        return (
            self.data_key,
            self.features,
            self.test_size,
            self.seed,
            tuple(self.params.items()),
        )

    def __hash__(self) -> int:
        return hash(self.key)

    def with_params(self, params: Mapping[str, Any]) -> FitSpec:
        """The same rows and split with other estimator parameters."""
        return replace(self, params=params)

    @property
    def forest(self) -> bool:
        """Whether this is a fit of a `TernaryForestClassifier`."""
        return "n_estimators" in self.params

    def cart(self) -> FitSpec:
        """The baseline without zones: same rows, depth and seed, no δ, no grafting.

        For a forest it is the same forest without zones: its members have the
        same seeds, bootstrap samples and splits, so the two differ by the zones only.
        """
        params = {
            "delta_method": "none",
            "routing": "probabilistic",
            "max_depth": self.params.get("max_depth"),
            "random_state": self.params.get("random_state"),
        }
        if self.forest:
            params["n_estimators"] = self.params["n_estimators"]
        return self.with_params(params)


@dataclass(frozen=True)
class CVSpec:
    """One cross-validation run of `ternary.experiment.run_cv` on a whole dataset.

    ``combos`` holds the combinations as read-only mappings (None: the paper's
    11); ``features`` restricts the columns (None: every feature).
    """

    data_key: tuple
    cv: int
    max_depth: int
    seed: int
    combos: tuple[Mapping[str, Any], ...] | None = None
    features: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "cv", int(self.cv))
        object.__setattr__(self, "max_depth", int(self.max_depth))
        object.__setattr__(self, "seed", int(self.seed))
        if self.features is not None:
            object.__setattr__(self, "features", tuple(map(str, self.features)))
        if self.combos is not None:
            combos = tuple(MappingProxyType(dict(c)) for c in self.combos)
            object.__setattr__(self, "combos", combos)

    @property
    def key(self) -> tuple:
        """The hashable identity every cache of this run uses."""
        combos = None if self.combos is None else tuple(tuple(c.items()) for c in self.combos)
        return (self.data_key, self.features, self.cv, self.max_depth, self.seed, combos)

    def __hash__(self) -> int:
        return hash(self.key)

    def run_cv_combos(self) -> list[dict[str, Any]] | None:
        """The combinations as the fresh dicts `run_cv` takes (None: the paper's 11)."""
        return None if self.combos is None else [dict(c) for c in self.combos]


# ----------------------------------------------------------------------------- split
@dataclass(frozen=True)
class Split:
    """The training and held-out rows of one `FitSpec`."""

    X_train: pd.DataFrame
    X_test: pd.DataFrame
    y_train: np.ndarray
    y_test: np.ndarray


def split_data(ds, spec: FitSpec) -> Split:
    """Stratified train/test split of ``ds`` (restricted to ``spec.features`` when given).

    ``spec.test_size == 0`` holds nothing out: the tree is fitted on every row and
    the "test" rows are those same rows, as in the paper's figures.
    """
    X = ds.X if spec.features is None else ds.X[list(spec.features)]
    if spec.test_size <= 0:
        return Split(X, X, np.asarray(ds.y), np.asarray(ds.y))
    _, counts = np.unique(ds.y, return_counts=True)
    n_test = int(np.ceil(spec.test_size * len(ds.y)))
    stratify = ds.y if counts.min() >= 2 and n_test >= len(counts) else None
    X_train, X_test, y_train, y_test = train_test_split(
        X, ds.y, test_size=spec.test_size, random_state=spec.seed, stratify=stratify
    )
    return Split(X_train, X_test, np.asarray(y_train), np.asarray(y_test))


def is_forest(model) -> bool:
    """Whether ``model`` is a fitted `TernaryForestClassifier`."""
    from ternary import TernaryForestClassifier

    return isinstance(model, TernaryForestClassifier)


# ----------------------------------------------------------------------------- settings
def _library_refusal(params: Mapping[str, Any], *, forest: bool) -> str | None:
    """The library's message refusing ``params`` (what ``fit`` would raise), or None."""
    try:
        validate_params(dict(params), forest=forest)
    except ValueError as exc:
        return str(exc)
    return None


def graft_problem(routing: str) -> str | None:
    """Why a tree with ``routing`` cannot be grafted (the library's message), or None."""
    return _library_refusal({"routing": routing, "graft": "all"}, forest=False)


def _get(state: Mapping[str, Any], key: str):
    return state.get(key, MODEL_DEFAULTS.get(key, SPLIT_DEFAULTS.get(key)))


def _n_bootstraps(value):
    """B as the estimator takes it: the library's word ("auto") or an integer."""
    return value if isinstance(value, str) else int(value)


def model_params(state: Mapping[str, Any]) -> dict:
    """Estimator keyword arguments from the model settings in ``state`` (a mapping).

    A setting ``state`` lacks takes its default (`MODEL_DEFAULTS`); grafting is off
    where the library refuses it for the routing (`graft_problem`).
    """
    routing = _get(state, "routing")
    graft = _get(state, "graft")
    params = {
        "delta_method": _get(state, "delta_method"),
        "routing": routing,
        "max_depth": int(_get(state, "max_depth")),
        "epsilon": float(_get(state, "epsilon")),
        "alpha": float(_get(state, "alpha")),
        "q": float(_get(state, "q")),
        "n_bootstraps": _n_bootstraps(_get(state, "n_bootstraps")),
        "delta_scale": float(_get(state, "delta_scale")),
        "graft": "none" if graft_problem(routing) else graft,
        "random_state": int(_get(state, "seed")),
        # the paper's presets ask for its closed zone; otherwise the library's default
        "zone_edges": _get(state, "zone_edges"),
    }
    if _get(state, "model") == "forest":
        del params["graft"]  # a tree's post-processing; the forest has no such parameter
        params["n_estimators"] = int(_get(state, "n_estimators"))
    return params


def forest_problem(state: Mapping[str, Any]) -> str | None:
    """Why the chosen forest cannot be fitted (the library's message and what to do), or None."""
    if _get(state, "model") != "forest":
        return None
    refusal = _library_refusal(model_params(state), forest=True)
    if refusal is None:
        return None
    return f"{refusal} In the sidebar: choose another routing, or set Model to tree."


def fit_spec(data_key: tuple, features, state: Mapping[str, Any]) -> FitSpec:
    """The `FitSpec` of the model settings in ``state``, on ``features`` (None: all)."""
    return FitSpec(
        data_key,
        None if features is None else tuple(features),
        float(_get(state, "test_size")),
        int(_get(state, "seed")),
        model_params(state),
    )
