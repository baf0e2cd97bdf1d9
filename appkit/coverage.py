"""Helpers of the accuracy–coverage page: `run_cv` runs, cached, and their figure.

Every number on the page comes from `ternary.experiment.run_cv`: the paper's
11 combinations, or one combination at each value of a swept parameter.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from sklearn.base import clone

import viz
from appkit import context, paper, present
from appkit.guard import clicked_customdata
from appkit.model import CVSpec, FitSpec, fit, split_data
from appkit.state import BOUNDS, DEFAULTS
from appkit.vocabulary import METHOD_PARAM, SWEEP_PARAMS, ZONE_METHODS
from ternary import experiment, metrics, selective
from ternary.data import Dataset, to_csv

__all__ = [
    "AUTO_RUN_SECONDS",
    "CoverageView",
    "SelectiveResult",
    "SelectiveView",
    "ShownFigure",
    "cart_only_summary",
    "chow_curve",
    "coverage_figure",
    "cv_problem",
    "curve_point_setting",
    "coverage_view",
    "cv_results",
    "estimate_seconds",
    "forest_label",
    "forest_spec",
    "scale_for_share",
    "selected_curve_point",
    "selected_setting",
    "selective_curves",
    "selective_view",
    "shown_numbers",
    "summarize",
    "sweep_choices",
    "sweep_spec",
    "sweep_trace",
    "sweep_values",
    "with_notes",
]


@st.cache_resource(show_spinner=False)
def _result_store() -> tuple[OrderedDict, threading.Lock, dict]:
    """Result tables of the long runs, shared by all sessions (most recent last), and the
    runs under way (key -> an event set when it ends).

    The long runs report progress to a bar on the page, and Streamlit cannot
    replay page elements touched from inside an ``st.cache_data`` function; so
    they are cached here by hand, under their spec's key.
    """
    return OrderedDict(), threading.Lock(), {}


_STORE_SIZE = 32


def _stored(key: tuple, compute) -> pd.DataFrame:
    """The stored table of ``key``, computing it once however many sessions ask at once.

    A class that opens the page together would otherwise run the same cross-validation
    once per student; the later ones wait for the first one's run instead.
    """
    store, lock, running = _result_store()
    with lock:
        if key in store:
            store.move_to_end(key)
            return store[key].copy()
        done = running.get(key)
        if done is None:
            done = running[key] = threading.Event()
            mine = True
        else:
            mine = False
    if not mine:
        done.wait()
        with lock:
            if key in store:
                return store[key].copy()
        return _stored(key, compute)  # the first run failed or was evicted: run it here
    try:
        result = compute()  # outside the lock: other sessions keep reading meanwhile
        with lock:
            store[key] = result
            while len(store) > _STORE_SIZE:
                store.popitem(last=False)
    finally:
        with lock:
            running.pop(key, None)
        done.set()
    return result.copy()


def is_cached(spec: CVSpec) -> bool:
    """Whether ``spec``'s results are already in the store (no compute needed)."""
    store, lock, _ = _result_store()
    with lock:
        return spec.key in store


def cv_results(ds: Dataset, spec: CVSpec, progress=None) -> pd.DataFrame:
    """`run_cv` of ``spec`` on the whole dataset, cached per ``spec.key``.

    ``progress(done, total, message)`` is called during a fresh run only.
    """
    X, raw = cv_inputs(ds, spec.features)
    return _stored(
        spec.key,
        lambda: experiment.run_cv(
            X,
            ds.y,
            combos=spec.run_cv_combos(),
            cv=spec.cv,
            max_depth=spec.max_depth,
            seed=spec.seed,
            progress=progress,
            **raw,
        ),
    )


def cv_inputs(ds: Dataset, features=None) -> tuple[pd.DataFrame, dict]:
    """What `run_cv` gets: a loaded file's raw rows and its preprocessor, refitted on each
    training fold (so imputation never sees the test rows), or ``ds.X`` (``features`` only).
    """
    if features is None and ds.preprocessor is not None and ds.raw is not None:
        pre = clone(ds.preprocessor)
        if pre.missing == "drop":  # the rows kept have no gaps: nothing to drop in a fold
            pre.set_params(missing="impute")
        return ds.raw.drop(columns=[ds.target]), {"preprocessor": pre}
    return (ds.X if features is None else ds.X[list(features)]), {}


