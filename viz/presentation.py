"""Figures for a projector: the same figure with every text larger, laid out by plotly.

Enlarging plotly's text with CSS after plotly has laid the figure out clipped
legend entries and stacked legends on top of each other; scaling the sizes in
the figure itself lets plotly make room for them (margins, legend rows).
"""

from __future__ import annotations

import textwrap

import plotly.graph_objects as go

from viz.chrome import TOOLBAR_PX

__all__ = ["presentation_figure"]

#: plotly's own defaults, used where a figure leaves a size unset
_BODY_PX, _TITLE_PX, _SUBTITLE_PX = 12.0, 17.0, 16.0
#: the longest line of a subplot title, and of a figure's title, in characters
_LONG_TITLE, _LONG_MAIN_TITLE = 26, 34


def _wrap(text, width: int):
    """``text`` broken into lines of at most ``width`` characters (after " — " first)."""
    if not text or len(text) <= width:
        return text
    lines = []
    for line in text.split("<br>"):
        sup = line.startswith("<sup>") and line.endswith("</sup>")
        inner = line[5:-6] if sup else line
        if "<" in inner or len(inner) <= width:  # other markup: left whole
            lines.append(line)
            continue
        # a small note (<sup>) may be twice as wide; it must keep its tags on every line
        for part in inner.split(" — "):
            for piece in textwrap.wrap(part, 2 * width if sup else width) or [part]:
                lines.append(f"<sup>{piece}</sup>" if sup else piece)
    return "<br>".join(lines)


def _size(font, default: float) -> float:
    size = getattr(font, "size", None) if font is not None else None
    return float(size) if size else default


def _scale_axes(fig: go.Figure, body: float, scale: float) -> None:
    for name in fig.layout:
        if not (name.startswith("xaxis") or name.startswith("yaxis")):
            continue
        axis = fig.layout[name]
        axis.tickfont.size = _size(axis.tickfont, body) * scale
        axis.title.font.size = _size(axis.title.font, body) * scale


def presentation_figure(fig: go.Figure, scale: float = 1.5) -> go.Figure:
    """A copy of ``fig`` with every text ``scale`` times larger, and room made for it.

    Titles end up at least 1.4 times the body text (plotly's own ratio), the
    margins and the distance of a legend placed below the plot grow with the
    text, and the height grows a little so the plot area keeps its size.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure, not modified
    scale : float, how much larger

    Returns
    -------
    plotly.graph_objects.Figure
    """
    out = go.Figure(fig)
    layout = out.layout
    body = _size(layout.font, _BODY_PX)
    layout.font.size = body * scale
    layout.title.font.size = max(_size(layout.title.font, _TITLE_PX), 1.4 * body) * scale
    layout.legend.font.size = _size(layout.legend.font, body) * scale
    for annotation in layout.annotations or ():  # subplot titles are annotations
        annotation.font.size = max(_size(annotation.font, _SUBTITLE_PX), 1.2 * body) * scale
        # panels side by side: long titles on several lines, so they never meet
        annotation.text = _wrap(annotation.text, _LONG_TITLE)
    layout.title.text = _wrap(layout.title.text, _LONG_MAIN_TITLE)
    # the app hides plotly's toolbar while presenting: the title goes back to the middle
    # of the top margin, where the room made for it below is measured
    if layout.title.pad.t == TOOLBAR_PX:
        layout.title.update(yref=None, y=None, yanchor=None, pad=None)
    _scale_axes(out, body, scale)
    for trace in out.data:
        textfont = getattr(trace, "textfont", None)
        if textfont is not None and textfont.size:
            textfont.size = float(textfont.size) * scale
    margin = layout.margin
    for side, default in (("l", 80), ("r", 80), ("t", 100), ("b", 80)):
        value = getattr(margin, side)
        setattr(margin, side, (default if value is None else value) * scale)
    # room above the plot for every line of the (wrapped) title. Plotly centres a title of
    # several lines below the margin's middle, more so the more lines (measured in Chromium:
    # 35 px low for 4 lines, 51 px for 5), so such a title needs about 2.1 line heights per
    # line; the figure grows by as much, so the plot keeps its height
    title_lines = (layout.title.text or "").count("<br>") + 1
    per_line = 1.3 if title_lines == 1 else 2.1
    top = max(margin.t, 24 + per_line * title_lines * layout.title.font.size)
    extra, margin.t = top - margin.t, top
    if title_lines > 2 and layout.legend.orientation != "h":
        # a legend beside the plot stays beside it (below it, at 1400 px, a twelve-entry legend
        # left the plot 250 px tall), hung from the plot's top edge, under the tall title
        layout.legend.update(x=1.02, xanchor="left", y=1, yanchor="top")
    if layout.legend.orientation == "h" and layout.legend.y is not None and layout.legend.y < 0:
        layout.legend.y = layout.legend.y * scale  # below the axis title, which grew too
    if layout.height:
        layout.height = layout.height * (1 + (scale - 1) / 3) + extra
    return out
