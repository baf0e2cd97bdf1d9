"""What a page's fits will cost, a button above the on-arrival budget, and fits that stop
when their script run has gone.

A link or a slider can ask for a forest of 100 deep trees with 100 bootstraps per
node: minutes of CPU. The regions, tree and grafting pages therefore estimate the
seconds of their fits first (`regions_seconds`, `tree_seconds`, `grafting_seconds`);
above `AUTO_RUN_SECONDS` (the coverage page's budget) they show the estimate and a
button instead of fitting at once (`bounded`).

A fit that runs is run by `cancellable`: in a worker thread, while the script
thread waits and updates a status line every `POLL_SECONDS`. Every Streamlit
call is a point where a script run that is no longer current stops (a rerun
requested by a widget, or the session gone with its tab): the update raises
Streamlit's own stop or rerun exception there, and the waiting thread then sets the
worker's stop event. The worker runs its work inside `ternary.stopping.stop_when`
of that event, so the library's fit loops stop at their next check with
`ternary.stopping.Stopped`: each node of a hard-middle growth or of a node-by-node δ
pass, each forest member handed out, each cross-validation fold task (issue 39). A
closed tab costs at most the work up to the next check: one scikit-learn CART growth
(the one step that is a single compiled call), never a whole forest or a whole
cross-validation.

Why a thread with a stop check rather than a worker process (issue 28, measured on the
2-core machine at load average 12, CPU seconds): a spawned process pays 3.6 s of CPU
(14.6 s wall) to import ternary, scikit-learn and pandas and load the kernels from
numba's cache, which is about 200 tree fits (one depth-4 fit of twonorm's 1,000 rows
takes 17 ms). A pool pays that once per worker, but again for every stop (a stopped
worker is killed and replaced), and a forked one is unsafe in a server that runs
threads. The work would also have to leave the page's caches: what a page computes is
cached in this process (``st.cache_resource``), and the fitted models would travel back
pickled (a 100-tree depth-12 forest: 1.6 MB, 31 ms). Issue 28 stopped the thread by
raising into it through CPython's ``PyThreadState_SetAsyncExc``, which could land in
any instruction, inside a lock or a cache's bookkeeping; the library's own checks stop
only between whole steps.

``add_script_run_ctx`` gives the worker the session's context so the caches it fills and
the messages it raises are the session's, as when the script thread fits itself.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from typing import Any, TypeVar

import streamlit as st

from appkit.coverage import AUTO_RUN_SECONDS
from appkit.model import FitSpec
from ternary.delta import resolve_n_bootstraps
from ternary.stopping import Stopped, stop_when

__all__ = [
    "AUTO_RUN_SECONDS",
    "POLL_SECONDS",
    "bounded",
    "cancellable",
    "cases_seconds",
    "fit_seconds",
    "grafting_seconds",
    "regions_seconds",
    "tree_fit_seconds",
    "tree_seconds",
]

T = TypeVar("T")

#: how often the waiting script thread checks that its run is still current
POLL_SECONDS = 0.2

# Seconds of one tree fit on the project's 2-core reference machine (measured on
# waveform, 3,500 rows, 2 and 21 features, depth 4 and 12): a constant, a part per
# row x feature x level, and per node the extra work of some δ methods.
_C0 = 0.005
_C_CELL_LEVEL = 8e-8
_C_NODE_BOOTSTRAP = 2e-5  # per node and bootstrap
_C_BOOTSTRAP_CELL_LEVEL = 5e-9  # per row x feature x level and bootstrap
_C_GRAFT = 1.6e-4  # per node and feature
_METHOD_FACTOR = {"quality_plateau": 3.0, "gain_ratio": 1.5, "class_overlap": 1.5}
# drawing a regions figure asks each tree for a grid of points
_C_FIGURE_PER_TREE = 0.004
# one cross-validation run's own overhead (folds, scoring, the table)
_C_CV_RUN = 1.0


def tree_fit_seconds(params: Mapping[str, Any], n_rows: int, n_features: int) -> float:
    """Rough seconds of one `TernaryTreeClassifier` fit with ``params`` on this many rows.

    An overestimate on purpose where the cost is uncertain: the estimate decides
    whether a page asks before fitting, and asking once too often costs a click.
    """
    rows = max(int(n_rows), 2)
    depth = params.get("max_depth")
    levels = min(int(depth) if depth else 30, max(1, math.ceil(math.log2(rows))))
    nodes = min(2**levels - 1, rows / 5)
    cells = rows * max(int(n_features), 1) * levels
    seconds = _C0 + _C_CELL_LEVEL * cells
    method = params.get("delta_method", "margin")
    seconds *= _METHOD_FACTOR.get(method, 1.0)
    if method == "node_bootstrap":
        # the library's B: "auto" depends on the training rows
        boots = resolve_n_bootstraps(params.get("n_bootstraps", "auto"), rows)
        seconds += boots * (_C_NODE_BOOTSTRAP * nodes + _C_BOOTSTRAP_CELL_LEVEL * cells)
    if params.get("graft", "none") not in ("none", None):
        seconds += _C_GRAFT * nodes * max(int(n_features), 1)
    return seconds


def _features(spec: FitSpec, n_features: int) -> int:
    return n_features if spec.features is None else len(spec.features)


def fit_seconds(spec: FitSpec, n_rows: int, n_features: int) -> float:
    """Rough seconds of fitting ``spec`` (a tree, or every tree of a forest) on its split."""
    train = n_rows if spec.test_size <= 0 else n_rows * (1.0 - spec.test_size)
    one = tree_fit_seconds(spec.params, train, _features(spec, n_features))
    return one * int(spec.params.get("n_estimators", 1))


def regions_seconds(spec: FitSpec, n_rows: int, n_features: int) -> float:
    """The regions page: the model, its baseline without zones, and the figure's grid."""
    trees = int(spec.params.get("n_estimators", 1))
    return (
        fit_seconds(spec, n_rows, n_features)
        + fit_seconds(spec.cart(), n_rows, n_features)
        + 2 * trees * _C_FIGURE_PER_TREE
    )


