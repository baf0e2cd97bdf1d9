"""The Your data page's answer sections: the cases table, a row's why, new rows, the model.

The numbers come from `appkit.yourdata`; this module only lays them out.
"""

from __future__ import annotations

import shlex

import numpy as np
import pandas as pd
import streamlit as st

import viz
from appkit import cost, export, why, yourdata
from appkit.guard import inert_table, plain, python_text
from appkit.model import is_forest, model_params
from appkit.regions import member_for_story
from ternary.data import Dataset, to_csv
from ternary.diagnose import majority_rate
from ternary.metrics import decided_accuracy, uncertain_rate
from ternary.pipeline import score
from ternary.review import stored_review_rule, threshold_rule

__all__ = [
    "cases_section",
    "export_section",
    "pipeline_snippet",
    "predict_command",
    "rule_text",
    "score_section",
]

#: the cases are computed on arrival when the estimate is at most this (else a button)
ON_ARRIVAL_SECONDS = cost.AUTO_RUN_SECONDS


def _pct(x: float) -> str:
    return "—" if x is None or np.isnan(x) else f"{100 * x:.1f} %"


def cases_section(ds: Dataset, key: tuple):
    """Out-of-fold answers for every row: metrics, the review rule, the cases table, its
    download, a row's why.

    Above the on-arrival budget (`cost.cases_seconds` against `cost.AUTO_RUN_SECONDS`)
    the page shows the estimate and a button and stops there (`cost.bounded`); the
    fits run in a worker that stops when the run is rerun or the tab closes.

    Returns the full pipeline (fitted on every row) carrying the review rule
    (`yourdata.with_rule`), or None when nothing could be computed.
    """
    params = model_params()
    ckey = yourdata.cases_key(key, params)
    what = "forest" if "n_estimators" in params else "tree"
    st.header("Which rows can't the model decide?")
    st.caption(
        f"The {what} of the sidebar's settings on **every** feature. Each row is answered by a "
        f"{what} fitted on the other folds ({yourdata.FOLDS}-fold cross-validation, the "
        "cleaning (imputation values, levels) learned on those folds too), so no row is "
        "judged by a model that saw it."
    )
    estimate = cost.cases_seconds(params, ds.n_samples, ds.n_features, yourdata.FOLDS)

    def answer():
        return yourdata.cached_cases(ds, ckey), yourdata.full_pipeline(ds, ckey)

    try:
        cases, pipe = cost.bounded(
            estimate, ckey, answer, what="answer every row out of fold", label="Answer every row"
        )
    except ValueError as exc:
        st.warning(plain(exc), icon="⚠️")
        return None
    _metrics(cases, ds)
    share = _review_budget()
    table_rule = yourdata.review_rule_of(cases, share)
    rule = yourdata.model_rule(ds, ckey, share)
    shown = _threshold_shown(table_rule.threshold, cases["confidence"])
    st.markdown(rule_text(rule, table_rule, len(cases), shown))
    ruled = yourdata.with_rule(pipe, rule)
    table = yourdata.cases_table(ds, cases, table_rule)
    _cases_table(ds, table, cases, ruled, table_rule.threshold)
    return ruled


def _flags(threshold: float) -> str:
    return "no row" if threshold < 0 else "every row"


