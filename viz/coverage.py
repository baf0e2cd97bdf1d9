"""The accuracy–coverage trade-off (Fig. 2 of the paper).

One marker per (δ method, routing) at its mean boundary-uncertain rate (x) and
mean decided accuracy (y); the CART baseline as a dashed line; efficiency
isolines η = (accuracy − baseline)/rate; CART's Chow reject curve (flag the
least confident x % instead) as the frontier a δ method has to beat.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from viz.colors import method_color

__all__ = ["CURVE_POINT", "ROUTING_SYMBOLS", "accuracy_coverage_figure", "risk_coverage_figure"]

#: Marker per routing, as in the paper (circles probabilistic, diamonds hard-middle).
ROUTING_SYMBOLS = {
    "probabilistic": "circle",
    "hard_middle": "diamond",
    "deferred": "square",
    "cart": "x",
}


def _symbol(routing, hollow=False):
    base = ROUTING_SYMBOLS.get(str(routing), "x")
    return f"{base}-open" if hollow else base


def _require(frame, columns, name):
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{name} is missing column(s) {missing}; it has {list(frame.columns)}.")


def _extent(summary, baseline, extras):
    """``(x_max, y_range)`` covering every point and the baseline, with a margin."""
    xs = [np.asarray(summary["uncertain_rate"], dtype=float)]
    ys = [np.asarray(summary["decided_accuracy"], dtype=float), [baseline]]
    for extra in extras:
        if extra is not None and len(extra):
            xs.append(np.asarray(extra["uncertain_rate"], dtype=float))
            ys.append(np.asarray(extra["decided_accuracy"], dtype=float))
    all_x = np.concatenate([np.ravel(a) for a in xs])
    all_x = all_x[np.isfinite(all_x)]
    x_max = max(float(all_x.max()) if all_x.size else 0.0, 0.05) * 1.08
    all_y = np.concatenate([np.ravel(np.asarray(a, dtype=float)) for a in ys])
    all_y = all_y[np.isfinite(all_y)]
    y_lo, y_hi = float(all_y.min()), float(all_y.max())
    pad = max(0.01, 0.08 * (y_hi - y_lo))
    return x_max, [y_lo - pad, y_hi + pad]


def _isoline_layer(fig, isolines, baseline, x_max, y_range):
    for eta in isolines:
        eta = float(eta)
        # label where the line leaves the visible box, so it is never clipped
        x_exit = x_max
        if eta > 0:
            x_exit = min(x_max, (y_range[1] - baseline) / eta)
        elif eta < 0:
            x_exit = min(x_max, (y_range[0] - baseline) / eta)
        x_label = 0.92 * x_exit
        fig.add_trace(
            go.Scatter(
                x=[0.0, x_label, x_max],
                y=[baseline, baseline + eta * x_label, baseline + eta * x_max],
                mode="lines+text",
                line=dict(color="#9a9a9a", width=1, dash="dot"),
                text=["", f"η = {eta:g}", ""],
                textposition="top left",
                textfont=dict(color="#7a7a7a", size=10),
                name=f"η = {eta:g}",
                legendgroup="isolines",
                showlegend=False,
                hovertemplate=f"efficiency η = {eta:g}<extra></extra>",
            )
        )


def _baseline_layer(fig, baseline, x_max):
    fig.add_trace(
        go.Scatter(
            x=[0.0, x_max],
            y=[baseline, baseline],
            mode="lines",
            line=dict(color="#333333", width=1.5, dash="dash"),
            name=f"CART baseline ({100 * baseline:.1f}%)",
            hovertemplate=f"CART accuracy {baseline:.4f}<extra></extra>",
        )
    )


def _chow_layer(fig, chow_curve):
    _require(chow_curve, ["uncertain_rate", "decided_accuracy"], "chow_curve")
    curve = chow_curve.sort_values("uncertain_rate")
    fig.add_trace(
        go.Scatter(
            x=curve["uncertain_rate"],
            y=curve["decided_accuracy"],
            mode="lines",
            line=dict(color="#555555", width=2),
            name="CART Chow reject rule (frontier to beat)",
            hovertemplate="CART flags least confident %{x:.1%}<br>decided accuracy %{y:.4f}"
            "<extra></extra>",
        )
    )


def _paper_layer(fig, paper_means):
    _require(
        paper_means,
        ["delta_method", "routing", "decided_accuracy", "uncertain_rate"],
        "paper_means",
    )
    fig.add_trace(
        go.Scatter(
            x=paper_means["uncertain_rate"],
            y=paper_means["decided_accuracy"],
            mode="markers",
            marker=dict(
                symbol=[_symbol(r, hollow=True) for r in paper_means["routing"]],
                color=[method_color(m) for m in paper_means["delta_method"]],
                size=11,
                line=dict(width=1.5),
            ),
            name="paper (CC18 means)",
            customdata=np.column_stack([paper_means["delta_method"], paper_means["routing"]]),
            hovertemplate="paper: %{customdata[0]} / %{customdata[1]}<br>uncertain %{x:.1%}"
            "<br>decided accuracy %{y:.4f}<extra></extra>",
        )
    )


def _combo_layer(fig, summary, baseline, x_max):
    """One marker trace per (δ method, routing), with error bars and η in the hover."""
    has_std = "decided_accuracy_std" in summary.columns
    for (method, routing), group in summary.groupby(["delta_method", "routing"], sort=False):
        error = None
        if has_std:
            std = np.asarray(group["decided_accuracy_std"], dtype=float)
            error = dict(type="data", array=std, visible=True, thickness=1, width=3)
        rate = group["uncertain_rate"].to_numpy(float)
        acc = group["decided_accuracy"].to_numpy(float)
        with np.errstate(divide="ignore", invalid="ignore"):
            eta = np.where(rate > 0, (acc - baseline) / rate, np.nan)
        fig.add_trace(
            go.Scatter(
                x=rate,
                y=acc,
                mode="markers+text",
                error_y=error,
                marker=dict(
                    symbol=_symbol(routing),
                    color=method_color(method),
                    size=13,
                    line=dict(color="#222222", width=1),
                ),
                text=["CART" if method == "none" else method for _ in rate],
                # labels of points near the right edge go left so the plot does not clip them
                textposition=["top left" if r > 0.8 * x_max else "top right" for r in rate],
                textfont=dict(size=10),
                name="CART (δ = 0)" if method == "none" else f"{method} / {routing}",
                customdata=eta,
                hovertemplate=f"{method} / {routing}<br>uncertain %{{x:.1%}}<br>decided accuracy "
                "%{y:.4f}<br>η = %{customdata:.3f}<extra></extra>",
            )
        )


def _value_text(param, value):
    if isinstance(value, (int, float, np.number)):
        return f"{param}={value:g}"
    return f"{param}={value}"


def _sweep_layer(fig, sweep):
    """The swept operating points joined by a line, labelled with their values."""
    _require(sweep, ["param", "value", "uncertain_rate", "decided_accuracy"], "sweep")
    keys = [c for c in ("param", "delta_method", "routing") if c in sweep.columns]
    for key, group in sweep.groupby(keys, sort=False):
        key = key if isinstance(key, tuple) else (key,)
        label = " / ".join(str(k) for k in key)
        group = group.sort_values("value")
        method = group["delta_method"].iloc[0] if "delta_method" in group else None
        param = group["param"].iloc[0]
        fig.add_trace(
            go.Scatter(
                x=group["uncertain_rate"],
                y=group["decided_accuracy"],
                mode="lines+markers+text",
                line=dict(color=method_color(method), width=1.5),
                marker=dict(size=7, color=method_color(method)),
                text=[_value_text(param, v) for v in group["value"]],
                # (parameter, value, method, routing): a click on a point names its setting
                customdata=[
                    [param, v, method, group["routing"].iloc[0] if "routing" in group else None]
                    for v in group["value"]
                ],
                textposition="bottom right",
                textfont=dict(size=9),
                name=f"sweep: {label}",
                hovertemplate="%{text}<br>uncertain %{x:.1%}<br>decided accuracy %{y:.4f}"
                "<extra></extra>",
            )
        )


def accuracy_coverage_figure(
    summary,
    *,
    baseline_accuracy,
    chow_curve=None,
    paper_means=None,
    isolines=(0.05, 0.10, 0.15),
    sweep=None,
    title=None,
) -> go.Figure:
    """Decided accuracy against boundary-uncertain rate, one point per combination.

    Parameters
    ----------
    summary : DataFrame with columns delta_method, routing, decided_accuracy,
        uncertain_rate (means), optionally decided_accuracy_std (error bars)
    baseline_accuracy : float, CART's accuracy (the dashed line)
    chow_curve : DataFrame with uncertain_rate, decided_accuracy, optional
        CART's decided accuracy when it flags its least confident rows
    paper_means : DataFrame with delta_method, routing, decided_accuracy,
        uncertain_rate, optional; drawn hollow as "paper (CC18 means)"
    isolines : sequence of float, efficiencies η drawn as lines
        ``y = baseline + η·x``
    sweep : DataFrame with param, value, uncertain_rate, decided_accuracy
        (and optionally delta_method, routing), optional; operating points of
        a parameter sweep joined by a line, labelled with the values
    title : str, optional

    Returns
    -------
    plotly.graph_objects.Figure
    """
    _require(summary, ["delta_method", "routing", "decided_accuracy", "uncertain_rate"], "summary")
    baseline = float(baseline_accuracy)
    fig = go.Figure()
    # the extent first, so the isolines span the whole plot
    x_max, y_range = _extent(summary, baseline, (chow_curve, paper_means, sweep))
    _isoline_layer(fig, isolines, baseline, x_max, y_range)
    _baseline_layer(fig, baseline, x_max)
    if chow_curve is not None and len(chow_curve):
        _chow_layer(fig, chow_curve)
    if paper_means is not None and len(paper_means):
        _paper_layer(fig, paper_means)
    _combo_layer(fig, summary, baseline, x_max)
    if sweep is not None and len(sweep):
        _sweep_layer(fig, sweep)
    fig.update_xaxes(
        title_text="Mean boundary-uncertain rate",
        tickformat=".0%",
        range=[0.0, x_max],
        zeroline=False,
    )
    fig.update_yaxes(title_text="Mean decided accuracy", range=y_range)
    fig.update_layout(
        title=dict(text=title or "Accuracy–coverage trade-off"),
        template="plotly_white",
        height=560,
        legend=dict(font=dict(size=10)),
        margin=dict(l=60, r=20, t=60, b=50),
    )
    return fig


#: first item of the ``customdata`` of a risk–coverage curve's points:
#: ``[CURVE_POINT, delta_method, flagged share]``, what a click on the curve reports
CURVE_POINT = "risk-coverage"


def risk_coverage_figure(curves, *, markers=None, title=None) -> go.Figure:
    """Decided accuracy against the flagged share as each method's ranking is followed.

    Parameters
    ----------
    curves : DataFrame with method, delta_method, flagged, decided_accuracy
        One row per operating point: when the ``flagged`` share of rows a
        method is least confident about is set aside, the accuracy on the rest
        is ``decided_accuracy``. ``delta_method`` "none" marks CART's Chow curve
        (drawn dashed), "forest" a ternary forest's (drawn thicker). Each point
        carries ``[CURVE_POINT, delta_method, flagged]`` as customdata.
    markers : DataFrame with label, delta_method, flagged, decided_accuracy, optional
        Single operating points drawn as stars, e.g. a calibrated δ scale
    title : str, optional

    Returns
    -------
    plotly.graph_objects.Figure
    """
    _require(curves, ["method", "delta_method", "flagged", "decided_accuracy"], "curves")
    fig = go.Figure()
    for label, group in curves.groupby("method", sort=False):
        method = group["delta_method"].iloc[0]
        group = group.sort_values("flagged")
        cart = method == "none"
        fig.add_trace(
            go.Scatter(
                x=group["flagged"],
                y=group["decided_accuracy"],
                mode="lines+markers",
                # invisible markers: every point of a curve can be clicked
                marker=dict(size=7, opacity=0),
                line=dict(
                    color=method_color(method),
                    width=3.0 if method == "forest" else 2.5 if cart else 1.8,
                    dash="dash" if cart else None,
                ),
                customdata=[[CURVE_POINT, str(method), float(f)] for f in group["flagged"]],
                name=str(label),
                hovertemplate=f"{label}<br>flagged %{{x:.1%}}<br>decided accuracy %{{y:.4f}}"
                "<extra></extra>",
            )
        )
    if markers is not None and len(markers):
        _require(markers, ["label", "delta_method", "flagged", "decided_accuracy"], "markers")
        for row in markers.itertuples(index=False):
            fig.add_trace(
                go.Scatter(
                    x=[row.flagged],
                    y=[row.decided_accuracy],
                    mode="markers",  # named in the legend: a text label would cover the curves
                    marker=dict(
                        symbol="star",
                        size=16,
                        color=method_color(row.delta_method),
                        line=dict(color="#222222", width=1),
                    ),
                    name=str(row.label),
                    hovertemplate=f"{row.label}<br>flagged %{{x:.1%}}<br>decided accuracy "
                    "%{y:.4f}<extra></extra>",
                )
            )
    fig.update_xaxes(title_text="Share of rows flagged (least confident first)", tickformat=".0%")
    fig.update_yaxes(title_text="Accuracy on the rows kept")
    fig.update_layout(
        title=dict(text=title or "Risk–coverage: each method's own ranking of the test rows"),
        template="plotly_white",
        height=560,
        # below the plot: beside it, eight long names left the curves a third of the width
        legend=dict(font=dict(size=10), orientation="h", yanchor="top", y=-0.18, x=0),
        margin=dict(l=60, r=20, t=60, b=50),
    )
    return fig