def tree_seconds(spec: FitSpec, n_rows: int, n_features: int) -> float:
    """The tree page: one fit (its diagram and panels cost little beside it)."""
    return fit_seconds(spec, n_rows, n_features)


def cases_seconds(params: Mapping[str, Any], n_rows: int, n_features: int, folds: int) -> float:
    """The Your data page: a model per fold on the other folds' rows, then one on every row.

    ``params`` are the sidebar's model settings (a forest when they hold
    ``n_estimators``); the cleaning refitted per fold costs little beside the fits.
    """
    k = max(int(folds), 2)
    trees = int(params.get("n_estimators", 1))
    per_fold = tree_fit_seconds(params, n_rows * (1.0 - 1.0 / k), n_features)
    full = tree_fit_seconds(params, n_rows, n_features)
    return _C_CV_RUN + trees * (k * per_fold + full)


def grafting_seconds(cart: FitSpec, grafted: FitSpec, n_rows: int, n_features: int) -> float:
    """The grafting page: both trees on the split, and both in a 5-fold cross-validation."""
    total = _C_CV_RUN
    for spec in (cart, grafted):
        features = _features(spec, n_features)
        total += fit_seconds(spec, n_rows, n_features)
        total += 5 * tree_fit_seconds(spec.params, n_rows * 0.8, features)
    return total


# ----------------------------------------------------------------------------- asking first
_DONE: OrderedDict[Hashable, None] = OrderedDict()
_DONE_LOCK = threading.Lock()
_DONE_MAX = 512


def _mark_done(key: Hashable) -> None:
    with _DONE_LOCK:
        _DONE[key] = None
        _DONE.move_to_end(key)
        while len(_DONE) > _DONE_MAX:
            _DONE.popitem(last=False)


def _is_done(key: Hashable) -> bool:
    with _DONE_LOCK:
        return key in _DONE