def rule_text(
    rule: yourdata.ReviewRule,
    table_rule: yourdata.ReviewRule,
    n_rows: int,
    table_shown: str | None = None,
) -> str:
    """What the page says about the review rule: the model's threshold, the share of rows
    to expect below it, and the cases table's threshold on the out-of-fold scale (written
    as ``table_shown``, from `_threshold_shown`, so box and caption give the same number)."""
    table_shown = table_shown or f"{table_rule.threshold:.4g}"
    budget = f"{100 * rule.share:.6g} %"

    def named(t: float, text: str) -> str:  # ±inf: the budget flags no row, or every row
        return text if np.isfinite(t) else f"{text} (flags {_flags(t)})"

    table = (
        "Which threshold applies where: the cases table below uses the out-of-fold threshold "
        f"{named(table_rule.threshold, table_shown)}, the budget applied to its out-of-fold "
        f"answers on their own scale (confidence below {table_shown}, "
        f"{_pct(table_rule.expected)} of the rows); the scored new rows, the model download "
        "and `ternary predict` use the stored threshold "
        f"{named(rule.threshold, f'{rule.threshold:.4g}')}."
    )
    if np.isinf(rule.threshold):
        which = _flags(rule.threshold)
        return (
            f"**Review rule:** at a budget of {budget} the model flags {which}; the model "
            f"download and `ternary predict` flag the same way. {table}"
        )
    return (
        f"**Review rule:** the model flags a row for review when its confidence is below "
        f"**{rule.threshold:.4g}**, learned at your budget of {budget}: "
        f"{_pct(rule.expected)} of the {n_rows:,} training rows fall below it (rows tied at "
        "the cut are never split), the share to expect among new rows like them. Each "
        "row's flag depends on that row alone: the scored new rows below, the model "
        f"download and `ternary predict` use this threshold. {table}"
    )


def _review_share() -> float:
    """The person's review budget as a share of rows (the widget's percent)."""
    return float(st.session_state.get("review_pct", 100 * yourdata.REVIEW_SHARE)) / 100


def _review_budget() -> float:
    """The review budget widget and why the rows to review come from the confidence."""
    st.subheader("Which rows to review")
    st.slider(
        "Review budget (% of rows)",
        0,
        100,
        int(round(100 * yourdata.REVIEW_SHARE)),
        step=1,
        key="review_pct",
        help="The share of rows you can check by hand. It becomes a confidence threshold "
        "learned from these rows: rows below it get review = 1 (here on the out-of-fold "
        "answers' scale; in the scored new rows and the model download on the model's); "
        "a boundary zone is not needed.",
    )
    st.info(yourdata.REVIEW_TEXT, icon="ℹ️")
    return _review_share()


def _metrics(answers: pd.DataFrame, ds: Dataset) -> None:
    y = np.asarray(ds.y)
    pred, verdict = answers["prediction"].to_numpy(), answers["verdict"].to_numpy()
    cols = st.columns(4)
    cols[0].metric("Rows", f"{len(y):,}")
    cols[1].metric(
        "Boundary-uncertain",
        _pct(uncertain_rate(verdict)),
        help=f"{int((verdict == 0).sum()):,} rows fall inside a zone of the "
        f"{answers['fold'].nunique()}-fold model that judged them. They still get a class.",
    )
    acc = decided_accuracy(y, pred, verdict)
    cols[2].metric("Decided accuracy", _pct(acc), help="Accuracy on the rows decided.")
    decided = verdict == 1  # the baseline on the same rows: always the most common class
    on_decided = majority_rate(y, y[decided])[1] if decided.any() else np.nan
    cols[2].caption(f"majority class {_pct(on_decided)}")
    cols[3].metric("Accuracy, all rows", _pct(float(np.mean(pred == y))))
    cols[3].caption(f"majority class {_pct(majority_rate(y)[1])}")


def _threshold_shown(threshold: float, confidence) -> str:
    """``threshold`` as the page writes it: the shortest number, from 4 significant
    digits up, that puts every row of ``confidence`` on the same side as ``threshold``
    does (below it: review = 1), taken from the threshold or from the least confidence at
    or above it. Two rows a rounding error apart (0.968749999 and 0.96875) give 0.96875,
    not 0.9687 (which would put the first above the cut) nor 0.96874999942.
    """
    if np.isinf(threshold):
        return f"{threshold:.4g}"
    conf = np.asarray(confidence, dtype=float)
    below = conf < threshold
    above = conf[~below]
    high = float(above.min()) if above.size else threshold
    for digits in range(4, 18):
        for t in (threshold, high):
            text = f"{t:.{digits}g}"
            if np.array_equal(conf < float(text), below):
                return text
    return repr(float(threshold))


