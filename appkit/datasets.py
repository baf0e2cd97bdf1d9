"""The dataset every page uses: the sidebar picker, built-ins, uploads and OpenML.

Datasets are not hashed by value on every call; they travel unhashed next to a
stable key built once by `dataset_key`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import io
import re

import numpy as np
import pandas as pd
import streamlit as st

from appkit import uploads
from appkit.guard import capped, plain
from appkit.state import APP_ROWS, BOUNDS, DEFAULTS, shown
from appkit.vocabulary import USER_PREFIX
from ternary import data as tdata
from ternary.data import DataError, Dataset

__all__ = [
    "BUILTIN_NAMES",
    "current_dataset",
    "dataset_key",
    "dataset_sidebar",
    "dataset_summary",
    "load_openml_data",
    "load_user_data",
    "on_fetch_openml",
    "on_upload",
    "restore_upload",
    "upload_link",
    "upload_notice",
    "upload_columns",
    "upload_limit_mb",
    "use_user_dataset",
]

BUILTIN_NAMES = list(tdata.BUILTIN_DATASETS)


def dataset_key(ds: Dataset) -> tuple:
    """A stable, hashable identity of a dataset: name, source, shape, hash of the values."""
    h = hashlib.sha1()
    h.update(np.ascontiguousarray(ds.X.to_numpy(dtype=np.float64)).tobytes())
    h.update("\x1f".join(map(str, ds.X.columns)).encode())
    h.update("\x1f".join(map(str, ds.y)).encode())
    return (ds.name, ds.source, ds.X.shape, h.hexdigest())


# ----------------------------------------------------------------------------- built-ins
def _generator_defaults(name: str) -> dict:
    """The keyword arguments of built-in ``name``'s generator, with their defaults."""
    try:
        params = inspect.signature(tdata.BUILTIN_DATASETS[name]).parameters
    except (KeyError, TypeError, ValueError):
        return {}
    return {k: p.default for k, p in params.items()}


def builtin_options(name: str) -> dict:
    """The generator arguments the sidebar offers for built-in ``name`` (may be empty)."""
    params = _generator_defaults(name)
    return {k: k in params for k in ("n_samples", "noise", "random_state")}


@st.cache_data(show_spinner=False, max_entries=32)
def load_builtin(name: str, **kwargs) -> tuple[Dataset, tuple]:
    """A built-in dataset and its key, generated once per (name, arguments)."""
    ds = tdata.load_builtin(name, **kwargs)
    return ds, dataset_key(ds)


def builtin_kwargs(name: str, state=None) -> dict:
    """Generator arguments for ``name`` from the sidebar state."""
    s = st.session_state if state is None else state
    allowed = _generator_defaults(name)
    kwargs = {}
    if "n_samples" in allowed:
        kwargs["n_samples"] = int(s.get("n_samples", DEFAULTS["n_samples"]))
    if "noise" in allowed:
        kwargs["noise"] = float(s.get("noise", DEFAULTS["noise"]))
    if "random_state" in allowed:
        kwargs["random_state"] = int(s.get("data_seed", DEFAULTS["data_seed"]))
    return kwargs


@st.cache_data(show_spinner=False, max_entries=16)
def _standardized(_ds: Dataset, key: tuple) -> tuple[Dataset, tuple]:
    from sklearn.preprocessing import StandardScaler

    X = pd.DataFrame(
        StandardScaler().fit_transform(_ds.X), columns=_ds.X.columns, index=_ds.X.index
    )
    note = "Standardised every feature to mean 0 and variance 1 over all rows."
    scaled = dataclasses.replace(_ds, X=X, report=[*_ds.report, note])
    return scaled, dataset_key(scaled)


def standardized(ds: Dataset, key: tuple) -> tuple[Dataset, tuple]:
    """``ds`` with every feature scaled to mean 0 and variance 1 (scikit-learn's
    ``StandardScaler`` over all rows, as the paper's Fig. 1 script does), and its key."""
    return _standardized(ds, key)


