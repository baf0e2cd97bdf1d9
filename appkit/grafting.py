"""Helpers of the grafting page: CART against CART + grafting, on the same rows."""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from appkit.answers import regions_figure
from appkit.coverage import cv_results
from appkit.guard import plain
from appkit.model import CVSpec, FitSpec, Split, fit, split_data
from appkit.tree import tree_dot
from ternary import TernaryTreeClassifier
from ternary.data import Dataset
from ternary.graft import GraftTrace, graft_trace, graft_tree
from ternary.tree import iter_node_rows
from viz.grafting import graft_step_figure

__all__ = [
    "DRAW_ALL_BELOW",
    "GraftComparison",
    "accuracy_change_note",
    "box_orientation",
    "boxed",
    "empty_leaf_notes",
    "GraftSteps",
    "STEPPER_CSS",
    "graft_comparison",
    "graft_specs",
    "format_number",
    "REPORT_SHOWN",
    "graft_steps",
    "report_columns",
    "rounded",
    "step_climb",
    "step_figure",
    "step_headline",
    "step_model",
    "step_path",
    "step_table",
]


@dataclass
class GraftComparison:
    """What the grafting page shows: CART and CART + grafting, side by side."""

    cart: TernaryTreeClassifier
    grafted: TernaryTreeClassifier
    table: pd.DataFrame
    report: pd.DataFrame | None
    figures: tuple | None
    dot: str
    n_test: int
    changed: pd.DataFrame
    #: folds of the CV accuracy (5, fewer when the smallest class has fewer rows), 0 when
    #: no stratified CV can run (a class with one row); then ``cv_note`` says why
    cv_folds: int = 5
    cv_note: str = ""


def graft_specs(
    data_key: tuple,
    features,
    *,
    mode: str,
    graft_alpha: float,
    ccp_alpha: float,
    max_depth: int,
    test_size: float,
    seed: int,
) -> tuple[FitSpec, FitSpec]:
    """The `FitSpec` of CART and of CART + grafting on the same rows."""
    base = {
        "delta_method": "none",
        "routing": "probabilistic",
        "max_depth": int(max_depth),
        "ccp_alpha": float(ccp_alpha),
        "random_state": int(seed),
    }
    cart = FitSpec(data_key, features, test_size, seed, base)
    grafted = cart.with_params({**base, "graft": mode, "graft_alpha": float(graft_alpha)})
    return cart, grafted


#: below this many held-out rows the region panels draw every row, training ones included:
#: a handful of points shows neither the data nor the regions (Webb's 30-row example)
DRAW_ALL_BELOW = 20


@st.cache_resource(show_spinner=False, max_entries=32)
def _regions_figure(_model, _sp: Split, key: tuple, title: str, _changed_from=None):
    """One region panel (no zones: both trees are binary) with ``title``.

    The title's accuracy is on the held-out rows; the points drawn are those rows,
    or every row when there are fewer than `DRAW_ALL_BELOW` of them. With
    ``_changed_from`` (CART), the cells whose label the grafts changed are outlined.
    """
    acc = float(np.mean(_model.predict(_sp.X_test) == np.asarray(_sp.y_test)))
    X, y = _sp.X_test, _sp.y_test
    if len(y) < DRAW_ALL_BELOW:
        X = pd.concat([_sp.X_train, _sp.X_test])
        y = np.concatenate([_sp.y_train, _sp.y_test])
    return regions_figure(
        _model,
        X,
        y,
        title=f"{title} — test accuracy {100 * acc:.1f}%",
        height=460,
        changed_from=_changed_from,
    )


def changed_rows(cart, grafted, sp) -> pd.DataFrame:
    """The held-out rows whose prediction the grafts changed: values, both predictions, truth."""
    before, after = cart.predict(sp.X_test), grafted.predict(sp.X_test)
    mask = before != after
    table = sp.X_test.loc[mask].copy()
    table.insert(0, "row", table.index)
    table["CART"] = before[mask]
    table["grafted"] = after[mask]
    table["true"] = sp.y_test[mask]
    table["grafting right?"] = table["grafted"] == table["true"]
    return table.reset_index(drop=True)


