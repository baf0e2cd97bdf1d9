"""appkit.guard: problems shown as messages, never a traceback."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.helpers import shown


def test_page_guard_shows_a_message_and_details_instead_of_a_traceback():
    script = """
from appkit.guard import page_guard
from ternary.data import DataError
with page_guard("testing"):
    raise DataError("Your file has no label column.")
with page_guard("testing"):
    raise RuntimeError("boom")
"""
    at = AppTest.from_string(script).run()
    assert not at.exception
    assert shown(at.error[0]) == "Your file has no label column."
    assert "boom" in shown(at.error[1]) and "testing" in shown(at.error[1])
    assert len(at.expander) == 1  # the details, folded away
