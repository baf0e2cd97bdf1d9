"""Shared state, sidebar controls and cached wrappers of the Streamlit app.

The pages stay thin: they read widgets, call the functions here (which call
`ternary` and `viz`) and render what comes back. Everything that costs time is
cached: datasets and result tables with ``st.cache_data`` (callers get copies),
fitted models and figures with ``st.cache_resource`` (shared; pages never
modify them). Datasets are not hashed by value on every call; they travel as
``_ds`` (unhashed) next to a stable key built once by `dataset_key`.

Widget state that several pages share lives under the keys in `SHARED_KEYS`;
`init_state` gives them their defaults and `keep_state` stops Streamlit from
dropping a value when its widget is not drawn on the current page.
"""

from __future__ import annotations

import hashlib
import inspect
import io
import re
import threading
import traceback
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st
from sklearn.model_selection import StratifiedKFold, train_test_split

import viz
from ternary import TernaryTreeClassifier, metrics
from ternary import data as tdata
from ternary.data import DataError, Dataset
from viz.labels import format_number

__all__ = [
    "BUILTIN_NAMES",
    "DEFAULTS",
    "METHOD_HELP",
    "PAPER_CC18_MEANS",
    "USER_PREFIX",
    "current_dataset",
    "dataset_key",
    "init_state",
    "keep_state",
    "load_user_data",
    "page_guard",
]

REPO = Path(__file__).resolve().parent
SHARED = REPO.parent / "shared"

# ----------------------------------------------------------------------------- vocabulary
BUILTIN_NAMES = list(tdata.BUILTIN_DATASETS)
USER_PREFIX = "Your data: "

DELTA_METHODS = (
    "margin",
    "node_bootstrap",
    "quality_plateau",
    "gain_ratio",
    "class_overlap",
    "none",
)
ROUTINGS = ("probabilistic", "deferred", "hard_middle")
METHOD_LABELS = {
    "margin": "margin (recommended)",
    "node_bootstrap": "node bootstrap",
    "quality_plateau": "quality plateau",
    "gain_ratio": "gain ratio",
    "class_overlap": "class overlap",
    "none": "none (plain CART)",
}
METHOD_HELP = (
    "How the half-width δ of each split's uncertainty zone is computed, from the training rows "
    "that reach the node. **margin**: distance to the nearest training row of another class "
    "across θ, no parameter (the paper's recommendation). **node bootstrap**: spread of θ over "
    "B resamples of the node. **quality plateau**: width of the thresholds whose split quality "
    "is within ε of the best. **gain ratio**: α times the split entropy over the gain. "
    "**class overlap**: overlap of the classes' q…1−q percentile bands. **none**: δ = 0, CART."
)
ROUTING_LABELS = {
    "probabilistic": "probabilistic (blend both children)",
    "deferred": "deferred",
    "hard_middle": "hard middle (third branch)",
}
ROUTING_HELP = (
    "What happens to a row inside a zone. **probabilistic**: it goes down both children and "
    "their predictions are blended by distance to θ. **deferred**: as probabilistic, with the "
    "blend deferred to the leaves. **hard middle**: the zone gets its own middle subtree, "
    "grown on the training rows inside it. Every row gets a class either way; rows that touched "
    "a zone are flagged boundary-uncertain."
)
#: the one extra parameter each δ method has
METHOD_PARAM = {
    "quality_plateau": "epsilon",
    "gain_ratio": "alpha",
    "class_overlap": "q",
    "node_bootstrap": "n_bootstraps",
}

#: the paper's Table 5 (Smits 2026): OpenML-CC18 means over 71 datasets, 5-fold CV,
#: depth 4. Used when ../shared/paper_tables/smits_table5_cc18_means.csv is absent.
PAPER_CC18_MEANS = pd.DataFrame(
    [
        ("class_overlap", "probabilistic", 0.7624, 0.712),
        ("gain_ratio", "probabilistic", 0.7562, 0.584),
        ("node_bootstrap", "hard_middle", 0.7458, 0.177),
        ("node_bootstrap", "probabilistic", 0.7455, 0.323),
        ("margin", "probabilistic", 0.7426, 0.168),
        ("quality_plateau", "probabilistic", 0.7361, 0.174),
        ("none", "cart", 0.7247, 0.000),
        ("margin", "hard_middle", 0.7229, 0.097),
        ("quality_plateau", "hard_middle", 0.7148, 0.109),
        ("gain_ratio", "hard_middle", 0.7032, 0.269),
        ("class_overlap", "hard_middle", 0.6788, 0.323),
    ],
    columns=["delta_method", "routing", "decided_accuracy", "uncertain_rate"],
)