def cv_folds(y) -> tuple[int, str]:
    """Folds for the CV accuracy: 5, or as many as the smallest class has rows (≥ 2).

    A stratified k-fold CV puts rows of every class in every fold, so it needs k rows of
    each; on a few painted points (5 of A, 3 of B) 3 folds is the most it can run. With a
    class of one row not even 2 folds can: then 0, and a sentence saying why.
    """
    labels, counts = np.unique(np.asarray(y), return_counts=True)
    smallest = int(counts.min()) if len(counts) else 0
    if len(counts) < 2 or smallest < 2:
        lab = labels[int(np.argmin(counts))] if len(counts) else None
        why = (
            "the data hold a single class"
            if len(counts) < 2
            else f"class {plain(str(lab))} has only {smallest} row, and a stratified "
            "cross-validation needs at least 2 rows of every class (one per fold)"
        )
        return 0, f"CV accuracy is unavailable: {why}. Paint or load more rows of it."
    return min(5, smallest), ""


def _cv_accuracy(ds: Dataset, cart: FitSpec, grafted: FitSpec, folds: int) -> list[float]:
    """Mean ``folds``-fold accuracy of both trees, from one `run_cv` over the two
    combinations; NaN for both when ``folds`` is 0 (see `cv_folds`)."""
    if folds < 2:
        return [float("nan"), float("nan")]
    combos = []
    for spec in (cart, grafted):
        combo = {k: v for k, v in spec.params.items() if k not in ("max_depth", "random_state")}
        combos.append(combo)
    cv = CVSpec(
        cart.data_key, folds, cart.params["max_depth"], cart.seed, tuple(combos), cart.features
    )
    rows = cv_results(ds, cv)
    means = rows.groupby("combo", sort=False)["accuracy"].mean()
    return [float(v) for v in means]


def graft_comparison(ds: Dataset, cart_spec: FitSpec, graft_spec: FitSpec) -> GraftComparison:
    """Fit CART and CART + grafting on the training rows and compare them."""
    sp = split_data(ds, cart_spec)
    cart, grafted = fit(sp, cart_spec), fit(sp, graft_spec)
    mode = graft_spec.params["graft"]
    folds, cv_note = cv_folds(ds.y)
    cv_acc = _cv_accuracy(ds, cart_spec, graft_spec, folds)
    rows = []
    for label, model, acc in (
        ("CART", cart, cv_acc[0]),
        (f"CART + grafting ({mode})", grafted, cv_acc[1]),
    ):
        rows.append(
            {
                "model": label,
                "nodes": int(model.tree_.node_count),
                "leaves": int(model.tree_.n_leaves),
                "grafted nodes": int(model.tree_.grafted.sum()),
                "test accuracy": float(np.mean(model.predict(sp.X_test) == sp.y_test)),
                "CV accuracy": acc,
            }
        )
    figures = None
    if cart_spec.features is not None:
        figures = (
            _regions_figure(cart, sp, cart_spec.key, "CART"),
            _regions_figure(grafted, sp, graft_spec.key, f"CART + grafting ({mode})", cart),
        )
    report = grafted.graft_report_
    return GraftComparison(
        cart,
        grafted,
        pd.DataFrame(rows),
        None if report is None else report.copy(),
        figures,
        tree_dot(grafted, graft_spec.key, None),
        int(len(sp.y_test)),
        changed_rows(cart, grafted, sp),
        folds,
        cv_note,
    )


# ----------------------------------------------------------------------------- step by step

