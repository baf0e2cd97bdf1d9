"""The paper's tables from cross-validation rows: means, W/T/L and Wilcoxon tests."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ternary.experiment._combos import _BOOKKEEPING, _METRICS, combo_label
from ternary.metrics import efficiency, ub_ratio

# the summary's columns after ``combo`` and the parameters, in this order where present
_SUMMARY_COLUMNS = (
    "n_datasets",
    "decided_accuracy",
    "decided_accuracy_std",
    "uncertain_rate",
    "uncertain_pct",
    "accuracy",
    "decided_f1",
    "cart_accuracy",
    "efficiency",
    "chow_decided_accuracy",
    "gain_vs_chow",
    "chow_decided_accuracy_ties_mean",
    "aurc",
    "e_aurc",
    "cart_aurc",
    "cart_e_aurc",
    "aurc_gain_vs_chow",
    "laplace_decided_accuracy",
    "gain_vs_laplace",
    "laplace_aurc",
    "laplace_e_aurc",
    "aurc_gain_vs_laplace",
    "ub_ratio",
    "fit_seconds",
    "n_leaves",
    "wins",
    "ties",
    "losses",
    "wilcoxon_p",
)


def _round_diff(values) -> np.ndarray:
    # fold means of the same numbers can differ in the last bit; that is not a win
    return np.round(np.asarray(values, dtype=np.float64), 12)


def _wilcoxon_greater(differences) -> float:
    from scipy.stats import wilcoxon

    d = _round_diff(differences)
    d = d[~np.isnan(d)]
    if np.count_nonzero(d) < 2:
        return float("nan")
    return float(wilcoxon(d[d != 0], alternative="greater").pvalue)


def summarize(
    results: pd.DataFrame, bayes_error: float | None = None, threshold: float = 0.005
) -> pd.DataFrame:
    """Summarise cross-validation rows, one row per combination, as the paper's tables do.

    Fold results are first averaged per (dataset, combination). With one
    dataset the ± std is over folds; with several (a ``dataset`` column with
    more than one value) the columns are means over the per-dataset means, the
    std is over datasets (as in the paper's Table 1), and each combination also
    gets win/tie/loss counts and a one-sided Wilcoxon signed-rank p-value for
    "decided accuracy > CART's accuracy".

    Parameters
    ----------
    results : pandas.DataFrame
        Rows as `run_cv` or `run_suite` give them (one per combination and fold,
        with a ``dataset`` column for several datasets); without a ``combo``
        column the combinations are named from the parameter columns.
    bayes_error : float, optional
        Bayes error of the (single) dataset, for the U/B ratio. By default a
        ``bayes_error`` column is used where present (U/B is then averaged over
        the datasets that have one).
    threshold : float, default=0.005
        The paper's practical-significance margin (0.5 points): a win when the
        decided accuracy exceeds CART's accuracy by more than this, a loss when
        it falls short by more, a tie otherwise.

    Returns
    -------
    pandas.DataFrame
        Sorted by decided accuracy (descending; the CART row is kept), with
        ``combo``, the parameter columns, ``n_datasets`` (several datasets),
        ``decided_accuracy``, ``decided_accuracy_std``, ``uncertain_rate``,
        ``uncertain_pct``, ``accuracy``, ``decided_f1``, ``cart_accuracy``,
        ``efficiency`` (η = (decided − CART accuracy) / uncertain rate, NaN at rate
        0), ``chow_decided_accuracy``, ``gain_vs_chow`` (decided − Chow),
        ``chow_decided_accuracy_ties_mean``, ``aurc`` and ``e_aurc`` (the
        combination ranking rows by its ``predict_confidence``; lower is better),
        ``cart_aurc`` and ``cart_e_aurc`` (CART ranking them by its largest class
        probability, Chow's ranking), ``aurc_gain_vs_chow`` (CART's AURC − the
        combination's: positive is better), ``laplace_decided_accuracy``,
        ``gain_vs_laplace``, ``laplace_aurc``, ``laplace_e_aurc`` and
        ``aurc_gain_vs_laplace`` (the same against CART ranked by Laplace-smoothed
        leaves with the scaled-gap tie-break, `laplace_cart_confidence`), ``ub_ratio``
        (when a Bayes error is known), ``fit_seconds``, ``n_leaves``, and with several
        datasets ``wins``, ``ties``, ``losses`` and ``wilcoxon_p`` (NaN with fewer than
        two non-zero differences). Columns whose inputs are absent are left out.

    Raises
    ------
    ValueError
        When ``results`` is empty or lacks ``decided_accuracy``, ``uncertain_rate``
        or ``cart_accuracy``.
    """
    df, params, metrics = _prepared(results)
    multi = df["dataset"].nunique() > 1
    per = _per_dataset(df, params, metrics, bayes_error)
    rows = [
        _combo_row(combo, per[per["combo"] == combo], params, metrics, multi, threshold)
        for combo in dict.fromkeys(df["combo"])
    ]
    table = pd.DataFrame(rows)
    order = ["combo", *params, *_SUMMARY_COLUMNS]
    table = table[[c for c in order if c in table.columns]]
    table = table.sort_values(
        "decided_accuracy", ascending=False, kind="stable", na_position="last"
    )
    return table.reset_index(drop=True)


def _prepared(results: pd.DataFrame) -> tuple[pd.DataFrame, list[str], list[str]]:
    """A copy of ``results`` with ``combo`` and ``dataset`` columns, its parameter and metric
    columns."""
    if results is None or len(results) == 0:
        raise ValueError("results is empty; nothing to summarise.")
    df = results.copy()
    if "combo" not in df.columns:
        params = [c for c in df.columns if c not in _BOOKKEEPING and c not in _METRICS]
        df["combo"] = [
            combo_label({k: v for k, v in r.items() if not pd.isna(v)})
            for r in df[params].to_dict("records")
        ]
    missing = [c for c in ("decided_accuracy", "uncertain_rate", "cart_accuracy") if c not in df]
    if missing:
        raise ValueError(f"results lacks the column(s) {', '.join(missing)}; pass run_cv's output.")
    metrics = [c for c in _METRICS if c in df.columns]
    params = [c for c in df.columns if c not in _BOOKKEEPING and c not in _METRICS]
    if "dataset" not in df.columns:
        df["dataset"] = ""
    df["dataset"] = df["dataset"].astype(str)
    return df, params, metrics


def _per_dataset(df, params, metrics, bayes_error) -> pd.DataFrame:
    """Fold means per (dataset, combination), with the fold std and U/B."""
    grouped = df.groupby(["dataset", "combo"], sort=False)
    per = grouped[metrics].mean()
    per["decided_accuracy_std"] = grouped["decided_accuracy"].std()
    per = per.join(grouped[params].first()) if params else per
    if bayes_error is not None:
        per["bayes_error"] = float(bayes_error)
    elif "bayes_error" in df.columns:
        per["bayes_error"] = grouped["bayes_error"].first()
    per = per.reset_index()
    if "bayes_error" in per.columns:
        per["ub_ratio"] = [
            ub_ratio(r, b) if pd.notna(b) else np.nan
            for r, b in zip(per["uncertain_rate"], per["bayes_error"], strict=True)
        ]
    return per


def _combo_row(combo, part, params, metrics, multi, threshold) -> dict:
    """One combination's summary from its per-dataset means ``part``."""
    row = {"combo": combo}
    for name in params:
        row[name] = part[name].iloc[0]
    if multi:
        row["n_datasets"] = int(part["dataset"].nunique())
        row["decided_accuracy_std"] = part["decided_accuracy"].std()
    for name in metrics:
        row[name] = part[name].mean()
    if not multi:
        row["decided_accuracy_std"] = part["decided_accuracy_std"].iloc[0]
    row["uncertain_pct"] = 100.0 * row["uncertain_rate"]
    row["efficiency"] = efficiency(
        row["decided_accuracy"], row["cart_accuracy"], row["uncertain_rate"]
    )
    if "chow_decided_accuracy" in row:
        row["gain_vs_chow"] = row["decided_accuracy"] - row["chow_decided_accuracy"]
    if "aurc" in row and "cart_aurc" in row:
        row["aurc_gain_vs_chow"] = row["cart_aurc"] - row["aurc"]
    if "laplace_decided_accuracy" in row:
        row["gain_vs_laplace"] = row["decided_accuracy"] - row["laplace_decided_accuracy"]
    if "aurc" in row and "laplace_aurc" in row:
        row["aurc_gain_vs_laplace"] = row["laplace_aurc"] - row["aurc"]
    if "ub_ratio" in part.columns:
        row["ub_ratio"] = part["ub_ratio"].mean()
    if multi:
        diff = _round_diff(part["decided_accuracy"] - part["cart_accuracy"])
        diff = diff[~np.isnan(diff)]
        row["wins"] = int(np.sum(diff > threshold))
        row["losses"] = int(np.sum(diff < -threshold))
        row["ties"] = int(diff.size - row["wins"] - row["losses"])
        row["wilcoxon_p"] = _wilcoxon_greater(diff)
    return row