# ----------------------------------------------------------------------------- state
DEFAULTS = {
    "dataset": tdata.DEFAULT_DATASET,
    "n_samples": 500,
    "noise": 0.3,
    "data_seed": 0,
    "delta_method": "margin",
    "routing": "probabilistic",
    "epsilon": 0.05,
    "alpha": 0.10,
    "q": 0.10,
    "n_bootstraps": 20,
    "delta_scale": 1.0,
    "max_depth": 4,
    "graft": "none",
    "test_size": 0.3,
    "seed": 0,
    "tree_features": "all features",
    "graft_mode": "all",
    "graft_alpha": 0.05,
    "ccp_alpha": 0.0,
    "graft_max_depth": 4,
    "graft_features": "the two plotted features",
    "cv_folds": 5,
    "cv_max_depth": 4,
    "cv_seed": 42,
    "show_paper": False,
    "upload_missing": "impute",
}
#: keys whose widgets are drawn on some pages only, kept alive across pages
SHARED_KEYS = tuple(DEFAULTS) + ("feature_x", "feature_y")
#: rows the app generates by default for the larger synthetic sets (their
#: generators default to thousands of rows; 1,000 keeps every page instant)
APP_ROWS = {"twonorm": 1000, "ringnorm": 1000, "waveform": 1000}


def init_state() -> None:
    """Give every shared key its default, once per session."""
    for key, value in DEFAULTS.items():
        if key not in st.session_state:
            st.session_state[key] = value


def keep_state() -> None:
    """Keep shared widget values when their widgets are not drawn on this page.

    Streamlit forgets a widget's value on a run where the widget is not drawn;
    writing the value back as plain session state keeps it (the documented
    pattern for sharing widgets between pages).
    """
    for key in SHARED_KEYS:
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]


@contextmanager
def page_guard(what: str = "drawing this page"):
    """Show problems as a readable message instead of a traceback.

    A `DataError` (a problem with the data) is shown as its own message. Any
    other exception becomes a short apology plus an expander with the details
    for a bug report. Streamlit's own control flow (st.stop, st.rerun) derives
    from BaseException and passes through.
    """
    try:
        yield
    except DataError as exc:
        st.error(str(exc), icon="⚠️")
    except Exception as exc:  # noqa: BLE001 - the point is to catch everything
        st.error(
            f"Something went wrong while {what}: {exc}\n\nTry other settings or another "
            "dataset; the details below help if you report it.",
            icon="⚠️",
        )
        with st.expander("Details"):
            st.code(traceback.format_exc(), language="text")


# ----------------------------------------------------------------------------- datasets
def dataset_key(ds: Dataset) -> tuple:
    """A stable, hashable identity of a dataset: name, source, shape, hash of the values."""
    h = hashlib.sha1()
    h.update(np.ascontiguousarray(ds.X.to_numpy(dtype=np.float64)).tobytes())
    h.update("\x1f".join(map(str, ds.X.columns)).encode())
    h.update("\x1f".join(map(str, ds.y)).encode())
    return (ds.name, ds.source, ds.X.shape, h.hexdigest())


def _generator_kwargs(name: str) -> set[str]:
    try:
        return set(inspect.signature(tdata.BUILTIN_DATASETS[name]).parameters)
    except (KeyError, TypeError, ValueError):
        return set()


def builtin_options(name: str) -> dict:
    """The generator arguments the sidebar offers for built-in ``name`` (may be empty)."""
    params = _generator_kwargs(name)
    return {k: k in params for k in ("n_samples", "noise", "random_state")}


@st.cache_data(show_spinner=False, max_entries=32)
def load_builtin(name: str, **kwargs) -> tuple[Dataset, tuple]:
    """A built-in dataset and its key, generated once per (name, arguments)."""
    ds = tdata.load_builtin(name, **kwargs)
    return ds, dataset_key(ds)


def builtin_kwargs(name: str) -> dict:
    """Generator arguments for ``name`` from the sidebar state."""
    allowed = _generator_kwargs(name)
    kwargs = {}
    if "n_samples" in allowed:
        kwargs["n_samples"] = int(st.session_state.get("n_samples", 500))
    if "noise" in allowed:
        kwargs["noise"] = float(st.session_state.get("noise", 0.3))
    if "random_state" in allowed:
        kwargs["random_state"] = int(st.session_state.get("data_seed", 0))
    return kwargs


