"""`export_sql`: a fitted ternary tree or forest as one SQL ``SELECT``.

The query reproduces the library's predict, predict_verdict and predict_proba on every row of
a table, with no Python at scoring time. How each part is written:

* **Comparisons.** The library compares ``float64(float32(x))`` with float64 thresholds and
  zone edges. A database holds the double ``x``; rounding to float32 is monotone, so every
  test ``float32(x) ≤ t`` is written as ``x <= b`` or ``x < b`` with an exact double ``b``
  (`ternary.codegen.f32_le`), and agrees with the library on every double, thresholds,
  zone edges and their neighbours included. An open zone's upper test ``float32(x) < θ+δ``
  is ``float32(x) ≤ b`` with ``b`` the double below θ+δ (`ternary.codegen.TreePlan.top`).
* **Blend weights.** Inside a zone the weight ``(θ+δ−x)/(2δ)`` uses the float32 value of
  ``x``. The query computes it exactly in double arithmetic: Veltkamp's split
  ``c − (c − x)`` with ``c = x·(2**29+1)`` rounds a double to 24 significant bits, ties to
  even, as float32 does; below float32's normal range it rounds to a multiple of 2**-149
  instead (``(x·2**149 + 1.5·2**52) − 1.5·2**52``). Then the weights, their products along
  each path (root down), the sum over the leaves (in preorder) and the normalisation follow
  the library's own kernels operation by operation, so the probabilities agree to the last
  bit in practice (tests hold them within 1e-6) and ties between classes break the same way.
* **Size and shape.** The query is a chain of common table expressions (``WITH``), not
  nested sub-selects or nested ``CASE`` s: SQLite's parser overflows at a nesting depth of
  about 20. First one stage per tree level moves every row one level down (a flat ``CASE`` on
  the node it has reached); then one stage per level computes the blend weights, each node's
  weight its parent's times one factor (a leaf's weight is the product along its path), and
  only for rows that met a zone. So the text grows linearly with the number of nodes, never
  with copies of subtrees. Each stage is ``MATERIALIZED``: otherwise SQLite's flattener
  copies a parent's expression into both children and the work doubles at every level.
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
* **Forests** average their trees' probabilities in tree order and decide a row when at
  least ``min_decided_fraction`` of the trees decide it, as `TernaryForestClassifier` does.
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
    f32_le,
    feature_names,
    forest_min_decided,
    members,
    sql_number,
    tree_plan,
)

__all__ = ["MAX_SQL_COLUMNS", "MAX_SQL_NODES", "export_sql"]

#: The most columns one ``SELECT`` of the query may carry. SQLite's default limit is 2,000
#: per result set; the blend keeps one column per leaf seen so far plus a few per node of
#: the current level, so this bounds the leaves of a tree (or all of a forest's trees).
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
    """Builds the nested SELECTs, innermost first."""

    def __init__(self, names: list[str]):
        self.names = names
        self.stages: list[list[tuple[str, str]]] = []  # each: [(expression, alias), ...]

    def x(self, feature: int) -> str:
        return f"__x{feature}"

    def le(self, feature: int, t: float) -> str:
        """``float32(x) ≤ t`` on the raw double."""
        b, inclusive = f32_le(t)
        return f"{self.x(feature)} {'<=' if inclusive else '<'} {sql_number(b)}"

    def gt(self, feature: int, t: float) -> str:
        b, inclusive = f32_le(t)
        return f"{self.x(feature)} {'>' if inclusive else '>='} {sql_number(b)}"

    def zone(self, feature: int, lo: float, hi: float) -> str:
        return f"({self.gt(feature, lo)} AND {self.le(feature, hi)})"

    def render(self, source: str) -> str:
        """A chain of common table expressions: no nesting, which SQLite's parser caps."""
        parts = []
        for i, stage in enumerate(self.stages):
            cols = ",\n    ".join(f"{expr} AS {alias}" for expr, alias in stage)
            origin = source if i == 0 else f"__s{i - 1}"
            parts.append(f"SELECT\n    {cols}\n  FROM {origin}")
        ctes = ",\n".join(
            f"__s{i} AS MATERIALIZED (\n  {body}\n)" for i, body in enumerate(parts[:-1])
        )
        return (f"WITH\n{ctes}\n" if ctes else "") + parts[-1].replace("\n  ", "\n") + ";\n"


def _clip(expr: str) -> str:
    return f"CASE WHEN {expr} < 0e0 THEN 0e0 WHEN {expr} > 1e0 THEN 1e0 ELSE {expr} END"


