"""Model settings: the sidebar controls, and `FitSpec`, the one name of a fit.

A `FitSpec` says which rows and columns a tree is fitted on and with which
parameters; its `.key` is the cache key of every fit, score and figure built
from it, so no page builds a key by hand. `CVSpec` does the same for a
cross-validation run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st
from sklearn.model_selection import train_test_split

from appkit.guard import plain
from appkit.state import BOUNDS, DEFAULTS, MODEL_KINDS, shown
from appkit.vocabulary import (
    DELTA_METHODS,
    METHOD_HELP,
    METHOD_LABELS,
    METHOD_PARAM,
    ROUTING_HELP,
    ROUTING_LABELS,
    ROUTINGS,
)
from ternary import TernaryForestClassifier, TernaryTreeClassifier
from ternary.data import DataError, Dataset

__all__ = [
    "CVSpec",
    "FitSpec",
    "Split",
    "feature_pickers",
    "fit",
    "forest_controls",
    "forest_problem",
    "is_forest",
    "model_params",
    "model_sidebar",
    "proba_verdict",
    "split_data",
]


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


# ----------------------------------------------------------------------------- split and fit
@dataclass(frozen=True)
class Split:
    X_train: pd.DataFrame
    X_test: pd.DataFrame
    y_train: np.ndarray
    y_test: np.ndarray


def split_data(ds: Dataset, spec: FitSpec) -> Split:
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


@st.cache_resource(show_spinner=False, max_entries=128)
def _fit_tree(_X: pd.DataFrame, _y: np.ndarray, _spec: FitSpec, key: tuple):
    estimator = TernaryForestClassifier if _spec.forest else TernaryTreeClassifier
    return estimator(**_spec.params).fit(_X, _y)


def fit(sp: Split, spec: FitSpec):
    """The tree (or forest) of ``spec`` fitted on ``sp``'s training rows, shared across reruns."""
    return _fit_tree(sp.X_train, sp.y_train, spec, spec.key)


def is_forest(model) -> bool:
    """Whether ``model`` is a fitted `TernaryForestClassifier`."""
    return isinstance(model, TernaryForestClassifier)


def proba_verdict(model, X) -> tuple[np.ndarray, np.ndarray]:
    """Blended probabilities and verdicts of a tree or a forest, from one walk."""
    return model.predict_proba_verdict(X)


def forest_problem(state=None) -> str | None:
    """Why the chosen forest cannot be fitted (hard-middle routing), or None."""
    s = st.session_state if state is None else state
    if s.get("model") == "forest" and s.get("routing") == "hard_middle":
        return (
            "A ternary forest cannot use hard-middle routing: its trees are grown by "
            "scikit-learn's compiled builder, and hard-middle trees grow middle subtrees node "
            "by node. Choose probabilistic or deferred routing in the sidebar, or set Model "
            "to tree."
        )
    return None


# ----------------------------------------------------------------------------- sidebar
def _method_slider(method: str) -> None:
    """The one extra slider of ``method`` (margin and none have none)."""
    sliders = {
        "quality_plateau": (
            "ε (plateau tolerance)",
            *BOUNDS["epsilon"],
            0.01,
            "Quality plateau: thresholds whose split quality is within ε (relative) of the "
            "best one form the zone. Larger ε, wider zones.",
        ),
        "gain_ratio": (
            "α (gain-ratio scale)",
            *BOUNDS["alpha"],
            0.01,
            "Gain ratio: δ grows with α and with how weak the split's gain is relative to its "
            "split entropy.",
        ),
        "class_overlap": (
            "q (overlap percentile)",
            *BOUNDS["q"],
            0.01,
            "Class overlap: each class's q…1−q percentile band of the split feature; the zone "
            "covers where bands of different classes overlap.",
        ),
        "node_bootstrap": (
            "B (bootstrap resamples)",
            *BOUNDS["n_bootstraps"],
            1,
            "Node bootstrap: θ is re-found on B resamples of the node's rows; δ is the spread "
            "of those thresholds. More B, steadier δ, slower.",
        ),
    }
    if method in sliders and shown(METHOD_PARAM[method]):
        label, low, high, step, help_text = sliders[method]
        st.slider(label, low, high, step=step, key=METHOD_PARAM[method], help=help_text)