@st.cache_data(show_spinner=False, max_entries=16)
def _chow_curve(_ds: Dataset, _spec: CVSpec, key: tuple) -> pd.DataFrame:
    X = _ds.X if _spec.features is None else _ds.X[list(_spec.features)]
    return experiment.chow_curve_cv(
        X, _ds.y, cv=_spec.cv, max_depth=_spec.max_depth, seed=_spec.seed
    )


def chow_curve(ds: Dataset, spec: CVSpec) -> pd.DataFrame:
    """CART's accuracy-coverage curve under Chow's reject rule, on ``spec``'s folds."""
    # the curve is CART's alone: it does not depend on the combinations
    folds_only = replace(spec, combos=None)
    return _chow_curve(ds, folds_only, folds_only.key)


def cv_problem(ds: Dataset, folds: int) -> str | None:
    """Why ``folds``-fold stratified CV cannot run on ``ds`` (a class too small), or None."""
    small = [(str(lab), n) for lab, n in experiment.classes_too_small(ds.y, folds)]
    if not small:
        return None
    listed = ", ".join(f"{lab!r} ({n} row{'s' if n != 1 else ''})" for lab, n in small[:5])
    smallest = min(n for _, n in small)
    advice = f"Set Folds to {smallest} or fewer in the sidebar, or " if smallest >= 2 else ""
    return (
        f"{folds}-fold cross-validation needs at least {folds} rows of every class; "
        f"too few in {listed}. {advice}merge or drop the rare classes in your file."
    )


def summarize(results: pd.DataFrame, bayes_error: float | None) -> pd.DataFrame:
    """`ternary.experiment.summarize` of a page's results."""
    return experiment.summarize(results, bayes_error=bayes_error)


def win_tie_loss(results: pd.DataFrame) -> pd.DataFrame:
    """Per combination, W/T/L over the folds against CART, and against Chow and CART with
    Laplace-smoothed leaves (the stronger ranking) flagging as many rows.

    A fold is a win when the combination's decided accuracy beats the reference by more
    than 0.5 points, a loss when it falls short by more; p is the one-sided Wilcoxon
    signed-rank test over the folds (`ternary.experiment.compare_to_baselines`). A
    comparison whose numbers the results lack reads "no data".
    """
    table = experiment.compare_to_baselines(results)

    def wtl(key):
        return [
            f"{int(w)}/{int(t)}/{int(lo)}" if n else "no data"
            for n, w, t, lo in zip(
                table[f"{key}_n"],
                table[f"{key}_wins"],
                table[f"{key}_ties"],
                table[f"{key}_losses"],
                strict=True,
            )
        ]

    return pd.DataFrame(
        {
            "combination": table["combo"],
            "folds": table["cart_n"],
            "W/T/L vs CART": wtl("cart"),
            "p vs CART": table["cart_p"],
            "W/T/L vs Chow": wtl("chow"),
            "p vs Chow": table["chow_p"],
            "W/T/L vs Laplace": wtl("laplace"),
            "p vs Laplace": table["laplace_p"],
        }
    )


def weak_test_note(folds: int) -> str:
    """The plain warning under the W/T/L table: a handful of folds cannot show much."""
    return (
        f"{folds} folds give a weak test: the smallest one-sided Wilcoxon p over {folds} folds "
        f"is 1/2^{folds} = {0.5**folds:.3f}, even when every fold is a win, and correcting for "
        "the 10 combinations compared (Holm) puts even that above 0.05. Read W/T/L as a "
        "description of these folds; for a test, run many datasets with `python -m "
        "ternary.experiment` and read `python -m ternary.experiment report`."
    )


def sweep_choices(method: str) -> list[str]:
    """Parameters worth sweeping for ``method``: its own (ε, α or q), then δ scale."""
    own = METHOD_PARAM.get(method)
    return ([own] if own in SWEEP_PARAMS else []) + ["delta_scale"]


def sweep_values(low: float, high: float, steps: int) -> tuple[float, ...]:
    """``steps`` evenly spaced values from ``low`` to ``high``, rounded to 4 decimals."""
    return tuple(float(v) for v in np.round(np.linspace(low, high, int(steps)), 4))


def sweep_spec(base: CVSpec, method: str, routing: str, param: str, values) -> CVSpec:
    """``base``'s folds with one (method, routing) combination per value of ``param``."""
    combos = [{"delta_method": method, "routing": routing, param: v} for v in values]
    return CVSpec(base.data_key, base.cv, base.max_depth, base.seed, tuple(combos), base.features)


