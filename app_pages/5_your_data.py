"""Your data: upload a CSV/ARFF file or fetch an OpenML dataset."""

import streamlit as st

from appkit import datasets, model, vocabulary, yourdata_view
from appkit.guard import page_guard, plain

st.title("Your data")
st.caption(
    "Upload a table with one row per case and a label column, or fetch a dataset from "
    "OpenML. Text columns are encoded, gaps filled or dropped, and every change is listed in "
    "the report. Once loaded, the dataset drives every page (sidebar: 'Your data: …'). Your "
    "file itself is never changed."
)

with page_guard("loading your data"):
    source = st.radio(
        "Source",
        ("Upload a file", "OpenML"),
        key="data_source",
        horizontal=True,
        help="A local CSV/TSV/ARFF file, or an OpenML dataset by id or name "
        "(needs internet the first time; cached afterwards).",
    )
    if source == "Upload a file":
        st.file_uploader(
            "CSV, TSV or ARFF file",
            type=["csv", "tsv", "txt", "arff"],
            key="upload",
            on_change=datasets.on_upload,
            help="A header row with column names, then one row per case. Comma, semicolon, "
            f"tab or pipe separated; or a Weka ARFF file. Up to {datasets.upload_limit_mb()} MB.",
        )
        has_file = st.session_state.get("upload") is not None
        columns = (st.session_state.get("upload_columns") or []) if has_file else []
        if columns:
            c1, c2 = st.columns(2)
            c1.selectbox(
                "Label column",
                columns,
                key="upload_target",
                on_change=datasets.on_upload,
                help="The column holding the class of each row; default the last "
                "one. All other columns become features.",
            )
            c2.selectbox(
                "Missing values",
                list(vocabulary.MISSING_POLICIES),
                key="upload_missing",
                format_func=vocabulary.MISSING_POLICIES.get,
                on_change=datasets.on_upload,
                help="Fill gaps in a number column with its median (plus a 0/1 gap "
                "column where 5 % or more of its rows are gaps); a gap in a text column "
                "is a level of its own, '(missing)'. Or drop every row with a gap. Rows "
                "without a label are always dropped.",
            )
    else:
        c1, c2 = st.columns([2, 1])
        c1.text_input(
            "OpenML dataset id or name",
            key="openml_query",
            placeholder="e.g. 37 or diabetes",
            help="The numeric id from openml.org/d/<id>, or the dataset's name.",
        )
        c2.text_input(
            "Label column (optional)",
            key="openml_target",
            help="Leave empty for the dataset's default target.",
        )
        st.button(
            "Fetch from OpenML",
            on_click=datasets.on_fetch_openml,
            type="primary",
            help="Download (or read from the local cache) and load the dataset.",
        )

    error = st.session_state.get("user_error")
    if error:
        st.error(plain(error), icon="⚠️")
        raw = st.session_state.get("upload_head")
        if raw:
            with st.expander("The first lines of your file, as received"):
                st.code(raw, language="text")

    ds = st.session_state.get("user_dataset")
    if ds is not None:
        selected = st.session_state.get("dataset") == vocabulary.USER_PREFIX + ds.name
        st.success(
            f"Loaded **{plain(ds.name)}**: {ds.n_samples:,} rows, {ds.n_features:,} features, "
            f"{ds.n_classes} classes."
            + (
                " It is now the dataset of every page."
                if selected
                else " Pick it in the sidebar to use it."
            )
        )
        for line in ds.warnings:  # outside the details: a column mostly imputed, say
            st.warning(plain(line), icon="⚠️")
        with st.expander("What loading did", expanded=True):
            st.markdown("\n".join(f"- {plain(line)}" for line in ds.report) or "Nothing to report.")
        st.subheader("First rows")
        st.dataframe(datasets.preview(ds, 20), hide_index=True, width="stretch")
        model.model_sidebar(split=False, forest=True)
        problem = model.forest_problem()
        if problem:
            st.info(problem, icon="ℹ️")
            st.stop()
        pipe = yourdata_view.cases_section(ds, st.session_state["user_dataset_key"])
        if pipe is not None:
            yourdata_view.score_section(ds, pipe)
            yourdata_view.export_section(ds, pipe, st.session_state["user_dataset_key"])
    elif not error:
        st.info("No dataset loaded yet. The built-in datasets in the sidebar work meanwhile.")
