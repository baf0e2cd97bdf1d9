"""Tests for ternary.data: built-in datasets, CSV/ARFF loaders and the OpenML cache.

Every file a test reads is written by the test into tmp_path, except the shared
ARFF collection (../shared/datasets), whose tests skip when it is absent. No
test touches the network: the OpenML tests either block sockets or replace
openml's functions with fakes.
"""

from __future__ import annotations

import io
import math
import re
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ternary.data import (
    BUILTIN_DATASETS,
    DEFAULT_DATASET,
    DataError,
    Dataset,
    _parse_arff_tolerant,
    list_local_arff,
    load_arff,
    load_breast_cancer,
    load_builtin,
    load_csv,
    load_digits,
    load_file,
    load_iris,
    load_openml,
    load_wine,
    make_blobs_dataset,
    make_circles_dataset,
    make_moons_dataset,
    make_ringnorm,
    make_twonorm,
    make_waveform,
    make_xor_dataset,
    openml_cc18_tasks,
)


def report_text(ds: Dataset) -> str:
    return "\n".join(ds.report)


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


# ---------------------------------------------------------------------------
# CSV round trips
# ---------------------------------------------------------------------------


def test_csv_numeric_round_trip_from_path(tmp_path):
    rng = np.random.default_rng(1)
    frame = pd.DataFrame(rng.normal(size=(40, 3)), columns=["alpha", "beta", "gamma"])
    frame["label"] = np.tile([0, 1], 20)
    path = tmp_path / "numbers.csv"
    frame.to_csv(path, index=False)

    ds = load_csv(path)

    assert ds.source == "csv"
    assert ds.name == "numbers"
    assert ds.feature_names == ["alpha", "beta", "gamma"]
    assert (ds.X.dtypes == np.float64).all()
    np.testing.assert_array_equal(ds.X.to_numpy(), frame[["alpha", "beta", "gamma"]].to_numpy())
    np.testing.assert_array_equal(ds.y, frame["label"].to_numpy())
    assert ds.y.dtype.kind == "i"
    assert ds.class_names == ["0", "1"]
    assert (ds.n_samples, ds.n_features, ds.n_classes) == (40, 3, 2)
    assert "Loaded 40 rows × 3 features, 2 classes" in report_text(ds)
    assert "comma-separated" in ds.report[0]


def test_csv_utf8_bom_semicolons_and_decimal_commas(tmp_path):
    text = "\ufeffheight;weight;kind\n1,5;10;cat\n2,25;20;dog\n3,0;30;cat\n"
    ds = load_csv(write(tmp_path, "bom.csv", text.encode("utf-8")))

    # The BOM must not leak into the first column name.
    assert ds.feature_names == ["height", "weight"]
    np.testing.assert_array_equal(ds.X["height"], [1.5, 2.25, 3.0])
    np.testing.assert_array_equal(ds.X["weight"], [10.0, 20.0, 30.0])
    assert list(ds.y) == ["cat", "dog", "cat"]
    text_report = report_text(ds)
    assert "byte-order mark" in text_report
    assert "semicolon-separated" in text_report
    assert "decimal commas" in text_report


def test_csv_tab_separated(tmp_path):
    data = b"a\tb\tclass\n1\t2\tx\n3\t4\ty\n5\t6\tx\n"
    ds = load_csv(write(tmp_path, "t.tsv", data))
    assert ds.feature_names == ["a", "b"]
    np.testing.assert_array_equal(ds.X.to_numpy(), [[1, 2], [3, 4], [5, 6]])
    assert "tab-separated" in ds.report[0]


def test_csv_latin1_text_is_decoded_and_reported(tmp_path):
    text = "ville;n;étiquette\nMontréal;1;oui\nQuébec;2;non\nMontréal;3;oui\nLévis;4;non\n"
    ds = load_csv(write(tmp_path, "fr.csv", text.encode("latin-1")))
    assert "Latin-1" in ds.report[0]
    assert ds.class_names == ["non", "oui"]
    # Three town names: one-hot with the accented names intact.
    assert ds.feature_names == ["ville=Lévis", "ville=Montréal", "ville=Québec", "n"]
    np.testing.assert_array_equal(ds.X["ville=Montréal"], [1, 0, 1, 0])


def test_csv_utf16_spreadsheet_export_is_read():
    # Spreadsheet "Unicode text" exports are tab-separated UTF-16 with a BOM.
    data = "a\tb\ty\n1\t2\tp\n3\t4\tq\n".encode("utf-16")
    ds = load_csv(data)
    assert "UTF-16" in ds.report[0]
    np.testing.assert_array_equal(ds.X.to_numpy(), [[1, 2], [3, 4]])


def test_csv_quoted_numbers_with_whitespace_become_numeric(tmp_path):
    data = b'a,b,y\n" 1.5 ","  7",p\n"2.5 "," 8 ",q\n" 3.5","9",p\n'
    ds = load_csv(write(tmp_path, "q.csv", data))
    assert ds.feature_names == ["a", "b"]
    np.testing.assert_array_equal(ds.X["a"], [1.5, 2.5, 3.5])
    np.testing.assert_array_equal(ds.X["b"], [7.0, 8.0, 9.0])
    assert (ds.X.dtypes == np.float64).all()


