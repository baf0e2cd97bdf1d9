"""Model settings: the sidebar controls of the model, drawn from `appkit.specs`.

The pure part (`FitSpec`, the one cache identity of a fit, `CVSpec`, the split,
the estimator keyword arguments of a setting, the library's refusals) lives in
`appkit.specs` and is re-exported here; this module holds what needs Streamlit:
the widgets, the cached fit, and the session-state defaults of the pure functions.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from appkit import specs
from appkit.answers import proba_verdict
from appkit.guard import capped, plain
from appkit.specs import CVSpec, FitSpec, Split, is_forest, split_data
from appkit.state import BOUNDS, MODEL_KINDS, shown
from appkit.vocabulary import (
    DELTA_METHODS,
    METHOD_HELP,
    METHOD_LABELS,
    METHOD_PARAM,
    ROUTING_HELP,
    ROUTING_LABELS,
    ROUTINGS,
)
from ternary import (
    GRAFT_MODES,
    PARAMETERS,
    ZONE_EDGES,
    TernaryForestClassifier,
    TernaryTreeClassifier,
)
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


@st.cache_resource(show_spinner=False, max_entries=128)
def _fit_tree(_X: pd.DataFrame, _y: np.ndarray, _spec: FitSpec, key: tuple):
    estimator = TernaryForestClassifier if _spec.forest else TernaryTreeClassifier
    return estimator(**_spec.params).fit(_X, _y)


def fit(sp: Split, spec: FitSpec):
    """The tree (or forest) of ``spec`` fitted on ``sp``'s training rows, shared across reruns."""
    return _fit_tree(sp.X_train, sp.y_train, spec, spec.key)


def forest_problem(state=None) -> str | None:
    """Why the chosen forest cannot be fitted (the library's refusal), or None.

    ``state`` defaults to ``st.session_state`` (`appkit.specs.forest_problem`).
    """
    return specs.forest_problem(st.session_state if state is None else state)


# ----------------------------------------------------------------------------- sidebar
#: each δ method's own slider (margin and none have none; node bootstrap's B is a select
#: slider): label, step, help. Keyed by method: the parameter names come from METHOD_PARAM.
_METHOD_SLIDERS = {
    "quality_plateau": (
        "ε (plateau tolerance)",
        0.01,
        "Quality plateau: thresholds whose split quality is within ε (relative) of the "
        "best one form the zone. Larger ε, wider zones.",
    ),
    "gain_ratio": (
        "α (gain-ratio scale)",
        0.01,
        "Gain ratio: δ grows with α and with how weak the split's gain is relative to its "
        "split entropy.",
    ),
    "class_overlap": (
        "q (overlap percentile)",
        0.01,
        "Class overlap: each class's q…1−q percentile band of the split feature; the zone "
        "covers where bands of different classes overlap.",
    ),
}


def has_method_slider(method: str | None) -> bool:
    """Whether ``method`` has a continuous slider of its own (`method_slider` draws it)."""
    return method in _METHOD_SLIDERS


def method_symbol(method: str | None) -> str | None:
    """The symbol of ``method``'s own parameter as its slider shows it (ε, α, q), or None."""
    return _METHOD_SLIDERS[method][0].split()[0] if has_method_slider(method) else None


def method_slider(method: str) -> None:
    """``method``'s own slider, keyed by its parameter (the sidebar's and the lecture
    view's are the same widget definition)."""
    label, step, help_text = _METHOD_SLIDERS[method]
    name = METHOD_PARAM[method]
    st.slider(label, *BOUNDS[name], step=step, key=name, help=help_text)