def current_dataset() -> tuple[Dataset, tuple]:
    """The dataset chosen in the sidebar and its key (standardised when the setting says so)."""
    choice = st.session_state.get("dataset", DEFAULTS["dataset"])
    user = st.session_state.get("user_dataset")
    if isinstance(choice, str) and choice.startswith(USER_PREFIX) and user is not None:
        ds, key = user, st.session_state["user_dataset_key"]
    else:
        if choice not in BUILTIN_NAMES:
            choice = DEFAULTS["dataset"]
        ds, key = load_builtin(choice, **builtin_kwargs(choice))
    if st.session_state.get("standardize"):
        return standardized(ds, key)
    return ds, key


def dataset_choices() -> list[str]:
    """Built-in names, plus the uploaded dataset once there is one."""
    options = list(BUILTIN_NAMES)
    user = st.session_state.get("user_dataset")
    if user is not None:
        options.append(USER_PREFIX + user.name)
    return options


def generator_defaults(name: str) -> dict:
    """The sidebar's starting rows and noise for built-in ``name``."""
    params = _generator_defaults(name)
    out = {}
    if "n_samples" in params:
        rows = APP_ROWS.get(name, params["n_samples"])
        out["n_samples"] = int(rows if isinstance(rows, (int, np.integer)) else 500)
    if "noise" in params:
        try:
            out["noise"] = float(params["noise"])
        except (TypeError, ValueError):
            pass
    return out


def _on_dataset_change() -> None:
    # a generator's own default size differs per set; reset it when the set changes
    name = st.session_state.get("dataset")
    if name in BUILTIN_NAMES:
        st.session_state.update(generator_defaults(name))


def dataset_sidebar() -> None:
    """The dataset picker every page shares (drawn by app.py in the sidebar), and above the
    page the message of a link whose upload is gone (`upload_notice`)."""
    upload_notice()
    options = dataset_choices()
    if st.session_state.get("dataset") not in options:
        st.session_state["dataset"] = DEFAULTS["dataset"]
    if not shown("data"):
        return
    with st.sidebar:
        st.subheader("Dataset")
        if shown("dataset"):
            st.selectbox(
                "Dataset",
                options,
                format_func=capped,  # "Your data: <file name>", any length
                key="dataset",
                on_change=_on_dataset_change,
                label_visibility="collapsed",
                help="Every page works on this dataset. Built-ins need no download; upload "
                "your own CSV/ARFF (or fetch from OpenML) on the *Your data* page and it "
                "appears here as 'Your data: …'.",
            )
        _generator_controls(st.session_state["dataset"])


def _generator_controls(name: str) -> None:
    """The sliders of built-in ``name``'s generator (rows, noise, seed) that it takes."""
    opts = builtin_options(name) if name in BUILTIN_NAMES else {}
    if opts.get("n_samples") and shown("n_samples"):
        st.slider(
            "Rows",
            *BOUNDS["n_samples"],
            step=50,
            key="n_samples",
            help="How many points to generate. More rows: smoother regions, "
            "slower cross-validation.",
        )
    if opts.get("noise") and shown("noise"):
        st.slider(
            "Noise",
            0.0,
            BOUNDS["noise"][1] if name == "blobs" else 1.0,
            step=0.01,
            key="noise",
            help="Standard deviation of the Gaussian noise added to the points "
            "(for blobs: the spread of each blob). More noise, more overlap "
            "between the classes, wider uncertainty zones.",
        )
    if opts.get("random_state") and shown("data_seed"):
        st.number_input(
            "Data seed",
            *BOUNDS["data_seed"],
            step=1,
            key="data_seed",
            help="The same seed generates the same points.",
        )
    if shown("standardize"):
        st.checkbox(
            "Standardise features",
            key="standardize",
            help="Scale every feature to mean 0 and variance 1 over all rows "
            "(scikit-learn's StandardScaler), as the paper's Fig. 1 does. Trees split the "
            "same rows either way; only the axes and the numbers θ and δ change.",
        )


