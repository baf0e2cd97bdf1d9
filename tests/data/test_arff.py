"""Tests for the ARFF loader (ternary/data/_arff.py).

The shared ARFF collection (../shared/datasets) is reached through the conftest
fixture ``shared_datasets``: when the folder is absent those tests skip locally and
fail in CI (``CI=true``), so a broken checkout never passes silently.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ternary.data import (
    DataError,
    Dataset,
    load_arff,
    load_csv,
    read_arff_header,
    read_header,
)


def report_text(ds: Dataset) -> str:
    return "\n".join(ds.report)


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


# ---------------------------------------------------------------------------
# ARFF
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


def test_arff_small_file_round_trip(tmp_path):
    ds = load_arff(write(tmp_path, "tiny.arff", SMALL_ARFF))
    assert ds.source == "arff" and ds.name == "tiny"
    assert ds.feature_names == ["width", "colour=red", "colour=green", "colour=(missing)"]
    np.testing.assert_array_equal(ds.X["width"], [1, 2, 3])
    # The missing colour is a level of its own.
    np.testing.assert_array_equal(ds.X["colour=(missing)"], [0, 0, 1])
    np.testing.assert_array_equal(ds.X["colour=green"], [0, 1, 0])
    assert list(ds.y) == ["yes", "no", "yes"]


# Tabs in the header, spaces inside nominal lists, padded values, quoted names
# and values with commas: liac-arff rejects this header as written, so the loader
# gives it the header rewritten by its own parser (and the tolerant parser reads it all).
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


def test_arff_tolerant_parser_handles_awkward_files(monkeypatch):
    import arff

    def refuse(*args, **kwargs):
        raise arff.BadLayout()

    monkeypatch.setattr(arff, "loads", refuse)  # liac-arff refuses: the tolerant parser reads
    ds = load_arff(AWKWARD_ARFF.encode())
    assert "used the tolerant ARFF parser instead" in report_text(ds)
    assert ds.name == "awkward data"
    assert read_arff_header(AWKWARD_ARFF.encode()) == ["steel kind", "size", "note", "grade",
                                                       "class"]  # fmt: skip
    # levels in declared order, quoted ones with their comma, "none" a level
    assert ds.feature_names[:3] == ["steel kind=C", "steel kind=H", "steel kind=G"]
    assert "grade=low, very" in ds.feature_names and "grade=none" in ds.feature_names
    np.testing.assert_array_equal(ds.X["steel kind=C"], [1, 0, 0, 1])  # padded ' C '
    np.testing.assert_array_equal(ds.X["size"], [8, 12.5, 8, 3])  # '?' missing, imputed
    assert list(ds.y) == [1, 2, 1, 2]


def test_arff_awkward_file_loads_with_fallback_and_none_is_a_level():
    ds = load_arff(AWKWARD_ARFF.encode())
    assert "Parsed with liac-arff" in report_text(ds)  # the header it was given is plain
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
    # shared_datasets (conftest): skips locally, fails in CI, when ../shared is absent.
    ds = load_arff(shared_datasets / file)
    assert ds.n_samples == rows
    assert ds.n_classes == n_classes
    assert (ds.X.dtypes == np.float64).all()
    assert not ds.X.isna().any().any()
    if file == "diabetes.arff":
        assert ds.n_features == 8
        assert ds.class_names == ["tested_negative", "tested_positive"]


@pytest.mark.parametrize("file", ["anneal.arff", "pendigits.arff"])
def test_tolerant_parser_agrees_with_liac_on_shared_files(shared_datasets, file, monkeypatch):
    import arff

    data = _without_shortcut((shared_datasets / file).read_bytes())
    with_liac = load_arff(data)
    assert "Parsed with liac-arff." in with_liac.report

    def refuse(*args, **kwargs):
        raise arff.BadLayout()

    monkeypatch.setattr(arff, "loads", refuse)
    tolerant = load_arff(data)
    assert "used the tolerant ARFF parser instead" in report_text(tolerant)
    pd.testing.assert_frame_equal(tolerant.X, with_liac.X)
    np.testing.assert_array_equal(tolerant.y, with_liac.y)


def test_every_shared_arff_file_loads(shared_datasets):
    table = _readme_table(shared_datasets)
    files = sorted(shared_datasets.glob("*.arff")) + sorted(shared_datasets.glob("webb1997/*.arff"))
    assert files, "the shared folder holds no ARFF files"
    fast = compared = 0
    for path in files:
        ds = load_arff(path)
        key = path.relative_to(shared_datasets).as_posix()
        assert ds.n_classes >= 2, key
        assert (ds.X.dtypes == np.float64).all(), key
        if key in table:
            assert (ds.n_samples, ds.n_classes) == table[key], key
        if "pandas' C parser" in report_text(ds):
            fast += 1
        if "pandas' C parser" in report_text(ds) and path.stat().st_size < 400_000:
            # The shortcut must give exactly what liac-arff (or the tolerant parser)
            # gives; the comparison skips the few largest files, which take the most
            # time with liac and add no kind of content the others lack.
            compared += 1
            slow = _load_without_shortcut(path)
            assert "pandas' C parser" not in report_text(slow), key
            pd.testing.assert_frame_equal(ds.X, slow.X)
            np.testing.assert_array_equal(ds.y, slow.y)
    assert fast >= len(files) // 2  # most real files have a plain data section
    assert compared >= len(files) // 2


def _without_shortcut(data: bytes) -> bytes:
    """The same file with an indented comment line: not a plain data section, so the
    full parsers read it (a '%' not at the start of a line), with the same content."""
    return data + b"\n  % read by the full parsers\n"


def _load_without_shortcut(path) -> Dataset:
    data = path.read_bytes() if isinstance(path, Path) else path
    return load_arff(_without_shortcut(data))


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


# ---------------------------------------------------------------------------
# Hostile ARFF: messages in words, with the line, and never a traceback
# ---------------------------------------------------------------------------

HEAD = "@relation r\n@attribute a numeric\n@attribute colour {red, green, blue}\n@data\n"


def test_unclosed_sparse_row_is_refused_naming_the_line():
    text = "@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n{0 1, 1 x}\n{0 1, 1 y\n"
    with pytest.raises(DataError, match=r"^Line 6 of the ARFF file: a sparse row .* not closed"):
        load_arff(text.encode())


@pytest.mark.parametrize("value", ["gr%en", "50%", "%d", "%(x)s"])
def test_percent_signs_in_values_never_reach_a_format_string(value):
    # liac-arff rejects the undeclared value and formats its message with %; the
    # tolerant parser then reads the file, and the report quotes liac's reason.
    text = HEAD + f"1,red\n2,{value}\n3,green\n4,blue\n"
    ds = load_arff(text.encode(), target="colour")
    assert value in ds.class_names
    assert any(f"Data value {value} not found" in line for line in ds.report)


def test_percent_signs_in_a_refused_file_are_quoted_as_they_are():
    text = HEAD + "1,red\n2,'gr%en\n"
    with pytest.raises(DataError, match="quoted value is not closed"):
        load_arff(text.encode())


def test_a_huge_attribute_type_is_not_echoed_whole():
    text = "@relation r\n@attribute a " + "x" * 50_000 + "\n@attribute c {p,q}\n@data\n1,p\n"
    with pytest.raises(DataError, match="unknown attribute type") as info:
        load_arff(text.encode())
    assert len(str(info.value)) < 1_000
    assert "…" in str(info.value)


def test_a_line_of_quotes_is_split_in_one_pass():
    # Each quote used to re-join the field read so far: quadratic in the line length.
    value = "a" + "'" * 200_000
    text = HEAD.replace("{red, green, blue}", "string") + f"1,{value}\n2,b\n"
    ds = load_arff(text.encode(), target="a")
    assert ds.n_samples == 2


def test_integer_attributes_are_truncated_on_both_paths():
    # liac-arff reads INTEGER values with int(float(v)); the pandas path does the same.
    text = "@relation r\n@attribute n integer\n@attribute c {p,q}\n@data\n1.7,p\n-2.5,q\n3,p\n4,q\n"
    fast = load_arff(text.encode())
    assert "pandas' C parser" in report_text(fast)
    np.testing.assert_array_equal(fast.X["n"], [1, -2, 3, 4])
    np.testing.assert_array_equal(_load_without_shortcut(text.encode()).X["n"], fast.X["n"])


def test_rows_not_matching_the_attributes_leave_the_shortcut_for_a_line_error():
    for rows, line in (("1,red\n2\n3,blue\n", 6), ("1,red\n2,red,9\n3,blue\n", 6)):
        with pytest.raises(DataError, match=rf"^Line {line} of the ARFF file: the row has"):
            load_arff((HEAD + rows).encode())


def test_arff_value_budget_is_checked_on_the_header():
    with pytest.raises(DataError, match="the limit is 20 values"):
        load_arff((HEAD + "1,red\n2,blue\n" * 20).encode(), max_values=20)


def test_quoted_values_and_comment_lines_take_the_shortcut_with_the_same_result():
    text = (
        b"@relation r\n@attribute w numeric\n@attribute 'kind name' {'a, b', c}\n"
        b"@attribute note string\n@attribute class {p,q}\n@data\n% a comment\n"
        b"1.5,'a, b',' padded',p\n?,c,plain,q\n%another\n2.25, 'a, b' ,x,?\n3,c,y,q\n"
    )
    fast = load_arff(text)
    assert "pandas' C parser" in report_text(fast)
    slow = _load_without_shortcut(text)
    pd.testing.assert_frame_equal(fast.X, slow.X)
    np.testing.assert_array_equal(fast.y, slow.y)
    assert fast.n_samples == 3  # the row with a missing class is dropped on both paths


def test_a_file_only_the_slow_parsers_read_has_a_smaller_value_budget():
    rows = "".join(f'{i},"{("red", "blue")[i % 2]}"\n' for i in range(250_001))  # liac's job
    with pytest.raises(DataError, match="about 500,002 values.*slower full ARFF parsers"):
        load_arff((HEAD + rows).encode(), max_rows=10**6)
    # The same values without the double quotes take the fast path, under the main budget.
    few = "".join(rows.splitlines(keepends=True)[:20])
    assert load_arff((HEAD + few.replace('"', "")).encode()).n_samples == 20


# ---------------------------------------------------------------------------
# read_header / read_arff_header: the names load_arff gives the columns
# ---------------------------------------------------------------------------

SMALL_SHARED = [
    "iris.arff",
    "labor.arff",
    "echocardiogram.arff",
    "balance-scale.arff",
    "hepatitis.arff",
    "heart-statlog.arff",
    "glass.arff",
    "breast-w.arff",
]


def _liac_names(path: Path) -> list[str] | None:
    """liac-arff's attribute names for the header alone, stripped; None if it refuses."""
    import arff

    text = path.read_text(encoding="utf-8", errors="replace")
    head = re.split(r"(?im)^[ \t]*@data", text, maxsplit=1)[0]
    try:
        return [str(name).strip() for name, _ in arff.loads(head + "@data\n")["attributes"]]
    except Exception:  # noqa: BLE001 - liac's own errors; the tolerant reader then decides
        return None