def _review_said(shown: str, threshold: float) -> str:
    """The caption's meaning of review = 1: the out-of-fold threshold the column uses."""
    if np.isinf(threshold):
        return "every row" if threshold > 0 else "no row (the budget flags none)"
    return f"out-of-fold confidence below {shown}, the out-of-fold threshold"


def _cases_table(
    ds: Dataset, table: pd.DataFrame, answers: pd.DataFrame, pipe, threshold: float
) -> None:
    shown_threshold = _threshold_shown(threshold, answers["confidence"])
    st.subheader("Cases")
    which = st.radio(
        "Show",
        list(yourdata.CASE_FILTERS),
        format_func=yourdata.CASE_FILTERS.get,
        key="cases_filter",
        horizontal=True,
    )
    shown = yourdata.filter_cases(table, which)
    names = table.attrs.get("output_names", {})
    n_review = int(table[names.get("review", "review")].sum())
    st.caption(
        f"{len(shown):,} of {len(table):,} rows; the {n_review:,} rows to review first, then "
        "the other rows in a boundary zone, each least confident first. The answers first: "
        "the out-of-fold prediction; the zone verdict (1 decided, 0 boundary-uncertain: the "
        "row falls inside a split's zone, where the model blends both sides); confidence; "
        f"review (1 = {_review_said(shown_threshold, threshold)}; new rows and the "
        "download use the stored one, see the box above); flagged by (the rule "
        "that flagged the row: the threshold, boundary zone, or both); the class "
        "probabilities and the distance to the nearest boundary (in zone half-widths δ); "
        "then every column of your file (identifiers and set-aside columns included). "
        "Pick a row to see why."
    )
    if ds.source in ("csv", "arff") and ds.file_lines is None:
        st.caption(yourdata.NO_LINES_TEXT)
    event = st.dataframe(
        _bare(shown),
        hide_index=True,
        width="stretch",
        height=320,
        on_select="rerun",
        selection_mode="single-row",
        key="cases_table",
    )
    st.download_button(
        "Download every row with its answers (CSV)",
        to_csv(yourdata.download_order(table)).encode(),
        file_name=f"cases_{ds.name.replace(' ', '_')}.csv",
        mime="text/csv",
        key="cases_download",
        help="All rows (not only the filtered ones). The file's columns come first, as in "
        "your file, so the download lines up with it in a spreadsheet; then the answers, "
        "review and flagged by included.",
    )
    picked = list(getattr(getattr(event, "selection", None), "rows", []) or [])
    if picked and picked[0] < len(shown):
        position = yourdata.row_position(table, shown.index[picked[0]])
        _row_why(ds, table, answers, position, pipe)