#: presenting: the stepper's regions 3 : 2 to its tree in `present.screen_box`, the tree's
#: drawing fitted to its box (as app.py's lecture view does for Decision regions)
STEPPER_CSS = """<style>
div:has(> .st-key-graft_step_regions) { flex: 1 1 0 !important; min-width: 0; }
div:has(> .st-key-graft_step_tree) { flex: 1 1 0 !important; min-width: 0; }
.st-key-graft_step_tree [data-testid="stGraphVizChart"] svg {
  width: 100% !important; height: 100% !important; max-width: none !important; }
.st-key-graft_step_tree [data-testid="stGraphVizChart"] { overflow: hidden !important; }
@media (max-width: 1100px) { :root { --above-graft_box: 290px; } }
</style>"""


@dataclass
class GraftSteps:
    """Webb's algorithm as it ran on the page's CART tree (`ternary.graft.graft_trace`).

    ``X``/``y`` are the training rows as grafting sees them (float32 matrix, class
    codes), so `step_model` can rebuild the tree after any number of grafts.
    """

    trace: GraftTrace
    cart: TernaryTreeClassifier
    split: Split
    X: np.ndarray
    y: np.ndarray
    key: tuple

    @property
    def n_steps(self) -> int:
        """The number of steps (at least one row per leaf that could be grafted)."""
        return len(self.trace.steps)


@st.cache_resource(show_spinner=False, max_entries=16)
def _graft_steps(_ds: Dataset, _cart_spec: FitSpec, _graft_spec: FitSpec, key: tuple):
    sp = split_data(_ds, _cart_spec)
    cart = fit(sp, _cart_spec)
    X = sp.X_train.to_numpy(dtype=np.float32)
    y = np.searchsorted(cart.classes_, np.asarray(sp.y_train))
    trace = graft_trace(
        cart.tree_,
        X,
        y,
        mode=_graft_spec.params["graft"],
        alpha=_graft_spec.params["graft_alpha"],
        feature_names=[str(c) for c in sp.X_train.columns],
        class_names=[str(c) for c in cart.classes_],
        keep_cuts=False,  # the page shows each ancestor's best cut, not every value scanned
    )
    return GraftSteps(trace, cart, sp, X, y, key)


def graft_steps(ds: Dataset, cart_spec: FitSpec, graft_spec: FitSpec) -> GraftSteps:
    """Every step of grafting the page's CART tree, from the run that grafts it.

    The same training rows, mode and α as the page's grafted tree, so the last step's
    tree is that tree (tests/app/test_page_grafting_steps.py checks it).
    """
    return _graft_steps(ds, cart_spec, graft_spec, graft_spec.key)


@st.cache_resource(show_spinner=False, max_entries=64)
def _step_model(_steps: GraftSteps, key: tuple, n_grafts: int):
    tree, _ = graft_tree(
        _steps.cart.tree_,
        _steps.X,
        _steps.y,
        mode=_steps.trace.mode,
        alpha=_steps.trace.alpha,
        max_grafts=n_grafts,
    )
    model = copy.copy(_steps.cart)
    model.tree_ = tree
    return model


def step_model(steps: GraftSteps, step: int):
    """The tree after step ``step`` (0-based): CART with the grafts made up to it."""
    n = int(steps.trace.steps["grafts_made"].iat[step])
    return _step_model(steps, steps.key, n)


def step_path(model, step_row) -> dict:
    """The nodes from the step's evidence ancestor down to its leaf's parent, in the tree
    after the step: `tree_dot`'s ``path`` (drawn thick), the leaf itself highlighted."""
    if step_row["ancestor"] < 0:
        return {}
    parent = model.tree_.parents()
    node, path = int(parent[int(step_row["leaf"])]), {}
    while node >= 0:
        path[node] = 1.0
        if node == int(step_row["ancestor"]):
            break
        node = int(parent[node])
    return path


def format_number(x) -> str:
    """``x`` to 4 significant digits, as the page's tables and sentences print numbers."""
    return f"{float(x):.4g}"


def rounded(table: pd.DataFrame):
    """``table`` for ``st.dataframe`` with every float to 4 significant digits (a Styler:
    the columns stay numeric and sort as numbers)."""
    floats = list(table.select_dtypes("float").columns)
    return table.style.format(format_number, subset=floats, na_rep="—")