def sweep_trace(summary: pd.DataFrame, param: str) -> pd.DataFrame:
    """The sweep's operating points in the layout `viz.accuracy_coverage_figure` draws
    (with `with_notes`' ``note`` where ``summary`` has one: such values are ringed)."""
    trace = pd.DataFrame(
        {
            "param": param,
            "value": summary[param].astype(float),
            "delta_method": summary["delta_method"],
            "routing": summary["routing"],
            "uncertain_rate": summary["uncertain_rate"],
            "decided_accuracy": summary["decided_accuracy"],
        }
    )
    if "note" in summary.columns:
        trace["note"] = summary["note"]
    return trace


def cart_only_summary(results: pd.DataFrame) -> pd.DataFrame:
    """A one-row summary holding CART (for a sweep drawn without the 11 combinations)."""
    return pd.DataFrame(
        {
            "delta_method": ["none"],
            "routing": ["probabilistic"],
            "decided_accuracy": [float(results["cart_accuracy"].mean())],
            "uncertain_rate": [0.0],
        }
    )


def coverage_figure(
    summary: pd.DataFrame,
    baseline: float,
    chow=None,
    paper=None,
    sweep=None,
    title=None,
    label_scale: float = 1.0,
    majority: float | None = None,
):
    """`viz.accuracy_coverage_figure` with the page's arguments (``label_scale``: the
    point labels' text size over the plain page's, `present.label_scale`; ``majority``:
    the majority-class rate, drawn where it falls inside the plot)."""
    return viz.accuracy_coverage_figure(
        summary,
        baseline_accuracy=baseline,
        chow_curve=chow,
        paper_means=paper,
        sweep=sweep,
        title=title,
        label_scale=label_scale,
        majority_rate=majority,
    )


def with_notes(summary: pd.DataFrame, results: pd.DataFrame) -> pd.DataFrame:
    """``summary`` with a ``note`` column after ``combo``: what was degenerate in its folds
    (`context.combo_notes`: "one leaf", "flags none", "flags every row"), else empty."""
    notes = context.combo_notes(results)
    out = summary.copy()
    out.insert(1, "note", [notes.get(str(c), "") for c in out["combo"]])
    return out


# ----------------------------------------------------------------------------- page views
class ShownFigure(go.Figure):
    """A figure many sessions show as it is: its dict is made once, on the first `to_dict`.

    ``st.plotly_chart`` serialises a figure through ``to_dict`` on every page run, a
    deep copy of every trace and a base64 pass over every array: with a class
    rerunning the accuracy–coverage page at once, about a fifth of the page's time
    (issue 32). The cached views hold their figures as this, and they are read-only:
    nothing may change one after it is made (`present.figure` copies before changing
    anything), and the dict returned is shared, not to be changed either.
    """

    def to_dict(self) -> dict:
        made = self.__dict__.get("_shown_dict")
        if made is None:
            made = self.__dict__["_shown_dict"] = super().to_dict()
        return made


def shown_numbers(table: pd.DataFrame, digits: int = 4) -> tuple[pd.DataFrame, dict]:
    """``table`` as ``st.dataframe`` shows it, and the ``column_config`` that goes with it.

    Readable headers (`present.headers`), numbers rounded to ``digits`` significant
    digits (`context.rounded`) and drawn with as many (`context.grid_format`,
    ``%.4g``): 8.178 and 71.51, where the grid's "plain" format printed 4-place values
    as 8.178099999999999 and 71.50970000000001 (it writes 20 decimals of the binary
    double). The columns stay numeric, so they sort as numbers, and a value that does
    not exist (CART's η) is the grid's grey "None". What `present.shown_table`'s
    Styler showed, without restyling every cell on every page run (issue 32).
    """
    shown = context.rounded(present.headers(table), digits)
    numeric = [str(c) for c in shown.select_dtypes("number").columns]
    config = {
        c: st.column_config.NumberColumn(c, format=context.grid_format(shown[c], digits))
        for c in numeric
    }
    return shown, config


