"""Node inspector: why δ is what it is at one node, one panel per δ method.

Takes a `ternary.explain.NodeExplanation` and draws the quantity the chosen
method reads: the Q(θ) curve and its (1−ε) plateau (quality_plateau), the
class percentile bands and their overlap (class_overlap), the nearest
cross-class rows (margin), the spread of bootstrap thresholds
(node_bootstrap), or the gain-ratio arithmetic (gain_ratio). Every panel
shades the zone [θ−δ, θ+δ] and names δ in its title.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from viz.chrome import readable_ticks, title_below_toolbar
from viz.colors import ZONE_FILL, class_color
from viz.labels import format_number, plain_text

__all__ = ["INSPECTOR_METHODS", "ZONE_NAME", "node_inspector_figure"]

INSPECTOR_METHODS = (
    "margin",
    "node_bootstrap",
    "quality_plateau",
    "gain_ratio",
    "class_overlap",
    "none",
)
#: Legend name of the shaded zone in every panel.
ZONE_NAME = "uncertainty zone [θ−δ, θ+δ]"
_THETA_NAME = "θ* (CART threshold)"
_STRIP_MAX_POINTS = 4000


def _band(x0, x1, y0, y1, *, name, fill, showlegend=True, row=None, legendgroup=None):
    return go.Scatter(
        x=[x0, x1, x1, x0, x0],
        y=[y0, y0, y1, y1, y0],
        mode="lines",
        fill="toself",
        fillcolor=fill,
        line=dict(width=0),
        name=name,
        hoverinfo="name",
        showlegend=showlegend,
        legendgroup=legendgroup or name,
    )


def _vline(x, y0, y1, *, name, color, dash="solid", showlegend=True, legendgroup=None):
    return go.Scatter(
        x=[x, x],
        y=[y0, y1],
        mode="lines",
        line=dict(color=color, width=2, dash=dash),
        name=name,
        showlegend=showlegend,
        legendgroup=legendgroup or name,
        hovertemplate=f"{name}: {format_number(x)}<extra></extra>",
    )


def _add(fig, trace, row=None):
    if row is None:
        fig.add_trace(trace)
    else:
        fig.add_trace(trace, row=row, col=1)


def _zone_and_theta(fig, e, delta, y0, y1, *, row=None, showlegend=True):
    """The shaded zone (when δ > 0) and the θ* line, spanning y0..y1."""
    if delta > 0:
        _add(
            fig,
            _band(
                e.threshold - delta,
                e.threshold + delta,
                y0,
                y1,
                name=ZONE_NAME,
                fill=ZONE_FILL,
                showlegend=showlegend,
            ),
            row,
        )
    _add(
        fig,
        _vline(e.threshold, y0, y1, name=_THETA_NAME, color="#222222", showlegend=showlegend),
        row,
    )


def _class_histograms(fig, e, class_names, *, row=None, barmode_stack=False):
    """Per-class histograms of the node's split-feature values on shared bins; returns max count."""
    values = e.values
    bins = np.histogram_bin_edges(values, bins=min(40, max(5, int(np.sqrt(values.size)))))
    top = 0
    for k in np.unique(e.y_codes):
        counts, _ = np.histogram(values[e.y_codes == k], bins=bins)
        top = max(top, int(counts.max()) if counts.size else 0)
        _add(
            fig,
            go.Bar(
                x=(bins[:-1] + bins[1:]) / 2,
                y=counts,
                width=np.diff(bins),
                marker=dict(color=class_color(k), line=dict(width=0)),
                opacity=0.85 if barmode_stack else 0.55,
                name=f"class {class_names[k]}",
                legendgroup=f"class{k}",
                hovertemplate=f"class {class_names[k]}<br>%{{x:.4g}}: %{{y}} rows<extra></extra>",
            ),
            row,
        )
    if barmode_stack:
        # stacked bars can reach the sum of the per-class counts
        total, _ = np.histogram(values, bins=bins)
        top = int(total.max())
    return top