def test_csv_low_cardinality_text_is_one_hot(tmp_path):
    colours = ["red", "green", "blue", "green", "red", "blue"]
    lines = ["colour,size,y"] + [f"{c},{i},{i % 2}" for i, c in enumerate(colours)]
    ds = load_csv(write(tmp_path, "c.csv", "\n".join(lines).encode()))
    assert ds.feature_names == ["colour=blue", "colour=green", "colour=red", "size"]
    np.testing.assert_array_equal(ds.X["colour=red"], [1, 0, 0, 0, 1, 0])
    np.testing.assert_array_equal(ds.X["colour=blue"], [0, 0, 1, 0, 0, 1])
    assert "one-hot encoded into 3 columns" in report_text(ds)


def test_csv_two_level_text_is_a_single_indicator(tmp_path):
    data = b"sex,age,y\nmale,30,a\nfemale,40,b\nfemale,50,a\n"
    ds = load_csv(write(tmp_path, "s.csv", data))
    assert ds.feature_names == ["sex=male", "age"]
    np.testing.assert_array_equal(ds.X["sex=male"], [1, 0, 0])
    assert "one 0/1 column 'sex=male'" in report_text(ds)


def test_csv_high_cardinality_text_is_ordinal(tmp_path):
    cities = [f"city{k:02d}" for k in range(12)]
    rows = [cities[i % 12] for i in range(30)]
    lines = ["city,v,y"] + [f"{c},{i},{i % 3}" for i, c in enumerate(rows)]
    ds = load_csv(write(tmp_path, "h.csv", "\n".join(lines).encode()))
    assert ds.feature_names == ["city", "v"]
    # Ordinal codes follow alphabetical order: city00 -> 0 ... city11 -> 11.
    np.testing.assert_array_equal(ds.X["city"], [i % 12 for i in range(30)])
    assert "12 levels) encoded as ordinal codes 0–11" in report_text(ds)

    # Raising the threshold turns the same column into 12 one-hot columns.
    wide = load_csv(write(tmp_path, "h.csv", "\n".join(lines).encode()), ordinal_threshold=12)
    assert wide.n_features == 13


def test_csv_missing_values_imputed_with_median(tmp_path):
    data = b"a,b,y\n1,x,p\n?,y,q\n3,,p\n10,x,q\nNA,x,p\n"
    ds = load_csv(write(tmp_path, "m.csv", data))
    # Median of the present values 1, 3, 10 is 3.
    np.testing.assert_array_equal(ds.X["a"], [1, 3, 3, 10, 3])
    # The empty text value takes the most frequent level, "x".
    np.testing.assert_array_equal(ds.X["b=y"], [0, 1, 0, 0, 0])
    text = report_text(ds)
    assert "Column 'a': imputed 2 missing value(s) with the median 3." in text
    assert "Column 'b': filled 1 missing value(s) with the most frequent value 'x'." in text
    assert ds.n_samples == 5


def test_csv_missing_values_dropped(tmp_path):
    data = b"a,b,y\n1,5,p\n?,6,q\n3,,p\n10,8,q\n4,9,p\n"
    ds = load_csv(write(tmp_path, "m.csv", data), missing="drop")
    np.testing.assert_array_equal(ds.X.to_numpy(), [[1, 5], [10, 8], [4, 9]])
    assert list(ds.y) == ["p", "q", "p"]
    assert "Dropped 2 rows with missing feature values (3 remain)." in report_text(ds)


def test_csv_rows_with_missing_target_are_always_dropped(tmp_path):
    data = b"a,y\n1,p\n2,\n3,q\n4,NA\n5,p\n"
    for mode in ("impute", "drop"):
        ds = load_csv(write(tmp_path, "t.csv", data), missing=mode)
        np.testing.assert_array_equal(ds.X["a"], [1, 3, 5])
        assert "Dropped 2 rows whose target 'y' is missing." in report_text(ds)


def test_csv_constant_and_empty_columns_dropped(tmp_path):
    data = b"a,const,empty,b,y\n1,7,,2,p\n2,7,?,3,q\n3,7,,5,p\n"
    ds = load_csv(write(tmp_path, "k.csv", data))
    assert ds.feature_names == ["a", "b"]
    text = report_text(ds)
    assert "Dropped 1 constant column(s): 'const'." in text
    assert "Dropped 1 column(s) with no values at all: 'empty'." in text


def test_csv_target_by_name_and_default_last(tmp_path):
    data = b"colour,x,label\nred,1,A\nblue,2,B\nred,3,A\n"
    path = write(tmp_path, "t.csv", data)

    default = load_csv(path)
    assert list(default.y) == ["A", "B", "A"]

    by_name = load_csv(path, target="colour")
    assert list(by_name.y) == ["red", "blue", "red"]
    assert by_name.class_names == ["blue", "red"]
    assert by_name.feature_names == ["x", "label=B"]

    # Case and stray spaces in the requested name are forgiven.
    assert list(load_csv(path, target=" COLOUR ").y) == ["red", "blue", "red"]
    # A position works too.
    np.testing.assert_array_equal(load_csv(path, target=1).y, [1, 2, 3])


