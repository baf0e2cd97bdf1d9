"""Parse a skops ``schema.json`` within bounds on what the parse, and skops after it, take.

A schema's bytes alone do not bound its cost: ``[{},{},…]`` is three bytes per dict and
each parsed dict takes about 64 bytes (240 with a key), so a 24 MiB schema, deflated to
25 KB, parses to 700 MB. skops then parses it again, parses the text of every
``JsonNode`` once more (``json.loads`` of its ``content``: a third copy, where ``\\u007b``
in the outer text is a ``{`` in the inner), builds a node object per schema node (about
70 µs each), and reads an array member once for every node that names it (so one member
named by many nodes is read many times). Before skops sees the file, `schema_problem`:

* estimates the memory of each parse from the text's structural characters, 256 bytes per
  ``{`` and 96 per ``[``, ``,`` and ``:`` (an upper bound: a parsed value costs less, and
  characters inside strings are counted too), for the schema itself and for every
  ``JsonNode``'s text, and refuses a sum above the caller's bound;
* counts the nodes (objects with a ``__loader__``) against ``max_nodes``;
* sums the bytes of the array members the nodes read, each time one is read, against the
  caller's bound on what the archive unpacks to;
* and names the first node whose type or loader is not among the trusted ones.

For scale, the app's largest forest (100 trees of depth 12) has a 2.6 MB schema of 9,765
nodes, estimated at 12 MB (its parse takes 6 MB).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["parse_estimate", "schema_problem"]

_OBJECT_BYTES = 256
_ITEM_BYTES = 96


def parse_estimate(text: str) -> int:
    """An upper bound, in bytes, on what ``json.loads(text)`` builds."""
    items = text.count("[") + text.count(",") + text.count(":")
    return _OBJECT_BYTES * text.count("{") + _ITEM_BYTES * items


def schema_problem(
    schema: Any,
    *,
    trusted: Mapping[str, tuple[str, ...]],
    member_sizes: Mapping[str, int],
    parse_left: int,
    max_nodes: int,
    read_bound: int,
) -> tuple[str, bool] | None:
    """What in the parsed ``schema`` passes a bound or is not trusted, or None.

    Parameters
    ----------
    schema : object
        The parsed ``schema.json``.
    trusted : mapping
        ``"module.Class"`` to the skops loaders that may build it.
    member_sizes : mapping
        The archive's members and their (unpacked) sizes.
    parse_left : int
        What the ``JsonNode`` texts' parses may take together (`parse_estimate`).
    max_nodes : int
        The most nodes the schema may hold.
    read_bound : int
        The most bytes the nodes may read from array members, a member counted each
        time a node reads it.

    Returns
    -------
    (str, bool) or None
        The first problem met, worded to follow "the file ...", and True when it is an
        untrusted type (the text is then ``"module.Class (built by skops' Loader)"``);
        None when there is none.
    """
    nodes = reads = 0
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "__loader__" in node:
                kind = f"{node.get('__module__')}.{node.get('__class__')}"
                loader = node.get("__loader__")
                if loader not in trusted.get(kind, ()):
                    return f"{kind} (built by skops' {loader})", True
                nodes += 1
                if nodes > max_nodes:
                    return (
                        f"describes more than {max_nodes:,} objects, the most it may (skops "
                        f"builds each; a forest takes about 100 a tree)",
                        False,
                    )
                content = node.get("content")
                if loader == "JsonNode" and isinstance(content, str):
                    parse_left -= parse_estimate(content)
                    if parse_left < 0:
                        return (
                            "holds values whose text would take more memory to read than "
                            "the file may take",
                            False,
                        )
                if loader == "NdArrayNode" and isinstance(node.get("file"), str):
                    reads += member_sizes.get(node["file"], 0)
                    if reads > read_bound:
                        return (
                            f"has its arrays read to more than the {read_bound:,} bytes the "
                            "file may unpack to (nodes naming the same member again and again)",
                            False,
                        )
            stack.extend(reversed(list(node.values())))
        elif isinstance(node, list):
            stack.extend(reversed(node))
    return None
