"""`LoadLimits`: one frozen object for the loaders' limits, the old keywords still work."""

import dataclasses

import pytest

from ternary.data import (
    DataError,
    LoadLimits,
    load_arff,
    load_csv,
    load_file,
    read_arff_header,
    read_csv_header,
    read_header,
)

CSV = b"id,colour,x,y\n" + b"".join(
    f"{i},{'Red' if i % 3 else 'red'},{i * 0.5},{'ab'[i % 2]}\n".encode() for i in range(12)
)
ARFF = b"@relation r\n@attribute x numeric\n@attribute y {a,b}\n@data\n" + b"".join(
    f"{i},{'ab'[i % 2]}\n".encode() for i in range(6)
)


def test_defaults_and_conversions():
    limits = LoadLimits(max_rows="7", keep_columns="id", merge_spellings=0)
    assert (limits.max_rows, limits.keep_columns, limits.merge_spellings) == (7, ("id",), False)
    assert LoadLimits().max_rows == 200_000 and LoadLimits().keep_columns == ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        limits.max_rows = 9  # type: ignore[misc]
    assert hash(LoadLimits()) == hash(LoadLimits())  # frozen: usable as a cache key


@pytest.mark.parametrize(
    "keywords",
    [
        dict(max_rows=11),
        dict(max_values=40),
        dict(max_columns=3),
        dict(max_bytes=60),
    ],
)
def test_limits_and_keywords_refuse_the_same_files(keywords):
    with pytest.raises(DataError) as by_keyword:
        load_csv(CSV, **keywords)
    with pytest.raises(DataError) as by_limits:
        load_csv(CSV, limits=LoadLimits(**keywords))
    assert str(by_keyword.value) == str(by_limits.value)


def test_reading_choices_through_limits_equal_the_keywords():
    by_keyword = load_csv(CSV, merge_spellings=False, keep_columns=["id"])
    by_limits = load_csv(CSV, limits=LoadLimits(merge_spellings=False, keep_columns=("id",)))
    assert list(by_limits.X.columns) == list(by_keyword.X.columns)
    assert "colour=red" in by_limits.X.columns  # 'Red' and 'red' kept apart
    assert by_limits.report == by_keyword.report
    assert (by_limits.X.to_numpy() == by_keyword.X.to_numpy()).all()
    default = load_csv(CSV)
    assert list(default.X.columns) == ["id", "x"]  # merged, then dropped as constant


def test_a_keyword_overrides_the_field_of_limits():
    loose = LoadLimits(max_rows=5)
    with pytest.raises(DataError, match="the limit is 5"):
        load_csv(CSV, limits=loose)
    assert load_csv(CSV, limits=loose, max_rows=100).X.shape[0] == 12
    assert loose.max_rows == 5  # not changed by the override


def test_every_loader_takes_limits():
    tight = LoadLimits(max_bytes=20)
    for call in (
        lambda: load_csv(CSV, limits=tight),
        lambda: read_csv_header(CSV, limits=tight),
        lambda: read_header(CSV, limits=tight),
        lambda: load_arff(ARFF, limits=tight),
        lambda: read_arff_header(ARFF, limits=tight),
        lambda: read_header(ARFF, limits=tight),
    ):
        with pytest.raises(DataError, match="too large"):
            call()
    assert read_header(ARFF, limits=LoadLimits(max_rows=6)) == ["x", "y"]
    with pytest.raises(DataError, match="the limit is 3 rows"):
        read_header(ARFF, limits=LoadLimits(max_rows=3))
    assert load_arff(ARFF, limits=LoadLimits(max_rows=6)).X.shape == (6, 1)


def test_unknown_keywords_and_wrong_limits_are_refused(tmp_path):
    with pytest.raises(TypeError, match="unexpected keyword argument 'max_row'"):
        load_csv(CSV, max_row=3)
    with pytest.raises(TypeError, match="takes a ternary.data.LoadLimits"):
        load_csv(CSV, limits={"max_rows": 3})
    path = tmp_path / "d.csv"
    path.write_bytes(CSV)
    assert load_file(path, limits=LoadLimits(max_rows=12)).X.shape[0] == 12


@pytest.mark.parametrize("word", ["no", "false", 2, None, 0.5])
def test_merge_spellings_takes_a_truth_value_not_a_word(word):
    # bool("no") is True: a word would silently merge what the user asked to keep apart
    with pytest.raises(ValueError, match="merge_spellings must be True or False"):
        LoadLimits(merge_spellings=word)