def forest_controls() -> None:
    """The "model: tree | forest" choice and, for a forest, its number of trees."""
    if not shown("model"):
        return
    if shown("model_kind"):
        st.radio(
            "Model",
            MODEL_KINDS,
            key="model",
            horizontal=True,
            help="One ternary tree, or a forest of them (`ternary.TernaryForestClassifier`): "
            "bootstrap samples, a random feature subset at every split, mean blended "
            "probabilities, and a row decided when at least half of the trees decide it.",
        )
    if st.session_state.get("model") == "forest" and shown("n_estimators"):
        st.slider(
            "Trees in the forest",
            *BOUNDS["n_estimators"],
            step=1,
            key="n_estimators",
            help="n_estimators. More trees, steadier probabilities and verdicts, slower: "
            "every change refits the forest.",
        )


def model_sidebar(*, split: bool = True, forest: bool = False) -> None:
    """The model settings the regions and tree pages share, in the sidebar.

    Each method's own parameter slider is drawn only while that method is chosen;
    ``forest`` adds the tree | forest choice (`forest_controls`).
    """
    if not shown("model"):
        return
    with st.sidebar:
        st.subheader("Model")
        if forest:
            forest_controls()
        if shown("delta_method"):
            st.selectbox(
                "δ method",
                DELTA_METHODS,
                key="delta_method",
                format_func=METHOD_LABELS.get,
                help=METHOD_HELP,
            )
        if shown("routing"):
            st.selectbox(
                "Routing",
                ROUTINGS,
                key="routing",
                format_func=ROUTING_LABELS.get,
                help=ROUTING_HELP,
            )
        _method_slider(st.session_state["delta_method"])
        if shown("delta_scale"):
            st.slider(
                "δ scale",
                *BOUNDS["delta_scale"],
                step=0.05,
                key="delta_scale",
                help="Multiplies every δ after it is computed: 0 turns the zones off "
                "(plain CART), 2 doubles their width.",
            )
        if shown("max_depth"):
            st.slider(
                "Max depth",
                *BOUNDS["max_depth"],
                step=1,
                key="max_depth",
                help="Depth of the tree. The paper uses 4.",
            )
        _graft_control(
            st.session_state["routing"] == "hard_middle",
            st.session_state.get("model") == "forest",
        )
        if split:
            _split_controls()


def _graft_control(hard: bool, forest: bool = False) -> None:
    if not shown("graft"):
        return
    if forest:
        st.caption("Grafting applies to a single tree; set Model to tree to use it.")
        return
    st.radio(
        "Grafting (Webb 1997)",
        ("none", "one", "all"),
        key="graft",
        horizontal=True,
        disabled=hard,
        help="After growing, add leaves where evidence from ancestor nodes says a "
        "region is labelled wrongly: 'one' graft per leaf or 'all' supported "
        "grafts. See the Grafting page.",
    )
    if hard:
        st.caption(
            "Grafting is off for hard-middle routing: it judges new binary splits "
            "on CART's training partition, which the middle branches change."
        )


def _split_controls() -> None:
    if shown("test_size"):
        st.slider(
            "Test fraction",
            *BOUNDS["test_size"],
            step=0.05,
            key="test_size",
            help="Share of the rows held out (stratified) to measure the metrics; "
            "the tree is fitted on the rest. 0 holds nothing out: the tree is fitted on "
            "every row and the figures are computed on those same training rows, as the "
            "paper's figures are.",
        )
    if shown("seed"):
        st.number_input(
            "Split seed",
            *BOUNDS["seed"],
            step=1,
            key="seed",
            help="Seed of the train/test split and of the tree (feature "
            "order, bootstrap). Same seed, same result.",
        )


