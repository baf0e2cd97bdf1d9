"""Without liac-arff an ARFF file is read by the tolerant parser, and the message says why."""

import sys

import pytest

from ternary.data import DataError, load_arff

# double quotes in the data section keep the file off pandas' fast path
QUOTED = (
    b'@relation r\n@attribute x numeric\n@attribute c {a,b}\n@data\n1,"a"\n2,"b"\n3,"a"\n4,"b"\n'
)


@pytest.fixture
def no_liac(monkeypatch):
    monkeypatch.setitem(sys.modules, "arff", None)  # `import arff` raises ImportError


def test_tolerant_parser_reads_it_and_the_report_names_the_package(no_liac):
    ds = load_arff(QUOTED)
    assert list(ds.X["x"]) == [1.0, 2.0, 3.0, 4.0]
    assert [str(v) for v in ds.y] == ["a", "b", "a", "b"]
    report = " ".join(ds.report)
    assert "'liac-arff', which is not installed" in report
    assert "could not read the file" not in report


def test_a_broken_file_is_blamed_on_the_file_not_on_liac(no_liac):
    broken = b"@relation r\n@attribute x numeric\n@data\n"
    with pytest.raises(DataError) as info:
        load_arff(broken + b'"unterminated\n')
    message = str(info.value)
    assert "liac-arff also failed" not in message
    assert "not installed" in message
