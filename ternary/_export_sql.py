"""`export_sql`: a fitted ternary tree or forest as one SQL ``SELECT``.

The query reproduces the library's predict, predict_verdict and predict_proba on every row of
a table, with no Python at scoring time. How each part is written:

* **Float32 values.** The library casts each input to float32 and compares and blends
  ``float64(float32(x))`` with float64 thresholds and zone edges. The query computes that
  value exactly in double arithmetic, once per row and feature: Veltkamp's split
  ``c − (c − x)`` with ``c = x·(2**29+1)`` rounds a double to 24 significant bits, ties to
  even, as float32 does; below float32's normal range it rounds to a multiple of 2**-149
  instead (``(x·2**149 + 1.5·2**52) − 1.5·2**52``). Every test and weight then reads that
  value, so ``θ−δ`` and ``θ+δ`` are computed from θ and δ as the library computes them, and
  each number is written in a form both engines read bit for bit (`ternary.codegen.sql_number`).
* **The tree as a table, walked recursively.** Each split is one row of ``__nodes`` (tree,
  node, feature, θ, δ, children, kind), each leaf one row of ``__leaves``; a recursive
  common table expression moves every (row, tree) pair one node down per step, joining
  the node it has reached. So the text grows with the node count alone (about 70 bytes per
  split and 20 to 90 per leaf), whatever the tree's shape: a chain of 19,999 nodes gives
  1.4 MB, where one column per leaf per level gave 11.4 MB at 1,801 nodes. The engine's
  work grows with the rows times the length of their paths.
* **Blend weights.** A row that meets a zone on CART's path is blended: from there the walk
  carries one row per branch with its node and weight, each child's weight its parent's
  times the left factor or one minus it, exactly as the library's kernels compute them
  (the dense kernel's ``clip((θ+δ−x)·(0.5/δ))`` for trees of up to `blend_kernel_limit`
  leaves, from the root; the per-row walk's ramp inside the zone and 1 or 0 outside for
  larger ones, from the first zone met, above which every weight is exactly 1). A branch
  of weight 0 is not followed: its leaves would add 0. The leaves' terms are then added in
  preorder, one term per step of a second recursion, not by ``SUM`` (whose order is the
  engine's), and divided by their total as the library does; so the probabilities agree
  to the last bit in practice (tests hold them within 1e-6) and ties between classes break
  the same way.
* **Reading the inputs.** Every feature the model tests is first read as a double, whatever
  the column's type: a table loaded by the sqlite3 shell's ``.import --csv`` holds TEXT, and
  comparing TEXT with a number compares strings. Numbers (integers included) are cast to
  DOUBLE, which leaves a double untouched. Text that is a decimal number (surrounding spaces,
  tabs and line ends, an optional sign, digits with at most one point, an optional exponent:
  `_numeric_text`) is cast to DOUBLE and scores as that number; any other text (``''``,
  ``'abc'``, ``'12abc'``, ``'inf'``, ``'nan'``, ``'0x10'``, ``'1_000'``) and a BLOB read as
  NULL. SQLite's CAST of a text that is a number would read ``'12abc'`` as 12 and ``''``
  as 0, so the text is checked first, with functions and ``GLOB`` patterns both engines
  share; which branch runs depends on ``typeof``, so one query serves both. DuckDB converts
  text to the nearest double; SQLite 3.40 converts about one decimal text in 40,000 one ulp
  off, which moves a row only when its value lies within one ulp of a float32 rounding
  boundary.
* **Missing and unusable values.** The library refuses NaN, infinities and values beyond
  float32's range. A query cannot raise per row: a row with NULL (or NaN, ±inf, a magnitude
  of 2**128 − 2**103 or more, or text that is not a number) in any feature the model tests
  gets NULL in ``prediction``, ``verdict`` and every probability; the key is kept. The
  library has no routing for missing values, so neither has the query.
* **Labels** are written as SQL literals that read back equal: booleans (as 1 and 0),
  64-bit integers, finite floats and text. Other labels (dates, uint64 values of 2**63 or
  more, bytes) are refused (`ternary.codegen.export_label`).
* **Forests** are walked in one pass, each row once per tree; they average their trees'
  probabilities, added in tree order (a recursion again), and decide a row when at least
  ``min_decided_fraction`` of the trees decide it, as `TernaryForestClassifier` does.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ternary.codegen import (
    F32_OVERFLOW,
    F32_SUBNORMAL,
    MAX_EXPORT_NODES,
    TreePlan,
    check_export_size,
    export_label,
    feature_names,
    forest_min_decided,
    members,
    sql_number,
    tree_plan,
)

__all__ = ["MAX_SQL_COLUMNS", "MAX_SQL_NODES", "export_sql"]

#: The most columns one ``SELECT`` of the query may carry. SQLite's default limit is 2,000
#: per result set; reading the inputs takes two columns per feature the model tests, so
#: this bounds those features (the tree itself is rows of a table, not columns).
MAX_SQL_COLUMNS = 1_900
#: The most nodes (over all trees) the exporter writes: about 1 MB of SQL (the cap
#: `export_python` shares, `ternary.codegen.MAX_EXPORT_NODES`).
MAX_SQL_NODES = MAX_EXPORT_NODES
#: Terms per sum in one ``SELECT`` (SQLite and DuckDB cap expression depth at 1,000).
_SUM_CHUNK = 300
_VELTKAMP = sql_number(2.0**29 + 1.0)
_ROUND = sql_number(1.5 * 2.0**52)
#: What `_numeric_text` trims from both ends of a text: space, tab, line feed, carriage return.
_BLANKS = " \t\n\r"
#: A decimal number with its digits deleted: sign, point, exponent mark and exponent sign.
_SHAPES = tuple(
    sign + point + exp
    for sign in ("", "+", "-")
    for point in ("", ".")
    for exp in ("", "e", "e+", "e-", "E", "E+", "E-")
)


def quote(name: str) -> str:
    """``name`` as a double-quoted SQL identifier."""
    return '"' + str(name).replace('"', '""') + '"'


def _table_ref(table: str) -> str:
    if not isinstance(table, str) or not table.strip():
        raise ValueError(f"table must be a non-empty table name; got {table!r}.")
    return ".".join(quote(part) for part in table.split("."))


def _label(value) -> str:
    """A class label as an SQL literal: numbers as numbers, text as text (else refused)."""
    item = export_label(value, "export_sql")
    if isinstance(item, bool):
        return "1" if item else "0"
    if isinstance(item, int):
        return str(item)
    if isinstance(item, float):
        return sql_number(item)
    return "'" + str(item).replace("'", "''") + "'"


def _numeric_text(t: str) -> str:
    """SQL that is true when the (trimmed) text ``t`` is a decimal number.

    A number is an optional sign, digits with at most one point (a digit on at least one
    side), then optionally ``e`` or ``E``, an optional sign and digits. The text with its
    digits deleted must be one of `_SHAPES` (so the marks come in that order, once each);
    the GLOBs ask for a digit before any exponent mark, a digit at the end when there is an
    exponent, and no sign right after a digit or point (a sign goes first or after the mark).
    """
    digitless = t
    for digit in "0123456789":
        digitless = f"replace({digitless}, '{digit}', '')"
    shapes = ", ".join(f"'{shape}'" for shape in _SHAPES)
    return (
        f"{digitless} IN ({shapes})"
        f" AND {t} GLOB '*[0-9]*'"
        f" AND ({t} NOT GLOB '*[eE]*' OR ({t} GLOB '*[0-9]*[eE]*' AND {t} GLOB '*[0-9]'))"
        f" AND {t} NOT GLOB '*[0-9.]+*' AND {t} NOT GLOB '*[0-9.]-*'"
    )


def _read_stages(q: _Query, key: str | None, used: list[int]) -> None:
    """Two stages that read each tested feature as a double ``__x{f}`` (or NULL).

    The first splits a column by ``typeof``: text (SQLite's ``text``, DuckDB's ``VARCHAR``)
    goes to ``__t{f}``, trimmed; numbers are cast to DOUBLE in ``__d{f}``; a BLOB gives
    NULL in both. The second casts ``__t{f}`` where `_numeric_text` holds. ``CASE`` runs
    only the branch it picks, so no engine casts text that is not a number.
    """
    first = [(quote(key), "__key")] if key is not None else []
    second = [("__key", "__key")] if key is not None else []
    blanks = "'" + _BLANKS + "'"
    for f in used:
        col = quote(q.names[f])
        kind = f"typeof({col})"
        text = (
            f"CASE WHEN {kind} IN ('text', 'VARCHAR') "
            f"THEN trim(CAST({col} AS VARCHAR), {blanks}) END"
        )
        number = (
            f"CASE WHEN {kind} IN ('text', 'VARCHAR', 'blob', 'BLOB') THEN NULL "
            f"ELSE CAST({col} AS DOUBLE) END"
        )
        first += [(text, f"__t{f}"), (number, f"__d{f}")]
        t = f"__t{f}"
        second.append(
            (
                f"CASE WHEN {t} IS NULL THEN __d{f} "
                f"WHEN {_numeric_text(t)} THEN CAST({t} AS DOUBLE) END",
                q.x(f),
            )
        )
    q.stages += [first, second]


class _Query:
    """The query's common table expressions in order, then its final ``SELECT``."""

    def __init__(self, names: list[str]):
        self.names = names
        self.stages: list[list[tuple[str, str]]] = []  # the read stages: [(expression, alias)]
        self.ctes: list[tuple[str, str]] = []  # then (name with columns, body)
        self.classes: np.ndarray = np.empty(0)  # the model's classes, set by `_build`

    def x(self, feature: int) -> str:
        return f"__x{feature}"

    def render(self, source: str, final: str) -> str:
        """``WITH RECURSIVE`` and every stage in order: no nesting, which SQLite's parser caps."""
        parts = []
        for i, stage in enumerate(self.stages):
            cols = ",\n    ".join(f"{expr} AS {alias}" for expr, alias in stage)
            origin = source if i == 0 else f"__s{i - 1}"
            parts.append(f"__s{i} AS MATERIALIZED (\n  SELECT\n    {cols}\n  FROM {origin}\n)")
        parts += [f"{name} AS {body}" for name, body in self.ctes]
        return "WITH RECURSIVE\n" + ",\n".join(parts) + "\n" + final + ";\n"