def _rounded(col: str) -> str:
    """The float32 value of a double column, exactly (see the module docstring)."""
    up = f"*{2**62}*{2**62}*{2**25}"
    down = f"/{2**62}/{2**62}/{2**25}"
    tiny = f"(({col}{up} + {_ROUND}) - {_ROUND}){down}"
    big = f"({col}*{_VELTKAMP} - ({col}*{_VELTKAMP} - {col}))"
    return f"CASE WHEN abs({col}) < {sql_number(F32_SUBNORMAL)} THEN {tiny} ELSE {big} END"


def _step(q: _Query, plan: TreePlan, node: int) -> str:
    """The child a row at ``node`` moves to; -1 where a binary routing meets a zone."""
    f = plan.feature[node]
    left, right = plan.left[node], plan.right[node]
    if not plan.zoned(node):
        return f"CASE WHEN {q.le(f, plan.threshold[node])} THEN {left} ELSE {right} END"
    middle = plan.middle[node] if plan.routing == "hard_middle" else -1
    return (
        f"CASE WHEN {q.le(f, plan.lo[node])} THEN {left} "
        f"WHEN {q.le(f, plan.top(node))} THEN {middle} ELSE {right} END"
    )


def _factor(q: _Query, plan: TreePlan, node: int, entered: str | None) -> str:
    """The left weight of ``node`` as the library's blend computes it (see `TreePlan.dense`)."""
    f = plan.feature[node]
    hard = f"CASE WHEN {q.le(f, plan.threshold[node])} THEN 1e0 ELSE 0e0 END"
    r = f"__r{f}"
    hi = sql_number(plan.hi[node])
    if plan.dense:
        if not plan.soft(node):
            return hard
        soft = _clip(f"(({hi} - {r})*{sql_number(plan.inv_two_delta[node])})")
    else:
        if not plan.delta[node] > 0.0:
            return hard
        ramp = _clip(f"(({hi} - {r})/{sql_number(2.0 * plan.delta[node])})")
        soft = (
            f"CASE WHEN {q.zone(f, plan.lo[node], plan.top(node))} THEN {ramp} "
            f"WHEN {q.le(f, plan.lo[node])} THEN 1e0 ELSE 0e0 END"
        )
    if entered is None:
        return soft
    return f"CASE WHEN {entered} = 1 THEN {hard} ELSE {soft} END"


def _level_stages(q: _Query, plans: list[TreePlan], carry: list[str]) -> None:
    """Stages per tree level: first every row steps down, then the blend's weights.

    ``__n{t}`` is the node a row has reached in tree ``t`` (the leaf at the end; -1 once a
    binary routing meets a zone on CART's path). The routing goes first, so the blend's
    factors are computed only for the rows that end at -1 (the others get 0 and take their
    leaf's distribution). A blend stage carries the weights ``__w{t}_{leaf}`` of the leaves
    found so far and, for the nodes of its own level, the weight ``__w``, the left factor
    ``__f`` and (deferred) the zone test ``__z`` and the "entered a zone above" flag
    ``__e``; the level below reads those and drops them.
    """
    levels = max(max(p.depth[n] for n in p.preorder) for p in plans)
    positions = [f"__n{t}" for t in range(len(plans))]
    for level in range(levels):
        stage = [(c, c) for c in carry if c not in positions]
        for t, plan in enumerate(plans):
            steps = [
                f"WHEN {n} THEN {_step(q, plan, n)}"
                for n in plan.preorder
                if plan.depth[n] == level and not plan.is_leaf(n)
            ]
            position = f"CASE __n{t} {' '.join(steps)} ELSE __n{t} END" if steps else f"__n{t}"
            stage.append((position, f"__n{t}"))
        q.stages.append(stage)
    if not any(needs_blend(p) for p in plans):
        return
    parents = [_parents(p) for p in plans]
    leaf_cols: list[str] = []
    for level in range(levels + 1):
        stage = [(c, c) for c in carry + leaf_cols]
        for t, plan in enumerate(plans):
            if not needs_blend(plan):
                continue
            deferred = plan.routing == "deferred"
            for node in plan.preorder:
                if plan.depth[node] == level:
                    stage += _node_columns(q, plan, t, node, parents[t].get(node), deferred)
                    if plan.is_leaf(node):
                        leaf_cols.append(f"__w{t}_{node}")
        _check_columns(len(stage))
        q.stages.append(stage)


