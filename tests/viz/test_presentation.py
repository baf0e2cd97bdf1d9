"""`viz.presentation_figure`: every text larger, and room made for it (issue 21)."""

from __future__ import annotations

import plotly.graph_objects as go

from viz.presentation import presentation_figure


def _figure(title: str, height: int = 460) -> go.Figure:
    fig = go.Figure([go.Scatter(x=[0, 1], y=[0, 1], name=f"class {k}") for k in range(3)])
    fig.update_layout(title=dict(text=title), height=height, margin=dict(t=80))
    return fig


def test_text_grows_and_titles_stay_larger_than_the_body():
    fig = _figure("Node 0: x ≤ θ")
    big = presentation_figure(fig)
    assert big.layout.font.size == 18.0 and big.layout.legend.font.size == 18.0
    assert big.layout.title.font.size >= 1.4 * big.layout.font.size
    assert fig.layout.font.size is None and fig.layout.title.font.size is None  # not modified
    assert big.layout.legend.orientation is None  # a one-line title leaves the legend beside


def test_a_tall_title_gets_its_room_and_the_legend_stays_beside_the_plot():
    long = "Node 0: pixel_4_4 ≤ θ = 0.5, n = 1257 — margin δ = 0.5 [tree]"
    note = "<sup>majority left c_L = 0, right c_R = 1; δ = distance from θ to the nearest row</sup>"
    big = presentation_figure(_figure(f"{long}<br>{note}"))
    lines = big.layout.title.text.count("<br>") + 1
    assert lines >= 4  # wrapped for the projector
    size = big.layout.title.font.size
    # plotly centres a multi-line title below the margin's middle: about 2.1 lines each
    assert big.layout.margin.t >= 2.1 * lines * size
    # beside the plot, hung from its top edge under the title (issue 32: below it, Fig. 2's
    # twelve entries left the plot 245 px tall at 1400 px)
    legend = big.layout.legend
    assert legend.orientation != "h" and (legend.x, legend.y, legend.yanchor) == (1.02, 1, "top")
    # the figure grows by the extra margin only, so the plot area keeps its height
    assert big.layout.height - big.layout.margin.t == 460 * (1 + 0.5 / 3) - 80 * 1.5
