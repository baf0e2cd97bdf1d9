"""Presentation mode (``present=1``): the pages' figures with larger text, on one screen.

A projected page is read from its first screen: `page_head` puts the title's
explanation behind a "?" (`st.title`'s help) instead of four lines of caption, and
`screen_box` gives the page's main figure the height the window has left below the
title, its controls and a one-line row of numbers (app.py's presentation CSS draws
the metric cards that way), whatever the projector's resolution: 1024 × 768, 1400 × 900
or 1920 × 1080. Outside presentation mode both leave the page as it was.
"""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

import viz
from appkit.guard import capped

__all__ = [
    "HEADERS",
    "SCALE",
    "figure",
    "headers",
    "label_scale",
    "on",
    "page_head",
    "readable",
    "screen_box",
    "shown_table",
]


#: how much larger a figure's text is in presentation mode
SCALE = 1.5


def on() -> bool:
    """Whether the page is presented (``present=1``, or the sidebar's switch)."""
    return bool(st.session_state.get("present"))


def page_head(title: str, caption: str):
    """The page's title and what its figure shows; returns ``name(ds)``, which the page
    calls once its dataset is known to name it.

    Presenting, the caption folds into the title's "?" (its help tooltip) and the
    dataset's name joins the title ("Decision regions · two moons"), so the first
    screen is left to the figure; otherwise the caption is under the title and the
    dataset's line (`appkit.links.dataset_line`) between them.
    """
    from appkit.links import dataset_line

    slot = st.empty()
    slot.title(title, help=caption if on() else None)  # until the dataset is known
    if not on():
        st.caption(caption)

    def name(ds) -> None:
        if on():
            slot.title(f"{title} · {capped(ds.name)}", help=caption + "\n\n" + dataset_line(ds))
        else:
            with slot.container():
                st.title(title)
                st.caption(dataset_line(ds))

    return name


#: the least height of a `screen_box`, in px: on a short window the box scrolls with the
#: page rather than squeezing its figure
_MIN_BOX_PX = 320


def screen_box(
    key: str, above_px: float, share: float = 1.0, *, fallback_px: int = 520, horizontal=False
):
    """A container as tall as ``share`` of the window's height less ``above_px``, presenting.

    ``above_px`` is what the page draws above the box at presentation size (the
    Streamlit header's band, the title, the controls, a line of numbers), measured in
    Chromium; ``share`` splits the rest between boxes stacked one over the other. A
    plotly chart inside drawn with ``height="stretch"`` fills the box, relaid out by
    plotly whenever the window changes. A container of fixed height (Streamlit's
    own) whose height CSS makes follow the window: ``100vh`` is not known on the
    server. ``horizontal``: its children side by side. Not presenting, a plain
    container (``fallback_px`` unused).
    """
    if not on():
        return st.container(key=key, horizontal=horizontal)
    # app.py's presentation CSS may set --above-px for narrow windows, where rows wrap
    above = f"var(--above-{key}, {above_px:g}px)"
    height = f"max({_MIN_BOX_PX}px, calc({share:g} * (100vh - {above})))"
    # the wrapper Streamlit puts around a fixed-height container sizes it by flex-basis
    st.html(
        f"<style>div:has(> .st-key-{key}), .st-key-{key} {{ height: {height} !important; "
        f"max-height: none !important; flex: 0 0 {height} !important; }}</style>"
    )
    return st.container(height=fallback_px, border=False, key=key, horizontal=horizontal)


def figure(fig):
    """``fig`` as the page should show it: enlarged by `viz.presentation_figure` when
    presenting, and every name and title in it held to `capped`'s length."""
    if st.session_state.get("present"):
        fig = viz.presentation_figure(fig, SCALE)
    return _capped_texts(fig)


def label_scale() -> float:
    """The size a figure's text will be shown at, over the plain page's: `SCALE` when
    presenting, else 1 (for figures that place their labels apart, which must know)."""
    return SCALE if st.session_state.get("present") else 1.0


