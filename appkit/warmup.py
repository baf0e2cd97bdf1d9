"""Pay the one-off costs of a fresh server before the first click asks for them.

Run once per server process, in a background thread started after the first
page is on screen: the imports the model pages need (plotly, the figure
builders), the compiled prediction kernel's first compile when the library has
one (`ternary.tree.warm_up`), and the default Decision-regions setting, so
the first click on that page finds its fits and figure cached.
"""

from __future__ import annotations

import logging
import threading

import streamlit as st

__all__ = ["start", "warm_up"]

_log = logging.getLogger(__name__)


def warm_up() -> None:
    """The work itself (also callable directly, e.g. from a benchmark)."""
    from appkit import datasets, model, regions
    from appkit.state import DEFAULTS
    from ternary.tree import warm_up as warm_up_kernels

    warm_up_kernels()  # without numba it returns False: nothing needs compiling
    name = DEFAULTS["dataset"]
    ds, key = datasets.load_builtin(name, **datasets.builtin_kwargs(name, DEFAULTS))
    spec = model.FitSpec(
        key,
        ds.feature_names[:2],
        DEFAULTS["test_size"],
        DEFAULTS["seed"],
        model.model_params(DEFAULTS),
    )
    regions.regions_result(ds, spec)


def _run() -> None:
    try:
        warm_up()
    except Exception:  # noqa: BLE001 - a failed warm-up only means a slower first click
        _log.warning("warm-up failed; the first interaction will be slower", exc_info=True)


@st.cache_resource(show_spinner=False)
def start() -> threading.Thread:
    """Start `warm_up` in a daemon thread, once per server process."""
    thread = threading.Thread(target=_run, name="ternary-warm-up", daemon=True)
    thread.start()
    return thread
