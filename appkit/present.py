"""Presentation mode (``present=1``): the pages' figures with larger text."""

from __future__ import annotations

import streamlit as st

import viz

__all__ = ["figure", "readable"]


def figure(fig):
    """``fig`` as the page should show it: enlarged by `viz.presentation_figure` when presenting."""
    if st.session_state.get("present"):
        return viz.presentation_figure(fig)
    return fig


def readable(table):
    """``table`` for display: spaces for underscores in the headers, empty cells left empty.

    ``st.table`` then wraps a long header instead of cutting it ("final_delt…"), and
    a cell with nothing in it reads blank rather than "None".
    """
    shown = table.rename(columns=lambda c: str(c).replace("_", " ")).astype(object)
    return shown.where(shown.notna(), "")
