"""appkit.datasets: uploads read into a Dataset or a readable message, and the
header reader behind the label picker.
"""

from __future__ import annotations

import pytest

from appkit import datasets
from tests.app.helpers import GOOD_CSV, SEMICOLON_CSV


def test_load_user_data_accepts_a_good_csv_and_leaves_the_bytes_alone():
    data = bytes(GOOD_CSV)
    ds, error = datasets.load_user_data(data, "people.csv")
    assert error is None
    assert ds.n_samples == 80 and ds.n_classes == 2
    assert sorted(ds.class_names) == ["short", "tall"]
    assert data == GOOD_CSV
    ds, error = datasets.load_user_data(data, "people.csv", target="colour")
    assert error is None and sorted(ds.class_names) == ["blue", "red"]


@pytest.mark.parametrize(
    "data, name, words",
    [
        # each message says what is wrong and what to do: both halves are checked
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "photo.csv", ("PNG", "plain-text CSV")),
        (b"a,b\n1,2\n3\n4,5,6,7\n", "ragged.csv", ("line 4", "same number of fields")),
        (b"", "empty.csv", ("empty", "header row")),
        (b"a,b,c\n1,2,x\n", "data.xlsx", ("'.xlsx'", ".csv")),
    ],
)
def test_load_user_data_turns_bad_files_into_messages(data, name, words):
    ds, error = datasets.load_user_data(data, name)
    assert ds is None
    assert isinstance(error, str)
    assert "Traceback" not in error
    for word in words:
        assert word in error, (name, word, error)


def test_upload_columns_read_headers_for_the_label_picker():
    assert datasets.upload_columns(b"a;b;c\n1;2;3\n", "x.csv") == ["a", "b", "c"]
    assert datasets.upload_columns(b"a\tb\n1\t2\n", "x.tsv") == ["a", "b"]
    arff = b"@relation r\n@attribute 'x 1' numeric\n@attribute cls {a,b}\n@data\n1,a\n"
    assert datasets.upload_columns(arff, "r.arff") == ["x 1", "cls"]
    assert datasets.upload_columns(b"\xff\xfe\x00", "x.csv") == []
    # quoted names holding the other delimiter: the loader's own header reader decides
    names = datasets.upload_columns(SEMICOLON_CSV, "body.csv")
    assert names == ["height, cm", "weight, kg", "shoe size, EU", "label"]
    ds, error = datasets.load_user_data(SEMICOLON_CSV, "body.csv", target=names[-1])
    assert error is None and sorted(ds.class_names) == ["short", "tall"]
