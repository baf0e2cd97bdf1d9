"""`page_guard`: problems shown as readable messages instead of tracebacks."""

from __future__ import annotations

import re
import traceback
from contextlib import contextmanager

import streamlit as st

from ternary.data import DataError

__all__ = ["capped", "clicked_customdata", "inert_table", "page_guard", "plain", "python_text"]

# every ASCII punctuation mark markdown or HTML could read as syntax
_MARKDOWN_SPECIALS = frozenset("\\`*_{}[]()<>#+-.!|~$:&\"'=/")
# GFM makes links of URLs, www. names and e-mail addresses in text after the escapes are
# resolved (remark-gfm's autolink literals: in Chromium, a backslash before each mark left
# all three live), so an invisible WORD JOINER goes where each pattern needs its next mark
_AUTOLINK = re.compile(r"(?i)(?<=:)(?=//)|(?<=www)(?=\.)|(?<=@)|(?<=mailto:)|(?<=xmpp:)")
_WORD_JOINER = "\u2060"
# a text that is one number as a table shows it: nothing in it markdown could read as syntax
_NUMBER_TEXT = re.compile(r"[+\-−]?\d[\d,]*(\.\d+)?([eE][+\-]?\d+)?( ?%)?")


#: the longest run of characters without a space echoed (as the loaders quote user text)
WORD_LIMIT = 200
#: the longest text echoed at all
TEXT_LIMIT = 2_000
# a run over the word limit: one character class, so the search is linear
_LONG_WORD = re.compile(rf"\S{{{WORD_LIMIT + 1},}}")


def capped(text: object) -> str:
    """``str(text)`` with every run of non-space characters over ``WORD_LIMIT`` and the
    whole over ``TEXT_LIMIT`` cut, an ellipsis marking each cut.

    A value from a link or a file can be any length: 100 KB in a toast froze the
    visitor's tab for 93 s. The loaders quote user text at most 200 characters
    long; this holds the app's own echoes (toasts, warnings, captions) to the same.
    """
    s = str(text)
    if len(s) > WORD_LIMIT:
        s = _LONG_WORD.sub(lambda m: m.group()[: WORD_LIMIT - 1] + "…", s)
    return s if len(s) <= TEXT_LIMIT else s[: TEXT_LIMIT - 1] + "…"


def plain(text: object) -> str:
    """``text`` capped (see `capped`) and escaped so that Streamlit's markdown shows it
    as the characters it is.

    Names, labels and messages that come from a file or a person must never
    become a link, an image or HTML on the page; a backslash before each
    punctuation mark keeps every one of them literal (CommonMark allows the
    escape before any ASCII punctuation), and an invisible word joiner (U+2060)
    after the ``:`` of ``://``, after ``www`` and ``@`` keeps a URL, a www. name or an
    e-mail address from becoming a link (GFM's autolinks ignore the backslashes).
    """
    text = _AUTOLINK.sub(_WORD_JOINER, capped(text))
    return "".join("\\" + ch if ch in _MARKDOWN_SPECIALS else ch for ch in text)


def inert_table(table):
    """A copy of ``table`` for ``st.table``, which renders its cells, headers and index as
    markdown: every text among them goes through `plain`, so a name from a file shows as
    its characters and never as a link, an image or HTML. Numbers, and texts that are
    one number written out ("0.833", "-1.5e-05", "12.5 %"), are kept as they are.
    """

    def cell(value):
        if not isinstance(value, str) or _NUMBER_TEXT.fullmatch(value):
            return value
        return plain(value)

    out = table.map(cell)
    out.columns = [cell(c) for c in table.columns]
    out.index = [cell(i) for i in table.index]
    out.index.name = cell(table.index.name)
    return out


def python_text(text: object) -> str:
    """``str(text)`` as the inside of a double-quoted Python string literal.

    For code the app shows with a name in it (``load_model("{file}")``): the name comes
    from an upload, and a ``"`` or a line break in it must not end the string and become
    code. ``repr`` escapes backslashes, line breaks and unprintable characters; a quote is
    then escaped for the double quotes around it.

    >>> print(python_text('x".skops"); __import__("os")#'))
    x\\".skops\\"); __import__(\\"os\\")#
    """
    body = repr(str(text))
    if body[0] == '"':  # repr chose double quotes: the inside is escaped for them already
        return body[1:-1]
    # single quotes: in the inside every ' is written \' and no " is escaped
    return body[1:-1].replace("\\'", "'").replace('"', '\\"')


def clicked_customdata(event) -> list:
    """The ``customdata`` of the points a plotly selection event holds, last clicked first.

    ``st.plotly_chart(on_select=...)`` hands back a nested mapping whose shape
    depends on the Streamlit version and on what was clicked (nothing, a box, a
    point without data); anything that is not there reads as no points.
    """
    try:
        points = event["selection"]["points"]
    except (KeyError, TypeError):
        return []
    return [point.get("customdata") for point in reversed(list(points or ()))]


@contextmanager
def page_guard(what: str = "drawing this page"):
    """Show problems as a readable message instead of a traceback.

    A `DataError` (a problem with the data) is shown as its own message. Any
    other exception becomes a short apology plus an expander with the details
    for a bug report. Streamlit's own control flow (st.stop, st.rerun) derives
    from BaseException and passes through.
    """
    try:
        yield
    except DataError as exc:
        st.error(plain(exc), icon="⚠️")
    except Exception as exc:  # noqa: BLE001 - the point is to catch everything
        st.error(
            f"Something went wrong while {what}: {plain(exc)}\n\nTry other settings or "
            "another dataset; the details below help if you report it.",
            icon="⚠️",
        )
        with st.expander("Details"):
            st.code(traceback.format_exc(), language="text")
