"""appkit.uploads: uploads kept on the server, content-addressed, bounded, never listed
(issue 38 item 4)."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appkit import uploads
from appkit.uploads import UploadStore, is_key


def _store(tmp_path, max_bytes=10_000, days=7.0) -> UploadStore:
    return UploadStore(tmp_path / "uploads", max_bytes, days)


def test_an_upload_comes_back_under_the_sha256_of_its_bytes(tmp_path):
    store = _store(tmp_path)
    data = b"a,b,label\n1,2,x\n"
    key = store.put(data, "people.csv")
    assert key == hashlib.sha256(data).hexdigest() and len(key) == 64
    got = store.get(key)
    assert got is not None and got.data == data and got.name == "people.csv"
    assert store.has(key) and not store.has(hashlib.sha256(b"other").hexdigest())
    written = (store.root / key / "data").stat().st_mtime_ns
    assert store.put(data, "again.csv") == key  # the same bytes, one copy, not rewritten
    assert store.get(key).name == "again.csv" and store.total_bytes() == len(data)
    assert (store.root / key / "data").stat().st_mtime_ns == written


@pytest.mark.parametrize(
    "key",
    [
        "../" + "0" * 61,
        "0" * 63,
        "0" * 65,
        "A" * 64,
        "/etc/passwd",
        "",
        "0" * 64 + "\n",
        "..",
        None,
        123,
    ],
)
def test_a_key_that_is_not_64_hex_digits_reads_nothing(tmp_path, key):
    store = _store(tmp_path)
    store.put(b"x" * 10, "a.csv")
    (tmp_path / "secret").write_bytes(b"not an upload")
    assert not is_key(key)
    assert store.get(key) is None


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_no_text_but_a_well_formed_key_reaches_the_file_system(text):
    store = UploadStore("/nonexistent-ternary-store", 100, 1)
    if not is_key(text):
        with pytest.raises(ValueError):
            store._folder(text)
        assert store.get(text) is None
    else:
        assert store._folder(text).parent == store.root


def test_the_oldest_uploads_go_first_when_the_total_is_over(tmp_path, monkeypatch):
    clock = [1_000_000.0]
    monkeypatch.setattr(uploads.time, "time", lambda: clock[0])
    store = _store(tmp_path, max_bytes=1_000)
    keys = []
    for i in range(3):
        clock[0] += 10
        keys.append(store.put(bytes([65 + i]) * 400, f"f{i}.csv"))
    # 1,200 bytes do not fit in 1,000: the first (oldest) is gone, the other two stay
    assert store.get(keys[0]) is None
    assert store.get(keys[1]) is not None and store.get(keys[2]) is not None
    assert store.total_bytes() == 800
    clock[0] += 10
    store.put(bytes([65 + 1]) * 400, "f1.csv")  # stored again: now the newest
    clock[0] += 10
    store.put(b"D" * 400, "f3.csv")
    assert store.get(keys[2]) is None and store.get(keys[1]) is not None


def test_an_upload_older_than_the_age_bound_is_gone(tmp_path, monkeypatch):
    clock = [1_000_000.0]
    monkeypatch.setattr(uploads.time, "time", lambda: clock[0])
    store = _store(tmp_path, days=1)
    key = store.put(b"old rows", "old.csv")
    clock[0] += 86_400 - 1
    assert store.get(key) is not None
    clock[0] += 2
    assert store.get(key) is None and not store.has(key)
    store.put(b"new rows", "new.csv")  # storing evicts the expired folder
    assert not (store.root / key).exists()


def test_an_upload_larger_than_the_store_is_not_kept(tmp_path):
    store = _store(tmp_path, max_bytes=100)
    key = store.put(b"x" * 101, "big.csv")
    assert store.get(key) is None and store.total_bytes() == 0


def test_a_damaged_copy_is_no_copy(tmp_path):
    store = _store(tmp_path)
    key = store.put(b"rows", "a.csv")
    (store.root / key / "data").write_bytes(b"other rows")
    assert store.get(key) is None


def test_the_store_folder_is_private(tmp_path):
    store = _store(tmp_path)
    store.put(b"rows", "a.csv")
    assert (store.root.stat().st_mode & 0o077) == 0


def test_the_default_store_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("TERNARY_UPLOAD_DIR", str(tmp_path / "here"))
    monkeypatch.setenv("TERNARY_UPLOAD_MAX_MB", "2")
    monkeypatch.setenv("TERNARY_UPLOAD_MAX_DAYS", "0.5")
    store = uploads.default_store()
    assert store.root == tmp_path / "here" and store.max_bytes == 2 * 2**20
    assert store.max_age_seconds == 43_200
