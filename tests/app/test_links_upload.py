"""A link made with uploaded data loads that upload again (issue 38 item 4): the upload is
kept on the server under its key, so a reload or a new tab shows the same data; a link
whose upload is gone says so on the page until dismissed, naming the file."""

from __future__ import annotations

import hashlib

import pytest
from streamlit.testing.v1 import AppTest

from appkit import uploads, vocabulary
from appkit.state import DEFAULTS
from tests.app.helpers import GOOD_CSV, assert_clean, open_app, open_link

needs_upload = pytest.mark.skipif(
    not hasattr(AppTest, "file_uploader"), reason="AppTest cannot upload files"
)


def _param(at: AppTest, key: str) -> str:
    value = at.query_params[key]
    return value[0] if isinstance(value, list) else value


def _link_of(at: AppTest) -> dict:
    return {k: _param(at, k) for k in at.query_params}


@needs_upload
def test_the_link_of_an_upload_carries_its_key_and_loads_it_in_a_new_session():
    at = open_app("data")
    at.file_uploader(key="upload").set_value(("people.csv", GOOD_CSV, "text/csv")).run()
    assert_clean(at)
    link = _link_of(at)
    key = hashlib.sha256(GOOD_CSV).hexdigest()
    assert link["upload"] == key and link["upload_file"] == "people.csv"
    assert link["upload_label"] == "label" and "dataset" not in link
    assert uploads.default_store().get(key).data == GOOD_CSV
    first = at.session_state["user_dataset"]

    again = open_link(link, "data")  # a reload, a new tab, a colleague: a new session
    assert_clean(again)
    ds = again.session_state["user_dataset"]
    assert again.session_state["dataset"] == vocabulary.USER_PREFIX + "people"
    assert ds.name == first.name and ds.X.equals(first.X) and list(ds.y) == list(first.y)
    assert _link_of(again)["upload"] == key  # the address keeps it
    assert "No dataset loaded yet" not in " ".join(i.value for i in again.info)


@needs_upload
def test_the_label_column_and_gap_policy_travel_with_the_key():
    at = open_app("data")
    at.file_uploader(key="upload").set_value(("people.csv", GOOD_CSV, "text/csv")).run()
    at.selectbox(key="upload_target").set_value("colour").run()
    at.selectbox(key="upload_missing").set_value("drop").run()
    assert_clean(at)
    link = _link_of(at)
    assert link["upload_label"] == "colour" and link["upload_missing"] == "drop"
    again = open_link(link, "data")
    assert_clean(again)
    assert again.session_state["user_dataset"].target == "colour"
    assert again.session_state["upload_source"]["missing"] == "drop"


def test_a_link_whose_upload_is_gone_says_so_until_dismissed():
    key = hashlib.sha256(b"rows nobody kept").hexdigest()
    at = open_link({"upload": key, "upload_file": "credit-g.csv", "max_depth": "3"}, "data")
    assert not at.exception
    said = " ".join(w.value for w in at.warning).replace("\\", "")
    assert "'credit-g.csv'" in said and "no longer keeps" in said
    assert "Upload the file again on the Your data page" in said
    assert DEFAULTS["dataset"] in said  # what is shown meanwhile
    assert at.session_state["dataset"] == DEFAULTS["dataset"]
    assert at.session_state["max_depth"] == 3  # the rest of the link still applies
    at.run()  # still there on the next run
    assert any("credit-g.csv" in w.value.replace("\\", "") for w in at.warning)
    at.button(key="dismiss_upload_gone").click().run()
    assert not any("credit-g.csv" in w.value.replace("\\", "") for w in at.warning)
    assert "upload_gone" not in at.session_state


def test_an_old_link_naming_the_file_says_which_file_to_upload():
    at = open_link({"upload": "people.csv", "max_depth": "3"})
    assert not at.exception
    said = " ".join(w.value for w in at.warning).replace("\\", "")
    assert "'people.csv'" in said and "Upload the file again" in said
    assert at.session_state["dataset"] == DEFAULTS["dataset"]
    assert vocabulary.USER_PREFIX not in at.session_state["dataset"]


def test_a_hostile_key_reads_nothing_and_names_no_path():
    at = open_link({"upload": "../../etc/passwd", "upload_file": "x.csv"})
    assert not at.exception
    assert at.session_state["dataset"] == DEFAULTS["dataset"]
    said = " ".join(w.value for w in at.warning).replace("\\", "")
    assert "'x.csv'" in said and "root:" not in said


@needs_upload
def test_an_evicted_upload_is_gone_even_while_the_server_holds_it_in_memory():
    at = open_app("data")
    at.file_uploader(key="upload").set_value(("people.csv", GOOD_CSV, "text/csv")).run()
    link = _link_of(at)
    assert_clean(open_link(link, "data"))  # loaded once: the server's cache holds it
    store = uploads.default_store()
    import shutil

    shutil.rmtree(store.root / link["upload"])
    gone = open_link(link, "data")
    said = " ".join(w.value for w in gone.warning).replace("\\", "")
    assert "'people.csv'" in said and "no longer keeps" in said
    assert gone.session_state["dataset"] == DEFAULTS["dataset"]


def test_a_kept_upload_with_a_wrong_label_loads_and_names_the_columns():
    key = uploads.default_store().put(GOOD_CSV, "people.csv")
    link = {"upload": key, "upload_file": "people.csv", "upload_label": "nosuch"}
    at = open_link(link, "data")
    assert not at.exception and not at.error
    said = " ".join(w.value for w in at.warning).replace("\\", "")
    assert "no longer keeps" not in said, said
    assert "'nosuch' is not a column" in said, said
    assert "height, weight, colour, label" in said  # the file's columns, listed
    # the upload is loaded with its last column as the label, as a fresh upload would be
    assert at.session_state["dataset"] == vocabulary.USER_PREFIX + "people"
    assert at.session_state["user_dataset"].target == "label"
    assert _link_of(at).get("upload_label") == "label"  # the address now names a real column
    at.button(key="dismiss_upload_gone").click().run()
    assert not any("nosuch" in w.value.replace("\\", "") for w in at.warning)
