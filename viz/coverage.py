"""The accuracy–coverage trade-off (Fig. 2 of the paper).

One marker per (δ method, routing) at its mean boundary-uncertain rate (x) and
mean decided accuracy (y); the CART baseline as a dashed line; efficiency
isolines η = (accuracy − baseline)/rate; CART's Chow reject curve (flag the
least confident x % instead) as the frontier a δ method has to beat.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from viz.chrome import readable_ticks, title_below_toolbar
from viz.colors import method_color

__all__ = [
    "CURVE_POINT",
    "ROUTING_SYMBOLS",
    "accuracy_coverage_figure",
    "place_labels",
    "risk_coverage_figure",
]

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
                # under the line, left of where it leaves the box: above it, the label
                # ran past the plot's top edge and was cut ("η = 0.15" read "η = 0.1")
                textposition="bottom left" if eta >= 0 else "top left",
                textfont=dict(color="#7a7a7a", size=10),
                cliponaxis=False,
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


def _majority_layer(fig, rate, x_max):
    fig.add_trace(
        go.Scatter(
            x=[0.0, x_max],
            y=[rate, rate],
            mode="lines",
            line=dict(color=_DEGENERATE, width=1, dash="dot"),
            name=f"majority class ({100 * rate:.1f}%)",
            hovertemplate=f"majority class: always answering it scores {rate:.4f}<extra></extra>",
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


#: approximate size of the plot area, for label placement: the figure's width on a 1400 px
#: page with the sidebar open, less its margins and legend, which grow with the text (measured
#: in Chromium: a plot area of about 630 x 440 px plain, 490 x 470 px presenting)
_FIGURE_PX, _SIDES_PX, _PLOT_HEIGHT_PX = 950.0, 330.0, 440.0
#: one character, one line and a marker at 10 px
_CHAR_PX, _LINE_PX, _MARKER_PX = 6.2, 13.0, 8.0
#: where a label may sit around its marker, in the order tried
_POSITIONS = (
    "top right",
    "bottom right",
    "top left",
    "bottom left",
    "middle right",
    "middle left",
    "top center",
    "bottom center",
)


def _label_box(px, py, text, position, scale=1.0):
    """The pixel box ``(x0, y0, x1, y1)`` of ``text`` placed at ``position`` of a marker,
    its text ``scale`` times the 10 px it is measured at."""
    w, h = _CHAR_PX * scale * len(text), _LINE_PX * scale
    vertical, horizontal = position.split()
    x0 = {"right": px + _MARKER_PX / 2, "left": px - _MARKER_PX / 2 - w, "center": px - w / 2}
    y0 = {"top": py + _MARKER_PX / 2, "bottom": py - _MARKER_PX / 2 - h, "middle": py - h / 2}
    left, bottom = x0[horizontal], y0[vertical]
    return (left, bottom, left + w, bottom + h)


#: the air kept around a label, in px at 10 px text
_GAP_PX = 3.0


def _grown(box, by: float):
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def _overlap(a, b) -> float:
    dx = min(a[2], b[2]) - max(a[0], b[0])
    dy = min(a[3], b[3]) - max(a[1], b[1])
    return max(dx, 0.0) * max(dy, 0.0)


#: the hollow markers' size in px (`_paper_layer`), as obstacles to the labels
_HOLLOW_PX = 12.0


def place_labels(xs, ys, texts, x_range, y_range, taken=None, scale=1.0, obstacles=None):
    """Text positions for labelled markers that keep the labels apart.

    Greedy: each label, left to right, takes the first position around its
    marker whose box overlaps no label already placed, no marker and stays in the
    plot; where every position collides it takes the least overlapping one, or
    None (no label: the hover still names the point) when that still covers
    another label. ``taken`` is a list of boxes already used (extended in place);
    ``scale`` is the text's size over 10 px (presentation mode's larger text needs
    larger boxes, so fewer labels fit and the others are left to the hover).
    ``obstacles`` are ``(xs, ys)`` of other markers no label should cover (the hollow
    reference markers drawn beside these; Fig. 2's labels ran over them, issue 32).

    Returns
    -------
    list of str or None, one plotly ``textposition`` per marker
    """
    (x0, x1), (y0, y1) = x_range, y_range
    plot = (_FIGURE_PX - _SIDES_PX * scale, _PLOT_HEIGHT_PX)
    sx, sy = plot[0] / max(x1 - x0, 1e-12), plot[1] / max(y1 - y0, 1e-12)
    pts = [((float(x) - x0) * sx, (float(y) - y0) * sy) for x, y in zip(xs, ys, strict=True)]
    markers = [
        (px - _MARKER_PX / 2, py - _MARKER_PX / 2, px + _MARKER_PX / 2, py + _MARKER_PX / 2)
        for px, py in pts
    ]
    if obstacles is not None:
        half = _HOLLOW_PX / 2
        for x, y in zip(*obstacles, strict=True):
            px, py = (float(x) - x0) * sx, (float(y) - y0) * sy
            markers.append((px - half, py - half, px + half, py + half))
    taken = [] if taken is None else taken
    out = [None] * len(pts)
    for i in sorted(range(len(pts)), key=lambda k: pts[k]):
        best, best_cost, best_box = None, np.inf, None
        for position in _POSITIONS:
            box = _label_box(*pts[i], str(texts[i]), position, scale)
            outside = max(0.0, -box[0]) + max(0.0, box[2] - plot[0])
            outside += max(0.0, -box[1]) + max(0.0, box[3] - plot[1])
            # with air around it: plotly's offsets from the marker are not the model's exactly
            # (Fig. 2's labels touched when presenting, issue 32)
            room = _grown(box, _GAP_PX * scale)
            cost = sum(_overlap(room, t) for t in taken) * 4 + 50 * outside
            cost += sum(_overlap(room, m) for j, m in enumerate(markers) if j != i)
            if cost < best_cost:
                best, best_cost, best_box = position, cost, box
            if cost == 0:
                break
        if best_box is not None and sum(_overlap(best_box, t) for t in taken) > 0:
            # no room: this label would touch another one (a fifth of it overlapping was
            # let through, and two labels ran into each other when presenting, issue 37)
            continue
        out[i] = best
        taken.append(best_box)
    return out


def _paper_layer(fig, paper_means, label="paper (CC18 means)"):
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
            name=label,
            customdata=np.column_stack([paper_means["delta_method"], paper_means["routing"]]),
            hovertemplate=label.split(" ")[0].rstrip(":")
            + ": %{customdata[0]} / %{customdata[1]}<br>uncertain %{x:.1%}"
            "<br>decided accuracy %{y:.4f}<extra></extra>",
        )
    )


def _combo_text(method, routing, note=None) -> str:
    name = (
        "CART" if method == "none" else f"{method} (h.m.)" if routing == "hard_middle" else method
    )
    return f"{name}: {note}" if _noted(note) else str(name)


def _combo_texts(frame) -> list[str]:
    """`_combo_text` of each row of ``frame`` (its ``note`` where it has that column)."""
    notes = frame["note"] if "note" in frame.columns else [None] * len(frame)
    return [
        _combo_text(m, r, n)
        for m, r, n in zip(frame["delta_method"], frame["routing"], notes, strict=True)
    ]


def _noted(note) -> bool:
    return isinstance(note, str) and bool(note)


#: the ring around a degenerate combination's marker (a single leaf, nothing or all flagged)
_DEGENERATE = "#c62828"


def _degenerate_layer(fig, summary):
    """A red ring around each combination whose ``note`` says its fit was degenerate."""
    marked = summary[[_noted(n) for n in summary["note"]]]
    if not len(marked):
        return
    fig.add_trace(
        go.Scatter(
            x=marked["uncertain_rate"],
            y=marked["decided_accuracy"],
            mode="markers",
            marker=dict(symbol="circle-open", size=26, color=_DEGENERATE, line=dict(width=2.5)),
            cliponaxis=False,  # whole at x = 0, where a single leaf (nothing flagged) sits
            name="degenerate fit (one leaf, or nothing or all flagged)",
            text=[
                f"{_combo_text(m, r)}"
                + (f", {_value_text(p, v)}" if isinstance(p, str) else "")
                + f": {n}"
                for m, r, p, v, n in zip(
                    marked["delta_method"],
                    marked["routing"],
                    marked["param"] if "param" in marked else [None] * len(marked),
                    marked["value"] if "value" in marked else [None] * len(marked),
                    marked["note"],
                    strict=True,
                )
            ],
            hovertemplate="%{text}<extra></extra>",
        )
    )


def _combo_layer(fig, summary, baseline, positions):
    """One marker trace per (δ method, routing), with error bars and η in the hover.

    ``positions`` maps (method, routing) to its label's place (None: no label).
    """
    has_std = "decided_accuracy_std" in summary.columns
    notes = summary["note"] if "note" in summary.columns else pd.Series(None, summary.index)
    for (method, routing), group in summary.groupby(["delta_method", "routing"], sort=False):
        note = notes[group.index[0]]
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
                text=[
                    _combo_text(method, routing, note) if positions.get((method, routing)) else ""
                    for _ in rate
                ],
                textposition=positions.get((method, routing)) or "top right",
                textfont=dict(size=10),
                name="CART (δ = 0)" if method == "none" else f"{method} / {routing}",
                customdata=eta,
                hovertemplate=f"{method} / {routing}<br>uncertain %{{x:.1%}}<br>decided accuracy "
                "%{y:.4f}<br>η = %{customdata:.3f}"
                + (f"<br>{note}" if _noted(note) else "")
                + "<extra></extra>",
            )
        )


def _value_text(param, value):
    if isinstance(value, (int, float, np.number)):
        return f"{param}={value:g}"
    return f"{param}={value}"


def _sweep_layer(fig, sweep, x_range, y_range, taken, scale=1.0):
    """The swept operating points joined by a line, labelled with their values.

    A value's label is left out where it would cover another label (the hover
    and the table below the chart still give it).
    """
    _require(sweep, ["param", "value", "uncertain_rate", "decided_accuracy"], "sweep")
    keys = [c for c in ("param", "delta_method", "routing") if c in sweep.columns]
    for key, group in sweep.groupby(keys, sort=False):
        key = key if isinstance(key, tuple) else (key,)
        label = " / ".join(str(k) for k in key)
        group = group.sort_values("value")
        method = group["delta_method"].iloc[0] if "delta_method" in group else None
        param = group["param"].iloc[0]
        texts = [_value_text(param, v) for v in group["value"]]
        places = place_labels(
            group["uncertain_rate"],
            group["decided_accuracy"],
            texts,
            x_range,
            y_range,
            taken,
            scale,
        )
        fig.add_trace(
            go.Scatter(
                x=group["uncertain_rate"],
                y=group["decided_accuracy"],
                mode="lines+markers+text",
                line=dict(color=method_color(method), width=1.5),
                marker=dict(size=7, color=method_color(method)),
                text=[t if p else "" for t, p in zip(texts, places, strict=True)],
                hovertext=texts,
                # (parameter, value, method, routing): a click on a point names its setting
                customdata=[
                    [param, v, method, group["routing"].iloc[0] if "routing" in group else None]
                    for v in group["value"]
                ],
                textposition=[p or "bottom right" for p in places],
                textfont=dict(size=10),
                name=f"sweep: {label}",
                hovertemplate="%{hovertext}<br>uncertain %{x:.1%}<br>decided accuracy %{y:.4f}"
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
    reference_label="paper (CC18 means)",
    label_scale=1.0,
    majority_rate=None,
) -> go.Figure:
    """Decided accuracy against boundary-uncertain rate, one point per combination.

    Parameters
    ----------
    summary : DataFrame with columns delta_method, routing, decided_accuracy,
        uncertain_rate (means), optionally decided_accuracy_std (error bars) and
        note (text: a degenerate fit, such as "one leaf", ringed in red and added
        to the point's label; empty or missing where there is none)
    baseline_accuracy : float, CART's accuracy (the dashed line)
    chow_curve : DataFrame with uncertain_rate, decided_accuracy, optional
        CART's decided accuracy when it flags its least confident rows
    paper_means : DataFrame with delta_method, routing, decided_accuracy,
        uncertain_rate, optional; drawn hollow as "paper (CC18 means)"
    isolines : sequence of float, efficiencies η drawn as lines
        ``y = baseline + η·x``
    sweep : DataFrame with param, value, uncertain_rate, decided_accuracy
        (and optionally delta_method, routing, note), optional; operating points of
        a parameter sweep joined by a line, labelled with the values (a noted value
        ringed like a noted combination)
    title : str, optional
    reference_label : str, the legend name of ``paper_means``' hollow markers
    label_scale : float, the size the point labels will be shown at over 10 px (1.5
        in presentation mode), so they are placed apart at that size
    majority_rate : float, optional, the accuracy of always answering the majority
        class; drawn as a labelled line where it falls inside the plotted range (a
        single-leaf fit sits on it); not drawn outside it (it would squash the plot)

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
    if majority_rate is not None and y_range[0] <= float(majority_rate) <= y_range[1]:
        _majority_layer(fig, float(majority_rate), x_max)
    if chow_curve is not None and len(chow_curve):
        _chow_layer(fig, chow_curve)
    if paper_means is not None and len(paper_means):
        _paper_layer(fig, paper_means, reference_label)
    firsts = summary.groupby(["delta_method", "routing"], sort=False).first().reset_index()
    taken = []
    places = place_labels(
        firsts["uncertain_rate"],
        firsts["decided_accuracy"],
        _combo_texts(firsts),
        (0.0, x_max),
        y_range,
        taken,
        label_scale,
        obstacles=None
        if paper_means is None
        else (paper_means["uncertain_rate"], paper_means["decided_accuracy"]),
    )
    positions = dict(
        zip(zip(firsts["delta_method"], firsts["routing"], strict=True), places, strict=True)
    )
    _combo_layer(fig, summary, baseline, positions)
    noted = [f for f in (summary, sweep) if f is not None and "note" in f.columns]
    if noted:  # the combinations', then the swept values', in one ring trace
        _degenerate_layer(fig, pd.concat(noted, ignore_index=True))
    if sweep is not None and len(sweep):
        _sweep_layer(fig, sweep, (0.0, x_max), y_range, taken, label_scale)
    fig.update_xaxes(
        title_text="Mean boundary-uncertain rate",
        tickformat=".0%",
        range=[0.0, x_max],
        zeroline=False,
    )
    fig.update_yaxes(title_text="Mean decided accuracy", range=y_range)
    readable_ticks(fig)
    fig.update_layout(
        title=title_below_toolbar(dict(text=title or "Accuracy–coverage trade-off")),
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
    readable_ticks(fig)
    fig.update_layout(
        title=title_below_toolbar(
            dict(
                text=title
                or "Accuracy on the rows kept: each method's own ranking of the test rows"
            )
        ),
        template="plotly_white",
        height=560,
        # below the plot: beside it, eight long names left the curves a third of the width
        legend=dict(font=dict(size=10), orientation="h", yanchor="top", y=-0.18, x=0),
        margin=dict(l=60, r=20, t=60, b=50),
    )
    return fig
