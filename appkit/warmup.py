"""Pay the one-off costs of a fresh server before the first visitor asks for them.

Run once per server process, in a background thread: the imports the model
pages need (pandas, scikit-learn, plotly, the figure builders), the compiled
kernels (`ternary.compiled.warm_up`: compiled once, then loaded from numba's disk
cache by every later server), the default Decision-regions setting, the default
tree diagram and the accuracy-coverage page's default cross-validation, so the
first visit of each page finds its fits and figures cached.

`streamlit run app.py` starts it with the server: app.py, imported by Streamlit
as its ASGI app (``st.App``), hands `lifespan` over as the start-up hook. The
page script does not start it, so tests that run the script alone (``AppTest``)
pay no warm-up. A visitor who arrives while it runs waits for the figure being
computed rather than computing it a second time (Streamlit's caches compute
each key once).
"""

from __future__ import annotations

import contextlib
import gc
import logging
import sys
import threading
import time

__all__ = ["lifespan", "start", "status", "warm_up"]

_log = logging.getLogger(__name__)
_lock = threading.Lock()
_thread: threading.Thread | None = None
#: the line the server prints when the warm-up is done (a test waits for it)
DONE = "ternary app: warm-up done"
#: what the warm-up does, and about how long each part takes on a 2-core laptop. numba
#: compiles the kernels once after an install: the first page drew 42 s after a fresh start
#: on a quiet machine (issue 32); `ternary warm-up` took 230 s beside other work (load average
#: 15) and loads them from numba's disk cache in about 6 s later. The default figures took
#: 20-25 s at load average 12.
STAGES = {
    "kernels": (
        "compiling the tree kernels",
        "about 40 s on the first start after an install, a few seconds later",
    ),
    "figures": ("computing the default figures of every page", "about 10 s"),
}
#: the stage under way (a key of `STAGES`), None before and after; when the warm-up began
_stage: str | None = None
_began: float | None = None


def _enter(stage: str | None) -> None:
    global _stage
    _stage = stage


def status() -> str | None:
    """What a visitor arriving now waits for, and about how long; None when nothing.

    The server's warm-up holds the first page of each kind until it is done (the
    page then computes nothing twice); this says so instead of a bare spinner.
    """
    stage, began = _stage, _began
    if stage is None or began is None:
        return None
    doing, how_long = STAGES[stage]
    return (
        f"The app is starting: {doing} ({how_long}; {time.monotonic() - began:.0f} s since "
        "the server started). This page appears when that is done. To pay the compiling "
        "ahead of a lecture, run `python -m ternary warm-up` once after installing."
    )


def warm_up() -> None:
    """The work itself (also callable directly, e.g. from a benchmark)."""
    from appkit import datasets, model, regions
    from appkit.state import DEFAULTS
    from ternary.compiled import warm_up as warm_up_kernels

    _enter("kernels")
    warm_up_kernels()  # without numba it returns False: nothing needs compiling
    _enter("figures")
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
    _warm_other_pages(ds, key, spec)


def _warm_other_pages(ds, key, spec) -> None:
    """The default figures of the tree and accuracy-coverage pages, and their imports.

    The accuracy-coverage page cross-validates the default dataset on arrival: its
    11 combinations x 5 folds are the largest part of a first visit there.
    """
    from appkit import coverage, grafting, model, rules, tree  # noqa: F401 - the imports
    from appkit.model import CVSpec, FitSpec
    from appkit.state import DEFAULTS

    sp = model.split_data(ds, spec)
    clf = model.fit(sp, spec)
    names = tuple(str(c) for c in sp.X_train.columns)
    nodes = tree.internal_nodes(clf)
    tree.tree_dot(clf, spec.key, nodes[0] if nodes else None, names, None, "none")
    cv = CVSpec(key, DEFAULTS["cv_folds"], DEFAULTS["cv_max_depth"], DEFAULTS["cv_seed"])
    results = coverage.cv_results(ds, cv)
    coverage.coverage_view(ds, cv, results, bool(DEFAULTS["show_paper"]), 1.0)
    seed, depth = cv.seed, cv.max_depth
    params = {"delta_method": "none", "max_depth": depth, "random_state": seed}
    coverage.selective_view(ds, FitSpec(key, None, DEFAULTS["test_size"], seed, params))


def _run() -> None:
    global _began
    began = time.perf_counter()
    _began = time.monotonic()
    try:
        warm_up()
    except Exception:  # noqa: BLE001 - a failed warm-up only means a slower first click
        _log.warning("warm-up failed; the first interaction will be slower", exc_info=True)
        return
    finally:
        _enter(None)
    seconds = time.perf_counter() - began
    # what the warm-up built (modules, kernels, cached fits and figures) lives as long as the
    # server: frozen, Python's full collections no longer walk it after a page run
    gc.collect()
    gc.freeze()
    print(f"{DONE} in {seconds:.1f} s (imports, kernels, default figures)", file=sys.stderr)
    sys.stderr.flush()


def start() -> threading.Thread:
    """Start `warm_up` in a daemon thread, once per server process; that thread."""
    global _thread
    with _lock:
        if _thread is None:
            _thread = threading.Thread(target=_run, name="ternary-warm-up", daemon=True)
            _thread.start()
        return _thread


@contextlib.asynccontextmanager
async def lifespan(_app):
    """The server's start-up hook (``st.App(..., lifespan=lifespan)``): start the warm-up.

    It runs beside the server, which answers at once; nothing to do at shutdown
    (the thread is a daemon).
    """
    start()
    yield
