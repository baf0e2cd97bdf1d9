"""The lecture view of Decision regions (presentation mode): regions, tree and the
accuracy–coverage point on one screen, all following the same sliders.

TensorFlow Playground's strength is that data, model and result move together;
here, in presentation mode, the Decision regions page shows on its first screen

- the regions of CART and of the ternary tree (the page's own figure),
- the tree diagram with its zones (δ in red, the zone's edges, a hard middle's
  dashed branch), drawn to fit its box,
- the setting's point on the accuracy–coverage plane beside the other δ methods'
  points, fitted and scored on the same rows as the cards (`method_points`), over
  CART's line and its Chow reject curve (`chow_points`).

The δ method, its own parameter, δ scale and depth are drawn above them
(`controls`), so the teacher moves ε and sees zone, tree and efficiency move
together without opening the sidebar. Everything is cached per setting: a slider
move refits the one model that changed; the other methods' points come back from
the cache unless what they share (depth, routing, δ scale, the split) moved.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from appkit import present, specs, tree
from appkit.model import (
    FitSpec,
    Split,
    fit,
    has_method_slider,
    is_forest,
    method_slider,
    method_symbol,
    proba_verdict,
)
from appkit.regions import PANEL_NAMES, member_index
from appkit.state import BOUNDS, on_page, shown
from appkit.vocabulary import DELTA_METHODS, METHOD_LABELS, METHOD_PARAM, ZONE_METHODS
from ternary import metrics

__all__ = [
    "ABOVE_PX",
    "chow_points",
    "controls",
    "method_points",
    "regions_figure",
    "view",
]

#: what the page draws above the lecture boxes when presenting, in px: Streamlit's header
#: band and the page's top padding, the title, the row of controls and the one-line cards
#: (measured in headless Chromium at 1024, 1400 and 1920 px wide, the widest of the three)
ABOVE_PX = 300


def controls() -> None:
    """δ method, its parameter, δ scale and depth above the figures; the sidebar then
    leaves them out (`appkit.state.on_page`). Hidden controls (``hide=``) stay hidden."""
    s = st.session_state
    method = s.get("delta_method")
    param = METHOD_PARAM.get(method)
    wanted = ["delta_method", "delta_scale", "max_depth"]
    if has_method_slider(method):
        wanted.insert(1, param)
    drawn = on_page(*wanted) if shown("model") else ()
    if not drawn:
        return
    for col, name in zip(st.columns(len(drawn)), drawn, strict=True):
        with col:
            _control(name)


def _control(name: str) -> None:
    if name == "delta_method":
        st.selectbox(
            "δ method",
            DELTA_METHODS,
            key="delta_method",
            format_func=METHOD_LABELS.get,
            help="How each split's zone half-width δ is computed (the sidebar has the rest "
            "of the model's settings).",
        )
    elif name == "delta_scale":
        st.slider(
            "δ scale",
            *BOUNDS["delta_scale"],
            step=0.05,
            key="delta_scale",
            help="Multiplies every δ: 0 is plain CART, 2 doubles the zones.",
        )
    elif name == "max_depth":
        st.slider("Max depth", *BOUNDS["max_depth"], step=1, key="max_depth")
    else:
        method_slider(st.session_state["delta_method"])


@st.cache_data(show_spinner=False, max_entries=64)
def _points(_sp: Split, _specs: tuple, keys: tuple) -> pd.DataFrame:
    rows = []
    for spec in _specs:
        model = fit(_sp, spec)
        proba, verdict = proba_verdict(model, _sp.X_test)
        pred = model.classes_[np.argmax(proba, axis=1)]
        rows.append(
            {
                "delta_method": spec.params["delta_method"],
                "uncertain_rate": metrics.uncertain_rate(verdict),
                "decided_accuracy": metrics.decided_accuracy(_sp.y_test, pred, verdict),
            }
        )
    return pd.DataFrame(rows, columns=["delta_method", "uncertain_rate", "decided_accuracy"])


def method_points(sp: Split, spec: FitSpec, state=None) -> pd.DataFrame:
    """The other δ methods' points on the page's rows: one row per zone method but the
    setting's own, with its uncertain rate and decided accuracy on ``sp``'s test rows.

    Each is fitted as the setting is (split, features, depth, routing, δ scale, zone
    edges, seed) with the method's own parameter at the session's value. None for a
    forest (five more forests per move would cost seconds): an empty table.
    """
    state = st.session_state if state is None else state
    own = spec.params.get("delta_method")
    if "n_estimators" in spec.params:
        return pd.DataFrame(columns=["delta_method", "uncertain_rate", "decided_accuracy"])
    others = tuple(
        FitSpec(
            spec.data_key,
            spec.features,
            spec.test_size,
            spec.seed,
            specs.model_params({**dict(state), "delta_method": method}),
        )
        for method in ZONE_METHODS
        if method != own
    )
    return _points(sp, others, tuple(o.key for o in others))


@st.cache_data(show_spinner=False, max_entries=64)
def _chow(_cart, _sp: Split, key: tuple) -> pd.DataFrame:
    proba = np.asarray(_cart.predict_proba(_sp.X_test))
    right = _cart.classes_[np.argmax(proba, axis=1)] == np.asarray(_sp.y_test)
    order = np.argsort(proba.max(axis=1), kind="stable")  # least confident first
    kept = right[order][::-1]  # most confident first: the rows kept as the share grows
    n = len(kept)
    counts = np.arange(n, 0, -1)  # rows kept when 0, 1, …, n−1 are flagged
    correct = np.cumsum(kept)[::-1][:n]
    return pd.DataFrame({"uncertain_rate": (n - counts) / n, "decided_accuracy": correct / counts})


def chow_points(cart, sp: Split, key: tuple) -> pd.DataFrame:
    """CART's accuracy on the rows it keeps when it flags its least confident first
    (Chow's reject rule), one point per number of rows flagged, on ``sp``'s test rows."""
    return _chow(cart, sp, key)


def _panel_titles(m: dict, forest: bool) -> tuple[str, str]:
    """Each panel's name and its headline number, short enough for a 1024 px screen's
    panel (the cards above give the rest)."""

    def pct(x):
        return "—" if np.isnan(x) else f"{100 * x:.1f}%"

    base, model = PANEL_NAMES[forest]
    return f"{base} · {pct(m['cart_accuracy'])}", f"{model} · {pct(m['decided_accuracy'])} decided"


def regions_figure(fig, res_metrics: dict, forest: bool = False):
    """The page's regions figure (as presented) for the lecture box, a changed copy: no
    figure title (the page's says it), each panel's title on one line ("Ternary tree:
    decided 94.8%"), and the legend in one row under the axes, with the
    margins just holding them, so the panels keep most of the box's height."""
    import plotly.graph_objects as go

    out = go.Figure(fig)
    layout = out.layout
    layout.title.text = None
    for note, text in zip(
        layout.annotations or (), _panel_titles(res_metrics, forest), strict=False
    ):
        note.text, note.font.size = text, 17
    for trace in out.data:
        if trace.name and trace.name.startswith("boundary-uncertain"):
            trace.name = "boundary-uncertain zone"
    layout.legend.update(font=dict(size=16), y=0, yref="container", yanchor="bottom")
    layout.margin.update(t=36, b=86, l=72, r=8)
    return out


def _setting_label(spec: FitSpec) -> str:
    params = spec.params
    method = params.get("delta_method")
    param = METHOD_PARAM.get(method)
    text = str(method).replace("_", " ")
    if param in params and has_method_slider(method):
        text += f", {method_symbol(method)} = {params[param]:g}"
    if params.get("delta_scale", 1.0) != 1.0:
        text += f", δ × {params['delta_scale']:g}"
    return "★ " + text  # the star's label and name (tests find the star by it)


def _tree_part(res, spec: FitSpec, names: list[str]) -> None:
    """The tree (a forest's shown member) drawn to fit its box, zones in its labels."""
    model = res.model
    if is_forest(model):
        k = member_index(model)
        model, key = model.estimators_[k], (spec.key, "member", k)
        st.caption(f"Member tree #{k} of the forest (pick another on the Tree diagram page).")
    else:
        key = spec.key
    # three-line labels, top to bottom up to depth 2 and left to right below (its leaves
    # stacked down the tall box): fitted to its box by app.py's CSS, never scrolled
    dot = tree.tree_dot(
        model, key, None, tuple(names), None, "none", 1.0, True, tree.DIAGRAM_DEPTH, "auto", True
    )
    st.graphviz_chart(dot, width="stretch", height="stretch")


def view(res, spec: FitSpec, chart):
    """The lecture view, in one `present.screen_box` as tall as the window leaves: on the
    left ``chart()``, the regions (the page's figure, with its click), over the
    accuracy–coverage point; on the right the tree, as tall as both (a tree is tall: in a
    low box its text shrank below 8 px). Returns ``chart()``'s event.
    """
    with present.screen_box("lecture", ABOVE_PX, horizontal=True):
        # app.py's CSS: the left column 11 : 9 to the tree, the regions 11 : 9 to the point
        with st.container(key="lecture_left", height="stretch"):
            with st.container(key="lecture_regions", height="stretch"):
                event = chart()
            with st.container(key="lecture_coverage", height="stretch"):
                _coverage_part(res, spec)
        with st.container(key="lecture_tree", height="stretch"):
            _tree_part(res, spec, list(res.split.X_train.columns.astype(str)))
    return event


def _coverage_part(res, spec: FitSpec) -> None:
    from viz.lecture import setting_point_figure

    m = res.metrics
    points = method_points(res.split, spec)
    chow = chow_points(res.cart, res.split, spec.key)
    fig = setting_point_figure(
        points,
        (m["uncertain_rate"], m["decided_accuracy"]),
        baseline_accuracy=m["cart_accuracy"],
        chow_curve=chow,
        setting_label=_setting_label(spec),
        routing=str(spec.params.get("routing", "probabilistic")),
    )
    fig = present.figure(fig)
    fig.layout.legend.font.size = 13  # beside a small plot: room for the plot
    fig.layout.legend.tracegroupgap = 0
    st.plotly_chart(fig, width="stretch", height="stretch", key="lecture_cov")