def _clip(expr: str) -> str:
    return f"CASE WHEN {expr} < 0e0 THEN 0e0 WHEN {expr} > 1e0 THEN 1e0 ELSE {expr} END"


def _rounded(col: str) -> str:
    """The float32 value of a double column, exactly (see the module docstring)."""
    up = f"*{2**62}*{2**62}*{2**25}"
    down = f"/{2**62}/{2**62}/{2**25}"
    tiny = f"(({col}{up} + {_ROUND}) - {_ROUND}){down}"
    big = f"({col}*{_VELTKAMP} - ({col}*{_VELTKAMP} - {col}))"
    return f"CASE WHEN abs({col}) < {sql_number(F32_SUBNORMAL)} THEN {tiny} ELSE {big} END"


def _value(v: float) -> str:
    """A double for a ``VALUES`` row: `sql_number` without its outer parentheses."""
    text = sql_number(v)
    return text[1:-1] if text.startswith("(") else text


#: What a split does, one code per node in ``__nodes.k`` (see `_kind`).
_HARD, _MIDDLE, _WALK, _DENSE, _DENSE_HARD = range(5)


def _kind(plan: TreePlan, node: int) -> int:
    """The node's code: how the route and the blend treat it.

    ``_HARD``: CART's ``x ≤ θ`` everywhere (no zone, or a hard-middle split without a middle
    child); ``_MIDDLE``: a hard-middle zone, whose rows take the middle child. The others are
    zones of binary routings, where a row meeting one on CART's path is blended: ``_WALK`` in
    a tree the library blends with its per-row walk (ramp inside the zone, 1 or 0 outside),
    ``_DENSE`` with its dense kernel (``clip((θ+δ−x)·(0.5/δ))`` everywhere), ``_DENSE_HARD``
    where the dense kernel's ``0.5/δ`` overflows and the split's weight stays hard.
    """
    if not plan.delta[node] > 0.0:
        return _HARD
    if plan.routing == "hard_middle":
        return _MIDDLE if plan.middle[node] != -1 else _HARD
    if not plan.dense:
        return _WALK
    return _DENSE if plan.soft(node) else _DENSE_HARD


