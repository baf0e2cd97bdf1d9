"""Tests for reading sources (ternary/data/_source.py) and load_file/list_local_arff (_files.py).

Uploads are never consumed or modified; load_file picks the loader by extension.
"""

from __future__ import annotations

import io
import os
import threading
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ternary.data import DataError, list_local_arff, load_csv, load_file
from ternary.data.scan import check_line_lengths, line_of


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


# ---------------------------------------------------------------------------
# Hostile sources: bounded cost, never a hang
# ---------------------------------------------------------------------------


def _load_in_thread(path: Path) -> BaseException | None:
    """Load in a daemon thread: a regression that blocks fails the test instead of hanging."""
    outcome: list[BaseException | None] = []

    def run():
        try:
            load_csv(path)
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 - handed to the test to inspect
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(30)
    assert outcome, "loading blocked instead of refusing"
    return outcome[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes need a POSIX system")
def test_named_pipe_without_writer_is_refused_not_waited_on(tmp_path):
    pipe = tmp_path / "pipe.csv"
    os.mkfifo(pipe)
    error = _load_in_thread(pipe)
    assert isinstance(error, DataError)
    assert "named pipe (FIFO), not a regular file" in str(error)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_endless_device_is_refused():
    error = _load_in_thread(Path("/dev/zero"))
    assert isinstance(error, DataError) and "is a device" in str(error)


class EndlessStream:
    """A stream that never ends, and remembers how much it was asked for."""

    name = "endless.csv"

    def __init__(self):
        self.asked = []

    def read(self, size=-1):
        self.asked.append(size)
        size = 6000 if size < 0 else size
        return (b"a,b,y\n" * (size // 6 + 1))[:size]


def test_endless_stream_is_read_only_up_to_the_limit():
    stream = EndlessStream()
    with pytest.raises(DataError, match="too large"):
        load_csv(stream, max_bytes=600)
    assert stream.asked == [601]


def test_line_longer_than_the_limit_is_refused_naming_it():
    data = b"a,b,y\n1,2,p\n" + b"1," * (2**19 + 1) + b"p\n3,4,q\n"
    with pytest.raises(DataError, match=r"^Line 3 is longer than 1\.0 MB"):
        load_csv(data)


def _first_long_line(data: bytes, limit: int) -> int | None:
    """Reference: walk the bytes, and number the first line over the limit by its "\\n"s."""
    start = 0
    for i in range(len(data) + 1):
        if i == len(data) or data[i] in b"\r\n":
            if i - start > limit:
                return line_of(data, start)  # lines end at LF, CRLF and a lone CR
            start = i + 1
    return None


@settings(max_examples=60, deadline=None)
@given(
    lengths=st.lists(st.integers(0, 40), min_size=1, max_size=12),
    breaks=st.lists(st.sampled_from([b"\n", b"\r\n", b"\r"]), min_size=12, max_size=12),
    limit=st.integers(1, 30),
    block=st.integers(1, 50),
)
def test_line_length_check_names_the_first_long_line(lengths, breaks, limit, block):
    # Small blocks make lines cross block edges, the part of the scan most likely wrong.
    data = b"".join(b"x" * n + sep for n, sep in zip(lengths, breaks, strict=False))[:-1]
    expected = _first_long_line(data, limit)
    if expected is None:
        check_line_lengths(data, limit, block)
    else:
        with pytest.raises(DataError, match=rf"^Line {expected} is longer"):
            check_line_lengths(data, limit, block)


def test_bom_followed_by_invalid_utf8_is_refused_naming_the_line():
    data = b"\xef\xbb\xbfa,b,y\n1,2,p\n3,\xff4,q\n"
    with pytest.raises(DataError, match=r"^Line 3: the file starts with a UTF-8 byte-order mark"):
        load_csv(data)
    # A BOM over valid UTF-8 still loads, with clean names.
    assert load_csv(data.replace(b"\xff", b"")).feature_names == ["a", "b"]