@dataclass(frozen=True)
class CoverageView:
    """What the page draws of one CV run: derived once, then shared read-only.

    With a class on one server, every student's rerun used to recompute these
    from the cached results (the W/T/L table's Wilcoxon tests, the summary, the
    figure, the tables' display and the downloads): most of the page's time
    (issue 32). Nothing here may be changed by a caller; `present.figure` copies.
    """

    summary: pd.DataFrame
    baseline: float
    figure: ShownFigure
    win_tie_loss: pd.DataFrame
    #: the summary as the grid shows it, and its column_config (`shown_numbers`)
    summary_shown: pd.DataFrame
    summary_columns: dict
    #: the two downloads, `ternary.data.to_csv` of the summary and of the per-fold rows
    summary_csv: bytes
    results_csv: bytes


@st.cache_resource(show_spinner=False, max_entries=32)
def _coverage_view(_ds: Dataset, _spec: CVSpec, _results, key: tuple) -> CoverageView:
    summary = summarize(_results, _ds.bayes_error)
    baseline = float(_results["cart_accuracy"].mean())
    _, show_paper, label_scale = key
    paper_means = paper.paper_cc18_means() if show_paper else None
    chow = chow_curve(_ds, _spec)
    # degenerate combinations (one leaf, nothing or all flagged) named in the figure and table
    noted = with_notes(summary, _results)
    majority = context.cv_majority_rate(_ds.y)[1]
    figure = coverage_figure(
        noted, baseline, chow, paper_means, label_scale=label_scale, majority=majority
    )
    shown, columns = shown_numbers(noted)
    return CoverageView(
        summary,
        baseline,
        ShownFigure(figure),
        context.rounded(win_tie_loss(_results)),
        shown,
        columns,
        to_csv(summary).encode(),
        to_csv(_results).encode(),
    )


def coverage_view(
    ds: Dataset, spec: CVSpec, results: pd.DataFrame, show_paper: bool, label_scale: float
) -> CoverageView:
    """The summary, CART's accuracy, the figure, the W/T/L table and the downloads of
    ``results`` (`cv_results` of ``spec``), cached per CV setting, paper overlay and text
    size."""
    return _coverage_view(ds, spec, results, (spec.key, bool(show_paper), float(label_scale)))


@dataclass(frozen=True)
class SelectiveView:
    """`selective_curves` with its figure and rounded table, shared read-only."""

    result: SelectiveResult
    figure: ShownFigure
    table: pd.DataFrame


@st.cache_resource(show_spinner=False, max_entries=32)
def _selective_view(_ds: Dataset, _spec: FitSpec, _forest, key: tuple) -> SelectiveView:
    result = selective_curves(_ds, _spec, _forest)
    figure = viz.risk_coverage_figure(result.curves, markers=result.markers)
    return SelectiveView(result, ShownFigure(figure), context.rounded(result.table))


def selective_view(ds: Dataset, spec: FitSpec, forest: FitSpec | None = None) -> SelectiveView:
    """`selective_curves` of ``spec`` (and ``forest``) and its figure, cached per setting."""
    return _selective_view(ds, spec, forest, (spec.key, None if forest is None else forest.key))


# ----------------------------------------------------------------------------- arrival
#: seconds one tree fit of `cv_results` takes, roughly, on the project's 2-core machine: a
#: constant, a part per row and a part per row × feature. Fitted to the CPU seconds of
#: run_cv (11 combinations x 5 folds) on generated data of 1,000-10,000 rows and 10-50
#: features after the compiled hard-middle split search (benchmarks/bench_small.py prints
#: the estimate beside a measured run); a 5,000 x 10 upload is estimated at 1.7 s.
_FIT_SECONDS = (0.0056, 3.5e-6, 3e-7)
#: the page runs without a button when the estimate is at most this many seconds
AUTO_RUN_SECONDS = 3.0


def estimate_seconds(
    n_rows: int, n_features: int, folds: int, n_combos: int = 11, n_trees: int = 0
) -> float:
    """Rough seconds of `cv_results`: ``n_combos × folds`` fits on 1 − 1/folds of the rows.

    ``n_trees`` adds a forest of that many trees fitted once on the page's
    training split (1 − the default test fraction of the rows), each tree on a
    bootstrap sample of them and a random feature subset per split; counted as
    full-size tree fits, which overstates a little.
    """
    rows = n_rows * (1.0 - 1.0 / max(int(folds), 2))
    c0, c_row, c_cell = _FIT_SECONDS
    total = n_combos * int(folds) * (c0 + c_row * rows + c_cell * rows * n_features)
    train = n_rows * (1.0 - DEFAULTS["test_size"])
    return total + int(n_trees) * (c0 + c_row * train + c_cell * train * n_features)