def _tables(plans: list[TreePlan], columns: list[np.ndarray], k: int) -> tuple[str, str]:
    """The ``VALUES`` of ``__nodes`` (the splits) and ``__leaves``, named by preorder rank.

    A split is numbered by its rank ``i`` in the tree's preorder, a leaf by ``−i − 1``, so
    a walk ends where its node is negative and the leaves' preorder is their descending
    ids. A split's row holds the tree ``t``, its id ``n``, the feature ``f``, θ, δ, the
    left, right and middle child (0: none; the root is nobody's child) and the `_kind`. A
    leaf's holds ``u`` (1: reached through a middle branch, so boundary-uncertain) and its
    distribution in the model's class order (a forest member's missing classes as 0, which
    leaves every sum unchanged). A first row that matches nothing fixes the column types
    and keeps the lists non-empty.
    """
    nodes = ["(-1,-1,0,0e0,0e0,-1,-1,-1,0)"]
    leaves = ["(-1,0,0," + ",".join(["0e0"] * k) + ")"]
    for t, (plan, cols) in enumerate(zip(plans, columns, strict=True)):
        rank = {n: (-i - 1 if plan.is_leaf(n) else i) for i, n in enumerate(plan.preorder)}
        flagged = plan.through_middle()
        for node in plan.preorder:
            if plan.is_leaf(node):
                values = ["0e0"] * k
                for j, c in enumerate(cols):
                    values[int(c)] = _value(plan.value[node, j])
                leaves.append(f"({t},{rank[node]},{int(node in flagged)},{','.join(values)})")
                continue
            middle = rank[plan.middle[node]] if plan.middle[node] != -1 else 0
            nodes.append(
                f"({t},{rank[node]},{plan.feature[node]},{_value(plan.threshold[node])},"
                f"{_value(plan.delta[node])},{rank[plan.left[node]]},{rank[plan.right[node]]},"
                f"{middle},"
                f"{_kind(plan, node)})"
            )
    return ",\n  ".join(nodes), ",\n  ".join(leaves)


