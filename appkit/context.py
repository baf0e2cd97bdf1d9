"""Numbers with their context (issue 37, items 5 and 6).

What a reader needs beside a number to read it: a degenerate fit said in one line
(`fit_alert`, from `ternary.diagnose.diagnose_fit`), the majority-class rate beside
an accuracy (`majority_note`, `majority_text`, `cv_majority_rate`), what η means when
it rests on few flagged rows (`eta_note`), the δ scale sitting on a step of the
flagged share (`step_note`), and tables rounded to what a person reads
(`rounded`: 4 significant digits at most).

The pages call these in one line each; the Your data and Grafting pages can call
`majority_note` (or `majority_text`) beside their own accuracies, and `rounded` on
their tables.
"""

from __future__ import annotations

import threading
import weakref

import numpy as np
import pandas as pd
import streamlit as st

from appkit.guard import plain
from ternary.diagnose import FitDiagnosis, diagnose_fit, majority_rate, value_step

__all__ = [
    "FEW_FLAGGED",
    "SIGNIFICANT",
    "combo_notes",
    "cv_majority_note",
    "cv_majority_rate",
    "eta_note",
    "fit_alert",
    "fit_notes",
    "grid_format",
    "majority_note",
    "majority_text",
    "rounded",
    "significant",
    "step_note",
]

#: the most significant digits a table shows
SIGNIFICANT = 4
#: below this many flagged rows, η comes with a note on how much one row moves it
FEW_FLAGGED = 30


# ----------------------------------------------------------------------------- rounding
def significant(value, digits: int = SIGNIFICANT):
    """``value`` rounded to ``digits`` significant digits (a float); anything else as is.

    ``float(f"{v:.4g}")`` is the double nearest the rounded decimal, so it prints
    as that decimal (8.178, 71.51) where ``round(v, 4)`` could leave 8.178099999999999.
    Whole-number columns (row counts) are left to `rounded`, which keeps them.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (float, np.floating)):
        return value
    if not np.isfinite(value):
        return value
    return float(f"{float(value):.{digits}g}")


def rounded(table: pd.DataFrame, digits: int = SIGNIFICANT) -> pd.DataFrame:
    """A copy of ``table`` whose floats have ``digits`` significant digits at most.

    Float columns stay numeric (they sort as numbers); floats inside object columns
    (`present.readable` makes every column an object) are rounded cell by cell;
    integers, text and missing values are kept.
    """
    out = table.copy()
    for column in out.columns:
        series = out[column]
        if pd.api.types.is_float_dtype(series):
            out[column] = series.map(lambda v: significant(v, digits)).astype(series.dtype)
        elif series.dtype == object:
            out[column] = series.map(lambda v: significant(v, digits))
    return out


def grid_format(column: pd.Series, digits: int = SIGNIFICANT) -> str:
    """The ``st.column_config.NumberColumn`` format that shows ``column`` as rounded.

    Floats: ``%.4g`` (``digits`` significant digits, no trailing zeros: 8.178, 61.8,
    0.06123). The grid's "plain" format writes 20 decimals of the binary double and
    trims the zeros, so 8.178 read 8.178099999999999 (issue 37). Whole numbers keep
    "plain", which prints them exactly (1797 rows, not 1.797e+03).
    """
    return f"%.{digits}g" if pd.api.types.is_float_dtype(column) else "plain"


# ----------------------------------------------------------------------------- majority
def _pct(share: float) -> str:
    return f"{100 * share:.1f}\u00a0%"


def _label(value) -> str:
    return plain(value if isinstance(value, str) else str(value))


def majority_text(y_train, y) -> str:
    """``majority class 70.0 %``: the accuracy on ``y`` of always answering the most
    common class of ``y_train``, labelled as the pages show it beside an accuracy."""
    _, rate = majority_rate(y_train, y)
    return f"majority class {_pct(rate)}"


def majority_note(y_train, y, rows: str = "these rows") -> str:
    """One line for beside the accuracies: the majority class, its rate on ``y`` and why.

    ``rows`` names the rows ``y`` holds ("the 300 test rows"). For the Your data and
    Grafting pages as well: ``st.caption(context.majority_note(y_train, y_test))``.
    """
    label, rate = majority_rate(y_train, y)
    return (
        f"Majority class ({_label(label)}): {_pct(rate)} of {rows}, the accuracy of always "
        "answering it."
    )


def cv_majority_rate(y) -> tuple[object, float]:
    """The most common class of ``y`` and its share: the majority-class accuracy of a
    stratified cross-validation, whose folds each keep the classes' shares."""
    return majority_rate(y, y)


def cv_majority_note(y) -> str:
    """The Accuracy vs. coverage page's line beside its accuracies: the majority class
    of ``y`` and its share, which each stratified fold keeps."""
    label, rate = cv_majority_rate(y)
    return (
        f"Majority class ({_label(label)}): {_pct(rate)} of the rows (each stratified fold "
        "keeps that share), the accuracy of always answering it: the floor to read every "
        "accuracy here against."
    )


