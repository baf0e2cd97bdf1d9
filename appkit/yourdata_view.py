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
from appkit.guard import plain, python_text
from appkit.model import is_forest, model_params
from appkit.regions import member_for_story
from ternary.data import Dataset, to_csv
from ternary.metrics import decided_accuracy, uncertain_rate

__all__ = [
    "cases_section",
    "export_section",
    "pipeline_snippet",
    "predict_command",
    "score_section",
]

#: the cases are computed on arrival when the estimate is at most this (else a button)
ON_ARRIVAL_SECONDS = cost.AUTO_RUN_SECONDS


def _pct(x: float) -> str:
    return "—" if x is None or np.isnan(x) else f"{100 * x:.1f} %"


def cases_section(ds: Dataset, key: tuple):
    """Out-of-fold answers for every row: metrics, the cases table, its download, a row's why.

    Above the on-arrival budget (`cost.cases_seconds` against `cost.AUTO_RUN_SECONDS`)
    the page shows the estimate and a button and stops there (`cost.bounded`); the
    fits run in a worker that stops when the run is rerun or the tab closes.

    Returns the full pipeline (fitted on every row), or None when nothing could be computed.
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
    table = yourdata.cases_table(ds, cases, review_share=share)
    _cases_table(ds, table, pipe)
    return pipe


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
        help="The share of rows you can check by hand. The least confident rows under it "
        "get review = 1 (here and in the scored new rows); a boundary zone is not needed.",
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
    cols[3].metric("Accuracy, all rows", _pct(float(np.mean(pred == y))))


def _cases_table(ds: Dataset, table: pd.DataFrame, pipe) -> None:
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
        "the other rows in a boundary zone, each least confident first. Every column of your "
        "file (identifiers and set-aside columns included), then the out-of-fold prediction; "
        "review (1 = one of the least confident rows your budget allows); flagged by (the "
        "rule that flagged the row: least confident, boundary zone, or both); the zone "
        "verdict (1 decided, 0 boundary-uncertain: the row falls inside a split's zone, "
        "where the model blends both sides); confidence; distance to the nearest boundary "
        "(in zone half-widths δ) and class probabilities. Pick a row to see why."
    )
    if ds.source in ("csv", "arff") and ds.file_lines is None:
        st.caption(yourdata.NO_LINES_TEXT)
    event = st.dataframe(
        shown,
        hide_index=True,
        width="stretch",
        height=320,
        on_select="rerun",
        selection_mode="single-row",
        key="cases_table",
    )
    st.download_button(
        "Download every row with its answers (CSV)",
        to_csv(table).encode(),
        file_name=f"cases_{ds.name.replace(' ', '_')}.csv",
        mime="text/csv",
        key="cases_download",
        help="All rows (not only the filtered ones): your columns, then the outputs, review "
        "and flagged by included.",
    )
    picked = list(getattr(getattr(event, "selection", None), "rows", []) or [])
    if picked and picked[0] < len(shown):
        _row_why(ds, shown.iloc[picked[0]], pipe)


def _row_why(ds: Dataset, row: pd.Series, pipe) -> None:
    raw = yourdata.features_frame(ds)
    columns = [c for c in raw.columns if c in row.index]
    rows = pd.DataFrame([row[columns].to_numpy()], columns=columns)
    model = pipe[-1]
    names = list(model.feature_names_in_)
    st.subheader("Why? (the model fitted on every row)")
    if is_forest(model):  # the pipeline explains a tree: the story follows one member
        x = np.asarray(pipe[:-1].transform(rows), dtype=np.float64)[0]
        model, note = member_for_story(model, x)
        st.markdown(plain(note))
        story = why.row_story(model, x, names)
    else:
        story = why.story_of(pipe.explain_row(rows))
    verdict = "flags it boundary-uncertain" if story.flagged else "decides it"
    st.markdown(
        f"The model fitted on all rows {verdict} (the table's verdict comes from the fold "
        "model that did not see the row, so the two can differ near a boundary)."
    )
    st.markdown(plain(story.sentence))
    st.graphviz_chart(viz.tree_dot(model, feature_names=names, path=story.path), width="stretch")
    st.dataframe(story.steps.round(4), hide_index=True, width="stretch")


def score_section(ds: Dataset, pipe) -> None:
    """A second upload scored by the full model, never retrained; its download."""
    st.header("Score new rows")
    st.caption(
        "Upload rows with the same columns (any order; the label column may be missing). "
        "They are scored by the model fitted on every row above, never retrained on them."
    )
    upload = st.file_uploader(
        "New rows (CSV, TSV or ARFF)", type=["csv", "tsv", "txt", "arff"], key="score_upload"
    )
    if upload is None:
        return
    share = _review_share()
    result = yourdata.score_new_file(
        pipe, ds, upload.getvalue(), str(upload.name), review_share=share
    )
    if result.error:
        st.error(plain(result.error), icon="⚠️")
        return
    st.success(
        f"Scored {result.n_rows:,} rows; {result.n_review:,} to review (the least confident "
        f"{100 * share:.0f} %), {_pct(result.flag_rate)} boundary-uncertain."
    )
    for note in result.notes:
        st.caption(plain(note))
    if result.label_note:
        st.warning(plain(result.label_note), icon="⚠️")
    if result.n_labelled > sum(result.foreign_labels.values()):
        accuracy = np.nan if result.decided_accuracy is None else result.decided_accuracy
        cols = st.columns(2)
        cols[0].metric("Decided accuracy (new rows)", _pct(accuracy))
        cols[1].metric("Flag rate (new rows)", _pct(result.flag_rate))
    st.dataframe(result.table.head(200), hide_index=True, width="stretch", height=260)
    stem = str(upload.name).rsplit(".", 1)[0]
    st.download_button(
        "Download the scored rows (CSV)",
        to_csv(result.table).encode(),
        file_name=f"scored_{stem}.csv",
        mime="text/csv",
        key="score_download",
        help="Every column of the uploaded file, then prediction, verdict, confidence, review "
        "(1 = one of the least confident rows your budget allows), review_rule and one "
        "probability per class.",
    )


def export_section(ds: Dataset, pipe, key: tuple) -> None:
    """The pipeline as a skops file (it takes raw rows) and how to score a CSV with it."""
    st.header("Take the model away")
    base = f"ternary_{ds.name.replace(' ', '_')}"
    st.download_button(
        "Download the model (skops)",
        export.model_bytes(pipe, ("pipeline", *yourdata.cases_key(key, model_params()))),
        file_name=f"{base}.skops",
        mime="application/octet-stream",
        key="pipeline_download",
        help="The loader's cleaning and the model in one scikit-learn pipeline: it takes the "
        "rows of a file as they are, gaps and text included.",
    )
    st.code(pipeline_snippet(f"{base}.skops"), language="python")
    st.caption("Or from a shell, for a file of any size:")
    st.code(predict_command(f"{base}.skops", _review_share()), language="sh")


def predict_command(model_file: str, review_share: float | None = None) -> str:
    """The shell command that scores a CSV with ``model_file``, the name quoted for a POSIX
    shell: it comes from the upload's name, and ``x;touch${IFS}PWNED;#.csv`` must stay a
    file name when the command is pasted. With ``review_share`` it flags the same share
    of least confident rows as the page (``--review-share``)."""
    command = f"python -m ternary predict {shlex.quote(model_file)} new_rows.csv --out scored.csv"
    if review_share is not None:
        command += f" --review-share {review_share:.6g}"
    return command


def pipeline_snippet(model_file: str) -> str:
    """The Python that loads ``model_file`` and scores a CSV, the name a string literal
    (`appkit.guard.python_text`): a name holding ``"`` or a line break stays one string."""
    return yourdata.PIPELINE_SNIPPET.format(file=python_text(model_file))