def current_dataset() -> tuple[Dataset, tuple]:
    """The dataset chosen in the sidebar and its key."""
    choice = st.session_state.get("dataset", DEFAULTS["dataset"])
    user = st.session_state.get("user_dataset")
    if isinstance(choice, str) and choice.startswith(USER_PREFIX) and user is not None:
        return user, st.session_state["user_dataset_key"]
    if choice not in BUILTIN_NAMES:
        choice = DEFAULTS["dataset"]
    return load_builtin(choice, **builtin_kwargs(choice))


def dataset_choices() -> list[str]:
    """Built-in names, plus the uploaded dataset once there is one."""
    options = list(BUILTIN_NAMES)
    user = st.session_state.get("user_dataset")
    if user is not None:
        options.append(USER_PREFIX + user.name)
    return options


def _on_dataset_change() -> None:
    # a generator's own default size differs per set; reset it when the set changes
    name = st.session_state.get("dataset")
    if name in BUILTIN_NAMES:
        default_rows = APP_ROWS.get(name)
        if default_rows is None:
            try:
                default_rows = (
                    inspect.signature(tdata.BUILTIN_DATASETS[name]).parameters["n_samples"].default
                )
            except (KeyError, TypeError, ValueError):
                default_rows = 500
        st.session_state["n_samples"] = int(default_rows)
        noise = _default_noise(name)
        if noise is not None:
            st.session_state["noise"] = noise


def _default_noise(name: str) -> float | None:
    try:
        return float(inspect.signature(tdata.BUILTIN_DATASETS[name]).parameters["noise"].default)
    except (KeyError, TypeError, ValueError):
        return None


