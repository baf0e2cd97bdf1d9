"""Hostile input, round 3 (issue 22): line endings, a backtracking pattern, wide rows, UTF-32.

Every input here ends in a correct Dataset or a DataError. Those that once hung
or blew up run in a forked child that the test kills after a generous timeout,
so a regression fails the test instead of hanging the suite; the child's peak
memory is asserted (what the load added: well under 1 GB). The timeout is a
guard against a hang, not a speed claim: timings are measured in
benchmarks/bench_fuzz.py.
"""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import time

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ternary.data import DataError, load_arff, load_csv, read_header
from ternary.data.scan import count_breaks, count_rows

GUARD_SECONDS = 30.0


def run_forked(fn, timeout: float = GUARD_SECONDS) -> dict:
    """``fn()`` in a forked child: its outcome ("loaded: ..." or "DataError: ...") and peak MB.

    The peak is the child's maximum resident size minus its size at the start
    (a forked child starts with the parent's resident pages, which it shares).
    """
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read_end)
        start = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        try:
            result = f"loaded: {fn()}"
        except DataError as exc:
            result = f"DataError: {exc}"
        except BaseException as exc:  # noqa: BLE001 - reported to the parent as a failure
            result = f"crash: {type(exc).__name__}: {exc}"
        added = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - start
        with os.fdopen(write_end, "w") as fh:
            json.dump({"outcome": result[:2000], "peak_mb": added / 1024}, fh)
        os._exit(0)
    os.close(write_end)
    deadline = time.monotonic() + timeout
    while True:
        done, _, _ = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.wait4(pid, 0)
            os.close(read_end)
            pytest.fail(f"the load did not end within {timeout:.0f} s (killed)")
        time.sleep(0.01)
    with os.fdopen(read_end) as fh:
        text = fh.read()
    return json.loads(text) if text else {"outcome": "crash: the child died", "peak_mb": 0}


def _shape(loader, data):
    return lambda: str(loader(data).X.shape)


def _wide_csv(rows: int, cols: int, end: str) -> bytes:
    header = ",".join(f"c{i}" for i in range(cols - 1)) + ",y\n"
    row = ",".join(str(i % 7) for i in range(cols - 1))
    return (header + "".join(f"{row},{k % 2}{end}" for k in range(rows))).encode()


# --- 1. line endings: a lone CR is a row break for every limit -------------------------


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_the_value_limit_holds_for_every_line_ending(monkeypatch, end):
    def must_not_parse(*args, **kwargs):
        raise AssertionError("pandas parsed a file over the value limit")

    monkeypatch.setattr(pd, "read_csv", must_not_parse)
    # The header ends in LF and the rows in `end`: 7,600 x 2,000 = 15.2M values > 10M.
    data = _wide_csv(7_600, 2_000, end)
    with pytest.raises(DataError, match=r"7,600 rows × 2,000 columns = 15,200,000 values"):
        load_csv(data)


def test_the_cr_file_of_the_issue_is_refused_in_little_memory():
    # 15.2M values in CR-ended rows: it loaded (+1.8 GB at 150 MB); now a refusal
    result = run_forked(_shape(load_csv, _wide_csv(7_600, 2_000, "\r")))
    assert result["outcome"].startswith("DataError: The file has about 7,600 rows"), result
    assert result["peak_mb"] < 300, result


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_the_row_limit_holds_for_every_line_ending(end):
    # a: 0..29 shuffled (in file order it would number the rows and be set aside)
    data = ("a,y\n" + "".join(f"{(7 * k) % 30},{k % 2}{end}" for k in range(30))).encode()
    with pytest.raises(DataError, match="about 31 lines; the limit is 10 data rows"):
        load_csv(data, max_rows=10)
    assert load_csv(data).n_samples == 30


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([b"a", b"1,2", b"\n", b"\r", b"\r\n", b" "]), max_size=40),
       st.integers(0, 8))  # fmt: skip
def test_rows_and_breaks_are_counted_as_pandas_splits_lines(parts, start):
    data = b"".join(parts)
    start = min(start, len(data))
    if data[start - 1 : start + 1] == b"\r\n":
        start -= 1  # never start between the two bytes of one CRLF
    lines = re.split(rb"\r\n|\r|\n", data[start:])
    assert count_breaks(data, start) == len(lines) - 1
    assert count_rows(data, start) == sum(1 for line in lines if line)


def test_blank_lines_of_any_ending_are_not_counted_as_rows():
    rows = "".join(f"{k},{k % 2}\r\r\n\n\r" for k in range(12))
    ds = load_csv(("a,y\n" + rows).encode(), max_rows=12)
    assert ds.n_samples == 12
    np.testing.assert_array_equal(ds.X["a"], np.arange(12))