#: the graft report's columns the page shows, in this order (the CSV keeps them all), and
#: their short labels: eleven columns fit a 1400 px window without a sideways scroll
REPORT_SHOWN = {
    "leaf": "leaf",
    "ancestor": "evidence node",
    "feature_name": "feature",
    "side": "side",
    "cut": "cut",
    "class_label": "new class",
    "n_region": "T",
    "n_class": "P",
    "laplace_cut": "Laplace, graft",
    "laplace_leaf": "Laplace, leaf",
    "p_value": "p",
}


def report_columns(shown_headers) -> dict:
    """``st.dataframe``'s column_config for the shown report: the short labels of
    `REPORT_SHOWN`, the long header (`present.headers`) as each column's help."""
    short = list(REPORT_SHOWN.values())
    return {
        header: st.column_config.Column(label, help=header)
        for header, label in zip(shown_headers, short, strict=True)
    }


def _bounds_text(names, low, high) -> str:
    """``2 < A ≤ 7, B ≤ 5`` for a box (the whole plane: "everywhere")."""
    parts = []
    for name, lo, hi in zip(names, low, high, strict=True):
        if np.isfinite(lo) and np.isfinite(hi):
            parts.append(f"{format_number(lo)} < {name} ≤ {format_number(hi)}")
        elif np.isfinite(hi):
            parts.append(f"{name} ≤ {format_number(hi)}")
        elif np.isfinite(lo):
            parts.append(f"{name} > {format_number(lo)}")
    return ", ".join(parts) or "everywhere"


def step_headline(steps: GraftSteps, step: int) -> str:
    """One line of plain text: which leaf, whose evidence, which cut, the two Laplace
    values, the test (the page adds the decision)."""
    row = steps.trace.steps.iloc[step]
    names = [str(c) for c in steps.split.X_train.columns]
    where = _bounds_text(names, steps.trace.leaf_low[step], steps.trace.leaf_high[step])
    head = f"Leaf {row['leaf']} ({where})"
    if row["ancestor"] < 0:
        return f"{head}: no candidate cut."
    cls = steps.cart.classes_[int(row["class"])]
    test = "" if np.isnan(row["p_value"]) else f" · p = {row['p_value']:.3g}"
    return (
        f"{head} · node {row['ancestor']}'s {row['feature_name']} "
        f"{'≤' if row['side'] == '<=' else '>'} {format_number(row['cut'])} → {cls} · "
        f"Laplace {row['laplace_cut']:.3f} vs {row['laplace_leaf']:.3f}{test}"
    )


def step_table(steps: GraftSteps, step: int) -> pd.DataFrame:
    """The step's numbers, one per line, as the page shows them under the figure."""
    row = steps.trace.steps.iloc[step]
    names = [str(c) for c in steps.split.X_train.columns]
    tr = steps.trace
    leaf_class = steps.cart.classes_[int(row["leaf_class"])] if row["leaf_class"] >= 0 else "—"
    lines = [
        (
            "leaf",
            f"node {row['leaf']}: {_bounds_text(names, tr.leaf_low[step], tr.leaf_high[step])}",
        ),
        ("leaf's class and rows", f"{leaf_class}: {row['leaf_n_class']:g} of {row['leaf_n']:g}"),
        ("Laplace, leaf", "—" if np.isnan(row["laplace_leaf"]) else f"{row['laplace_leaf']:.3f}"),
    ]
    if row["ancestor"] >= 0:
        cls = steps.cart.classes_[int(row["class"])]
        region = _bounds_text(names, tr.region_low[step], tr.region_high[step])
        p = (
            "not needed (Laplace not better)"
            if np.isnan(row["p_value"])
            else f"{row['p_value']:.4g}"
        )
        lines += [
            ("evidence from", f"node {row['ancestor']}"),
            ("candidate region", region),
            ("region's class and rows", f"{cls}: {row['n_class']:g} of {row['n_region']:g}"),
            ("Laplace, region", f"{row['laplace_cut']:.3f}"),
            ("binomial test p", p),
            ("level α", f"{tr.alpha:g}"),
        ]
    lines.append(("decision", "graft" if row["decision"] == "graft" else "no graft"))
    return pd.DataFrame(lines, columns=["", "value"]).set_index("")