def dataset_summary(ds: Dataset) -> dict:
    """Rows, features, classes and Bayes error of ``ds`` as display strings."""
    return {
        "Rows": f"{ds.n_samples:,}",
        "Features": f"{ds.n_features:,}",
        "Classes": f"{ds.n_classes:,}",
        "Bayes error": "unknown" if ds.bayes_error is None else f"{ds.bayes_error:.3f}",
    }


# ----------------------------------------------------------------------------- your data
def upload_limit_mb() -> int:
    """The largest upload, in MB, that both Streamlit and the loaders accept."""
    server = int(st.get_option("server.maxUploadSize"))
    return min(server, tdata.MAX_FILE_BYTES // 2**20)


def upload_columns(data: bytes, filename: str) -> list[str]:
    """Column names of an uploaded CSV/ARFF, for the label picker ([] if unreadable).

    The names come from `ternary.data.read_header`, which picks the CSV or ARFF
    reader by the file name as the loader does, and decodes and parses the header
    exactly as the loader will. The real parsing and its error messages stay the
    loader's job, so an unreadable header only means no picker.
    """
    if head_text(data) is None:  # binary: the loader will say what it is
        return []
    return _header_names(data, filename)


def _header_names(data: bytes, filename: str) -> list[str]:
    upload = io.BytesIO(bytes(data))
    upload.name = filename
    try:
        return [str(c) for c in tdata.read_header(upload)]
    except DataError:
        return []


def load_user_data(
    data: bytes, filename: str, target=None, missing: str = "impute"
) -> tuple[Dataset | None, str | None]:
    """Load uploaded bytes with the project's loaders: ``(dataset, None)`` or ``(None, message)``.

    Never raises for a bad file: a `DataError` becomes its message, anything
    else a short description. The bytes are passed as a copy, never modified.
    """
    try:
        upload = io.BytesIO(bytes(data))
        upload.name = filename
        ds = tdata.load_file(upload, target=target, missing=missing)
        return ds, None
    except DataError as exc:
        return None, str(exc)
    except Exception as exc:  # noqa: BLE001 - a user's file must never crash the app
        return None, (
            f"Could not read {filename!r}: {type(exc).__name__}: {exc}. "
            "Check that it is a CSV (comma, semicolon or tab separated, header row) "
            "or an ARFF file."
        )


def load_openml_data(id_or_name: str, target=None) -> tuple[Dataset | None, str | None]:
    """Fetch an OpenML dataset by id or name: ``(dataset, None)`` or ``(None, message)``."""
    text = str(id_or_name).strip()
    if not text:
        return None, "Type an OpenML dataset id (e.g. 61) or name (e.g. iris)."
    # str.isdigit() accepts digits like '²' that int() rejects; only ASCII digits are an id
    key = int(text) if re.fullmatch(r"[0-9]+", text) else text
    try:
        return tdata.load_openml(key, target=target or None), None
    except DataError as exc:
        return None, str(exc)
    except Exception as exc:  # noqa: BLE001
        return None, f"Could not fetch {text!r} from OpenML: {type(exc).__name__}: {exc}"


def use_user_dataset(ds: Dataset) -> None:
    """Store ``ds`` as the session's own dataset and select it in the sidebar.

    Call from a widget callback (before the sidebar is drawn).
    """
    st.session_state["user_dataset"] = ds
    st.session_state["user_dataset_key"] = dataset_key(ds)
    st.session_state["dataset"] = USER_PREFIX + ds.name
    for key in ("feature_x", "feature_y"):
        st.session_state.pop(key, None)


def head_text(data: bytes, n_lines: int = 8, width: int = 200) -> str | None:
    """The first lines of an upload as text, or None when it does not look like text."""
    head = bytes(data[:20_000])
    if b"\x00" in head:
        return None
    text = head.decode("utf-8", errors="replace")
    if text.count("\ufffd") > max(5, len(text) // 50):
        return None
    return "\n".join(line[:width] for line in text.splitlines()[:n_lines])


def on_upload() -> None:
    """Callback of the upload widgets: (re)load the uploaded file with the chosen options.

    Runs before the script, so it may select the new dataset in the sidebar.
    """
    s = st.session_state
    upload = s.get("upload")
    if upload is None:  # the file was removed; keep what was loaded
        return
    data = upload.getvalue()
    name = str(upload.name)
    head = head_text(data)  # once: the error box shows it, and None means binary
    signature = (name, len(data), hashlib.sha1(data).hexdigest())
    if s.get("upload_signature") != signature:
        # a new file: new columns, and its last column as the default label
        s["upload_signature"] = signature
        columns = _header_names(data, name) if head is not None else []
        s["upload_columns"] = columns
        s["upload_target"] = columns[-1] if columns else None
    target = s.get("upload_target") or None
    missing = s.get("upload_missing", "impute")
    ds, error = load_user_data(data, name, target, missing)
    if ds is not None:  # what a script needs to read the file the same way
        s["upload_source"] = {"file": name, "target": target, "missing": missing}
        s["upload_key"] = _keep(data, name)
        s.pop("upload_gone", None)
    s["upload_head"] = head
    s["user_error"] = error
    if ds is not None:
        use_user_dataset(ds)


def on_fetch_openml() -> None:
    """Callback of the OpenML button."""
    s = st.session_state
    ds, error = load_openml_data(s.get("openml_query", ""), s.get("openml_target") or None)
    s["upload_head"] = None
    if ds is not None:
        s.pop("upload_source", None)
        s.pop("upload_key", None)
    s["user_error"] = error
    if ds is not None:
        use_user_dataset(ds)


# ----------------------------------------------------------------------------- kept uploads
#: the link's parameters of a kept upload: its key, file name, label column and gap policy
UPLOAD_PARAMS = ("upload", "upload_file", "upload_label", "upload_missing")


def _keep(data: bytes, name: str) -> str | None:
    """Store an upload on the server (`appkit.uploads`): its key, or None when the store
    cannot be written (the upload then lives in this session only)."""
    try:
        return uploads.default_store().put(data, name)
    except (OSError, ValueError):
        return None


def upload_link(s) -> dict[str, str]:
    """The link's parameters of the session's upload (none for a built-in or OpenML set)."""
    source = s.get("upload_source") or {}
    key = s.get("upload_key")
    if not source or not key:
        return {}
    params = {"upload": key, "upload_file": str(source.get("file", ""))}
    if source.get("target"):
        params["upload_label"] = str(source["target"])
    if source.get("missing", "impute") != "impute":
        params["upload_missing"] = str(source["missing"])
    return params


@st.cache_resource(show_spinner=False, max_entries=8)
def _load_kept(key: str, name: str, target, missing: str) -> tuple[Dataset | None, str | None]:
    """A kept upload loaded once per (key, options): every tab on its link shares it."""
    stored = uploads.default_store().get(key)
    if stored is None:
        return None, None
    return load_user_data(stored.data, stored.name or name, target, missing)


def _refit_label(upload: str, name: str, target, missing: str, error):
    """A kept upload that did not load because the link's label is not one of its columns,
    loaded again with its last column as the label (a fresh upload's default).

    Returns ``(dataset, error, target, note)``: the note names the link's label and the
    file's columns; ``dataset`` is None (and ``error`` the first one) otherwise.
    """
    stored = uploads.default_store().get(upload)
    if stored is None or target is None:
        return None, error, target, None
    columns = _header_names(stored.data, stored.name or name)
    if not columns or target in columns:
        return None, error, target, None
    ds, _ = _load_kept(upload, name, columns[-1], missing)
    if ds is None:
        return None, error, target, None
    note = (
        f"the link's label '{capped(str(target))}' is not a column of that file, "
        f"whose columns are {', '.join(capped(c) for c in columns)}. It is loaded with its "
        f"last column, '{capped(columns[-1])}', as the label; to choose another, upload the "
        "file again on the Your data page and pick it under Label column."
    )
    return ds, None, columns[-1], note


def restore_upload(s, params) -> list[str]:
    """Load the upload a link names into session ``s``, before any widget is drawn.

    ``params`` are the link's (`UPLOAD_PARAMS`). A key of the store loads the very bytes
    uploaded, with the link's label column and gap policy, and selects them. A key whose
    upload is gone (evicted, or another server's), or a link from before uploads were kept
    (``upload=<file name>``), sets ``s["upload_gone"]``: `upload_notice` says so on the
    page until dismissed. A kept upload whose link names a label that is not one of the
    file's columns (a hand-edited link) is loaded with its last column as the label, as a
    fresh upload is, and the notice names the file's columns instead; a kept upload that
    fails to load with the link's options says that, never that it is gone. Returns
    nothing to toast.
    """
    upload = str(params.get("upload", ""))
    name = str(params.get("upload_file", "") or ("" if uploads.is_key(upload) else upload))
    target = params.get("upload_label") or None
    missing = params.get("upload_missing") or "impute"
    if missing not in ("impute", "drop"):
        missing = "impute"
    ds, error, kept, note = (None, None, False, None)
    # asked of the store on every link, never only of the cache: an evicted upload is gone
    if uploads.is_key(upload) and uploads.default_store().has(upload):
        kept = True
        ds, error = _load_kept(upload, name, target, missing)
        if ds is None:
            ds, error, target, note = _refit_label(upload, name, target, missing, error)
    shown_name = capped(name or "the uploaded file")
    if ds is not None:
        s["upload_source"] = {"file": name or ds.name, "target": target, "missing": missing}
        s["upload_key"] = upload
        s["upload_target"], s["upload_missing"] = target, missing
        s["user_error"] = None
        s.pop("upload_gone", None)
        if note:
            s["upload_gone"] = f"This link names the uploaded file '{shown_name}': {note}"
        use_user_dataset(ds)
        return []
    if kept:  # the file is here; the link's options do not fit it
        s["upload_gone"] = (
            f"This link names the uploaded file '{shown_name}', which this server still "
            f"keeps, but loading it with the link's options failed: {error} Upload the file "
            "again on the Your data page to choose its label column and missing-value "
            f"policy. Until then the {s.get('dataset', DEFAULTS['dataset'])} dataset is shown."
        )
        return []
    s["upload_gone"] = (
        f"This link was made with the uploaded file '{shown_name}', which this server no "
        "longer keeps (uploads are kept for a limited time and space, the oldest removed "
        "first)." + (f" Loading it failed: {error}" if error else "") + " Upload the file "
        "again on the Your data page to continue with it: its new link works again. Until "
        f"then the {s.get('dataset', DEFAULTS['dataset'])} dataset is shown."
    )
    return []


def upload_notice() -> None:
    """The message of a link whose upload is gone, or whose label or options do not fit
    the kept upload, on every page until dismissed."""
    message = st.session_state.get("upload_gone")
    if not message:
        return
    with st.container(border=True):
        st.warning(plain(message), icon="⚠️")
        if st.button("Dismiss", key="dismiss_upload_gone"):
            st.session_state.pop("upload_gone", None)
            st.rerun()


def preview(ds: Dataset, n: int = 10) -> pd.DataFrame:
    """The first ``n`` rows of ``ds`` with their label, under the label column's own name."""
    table = ds.X.head(n).copy()
    name = ds.target or "label"  # the file's name for it, as the load report says
    table[name if name not in table.columns else f"{name} (label)"] = ds.y[:n]
    return table


def class_counts(ds: Dataset) -> pd.Series:
    """Rows per class, by the class's name."""
    return pd.Series(ds.y).astype(str).value_counts().sort_index()