def test_cr_only_files_are_read_like_lf_files():
    lf = b"sep=;\nx;w;label\n1,5;2;a\n2,5;3;b\n3,0;1;a\n4,0;2;b\n"
    cr = load_csv(lf.replace(b"\n", b"\r"))
    ref = load_csv(lf)
    pd.testing.assert_frame_equal(cr.X, ref.X)
    assert list(cr.y) == list(ref.y) and cr.feature_names == ["x", "w"]
    arff = b"@relation r\r@attribute x numeric\r@attribute y {a,b}\r@data\r1,a\r2,b\r3,a\r"
    for data in (arff, arff.replace(b"2,b", b'2,"b"')):  # pandas, then liac-arff
        ds = load_arff(data)
        assert ds.n_samples == 3 and list(ds.y) == ["a", "b", "a"]


def test_the_arff_limits_count_cr_line_endings():
    rows = "".join(f"{k},{'ab'[k % 2]}\r" for k in range(30))
    data = ("@relation r\n@attribute x numeric\n@attribute y {a,b}\n@data\n" + rows).encode()
    with pytest.raises(DataError, match="about 30 lines of data; the limit is 10 rows"):
        load_arff(data, max_rows=10)
    assert load_arff(data).n_samples == 30


def test_an_error_in_the_first_data_row_is_reported_not_swallowed(monkeypatch):
    import csv

    class Broken:
        """A reader that reads the header and fails on the first data row."""

        def __init__(self, *args, **kwargs):
            self.rows, self.line_num = iter([["a", "y"]]), 1

        def __iter__(self):
            return self

        def __next__(self):
            try:
                return next(self.rows)
            except StopIteration:
                raise csv.Error("unexpected end of data") from None

    monkeypatch.setattr(csv, "reader", Broken)
    with pytest.raises(DataError, match=r"first data row \(line 2\): unexpected end of data"):
        load_csv(b"a,y\n1,0\n2,1\n")


def test_a_first_row_cell_over_the_csv_modules_limit_still_loads():
    big = "x" * 200_000  # over csv's default field limit of 131,072 characters
    data = f"note,a,y\n{big},1,0\nb,2,1\nc,3,0\nd,4,1\n".encode()
    assert load_csv(data).n_samples == 4


# --- 2. ARFF: liac-arff never sees a header it backtracks on ---------------------------


def _levels_arff(n_levels: int, trailing: str) -> bytes:
    levels = ",".join(f"v{i}" for i in range(n_levels))
    head = f"@relation r\n@attribute a numeric\n@attribute code {{{levels}}}{trailing}\n@data\n"
    # A double-quoted value: the data section is not plain, so liac-arff is used.
    return (head + '1,v1\n2,"v2"\n3,v3\n4,v39\n').encode()


@pytest.mark.parametrize("trailing", [" % codes of the site", " trailing", "}"])
def test_forty_nominal_levels_with_trailing_text_end_quickly(trailing):
    # (a doubled brace makes the last level "v39}": read, as Weka's own tolerance would)
    result = run_forked(_shape(load_arff, _levels_arff(40, trailing)))
    assert result["outcome"] == "loaded: (4, 1)", result
    assert result["peak_mb"] < 1024


def test_the_header_liac_arff_is_given_is_plain_and_equal_to_the_files(monkeypatch):
    import arff

    text = _levels_arff(40, " % codes").decode()
    given, loads = [], arff.loads

    def spy(text, *args, **kwargs):
        given.append(text)
        return loads(text, *args, **kwargs)

    monkeypatch.setattr(arff, "loads", spy)
    assert read_header(text.encode()) == ["a", "code"]
    load_arff(text.encode())
    header = given[-1].split("@data")[0]
    assert "%" not in header and header.splitlines()[2].endswith("'v39'}")
    ds = load_arff(text.encode())
    assert "Parsed with liac-arff." in ds.report
    assert list(ds.y) == ["v1", "v2", "v3", "v39"]


def test_levels_with_quotes_and_backslashes_survive_the_rewrite():
    text = (
        "@relation r\n@attribute a numeric\n"
        "@attribute c {'it\\'s', 'back\\\\slash', plain} % note\n@data\n"
        "1,'it\\'s'\n2,\"plain\"\n3,'back\\\\slash'\n4,plain\n"
    )
    ds = load_arff(text.encode())
    assert list(ds.y) == ["it's", "plain", "back\\slash", "plain"]


# --- 3. a first data row longer than the header ----------------------------------------