# ----------------------------------------------------------------------------- η
def eta_note(n_flagged: int, n_rows: int, few: int = FEW_FLAGGED) -> str | None:
    """What η means when it rests on fewer than ``few`` flagged rows, or None.

    η = (decided accuracy − CART's) / flagged share. With k of n rows flagged, one
    decided row answered right instead of wrong raises the decided accuracy by
    1/(n−k) and η by n / (k (n−k)): with 1 flagged row of 300, by 1.003, larger
    than any η the paper reports (its methods average 0.03 to 0.12).
    """
    k, n = int(n_flagged), int(n_rows)
    if k <= 0 or k >= n or k >= few:
        return None
    swing = n / (k * (n - k))
    rows = "row" if k == 1 else "rows"
    return (
        f"η rests on {k} flagged {rows} of {n}: one decided row answered otherwise moves it "
        f"by {swing:.3f}, so read it as a rough sign only."
    )


# ----------------------------------------------------------------------------- fits
#: what was worked out for a fitted model, by the model object (its entry goes with it). The
#: pages' models are cached objects, each fitted on one split, so a rerun (a class, a click)
#: reads the diagnosis and the step instead of walking the rows again (20-30 ms each on a
#: loaded 2-core machine). Keyed inside by the rows' shapes, to be safe.
_KNOWN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_KNOWN_LOCK = threading.Lock()  # the sessions of a class run in threads of one server


def _remembered(model, what: str, rows, compute):
    key = (what, *(np.shape(r) for r in rows))
    try:
        with _KNOWN_LOCK:
            known = _KNOWN.setdefault(model, {})
    except TypeError:  # not weak-referable: compute every time
        return compute()
    if key not in known:  # two sessions at once may both compute: the same value
        known[key] = compute()
    return known[key]


def _diagnosis(model, X_train, y_train, X) -> FitDiagnosis | None:
    def compute():
        try:
            return diagnose_fit(model, X_train, y_train, X)
        except ValueError:  # no rows to judge: nothing to say
            return None

    return _remembered(model, "diagnosis", (X_train, X), compute)


def fit_alert(model, X_train, y_train, X=None) -> FitDiagnosis | None:
    """One-line alert when the fit is degenerate (single leaf, every row or no row flagged).

    Drawn as an ``st.info`` with ⚠️ holding the diagnosis' headline, which names the
    cause where the library can tell it; plain CART (δ method "none") flags nothing by
    design and gets no alert. Returns the diagnosis (None without rows).
    """
    found = _diagnosis(model, X_train, y_train, X)
    if found is not None and found.degenerate and found.cause != "no_zones":
        st.info(plain(found.headline), icon="⚠️")
    return found


def step_note(model, X, found: FitDiagnosis | None = None) -> str | None:
    """The note on a δ scale that sits on a step of the flagged share, or None.

    Left out when ``found`` (the fit's diagnosis) already says it: a tree that flags
    nothing because its zones sit between whole numbers names the next step itself.
    """
    if found is not None and found.kind in ("single_leaf", "flags_none"):
        return None

    def compute():
        try:
            step = value_step(model, X)
        except ValueError:
            return None
        return None if step is None else step.sentence

    return _remembered(model, "step", (X,), compute)


def fit_notes(model, split, rows: str) -> FitDiagnosis | None:
    """The Decision regions page's context under its cards: two lines at most.

    The degenerate-fit alert (`fit_alert`), then one caption: the majority class beside
    the accuracies, η's few rows when they are few, and the δ-scale step when the scale
    sits on one. ``rows`` names the measured rows ("the 300 rows measured").
    """
    found = fit_alert(model, split.X_train, split.y_train, split.X_test)
    line = [majority_note(split.y_train, split.y_test, rows)]
    if found is not None:
        n_flagged = int(round(found.flagged_share * found.n_rows))
        line.append(eta_note(n_flagged, found.n_rows) or "")
    line.append(plain(step_note(model, split.X_test, found) or ""))
    st.caption(" ".join(part for part in line if part))
    return found


# ----------------------------------------------------------------------------- CV
def combo_notes(results: pd.DataFrame) -> dict[str, str]:
    """Per combination of ``run_cv``'s rows, what was degenerate in its folds.

    "one leaf" (the tree never split), "flags none" (a combination with zones that
    flagged no test row) and "flags every row", with "in k of n folds" where only some
    folds were so. Combinations without such a fold are left out.
    """
    notes: dict[str, str] = {}
    for combo, rows in results.groupby("combo", sort=False):
        n = len(rows)
        zones = rows["delta_method"].astype(str) != "none"
        leaf = rows["n_leaves"] == 1 if "n_leaves" in rows else pd.Series(False, rows.index)
        found = [
            ("one leaf", int(leaf.sum())),
            ("flags none", int(((rows["uncertain_rate"] == 0) & zones & ~leaf).sum())),
            ("flags every row", int((rows["uncertain_rate"] == 1).sum())),
        ]
        parts = [what if k == n else f"{what} in {k} of {n} folds" for what, k in found if k]
        if parts:
            notes[str(combo)] = "; ".join(parts)
    return notes