def dataset_sidebar() -> None:
    """The dataset picker every page shares (drawn by app.py in the sidebar)."""
    options = dataset_choices()
    if st.session_state.get("dataset") not in options:
        st.session_state["dataset"] = DEFAULTS["dataset"]
    with st.sidebar:
        st.subheader("Dataset")
        st.selectbox(
            "Dataset",
            options,
            key="dataset",
            on_change=_on_dataset_change,
            label_visibility="collapsed",
            help="Every page works on this dataset. Built-ins need no download; upload your "
            "own CSV/ARFF (or fetch from OpenML) on the *Your data* page and it appears "
            "here as 'Your data: …'.",
        )
        name = st.session_state["dataset"]
        opts = builtin_options(name) if name in BUILTIN_NAMES else {}
        if opts.get("n_samples"):
            st.slider(
                "Rows",
                100,
                5000,
                step=100,
                key="n_samples",
                help="How many points to generate. More rows: smoother regions, "
                "slower cross-validation.",
            )
        if opts.get("noise"):
            st.slider(
                "Noise",
                0.0,
                3.0 if name == "blobs" else 1.0,
                step=0.05,
                key="noise",
                help="Standard deviation of the Gaussian noise added to the points "
                "(for blobs: the spread of each blob). More noise, more overlap "
                "between the classes, wider uncertainty zones.",
            )
        if opts.get("random_state"):
            st.number_input(
                "Data seed",
                0,
                10_000,
                step=1,
                key="data_seed",
                help="The same seed generates the same points.",
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
MISSING_POLICIES = {"impute": "fill in (median / most frequent)", "drop": "drop rows with gaps"}


def peek_columns(data: bytes, filename: str) -> list[str]:
    """Column names of an uploaded CSV/ARFF, for the target picker ([] if unreadable).

    Reads only the header; the real parsing (and its error messages) is the
    loader's job.
    """
    try:
        if _head_text(data) is None:  # binary: the loader will say what it is
            return []
        head = bytes(data[:200_000]).decode("utf-8", errors="replace")
        if filename.lower().endswith(".arff"):
            names = []
            for line in head.splitlines():
                m = re.match(r"\s*@attribute\s+('([^']*)'|\"([^\"]*)\"|(\S+))", line, re.I)
                if m:
                    names.append(m.group(2) or m.group(3) or m.group(4))
                elif re.match(r"\s*@data", line, re.I):
                    break
            return names
        first = next((ln for ln in head.splitlines() if ln.strip()), "")
        counts = {sep: first.count(sep) for sep in (",", ";", "\t", "|")}
        sep = max(counts, key=counts.get)
        if counts[sep] == 0:
            return [first.strip()] if first.strip() else []
        frame = pd.read_csv(io.StringIO(first + "\n"), sep=sep, nrows=0)
        return [str(c) for c in frame.columns]
    except Exception:  # noqa: BLE001 - a header we cannot read just means no picker
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
    key = int(text) if text.isdigit() else text
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


def _head_text(data: bytes, n_lines: int = 8, width: int = 200) -> str | None:
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
    signature = (name, len(data), hashlib.sha1(data).hexdigest())
    if s.get("upload_signature") != signature:
        # a new file: new columns, and its last column as the default label
        s["upload_signature"] = signature
        columns = peek_columns(data, name)
        s["upload_columns"] = columns
        s["upload_target"] = columns[-1] if columns else None
    target = s.get("upload_target") or None
    ds, error = load_user_data(data, name, target, s.get("upload_missing", "impute"))
    s["upload_head"] = _head_text(data)
    s["user_error"] = error
    if ds is not None:
        use_user_dataset(ds)


def on_fetch_openml() -> None:
    """Callback of the OpenML button."""
    s = st.session_state
    ds, error = load_openml_data(s.get("openml_query", ""), s.get("openml_target") or None)
    s["upload_head"] = None
    s["user_error"] = error
    if ds is not None:
        use_user_dataset(ds)


# ----------------------------------------------------------------------------- model settings
def model_sidebar(*, split: bool = True) -> None:
    """The model settings pages 1 and 2 share, in the sidebar.

    Each method's own parameter slider is drawn only while that method is chosen.
    """
    with st.sidebar:
        st.subheader("Model")
        method = st.selectbox(
            "δ method",
            DELTA_METHODS,
            key="delta_method",
            format_func=METHOD_LABELS.get,
            help=METHOD_HELP,
        )
        routing = st.selectbox(
            "Routing", ROUTINGS, key="routing", format_func=ROUTING_LABELS.get, help=ROUTING_HELP
        )
        if method == "quality_plateau":
            st.slider(
                "ε (plateau tolerance)",
                0.0,
                0.5,
                step=0.01,
                key="epsilon",
                help="Quality plateau: thresholds whose split quality is within ε "
                "(relative) of the best one form the zone. Larger ε, wider zones.",
            )
        elif method == "gain_ratio":
            st.slider(
                "α (gain-ratio scale)",
                0.0,
                1.0,
                step=0.01,
                key="alpha",
                help="Gain ratio: δ grows with α and with how weak the split's gain is "
                "relative to its split entropy.",
            )
        elif method == "class_overlap":
            st.slider(
                "q (overlap percentile)",
                0.0,
                0.5,
                step=0.01,
                key="q",
                help="Class overlap: each class's q…1−q percentile band of the split "
                "feature; the zone covers where bands of different classes overlap.",
            )
        elif method == "node_bootstrap":
            st.slider(
                "B (bootstrap resamples)",
                2,
                100,
                step=1,
                key="n_bootstraps",
                help="Node bootstrap: θ is re-found on B resamples of the node's rows; "
                "δ is the spread of those thresholds. More B, steadier δ, slower.",
            )
        st.slider(
            "δ scale",
            0.0,
            3.0,
            step=0.05,
            key="delta_scale",
            help="Multiplies every δ after it is computed: 0 turns the zones off "
            "(plain CART), 2 doubles their width.",
        )
        st.slider(
            "Max depth", 1, 12, step=1, key="max_depth", help="Depth of the tree. The paper uses 4."
        )
        hard = routing == "hard_middle"
        st.radio(
            "Grafting (Webb 1997)",
            ("none", "one", "all"),
            key="graft",
            horizontal=True,
            disabled=hard,
            help="After growing, add leaves where evidence from ancestor nodes says a "
            "region is labelled wrongly: 'one' graft per leaf or 'all' supported "
            "grafts. See the Grafting page.",
        )
        if hard:
            st.caption(
                "Grafting is off for hard-middle routing: it judges new binary splits "
                "on CART's training partition, which the middle branches change."
            )
        if split:
            st.slider(
                "Test fraction",
                0.1,
                0.5,
                step=0.05,
                key="test_size",
                help="Share of the rows held out (stratified) to measure the metrics; "
                "the tree is fitted on the rest.",
            )
            st.number_input(
                "Split seed",
                0,
                10_000,
                step=1,
                key="seed",
                help="Seed of the train/test split and of the tree (feature "
                "order, bootstrap). Same seed, same result.",
            )


def model_params(state=None) -> dict:
    """Estimator keyword arguments from the shared model settings.

    ``state`` defaults to ``st.session_state``; pass `DEFAULTS` for the defaults.
    """
    s = st.session_state if state is None else state
    routing = s.get("routing", DEFAULTS["routing"])
    return {
        "delta_method": s.get("delta_method", DEFAULTS["delta_method"]),
        "routing": routing,
        "max_depth": int(s.get("max_depth", DEFAULTS["max_depth"])),
        "epsilon": float(s.get("epsilon", DEFAULTS["epsilon"])),
        "alpha": float(s.get("alpha", DEFAULTS["alpha"])),
        "q": float(s.get("q", DEFAULTS["q"])),
        "n_bootstraps": int(s.get("n_bootstraps", DEFAULTS["n_bootstraps"])),
        "delta_scale": float(s.get("delta_scale", DEFAULTS["delta_scale"])),
        "graft": "none" if routing == "hard_middle" else s.get("graft", "none"),
        "random_state": int(s.get("seed", DEFAULTS["seed"])),
    }


def feature_pickers(ds: Dataset, *, where=None) -> list[str]:
    """Two distinct feature pickers (the first two features preselected)."""
    names = ds.feature_names
    if len(names) < 2:
        raise DataError(f"{ds.name!r} has {len(names)} feature; the region plot needs two.")
    for key, default in (("feature_x", names[0]), ("feature_y", names[1])):
        if st.session_state.get(key) not in names:
            st.session_state[key] = default
    where = where or st.sidebar
    with where:
        st.subheader("Plotted features")
        fx = st.selectbox(
            "Horizontal axis",
            names,
            key="feature_x",
            help="The model on this page is fitted on the two plotted features "
            "only, so its regions can be drawn exactly.",
        )
        fy = st.selectbox(
            "Vertical axis",
            names,
            key="feature_y",
            help="Pick a different feature from the horizontal axis.",
        )
    if fx == fy:
        other = next(n for n in names if n != fx)
        st.warning(f"Both axes show {fx!r}; using {other!r} on the vertical axis.")
        fy = other
    return [fx, fy]


# ----------------------------------------------------------------------------- fitting
@dataclass(frozen=True)
class Split:
    X_train: pd.DataFrame
    X_test: pd.DataFrame
    y_train: np.ndarray
    y_test: np.ndarray


def split_data(ds: Dataset, features: list[str] | None, test_size: float, seed: int) -> Split:
    """Stratified train/test split of ``ds`` (restricted to ``features`` when given)."""
    X = ds.X if features is None else ds.X[list(features)]
    _, counts = np.unique(ds.y, return_counts=True)
    n_test = int(np.ceil(test_size * len(ds.y)))
    stratify = ds.y if counts.min() >= 2 and n_test >= len(counts) else None
    X_train, X_test, y_train, y_test = train_test_split(
        X, ds.y, test_size=test_size, random_state=seed, stratify=stratify
    )
    return Split(X_train, X_test, np.asarray(y_train), np.asarray(y_test))


@st.cache_resource(show_spinner=False, max_entries=128)
def fit_tree(
    _X: pd.DataFrame, _y: np.ndarray, data_key: tuple, params: tuple
) -> TernaryTreeClassifier:
    """A fitted tree, shared across reruns for the same data key and parameters."""
    return TernaryTreeClassifier(**dict(params)).fit(_X, _y)


def cart_params(params: dict) -> dict:
    """The CART baseline of ``params``: same depth and seed, no δ, no grafting."""
    return {
        "delta_method": "none",
        "routing": "probabilistic",
        "max_depth": params["max_depth"],
        "random_state": params["random_state"],
    }


def _items(params: dict) -> tuple:
    return tuple(sorted(params.items()))


def model_key(params: dict) -> tuple:
    """A hashable identity of estimator parameters (ignoring other methods' parameters)."""
    return _items(_canonical(params))


def _canonical(params: dict) -> dict:
    # parameters a method ignores must not split the cache
    out = dict(params)
    own = METHOD_PARAM.get(out.get("delta_method"))
    for key in METHOD_PARAM.values():
        if key != own and key in out:
            out.pop(key)
    return out


@dataclass
class RegionsResult:
    """Everything the decision-regions page shows for one setting."""

    model: TernaryTreeClassifier
    cart: TernaryTreeClassifier
    split: Split
    figure: object
    metrics: dict
    flagged: pd.DataFrame


def fit_pair(ds: Dataset, key: tuple, features, params: dict, test_size: float, seed: int):
    """(split, ternary model, CART baseline), fitted on the training rows."""
    sp = split_data(ds, features, test_size, seed)
    data_key = (key, tuple(features) if features else None, float(test_size), int(seed))
    model = fit_tree(sp.X_train, sp.y_train, data_key, _items(_canonical(params)))
    cart = fit_tree(sp.X_train, sp.y_train, data_key, _items(cart_params(params)))
    return sp, model, cart


def test_metrics(model, cart, sp: Split) -> dict:
    """The page's metric cards, measured on the held-out rows."""
    pred, verdict = model.predict_with_verdict(sp.X_test)
    cart_pred = cart.predict(sp.X_test)
    dec = metrics.decided_accuracy(sp.y_test, pred, verdict)
    unc = metrics.uncertain_rate(verdict)
    cart_acc = float(np.mean(cart_pred == sp.y_test))
    return {
        "decided_accuracy": dec,
        "uncertain_rate": unc,
        "accuracy": float(np.mean(pred == sp.y_test)),
        "cart_accuracy": cart_acc,
        "efficiency": metrics.efficiency(dec, cart_acc, unc),
        "n_test": int(len(sp.y_test)),
        "n_flagged": int(np.sum(verdict == 0)),
    }


def flagged_table(model, sp: Split) -> pd.DataFrame:
    """Held-out rows flagged boundary-uncertain: features, prediction, probabilities, truth."""
    proba, verdict = model.predict_proba_verdict(sp.X_test)
    pred = model.classes_[np.argmax(proba, axis=1)]
    mask = verdict == 0
    table = sp.X_test.loc[mask].copy()
    table.insert(0, "row", table.index)
    table["predicted"] = pred[mask]
    for k, cls in enumerate(model.classes_):
        table[f"P({cls})"] = np.round(proba[mask, k], 4)
    table["true"] = sp.y_test[mask]
    table["correct"] = table["predicted"] == table["true"]
    return table.reset_index(drop=True)


@st.cache_resource(show_spinner=False, max_entries=64)
def regions_figure(_model, _cart, _X, _y, figure_key: tuple):
    """Decision regions of the ternary model with CART beside, cached per setting.

    The points drawn are the held-out rows, so the panel titles and the page's
    metric cards measure the same thing.
    """
    return viz.decision_regions_figure(_model, _X, _y, cart_model=_cart)


def regions_result(
    ds: Dataset, key: tuple, features: list[str], params: dict, test_size: float, seed: int
) -> RegionsResult:
    """Fit (cached), measure and draw one decision-regions setting."""
    sp, model, cart = fit_pair(ds, key, features, params, test_size, seed)
    figure_key = (key, tuple(features), float(test_size), int(seed), _items(_canonical(params)))
    fig = regions_figure(model, cart, sp.X_test, sp.y_test, figure_key)
    return RegionsResult(
        model, cart, sp, fig, test_metrics(model, cart, sp), flagged_table(model, sp)
    )


# ----------------------------------------------------------------------------- tree diagram
def internal_nodes(model) -> list[int]:
    tree = model.tree_
    return [int(n) for n in tree.preorder() if not tree.is_leaf[n]]


def node_caption(model, node: int, feature_names: list[str]) -> str:
    tree = model.tree_
    f = int(tree.feature[node])
    name = feature_names[f] if 0 <= f < len(feature_names) else f"x[{f}]"
    return (
        f"node {node}: {name} ≤ {format_number(tree.threshold[node])}"
        f"  (δ = {format_number(tree.delta[node])}, "
        f"n = {int(tree.n_node_samples[node])})"
    )


@st.cache_data(show_spinner=False, max_entries=64)
def tree_dot(
    _model, model_key: tuple, feature_names: tuple, class_names: tuple, highlight: int | None = None
) -> str:
    return viz.tree_dot(
        _model,
        feature_names=list(feature_names),
        class_names=list(class_names),
        highlight_node=highlight,
    )


@st.cache_data(show_spinner=False, max_entries=32)
def tree_svg(dot: str) -> bytes | None:
    return viz.tree_svg(dot)


@st.cache_resource(show_spinner=False, max_entries=64)
def node_explanation(_model, _X, _y, model_key: tuple, node: int):
    """What every δ method sees at ``node`` (`ternary.explain.explain_node`), cached."""
    from ternary.explain import explain_node

    return explain_node(_model, _X, _y, int(node))


@st.cache_resource(show_spinner=False, max_entries=128)
def node_figure(_model, _X, _y, model_key: tuple, node: int, method: str):
    """Node inspector figure for ``node``, drawn with ``method``'s view of the zone."""
    explanation = node_explanation(_model, _X, _y, model_key, node)
    return viz.node_inspector_figure(explanation, method=method)


# ----------------------------------------------------------------------------- experiments
def paper_cc18_means() -> pd.DataFrame:
    """Table 5 of Smits (2026), from ../shared when present, else the embedded copy."""
    path = SHARED / "paper_tables" / "smits_table5_cc18_means.csv"
    if path.is_file():
        try:
            return pd.read_csv(path)
        except (OSError, ValueError):
            pass
    return PAPER_CC18_MEANS.copy()


@st.cache_resource(show_spinner=False)
def _result_store() -> tuple[OrderedDict, threading.Lock]:
    """Result tables of the long runs, shared by all sessions (most recent last).

    The long runs report progress to a bar on the page, and Streamlit cannot
    replay page elements touched from inside an ``st.cache_data`` function; so
    they are cached here by hand, keyed like ``st.cache_data`` would key them.
    """
    return OrderedDict(), threading.Lock()


_STORE_SIZE = 32


def _stored(key: tuple, compute) -> pd.DataFrame:
    store, lock = _result_store()
    with lock:
        if key in store:
            store.move_to_end(key)
            return store[key].copy()
    result = compute()  # outside the lock: other sessions keep reading meanwhile
    with lock:
        store[key] = result
        while len(store) > _STORE_SIZE:
            store.popitem(last=False)
    return result.copy()


def cv_results(
    ds: Dataset, key: tuple, cv: int, max_depth: int, seed: int, progress=None
) -> pd.DataFrame:
    """The paper's 11 (δ method, routing) combinations, ``cv``-fold, on the whole dataset.

    Cached per (dataset key, cv, max_depth, seed); ``progress(done, total, message)``
    is called during a fresh run only.
    """
    from ternary import experiment

    return _stored(
        ("cv", key, int(cv), int(max_depth), int(seed)),
        lambda: experiment.run_cv(
            ds.X, ds.y, cv=cv, max_depth=max_depth, seed=seed, progress=progress
        ),
    )


@st.cache_data(show_spinner=False, max_entries=16)
def chow_curve(_ds: Dataset, key: tuple, cv: int, max_depth: int, seed: int) -> pd.DataFrame:
    """CART's accuracy-coverage curve under Chow's reject rule, on the same folds."""
    from ternary import experiment

    return experiment.chow_curve_cv(_ds.X, _ds.y, cv=cv, max_depth=max_depth, seed=seed)


def cv_problem(ds: Dataset, folds: int) -> str | None:
    """Why ``folds``-fold stratified CV cannot run on ``ds`` (a class too small), or None."""
    from ternary.experiment import classes_too_small

    small = [(str(lab), n) for lab, n in classes_too_small(ds.y, folds)]
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
    from ternary import experiment

    return experiment.summarize(results, bayes_error=bayes_error)


#: sweepable parameters: label, range of the slider, default range
SWEEP_PARAMS = {
    "epsilon": ("ε (quality plateau)", (0.0, 0.5), (0.0, 0.2)),
    "alpha": ("α (gain ratio)", (0.0, 1.0), (0.0, 0.3)),
    "q": ("q (class overlap)", (0.0, 0.5), (0.0, 0.3)),
    "delta_scale": ("δ scale", (0.0, 3.0), (0.0, 2.0)),
}


def sweep_choices(method: str) -> list[str]:
    """Parameters worth sweeping for ``method``: its own (ε, α or q), then δ scale."""
    own = METHOD_PARAM.get(method)
    return ([own] if own in SWEEP_PARAMS else []) + ["delta_scale"]


def sweep_values(low: float, high: float, steps: int) -> tuple[float, ...]:
    return tuple(float(v) for v in np.round(np.linspace(low, high, int(steps)), 4))


def sweep_results(
    ds: Dataset,
    key: tuple,
    method: str,
    routing: str,
    param: str,
    values: tuple,
    cv: int,
    max_depth: int,
    seed: int,
    progress=None,
) -> pd.DataFrame:
    """One (method, routing) combination cross-validated at each value of ``param`` (cached)."""
    from ternary import experiment

    combos = [{"delta_method": method, "routing": routing, param: value} for value in values]
    return _stored(
        ("sweep", key, method, routing, param, tuple(values), int(cv), int(max_depth), int(seed)),
        lambda: experiment.run_cv(
            ds.X, ds.y, combos=combos, cv=cv, max_depth=max_depth, seed=seed, progress=progress
        ),
    )


def sweep_trace(summary: pd.DataFrame, param: str) -> pd.DataFrame:
    """The sweep's operating points in the layout `viz.accuracy_coverage_figure` draws."""
    return pd.DataFrame(
        {
            "param": param,
            "value": summary[param].astype(float),
            "delta_method": summary["delta_method"],
            "routing": summary["routing"],
            "uncertain_rate": summary["uncertain_rate"],
            "decided_accuracy": summary["decided_accuracy"],
        }
    )


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
    summary: pd.DataFrame, baseline: float, chow=None, paper=None, sweep=None, title=None
):
    return viz.accuracy_coverage_figure(
        summary,
        baseline_accuracy=baseline,
        chow_curve=chow,
        paper_means=paper,
        sweep=sweep,
        title=title,
    )


