"""ID-like integer columns are set aside (issue 38 item 5): a column numbering the rows
1..n or 0..n-1 in file order, whatever its name, and an all-distinct integer column named
like an identifier (``id``, ``*_id``, ``*_no``, ``*_number``, ``key``, ``index``, any case);
``keep_columns=`` keeps one; an all-distinct measurement such as a price stays a feature."""

from __future__ import annotations

import numpy as np
import pytest

from ternary.data import load_csv


def _csv(columns: dict[str, list], n: int, seed: int = 0) -> bytes:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    names = [*columns, "x", "label"]
    lines = [",".join(names)]
    for i in range(n):
        cells = [str(v[i]) for v in columns.values()]
        lines.append(",".join([*cells, f"{x[i]:.3f}", "yes" if x[i] > 0 else "no"]))
    return ("\n".join(lines) + "\n").encode()


N = 200
RNG = np.random.default_rng(7)
SHUFFLED = RNG.permutation(np.arange(1000, 1000 + N)).tolist()
PRICES = RNG.choice(np.arange(500, 90_000), N, replace=False).tolist()  # all distinct


def _aside(ds) -> set[str]:
    return set(ds.preprocessor.set_aside_)


@pytest.mark.parametrize("start", [0, 1])
@pytest.mark.parametrize("name", ["record_no", "seq", "Row", "visit"])
def test_a_column_numbering_the_rows_is_set_aside_whatever_its_name(name, start):
    ds = load_csv(_csv({name: list(range(start, start + N))}, N))
    assert name in _aside(ds) and name not in ds.X.columns
    line = next(r for r in ds.report if "number the rows" in r)
    assert f"'{name}'" in line and "keep_columns" in line
    assert name in ds.raw.columns  # still shown beside the answers


@pytest.mark.parametrize(
    "name", ["order_no", "ORDER_NO", "customer_number", "Index", "key", "client_id", "ID"]
)
def test_an_all_distinct_integer_column_named_like_an_id_is_set_aside(name):
    ds = load_csv(_csv({name: SHUFFLED}, N))
    assert name in _aside(ds) and name not in ds.X.columns


@pytest.mark.parametrize("name", ["price", "income", "weight_g", "nose", "casino", "indexed"])
def test_an_all_distinct_measurement_stays(name):
    ds = load_csv(_csv({name: PRICES}, N))
    assert name in ds.X.columns and name not in _aside(ds)


def test_almost_a_row_number_stays():
    from_five = list(range(5, 5 + N))  # not 0.. or 1..
    one_gap = [*range(1, N), N + 1]  # 1..n-1, then n+1
    repeated = [*range(1, N), N - 1]
    ds = load_csv(_csv({"a": from_five, "b": one_gap, "c": repeated}, N))
    assert {"a", "b", "c"} <= set(ds.X.columns)
    named_with_a_repeat = load_csv(_csv({"order_no": [*SHUFFLED[:-1], SHUFFLED[0]]}, N))
    assert "order_no" in named_with_a_repeat.X.columns


def test_keep_columns_keeps_a_row_number():
    ds = load_csv(_csv({"record_no": list(range(1, N + 1))}, N), keep_columns=["record_no"])
    assert "record_no" in ds.X.columns and "record_no" not in _aside(ds)


def test_the_cases_of_a_file_with_a_row_number_never_split_on_it():
    """Each fold of the out-of-fold answers holds part of the rows, which no longer run
    1..n: the folds leave out what the whole file set aside."""
    from ternary import TernaryTreeClassifier
    from ternary.experiment import out_of_fold_answers

    ds = load_csv(_csv({"record_no": list(range(1, N + 1))}, N))
    raw = ds.raw.drop(columns=[ds.target])
    _, models = out_of_fold_answers(
        raw,
        ds.y,
        TernaryTreeClassifier(max_depth=3),
        preprocessor=ds.preprocessor,
        return_models=True,
    )
    for pipe in models:
        assert "record_no" not in pipe[0].feature_names_in_


def test_a_measurement_written_with_decimals_stays_even_when_it_runs_0_to_n():
    ds = load_csv(_csv({"dose": [f"{i}.0" for i in range(N)]}, N))
    assert "dose" in ds.X.columns
    quoted = load_csv(_csv({"visit": [f'"{i}"' for i in range(1, N + 1)]}, N))
    assert "visit" in _aside(quoted)  # whole numbers stored as text are whole numbers
