"""`load_model` reads a model file's zip records and schema within bounds (issue 36, item 2).

The end of central directory record is found as the zip format defines it (the last
signature whose record, comment included, reaches exactly the end of the file), a ZIP64
end record must agree with the classic one, and the directory must hold exactly the
entries they state; the schema's parse is bounded in bytes and in the objects it builds
(its JsonNode texts, skops' nodes and the array bytes the nodes read included). Each
hostile file is made from a real saved pipeline (tests/pipeline/model_fuzz.py); before,
each either made `zipfile` parse a directory the pre-check never measured, or cost up to
42 s and 1.2 GB before anything refused it.
"""

from __future__ import annotations

import io
import zipfile

import pytest

from ternary.cli import main as ternary_main
from ternary.pipeline import MAX_MEMBERS, ModelFileError, load_model
from tests.pipeline.model_fuzz import (
    counts_spell_the_signature,
    dicts_in_a_json_node,
    end_record_past_the_end,
    fake_end_in_comment,
    many_nodes,
    one_array_read_many_times,
    valid_model_blob,
    with_zip64_end,
    zip64_behind_classic,
)

pytest.importorskip("skops.io")


@pytest.fixture(scope="module")
def blob():
    return valid_model_blob()


@pytest.fixture
def opened(monkeypatch):
    """The archives `zipfile` opened for reading during the test."""
    seen = []
    original = zipfile.ZipFile

    class Spy(original):
        def __init__(self, file, mode="r", *args, **kwargs):
            if mode == "r":
                seen.append(file)
            super().__init__(file, mode, *args, **kwargs)

    monkeypatch.setattr(zipfile, "ZipFile", Spy)
    return seen


def _predict(data: bytes, tmp_path, capsys) -> tuple[int, str]:
    model, rows = tmp_path / "m.skops", tmp_path / "rows.csv"
    model.write_bytes(data)
    rows.write_bytes(b"age,colour,size\n30,red,4.5\n")
    status = ternary_main(["predict", str(model), str(rows), "--out", str(tmp_path / "o.csv")])
    return status, capsys.readouterr().err


@pytest.mark.parametrize(
    ("build", "says"),
    [
        # the last signature in the file is inside the record: the old pre-check skipped
        (counts_spell_the_signature, "over several disks (entries 19,280 on this disk, 1,541"),
        # the classic record states 1 entry, the ZIP64 one that zipfile reads 5,000
        (zip64_behind_classic, "end record states 1 entries in 57 bytes at 0, its ZIP64"),
    ],
)
def test_end_records_that_walk_around_the_count_are_refused_before_zipfile(
    build, says, opened, tmp_path, capsys
):
    data = build(5_000)
    with pytest.raises(ModelFileError, match="not a zip archive") as info:
        load_model(data)
    assert says in str(info.value)
    assert opened == []  # zipfile never parsed the directory
    status, err = _predict(data, tmp_path, capsys)
    assert status == 2 and says in err and "Traceback" not in err


def test_an_honest_oversized_directory_is_refused_from_the_record(blob, opened):
    # held from round 4: 50,001 members are refused before zipfile reads one entry
    many = io.BytesIO()
    with zipfile.ZipFile(many, "w") as z:
        for i in range(MAX_MEMBERS + 1):
            z.writestr(f"{i}.npy", b"")
    opened.clear()
    with pytest.raises(ModelFileError, match=f"has {MAX_MEMBERS + 1:,} members in a"):
        load_model(many.getvalue())
    assert opened == []


@pytest.mark.parametrize(
    ("build", "says"),
    [
        (end_record_past_the_end, "no end of central directory record"),
        (fake_end_in_comment, "does not end where its end records begin"),
        (lambda b: b"junk" + b, "does not end where its end records begin"),
        (lambda b: b[:-22] + b"PK\x06\x07" + bytes(16) + b[-22:], "ZIP64 locator"),
    ],
)
def test_end_records_the_format_does_not_define_are_refused(blob, build, says):
    with pytest.raises(ModelFileError, match=says):
        load_model(build(blob))


@pytest.mark.parametrize("marks", [False, True])
def test_a_zip64_end_record_that_agrees_loads(blob, marks):
    model = load_model(with_zip64_end(blob, marks))
    assert type(model).__name__ == "TernaryPipeline"
    assert load_model(blob).classes_.tolist() == model.classes_.tolist()


def test_a_directory_holding_more_entries_than_stated_is_refused(blob):
    at = blob.rfind(b"PK\x05\x06")
    data = bytearray(blob)
    data[at + 8 : at + 12] = (1).to_bytes(2, "little") * 2  # one entry, on disk and in all
    with pytest.raises(ModelFileError, match="holds more than the 1 entries"):
        load_model(bytes(data))


@pytest.mark.parametrize(
    ("build", "says"),
    [
        # 24 MiB of [{},{},...] deflated to 30 KB: before, 42 s and +1.2 GB, then loaded
        (lambda b: dicts_in_a_json_node(b, 24), "declares 25,2"),
        (lambda b: dicts_in_a_json_node(b, 12), "would take about 1,47"),
        # the same dicts written \u007b\u007d\u002c: the outer parse sees one string
        (lambda b: dicts_in_a_json_node(b, 12, True), "values whose text would take more memory"),
        (lambda b: many_nodes(b, 60_000), "would take about"),
        # twenty nodes naming one 8 MiB member: 160 MiB read from 13 KB (+300 MB before)
        (lambda b: one_array_read_many_times(b, 8, 20), "arrays read to more than the 67,108,864"),
    ],
)
def test_a_schema_whose_parse_passes_the_bounds_is_refused(blob, build, says, tmp_path, capsys):
    data = build(blob)
    assert len(data) < 200_000
    with pytest.raises(ModelFileError, match="schema.json") as info:
        load_model(data)
    assert says in str(info.value)
    status, err = _predict(data, tmp_path, capsys)
    assert status == 2 and says in err and not (tmp_path / "o.csv").exists()


def test_the_node_bound_holds_where_the_parse_bound_grows(blob):
    # a large file may parse more (8 times its size), never build more than 50,000 nodes
    padded = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(many_nodes(blob, 50_001))) as source:
        with zipfile.ZipFile(padded, "w") as target:  # stored: the file is the schema's size
            for info in source.infolist():
                target.writestr(info.filename, source.read(info))
            target.writestr("padding", bytes(8 * 2**20))  # a member nothing reads
    with pytest.raises(ModelFileError, match="describes more than 50,000 objects"):
        load_model(padded.getvalue())
    assert type(load_model(many_nodes(blob, 1_000))).__name__ == "TernaryPipeline"