def test_csv_string_labels_are_kept(tmp_path):
    data = b"f,species\n1,setosa\n2,virginica\n3,setosa\n4,versicolor\n"
    ds = load_csv(write(tmp_path, "s.csv", data))
    assert ds.y.dtype == object
    assert list(ds.y) == ["setosa", "virginica", "setosa", "versicolor"]
    assert ds.class_names == ["setosa", "versicolor", "virginica"]
    assert ds.summary()["class_counts"] == {"setosa": 2, "versicolor": 1, "virginica": 1}


def test_csv_float_labels_that_are_integers_become_ints(tmp_path):
    ds = load_csv(b"a,y\n1,1.0\n2,0.0\n3,1.0\n")
    assert ds.y.dtype.kind == "i"
    assert list(ds.y) == [1, 0, 1]


def test_csv_pandas_index_column_is_dropped(tmp_path):
    frame = pd.DataFrame({"a": [3.0, 1.0, 2.0], "y": ["p", "q", "p"]})
    ds = load_csv(frame.to_csv().encode())  # index=True writes ",a,y" and 0,1,2
    assert ds.feature_names == ["a"]
    assert "row number" in report_text(ds)


def test_csv_trailing_delimiters_and_blank_headers():
    # Spreadsheet exports often end every line with a delimiter.
    ds = load_csv(b"a,,b,y,\n1,5,2,p,\n3,6,4,q,\n")
    assert ds.feature_names == ["a", "column_2", "b"]
    assert list(ds.y) == ["p", "q"]
    text = report_text(ds)
    assert "Dropped 1 empty column(s) without a name" in text
    assert "Named 1 column(s) with an empty header: 'column_2'" in text


def test_csv_identifier_text_column_is_dropped():
    lines = ["name,v,y"] + [f"person{i},{i % 5},{i % 2}" for i in range(40)]
    ds = load_csv("\n".join(lines).encode())
    assert ds.feature_names == ["v"]
    assert "identifiers" in report_text(ds)


def test_csv_rare_junk_in_numeric_column_becomes_missing():
    lines = ["a,y"] + [f"{i},{i % 2}" for i in range(40)] + ["oops,1"]
    ds = load_csv("\n".join(lines).encode())
    assert ds.feature_names == ["a"]
    assert ds.X["a"].iloc[-1] == pytest.approx(19.5)  # median of 0..39
    assert "non-numeric value(s)" in report_text(ds) and "'oops'" in report_text(ds)


def test_csv_infinities_become_missing():
    ds = load_csv(b"a,y\n1,p\ninf,q\n-Infinity,p\n3,q\n")
    np.testing.assert_array_equal(ds.X["a"], [1, 2, 2, 3])
    assert "2 infinite value(s)" in report_text(ds)


def test_csv_numeric_header_is_warned_about():
    ds = load_csv(b"1,2,3\n4,5,a\n6,7,b\n")
    assert "every column name is a number" in report_text(ds)


def test_csv_20k_rows_round_trip():
    # speed is measured in benchmarks/bench_data.py, not asserted here
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(20_000, 20)), columns=[f"f{i}" for i in range(20)])
    frame["y"] = rng.integers(0, 2, 20_000)
    ds = load_csv(frame.to_csv(index=False).encode())
    assert ds.X.shape == (20_000, 20)
    np.testing.assert_allclose(ds.X.to_numpy(), frame.iloc[:, :20].to_numpy())
    np.testing.assert_array_equal(ds.y, frame["y"].to_numpy())


# ---------------------------------------------------------------------------
# Malformed input: always DataError, with a message that says what to do
# ---------------------------------------------------------------------------