def model_params(state=None) -> dict:
    """Estimator keyword arguments from the shared model settings.

    ``state`` defaults to ``st.session_state``; pass `DEFAULTS` for the defaults.
    """
    s = st.session_state if state is None else state
    routing = s.get("routing", DEFAULTS["routing"])
    params = {
        "delta_method": s.get("delta_method", DEFAULTS["delta_method"]),
        "routing": routing,
        "max_depth": int(s.get("max_depth", DEFAULTS["max_depth"])),
        "epsilon": float(s.get("epsilon", DEFAULTS["epsilon"])),
        "alpha": float(s.get("alpha", DEFAULTS["alpha"])),
        "q": float(s.get("q", DEFAULTS["q"])),
        "n_bootstraps": int(s.get("n_bootstraps", DEFAULTS["n_bootstraps"])),
        "delta_scale": float(s.get("delta_scale", DEFAULTS["delta_scale"])),
        "graft": "none" if routing == "hard_middle" else s.get("graft", "none"),
        "random_state": int(s.get("seed", DEFAULTS["seed"])),
    }
    if s.get("model", DEFAULTS["model"]) == "forest":
        del params["graft"]  # a tree's post-processing; the forest has no such parameter
        params["n_estimators"] = int(s.get("n_estimators", DEFAULTS["n_estimators"]))
    return params


def current_spec(data_key: tuple, features) -> FitSpec:
    """The `FitSpec` of the shared model settings, on ``features`` (None: all)."""
    s = st.session_state
    return FitSpec(
        data_key,
        None if features is None else tuple(features),
        float(s.get("test_size", DEFAULTS["test_size"])),
        int(s.get("seed", DEFAULTS["seed"])),
        model_params(),
    )


@st.cache_data(show_spinner=False, max_entries=16)
def important_pair(_ds: Dataset, key: tuple) -> tuple[str, str]:
    """The two features a CART tree on all features finds most important.

    The tree is the app's default (depth 4, seed 0); ties keep the file's order,
    so a tree that uses one feature only pairs it with the first other one.
    """
    clf = TernaryTreeClassifier(delta_method="none", max_depth=4, random_state=0)
    clf.fit(_ds.X, _ds.y)
    order = np.argsort(-clf.feature_importances_, kind="stable")
    return str(_ds.feature_names[order[0]]), str(_ds.feature_names[order[1]])


def feature_pickers(ds: Dataset, *, where=None) -> list[str]:
    """Two distinct feature pickers.

    A built-in dataset starts on its first two features (the ones its figures are
    known by); an uploaded one on its two most important (`important_pair`).
    """
    names = ds.feature_names
    if len(names) < 2:
        raise DataError(f"{ds.name!r} has {len(names)} feature; the region plot needs two.")
    s = st.session_state
    pair = (names[0], names[1])
    if ds is s.get("user_dataset") and len(names) > 2:
        pair = important_pair(ds, s["user_dataset_key"])
    s["_default_features"] = pair
    for key, default in zip(("feature_x", "feature_y"), pair, strict=True):
        if s.get(key) not in names:
            s[key] = default
    if shown("features") and (shown("feature_x") or shown("feature_y")):
        with where or st.sidebar:
            st.subheader("Plotted features")
            if shown("feature_x"):
                st.selectbox(
                    "Horizontal axis",
                    names,
                    key="feature_x",
                    help="The model on this page is fitted on the two plotted features "
                    "only, so its regions can be drawn exactly.",
                )
            if shown("feature_y"):
                st.selectbox(
                    "Vertical axis",
                    names,
                    key="feature_y",
                    help="Pick a different feature from the horizontal axis.",
                )
    fx, fy = s["feature_x"], s["feature_y"]
    if fx == fy:
        other = next(n for n in names if n != fx)
        st.warning(
            f"Both axes show {plain(repr(fx))}; using {plain(repr(other))} on the vertical axis."
        )
        fy = other
    return [fx, fy]
