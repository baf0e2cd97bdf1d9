"""`page_guard`: problems shown as readable messages instead of tracebacks."""

from __future__ import annotations

import traceback
from contextlib import contextmanager

import streamlit as st

from ternary.data import DataError

__all__ = ["page_guard"]


@contextmanager
def page_guard(what: str = "drawing this page"):
    """Show problems as a readable message instead of a traceback.

    A `DataError` (a problem with the data) is shown as its own message. Any
    other exception becomes a short apology plus an expander with the details
    for a bug report. Streamlit's own control flow (st.stop, st.rerun) derives
    from BaseException and passes through.
    """
    try:
        yield
    except DataError as exc:
        st.error(str(exc), icon="⚠️")
    except Exception as exc:  # noqa: BLE001 - the point is to catch everything
        st.error(
            f"Something went wrong while {what}: {exc}\n\nTry other settings or "
            "another dataset; the details below help if you report it.",
            icon="⚠️",
        )
        with st.expander("Details"):
            st.code(traceback.format_exc(), language="text")