def _node_columns(q, plan, t, node, parent, deferred) -> list[tuple[str, str]]:
    """The columns one node adds in its level's stage."""
    cols = []
    entered = None  # "a zone above this node held the row" (deferred), from the parent
    if parent is not None:
        f = f"__f{t}_{parent}"
        factor = f if node == plan.left[parent] else f"(1e0 - {f})"
        cols.append((factor if parent == 0 else f"__w{t}_{parent} * {factor}", f"__w{t}_{node}"))
        if deferred:
            entered = (
                f"__z{t}_{parent}"
                if parent == 0
                else f"CASE WHEN __e{t}_{parent} = 1 OR __z{t}_{parent} = 1 THEN 1 ELSE 0 END"
            )
    if plan.is_leaf(node):
        return cols
    # rows the routing decided are never blended: skip their arithmetic
    factor = _factor(q, plan, node, entered)
    cols.append((f"CASE WHEN __n{t} = -1 THEN {factor} ELSE 0e0 END", f"__f{t}_{node}"))
    if deferred:
        if entered is not None:
            cols.append((entered, f"__e{t}_{node}"))
        zone = q.zone(plan.feature[node], plan.lo[node], plan.top(node))
        zone = zone if plan.delta[node] > 0.0 else "0 = 1"
        cols.append((f"CASE WHEN {zone} THEN 1 ELSE 0 END", f"__z{t}_{node}"))
    return cols


def needs_blend(plan: TreePlan) -> bool:
    """A binary-routing tree with at least one zone: some rows are blended."""
    return plan.routing != "hard_middle" and any(plan.zoned(n) for n in plan.preorder)


def _parents(plan: TreePlan) -> dict[int, int]:
    parent = {}
    for node in plan.preorder:
        for child in plan.children(node):
            parent[child] = node
    return parent


def _check_columns(n: int) -> None:
    if n > MAX_SQL_COLUMNS:
        raise ValueError(
            f"The SQL export would need {n} columns in one SELECT; SQLite allows 2,000 by "
            f"default and this exporter writes at most {MAX_SQL_COLUMNS}. The blend keeps one "
            "column per leaf: export a smaller model (a lower max_depth, fewer trees, or a "
            "larger min_samples_leaf)."
        )


def _sum_stages(q: _Query, plans: list[TreePlan], carry: list[str]) -> None:
    """Each tree's blended class sums, leaves in preorder, in chunks of `_SUM_CHUNK` terms."""
    terms: dict[str, list[str]] = {}
    for t, plan in enumerate(plans):
        if not needs_blend(plan):
            continue
        for k in range(plan.value.shape[1]):
            terms[f"__a{t}_{k}"] = [
                f"__w{t}_{leaf} * {sql_number(plan.value[leaf, k])}"
                for leaf in plan.leaves()
                if plan.value[leaf, k] != 0.0
            ]
    longest = max((len(v) for v in terms.values()), default=0)
    for start in range(0, longest or 1, _SUM_CHUNK):
        # the leaf weights later chunks still read
        later = {term.split(" * ")[0] for v in terms.values() for term in v[start + _SUM_CHUNK :]}
        stage = [(c, c) for c in carry] + [(c, c) for c in sorted(later)]
        for alias, parts in terms.items():
            chunk = ([alias] if start > 0 else []) + parts[start : start + _SUM_CHUNK]
            stage.append((" + ".join(chunk) if chunk else "0e0", alias))
        _check_columns(len(stage))
        q.stages.append(stage)


def _tree_outputs(q: _Query, plan: TreePlan, t: int, columns: np.ndarray) -> list[tuple]:
    """Columns ``__p{t}_{k}`` (forest class order) and ``__v{t}`` of one tree."""
    leaf = f"__n{t}"
    out = []
    leaves = plan.leaves()
    k_tree = plan.value.shape[1]
    for k in range(k_tree):
        arms = " ".join(f"WHEN {n} THEN {sql_number(plan.value[n, k])}" for n in leaves)
        if not needs_blend(plan):
            expr = f"CASE {leaf} {arms} END"
        else:
            total = " + ".join(f"__a{t}_{j}" for j in range(k_tree))
            expr = f"CASE {leaf} {arms} ELSE __a{t}_{k} / ({total}) END"
        out.append((expr, f"__p{t}_{int(columns[k])}"))
    if plan.routing == "hard_middle":
        flagged = sorted(n for n in plan.through_middle() if plan.is_leaf(n))
        verdict = (
            f"CASE WHEN {leaf} IN ({', '.join(map(str, flagged))}) THEN 0 ELSE 1 END"
            if flagged
            else "1"
        )
    else:
        verdict = f"CASE WHEN {leaf} >= 0 THEN 1 ELSE 0 END"
    out.append((verdict, f"__v{t}"))
    return out


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
    ``MATERIALIZED``) and DuckDB; it uses only ``WITH``, ``CASE``, arithmetic, comparisons
    and ``abs``.

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
        One ``SELECT`` statement (a ``WITH`` chain of sub-selects, about two per tree level),
        ending in ``;``.

    Raises
    ------
    ValueError
        When the model is too large for one query: more than `MAX_SQL_NODES` nodes in all,
        or a ``SELECT`` that would need more than `MAX_SQL_COLUMNS` columns (the blend keeps
        one column per leaf); when ``key`` clashes with an output column; or when a class
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
    query = _build(clf, trees, names, key)
    return query.render(_table_ref(table))