def _panel_quality_plateau(fig, e, delta):
    if e.thresholds.size == 0:
        fig.add_annotation(
            text="no candidate thresholds at this node",
            showarrow=False,
            xref="paper",
            yref="paper",
            x=0.5,
            y=0.5,
        )
        return "no candidates"
    fig.add_trace(
        go.Scatter(
            x=e.thresholds,
            y=e.quality,
            mode="lines+markers",
            name="Q(θ)",
            line=dict(color="#333333"),
            marker=dict(size=4),
            hovertemplate="θ = %{x:.4g}<br>Q = %{y:.4g}<extra></extra>",
        )
    )
    lo = float(min(0.0, np.min(e.quality)))
    hi = float(np.max(e.quality)) * 1.08 if np.max(e.quality) > 0 else 1.0
    if e.plateau_low is not None:
        fig.add_trace(
            _band(
                e.plateau_low,
                e.plateau_high,
                lo,
                hi,
                name="plateau [θlo, θhi]",
                fill="rgba(0, 158, 115, 0.18)",
            )
        )
        fig.add_trace(
            go.Scatter(
                x=[e.plateau_low, e.plateau_high],
                y=[e.plateau_floor] * 2,
                mode="markers+text",
                text=["θlo", "θhi"],
                textposition=["top left", "top right"],
                marker=dict(color="#009E73", size=10, symbol="line-ns-open", line=dict(width=3)),
                name="θlo, θhi",
                hovertemplate="%{text} = %{x:.4g}<extra></extra>",
            )
        )
    x0, x1 = float(e.thresholds.min()), float(e.thresholds.max())
    fig.add_trace(
        go.Scatter(
            x=[x0, x1],
            y=[e.plateau_floor] * 2,
            mode="lines",
            line=dict(color="#009E73", dash="dash"),
            name=f"(1−ε)·Q(θ*), ε = {e.params.epsilon:g}",
            hovertemplate="(1−ε)·Q(θ*) = %{y:.4g}<extra></extra>",
        )
    )
    _zone_and_theta(fig, e, delta, lo, hi)
    fig.add_trace(
        go.Scatter(
            x=[e.threshold],
            y=[e.quality_at_threshold],
            mode="markers",
            marker=dict(color="#C0392B", size=11, symbol="star"),
            name="Q(θ*)",
            hovertemplate="Q(θ*) = %{y:.4g}<extra></extra>",
        )
    )
    fig.update_xaxes(title_text="candidate threshold θ")
    fig.update_yaxes(title_text=f"split quality Q ({e.params.criterion} decrease)", range=[lo, hi])
    if e.plateau_low is None:
        return "Q(θ*) ≤ 0: no plateau"
    return (
        f"θlo = {format_number(e.plateau_low)}, θhi = {format_number(e.plateau_high)}, "
        "δ = (θhi − θlo)/2"
    )


def _panel_class_overlap(fig, e, delta, class_names):
    top = _class_histograms(fig, e, class_names, row=1)
    y_hi = top * 1.08 + 1
    _zone_and_theta(fig, e, delta, 0, y_hi, row=1)
    n_bands = len(e.band_classes)
    if e.overlap_pair is not None:
        fig.add_trace(
            _band(
                e.overlap_low,
                e.overlap_high,
                -0.6,
                n_bands - 0.4,
                name="widest overlap",
                fill="rgba(204, 121, 167, 0.25)",
            ),
            row=2,
            col=1,
        )
    for i, (k, lo, hi) in enumerate(zip(e.band_classes, e.band_lows, e.band_highs, strict=True)):
        fig.add_trace(
            go.Scatter(
                x=[lo, hi],
                y=[i, i],
                mode="lines+markers",
                line=dict(color=class_color(k), width=6),
                marker=dict(symbol="line-ns-open", size=14, color=class_color(k)),
                name=f"band {class_names[k]}",
                legendgroup=f"class{k}",
                showlegend=False,
                hovertemplate=(
                    f"class {class_names[k]}: [P{100 * e.params.q:g}, "
                    f"P{100 * (1 - e.params.q):g}] = [{format_number(lo)}, "
                    f"{format_number(hi)}]<extra></extra>"
                ),
            ),
            row=2,
            col=1,
        )
    _zone_and_theta(fig, e, delta, -0.6, n_bands - 0.4, row=2, showlegend=False)
    fig.update_yaxes(title_text="rows", range=[0, y_hi], row=1, col=1)
    fig.update_yaxes(
        tickvals=list(range(n_bands)),
        ticktext=[f"{class_names[k]}" for k in e.band_classes],
        range=[-0.6, n_bands - 0.4],
        row=2,
        col=1,
    )
    fig.update_xaxes(title_text=e.feature_name, row=2, col=1)
    fig.update_layout(barmode="overlay")
    if e.overlap_pair is None:
        return f"no two class bands overlap (q = {e.params.q:g})"
    a, b = e.overlap_pair
    return (
        f"bands [P{100 * e.params.q:g}, P{100 * (1 - e.params.q):g}]; widest overlap "
        f"{class_names[a]} / {class_names[b]} = {format_number(e.overlap_high - e.overlap_low)}, "
        "δ = overlap/2"
    )