MALFORMED = [
    pytest.param(b"", {}, ["empty (0 bytes)", "header row"], id="empty"),
    pytest.param(b"\n  \n\n", {}, ["only blank lines"], id="blank"),
    pytest.param(b"a,b,y\n", {}, ["no data rows", "Add at least two rows"], id="header-only"),
    pytest.param(
        b"a,b,y\n1,2,x\n3,4,x\n", {}, ["single class", "'x'", "at least two"], id="single-class"
    ),
    pytest.param(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", {}, ["PNG image", "plain-text"], id="png"),
    pytest.param(b"PK\x03\x04\x14\x00\x06\x00", {}, ["ZIP archive", "Excel"], id="zip"),
    pytest.param(b"a,b,y\n1,\x00\x00,2\n", {}, ["NUL bytes", "plain-text"], id="nul-bytes"),
    pytest.param(
        b"a,b\n" + bytes(range(1, 32)) * 20,
        {},
        ["control characters", "plain-text"],
        id="control-bytes",
    ),
    pytest.param(
        b"a,a,y\n1,2,p\n3,4,q\n",
        {},
        ["Duplicate column names: 'a'", "unique"],
        id="duplicate-columns",
    ),
    pytest.param(
        b"a,b,y\n1,2,p\n1,2,3,4\n", {}, ["line 3", "same number of fields"], id="ragged-row"
    ),
    pytest.param(b"y\np\nq\n", {}, ["no feature columns", "delimiter"], id="one-column"),
    pytest.param(
        b"a,b,y\n1,2,p\n3,4,q\n",
        {"target": "label"},
        ["'label' is not in the file", "'a', 'b', 'y'"],
        id="unknown-target",
    ),
    pytest.param(
        b"a,b,y\n1,2,p\n3,4,q\n",
        {"target": 7},
        ["out of range", "'a', 'b', 'y'"],
        id="target-position",
    ),
    pytest.param(
        b"a,y\n1,\n2,?\n", {}, ["no values in any row", "another target"], id="target-empty"
    ),
    pytest.param(
        ("a,y\n" + "".join(f"{i},{i * 0.37:.3f}\n" for i in range(50))).encode(),
        {},
        ["continuous", "regression target"],
        id="continuous-target",
    ),
    pytest.param(
        ("a,y\n" + "".join(f"{i},c{i}\n" for i in range(150))).encode(),
        {},
        ["150 distinct values", "regression target"],
        id="too-many-classes",
    ),
    pytest.param(
        b"a,b,y\n1,2,p\n1,2,q\n", {}, ["No feature columns are left", "vary"], id="all-constant"
    ),
    pytest.param(
        b"a,b,y\n,?,p\nNA,,q\n", {}, ["No usable feature columns", "empty"], id="all-empty"
    ),
    pytest.param(
        b"a,b,y\n1,,p\n,2,q\n",
        {"missing": "drop"},
        ["No usable rows", "missing='impute'"],
        id="drop-everything",
    ),
    pytest.param(
        b"a,b,y\n1,2,p\n,2,q\n3,4,p\n",
        {"missing": "drop"},
        ["Only one class is left", "impute"],
        id="drop-leaves-one-class",
    ),
    pytest.param(
        b"a,y\n1,p\n2,q\n3,p\n", {"max_rows": 2}, ["3 data rows", "limit is 2"], id="too-many-rows"
    ),
    pytest.param(
        b"a,b,c,y\n1,2,3,p\n",
        {"max_columns": 3},
        ["4 columns", "limit is 3"],
        id="too-many-columns",
    ),
    pytest.param(
        b"a,y\n1,p\n2,q\n", {"max_bytes": 8}, ["too large", "limit is"], id="too-many-bytes"
    ),
    pytest.param(
        b"a,y\n1,p\n2,q\n",
        {"missing": "mean"},
        ["not a choice", "'impute'"],
        id="bad-missing-option",
    ),
]


@pytest.mark.parametrize(("data", "kwargs", "fragments"), MALFORMED)
def test_malformed_csv_raises_data_error(data, kwargs, fragments):
    with pytest.raises(DataError) as info:
        load_csv(data, **kwargs)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    # A DataError is also a ValueError, so generic handlers still catch it.
    assert isinstance(info.value, ValueError)


def test_parser_errors_are_chained_not_leaked():
    with pytest.raises(DataError) as info:
        load_csv(b"a,b,y\n1,2,p\n1,2,3,4\n")
    assert isinstance(info.value.__cause__, pd.errors.ParserError)


def test_missing_path_and_folder_raise_data_error(tmp_path):
    with pytest.raises(DataError, match="File not found"):
        load_csv(tmp_path / "nope.csv")
    with pytest.raises(DataError, match="is a folder"):
        load_csv(tmp_path)
    with pytest.raises(DataError, match="Cannot read data from a int"):
        load_csv(42)
    with pytest.raises(DataError, match="contents as bytes"):
        load_csv("a,b,y\n1,2,p\n")
    with pytest.raises(DataError, match="as a file path"):
        load_csv("x" * 5000 + ".csv")


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
# Built-in datasets
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "shape", "classes", "bayes", "source"),
    [
        ("two moons", (500, 2), ["0", "1"], None, "builtin"),
        ("circles", (500, 2), ["0", "1"], None, "builtin"),
        ("xor", (500, 2), ["0", "1"], None, "builtin"),
        ("blobs", (500, 2), ["0", "1", "2"], None, "builtin"),
        ("twonorm", (7400, 20), ["0", "1"], 0.023, "breiman"),
        ("ringnorm", (7400, 20), ["0", "1"], 0.017, "breiman"),
        ("waveform", (5000, 21), ["0", "1", "2"], 0.14, "breiman"),
        ("iris", (150, 4), ["setosa", "versicolor", "virginica"], None, "sklearn"),
        ("wine", (178, 13), ["class_0", "class_1", "class_2"], None, "sklearn"),
        ("breast cancer", (569, 30), ["benign", "malignant"], None, "sklearn"),
        ("digits", (1797, 64), [str(d) for d in range(10)], None, "sklearn"),
    ],
)
def test_builtin_shapes_classes_and_bayes_error(key, shape, classes, bayes, source):
    ds = load_builtin(key)
    assert ds.X.shape == shape
    assert ds.class_names == classes
    assert ds.bayes_error == bayes
    assert ds.source == source
    assert (ds.X.dtypes == np.float64).all()
    assert ds.y.ndim == 1 and len(ds.y) == shape[0]
    summary = ds.summary()
    assert summary["n_samples"] == shape[0] and summary["n_features"] == shape[1]
    assert sum(summary["class_counts"].values()) == shape[0]