def _assert_columns_follow(names: list[str], ds: Dataset, target: str) -> None:
    """Every loaded column is a header name, or ``name=level`` of a nominal one, in order."""
    assert target in names and target not in ds.feature_names
    positions = []
    for column in ds.feature_names:
        owners = [i for i, n in enumerate(names) if column == n or column.startswith(f"{n}=")]
        assert owners, column
        positions.append(max(owners))
    assert positions == sorted(positions)
    assert f"(target '{target}')" in report_text(ds)


def test_read_header_of_every_shared_arff_file_agrees_with_liac(shared_datasets):
    files = sorted(shared_datasets.glob("*.arff")) + sorted(shared_datasets.glob("webb1997/*.arff"))
    compared = 0
    for path in files:
        names = read_header(path)
        assert names == read_arff_header(path) == read_header(path.read_bytes()), path.name
        reference = _liac_names(path)
        if reference is not None:
            assert names == reference, path.name
            compared += 1
    assert compared >= len(files) // 2


@pytest.mark.parametrize("file", SMALL_SHARED)
def test_read_header_names_are_the_ones_load_arff_uses(shared_datasets, file):
    path = shared_datasets / file
    names = read_header(path)
    default = load_arff(path)
    _assert_columns_follow(names, default, names[-1])
    # the first name, given back as the target, is accepted exactly as read
    other = names[0]
    try:
        chosen = load_arff(path, target=other)
    except DataError as exc:  # a numeric first column is refused as a label, not as a name
        assert "not in the file" not in str(exc)
    else:
        _assert_columns_follow(names, chosen, other)


