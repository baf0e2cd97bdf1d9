"""Sphinx maths as MathML, made at build time, so formulas read offline and without scripts.

``sphinx.ext.mathjax`` writes the TeX into the page and has the reader's browser fetch
MathJax from a CDN to typeset it: offline, a page shows raw TeX. This extension converts
every ``:math:`` role and ``.. math::`` block with latex2mathml (a pure-Python package,
in the ``docs`` extra) while the site is built, and writes MathML, which browsers draw
natively (Chromium 109+, Firefox, Safari). docs/conf.py uses it when latex2mathml is
installed and falls back to MathJax otherwise. A formula latex2mathml cannot read is a
build warning (an error under ``-W``), with the TeX shown as code meanwhile.
"""

from __future__ import annotations

import html

from docutils import nodes
from latex2mathml.converter import convert
from sphinx.util import logging
from sphinx.util.math import get_node_equation_number

logger = logging.getLogger(__name__)


def _mathml(translator, node, tex: str, display: str) -> str:
    try:
        return convert(tex, display=display)
    except Exception as exc:  # noqa: BLE001 - any failure is reported with the formula
        logger.warning("latex2mathml cannot read %r: %s", tex, exc, location=node)
        return f"<code>{html.escape(tex)}</code>"


def visit_math(translator, node: nodes.math) -> None:
    """Inline maths: one ``<math display="inline">`` inside a span."""
    translator.body.append(translator.starttag(node, "span", "", CLASS="math"))
    translator.body.append(_mathml(translator, node, node.astext(), "inline"))
    translator.body.append("</span>")
    raise nodes.SkipNode


def visit_displaymath(translator, node: nodes.math_block) -> None:
    """A maths block: one ``<math display="block">`` per equation (blank-line separated)."""
    translator.body.append(translator.starttag(node, "div", CLASS="math"))
    if node.get("number"):
        number = get_node_equation_number(translator, node)
        translator.body.append(f'<span class="eqno">({number})</span>')
    # the theme lays div.math out as a row for the equation number; this box takes the
    # row's width, so the equations stack and centre in it as MathJax's would
    translator.body.append('<div style="flex-grow: 1; overflow-x: auto">')
    for part in node.astext().split("\n\n"):
        if part.strip():
            translator.body.append(_mathml(translator, node, part, "block"))
    translator.body.append("</div></div>\n")
    raise nodes.SkipNode


def setup(app):
    app.add_html_math_renderer(
        "mathml",
        inline_renderers=(visit_math, None),
        block_renderers=(visit_displaymath, None),
    )
    return {"parallel_read_safe": True, "parallel_write_safe": True}