def test_registry_has_every_builtin_and_the_default():
    assert set(BUILTIN_DATASETS) == {
        "two moons",
        "circles",
        "xor",
        "blobs",
        "twonorm",
        "ringnorm",
        "waveform",
        "iris",
        "wine",
        "breast cancer",
        "digits",
    }
    assert DEFAULT_DATASET == "two moons"
    ds = load_builtin(DEFAULT_DATASET)
    expected = make_moons_dataset(n_samples=500, noise=0.3, random_state=0)
    pd.testing.assert_frame_equal(ds.X, expected.X)


@pytest.mark.parametrize(
    "make",
    [
        make_moons_dataset,
        make_circles_dataset,
        make_xor_dataset,
        make_blobs_dataset,
        make_twonorm,
        make_ringnorm,
        make_waveform,
    ],
)
def test_generators_are_reproducible(make):
    a = make(n_samples=300, random_state=7)
    b = make(n_samples=300, random_state=7)
    c = make(n_samples=300, random_state=8)
    pd.testing.assert_frame_equal(a.X, b.X)
    np.testing.assert_array_equal(a.y, b.y)
    assert not np.allclose(a.X.to_numpy(), c.X.to_numpy())
    assert a.n_samples == 300


def test_load_builtin_names_are_forgiving_and_unknown_names_list_choices():
    assert load_builtin("Two_Moons", n_samples=50).n_samples == 50
    assert load_builtin("breast-cancer").n_features == 30
    with pytest.raises(DataError) as info:
        load_builtin("mnist")
    assert "Unknown built-in dataset 'mnist'" in str(info.value)
    for key in BUILTIN_DATASETS:
        assert repr(key) in str(info.value)
    with pytest.raises(DataError, match="does not accept"):
        load_builtin("iris", noise=0.1)


def test_twonorm_sign_rule_matches_published_bayes_error():
    ds = make_twonorm(n_samples=20_000, random_state=1)
    predicted = (ds.X.to_numpy().sum(axis=1) > 0).astype(int)
    error = float(np.mean(predicted != ds.y))
    assert abs(error - 0.023) < 0.01
    # The class means are ±2/sqrt(20) in every coordinate.
    a = 2 / math.sqrt(20)
    means = ds.X.to_numpy()[ds.y == 1].mean(axis=0)
    np.testing.assert_allclose(means, a, atol=0.05)


def test_ringnorm_quadratic_bayes_rule_matches_published_error():
    ds = make_ringnorm(n_samples=20_000, random_state=1)
    X = ds.X.to_numpy()
    d = X.shape[1]
    a = 1 / math.sqrt(20)
    log_wide = -np.sum(X**2, axis=1) / 8 - d * math.log(2)  # N(0, 4I)
    log_shifted = -np.sum((X - a) ** 2, axis=1) / 2  # N(a·1, I)
    predicted = (log_shifted > log_wide).astype(int)
    error = float(np.mean(predicted != ds.y))
    assert abs(error - 0.017) < 0.01
    np.testing.assert_allclose(X[ds.y == 0].std(axis=0), 2.0, atol=0.1)


def test_waveform_follows_breimans_recipe():
    ds = make_waveform(n_samples=30_000, random_state=2)
    i = np.arange(1, 22)
    h1 = np.maximum(6 - np.abs(i - 11), 0)
    h2 = np.maximum(6 - np.abs(i - 4 - 11), 0)
    h3 = np.maximum(6 - np.abs(i + 4 - 11), 0)
    X = ds.X.to_numpy()
    # E[u] = 1/2, so each class mean is the average of its two base waves.
    for label, (p, q) in enumerate([(h1, h2), (h1, h3), (h2, h3)]):
        np.testing.assert_allclose(X[ds.y == label].mean(axis=0), (p + q) / 2, atol=0.1)
    assert ds.bayes_error == 0.14
    counts = np.bincount(ds.y)
    assert counts.min() > 0.3 * len(ds.y)


def test_sklearn_wrappers_keep_feature_names():
    iris = load_iris()
    assert iris.feature_names[0] == "sepal length (cm)"
    assert list(iris.y[:1]) == ["setosa"]
    assert load_wine().source == "sklearn"
    assert load_breast_cancer().class_names == ["benign", "malignant"]
    assert load_digits().y.dtype.kind == "i"


def test_dataset_rejects_misaligned_rows():
    with pytest.raises(DataError, match="3 rows but y has 2"):
        Dataset(
            X=pd.DataFrame({"a": [1.0, 2.0, 3.0]}),
            y=np.array([0, 1]),
            class_names=["0", "1"],
            name="bad",
            source="builtin",
        )