def _capped_texts(fig):
    """``fig``, or a copy whose titles, axis titles and trace names are `capped`.

    They echo column and class names from an upload, which can be any length; the
    figure itself (often a cached object) is never changed.
    """
    if not any(_over(getattr(obj, attr, None)) for obj, attr in _text_slots(fig)):
        return fig
    fig = go.Figure(fig)
    for obj, attr in _text_slots(fig):
        if _over(getattr(obj, attr, None)):
            setattr(obj, attr, capped(getattr(obj, attr)))
    return fig


def _text_slots(fig) -> list:
    """``(object, attribute)`` of every text of ``fig`` that can hold a name from a file."""
    layout = fig.layout
    slots = [(layout.title, "text"), (layout.legend.title, "text")]
    slots += [(layout[name].title, "text") for name in layout if name[:5] in ("xaxis", "yaxis")]
    slots += [(a, "text") for a in layout.annotations or ()]
    return slots + [(t, "name") for t in fig.data]


def _over(text) -> bool:
    return isinstance(text, str) and capped(text) != text


def readable(table):
    """``table`` for display: spaces for underscores in the headers, empty cells left empty.

    ``st.table`` then wraps a long header instead of cutting it ("final_delt…"), and
    a cell with nothing in it reads blank rather than "None".
    """
    shown = table.rename(columns=lambda c: str(c).replace("_", " ")).astype(object)
    return shown.where(shown.notna(), "")


#: what a table's machine column names read as on screen. Downloads keep the machine names
#: (they match the library's own tables and stay easy to script against)
HEADERS = {
    # the graft report (`ternary.graft.GRAFT_REPORT_COLUMNS`, plus the class's label)
    "leaf": "leaf grafted (node)",
    "ancestor": "evidence from (node)",
    "feature": "feature #",
    "feature_name": "feature",
    "cut": "cut at",
    "side": "side",
    "class": "class code",
    "class_label": "new class",
    "laplace_cut": "Laplace accuracy, graft",
    "laplace_leaf": "Laplace accuracy, leaf",
    "p_value": "p-value",
    "new_split": "new split (node)",
    "new_leaf": "new leaf (node)",
    "n_region": "rows in region (T)",
    "n_class": "of the new class (P)",
    # the accuracy-coverage summary and sweep (`ternary.experiment.summarize`)
    "combo": "combination",
    "delta_method": "δ method",
    "routing": "routing",
    "graft": "grafted",
    "decided_accuracy": "decided accuracy",
    "decided_accuracy_std": "± std",
    "uncertain_rate": "uncertain share",
    "uncertain_pct": "uncertain %",
    "accuracy": "accuracy, all rows",
    "decided_f1": "decided F1",
    "cart_accuracy": "CART accuracy",
    "efficiency": "η",
    "chow_decided_accuracy": "Chow, same share flagged",
    "gain_vs_chow": "gain vs Chow",
    "chow_decided_accuracy_ties_mean": "Chow, ties averaged",
    "aurc": "AURC",
    "e_aurc": "E-AURC",
    "cart_aurc": "CART AURC",
    "cart_e_aurc": "CART E-AURC",
    "aurc_gain_vs_chow": "AURC gain vs Chow",
    "fit_seconds": "fit seconds",
    "n_leaves": "leaves",
}


def headers(table):
    """``table`` with the headers a reader sees (`HEADERS`; else underscores made spaces)."""
    return table.rename(columns=lambda c: HEADERS.get(str(c), str(c).replace("_", " ")))


def shown_table(table, digits: int = 4):
    """``table`` as ``st.dataframe`` should show it: readable headers (`headers`), numbers
    rounded to ``digits`` places without trailing zeros (61.8, 0.9621), and "—" where a
    value does not exist (CART's η, with nothing flagged) instead of the grid's "None".
    A pandas Styler, so the columns stay numeric and sort as numbers.
    """
    shown = headers(table)
    numeric = shown.select_dtypes("number").columns

    def number(value) -> str:
        return f"{value:.{digits}f}".rstrip("0").rstrip(".")

    return shown.style.format(number, subset=list(numeric), na_rep="—")