def _trees_in(column: str, trees: list[int], count: int) -> str:
    """SQL true for the rows whose tree (``column``) is one of ``trees``."""
    if not trees:
        return "0 = 1"
    if len(trees) == count:
        return "1 = 1"
    return f"{column} IN ({', '.join(map(str, trees))})"


#: Up to this many tested features the walks carry each row's values, and a ``CASE`` picks
#: the node's; with more they join ``__vals`` (a row per row and feature) at every step.
#: Carrying one feature's value instead of joining halved DuckDB's time on a deep chain.
_CARRY = 16


def _reading(used: list[int]) -> tuple[str, str, list[str]]:
    """How a walk step reads its node's feature: expression, join, carried columns."""
    if len(used) > _CARRY:
        return "x.__v", " JOIN __vals AS x ON x.__i = w.__i AND x.__f = d.f", []
    carried = [f"__r{f}" for f in used]
    if len(used) <= 1:  # no feature: no split, so no step ever reads one
        return (f"w.{carried[0]}" if carried else "0e0"), "", carried
    arms = " ".join(f"WHEN {f} THEN w.__r{f}" for f in used)
    return f"(CASE d.f {arms} END)", "", carried


def _walk_ctes(q: _Query, plans: list[TreePlan], used: list[int], k: int) -> None:
    """The walks over the node table: CART's path where needed, then the blend.

    A tree the library blends with its per-row walk (more than `blend_kernel_limit`
    leaves) is walked once, from the root: a row follows CART's path (every weight on it
    exactly 1, every other 0) until it meets a zone, and from there one row per branch
    carries its node and weight. The other trees are routed first (``__route``: CART's
    path, or the middle child in a hard-middle zone), noting ``__m`` (a zone met on the
    way: boundary-uncertain); under the dense kernel, whose factors are not exactly 0 or 1
    just outside a zone, a row that met one is then blended from the root, and every
    other row starts the blend at its leaf. ``__blend`` holds per branch the node, the
    weight ``__w`` (the factors' product, root down), ``__m`` and ``__e`` (a zone above
    held the row, for deferred routing). A branch of weight 0 is not followed, as the
    library's walk does not: its leaves would add 0 to every sum.
    """
    n = len(plans)
    walked = [t for t, p in enumerate(plans) if _walks(p)]
    routed = [t for t in range(n) if t not in walked]
    deferred = _trees_in("w.__t", [t for t, p in enumerate(plans) if p.routing == "deferred"], n)
    closed = _trees_in("w.__t", [t for t, p in enumerate(plans) if p.zone_edges != "open"], n)
    v, join, carried = _reading(used)
    pass_on = "".join(f", w.{c}" for c in carried)
    from_base = "".join(f", b.{c}" for c in carried)
    names = "".join(f", {c}" for c in carried)
    th, de = "d.th", "d.de"
    hi = f"({th} + {de})"
    zone = f"({v} > {th} - {de} AND ({v} < {hi} OR ({v} = {hi} AND {closed})))"
    hard = f"CASE WHEN {v} <= {th} THEN 1e0 ELSE 0e0 END"
    factor = (
        f"CASE WHEN d.k IN ({_HARD}, {_DENSE_HARD}) OR (w.__e = 1 AND {deferred}) THEN {hard} "
        f"WHEN d.k = {_DENSE} THEN {_clip(f'(({hi} - {v}) * ({sql_number(0.5)} / {de}))')} "
        f"WHEN {zone} THEN {_clip(f'(({hi} - {v}) / (2e0 * {de}))')} "
        f"WHEN {v} <= {th} - {de} THEN 1e0 ELSE 0e0 END"
    )
    # the first row of a step takes the left branch if its weight is not 0, else the
    # right; a second row, only where both weights are positive, takes the right
    left = f"s.b = 0 AND {factor} > 0e0"
    step = "JOIN __nodes AS d ON d.t = w.__t AND d.n = w.__n" + join
    start = "FROM __base AS b CROSS JOIN __trees AS tr WHERE b.__ok = 1 AND "
    q.ctes.append(
        (
            f"__route(__i, __t, __n, __m{names})",
            f"(\n  SELECT b.__i, tr.t, tr.root, 0{from_base} {start}"
            f"{_trees_in('tr.t', routed, n)}"
            "\n  UNION ALL\n  SELECT w.__i, w.__t, "
            f"CASE WHEN d.k = {_MIDDLE} AND {zone} THEN d.m WHEN {v} <= {th} THEN d.l "
            "ELSE d.r END, "
            f"CASE WHEN w.__m = 1 OR (d.k >= {_WALK} AND {zone}) THEN 1 ELSE 0 END{pass_on}"
            f"\n  FROM __route AS w {step}\n)",
        )
    )
    q.ctes.append(
        (
            f"__blend(__i, __t, __n, __w, __m, __e{names})",
            f"(\n  SELECT b.__i, tr.t, tr.root, 1e0, 0, 0{from_base} {start}"
            f"{_trees_in('tr.t', walked, n)}"
            "\n  UNION ALL\n  SELECT w.__i, w.__t, CASE WHEN w.__m = 1 THEN 0 ELSE w.__n END, "
            f"1e0, w.__m, 0{pass_on}\n  FROM __route AS w WHERE w.__n < 0"
            "\n  UNION ALL\n"
            f"  SELECT w.__i, w.__t, CASE WHEN {left} THEN d.l ELSE d.r END, "
            f"CASE WHEN s.b = 1 THEN w.__w * (1e0 - ({factor})) WHEN {factor} > 0e0 "
            f"THEN w.__w * ({factor}) ELSE w.__w END, "
            f"CASE WHEN w.__m = 1 OR (d.k >= {_WALK} AND {zone}) THEN 1 ELSE 0 END, "
            f"CASE WHEN w.__e = 1 OR {zone} THEN 1 ELSE 0 END{pass_on}"
            f"\n  FROM __blend AS w {step} CROSS JOIN __sides AS s"
            f"\n  WHERE w.__w > 0e0 AND (s.b = 0 OR ({factor} > 0e0 AND {factor} < 1e0))\n)",
        )
    )
    # the leaves' terms w·v, numbered in preorder for the fold
    terms = ", ".join(f"w.__w * l.v{j} AS a{j}" for j in range(k))
    q.ctes.append(
        (
            "__terms",
            "MATERIALIZED (\n  SELECT w.__i, w.__t, w.__m, l.u, "
            "ROW_NUMBER() OVER (PARTITION BY w.__i, w.__t ORDER BY w.__n DESC) AS __j, "
            f"COUNT(*) OVER (PARTITION BY w.__i, w.__t) AS __c, {terms}\n"
            # CROSS JOIN: SQLite reads the branches once and looks up their leaves, not
            # the other way round (which indexes every branch row first)
            "  FROM __blend AS w CROSS JOIN __leaves AS l"
            " WHERE w.__n < 0 AND l.t = w.__t AND l.n = w.__n AND w.__w > 0e0\n)",
        )
    )
    _fold(q, "__sums", "__terms", ["__i", "__t"], ["__m", "u"], [f"a{j}" for j in range(k)])