# ---------------------------------------------------------------------------
# ARFF
# ---------------------------------------------------------------------------


def test_arff_small_file_round_trip(tmp_path):
    ds = load_arff(write(tmp_path, "tiny.arff", SMALL_ARFF))
    assert ds.source == "arff" and ds.name == "tiny"
    assert ds.feature_names == ["width", "colour=green"]
    np.testing.assert_array_equal(ds.X["width"], [1, 2, 3])
    # The missing colour is filled with the most frequent value; tie -> "green".
    np.testing.assert_array_equal(ds.X["colour=green"], [0, 1, 1])
    assert list(ds.y) == ["yes", "no", "yes"]


# Tabs in the header, spaces inside nominal lists, padded values, quoted names
# and values with commas: liac-arff rejects this, the tolerant parser does not.
AWKWARD_ARFF = """@relation\t'awkward data'
% comment line
@attribute\t'steel kind'\t{  C , H , G }
@attribute\tsize\treal
@attribute\tnote\tstring
@attribute\tgrade\t{ 'low, very' , high, none }
@attribute\tclass\t{ 1, 2 }

@data
%
 C ,  8, 'hello, world', 'low, very', 1
 H , 12.5, plain, high , 2

G,?, "it\\'s", none,1
 C , 3, x, ?, 2
"""


def test_arff_tolerant_parser_handles_awkward_files():
    relation, attrs, rows = _parse_arff_tolerant(AWKWARD_ARFF)
    assert relation == "awkward data"
    assert [a.name for a in attrs] == ["steel kind", "size", "note", "grade", "class"]
    assert attrs[0].levels == ["C", "H", "G"]
    assert attrs[3].levels == ["low, very", "high", "none"]
    assert rows[0] == ["C", "8", "hello, world", "low, very", "1"]
    assert rows[2][1] is None  # '?' is missing
    assert rows[2][2] == "it's"  # double quotes and a backslash escape
    assert rows[3][3] is None


def test_arff_awkward_file_loads_with_fallback_and_none_is_a_level():
    ds = load_arff(AWKWARD_ARFF.encode())
    assert "tolerant ARFF parser" in report_text(ds)
    assert ds.name == "awkward data"
    assert ds.n_samples == 4
    # Labels declared {1, 2} are numbers, kept as ints.
    assert list(ds.y) == [1, 2, 1, 2]
    # "none" is a real nominal level in ARFF, not a missing value.
    assert "grade=none" in ds.feature_names
    np.testing.assert_array_equal(ds.X["grade=none"], [0, 0, 1, 0])
    np.testing.assert_array_equal(ds.X["size"], [8, 12.5, 8, 3])  # median of 8, 12.5, 3
    # Declared order C, H, G is kept for the one-hot columns.
    assert ds.feature_names[:3] == ["steel kind=C", "steel kind=H", "steel kind=G"]


def test_arff_nominal_ordinal_codes_follow_declared_order():
    levels = [f"L{k}" for k in range(12)][::-1]  # declared L11 ... L0
    body = "\n".join(f"{levels[i % 12]},{i % 2}" for i in range(24))
    text = (
        f"@relation r\n@attribute g {{{','.join(levels)}}}\n@attribute c {{0,1}}\n@data\n{body}\n"
    )
    ds = load_arff(text.encode())
    np.testing.assert_array_equal(ds.X["g"], [i % 12 for i in range(24)])
    assert "declared order" in report_text(ds)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (b"@relation r\n@attribute a numeric\n@attribute c {x,y}\n", "no @data section"),
        (b"@relation r\n@data\n1,2\n", "before any @attribute"),
        (b"% only a comment\n", "No @attribute lines"),
        (b"a,b,y\n1,2,p\n", "load it as CSV"),
        (b"@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n", "no data rows"),
        (b"@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n1,x\n2,y,3\n", "Line 6"),
        (
            b"@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n1,x\n2,x\n",
            "single class",
        ),
        (b"@relation r\n@attribute a relational\n@end a\n@data\n", "relational"),
        (b"\x1f\x8b\x08\x00compressed", "gzip"),
    ],
)
def test_malformed_arff_raises_data_error(text, fragment):
    with pytest.raises(DataError) as info:
        load_arff(text)
    assert fragment in str(info.value)


def _readme_table(folder: Path) -> dict[str, tuple[int, int]]:
    """Rows and classes per file, from the shared folder's README tables."""
    table: dict[str, tuple[int, int]] = {}
    section = ""
    for line in (folder / "README.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        m = re.match(
            r"\|\s*([\w.\-]+\.arff)\s*\|\s*(\d+)\s*\|\s*\d+\s*\|\s*\d+\s*\|\s*(\d+)\s*\|", line
        )
        if m:
            key = m.group(1) if section == "Main folder" else f"webb1997/{m.group(1)}"
            table[key] = (int(m.group(2)), int(m.group(3)))
    return table


