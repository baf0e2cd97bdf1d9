"""Fuzzing the loaders: whatever the bytes, a Dataset or a DataError, never another exception.

A seeded set of mutations of valid CSV and ARFF files (the mutations people and
tools actually make: stray quotes and delimiters, cut lines, doubled blocks,
wrong encodings, percent signs, braces) plus hypothesis on raw bytes. Time per
input is measured in benchmarks/bench_fuzz.py, not asserted here.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ternary.data import DataError, Dataset, load_arff, load_csv

VALID_CSV = b"""id;height, cm;colour;grade;label
1;181,2;red;g1;tall
2;158,0;blue;g2;short
3;176,4;;g3;tall
4;?;red;g4;short
5;190,1;blue;g5;tall
6;155,7;green;g6;short
7;170,0;red;g7;tall
8;161,3;blue;g8;short
"""

VALID_ARFF = b"""% a comment
@relation 'fuzz base'
@attribute width numeric
@attribute 'colour name' {red, green, 'dark blue'}
@attribute note string
@attribute when date "yyyy-MM-dd"
@attribute class {yes, no}
@data
1.5,red,'a, b',2020-01-02,yes
2.0,green,plain,2020-02-03,no
?,'dark blue',x,?,yes
3.25,red,'it''s',2021-03-04,no
4,green,"dq",2021-05-06,yes
{0 5, 1 red, 4 no}
"""

SPARSE_ARFF = b"""@relation sparse
@attribute a numeric
@attribute b numeric
@attribute c {x, y}
@data
{0 1, 2 y}
{1 2}
{0 3, 1 4, 2 x}
{0 1.5, 2 y}, {2}
"""

# Issue 22's shapes as bases: rows ended by a lone CR after an LF header, and ARFF
# nominal lists followed by text (liac-arff's pattern backtracked on those) with a
# data section only liac-arff and the tolerant parser read.
CR_CSV = VALID_CSV.replace(b"\n", b"\r").replace(b"\r", b"\n", 1)
LEVELS_ARFF = (
    b"@relation levels\n@attribute a numeric\n"
    b"@attribute code {" + b",".join(b"v%d" % i for i in range(30)) + b"} % codes of the site\n"
    b"@attribute class {yes, no} trailing\n@data\n"
    b'1,v1,yes\n2,"v2",no\n3,v3,yes\n4,v29,no\n'
)

# Fragments that break parsers: delimiters, quotes, line breaks, comment and
# format characters, sparse braces, ARFF keywords, bytes that are not UTF-8,
# a byte-order mark, values a classifier cannot use, and one long run.
TOKENS = [
    b",", b";", b"\t", b"|", b'"', b"'", b"\n", b"\r", b"\r\n", b"%", b"{", b"}", b"?",
    b"\\", b"@data\n", b"@attribute z numeric\n", b"@attribute y {a,b}\n", b"\xff", b"\xc3",
    b"\xef\xbb\xbf", b"\x00", b"inf", b"-inf", b"1e39", b"nan", b"0.5", b"sep=;\n", b"%d",
    b"%s", b"%(x)s", b"50%", b"gr%en", b" ", b"a" * 300, b"{0 1, 50 y", b",,,,", b"\"\"\"",
    b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff", b"\xfe\xff", b"} % note", b"\"1,234.5\"", b"1.234,5",
    b"\r\r", b",x" * 200,
]  # fmt: skip


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to four random edits of ``data``: insert, delete, duplicate, flip, swap, cut."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        n = len(out)
        kind = rng.randrange(7)
        i = rng.randrange(n + 1)
        j = min(n, i + rng.randint(1, 40))
        if kind == 0:
            out[i:i] = rng.choice(TOKENS)
        elif kind == 1:
            del out[i:j]
        elif kind == 2:
            out[i:i] = out[i:j] * rng.randint(1, 5)
        elif kind == 3 and n:
            out[min(i, n - 1)] = rng.randrange(256)
        elif kind == 4:
            lines = bytes(out).split(b"\n")
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
            out = bytearray(b"\n".join(lines))
        elif kind == 5:
            del out[i:]
        else:
            out[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    return bytes(out)


def outcome(loader, data: bytes) -> str:
    """'loaded' or 'refused'; any other exception is a failure of the loader."""
    try:
        result = loader(data)
    except DataError:
        return "refused"
    assert isinstance(result, Dataset)
    return "loaded"


def test_mutated_files_load_or_raise_data_error():
    rng = random.Random(20261129)
    counts = {"loaded": 0, "refused": 0}
    failures = []
    cases = [(load_csv, VALID_CSV)] * 150 + [(load_arff, VALID_ARFF)] * 110
    cases += [(load_arff, SPARSE_ARFF)] * 40
    cases += [(load_csv, CR_CSV)] * 20 + [(load_arff, LEVELS_ARFF)] * 20
    for k, (loader, base) in enumerate(cases):
        data = mutate(base, rng)
        try:
            counts[outcome(loader, data)] += 1
        except Exception as exc:  # noqa: BLE001 - collected so one run lists them all
            failures.append(f"case {k} {loader.__name__}({data[:120]!r}): {exc!r}")
    assert not failures, "\n".join(failures[:10])
    # Both outcomes occur, so the mutations neither always break nor never matter.
    assert counts["loaded"] > 30 and counts["refused"] > 30, counts


def test_the_valid_bases_load():
    assert load_csv(VALID_CSV).class_names == ["short", "tall"]
    assert load_arff(VALID_ARFF).n_samples == 6
    assert load_arff(SPARSE_ARFF).n_samples == 4
    assert load_csv(CR_CSV).class_names == ["short", "tall"]
    assert load_arff(LEVELS_ARFF).n_samples == 4


@settings(max_examples=80, deadline=None)
@given(st.binary(max_size=600))
def test_any_bytes_after_a_valid_csv_start(tail):
    outcome(load_csv, VALID_CSV[:60] + tail)


@settings(max_examples=80, deadline=None)
@given(st.binary(max_size=600))
def test_any_bytes_after_a_valid_arff_start(tail):
    outcome(load_arff, VALID_ARFF[:200] + tail)


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_at_all(data):
    outcome(load_csv, data)
    outcome(load_arff, data)