def _walks(plan: TreePlan) -> bool:
    """A binary-routing tree the library blends with its per-row walk: walked in one pass."""
    return plan.routing != "hard_middle" and not plan.dense


def _fold(q: _Query, name: str, source: str, keys: list[str], kept: list[str], cols: list[str]):
    """A recursive CTE adding ``cols`` of ``source`` in ``__j`` order, one term per step.

    Only groups of more than one term are folded (``__c > 1``); a lone term is its sum.

    SQL's ``SUM`` adds in an order of the engine's choosing (and SQLite 3.43 and later
    compensates rounding), so the sums are written out as the library's kernels add them:
    ``((t1 + t2) + t3) + …``. The row with ``__j = __c`` holds the totals, and the
    ``kept`` columns of the first term.
    """
    on = " AND ".join(f"p.{c} = f.{c}" for c in keys)
    start = ", ".join(keys + kept + ["__j", "__c"] + cols)
    step = ", ".join(
        [f"f.{c}" for c in keys + kept] + ["p.__j", "f.__c"] + [f"f.{c} + p.{c}" for c in cols]
    )
    q.ctes.append(
        (
            f"{name}({start})",
            f"(\n  SELECT {start} FROM {source} WHERE __j = 1 AND __c > 1\n  UNION ALL\n"
            f"  SELECT {step}"
            f"\n  FROM {name} AS f JOIN {source} AS p ON {on} AND p.__j = f.__j + 1"
            "\n  WHERE f.__j < f.__c\n)",
        )
    )