@pytest.mark.parametrize(
    ("file", "rows", "n_classes"),
    [
        ("diabetes.arff", 768, 2),
        ("anneal.arff", 898, 5),
        ("pendigits.arff", 10992, 10),
        ("credit-g.arff", 1000, 2),
        ("heart-c.arff", 303, 2),
    ],
)
def test_shared_arff_files_match_readme(shared_datasets, file, rows, n_classes):
    # shared_datasets (conftest) skips with the reason when ../shared is absent.
    ds = load_arff(shared_datasets / file)
    assert ds.n_samples == rows
    assert ds.n_classes == n_classes
    assert (ds.X.dtypes == np.float64).all()
    assert not ds.X.isna().any().any()
    if file == "diabetes.arff":
        assert ds.n_features == 8
        assert ds.class_names == ["tested_negative", "tested_positive"]


@pytest.mark.parametrize("file", ["anneal.arff", "pendigits.arff"])
def test_tolerant_parser_agrees_with_liac_on_shared_files(shared_datasets, file):
    import arff

    text = (shared_datasets / file).read_text(encoding="utf-8")
    _, attrs, rows = _parse_arff_tolerant(text)
    reference = arff.loads(text)
    assert [a.name for a in attrs] == [name for name, _ in reference["attributes"]]
    assert len(rows) == len(reference["data"])
    for mine, theirs in zip(rows[:200], reference["data"][:200], strict=True):
        for a, b in zip(mine, theirs, strict=True):
            if b is None:
                assert a is None
            elif isinstance(b, float):
                assert float(a) == b
            else:
                assert a == b


def test_every_shared_arff_file_loads(shared_datasets):
    table = _readme_table(shared_datasets)
    files = sorted(shared_datasets.glob("*.arff")) + sorted(shared_datasets.glob("webb1997/*.arff"))
    assert files, "the shared folder holds no ARFF files"
    for path in files:
        ds = load_arff(path)
        key = path.relative_to(shared_datasets).as_posix()
        assert ds.n_classes >= 2, key
        assert (ds.X.dtypes == np.float64).all(), key
        if key in table:
            assert (ds.n_samples, ds.n_classes) == table[key], key


# ---------------------------------------------------------------------------
# OpenML, with the network disabled
# ---------------------------------------------------------------------------


@pytest.fixture
def no_network(monkeypatch):
    """Make every DNS lookup and socket connect fail, as on an offline machine."""

    def refuse(*args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "network disabled by the test")

    def refuse_connect(self, *args, **kwargs):
        raise OSError("network disabled by the test")

    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse_connect)
    openml = pytest.importorskip("openml")
    # openml sleeps between retries; there is nothing to wait for here.
    monkeypatch.setattr(openml._api_calls.time, "sleep", lambda s: None)


class FakeOpenMLDataset:
    dataset_id = 61
    name = "iris"
    default_target_attribute = "class"

    def get_data(self, target=None, **kwargs):
        frame = pd.DataFrame(
            {
                "sepal": [5.1, 4.9, 6.3, 5.8, np.nan, 6.0],
                "shape": pd.Categorical(
                    ["round", "long", "long", "round", "flat", "none"],
                    categories=["round", "long", "flat", "none"],
                ),
                "class": pd.Categorical(
                    ["setosa", "setosa", "virginica", "virginica", "setosa", "virginica"]
                ),
            }
        )
        return frame, None, [False, True, True], list(frame.columns)


def test_openml_offline_without_cache_says_network_unreachable(tmp_path, no_network):
    with pytest.raises(DataError) as info:
        load_openml(61, cache_dir=tmp_path)
    message = str(info.value)
    assert "network is unreachable" in message
    assert "holds no datasets yet" in message


def test_openml_download_is_cached_and_loads_offline(tmp_path, monkeypatch):
    openml = pytest.importorskip("openml")
    calls = []

    def fake_get_dataset(key, **kwargs):
        calls.append((key, kwargs, openml.config.get_cache_directory()))
        return FakeOpenMLDataset()

    monkeypatch.setattr(openml.datasets, "get_dataset", fake_get_dataset)
    saved_root = openml.config._root_cache_directory
    first = load_openml("61", cache_dir=tmp_path)
    assert calls[0][0] == 61 and calls[0][1]["download_data"] is True
    # openml's own cache pointed at ours during the call, and was restored after.
    assert calls[0][2].startswith(str(tmp_path))
    assert openml.config._root_cache_directory == saved_root
    assert first.source == "openml" and first.name == "iris"
    assert list(first.y) == ["setosa", "setosa", "virginica", "virginica", "setosa", "virginica"]
    # "none" is a category here, not a missing value; 4 levels -> 4 one-hot columns.
    assert first.feature_names == ["sepal", "shape=round", "shape=long", "shape=flat", "shape=none"]
    assert first.X["sepal"].iloc[4] == pytest.approx(5.8)  # median of the five present
    assert (tmp_path / "ternary-frames" / "61" / "meta.json").is_file()

    def offline(*args, **kwargs):
        raise AssertionError("the cache must be used without calling openml")

    monkeypatch.setattr(openml.datasets, "get_dataset", offline)
    for key in (61, "61", "iris", "IRIS"):
        again = load_openml(key, cache_dir=tmp_path)
        pd.testing.assert_frame_equal(again.X, first.X)
        np.testing.assert_array_equal(again.y, first.y)
        assert "from the local cache" in report_text(again)
    # A different target on the cached copy.
    by_shape = load_openml(61, cache_dir=tmp_path, target="shape")
    assert by_shape.class_names == ["flat", "long", "none", "round"]