def _method_slider(method: str) -> None:
    """The one extra slider of ``method`` (margin and none have none)."""
    if method == "node_bootstrap" and shown("n_bootstraps"):
        low, high = BOUNDS["n_bootstraps"]
        # the library's "auto" (its default) first, then every B the slider allows
        st.select_slider(
            "B (bootstrap resamples)",
            (PARAMETERS["n_bootstraps"].default, *range(low, high + 1)),
            key="n_bootstraps",
            help="Node bootstrap: θ is re-found on B resamples of the node's rows; δ is the "
            "spread of those thresholds. More B, steadier δ, slower. 'auto' is the paper's "
            "B: 20 below 2,000 training rows, 15 below 10,000, else 10.",
        )
    elif has_method_slider(method) and shown(METHOD_PARAM[method]):
        method_slider(method)


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
        if shown("zone_edges"):
            st.radio(
                "Zone's upper end θ+δ",
                ZONE_EDGES,
                key="zone_edges",
                horizontal=True,
                format_func={"open": "left out", "closed": "included (paper)"}.get,
                help="zone_edges. A row at exactly θ+δ goes wholly right in the blend. "
                "'left out' (the default) flags only rows the blend sends both ways; "
                "'included' is the paper's zone θ−δ < x ≤ θ+δ, which also flags those edge "
                "rows (on whole-number features most of its flags). The paper's presets use it.",
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
            specs.graft_problem(st.session_state["routing"]),
            st.session_state.get("model") == "forest",
        )
        if split:
            _split_controls()


def _graft_control(problem: str | None, forest: bool = False) -> None:
    """The grafting choice, off (with the library's reason) where the routing refuses it."""
    if not shown("graft"):
        return
    if forest:
        st.caption("Grafting applies to a single tree; set Model to tree to use it.")
        return
    st.radio(
        "Grafting (Webb 1997)",
        GRAFT_MODES,
        key="graft",
        horizontal=True,
        disabled=problem is not None,
        help="After growing, add leaves where evidence from ancestor nodes says a "
        "region is labelled wrongly: 'one' graft per leaf or 'all' supported "
        "grafts. See the Grafting page.",
    )
    if problem is not None:
        st.caption(f"Grafting is off: {plain(problem)}")


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

    ``state`` defaults to ``st.session_state``; pass `DEFAULTS` for the defaults
    (`appkit.specs.model_params`).
    """
    return specs.model_params(st.session_state if state is None else state)


def current_spec(data_key: tuple, features) -> FitSpec:
    """The `FitSpec` of the shared model settings, on ``features`` (None: all)."""
    return specs.fit_spec(data_key, features, st.session_state)


@st.cache_data(show_spinner=False, max_entries=16)
def important_pair(_ds: Dataset, key: tuple) -> tuple[str, str]:
    """The two features a CART tree on all features finds most important, never a constant one.

    The tree is the app's default (depth 4, seed 0); ties keep the file's order,
    so a tree that uses one feature only pairs it with the first other varying one
    (digits has constant pixel columns: a plot of one is a line).
    """
    clf = TernaryTreeClassifier(delta_method="none", max_depth=4, random_state=0)
    clf.fit(_ds.X, _ds.y)
    order = np.argsort(-clf.feature_importances_, kind="stable")
    values = _ds.X.to_numpy(dtype=np.float64)
    varying = [int(i) for i in order if np.nanmax(values[:, i]) > np.nanmin(values[:, i])]
    pair = (varying + [int(i) for i in order if int(i) not in varying])[:2]
    return str(_ds.feature_names[pair[0]]), str(_ds.feature_names[pair[1]])


#: a built-in with more features than this opens on its two most important ones
_MANY_FEATURES = 4


def feature_pickers(ds: Dataset, *, where=None) -> list[str]:
    """Two distinct feature pickers.

    A built-in dataset with at most four features starts on its first two (the ones
    its figures are known by); an uploaded one with more than two, and a built-in
    with more than four, on its two most important (`important_pair`).
    """
    names = ds.feature_names
    if len(names) < 2:
        raise DataError(f"{ds.name!r} has {len(names)} feature; the region plot needs two.")
    s = st.session_state
    pair = (names[0], names[1])
    if ds is s.get("user_dataset") and len(names) > 2:
        pair = important_pair(ds, s["user_dataset_key"])
    elif len(names) > _MANY_FEATURES:  # digits' first two pixels are constant
        from appkit.datasets import dataset_key

        pair = important_pair(ds, dataset_key(ds))
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
                    format_func=capped,  # a column name from a file can be any length
                    key="feature_x",
                    help="The model on this page is fitted on the two plotted features "
                    "only, so its regions can be drawn exactly.",
                )
            if shown("feature_y"):
                st.selectbox(
                    "Vertical axis",
                    names,
                    format_func=capped,  # a column name from a file can be any length
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