# ----------------------------------------------------------------------------- selective
@dataclass
class SelectiveResult:
    """Risk–coverage curves and their areas on the held-out rows of one split."""

    curves: pd.DataFrame
    table: pd.DataFrame
    n_test: int
    markers: pd.DataFrame


def _curve(label, method, y, pred, confidence):
    cov, risk = selective.risk_coverage_curve(y, pred, confidence)
    curve = pd.DataFrame(
        {
            "method": label,
            "delta_method": method,
            "flagged": 1.0 - cov,
            "decided_accuracy": 1.0 - risk,
        }
    )
    row = {
        "method": label,
        "AURC": selective.aurc(y, pred, confidence),
        "E-AURC": selective.e_aurc(y, pred, confidence),
        "error rate": float(np.mean(np.asarray(y) != np.asarray(pred))),
    }
    return curve, row


#: The name of CART ranked by Laplace-smoothed leaves on the curves and in the table.
LAPLACE_BASELINE = "CART (Laplace leaves + tie-break)"


def selective_curves(ds: Dataset, spec: FitSpec, forest: FitSpec | None = None) -> SelectiveResult:
    """Every zone method's `predict_confidence` ranking, and CART's, on ``spec``'s test rows.

    Each method (probabilistic routing, its default parameters) is fitted on
    the training rows of ``spec``; the curve ranks the held-out rows by the
    method's confidence and reports the accuracy on the rows kept as more and
    more are flagged. CART ranks by its largest class probability (Chow's rule) and,
    the stronger baseline, by its Laplace-smoothed leaf with the scaled gap to the
    nearest threshold breaking ties.
    ``forest`` (a `FitSpec` with ``n_estimators``, on the same rows) adds the
    forest's curve and its verdict's operating point as a marker.
    """
    sp = split_data(ds, spec)
    curves, rows = [], []
    cart_spec = spec.cart()
    cart = fit(sp, cart_spec)
    proba = cart.predict_proba(sp.X_test)
    pred = cart.classes_[np.argmax(proba, axis=1)]
    curve, row = _curve("CART (Chow's rule)", "none", sp.y_test, pred, proba.max(axis=1))
    curves.append(curve)
    rows.append(row)
    # the strongest zone-free ranking (issue 30): with no zone, the tree's default ranking
    # is CART's Laplace-smoothed leaf, the scaled gap breaking ties, bit for bit
    laplace = cart.predict_confidence(sp.X_test)
    curve, row = _curve(LAPLACE_BASELINE, "laplace", sp.y_test, pred, laplace)
    curves.append(curve)
    rows.append(row)
    for method in ZONE_METHODS:
        clf = fit(sp, spec.with_params({**cart_spec.params, "delta_method": method}))
        curve, row = _curve(
            method, method, sp.y_test, clf.predict(sp.X_test), clf.predict_confidence(sp.X_test)
        )
        curves.append(curve)
        rows.append(row)
    markers = [_bayes_marker(sp, spec.with_params({**cart_spec.params, "delta_method": "margin"}))]
    if forest is not None:
        curve, row, marker = _forest_curve(sp, forest)
        curves.append(curve)
        rows.append(row)
        markers.append(marker)
    table = pd.DataFrame(rows).sort_values("AURC", kind="stable").reset_index(drop=True)
    return SelectiveResult(
        pd.concat(curves, ignore_index=True),
        table,
        int(len(sp.y_test)),
        pd.concat(markers, ignore_index=True),
    )


def forest_spec(spec: FitSpec, params: dict) -> FitSpec:
    """The forest of the model settings ``params`` on ``spec``'s rows, depth and seed.

    The curves compare rankings at probabilistic routing, so a hard-middle choice
    (which a forest does not offer) becomes probabilistic here.
    """
    routing = params["routing"] if params["routing"] != "hard_middle" else "probabilistic"
    return spec.with_params(
        {
            **{k: v for k, v in params.items() if k != "graft"},
            "routing": routing,
            "max_depth": spec.params.get("max_depth"),
            "random_state": spec.params.get("random_state"),
        }
    )


