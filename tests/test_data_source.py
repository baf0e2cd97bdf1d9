"""Tests for reading sources (ternary/data/_source.py) and load_file/list_local_arff (_files.py).

Uploads are never consumed or modified; load_file picks the loader by extension.
"""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest

from ternary.data import DataError, list_local_arff, load_csv, load_file


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


# ---------------------------------------------------------------------------
# Uploads are never consumed or modified
# ---------------------------------------------------------------------------

CSV_BYTES = b"a,b,y\n1,2,p\n3,4,q\n5,6,p\n"


class FakeUpload(io.BytesIO):
    """Like Streamlit's UploadedFile: a BytesIO with a name and a size."""

    def __init__(self, data: bytes, name: str) -> None:
        super().__init__(data)
        self.name = name
        self.size = len(data)


class ReadOnlyStream:
    """A file-like object with read/seek/tell but no getvalue."""

    def __init__(self, data: bytes) -> None:
        self._buf = io.BytesIO(data)
        self.name = "stream.csv"

    def read(self, n: int = -1) -> bytes:
        return self._buf.read(n)

    def seek(self, pos: int, whence: int = 0) -> int:
        return self._buf.seek(pos, whence)

    def tell(self) -> int:
        return self._buf.tell()

    def seekable(self) -> bool:
        return True


def test_upload_object_is_not_consumed_or_mutated():
    upload = FakeUpload(CSV_BYTES, "mine.csv")
    upload.seek(7)
    ds = load_csv(upload)
    assert upload.tell() == 7
    assert upload.getvalue() == CSV_BYTES
    assert ds.name == "mine"
    assert ds.n_samples == 3
    # Loading twice gives the same result: nothing was used up.
    again = load_csv(upload)
    pd.testing.assert_frame_equal(ds.X, again.X)


def test_stream_without_getvalue_is_rewound_to_where_it_was():
    stream = ReadOnlyStream(CSV_BYTES)
    stream.seek(3)
    ds = load_csv(stream)
    assert stream.tell() == 3
    assert ds.n_samples == 3
    stream.seek(0)
    assert stream.read() == CSV_BYTES


def test_bytes_input_is_not_modified():
    buffer = bytearray(b"\xef\xbb\xbf" + CSV_BYTES)
    before = bytes(buffer)
    load_csv(buffer)
    assert bytes(buffer) == before


def test_upload_size_limit_uses_the_declared_size():
    upload = FakeUpload(CSV_BYTES, "big.csv")
    upload.size = 60 * 2**20
    with pytest.raises(DataError, match="too large"):
        load_csv(upload, max_bytes=50 * 2**20)


# ---------------------------------------------------------------------------
# load_file and list_local_arff
# ---------------------------------------------------------------------------

SMALL_ARFF = b"""% a comment
@relation tiny
@attribute width numeric
@attribute colour {red, green}
@attribute class {yes, no}
@data
1.0, red, yes
2.0, green, no
3.0, ?, yes
"""


def test_load_file_dispatches_on_extension(tmp_path):
    csv_path = write(tmp_path, "a.csv", CSV_BYTES)
    tsv_path = write(tmp_path, "b.tsv", CSV_BYTES.replace(b",", b"\t"))
    txt_path = write(tmp_path, "c.txt", CSV_BYTES.replace(b",", b";"))
    arff_path = write(tmp_path, "d.ARFF", SMALL_ARFF)
    assert load_file(csv_path).source == "csv"
    assert load_file(tsv_path).source == "csv"
    assert load_file(txt_path).source == "csv"
    arff_ds = load_file(arff_path)
    assert arff_ds.source == "arff" and arff_ds.n_samples == 3
    assert load_file(FakeUpload(SMALL_ARFF, "up.arff")).source == "arff"
    assert load_file(csv_path, target="a").class_names == ["1", "3", "5"]


def test_load_file_rejects_unknown_extensions(tmp_path):
    with pytest.raises(DataError, match=r"'\.xlsx'.*\.csv, \.tsv, \.txt or \.arff"):
        load_file(write(tmp_path, "sheet.xlsx", b"PK\x03\x04"))
    with pytest.raises(DataError, match="no extension"):
        load_file(FakeUpload(CSV_BYTES, "noext"))


def test_list_local_arff(tmp_path):
    for name in ("b.arff", "a.csv", "C.ARFF", "notes.txt"):
        write(tmp_path, name, b"x")
    (tmp_path / "sub.csv").mkdir()  # a folder named like a file is not listed
    assert [p.name for p in list_local_arff(tmp_path)] == ["a.csv", "b.arff", "C.ARFF"]
    with pytest.raises(DataError, match="Folder not found"):
        list_local_arff(tmp_path / "missing")