def _build(clf, trees, names, key) -> _Query:
    """The stages: base columns, one per tree level, the blend sums, trees, forest, output."""
    classes = np.asarray(clf.classes_)
    plans = [tree_plan(t) for t in trees]
    q = _Query(names)
    used = sorted({p.feature[n] for p in plans for n in p.preorder if not p.is_leaf(n)})
    blended = sorted(
        {
            p.feature[n]
            for p in plans
            for n in p.preorder
            if needs_blend(p) and not p.is_leaf(n) and p.delta[n] > 0.0
        }
    )
    _read_stages(q, key, used)
    limit = sql_number(F32_OVERFLOW)
    ok = " AND ".join(f"abs({q.x(f)}) < {limit}" for f in used) or "1 = 1"
    base = [("__key", "__key")] if key is not None else []
    base += [(q.x(f), q.x(f)) for f in used]
    base += [(_rounded(q.x(f)), f"__r{f}") for f in blended]
    base.append((f"CASE WHEN {ok} THEN 1 ELSE 0 END", "__ok"))
    base += [("0", f"__n{t}") for t in range(len(plans))]
    q.stages.append(base)
    carry = [alias for _, alias in base if not alias.startswith("__r")]
    _level_stages(q, plans, carry + [f"__r{f}" for f in blended])
    if any(needs_blend(p) for p in plans):
        _sum_stages(q, plans, carry)
    per_tree = []
    for t, (plan, member) in enumerate(zip(plans, trees, strict=True)):
        cols = np.searchsorted(classes, np.asarray(member.classes_))
        per_tree += _tree_outputs(q, plan, t, cols)
    q.stages.append([(c, c) for c in carry] + per_tree)
    _forest_stage(q, clf, trees, carry)
    q.stages.append(_final_stage(key, classes))
    return q


def _forest_stage(q, clf, trees, carry):
    """Mean probabilities ``__F{k}`` (tree order) and the verdict ``__V``."""
    classes = np.asarray(clf.classes_)
    stage = [(c, c) for c in carry if c in ("__key", "__ok")]
    n = len(trees)
    for k in range(classes.size):
        parts = [
            f"__p{t}_{k}"
            for t, member in enumerate(trees)
            if classes[k] in set(np.asarray(member.classes_).tolist())
        ]
        total = " + ".join(parts) if parts else "0e0"
        stage.append((total if n == 1 else f"({total}) / {sql_number(n)}", f"__F{k}"))
    votes = " + ".join(f"__v{t}" for t in range(n))
    if n == 1:
        stage.append(("__v0", "__V"))
    else:
        need = forest_min_decided(clf)
        stage.append((f"CASE WHEN {votes} >= {need} THEN 1 ELSE 0 END", "__V"))
    q.stages.append(stage)


def _final_stage(key, classes):
    """Output columns; numpy's argmax keeps the first of equal probabilities."""
    k = classes.size
    arms = []
    for i in range(k - 1):
        wins = " AND ".join(f"__F{i} >= __F{j}" for j in range(i + 1, k))
        arms.append(f"WHEN {wins} THEN {_label(classes[i])}")
    predicted = (
        f"CASE {' '.join(arms)} ELSE {_label(classes[-1])} END" if arms else _label(classes[0])
    )
    stage = [("__key", quote(key))] if key is not None else []
    stage.append((f"CASE WHEN __ok = 1 THEN {predicted} END", "prediction"))
    stage.append(("CASE WHEN __ok = 1 THEN __V END", "verdict"))
    stage += [(f"CASE WHEN __ok = 1 THEN __F{i} END", f"proba_{i}") for i in range(k)]
    return stage
