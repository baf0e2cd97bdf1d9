"""The whole setting in the page's address, so a link restores it.

The query parameters are the session keys themselves (`URL_KEYS`): the dataset,
its generator's options, the estimator's own parameter names (the knobs of
`ternary.PARAMETERS`, with their choices), the split seed and the plotted features.
Only values that differ from the defaults are written, so a link stays short. Two more
parameters shape the page itself:
``hide=`` (a comma list of controls, or the groups ``data``, ``model`` and
``features``, to hide for a lecture) and ``present=1`` (presentation mode).

Every run compares the address with what the app last wrote there: a
difference means the address came from outside (a pasted link, a preset) and
is applied before any widget is drawn; otherwise the widgets win and the
address is rewritten after the page.

Painted points (the Decision regions page's draw mode) travel as ``paint=``, in
`appkit.paint`'s compact, capped form, checked strictly when a link brings them.

`page_dataset` is the dataset of every page: the painted points while painting is
on (from the Decision regions page or a link), else the sidebar's choice (a built-in
or an upload). Picking another dataset in the sidebar, or uploading one, ends the
painting (`end_paint_on_new_pick`); `dataset_line` is the sentence each page shows
to name its dataset.
"""

from __future__ import annotations

import math

import streamlit as st

from appkit import paint
from appkit.datasets import BUILTIN_NAMES, generator_defaults, restore_upload, upload_link
from appkit.specs import MODEL_PARAMS
from appkit.state import BOUNDS, DEFAULTS, MODEL_KINDS
from ternary import PARAMETERS

__all__ = [
    "COVERAGE_VIEWS",
    "PRESETS",
    "PRESET_SOURCES",
    "URL_KEYS",
    "dataset_line",
    "end_paint_on_new_pick",
    "page_dataset",
    "painting",
    "restore",
    "sync",
]

#: the dataset and its generator's options, written ahead of the estimator's parameters
_DATA_KEYS = ("dataset", "n_samples", "noise", "data_seed", "standardize")
#: the pages' own settings, written after them
_PAGE_KEYS = (
    "graft_max_depth",
    "model",
    "test_size",
    "seed",
    "feature_x",
    "feature_y",
    "coverage_view",
)
#: every key a link may carry: the estimator's are the app's parameters (`MODEL_PARAMS`,
#: the library's knobs) under their own names
URL_KEYS = _DATA_KEYS + MODEL_PARAMS + _PAGE_KEYS
#: the two views of the accuracy–coverage page: this dataset's CV, or the paper's Fig. 2
COVERAGE_VIEWS = ("dataset", "paper")
_CHOICES = {
    # a knob with choices accepts the library's (the tree's: a forest's routings are
    # fewer, and the sidebar says why it refuses the others)
    **{name: p.choices for name, p in PARAMETERS.items() if p.knob and p.kind == "choice"},
    "model": MODEL_KINDS,
    "dataset": tuple(BUILTIN_NAMES),
    "coverage_view": COVERAGE_VIEWS,
}
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")

