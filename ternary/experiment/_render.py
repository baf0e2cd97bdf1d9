"""Tables as Markdown, LaTeX or CSV, and the critical-difference diagram, for `ternary report`."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

FORMATS = ("markdown", "latex", "csv")


@dataclass
class Table:
    """One table of the report: a title, the frame, and notes printed under it."""

    title: str
    frame: pd.DataFrame
    notes: list[str] = field(default_factory=list)
    digits: dict[str, int] = field(default_factory=dict)


def _cell(value, digits: int) -> str:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "–"
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        if digits < 0:  # a p-value: small ones in scientific notation
            return f"{value:.4f}" if value >= 1e-4 else f"{value:.1e}"
        return f"{value:.{digits}f}"
    return str(value)


def _texts(table: Table) -> list[list[str]]:
    return [
        [_cell(v, table.digits.get(c, 4)) for c, v in zip(table.frame.columns, row, strict=True)]
        for row in table.frame.itertuples(index=False)
    ]


def markdown_cell(text: str) -> str:
    """``text`` safe inside a Markdown table cell: ``|`` escaped, line breaks as spaces,
    ``&``, ``<`` and ``>`` as HTML entities.

    A dataset or combination name comes from a file name or a results file, so it may
    hold any of them; unescaped, a ``|`` starts a new column, a newline ends the table,
    and ``<script>`` or ``<img onerror=…>`` is HTML that a Markdown renderer passes on.
    """
    flat = " ".join(str(text).replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    flat = flat.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return flat.replace("\\", "\\\\").replace("|", "\\|")


def _markdown(table: Table) -> str:
    head = [markdown_cell(c) for c in table.frame.columns]
    body = [[markdown_cell(v) for v in row] for row in _texts(table)]
    numeric = [
        pd.api.types.is_numeric_dtype(table.frame[c]) or "W/T/L" in c for c in table.frame.columns
    ]
    rule = ["---:" if n else "---" for n in numeric]
    lines = [f"### {table.title}", ""]
    lines += ["| " + " | ".join(r) + " |" for r in [head, rule, *body]]
    lines += [""] + [f"{n}" for n in table.notes]
    return "\n".join(lines).rstrip() + "\n"


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "η": r"$\eta$",
    "χ²": r"$\chi^2$",
    "±": r"$\pm$",
    "–": "--",
    "−": "$-$",
}


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped (and η, χ², ± as math)."""
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(text)).replace("χ$^2$", r"$\chi^2$")


def _latex(table: Table) -> str:
    frame = table.frame
    align = "".join("r" if pd.api.types.is_numeric_dtype(frame[c]) else "l" for c in frame)
    lines = [
        "% " + table.title,
        r"\begin{table}[htbp]",
        r"\centering",
        r"\caption{" + latex_escape(table.title) + "}",
        r"\begin{tabular}{" + align + "}",
        r"\toprule",
        " & ".join(latex_escape(c) for c in frame.columns) + r" \\",
        r"\midrule",
    ]
    lines += [" & ".join(latex_escape(v) for v in row) + r" \\" for row in _texts(table)]
    lines += [r"\bottomrule", r"\end{tabular}"]
    if table.notes:
        lines.append(r"\par\smallskip\footnotesize " + latex_escape(" ".join(table.notes)))
    lines.append(r"\end{table}")
    return "\n".join(lines) + "\n"


def _csv(table: Table) -> str:
    # the one writer: a dataset named after a file such as "=1+1.arff" goes out escaped
    from ternary.data import to_csv

    buffer = io.StringIO()
    buffer.write(f"# {table.title}\n")
    to_csv(table.frame, buffer, lineterminator="\n")
    return buffer.getvalue()


def render(tables: list[Table], fmt: str, preamble: Sequence[str] = ()) -> str:
    """All ``tables`` in one text; ``preamble`` (plain lines) goes first, except in CSV."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}; got {fmt!r}.")
    one = {"markdown": _markdown, "latex": _latex, "csv": _csv}[fmt]
    parts = []
    if preamble and fmt == "markdown":
        parts.append("\n".join(preamble).rstrip() + "\n")
    elif preamble and fmt == "latex":
        parts.append("\n".join("% " + line for line in preamble if line) + "\n")
    parts += [one(t) for t in tables]
    return "\n".join(parts)


def _cd_bar(ax, cd: float) -> None:
    """The critical difference as a bar in its own strip above the rank axis and its ticks.

    scikit-posthocs writes "CD = x" onto the axis, over the tick labels; here the bar
    starts at the best (lowest) rank shown and its label stands to its right.
    """
    strip = ax.inset_axes((0.0, 1.10, 1.0, 0.12), sharex=ax)
    strip.set_axis_off()
    start = min(t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1])
    strip.plot([start, start + cd], [0.5, 0.5], color="k", linewidth=2)
    strip.plot([start, start], [0.2, 0.8], color="k", linewidth=1)
    strip.plot([start + cd, start + cd], [0.2, 0.8], color="k", linewidth=1)
    strip.set_ylim(0.0, 1.0)
    strip.text(
        start + cd,
        0.5,
        f"  CD = {cd:.2f} (Nemenyi, α = 0.05)",
        va="center",
        ha="left",
        fontsize=8,
    )


def cd_figure(ranks: pd.Series, pvalues: pd.DataFrame, cd: float, title: str):
    """The critical-difference diagram (scikit-posthocs) as a matplotlib figure; close it after."""
    try:
        import matplotlib

        matplotlib.use("Agg", force=False)
        import matplotlib.pyplot as plt
        import scikit_posthocs as sp
    except ImportError:
        raise ImportError(
            "The critical-difference diagram needs scikit-posthocs and matplotlib: "
            "pip install 'ternary[report]'."
        ) from None
    fig, ax = plt.subplots(figsize=(8.0, 1.6 + 0.28 * len(ranks)))
    try:
        sp.critical_difference_diagram(
            ranks,
            pvalues,
            ax=ax,
            label_fmt_left="{label} ({rank:.2f})",
            label_fmt_right="({rank:.2f}) {label}",
        )
        _cd_bar(ax, cd)
        ax.set_title(title, fontsize=9, pad=40)
    except BaseException:
        plt.close(fig)
        raise
    return fig


def cd_diagram(path, ranks: pd.Series, pvalues: pd.DataFrame, cd: float, title: str) -> Path:
    """Draw the critical-difference diagram to ``path`` (.svg or .png)."""
    path = Path(path)
    if path.suffix.lower() not in (".svg", ".png"):
        raise ValueError(f"--cd-diagram needs a .svg or .png file name; got {str(path)!r}.")
    fig = cd_figure(ranks, pvalues, cd, title)
    try:
        import matplotlib.pyplot as plt

        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, bbox_inches="tight")
    finally:
        plt.close(fig)
    return path