def _tree_ctes(q: _Query, clf, plans: list[TreePlan], k: int) -> None:
    """Each tree's probabilities and verdict, then the forest's mean and vote, in tree order.

    A blended pair (``__m``) takes its sums over their total (classes in order, as the
    library's normalisation adds them); a decided one its leaf's distribution as stored
    (its one term is 1·v). A row is boundary-uncertain in a tree when it met a zone on
    CART's path or, routed ``"hard_middle"``, ended in a leaf reached through a middle
    branch. The forest adds its trees' probabilities in tree order (`_fold` again) and
    divides by their count.
    """
    total = " + ".join(f"s.a{j}" for j in range(k))
    cols = ", ".join(["__i", "__t", "__m", "u"] + [f"a{j}" for j in range(k)])
    sums = (
        f"(SELECT {cols} FROM __terms WHERE __c = 1"
        f" UNION ALL SELECT {cols} FROM __sums WHERE __j = __c) AS s"
    )
    proba = ", ".join(
        f"CASE WHEN s.__m = 1 THEN s.a{j} / ({total}) ELSE s.a{j} END AS p{j}" for j in range(k)
    )
    q.ctes.append(
        (
            "__tree_out",
            f"MATERIALIZED (\n  SELECT s.__i, s.__t + 1 AS __j, {len(plans)} AS __c, "
            f"{proba}, CASE WHEN s.__m = 1 OR s.u = 1 THEN 0 ELSE 1 END AS votes\n"
            f"  FROM {sums}\n)",
        )
    )
    n = len(plans)
    forest = "__tree_out AS f"  # one tree: its own answers
    if n > 1:
        _fold(q, "__forest", "__tree_out", ["__i"], [], [f"p{j}" for j in range(k)] + ["votes"])
        forest = "(SELECT * FROM __forest WHERE __j = __c) AS f"
    mean = ", ".join(
        (f"f.p{j}" if n == 1 else f"f.p{j} / {sql_number(n)}") + f" AS __F{j}" for j in range(k)
    )
    need = forest_min_decided(clf) if n > 1 else 1
    q.ctes.append(
        (
            "__scored",
            f"MATERIALIZED (\n  SELECT f.__i, {mean}, "
            f"CASE WHEN f.votes >= {need} THEN 1 ELSE 0 END AS __V\n"
            f"  FROM {forest}\n)",
        )
    )


