"""Session state the pages share: defaults, and keeping values across pages.

Widget state that several pages share lives under the keys in `SHARED_KEYS`;
`init_state` gives them their defaults and `keep_state` stops Streamlit from
dropping a value when its widget is not drawn on the current page.
"""

from __future__ import annotations

import streamlit as st

from ternary import data as tdata

__all__ = [
    "APP_ROWS",
    "BOUNDS",
    "DEFAULTS",
    "MODEL_KINDS",
    "SHARED_KEYS",
    "init_state",
    "keep_state",
    "shown",
]

#: the model choice: one ternary tree, or a `ternary.TernaryForestClassifier`
MODEL_KINDS = ("tree", "forest")

DEFAULTS = {
    "dataset": tdata.DEFAULT_DATASET,
    "n_samples": 500,
    "noise": 0.3,
    "data_seed": 0,
    "standardize": False,
    "delta_method": "margin",
    "routing": "probabilistic",
    "epsilon": 0.05,
    "alpha": 0.10,
    "q": 0.10,
    "n_bootstraps": 20,
    "delta_scale": 1.0,
    "max_depth": 4,
    "graft": "none",
    "test_size": 0.3,
    "seed": 0,
    "tree_features": "all features",
    "graft_mode": "all",
    "graft_alpha": 0.05,
    "ccp_alpha": 0.0,
    "graft_max_depth": 4,
    "graft_features": "the two plotted features",
    "cv_folds": 5,
    "cv_max_depth": 4,
    "cv_seed": 42,
    "show_paper": False,
    "coverage_view": "dataset",
    "upload_missing": "impute",
    "present": False,
    "model": "tree",
    "n_estimators": 25,
    "member": 0,
}
#: the range of every numeric setting: the widgets' limits, also applied to a shared link
BOUNDS = {
    "n_samples": (100, 5000),
    "noise": (0.0, 3.0),
    "data_seed": (0, 10_000),
    "epsilon": (0.0, 0.5),
    "alpha": (0.0, 1.0),
    "q": (0.0, 0.5),
    "n_bootstraps": (2, 100),
    "delta_scale": (0.0, 3.0),
    "max_depth": (1, 12),
    # 0: no held-out rows; every figure is computed on the training rows (as the paper's are)
    "test_size": (0.0, 0.5),
    "seed": (0, 10_000),
    # a forest is refitted live on every change: 100 trees keep that within a few seconds
    "n_estimators": (2, 100),
    "graft_max_depth": (1, 12),
}
#: keys whose widgets are drawn on some pages only, kept alive across pages
SHARED_KEYS = tuple(DEFAULTS) + ("feature_x", "feature_y")
#: rows the app generates by default for the larger synthetic sets (their
#: generators default to thousands of rows; 1,000 keeps every page instant)
APP_ROWS = {"twonorm": 1000, "ringnorm": 1000, "waveform": 1000}


def init_state() -> None:
    """Give every shared key its default, once per session."""
    for key, value in DEFAULTS.items():
        if key not in st.session_state:
            st.session_state[key] = value


def keep_state() -> None:
    """Keep shared widget values when their widgets are not drawn on this page.

    Streamlit forgets a widget's value on a run where the widget is not drawn;
    writing the value back as plain session state keeps it (the documented
    pattern for sharing widgets between pages).
    """
    for key in SHARED_KEYS:
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]


def shown(*names: str) -> bool:
    """Whether a control is drawn: not named (nor its group) in the link's ``hide=`` list.

    A hidden control keeps its value (from the link or the default), so a
    teacher can fix a setting and leave only the ones to play with.
    """
    hidden = st.session_state.get("_hidden", frozenset())
    return not any(name in hidden for name in names)