def test_a_first_row_of_500000_fields_is_refused_before_pandas():
    data = ("a,b,y\n" + ",".join("1" for _ in range(500_000)) + "\n1,2,3\n").encode()
    assert len(data) > 999_000
    result = run_forked(_shape(load_csv, data))
    assert result["outcome"].startswith(
        "DataError: Line 2 has 500,000 fields but the header names only 3 columns"
    ), result
    assert result["peak_mb"] < 1024


def test_empty_trailing_fields_are_still_dropped():
    ds = load_csv(b"a,b,y\n1,2,p,\n3,4,q,\n5,6,p,\n")
    assert ds.feature_names == ["a", "b"] and ds.n_samples == 3
    assert any("empty field at the end" in line for line in ds.report)


def test_an_empty_first_row_extra_over_the_column_limit_is_refused():
    data = b"a,b,y\n1,2,p" + b"," * 5_000 + b"\n3,4,q\n"
    with pytest.raises(DataError, match="Line 2 has 5,003 fields"):
        load_csv(data)


# --- 6. UTF-32 and UTF-16 ----------------------------------------------------------------

CSV_TEXT = "x,température,label\n1,2.5,a\n3,4.5,b\n5,6.5,a\n7,8.5,b\n"


@pytest.mark.parametrize("codec", ["utf-32", "utf-32-be", "utf-16", "utf-16-be"])
def test_wide_encodings_with_a_byte_order_mark_are_read(codec):
    data = CSV_TEXT.encode(codec)
    if not data.startswith((b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")):
        data = "\ufeff".encode(codec) + data  # the -be codecs write no mark of their own
    ds = load_csv(data)
    assert ds.feature_names == ["x", "température"]
    np.testing.assert_array_equal(ds.X["température"], [2.5, 4.5, 6.5, 8.5])
    assert ds.report[0].startswith("Read as UTF-" + codec[4:6])
    assert read_header(data) == ["x", "température", "label"]


@pytest.mark.parametrize(
    ("codec", "named"),
    [
        ("utf-16-le", "UTF-16 (little-endian)"),
        ("utf-16-be", "UTF-16 (big-endian)"),
        ("utf-32-le", "UTF-32 (little-endian)"),
        ("utf-32-be", "UTF-32 (big-endian)"),
    ],
)
def test_wide_encodings_without_a_mark_are_named(codec, named):
    for loader in (load_csv, load_arff):
        with pytest.raises(DataError, match="looks like " + re.escape(named)):
            loader(CSV_TEXT.encode(codec))


# --- 7. one decoding for the whole file, NUL bytes anywhere -----------------------------


def test_a_bad_byte_after_64_kb_does_not_re_decode_a_utf8_header():
    body = "".join(f"{i},{i % 3},{'ab'[i % 2]}\n" for i in range(20_000))
    data = ("température,b,label\n" + body).encode() + b"1,2,\xe9\n"
    with pytest.raises(DataError, match=r"Line 20002: the file is UTF-8 up to here"):
        load_csv(data)
    # A file that is ASCII up to the bad byte is one 8-bit file: read as Windows-1252.
    ds = load_csv(("temperature,b,label\n" + body).encode() + b"1,2,\xe9\n")
    assert "é" in ds.class_names and "Windows-1252" in ds.report[0]


def test_a_nul_after_64_kb_is_refused_not_made_a_class():
    body = "".join(f"{i},{i % 3},{'ab'[i % 2]}\n" for i in range(20_000))
    data = ("x,b,label\n" + body).encode() + b"1,2,a\x00\n"
    for loader in (load_csv, load_arff):
        with pytest.raises(DataError, match=r"Line 20002 holds a NUL byte"):
            loader(data)


# --- 7. thousands separators -------------------------------------------------------------


def test_thousands_separators_in_the_files_convention_are_read_as_numbers():
    comma = b'x,y,label\n"1,234.5",1,a\n"12,345",2,b\n7.5,3,a\n"1,000,000",4,b\n'
    ds = load_csv(comma)
    np.testing.assert_array_equal(ds.X["x"], [1234.5, 12345, 7.5, 1_000_000])
    assert any("read '1,234.5' as 1234.5, the comma separating thousands" in r for r in ds.report)
    semi = b"x;y;label\n1.234,5;1;a\n2.345,0;2;b\n3;3;a\n4.567.890;4;b\n"
    ds = load_csv(semi)
    np.testing.assert_array_equal(ds.X["x"], [1234.5, 2345.0, 3.0, 4_567_890])
    assert any("the point separating thousands" in r for r in ds.report)


def test_values_that_are_not_grouped_numbers_stay_text():
    # 12,34 has a group of two digits: not a thousands separator, so not a number.
    ds = load_csv(b'x,y,label\n"1,234",1,a\n"12,34",2,b\n"5",3,a\n"6",4,b\n')
    assert ds.feature_names[0].startswith("x=")