_ARFF_NAME = st.text(
    alphabet=st.characters(
        codec="utf-8",
        exclude_categories=("Cc", "Cs", "Zl", "Zp", "Zs"),
        exclude_characters="'\"\\%{}\ufeff",
    ),
    min_size=1,
    max_size=10,
)


@settings(max_examples=40, deadline=None)
@given(
    names=st.lists(_ARFF_NAME, min_size=2, max_size=6, unique=True),
    quoted=st.lists(st.booleans(), min_size=6, max_size=6),
    padded=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_read_header_equals_the_columns_load_arff_builds(names, quoted, padded, seed):
    rng = np.random.default_rng(seed)
    lines = ["% generated", "@RELATION gen"]
    for name, quote in zip(names[:-1], quoted, strict=False):
        # a quoted name may hold spaces around it, which the loader strips
        shown = f"' {name} '" if quote and padded else f"'{name}'" if quote else name
        lines.append(f"@attribute\t{shown} NUMERIC")
    lines.append(f"@attribute '{names[-1]}'{{yes,no}}")
    lines.append("@data")
    for i in range(8):
        values = [f"{v:.3f}" for v in rng.normal(size=len(names) - 1)]
        lines.append(",".join([*values, "yes" if i % 2 else "no"]))
    data = ("\n".join(lines) + "\n").encode()
    assert read_header(data) == names
    ds = load_arff(data)
    assert ds.feature_names + [names[-1]] == names
    utf16 = "\ufeff".encode("utf-16-le") + ("\n".join(lines) + "\n").encode("utf-16-le")
    assert read_header(utf16) == names  # the full parsers read UTF-16 headers


def test_read_header_picks_the_reader_by_name_then_content(tmp_path):
    arff_bytes = SMALL_ARFF
    assert read_header(arff_bytes) == ["width", "colour", "class"]
    assert read_header(write(tmp_path, "t.arff", arff_bytes)) == ["width", "colour", "class"]
    upload = io.BytesIO(arff_bytes)
    upload.name = "T.ARFF"
    assert read_header(upload) == ["width", "colour", "class"]
    assert upload.tell() == 0  # not consumed
    # a CSV whose first name starts with '@' is still a CSV
    assert read_header(b"@user,score,label\nann,1,a\nbob,2,b\n") == ["@user", "score", "label"]
    # the name decides over the content, as load_file does
    with pytest.raises(DataError):
        load_csv(write(tmp_path, "t.csv", arff_bytes), target="class")
    assert read_header(write(tmp_path, "t.csv", arff_bytes)) != ["width", "colour", "class"]
    with pytest.raises(DataError, match="Target column 'size' is not in the file"):
        read_header(arff_bytes, target="size")
    with pytest.raises(DataError, match="Duplicate column names"):
        read_arff_header(b"@relation r\n@attribute a real\n@attribute 'a ' real\n@data\n1,2\n")
    with pytest.raises(DataError, match="too large"):
        read_arff_header(arff_bytes, max_bytes=10)