#: lecture scenarios: (label, page key in app.PAGES, query parameters)
PRESETS = (
    (
        "Paper Fig. 1 — two moons, quality plateau (ε = 0.15), depth 3",
        "regions",
        {
            "dataset": "two moons",
            "n_samples": "250",
            "noise": "0.28",
            "data_seed": "42",
            "standardize": "True",
            "delta_method": "quality_plateau",
            "epsilon": "0.15",
            "max_depth": "3",
            "test_size": "0.0",
            "seed": "42",
            # the paper's zone θ−δ < x ≤ θ+δ (the library's default leaves θ+δ out)
            "zone_edges": "closed",
        },
    ),
    (
        "Paper Fig. 2 — accuracy against coverage, the CC18 means",
        "coverage",
        {"coverage_view": "paper"},
    ),
    (
        "Paper Fig. 3 — breast cancer, margin, hard middle, depth 2",
        "tree",
        {
            "dataset": "breast cancer (paper)",
            "delta_method": "margin",
            "routing": "hard_middle",
            "max_depth": "2",
            "test_size": "0.0",
            "seed": "42",
            "zone_edges": "closed",
        },
    ),
    (
        "Paper Fig. 4 — breast cancer, margin, probabilistic, depth 2",
        "tree",
        {
            "dataset": "breast cancer (paper)",
            "delta_method": "margin",
            "max_depth": "2",
            "test_size": "0.0",
            "seed": "42",
            "zone_edges": "closed",
        },
    ),
    (
        # C4.5's tree of §3 has depth 3, grown on all 30 rows as in the paper: its grafts'
        # Laplace estimates are then Webb's 0.917 (10 ·) and 0.909 (9 o); any row held out
        # takes one from a graft's region and changes them
        "Webb's worked example — §3 of the grafting paper, C4.5's depth-3 tree and its grafts",
        "grafting",
        {"dataset": "webb example", "graft_max_depth": "3", "test_size": "0.0"},
    ),
)
#: where each preset's numbers come from, one line each (shown beside its link)
PRESET_SOURCES = {
    PRESETS[0][0]: "The author's figure script: scikit-learn's make_moons(250, noise 0.28, "
    "seed 42), standardised, fitted on all rows and scored on them: 46.4 % flagged, decided "
    "accuracy 0.948.",
    PRESETS[1][0]: "The paper's Table 5 (means over 71 OpenML-CC18 datasets) beside ours from "
    "the stored reproduction run (benchmarks/results/reproduce_paper.md, 50 CC18 datasets).",
    PRESETS[2][0]: "All 569 rows of scikit-learn's breast cancer, unscaled: root worst radius "
    "≤ 16.795, δ = 0.1750, as in the paper's Fig. 3. Its two 50/50 leaves (n = 8, n = 6) "
    "read malignant, as in the paper: a tie goes to the first class, and the labels keep "
    "scikit-learn's codes (0 malignant, 1 benign), the order the paper's tree was fitted in.",
    PRESETS[3][0]: "All 569 rows, unscaled, probabilistic routing: the same root, its children "
    "worst concave points ≤ 0.136 (δ = 0.0021) and mean texture, as in the paper's Fig. 4. "
    "Labels keep scikit-learn's codes (0 malignant, 1 benign): a tie would go to malignant.",
    PRESETS[4][0]: "The 30 examples of §3 of Webb (1997), reconstructed and all fitted: "
    "C4.5's depth-3 tree and its two grafts, Laplace accuracy 0.917 (A ≤ 5, 10 ·) and 0.909 "
    "(B ≤ 3, 9 o) as in the paper.",
}


def _parse(key: str, text: str, dataset: str):
    """The value of ``key`` from its text in a link, or raise ValueError saying why."""
    if key in _CHOICES:
        if text not in _CHOICES[key]:
            raise ValueError(f"choose one of {', '.join(_CHOICES[key])}")
        return text
    default = DEFAULTS.get(key)
    if isinstance(default, str) and key in BOUNDS:  # a number, or the library's word ("auto")
        if text == default:
            return text
        default = BOUNDS[key][0]  # parsed and clipped as a number of the bounds' type
    if default is None or isinstance(default, str):  # plotted features: checked by the page
        return text
    if isinstance(default, bool):
        if text.strip().lower() in _TRUE + _FALSE:
            return text.strip().lower() in _TRUE
        raise ValueError("give 1 or 0")
    number = float(text)
    if not math.isfinite(number):
        raise ValueError("give a finite number")
    low, high = BOUNDS[key]
    if key == "noise" and dataset != "blobs":
        high = 1.0  # the noise slider of the other generators stops at 1
    number = min(max(number, low), high)
    return int(round(number)) if isinstance(default, int) else number