def step_climb(steps: GraftSteps, step: int) -> pd.DataFrame:
    """What each ancestor offered the step's leaf on its attribute and side (the climb)."""
    row = steps.trace.steps.iloc[step]
    climb = steps.trace.climb
    mine = climb[
        (climb["leaf"] == row["leaf"])
        & (climb["feature"] == row["feature"])
        & (climb["side"] == row["side"])
    ]
    classes = steps.cart.classes_
    return pd.DataFrame(
        {
            "ancestor": mine["ancestor"].to_numpy(),
            "best cut": [
                f"{row['feature_name']} {'≤' if s == '<=' else '>'} {format_number(v)}"
                for s, v in zip(mine["side"], mine["cut"], strict=True)
            ],
            "class": [str(classes[int(k)]) for k in mine["class"]],
            "rows (T)": mine["n_region"].to_numpy(),
            "of the class (P)": mine["n_class"].to_numpy(),
            "Laplace": mine["laplace"].round(3).to_numpy(),
        }
    )


def box_orientation(model) -> str:
    """How the stepper draws a tree in its (about square) box when presenting: top to
    bottom while it has few leaves for its depth (Webb's example: 6 leaves, depth 5),
    left to right when its leaves would make a wide, low drawing (16 leaves, depth 4)."""
    tree = model.tree_
    return "TB" if tree.n_leaves <= 1.5 * (tree.max_depth + 1) else "LR"


def boxed(fig):
    """The step's figure (as presented) for the projector's box: no figure title (the
    line above says the step), the legend in one row under the axes, small margins."""
    out = go.Figure(fig)
    out.layout.title.text = None
    out.layout.legend.update(
        orientation="h", font=dict(size=16), y=0, yref="container", yanchor="bottom"
    )
    out.layout.margin.update(t=12, b=90, l=72, r=8)
    return out


def step_figure(steps: GraftSteps, step: int, height: int = 460):
    """The regions of the tree after the step, the step's leaf and candidate region on them.

    The training rows are drawn (grafting's evidence); the cells the grafts made so far
    relabelled are outlined, as on the before/after panels.
    """
    row = steps.trace.steps.iloc[step]
    model = step_model(steps, step)
    done = int(row["grafts_made"])
    total = int(steps.trace.steps["grafts_made"].iat[-1])
    made = f"{done} of {total} grafts made" if total else "no graft passes"
    fig = regions_figure(
        model,
        steps.split.X_train,
        np.asarray(steps.split.y_train),
        title=f"After step {step + 1} of {steps.n_steps}: {made}",
        height=height,
        changed_from=steps.cart if done else None,
    )
    tr = steps.trace
    region = None if row["ancestor"] < 0 else (tr.region_low[step], tr.region_high[step])
    label = None
    if region is not None:
        label = f"node {row['ancestor']}: {row['n_class']:g} of {row['n_region']:g}"
    return graft_step_figure(
        fig,
        region,
        (tr.leaf_low[step], tr.leaf_high[step]),
        region_class=None if region is None else int(row["class"]),
        accepted=row["decision"] == "graft",
        label=label,
    )


# ----------------------------------------------------------------------------- notes