def export_sql(
    clf,
    *,
    table: str,
    key: str | None = None,
    columns: Sequence[str] | None = None,
) -> str:
    """A fitted tree or forest as one SQL query scoring every row of ``table``.

    The query returns, per row of ``table``, the ``key`` column (if given), ``prediction``
    (the class label), ``verdict`` (1 decided, 0 boundary-uncertain) and
    ``proba_0 … proba_{k−1}`` in the order of ``classes_``: the values of ``predict``,
    ``predict_verdict`` and ``predict_proba``, for every routing, grafted trees and
    `TernaryForestClassifier` included. It runs unchanged on SQLite (3.35 or newer, for
    ``MATERIALIZED``) and DuckDB; it uses ``WITH RECURSIVE``, ``VALUES``, joins,
    ``ROW_NUMBER`` and ``COUNT`` windows, ``CASE``, arithmetic, comparisons and ``abs``. Its
    length grows with the model's node count, whatever the trees' shape.

    How it stays exact: the library compares and blends the float32 value of each input;
    the query turns every comparison into one on the stored double against an exact
    boundary, and recomputes the float32 value exactly where a blend weight needs it
    (module docstring of ``ternary._export_sql``). Rows with NULL, NaN, ±inf or values too
    large for float32 in a tested feature (which the library would refuse) get NULL in every
    output column but the key. A column may hold numbers or text (a TEXT table made by the
    sqlite3 shell's ``.import --csv``, DuckDB's VARCHAR): text that is a decimal number
    scores as that number, any other text (``''``, ``'abc'``) as NULL.

    Parameters
    ----------
    clf : TernaryTreeClassifier or TernaryForestClassifier
        A fitted tree or forest.
    table : str
        The table (or view) to score. Each dot-separated part is quoted, so
        ``"main.rows"`` is schema ``main``, table ``rows``.
    key : str, optional
        A column copied to the output first (a row id), under its own name.
    columns : sequence of str, optional
        The column holding each feature, in the model's feature order; default the names
        the model was fitted with (``feature_names_in_``), else ``x0, x1, …``.

    Returns
    -------
    str
        One ``SELECT`` statement (a ``WITH RECURSIVE`` chain: the inputs read, the trees
        as tables, their walks and sums), ending in ``;``. Rows come in the table's order.

    Raises
    ------
    ValueError
        When the model is too large for one query: more than `MAX_SQL_NODES` nodes in all,
        or a ``SELECT`` that would need more than `MAX_SQL_COLUMNS` columns (two per feature
        the model tests); when ``key`` clashes with an output column; or when a class
        label cannot be written exactly (dates, integers beyond 64 bits: refit with string
        labels).

    Examples
    --------
    >>> import sqlite3
    >>> from sklearn.datasets import make_moons
    >>> from ternary import TernaryTreeClassifier, export_sql
    >>> X, y = make_moons(200, noise=0.3, random_state=0)
    >>> clf = TernaryTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    >>> con = sqlite3.connect(":memory:")
    >>> _ = con.execute("CREATE TABLE pts (id INTEGER, x0 REAL, x1 REAL)")
    >>> _ = con.executemany("INSERT INTO pts VALUES (?, ?, ?)", [(0, 0.5, 0.25)])
    >>> con.execute(export_sql(clf, table="pts", key="id")).fetchone()[:3]
    (0, 1, 1)
    """
    trees = members(clf)
    names = feature_names(clf, columns)
    outputs = ["prediction", "verdict"] + [f"proba_{k}" for k in range(len(clf.classes_))]
    if key is not None and str(key) in outputs:
        raise ValueError(
            f"key={key!r} clashes with an output column ({', '.join(outputs[:3])}, …); "
            "alias the key column in a view first."
        )
    check_export_size(trees, "export_sql")
    for label in np.asarray(clf.classes_):
        export_label(label, "export_sql")
    query, final = _build(clf, trees, names, key)
    return query.render(_table_ref(table), final)


