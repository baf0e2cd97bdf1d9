"""The your-data page (app_pages/5_your_data.py): uploads, the OpenML box, the
upload limit.
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from appkit import datasets, vocabulary
from ternary.data import MAX_FILE_BYTES
from tests.app.helpers import GOOD_CSV, PAGES, assert_clean, metrics, open_app, shown


@pytest.mark.skipif(not hasattr(AppTest, "file_uploader"), reason="AppTest cannot upload files")
def test_upload_drives_every_page_and_bad_files_show_an_error():
    at = open_app("data")
    at.file_uploader(key="upload").set_value(("people.csv", GOOD_CSV, "text/csv")).run()
    assert_clean(at)
    assert at.session_state["dataset"] == vocabulary.USER_PREFIX + "people"
    assert any("80 rows" in s.value for s in at.success)
    assert at.selectbox(key="upload_target").value == "label"  # default: the last column
    at.selectbox(key="upload_target").set_value("colour").run()
    assert_clean(at)
    assert sorted(at.session_state["user_dataset"].class_names) == ["blue", "red"]

    at.switch_page(PAGES["regions"]).run()
    assert_clean(at)
    assert len(at.get("plotly_chart")) == 1
    assert at.sidebar.selectbox(key="dataset").value == vocabulary.USER_PREFIX + "people"

    at.switch_page(PAGES["data"]).run()
    at.file_uploader(key="upload").set_value(
        ("photo.csv", b"\x89PNG\r\n\x1a\n\x00\x00", "text/csv")
    ).run()
    assert not at.exception
    assert len(at.error) == 1 and "PNG" in at.error[0].value
    # the last good dataset stays in use
    assert at.session_state["dataset"] == vocabulary.USER_PREFIX + "people"


def test_a_one_feature_dataset_gets_a_readable_error_not_a_traceback():
    at = open_app()
    ds, error = datasets.load_user_data(
        # x: 0..39 shuffled (in file order it would number the rows and be set aside)
        b"x,label\n" + b"".join(f"{(7 * i) % 40},{i % 2}\n".encode() for i in range(40)),
        "one.csv",
    )
    assert error is None
    at.session_state["user_dataset"] = ds
    at.session_state["user_dataset_key"] = datasets.dataset_key(ds)
    at.run()  # the sidebar now offers it
    at.selectbox(key="dataset").set_value(vocabulary.USER_PREFIX + ds.name).run()
    assert_clean(at)
    assert metrics(at)["Features"] == "1"
    at.switch_page(PAGES["regions"]).run()
    assert not at.exception
    assert len(at.error) == 1 and "needs two" in at.error[0].value


def test_openml_fetch_flow_without_network(monkeypatch):
    from ternary import data as tdata

    asked = []

    def fake_openml(key, *, cache_dir=None, target=None):
        asked.append((key, target))
        if key == 999999:
            raise tdata.DataError("OpenML has no dataset 999999.")
        ds = tdata.load_builtin("iris")
        ds.name = "iris (OpenML 61)"
        return ds

    monkeypatch.setattr(tdata, "load_openml", fake_openml)
    assert datasets.load_openml_data("  ") == (
        None,
        "Type an OpenML dataset id (e.g. 61) or name (e.g. iris).",
    )
    at = open_app("data")
    at.radio(key="data_source").set_value("OpenML").run()
    at.text_input(key="openml_query").input("999999").run()
    at.button[0].click().run()
    assert not at.exception
    assert [shown(e) for e in at.error] == ["OpenML has no dataset 999999."]
    at.text_input(key="openml_query").input("61").run()
    at.button[0].click().run()
    assert_clean(at)
    assert asked == [(999999, None), (61, None)]  # ids are passed as integers
    assert at.session_state["dataset"] == vocabulary.USER_PREFIX + "iris (OpenML 61)"


def test_openml_box_takes_a_superscript_digit_as_a_name(monkeypatch, tmp_path):
    # '²'.isdigit() is True but int('²') raises: the box must look it up as a name and
    # show the loader's message, not a raw ValueError. Only OpenML's own fetch is
    # stubbed, so the app's and the loader's handling of the text both run.
    import openml

    asked = []

    def no_such_dataset(key, **kwargs):
        asked.append(key)
        raise RuntimeError(f"No active datasets exist with name {key}")

    monkeypatch.setenv("TERNARY_OPENML_CACHE", str(tmp_path))
    monkeypatch.setattr(openml.datasets, "get_dataset", no_such_dataset)
    at = open_app("data")
    at.radio(key="data_source").set_value("OpenML").run()
    at.text_input(key="openml_query").input("²").run()
    at.button[0].click().run()
    assert not at.exception
    assert asked == ["²"]  # passed on as text, never through int()
    assert [shown(e) for e in at.error] == [
        "OpenML has no dataset '²'. Check the id or name on openml.org."
    ]


def test_upload_caption_states_the_real_limit():
    at = open_app("data")
    import streamlit as st

    limit = min(st.get_option("server.maxUploadSize"), MAX_FILE_BYTES // 2**20)
    assert f"Up to {limit} MB" in at.get("file_uploader")[0].help
    assert datasets.upload_limit_mb() == limit