def restore() -> list[str]:
    """Apply the address to the session when it came from outside; returns what was ignored."""
    s = st.session_state
    params = {k: st.query_params[k] for k in st.query_params}
    # an empty address is a page switch (Streamlit clears it), not a new setting
    if not params or params == s.get("_url_written"):
        return []
    s["_hidden"] = frozenset(t.strip() for t in params.get("hide", "").split(",") if t.strip())
    s["present"] = params.get("present", "") in ("1", "true", "yes")
    # the address is the whole setting: what it does not name is at its default
    for key in URL_KEYS:
        if key in DEFAULTS:
            s[key] = DEFAULTS[key]
        else:
            s.pop(key, None)
    ignored = []
    dataset = params.get("dataset")
    if dataset is not None:
        if dataset in BUILTIN_NAMES:
            s["dataset"] = dataset
            s.update(generator_defaults(dataset))
        else:
            ignored.append(f"dataset={dataset!r} (not a built-in dataset)")
    if params.get("upload") is not None:  # a kept upload (appkit.uploads), or says it is gone
        ignored += restore_upload(s, params)
    ignored += paint.restore_link(s, params.get("paint"))
    current = s.get("dataset", DEFAULTS["dataset"])
    for key in URL_KEYS[1:]:
        if key in params:
            try:
                s[key] = _parse(key, params[key], current)
            except ValueError as exc:
                ignored.append(f"{key}={params[key]!r} ({exc})")
    s["_url_written"] = params
    return ignored


def _text(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def sync() -> None:
    """Write the session's current setting into the address (only values off their default)."""
    s = st.session_state
    params = {}
    for key in URL_KEYS:
        if key not in s:
            continue
        value = s[key]
        if key in ("feature_x", "feature_y"):
            defaults = s.get("_default_features", ())
            default = defaults[key == "feature_y"] if len(defaults) == 2 else None
        else:
            default = DEFAULTS.get(key)
        if key == "dataset" and value not in BUILTIN_NAMES:
            # an upload travels as its key in the server's store, with its name and options
            params.update(upload_link(s))
            continue
        if key == "n_estimators" and s.get("model") != "forest":
            continue  # a tree has no trees to count: the link stays short
        if key in ("n_samples", "noise"):
            default = generator_defaults(s.get("dataset", "")).get(key, default)
        if value != default:
            params[key] = _text(value)
    painted = paint.link_value(s)
    if painted:
        params["paint"] = painted
    if "hide" in st.query_params:
        params["hide"] = st.query_params["hide"]
    if s.get("present"):
        params["present"] = "1"
    if params != {k: st.query_params[k] for k in st.query_params}:
        st.query_params.from_dict(params)
    s["_url_written"] = params


#: session key: the sidebar's dataset when the painting began; another pick ends it
_PAINT_OVER = "_paint_over"


def painting(state=None) -> bool:
    """Whether painted points are the dataset of every page (painting on, with points)."""
    s = st.session_state if state is None else state
    return bool(s.get("paint_on") and s.get("paint_points"))


def end_paint_on_new_pick(state=None) -> bool:
    """End the painting when the sidebar's dataset changed since it began (a pick, an
    upload, a fetch from OpenML); returns whether it ended. Called by app.py on every run,
    after the picker: the painted points are the dataset of every page until then."""
    s = st.session_state if state is None else state
    if not s.get("paint_on"):
        s.pop(_PAINT_OVER, None)
        return False
    over = s.setdefault(_PAINT_OVER, s.get("dataset"))
    if s.get("dataset") == over:
        return False
    s["paint_on"] = False
    s.pop(_PAINT_OVER, None)
    return True


def page_dataset():
    """``(dataset, key)`` of every page: the painted points while painting is on and they
    can be fitted (two classes of two points or more), else the sidebar's dataset
    (`appkit.datasets.current_dataset`: a built-in or the upload, standardised when the
    sidebar says so). The Grafting page calls this as the others do."""
    from appkit.datasets import current_dataset

    s = st.session_state
    points = list(s.get("paint_points") or [])
    if painting(s) and paint.problem(points) is None:
        return paint.painted_dataset(points)
    return current_dataset()


def dataset_line(ds) -> str:
    """The sentence that names the dataset a page shows: its name, rows, features and
    classes, and for painted points where they come from and how to leave them.

    Markdown-safe: a name from an upload is shown as plain text."""
    from appkit.guard import plain

    size = f"{ds.n_samples:,} rows, {ds.n_features} features, {ds.n_classes} classes"
    if ds.source == "painted":
        return (
            f"Dataset: **painted points** ({ds.n_samples} points, {ds.n_classes} classes), "
            "painted on the Decision regions page; pick a dataset in the sidebar to leave them."
        )
    return f"Dataset: **{plain(ds.name)}** ({size})."