def _panel_margin(fig, e, delta, class_names):
    present = [int(k) for k in np.unique(e.y_codes)]
    position = {k: i for i, k in enumerate(present)}
    idx = np.arange(e.values.size)
    if idx.size > _STRIP_MAX_POINTS:
        idx = np.sort(np.random.RandomState(0).choice(idx, _STRIP_MAX_POINTS, replace=False))
    jitter = np.random.RandomState(1).uniform(-0.28, 0.28, size=e.values.size)
    for k in present:
        sel = idx[e.y_codes[idx] == k]
        fig.add_trace(
            go.Scatter(
                x=e.values[sel],
                y=position[k] + jitter[sel],
                mode="markers",
                marker=dict(color=class_color(k), size=5, opacity=0.6),
                name=f"class {class_names[k]}",
                legendgroup=f"class{k}",
                hovertemplate="%{x:.4g}<extra></extra>",
            )
        )
    y0, y1 = -0.6, len(present) - 0.4
    _zone_and_theta(fig, e, delta, y0, y1)
    m = e.margin
    marks = []
    if m["nearest_left_class_right_of"] is not None:
        marks.append(
            (
                m["nearest_left_class_right_of"],
                m["class_left"],
                f"nearest {class_names[m['class_left']]} row right of θ",
            )
        )
    if m["nearest_right_class_left_of"] is not None:
        marks.append(
            (
                m["nearest_right_class_left_of"],
                m["class_right"],
                f"nearest {class_names[m['class_right']]} row left of θ",
            )
        )
    for x, k, label in marks:
        fig.add_trace(
            go.Scatter(
                x=[x],
                y=[position.get(k, 0)],
                mode="markers",
                marker=dict(
                    symbol="star", size=16, color=class_color(k), line=dict(color="#111", width=1.5)
                ),
                name=label,
                hovertemplate=f"{label}: %{{x:.4g}}<extra></extra>",
            )
        )
    fig.update_yaxes(
        tickvals=list(range(len(present))),
        ticktext=[str(class_names[k]) for k in present],
        range=[y0, y1],
    )
    fig.update_xaxes(title_text=e.feature_name)
    if m["class_left"] is None:
        return "all rows on one side of θ: δ = 0"
    head = (
        f"majority left c_L = {class_names[m['class_left']]}, "
        f"right c_R = {class_names[m['class_right']]}"
    )
    if not marks:
        return head + f"; no cross-class rows: δ = half-gap {format_number(m['gap'])}"
    return head + "; δ = distance from θ to the nearest cross-class row"


def _panel_node_bootstrap(fig, e, delta):
    boot = e.bootstrap_thresholds
    if boot.size == 0:
        fig.add_annotation(
            text="no bootstrap resample found a split",
            showarrow=False,
            xref="paper",
            yref="paper",
            x=0.5,
            y=0.5,
        )
        counts_top = 1
    else:
        counts, edges = np.histogram(boot, bins=min(20, max(5, boot.size)))
        counts_top = int(counts.max())
        fig.add_trace(
            go.Bar(
                x=(edges[:-1] + edges[1:]) / 2,
                y=counts,
                width=np.diff(edges),
                marker=dict(color="#0072B2"),
                opacity=0.6,
                name="bootstrap thresholds",
                hovertemplate="%{x:.4g}: %{y}<extra></extra>",
            )
        )
        fig.add_trace(
            go.Scatter(
                x=boot,
                y=np.full(boot.size, -0.04 * counts_top),
                mode="markers",
                marker=dict(symbol="line-ns-open", size=10, color="#0072B2"),
                name="bootstrap θ (rug)",
                hovertemplate="%{x:.6g}<extra></extra>",
            )
        )
    y0, y1 = -0.1 * counts_top, counts_top * 1.15
    if boot.size >= 2:
        mean, std = float(np.mean(boot)), float(np.std(boot))
        fig.add_trace(
            _band(mean - std, mean + std, y0, y1, name="mean ± std", fill="rgba(0, 114, 178, 0.12)")
        )
        fig.add_trace(_vline(mean, y0, y1, name="bootstrap mean", color="#0072B2", dash="dash"))
    _zone_and_theta(fig, e, delta, y0, y1)
    fig.update_xaxes(title_text=f"best threshold on {e.feature_name} per resample")
    fig.update_yaxes(title_text="resamples", range=[y0, y1])
    note = f"B = {e.params.n_bootstraps} resamples (seed {e.bootstrap_seed})"
    if e.n < 10 or boot.size < 2:
        return note + "; δ = 0 (n < 10 or fewer than 2 splits)"
    return note + f", {boot.size} with a split; δ = std = {format_number(np.std(boot))}"