def bounded(
    estimate: float, key: Hashable, compute: Callable[[], T], *, what: str, label: str
) -> T:
    """``compute()`` at once when cheap or done before; otherwise after a button.

    Within `AUTO_RUN_SECONDS`, or when this server has finished ``key`` before (its
    results are then in the caches), ``compute`` runs on arrival. Above it the
    page shows the estimate and a button and stops there (`st.stop`) until the
    button is pressed. Either way ``compute`` runs through `cancellable`.

    Parameters
    ----------
    estimate : float, the estimated seconds of ``compute``
    key : hashable, the identity of the work (the fits' cache keys)
    compute : callable, the work; it returns what the page draws
    what : str, the work in words, for the message ("fit the forest and draw its regions")
    label : str, the button's words ("Fit and draw")
    """
    if estimate > AUTO_RUN_SECONDS and not _is_done(key):
        pressed = st.button(
            f"{label} (about {_seconds(estimate)})",
            type="primary",
            key=f"cost_{hash(key) & 0xFFFFFFFF:x}",
            help="The time is a rough estimate for this machine. Results are cached: the "
            "same settings come back at once. Changing a setting or closing the tab "
            "stops the work.",
        )
        if not pressed:
            st.info(
                f"These settings take about {_seconds(estimate)} to {what}, more than the "
                f"{AUTO_RUN_SECONDS:.0f} s a page spends on arrival. Press the button to "
                "start, or choose fewer rows, trees or bootstraps, or a smaller depth.",
                icon="⏱️",
            )
            st.stop()
    result = cancellable(compute, estimate=estimate)
    _mark_done(key)
    return result


def _seconds(s: float) -> str:
    return f"{s:.0f} s" if s < 90 else f"{s / 60:.0f} min"


# ----------------------------------------------------------------------------- stopping
def cancellable(
    compute: Callable[[], T],
    *,
    estimate: float = 0.0,
    poll: Callable[[float], None] | None = None,
    interval: float = POLL_SECONDS,
) -> T:
    """``compute()`` in a worker thread, stopped as soon as the waiting run stops.

    The calling thread waits in steps of ``interval`` and calls ``poll(elapsed)``
    after each: by default a status line on the page, which is a Streamlit call and
    so raises Streamlit's stop or rerun exception when the run is no longer current.
    Any exception there (that one included) sets the worker's stop event and
    propagates; the worker's fits stop at their next check (`ternary.stopping`). An
    exception of ``compute`` propagates as it is. Quick work (done within the first
    step) draws nothing.

    Parameters
    ----------
    compute : callable, the work
    estimate : float, its estimated seconds, shown in the status line
    poll : callable taking the seconds elapsed, optional (tests pass their own)
    interval : float, seconds between polls
    """
    box: dict[str, Any] = {}
    stop = threading.Event()

    def work() -> None:
        try:
            with stop_when(stop.is_set):
                box["value"] = compute()
        except Stopped:
            box["cancelled"] = True
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
            box["error"] = exc

    worker = threading.Thread(target=work, name="ternary-fit", daemon=True)
    try:  # let the worker use the session's caches and context, as the script would
        from streamlit.runtime.scriptrunner import add_script_run_ctx, get_script_run_ctx

        add_script_run_ctx(worker, get_script_run_ctx(suppress_warning=True))
    except ImportError:  # pragma: no cover - an older or newer Streamlit layout
        pass
    status = None
    start = time.monotonic()
    worker.start()
    try:
        while worker.is_alive():
            worker.join(interval)
            if not worker.is_alive():
                break
            elapsed = time.monotonic() - start
            if poll is not None:
                poll(elapsed)
                continue
            if status is None:
                status = st.empty()
            note = f" of about {_seconds(estimate)}" if estimate > 0 else ""
            status.caption(f"Working… {elapsed:.0f} s{note}. Changing a setting stops it.")
    except BaseException:
        stop.set()
        raise
    finally:
        if status is not None:
            status.empty()
    if "error" in box:
        raise box["error"]
    if box.get("cancelled"):  # pragma: no cover - only when cancelled from elsewhere
        raise RuntimeError("the work was stopped")
    return box["value"]
