"""Tests for ternary.data's CSV loader (ternary/data/_csv.py) and the shared cleaning steps.

Every file a test reads is written by the test itself (tmp_path or bytes).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ternary.data import MAX_FILE_BYTES, DataError, Dataset, load_csv, read_header


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


def test_csv_high_cardinality_text_is_coded_by_frequency_not_alphabet(tmp_path):
    cities = [f"city{k:02d}" for k in range(12)]
    # city11 is the most frequent (8 rows), then city00..city10 (2 rows each, alphabetical).
    rows = [cities[i % 11] for i in range(22)] + ["city11"] * 8
    # v: 0..29 in a shuffled order (in file order they would number the rows)
    lines = ["city,v,y"] + [f"{c},{(7 * i) % 30},{i % 3}" for i, c in enumerate(rows)]
    ds = load_csv(write(tmp_path, "h.csv", "\n".join(lines).encode()))
    assert ds.feature_names == ["city", "v"]
    code = {c: (0 if c == "city11" else int(c[4:]) + 1) for c in cities}
    np.testing.assert_array_equal(ds.X["city"], [code[c] for c in rows])
    assert (
        "Column 'city' (12 levels, more than the 10 that are one-hot encoded) encoded as codes "
        "0–11 in order of frequency (0: the most frequent level, 'city11'; ties alphabetical)."
    ) in ds.report

    # Raising the threshold turns the same column into 12 one-hot columns.
    wide = load_csv(write(tmp_path, "h.csv", "\n".join(lines).encode()), ordinal_threshold=12)
    assert wide.n_features == 13


def test_csv_missing_values_imputed_with_median(tmp_path):
    data = b"a,b,y\n1,x,p\n?,y,q\n3,,p\n10,x,q\nNA,x,p\n"
    ds = load_csv(write(tmp_path, "m.csv", data))
    # Median of the present values 1, 3, 10 is 3.
    np.testing.assert_array_equal(ds.X["a"], [1, 3, 3, 10, 3])
    # 2 gaps of 5 rows (at least 5 %): a 0/1 column marks them.
    np.testing.assert_array_equal(ds.X["a=(missing)"], [0, 1, 0, 0, 1])
    # The empty text value is a level of its own.
    np.testing.assert_array_equal(ds.X["b=(missing)"], [0, 0, 1, 0, 0])
    np.testing.assert_array_equal(ds.X["b=x"], [1, 0, 0, 1, 1])
    assert "Column 'a': read 2 cell(s) as gaps: '?' ×1, 'NA' ×1." in ds.report
    assert "Column 'b': 1 missing value(s) kept as a level of their own, '(missing)'." in ds.report
    assert (
        "Column 'a': imputed 2 missing value(s) with the median 3; the 0/1 column "
        "'a=(missing)' marks them." in ds.report
    )
    # 40 % imputed: a warning line, also listed apart.
    assert ds.warnings == [
        "Warning: column 'a' had 40 % of its values missing (more than 20 %), filled with "
        "the median 3: its splits rest on the few values measured."
    ]
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
        ["50 distinct decimal numbers", "measurement rather than a class"],
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
# read_header: the names load_csv will see, from the same code
# ---------------------------------------------------------------------------

# A spreadsheet export in a comma-decimal locale: semicolons between fields, and
# quoted header names that hold commas. Splitting the header on commas gets it wrong.
SPREADSHEET_CSV = (
    b'"height, cm";"weight, kg";"shoe size, EU";label\n'
    b"181.2;75.3;43.1;tall\n"
    b"158.0;52.1;37.5;short\n"
    b"176.4;70.2;42.0;tall\n"
    b"162.3;58.8;38.2;short\n"
    b"190.1;88.0;45.5;tall\n"
    b"155.7;49.9;36.0;short\n"
)


def test_read_header_of_semicolon_file_with_commas_in_quoted_names():
    names = read_header(SPREADSHEET_CSV)
    assert names == ["height, cm", "weight, kg", "shoe size, EU", "label"]
    ds = load_csv(SPREADSHEET_CSV, target="label")
    assert ds.feature_names == names[:3]
    assert ds.class_names == ["short", "tall"]
    np.testing.assert_array_equal(ds.X["shoe size, EU"], [43.1, 37.5, 42.0, 38.2, 45.5, 36.0])


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"a,b,y\n1,2,p\n3,4,q\n5,6,p\n", ["a", "b", "y"]),
        (b"a\tb\ty\n1\t2\tp\n3\t4\tq\n", ["a", "b", "y"]),
        (b"\xef\xbb\xbf x ; y ;z\n1;2;p\n3;4;q\n", ["x", "y", "z"]),
        # Blank header cells are named by position, as load_csv names them.
        (b",a,,y\n0,1,5,p\n1,3,6,q\n2,5,7,p\n", ["column_1", "a", "column_3", "y"]),
        ("é,ü,klasse\n1,2,a\n3,4,b\n".encode("cp1252"), ["é", "ü", "klasse"]),
    ],
)
def test_read_header_names_are_the_ones_load_csv_accepts(data, expected):
    names = read_header(data)
    assert names == expected
    ds = load_csv(data, target=names[-1])
    assert set(ds.feature_names) <= set(names[:-1])
    assert "Available columns" not in "\n".join(ds.report)


def test_read_header_checks_a_target_and_shares_the_limits(tmp_path):
    with pytest.raises(DataError, match="Target column 'nope' is not in the file.*'y'"):
        read_header(b"a,b,y\n1,2,p\n", target="nope")
    assert read_header(b"a,b,y\n1,2,p\n", target="Y ") == ["a", "b", "y"]
    with pytest.raises(DataError, match="too large"):
        read_header(b"a,b,y\n1,2,p\n", max_bytes=5)
    with pytest.raises(DataError, match="Duplicate column names"):
        read_header(b"a,a,y\n1,2,p\n")
    with pytest.raises(DataError, match="File not found"):
        read_header(tmp_path / "absent.csv")


def test_every_loader_defaults_to_the_one_size_limit():
    import inspect

    from ternary.data import LoadLimits, load_arff

    assert MAX_FILE_BYTES == 200 * 2**20
    # one LoadLimits holds the default; every loader starts from it (limits=None)
    assert LoadLimits().max_bytes == MAX_FILE_BYTES
    for loader in (load_csv, load_arff, read_header):
        assert inspect.signature(loader).parameters["limits"].default is None


_NAME_TEXT = st.text(
    alphabet=st.characters(
        codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp"), exclude_characters="\ufeff"
    ),
    min_size=1,
    max_size=12,
).filter(lambda t: t.strip() and t.strip() == t)


@settings(max_examples=40, deadline=None)
@given(
    names=st.lists(_NAME_TEXT, min_size=2, max_size=6, unique=True),
    delimiter=st.sampled_from([",", ";", "\t", "|"]),
    seed=st.integers(0, 2**16),
)
def test_read_header_equals_the_columns_load_csv_builds(names, delimiter, seed):
    # Any names (delimiters, quotes and spaces inside them included), written as a
    # spreadsheet would write them, come back from read_header and from load_csv alike.
    rng = np.random.default_rng(seed)
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\n")
    writer.writerow(names)
    for i in range(8):
        writer.writerow([f"{v:.3f}" for v in rng.normal(size=len(names) - 1)] + ["ab"[i % 2]])
    data = buffer.getvalue().encode()
    header = read_header(data)
    assert header == names
    assert load_csv(data, target=names[-1]).feature_names == names[:-1]


# ---------------------------------------------------------------------------
# Silent misreads become correct reads or refusals that name the line
# ---------------------------------------------------------------------------


def test_rows_with_one_field_more_than_the_header_are_refused_naming_the_line():
    # pandas would take the first field as a row index and shift every column,
    # so that the last field (here 21..26) became the "label".
    rows = "".join(f"{i},{i % 2},{'yn'[i % 2]},{20 + i}\n" for i in range(1, 7))
    with pytest.raises(DataError, match=r"^Line 2 has 4 fields but the header names only 3"):
        load_csv(("a,b,label\n" + rows).encode())


def test_extra_field_in_a_later_row_is_refused_naming_that_line():
    data = b"a,b,label\n1,0,y\n2,1,n\n3,0,y,7\n4,1,n\n"
    with pytest.raises(DataError, match="line 4"):
        load_csv(data)


def test_an_empty_field_after_each_row_is_ignored_and_reported():
    data = b"a,b,label\n1,0,y,\n2,1,n,\n3,0,y,\n4,1,n,\n"
    ds = load_csv(data)
    assert ds.feature_names == ["a", "b"]
    assert list(ds.y) == ["y", "n", "y", "n"]
    np.testing.assert_array_equal(ds.X["a"], [1, 2, 3, 4])
    assert "empty field at the end of each data row" in report_text(ds)


def test_excel_sep_line_declares_the_delimiter():
    data = b"sep=;\r\nh;w;label\r\n1,5;2;x\r\n2,5;3;y\r\n3,0;1;x\r\n4,5;0;y\r\n"
    ds = load_csv(data)
    assert ds.feature_names == ["h", "w"]
    np.testing.assert_array_equal(ds.X["h"], [1.5, 2.5, 3.0, 4.5])
    assert "'sep=' declares" in report_text(ds)
    assert read_header(data) == ["h", "w", "label"]
    # Without the line the delimiter is found by counting, with the same result.
    pd.testing.assert_frame_equal(load_csv(data.split(b"\r\n", 1)[1]).X, ds.X)


def test_pathological_quote_line_is_read_in_one_pass():
    # csv.Sniffer's regular expressions took over 20 s on this 64 KB first line.
    line = ",'a" * 21_800
    with pytest.raises(DataError, match="21801 columns; the limit is 2000"):
        load_csv((line + "\n1,2\n3,4\n").encode())
    # Under the column limit the same pattern is read, quotes and all.
    ds = load_csv(
        ("p" + "".join(f",'a{i}" for i in range(3)) + ",y\n1,2,3,4,u\n5,6,7,8,v\n").encode()
    )
    assert ds.feature_names == ["p", "'a0", "'a1", "'a2"]


def test_wide_rows_and_many_lines_are_refused_before_parsing():
    wide_row = b"a,b,y\n1,2,p\n" + b"1," * 400_000 + b"p\n"
    with pytest.raises(DataError, match="line 3"):
        load_csv(wide_row)
    many = b"a,b,y\n" + b"1,2,p\n3,4,q\n" * 30
    with pytest.raises(DataError, match="about 61 lines; the limit is 10 data rows"):
        load_csv(many, max_rows=10)


def test_value_budget_is_checked_before_parsing():
    data = b"a,b,c,y\n" + b"1,2,3,p\n4,5,6,q\n" * 10
    with pytest.raises(DataError, match=r"about 20 rows × 4 columns = 80 values; the limit is 50"):
        load_csv(data, max_values=50)
    assert load_csv(data[:60], max_values=50).n_samples == 6


def test_a_large_file_over_the_value_budget_is_refused_from_its_first_lines(monkeypatch):
    import codecs

    # Over 4 MB, so the start alone is read before anything is decoded.
    data = ("a;b;c;d;y\n" + "1;2;3;4;p\n5;6;7;8;q\n" * 220_000).encode("cp1252")
    assert len(data) > 4 * 2**20

    def must_not_decode(*args, **kwargs):
        raise AssertionError("the whole file was decoded before the refusal")

    with monkeypatch.context() as m:
        m.setattr(codecs, "decode", must_not_decode)
        m.setattr(codecs, "getincrementaldecoder", must_not_decode)
        with pytest.raises(DataError, match="about 440,000 rows × 5 columns = 2,200,000 values"):
            load_csv(data, max_values=1_000, max_rows=10**6)
    assert load_csv(data[:2_000], max_values=1_000).feature_names == ["a", "b", "c", "d"]