def forest_label(forest: FitSpec) -> str:
    """``forest (25 trees, margin)``: the forest's name on the curves and in the table."""
    return f"forest ({forest.params['n_estimators']} trees, {forest.params['delta_method']})"


def _forest_curve(sp, forest: FitSpec):
    """The forest's risk–coverage curve, its table row, and its verdict's operating point."""
    clf = fit(sp, forest)
    label = forest_label(forest)
    curve, row = _curve(
        label, "forest", sp.y_test, clf.predict(sp.X_test), clf.predict_confidence(sp.X_test)
    )
    pred, verdict = clf.predict_with_verdict(sp.X_test)
    marker = pd.DataFrame(
        {
            "label": [f"{label}, verdict (≥ half the trees decide)"],
            "delta_method": ["forest"],
            "flagged": [float(np.mean(verdict == 0))],
            "decided_accuracy": [metrics.decided_accuracy(sp.y_test, pred, verdict)],
        }
    )
    return curve, row, marker


def _bayes_marker(sp, margin: FitSpec) -> pd.DataFrame:
    """The margin tree with ``delta_scale="bayes"``: its one operating point on the test rows.

    The scale is calibrated so that the expected flagged share equals the Bayes
    error the estimator estimates from the training rows; the label says which.
    """
    clf = fit(sp, margin.with_params({**margin.params, "delta_scale": "bayes"}))
    pred, verdict = clf.predict_with_verdict(sp.X_test)
    estimate = clf.bayes_error_estimate_
    shown = "no estimate" if estimate is None else f"Bayes error ≈ {100 * estimate:.1f}%"
    return pd.DataFrame(
        {
            "label": [f"margin, δ scale = bayes ({shown})"],
            "delta_method": ["margin"],
            "flagged": [float(np.mean(verdict == 0))],
            "decided_accuracy": [metrics.decided_accuracy(sp.y_test, pred, verdict)],
        }
    )


def selected_setting(event) -> dict | None:
    """The model setting of the sweep point clicked last, or None.

    Each sweep point carries ``(parameter, value, δ method, routing)``; the
    result holds the keys the model sidebar uses, ready for the session state.
    """
    for data in clicked_customdata(event):
        if isinstance(data, (list, tuple)) and len(data) == 4 and data[0] in SWEEP_PARAMS:
            param, value, method, routing = data
            setting = {param: float(value)}
            if method is not None:
                setting["delta_method"] = str(method)
            if routing is not None:
                setting["routing"] = str(routing)
            return setting
    return None


# ----------------------------------------------------------------------------- curve clicks
def selected_curve_point(event) -> tuple[str, float] | None:
    """``(delta_method, flagged share)`` of the risk–coverage point clicked last, or None."""
    for data in clicked_customdata(event):
        if isinstance(data, (list, tuple)) and len(data) == 3 and data[0] == viz.CURVE_POINT:
            return str(data[1]), float(data[2])
    return None


def scale_for_share(distance: np.ndarray, share: float, fitted_scale: float) -> float:
    """The ``delta_scale`` at which a refit flags ``share`` of the rows whose ``distance`` is given.

    `ternary.metrics.scale_for_share` (the library's one rule for it), capped at the
    slider's maximum.
    """
    high = float(BOUNDS["delta_scale"][1])
    return metrics.scale_for_share(distance, share, fitted_scale, max_scale=high)


def curve_point_setting(ds: Dataset, spec: FitSpec, method: str, share: float):
    """The model setting that flags ``share`` of ``spec``'s held-out rows with ``method``.

    Returns ``(setting, flagged)``: the session keys for the other pages (δ
    method, probabilistic routing, δ scale) and the share of the
    held-out rows the tree refitted at that scale flags, or None for a curve
    without zones to scale (CART's Chow curve, the forest's).
    """
    if method not in ZONE_METHODS:
        return None
    sp = split_data(ds, spec)
    tree_spec = spec.with_params({**spec.cart().params, "delta_method": method})
    clf = fit(sp, tree_spec)
    scale = scale_for_share(clf.boundary_distance(sp.X_test), share, float(clf.delta_scale_))
    refit = fit(sp, tree_spec.with_params({**tree_spec.params, "delta_scale": scale}))
    flagged = float(np.mean(refit.predict_verdict(sp.X_test) == 0))
    setting = {
        "delta_method": method,
        "routing": "probabilistic",
        "delta_scale": scale,
    }
    return setting, flagged
