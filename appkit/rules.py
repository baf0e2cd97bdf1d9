"""The tree page's rules panel: the tree as decided and boundary-uncertain rules, and the
model as a rules CSV, one SQL query and a standalone Python function."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from appkit.guard import plain
from ternary import export_python, export_sql, extract_rules
from ternary.data import to_csv
from ternary.rules import rule_summary, rules_to_frame

__all__ = ["model_code", "rule_table", "rules_panel"]

#: the table name the downloaded query reads; the caption says to replace it
SQL_TABLE = "my_table"


@st.cache_data(show_spinner=False, max_entries=32)
def rule_table(_model, _X, _y, key: tuple, names: tuple, simplify: bool):
    """``(rules frame, summary)`` of ``_model`` on its training rows, cached per fit.

    The frame gains a ``shown`` column: the conditions with 4 significant digits, for the
    page (the CSV keeps 6).
    """
    rules = extract_rules(_model, _X, _y, simplify=simplify, feature_names=list(names))
    frame = rules_to_frame(rules)
    frame["shown"] = [r.condition_text(digits=4) for r in rules]
    return frame, rule_summary(rules, _X, _y)


@st.cache_data(show_spinner=False, max_entries=16)
def model_code(_model, key: tuple, names: tuple) -> tuple[str | None, str | None, str | None]:
    """``(sql, python, why_no_sql)``: the whole model as code (a forest: all its trees).

    An exporter that refuses the model (too many nodes, labels it cannot write exactly)
    gives None; the SQL export refuses whatever the Python one does, and its message says
    what to do.
    """
    try:
        python = export_python(_model)
    except ValueError:  # the same node cap and labels as the SQL: its message is shown
        python = None
    try:
        return export_sql(_model, table=SQL_TABLE, columns=list(names)), python, None
    except ValueError as err:  # too large for one query: say so instead of a download
        return None, python, str(err)


def _line(row) -> str:
    """One rule as a line of markdown: conditions, outcome, support and accuracy.

    Feature names and labels come from the data, so they are escaped (`plain`).
    """
    conditions = plain(row.shown)
    blended = row.prediction is None or (
        isinstance(row.prediction, float) and pd.isna(row.prediction)
    )
    if row.verdict == 1:
        outcome = f"**{plain(row.prediction)}** · decided"
    elif blended:
        outcome = ":orange[**boundary-uncertain**] · blended from both sides"
    else:
        outcome = f":orange[**boundary-uncertain**] · {plain(row.prediction)}"
    accuracy = "" if pd.isna(row.accuracy) else f", {row.accuracy:.0%} right"
    return f"**{row.rule}** IF {conditions} → {outcome}  \n  n = {row.support}{accuracy}"


def rules_panel(model, X, y, key: tuple, names: list[str], full_model, base: str) -> None:
    """The rule list beside the diagram, then downloads of the rules, the SQL and Python.

    ``model`` is the drawn tree (a forest's member); ``full_model`` the fitted model the
    SQL and Python reproduce (the whole forest).
    """
    st.subheader("The tree as rules")
    simplify = st.toggle(
        "Simplify (C4.5)",
        key="rules_simplify",
        help="Drop conditions from each decided rule while C4.5's pessimistic error "
        "estimate (CF = 0.25) does not rise (Quinlan 1993). Simplified rules may overlap.",
    )
    frame, summary = rule_table(model, X, y, key, tuple(names), simplify)
    decided = frame[frame["verdict"] == 1]
    flagged = frame[frame["verdict"] == 0]
    accuracy = "–" if pd.isna(summary["accuracy"]) else f"{summary['accuracy']:.0%}"
    st.caption(
        f"{len(decided)} decided rules cover {summary['coverage']:.0%} of the training rows "
        f"({accuracy} right). A decided rule tests only values outside every zone; the "
        f"{len(flagged)} boundary-uncertain rules say where a row enters a zone. "
        + (
            "Simplified rules may overlap: a row takes the first that covers it."
            if simplify
            else "Each training row meets exactly one rule."
        )
    )
    with st.container(height=520, border=True):
        for row in frame.itertuples(index=False):
            st.markdown(_line(row))
    sql, python, why_no_sql = model_code(full_model, key, tuple(names))
    c1, c2, c3 = st.columns(3)
    c1.download_button(
        "Rules (CSV)",
        to_csv(frame.drop(columns="shown")).encode(),
        file_name=f"rules_{base}.csv",
        mime="text/csv",
        help="One row per rule: conditions, prediction, verdict, support, accuracy.",
    )
    if sql is not None:
        c2.download_button(
            "SQL query",
            sql.encode(),
            file_name=f"{base}.sql",
            mime="application/sql",
            help=f"One SELECT (SQLite, DuckDB) scoring every row of {SQL_TABLE}, a table "
            "whose columns are the model's features as named here: prediction, verdict and "
            "probabilities, exactly as the library. Replace the table name.",
        )
    else:
        c2.caption(plain(why_no_sql))
    if python is None:
        c3.caption("No Python function either, for the same reason.")
        return
    c3.download_button(
        "Python function",
        python.encode(),
        file_name=f"{base}.py",
        mime="text/x-python",
        help="predict_row(row) -> (prediction, verdict, probabilities), no import needed.",
    )
