"""A link made with uploaded data names the file to upload, not silently two moons."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from appkit import vocabulary
from appkit.state import DEFAULTS
from tests.app.helpers import GOOD_CSV, assert_clean, open_app, open_link


@pytest.mark.skipif(not hasattr(AppTest, "file_uploader"), reason="AppTest cannot upload files")
def test_the_link_of_an_upload_carries_its_file_name():
    at = open_app("data")
    at.file_uploader(key="upload").set_value(("people.csv", GOOD_CSV, "text/csv")).run()
    assert_clean(at)
    assert "people.csv" in at.query_params["upload"]
    assert "dataset" not in at.query_params


def test_opening_such_a_link_says_which_file_to_upload():
    at = open_link({"upload": "people.csv", "max_depth": "3"})
    assert not at.exception
    toasts = " ".join(t.value for t in at.toast).replace("\\", "")  # markdown escapes
    assert "'people.csv'" in toasts and "Upload that file on the Your data page" in toasts
    assert at.session_state["dataset"] == DEFAULTS["dataset"]
    assert DEFAULTS["dataset"] in toasts  # what is shown meanwhile
    assert at.session_state["max_depth"] == 3  # the rest of the link still applies
    assert vocabulary.USER_PREFIX not in at.session_state["dataset"]
