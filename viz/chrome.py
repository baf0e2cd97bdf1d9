"""What the app's figures share around the plot: tick labels readable from a lecture
hall's middle rows, and a title that plotly's toolbar does not cover.

Outside presentation mode plotly shows its toolbar (download, zoom, pan, …) in the
figure's top right corner while the mouse is over the figure; a long title placed in
the middle of the top margin ran under it (issue 32). The title now starts below the
toolbar's band. `viz.presentation_figure` puts it back in the middle of the (larger)
margin: the app hides the toolbar while presenting.
"""

from __future__ import annotations

__all__ = ["TICK_PX", "TOOLBAR_PX", "readable_ticks", "title_below_toolbar"]

#: tick labels' size in px outside presentation mode (plotly's default is 12; the
#: presentation scale of 1.5 makes them 19.5)
TICK_PX = 13
#: where a title's text starts, in px below the figure's top edge: below the band plotly's
#: toolbar takes (26 px tall, 2 px below the edge, measured in Chromium); a 16 px title's box
#: rises 5 px above this point
TOOLBAR_PX = 34


def title_below_toolbar(title: dict) -> dict:
    """``title`` (a layout title dict) placed right below the toolbar's band.

    Its top is `TOOLBAR_PX` below the figure's top edge, whatever the margin: the
    figure's top margin must hold that band and the title's line(s).
    """
    return {**title, "yref": "container", "y": 1, "yanchor": "top", "pad": {"t": TOOLBAR_PX}}


def readable_ticks(fig) -> None:
    """Every axis of ``fig`` with `TICK_PX` tick labels (in place)."""
    fig.update_xaxes(tickfont_size=TICK_PX)
    fig.update_yaxes(tickfont_size=TICK_PX)
