"""The accuracy–coverage plane of one setting, for the lecture view of Decision regions.

A small figure beside the regions and the tree: the setting's own point (a star)
among the other δ methods' points, fitted and scored on the same rows, over
CART's accuracy (dashed), CART's Chow reject curve (flag its least confident
rows instead, the frontier a δ method must beat) and the efficiency lines
η = (accuracy − CART's) / share flagged. It reads like the Accuracy vs. coverage
page's Fig. 2, on one split instead of cross-validation, so it follows every slider.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from viz.colors import method_color
from viz.coverage import ROUTING_SYMBOLS

__all__ = ["setting_point_figure"]

#: efficiencies drawn as dotted lines, as on the Accuracy vs. coverage page
_ISOLINES = (0.05, 0.10, 0.15)


def _extent(points, setting, baseline, chow):
    xs = [np.asarray(points["uncertain_rate"], float), [setting[0]]]
    ys = [np.asarray(points["decided_accuracy"], float), [setting[1], baseline]]
    if chow is not None and len(chow):
        xs.append(np.asarray(chow["uncertain_rate"], float))
    x = np.concatenate([np.ravel(a) for a in xs])
    x = x[np.isfinite(x)]
    x_max = min(1.0, max(float(x.max()) if x.size else 0.0, 0.1) * 1.12)
    y = np.concatenate([np.ravel(np.asarray(a, float)) for a in ys])
    y = y[np.isfinite(y)]
    lo, hi = float(y.min()), float(y.max())
    pad = max(0.01, 0.12 * (hi - lo))
    return x_max, [lo - pad, min(1.0 + pad / 2, hi + pad)]


def _references(fig, baseline, x_max, y_range, chow_curve) -> None:
    """The efficiency lines, CART's accuracy (dashed, named on the line) and its Chow curve."""
    for eta in _ISOLINES:
        x_end = min(x_max, (y_range[1] - baseline) / eta)
        fig.add_trace(
            go.Scatter(
                x=[0.0, x_end],
                y=[baseline, baseline + eta * x_end],
                mode="lines+text",
                line=dict(color="#9a9a9a", width=1, dash="dot"),
                text=["", f"η={eta:g}"],
                textposition="bottom left",
                textfont=dict(color="#6b6b6b", size=12),
                showlegend=False,
                hovertemplate=f"efficiency η = {eta:g}<extra></extra>",
            )
        )
    fig.add_trace(
        go.Scatter(
            x=[0.0, x_max],
            y=[baseline, baseline],
            mode="lines+text",  # named on the line itself: the legend is kept short
            text=["", f"CART {100 * baseline:.1f}%"],
            textposition="bottom left",
            textfont=dict(color="#333333", size=12),
            showlegend=False,
            line=dict(color="#333333", width=1.5, dash="dash"),
            name=f"CART {100 * baseline:.1f}%",
            hovertemplate=f"CART accuracy {baseline:.3f}<extra></extra>",
        )
    )
    if chow_curve is not None and len(chow_curve):
        curve = chow_curve.sort_values("uncertain_rate")
        fig.add_trace(
            go.Scatter(
                x=curve["uncertain_rate"],
                y=curve["decided_accuracy"],
                mode="lines",
                line=dict(color="#555555", width=2),
                name="CART, Chow's rule",
                hovertemplate="CART flags its least confident %{x:.0%}<br>accuracy on the "
                "rest %{y:.3f}<extra></extra>",
            )
        )


def setting_point_figure(
    points,
    setting,
    *,
    baseline_accuracy,
    chow_curve=None,
    setting_label="this setting",
    routing="probabilistic",
    height=380,
) -> go.Figure:
    """The setting's point on the accuracy–coverage plane, beside the other δ methods'.

    Parameters
    ----------
    points : DataFrame with delta_method, uncertain_rate, decided_accuracy
        The other δ methods' points (same rows, same routing); may be empty
    setting : pair ``(uncertain_rate, decided_accuracy)``, the setting's own point;
        a decided accuracy that is NaN (everything flagged) is drawn at CART's
    baseline_accuracy : float, CART's accuracy on the same rows (the dashed line)
    chow_curve : DataFrame with uncertain_rate, decided_accuracy, optional
        CART flagging its least confident rows first
    setting_label : str, the star's name (the legend's and the hover's)
    routing : str, the routing of every point (their marker's shape)
    height : int, px

    Returns
    -------
    plotly.graph_objects.Figure

    Examples
    --------
    >>> import pandas as pd
    >>> pts = pd.DataFrame({"delta_method": ["margin"], "uncertain_rate": [0.2],
    ...                     "decided_accuracy": [0.95]})
    >>> fig = setting_point_figure(pts, (0.3, 0.97), baseline_accuracy=0.9)
    >>> [t.name for t in fig.data][-1]
    'this setting'
    """
    baseline = float(baseline_accuracy)
    rate, acc = float(setting[0]), float(setting[1])
    if not np.isfinite(acc):
        acc = baseline
    x_max, y_range = _extent(points, (rate, acc), baseline, chow_curve)
    fig = go.Figure()
    _references(fig, baseline, x_max, y_range, chow_curve)
    symbol = ROUTING_SYMBOLS.get(routing, "circle")
    for row in points.itertuples(index=False):
        fig.add_trace(
            go.Scatter(
                x=[row.uncertain_rate],
                y=[row.decided_accuracy],
                mode="markers",
                marker=dict(
                    symbol=symbol,
                    size=12,
                    color=method_color(row.delta_method),
                    line=dict(color="#222222", width=1),
                ),
                name=str(row.delta_method).replace("_", " "),
                hovertemplate=f"{row.delta_method}<br>flagged %{{x:.1%}}<br>decided accuracy "
                "%{y:.3f}<extra></extra>",
            )
        )
    fig.add_trace(
        go.Scatter(
            x=[rate],
            y=[acc],
            mode="markers+text",  # named beside the star: the legend holds the other points
            text=[setting_label],
            textposition="top center"
            if acc < y_range[1] - 0.25 * (y_range[1] - y_range[0])
            else "bottom center",
            textfont=dict(size=13, color="#111111"),
            cliponaxis=False,
            marker=dict(
                symbol="star", size=22, color="#111111", line=dict(color="#ffffff", width=1)
            ),
            name=setting_label,
            showlegend=False,
            hovertemplate=f"{setting_label}<br>flagged %{{x:.1%}}<br>decided accuracy "
            "%{y:.3f}<extra></extra>",
        )
    )
    fig.update_xaxes(
        title_text="share flagged (same rows as the cards)",
        tickformat=".0%",
        range=[0.0, x_max],
        zeroline=False,
    )
    fig.update_yaxes(title_text="accuracy, decided rows", range=y_range, tickformat=".0%")
    fig.update_layout(
        template="plotly_white",
        height=int(height),
        font=dict(size=13),
        legend=dict(font=dict(size=13), x=1.02, xanchor="left", y=1, yanchor="top"),
        margin=dict(l=56, r=10, t=16, b=46),
    )
    return fig