# ----------------------------------------------------------------------------- grafting
@st.cache_data(show_spinner=False, max_entries=32)
def cv_accuracy(
    _X: pd.DataFrame, _y: np.ndarray, data_key: tuple, params: tuple, cv: int = 5
) -> float:
    """Mean ``cv``-fold accuracy of a tree with ``params`` (stratified, seeded)."""
    params = dict(params)
    folds = StratifiedKFold(n_splits=cv, shuffle=True, random_state=params.get("random_state", 0))
    y = np.asarray(_y)
    scores = []
    for train, test in folds.split(_X, y):
        clf = TernaryTreeClassifier(**params).fit(_X.iloc[train], y[train])
        scores.append(float(np.mean(clf.predict(_X.iloc[test]) == y[test])))
    return float(np.mean(scores))


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


def graft_comparison(
    ds: Dataset,
    key: tuple,
    features,
    *,
    mode: str,
    graft_alpha: float,
    ccp_alpha: float,
    max_depth: int,
    test_size: float,
    seed: int,
) -> GraftComparison:
    """Fit CART and CART + grafting on the training rows and compare them."""
    sp = split_data(ds, features, test_size, seed)
    data_key = (key, tuple(features) if features else None, float(test_size), int(seed))
    base = {
        "delta_method": "none",
        "routing": "probabilistic",
        "max_depth": int(max_depth),
        "ccp_alpha": float(ccp_alpha),
        "random_state": int(seed),
    }
    grafted_params = dict(base, graft=mode, graft_alpha=float(graft_alpha))
    cart = fit_tree(sp.X_train, sp.y_train, data_key, _items(base))
    grafted = fit_tree(sp.X_train, sp.y_train, data_key, _items(grafted_params))
    X_all = ds.X if features is None else ds.X[list(features)]
    all_key = (key, tuple(features) if features else None)
    rows = []
    for label, model, params in (
        ("CART", cart, base),
        (f"CART + grafting ({mode})", grafted, grafted_params),
    ):
        rows.append(
            {
                "model": label,
                "nodes": int(model.tree_.node_count),
                "leaves": int(model.tree_.n_leaves),
                "grafted nodes": int(model.tree_.grafted.sum()),
                "test accuracy": float(np.mean(model.predict(sp.X_test) == sp.y_test)),
                "CV accuracy": cv_accuracy(X_all, ds.y, all_key, _items(params)),
            }
        )
    figures = None
    if features is not None:
        fkey = (data_key, _items(grafted_params))
        figures = (
            graft_regions_figure(cart, sp.X_test, sp.y_test, fkey + ("cart",), "CART"),
            graft_regions_figure(
                grafted, sp.X_test, sp.y_test, fkey + ("graft",), f"CART + grafting ({mode})"
            ),
        )
    names = tuple(map(str, sp.X_train.columns))
    dot = tree_dot(
        grafted, (data_key, _items(grafted_params)), names, tuple(map(str, grafted.classes_)), None
    )
    report = grafted.graft_report_
    return GraftComparison(
        cart,
        grafted,
        pd.DataFrame(rows),
        None if report is None else report.copy(),
        figures,
        dot,
        int(len(sp.y_test)),
    )


@st.cache_resource(show_spinner=False, max_entries=32)
def graft_regions_figure(_model, _X, _y, figure_key: tuple, title: str):
    """One region panel (no zones: both trees are binary) with ``title``."""
    acc = float(np.mean(_model.predict(_X) == np.asarray(_y)))
    return viz.decision_regions_figure(
        _model, _X, _y, title=f"{title} — test accuracy {100 * acc:.1f}%", height=460
    )
