"""Session state the pages share: defaults, and keeping values across pages.

Widget state that several pages share lives under the keys in `SHARED_KEYS`;
`init_state` gives them their defaults and `keep_state` stops Streamlit from
dropping a value when its widget is not drawn on the current page.

The estimator parameters' defaults and ranges are not typed here: they come from
the library's parameter table through `appkit.specs` (`MODEL_DEFAULTS`,
`MODEL_BOUNDS`), so the app's defaults are the estimator's.
"""

from __future__ import annotations

import streamlit as st

from appkit.specs import MODEL_BOUNDS, MODEL_DEFAULTS, MODEL_KINDS, SPLIT_DEFAULTS
from ternary import data as tdata

__all__ = [
    "APP_ROWS",
    "BOUNDS",
    "DEFAULTS",
    "MODEL_KINDS",
    "SHARED_KEYS",
    "clear_on_page",
    "init_state",
    "keep_state",
    "on_page",
    "shown",
]

DEFAULTS = {
    "dataset": tdata.DEFAULT_DATASET,
    "n_samples": 500,
    "noise": 0.3,
    "data_seed": 0,
    "standardize": False,
    # the estimator parameters (graft_alpha and ccp_alpha included), the library's
    **MODEL_DEFAULTS,
    # test_size, seed and model
    **SPLIT_DEFAULTS,
    "tree_features": "all features",
    "graft_mode": "all",
    "graft_max_depth": MODEL_DEFAULTS["max_depth"],
    "graft_features": "the two plotted features",
    "cv_folds": 5,
    "cv_max_depth": 4,
    "cv_seed": 42,
    "show_paper": False,
    "coverage_view": "dataset",
    "upload_missing": "impute",
    "present": False,
    "member": 0,
}
#: the range of every numeric setting: the widgets' limits, also applied to a shared link
BOUNDS = {
    "n_samples": (100, 5000),
    "noise": (0.0, 3.0),
    "data_seed": (0, 10_000),
    # epsilon, alpha, q, n_bootstraps, delta_scale, max_depth, n_estimators: the library's
    **MODEL_BOUNDS,
    # 0: no held-out rows; every figure is computed on the training rows (as the paper's are)
    "test_size": (0.0, 0.5),
    "seed": (0, 10_000),
    "graft_max_depth": MODEL_BOUNDS["max_depth"],
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
    s = st.session_state
    hidden = s.get("_hidden", frozenset()) | s.get(_ON_PAGE, frozenset())
    return not any(name in hidden for name in names)


#: session key: the controls this run draws on the page itself (app.py empties it per run)
_ON_PAGE = "_on_page"


def on_page(*names: str) -> tuple[str, ...]:
    """Of ``names``, those `shown`, now marked as drawn on the page for this run.

    The page then draws them itself (presentation mode's lecture view puts the model's
    sliders beside its figures) and the sidebar, drawn after, leaves them out: a widget
    drawn twice is an error. app.py clears the marks before every page run.
    """
    s = st.session_state
    drawn = tuple(name for name in names if shown(name))
    s[_ON_PAGE] = s.get(_ON_PAGE, frozenset()) | frozenset(drawn)
    return drawn


def clear_on_page() -> None:
    """Forget the previous run's `on_page` marks (app.py, before the page runs)."""
    st.session_state.pop(_ON_PAGE, None)