def empty_leaf_notes(grafted, report: pd.DataFrame | None) -> list[str]:
    """A sentence per grafted leaf that no training row reaches (the diagram's "n = 0").

    Such a leaf's class and conf come from its evidence region at an ancestor, not from
    rows inside it: grafting labels regions the leaf's own rows leave empty, which is
    what it is for (Webb 1997, §1).
    """
    if report is None or report.empty:
        return []
    tree, classes = grafted.tree_, grafted.classes_
    notes = []
    for _, r in report.iterrows():
        leaf = int(r["new_leaf"])
        if tree.n_node_samples[leaf] > 0:
            continue
        side = "≤" if r["side"] == "<=" else ">"
        cls = classes[int(r["class"])]
        notes.append(
            f"Grafted leaf {leaf} ({r['feature_name']} {side} {format_number(r['cut'])}, class "
            f"{cls}) reads n = 0: no training row of leaf {int(r['leaf'])} falls in it. Its "
            f"class and conf = {r['n_class'] / r['n_region']:.2f} come from the evidence, "
            f"{r['n_class']:g} of the {r['n_region']:g} training rows of node "
            f"{int(r['ancestor'])} in that range being {cls}."
        )
    return notes


def _broken_by(res: GraftComparison, sp_rows: pd.DataFrame) -> dict[int, int]:
    """How many of ``sp_rows`` (held-out rows) fall in each grafted leaf, by new leaf id."""
    X = sp_rows.to_numpy(dtype=np.float32)
    counts = {}
    for node, idx in iter_node_rows(res.grafted.tree_, X):
        if res.grafted.tree_.grafted[node] and res.grafted.tree_.is_leaf[node] and idx.size:
            counts[int(node)] = int(idx.size)
    return counts


def accuracy_change_note(res: GraftComparison, held: str) -> str | None:
    """Why the held-out accuracy moved, when grafting changed any prediction.

    Only the rows whose prediction changed move it; each falls in a grafted leaf, whose
    class came from an ancestor's larger region. When that region's majority is not the
    majority near the rows (noise, a curved boundary), the graft is wrong there, though
    the binomial test passed: it compares the region's purity with the leaf's Laplace
    estimate, not with held-out rows. Webb (1997, Table 2) saw grafting raise the error
    on 5 of 20 datasets (pruned trees), by up to 1.0 % (iris).
    """
    if res.changed.empty:
        return None
    acc = res.table["test accuracy"].to_numpy()
    cv = res.table["CV accuracy"].to_numpy()
    fixed = int(res.changed["grafting right?"].sum())
    broken = len(res.changed) - fixed
    moved = (
        f"from {100 * acc[0]:.1f} % to {100 * acc[1]:.1f} %: of the {res.n_test} {held}, "
        f"{len(res.changed)} change{'s' if len(res.changed) == 1 else ''} their prediction, "
        f"{fixed} to the true class and "
        f"{broken} away from it"
    )
    cv_text = (
        f"cross-validated, {100 * cv[0]:.1f} % before and {100 * cv[1]:.1f} % after"
        if np.isfinite(cv).all()
        else "no cross-validated accuracy: too few rows in a class"
    )
    if acc[1] >= acc[0]:
        return f"Grafting moved the test accuracy {moved} ({cv_text})."
    wrong = res.changed[~res.changed["grafting right?"]]
    by_leaf = _broken_by(res, wrong[list(res.grafted.feature_names_in_)])
    where = ""
    if by_leaf and res.report is not None:
        parts = []
        for leaf, n in sorted(by_leaf.items()):
            r = res.report[res.report["new_leaf"] == leaf].iloc[0]
            parts.append(
                f"{n} {'lies' if n == 1 else 'lie'} in grafted leaf {leaf} (labelled "
                f"{res.grafted.classes_[int(r['class'])]} from {r['n_class']:g} of "
                f"{r['n_region']:g} rows at node {int(r['ancestor'])})"
            )
        where = " Of the rows it got wrong, " + " and ".join(parts) + "."
    return (
        f"Grafting lowered the test accuracy {moved}.{where} A graft labels part of a leaf "
        "with the class of a larger region at an ancestor; the binomial test only asks "
        "that region to be purer than the leaf, so where the classes mix near the boundary "
        "(noise, a curved edge) the new label can be wrong for most of the rows that "
        "land there. With a few rows changing, one split's accuracy is a coarse measure: "
        f"{cv_text}. Webb (1997, Table 2) saw grafting raise the error on 5 of his 20 "
        "datasets, by at most 1.0 % (iris); a smaller α grafts less."
    )
