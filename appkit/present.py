"""Presentation mode (``present=1``): the pages' figures with larger text."""

from __future__ import annotations

import streamlit as st

import viz

__all__ = ["figure"]


def figure(fig):
    """``fig`` as the page should show it: enlarged by `viz.presentation_figure` when presenting."""
    if st.session_state.get("present"):
        return viz.presentation_figure(fig)
    return fig