def _bare(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` without its ``attrs`` (row positions, names), which the page keeps for
    itself: Streamlit would try to serialise them with the table."""
    out = table.copy(deep=False)
    out.attrs = {}
    return out


def _answers_of_row(table_row: pd.Series, names: dict, classes) -> dict:
    out = {
        "prediction": str(table_row[names.get("prediction", "prediction")]),
        "verdict": int(table_row[names.get("verdict", "verdict")]),
        "confidence": f"{float(table_row[names.get('confidence', 'confidence')]):.4f}",
        "review": int(table_row[names.get("review", "review")]),
    }
    for c in classes:
        out[f"P({c})"] = f"{float(table_row[names.get(f'P({c})', f'P({c})')]):.4f}"
    return out


def _row_why(ds: Dataset, table: pd.DataFrame, answers: pd.DataFrame, position: int, pipe):
    """A row's why from the fold model that answered it, beside the full model's answer."""
    rows = yourdata.features_frame(ds).iloc[[position]].reset_index(drop=True)
    fold, fold_model = yourdata.fold_answer(answers, position)
    names = table.attrs.get("output_names", {})
    here = int(np.flatnonzero(np.asarray(table.attrs["rows"]) == position)[0])
    classes = [str(c) for c in pipe.classes_]
    full = score(pipe, rows).iloc[0]
    full_names = {c: c for c in full.index}
    table_answer = _answers_of_row(table.iloc[here], names, classes)
    full_answer = _answers_of_row(full, full_names, classes)
    where = table.columns[0]
    st.subheader(f"Why? ({where} {table.iloc[here][where]})")
    st.markdown(
        f"This row was held out of fold {fold + 1} of {answers.attrs.get('folds', '?')}: "
        "its answer in the table comes from the model fitted on the other folds, and that "
        "is the model explained below. Beside it, the model fitted on every row: what the "
        "downloaded model and `ternary predict` say for this row."
    )
    compare = pd.DataFrame(
        [table_answer, full_answer],
        index=[
            f"The table's answer (fold {fold + 1} model, did not see the row)",
            "Full model (the download, ternary predict)",
        ],
    )
    st.table(inert_table(compare))
    st.markdown(_agreement(table_answer, full_answer))
    _explain(fold_model, rows, f"the fold {fold + 1} model", expanded=None)
    with st.expander("The full model's way for this row"):
        _explain(pipe, rows, "the full model", expanded=True)


def _agreement(fold: dict, full: dict) -> str:
    """One sentence (markdown; the file's values escaped) on whether the fold model and
    the full model agree on the row."""
    a, b = plain(fold["prediction"]), plain(full["prediction"])
    if fold["prediction"] != full["prediction"]:
        return (
            f"**The two disagree on this row:** the table (fold model) predicts {a}, the "
            f"downloaded model and `ternary predict` predict {b}. The fold model never saw "
            "the row; the full model was fitted on it, so its answer here is the more "
            "optimistic one."
        )
    differ = [k for k in ("verdict", "review") if fold[k] != full[k]]
    if differ:
        return (
            f"**The two agree on the class ({a}) but not on the {' and the '.join(differ)}:** "
            "the table shows the fold model's, the download and `ternary predict` the full "
            "model's."
        )
    return f"The two agree on this row: {a}, verdict {fold['verdict']}, review {fold['review']}."


def _explain(model, rows: pd.DataFrame, who: str, expanded) -> None:
    """``model``'s story of the one raw row ``rows`` (a pipeline, or a bare model of
    ``ds.X``'s columns), its way through the tree and the splits it reached."""
    final = model[-1] if hasattr(model, "steps") else model
    if hasattr(model, "steps") and len(model.steps) > 1:
        x = np.asarray(model[:-1].transform(rows), dtype=np.float64)[0]
    else:
        x = np.asarray(rows, dtype=np.float64)[0]
    feature_names = list(getattr(final, "feature_names_in_", rows.columns))
    tree = final
    if is_forest(final):  # the story follows one member tree
        tree, note = member_for_story(final, x)
        st.markdown(plain(note))
        who = f"that member tree of {who}"
    story = why.row_story(tree, x, feature_names)
    verdict = "flags it boundary-uncertain" if story.flagged else "decides it"
    st.markdown(f"How {who} answers: it {verdict}. " + plain(story.sentence))
    st.graphviz_chart(
        viz.tree_dot(tree, feature_names=feature_names, path=story.path), width="stretch"
    )
    st.dataframe(story.steps.round(4), hide_index=True, width="stretch")


def score_section(ds: Dataset, pipe) -> None:
    """A second upload scored by the full model, never retrained; its download."""
    st.header("Score new rows")
    st.caption(
        "Upload rows with the same columns (any order; the label column may be missing). "
        "They are scored by the model fitted on every row above, never retrained on them; "
        "each row is flagged for review by the review rule's threshold, whatever else is "
        "in the file."
    )
    upload = st.file_uploader(
        "New rows (CSV, TSV or ARFF)", type=["csv", "tsv", "txt", "arff"], key="score_upload"
    )
    if upload is None:
        return
    result = yourdata.score_new_file(pipe, ds, upload.getvalue(), str(upload.name))
    if result.error:
        st.error(plain(result.error), icon="⚠️")
        return
    rule = stored_review_rule(pipe)
    said = f" ({threshold_rule(*rule)})" if rule is not None else ""
    st.success(
        f"Scored {result.n_rows:,} rows; {result.n_review:,} to review{said}, "
        f"{_pct(result.flag_rate)} boundary-uncertain."
    )
    for note in result.notes:
        st.caption(plain(note))
    if result.label_note:
        st.warning(plain(result.label_note), icon="⚠️")
    if result.n_labelled > sum(result.foreign_labels.values()):
        accuracy = np.nan if result.decided_accuracy is None else result.decided_accuracy
        cols = st.columns(2)
        cols[0].metric("Decided accuracy (new rows)", _pct(accuracy))
        majority = np.nan if result.majority is None else result.majority
        cols[0].caption(f"majority class {_pct(majority)}")
        cols[1].metric("Flag rate (new rows)", _pct(result.flag_rate))
    shown = result.table.head(200).drop(columns=result.table.attrs.get("download_only", []))
    st.dataframe(_bare(shown), hide_index=True, width="stretch", height=260)
    stem = str(upload.name).rsplit(".", 1)[0]
    st.download_button(
        "Download the scored rows (CSV)",
        to_csv(yourdata.download_order(result.table)).encode(),
        file_name=f"scored_{stem}.csv",
        mime="text/csv",
        key="score_download",
        help="Every column of the uploaded file first (as ternary predict writes it), then "
        "prediction, verdict, confidence, review (1 = confidence below the review rule's "
        "threshold), review_rule and one probability per class.",
    )


def export_section(ds: Dataset, pipe, key: tuple) -> None:
    """The pipeline as a skops file (it takes raw rows) and how to score a CSV with it."""
    st.header("Take the model away")
    base = f"ternary_{ds.name.replace(' ', '_')}"
    rule = stored_review_rule(pipe)
    st.download_button(
        "Download the model (skops)",
        export.model_bytes(pipe, ("pipeline", *yourdata.cases_key(key, model_params()), rule)),
        file_name=f"{base}.skops",
        mime="application/octet-stream",
        key="pipeline_download",
        help="The loader's cleaning and the model in one scikit-learn pipeline: it takes the "
        "rows of a file as they are, gaps and text included. It carries the review rule's "
        "threshold, so ternary predict flags the same rows as this page.",
    )
    st.code(pipeline_snippet(f"{base}.skops"), language="python")
    st.caption("Or from a shell, for a file of any size:")
    st.code(predict_command(f"{base}.skops"), language="sh")
    st.caption(
        "Its review column applies the model's stored threshold to each row. Add "
        f"--review-share {_review_share():.6g} for a per-file quota instead: the least "
        "confident share of that file's rows, which depends on the other rows in it."
    )


def predict_command(model_file: str, review_share: float | None = None) -> str:
    """The shell command that scores a CSV with ``model_file``, the name quoted for a POSIX
    shell: it comes from the upload's name, and ``x;touch${IFS}PWNED;#.csv`` must stay a
    file name when the command is pasted. Without ``review_share`` the model's stored
    review threshold flags the rows; with it, a per-file quota (``--review-share``)."""
    command = f"python -m ternary predict {shlex.quote(model_file)} new_rows.csv --out scored.csv"
    if review_share is not None:
        command += f" --review-share {review_share:.6g}"
    return command


def pipeline_snippet(model_file: str) -> str:
    """The Python that loads ``model_file`` and scores a CSV, the name a string literal
    (`appkit.guard.python_text`): a name holding ``"`` or a line break stays one string."""
    return yourdata.PIPELINE_SNIPPET.format(file=python_text(model_file))