def _panel_gain_ratio(fig, e, delta, class_names):
    top = _class_histograms(fig, e, class_names, barmode_stack=True)
    y1 = top * 1.1 + 1
    _zone_and_theta(fig, e, delta, 0, y1)
    g = e.gain_ratio
    gr = g["gain_ratio"]
    lines = [
        f"Q(θ*) = {format_number(g['quality'])}",
        f"H_split = {format_number(g['h_split'])} (left share {g['left_fraction']:.2f})",
        "GR = Q / H_split = " + (format_number(gr) if np.isfinite(gr) else "undefined"),
        f"α·range = {e.params.alpha:g} × {format_number(g['value_range'])} = "
        f"{format_number(g['alpha_range'])}",
        f"raw δ = α·range / (1 + GR) = {format_number(e.raw_delta['gain_ratio'])}",
    ]
    if e.raw_delta["gain_ratio"] > e.cap:
        lines.append(f"capped at {format_number(e.cap)}")
    fig.add_annotation(
        text="<br>".join(lines),
        xref="paper",
        yref="paper",
        x=0.99,
        y=0.98,
        xanchor="right",
        yanchor="top",
        align="left",
        showarrow=False,
        bgcolor="rgba(255, 255, 255, 0.85)",
        bordercolor="#999",
        borderwidth=1,
        font=dict(size=11),
    )
    fig.update_layout(barmode="stack")
    fig.update_xaxes(title_text=e.feature_name)
    fig.update_yaxes(title_text="rows", range=[0, y1])
    return "δ = α·range(c) / (1 + gain ratio)"


def _panel_none(fig, e, class_names):
    top = _class_histograms(fig, e, class_names, barmode_stack=True)
    _zone_and_theta(fig, e, 0.0, 0, top * 1.1 + 1)
    fig.update_layout(barmode="stack")
    fig.update_xaxes(title_text=e.feature_name)
    fig.update_yaxes(title_text="rows")
    return "delta_method = none: plain CART, no zone"


def node_inspector_figure(
    explanation, *, method=None, feature_name=None, class_names=None
) -> go.Figure:
    """One node's δ explained by the quantity ``method`` reads.

    Parameters
    ----------
    explanation : ternary.explain.NodeExplanation, from `ternary.explain.explain_node`
    method : str, optional, one of `INSPECTOR_METHODS`; default the model's own
    feature_name : str, optional, overrides the explanation's feature name
    class_names : sequence of str, optional, names for the class codes

    Returns
    -------
    plotly.graph_objects.Figure
        The zone [θ−δ, θ+δ] (named `ZONE_NAME`) is drawn for δ > 0, with δ
        the tree's own for the model's method and the recomputed one otherwise.
    """
    e = explanation
    method = e.method if method is None else method
    if method not in INSPECTOR_METHODS:
        raise ValueError(f"method={method!r} is not one of {', '.join(INSPECTOR_METHODS)}.")
    # names come from the user's file: escaped once here, as plotly renders tags in
    # titles, legends, hovers and ticks; the figure's own <br>/<sup> stay markup
    name = e.feature_name if feature_name is None else feature_name
    e = replace(e, feature_name=plain_text(name))
    if class_names is None:
        class_names = e.classes
    class_names = [plain_text(c) for c in class_names]
    delta = e.delta_for(method)

    if method == "class_overlap":
        fig = make_subplots(
            rows=2, cols=1, shared_xaxes=True, row_heights=[0.68, 0.32], vertical_spacing=0.06
        )
    else:
        fig = go.Figure()
    if method == "quality_plateau":
        note = _panel_quality_plateau(fig, e, delta)
    elif method == "class_overlap":
        note = _panel_class_overlap(fig, e, delta, class_names)
    elif method == "margin":
        note = _panel_margin(fig, e, delta, class_names)
    elif method == "node_bootstrap":
        note = _panel_node_bootstrap(fig, e, delta)
    elif method == "gain_ratio":
        note = _panel_gain_ratio(fig, e, delta, class_names)
    else:
        note = _panel_none(fig, e, class_names)

    source = "tree" if method == e.method else "recomputed"
    cap_note = ""
    if method != "none" and e.raw_delta.get(method, 0.0) > e.cap:
        cap_note = f" (raw {format_number(e.raw_delta[method])} capped)"
    if e.grafted and method == e.method:
        note += "; grafted node: the tree's δ was computed on its evidence region (Webb 1997)"
    title = (
        f"Node {e.node}: {e.feature_name} ≤ θ = {format_number(e.threshold)}, n = {e.n} — "
        f"{method} δ = {format_number(delta)}{cap_note} [{source}]"
        f"<br><sup>{note}</sup>"
    )
    readable_ticks(fig)
    fig.update_layout(
        title=title_below_toolbar(dict(text=title)),
        template="plotly_white",
        height=460,
        legend=dict(font=dict(size=10)),
        margin=dict(l=60, r=20, t=80, b=50),
    )
    return fig