def _base_ctes(q: _Query, plans: list[TreePlan], used: list[int], key: str | None, k: int):
    """``__base`` (row number, key, each tested feature's float32 value ``__r{f}``,
    ``__ok``), ``__vals`` (the same values, one row per row and feature, where the walks
    do not carry them) and the constant tables the walks join."""
    limit = sql_number(F32_OVERFLOW)
    ok = " AND ".join(f"abs({q.x(f)}) < {limit}" for f in used) or "1 = 1"
    base = ["ROW_NUMBER() OVER () AS __i"] + (["__key"] if key is not None else [])
    base += [f"{_rounded(q.x(f))} AS __r{f}" for f in used]
    base.append(f"CASE WHEN {ok} THEN 1 ELSE 0 END AS __ok")
    last = f"__s{len(q.stages) - 1}"
    q.ctes.append(("__base", f"MATERIALIZED (\n  SELECT {', '.join(base)}\n  FROM {last}\n)"))
    if len(used) > _CARRY:  # too many for the walks to carry (`_reading`)
        # SQLite allows 500 terms in a compound SELECT: chunks of 400, then their union
        chunks = [used[i : i + 400] for i in range(0, len(used), 400)]
        for c, chunk in enumerate(chunks):
            parts = [f"SELECT __i, {f} AS __f, __r{f} AS __v FROM __base" for f in chunk]
            q.ctes.append((f"__vals{c}", "(\n  " + "\n  UNION ALL ".join(parts) + "\n)"))
        union = "\n  UNION ALL ".join(f"SELECT * FROM __vals{c}" for c in range(len(chunks)))
        q.ctes.append(("__vals", f"MATERIALIZED (\n  {union}\n)"))
    columns = [np.searchsorted(np.asarray(q.classes), p.classes) for p in plans]
    nodes, leaves = _tables(plans, columns, k)
    trees = ", ".join(f"({t}, {0 if p.preorder[1:] else -1})" for t, p in enumerate(plans))
    q.ctes.append(("__trees(t, root)", f"(VALUES {trees})"))
    q.ctes.append(("__sides(b)", "(VALUES (0), (1))"))
    q.ctes.append(("__nodes(t, n, f, th, de, l, r, m, k)", f"MATERIALIZED (VALUES\n  {nodes}\n)"))
    values = ", ".join(f"v{j}" for j in range(k))
    q.ctes.append((f"__leaves(t, n, u, {values})", f"MATERIALIZED (VALUES\n  {leaves}\n)"))


def _check_columns(n: int) -> None:
    if n > MAX_SQL_COLUMNS:
        raise ValueError(
            f"The SQL export would need {n} columns in one SELECT; SQLite allows 2,000 by "
            f"default and this exporter writes at most {MAX_SQL_COLUMNS}. The query keeps one "
            "column per feature the model tests: export a model that tests fewer features "
            "(select features first, or a lower max_depth)."
        )


def _build(clf, trees, names, key) -> tuple[_Query, str]:
    """The read stages, the tables and walks, the sums, then the output ``SELECT``."""
    classes = np.asarray(clf.classes_)
    k = classes.size
    plans = [tree_plan(t) for t in trees]
    q = _Query(names)
    q.classes = classes
    used = sorted({p.feature[n] for p in plans for n in p.preorder if not p.is_leaf(n)})
    _check_columns(max(2 * len(used), k) + 3)  # the first read stage; the output
    _read_stages(q, key, used)
    _base_ctes(q, plans, used, key, k)
    _walk_ctes(q, plans, used, k)
    _tree_ctes(q, clf, plans, k)
    return q, _final(key, classes)


def _final(key, classes) -> str:
    """The output ``SELECT``; numpy's argmax keeps the first of equal probabilities."""
    k = classes.size
    arms = []
    for i in range(k - 1):
        wins = " AND ".join(f"s.__F{i} >= s.__F{j}" for j in range(i + 1, k))
        arms.append(f"WHEN {wins} THEN {_label(classes[i])}")
    predicted = (
        f"CASE {' '.join(arms)} ELSE {_label(classes[-1])} END" if arms else _label(classes[0])
    )
    cols = [f"b.__key AS {quote(key)}"] if key is not None else []
    cols.append(f"CASE WHEN b.__ok = 1 THEN {predicted} END AS prediction")
    cols.append("CASE WHEN b.__ok = 1 THEN s.__V END AS verdict")
    cols += [f"CASE WHEN b.__ok = 1 THEN s.__F{i} END AS proba_{i}" for i in range(k)]
    return (
        "SELECT\n  " + ",\n  ".join(cols) + "\nFROM __base AS b LEFT JOIN __scored AS s"
        " ON s.__i = b.__i\nORDER BY b.__i"
    )