def test_openml_offline_lists_cached_datasets(tmp_path, monkeypatch, no_network):
    openml = pytest.importorskip("openml")
    real = openml.datasets.get_dataset
    monkeypatch.setattr(openml.datasets, "get_dataset", lambda *a, **k: FakeOpenMLDataset())
    load_openml(61, cache_dir=tmp_path)
    monkeypatch.setattr(openml.datasets, "get_dataset", real)
    with pytest.raises(DataError) as info:
        load_openml(31, cache_dir=tmp_path)
    message = str(info.value)
    assert "network is unreachable" in message
    assert "61 (iris)" in message


def test_openml_cache_dir_from_environment(tmp_path, monkeypatch):
    openml = pytest.importorskip("openml")
    monkeypatch.setattr(openml.datasets, "get_dataset", lambda *a, **k: FakeOpenMLDataset())
    monkeypatch.setenv("TERNARY_OPENML_CACHE", str(tmp_path / "env-cache"))
    load_openml(61)
    assert (tmp_path / "env-cache" / "ternary-frames" / "61" / "data.csv.gz").is_file()
    monkeypatch.delenv("TERNARY_OPENML_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    load_openml(61)
    assert (tmp_path / "xdg" / "ternary" / "openml" / "ternary-frames" / "61").is_dir()


def test_openml_unknown_dataset_and_other_errors(tmp_path, monkeypatch):
    openml = pytest.importorskip("openml")
    from openml.exceptions import OpenMLServerException

    def unknown(*args, **kwargs):
        raise OpenMLServerException("Unknown dataset", code=111)

    monkeypatch.setattr(openml.datasets, "get_dataset", unknown)
    with pytest.raises(DataError, match="OpenML has no dataset 999999"):
        load_openml(999999, cache_dir=tmp_path)

    def broken(*args, **kwargs):
        raise KeyError("oml:data_set_description")

    monkeypatch.setattr(openml.datasets, "get_dataset", broken)
    with pytest.raises(DataError, match="could not provide dataset 5.*Try again later"):
        load_openml(5, cache_dir=tmp_path)


def test_cc18_listing_online_then_cached_offline(tmp_path, monkeypatch):
    openml = pytest.importorskip("openml")

    class Suite:
        tasks = [3, 6, 11]

    def list_tasks(output_format, task_id):
        assert output_format == "dataframe"
        return pd.DataFrame(
            {"tid": task_id, "did": [3, 6, 11], "name": ["kr-vs-kp", "letter", "balance-scale"]}
        )

    monkeypatch.setattr(openml.study, "get_suite", lambda sid: Suite())
    monkeypatch.setattr(openml.tasks, "list_tasks", list_tasks)
    online = openml_cc18_tasks(cache_dir=tmp_path)
    assert list(online["tid"]) == [3, 6, 11]
    assert online.attrs["from_cache"] is False

    def unreachable(*args, **kwargs):
        import requests

        raise requests.exceptions.ConnectionError("offline")

    monkeypatch.setattr(openml.study, "get_suite", unreachable)
    cached = openml_cc18_tasks(cache_dir=tmp_path)
    assert cached.attrs["from_cache"] is True
    assert list(cached["name"]) == ["kr-vs-kp", "letter", "balance-scale"]


def test_cc18_offline_without_saved_copy(tmp_path, no_network):
    with pytest.raises(DataError, match="network is unreachable.*no saved copy"):
        openml_cc18_tasks(cache_dir=tmp_path)


def test_importing_the_module_does_not_import_openml():
    code = "import sys, ternary.data; print('openml' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert out.stdout.strip() == "False"


def test_nearly_unique_nominal_attribute_is_dropped_as_identifier():
    # 30 rows, 29 distinct names: an identifier (splice's Instance_name has 3178 of 3190)
    names = [f"id{i}" for i in range(29)] + ["id0"]
    rows = "\n".join(f"{n},{i % 3},{'a' if i % 2 else 'b'}" for i, n in enumerate(names))
    header = (
        "@relation t\n@attribute name {" + ",".join(sorted(set(names))) + "}\n"
        "@attribute level {0,1,2}\n@attribute class {a,b}\n@data\n"
    )
    ds = load_arff((header + rows).encode())
    assert "name" not in ds.X.columns
    assert "level" in ds.X.columns  # three levels over 30 rows is a real feature
    assert any("identifiers" in line and "'name'" in line for line in ds.report)


def test_splice_instance_name_does_not_leak_the_label(shared_datasets):
    ds = load_arff(shared_datasets / "splice.arff")
    assert not any(c.startswith("Instance_name") for c in ds.X.columns)
