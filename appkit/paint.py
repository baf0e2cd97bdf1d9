"""Paint your points: a teacher draws the dataset a lesson needs on the Decision regions page.

The points live in the session (``paint_points``: a list of ``(class index, x, y)``
on the canvas ``BOUNDS``, coordinates on a 0.001 grid) and become a `Dataset`
whose key is derived from the points, so the page's cached fits work as for any
dataset. They travel in the link as ``paint=`` (`encode` / `decode`: the text
``class,x,y;…`` in thousandths, zlib-compressed, URL-safe base64, at most
`MAX_POINTS` points) and download as a CSV with the columns x1, x2, label that the
Your data page reads back.
"""

from __future__ import annotations

import base64
import re
import zlib
from collections.abc import Sequence

import numpy as np
import pandas as pd
import streamlit as st

from appkit import present
from appkit.datasets import dataset_key
from appkit.state import shown
from ternary.data import Dataset, to_csv

__all__ = [
    "BOUNDS",
    "CANVAS_PX",
    "CLASSES",
    "MAX_POINTS",
    "PaintError",
    "add_noise",
    "add_point",
    "apply_click",
    "beside_regions",
    "decode",
    "encode",
    "link_value",
    "paint_section",
    "painted_dataset",
    "points_csv",
    "problem",
    "remove_near",
    "restore_link",
]

#: the canvas's range on both axes
BOUNDS = (0.0, 1.0)
#: the classes a teacher can paint with
CLASSES = ("A", "B", "C", "D")
#: the most points a canvas (and so a link) holds
MAX_POINTS = 500
#: a click in remove mode takes the nearest painted point within this distance
REMOVE_RADIUS = 0.05
#: the fewest points of a class the fit takes (a stratified split needs two)
MIN_PER_CLASS = 2
_VERSION = "1."
#: 500 points compress to about 2,000 characters; anything much longer is not ours
_MAX_LINK_CHARS = 8_000
_MAX_TEXT_BYTES = MAX_POINTS * 15  # "3,1000,1000;" is 12 bytes
_ITEM = re.compile(r"([0-9]),([0-9]{1,4}),([0-9]{1,4})")
_B64 = re.compile(r"[A-Za-z0-9_-]*")

Point = tuple[int, float, float]


class PaintError(ValueError):
    """Painted points that cannot be used: too many, or a link that does not hold points."""


def _snap(value: float) -> float:
    lo, hi = BOUNDS
    return round(min(max(float(value), lo), hi), 3)


def _cap_message(n: int) -> str:
    return (
        f"{n} points is more than the {MAX_POINTS} a canvas holds (a link must stay short "
        "enough to share). Remove or clear points first, or download them as a CSV and "
        "load that on the Your data page, which takes any number of rows."
    )


# ----------------------------------------------------------------------------- the link
def encode(points: Sequence[Point]) -> str:
    """The link form of ``points``: ``"1."`` and URL-safe base64 of zlib'd ``c,x,y;…`` text.

    Coordinates are written in thousandths of the canvas, so a point snapped to the
    0.001 grid comes back exactly. Raises `PaintError` past `MAX_POINTS`.
    """
    if len(points) > MAX_POINTS:
        raise PaintError(_cap_message(len(points)))
    lo, hi = BOUNDS
    scale = 1000 / (hi - lo)
    text = ";".join(
        f"{int(c)},{round((_snap(x) - lo) * scale)},{round((_snap(y) - lo) * scale)}"
        for c, x, y in points
    )
    packed = base64.urlsafe_b64encode(zlib.compress(text.encode("ascii"), 9))
    return _VERSION + packed.decode("ascii").rstrip("=")


def _inflate(packed: bytes) -> bytes:
    """zlib-decompressed ``packed``, refusing output past the largest canvas's text."""
    inflater = zlib.decompressobj()
    try:
        text = inflater.decompress(packed, _MAX_TEXT_BYTES)
    except zlib.error as exc:
        raise PaintError("its painted points are damaged (not compressed data)") from exc
    if inflater.unconsumed_tail or not inflater.eof:
        raise PaintError(
            "its painted points are damaged or hold more than a canvas's "
            f"{MAX_POINTS} points (the data is cut off or too long)"
        )
    return text


def decode(code: str) -> list[Point]:
    """The points of a link's ``paint=`` value; raises `PaintError` saying what is wrong.

    A link is input from anyone: the length, the alphabet, the compressed size, every
    class index and every coordinate are checked before anything is used.
    """
    if not isinstance(code, str) or not code.startswith(_VERSION):
        raise PaintError("it does not hold painted points (they start with '1.')")
    body = code[len(_VERSION) :]
    if len(code) > _MAX_LINK_CHARS:
        raise PaintError(
            f"its painted points are {len(code):,} characters long; a canvas of "
            f"{MAX_POINTS} points needs at most {_MAX_LINK_CHARS:,}"
        )
    if not _B64.fullmatch(body):
        raise PaintError("its painted points hold characters a link's points never have")
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except ValueError as exc:
        raise PaintError("its painted points are cut short (not whole base64)") from exc
    try:
        text = _inflate(packed).decode("ascii")
    except UnicodeDecodeError as exc:
        raise PaintError("its painted points are not the text they should be") from exc
    items = text.split(";") if text else []
    if len(items) > MAX_POINTS:
        raise PaintError(_cap_message(len(items)))
    lo, hi = BOUNDS
    points = []
    for n, item in enumerate(items, 1):
        m = _ITEM.fullmatch(item)
        if m is None:
            raise PaintError(f"point {n} is {item[:20]!r}, not class,x,y in thousandths")
        c, x, y = (int(g) for g in m.groups())
        if c >= len(CLASSES) or x > 1000 or y > 1000:
            raise PaintError(
                f"point {n} ({item}) is off the canvas: classes are 0–{len(CLASSES) - 1}, "
                "coordinates 0–1000"
            )
        points.append((c, round(lo + x * (hi - lo) / 1000, 3), round(lo + y * (hi - lo) / 1000, 3)))
    return points


def restore_link(s, code: str | None) -> list[str]:
    """Apply a link's ``paint=`` to session ``s``; the messages of what was ignored.

    A link without ``paint=`` turns painting off (the address is the whole setting);
    with it, the points are painted over the link's dataset (`appkit.links.page_dataset`).
    """
    s.pop("_paint_over", None)
    if code is None:
        s["paint_on"] = False
        return []
    try:
        s["paint_points"] = decode(str(code))
    except PaintError as exc:
        s["paint_on"] = False
        return [f"paint=… ({len(str(code)):,} characters): {exc}; no points were painted"]
    s["paint_on"] = True
    return []


def link_value(s) -> str | None:
    """The ``paint=`` value for session ``s``'s link, or None when nothing is painted."""
    points = s.get("paint_points") or []
    if not s.get("paint_on") or not points:
        return None
    try:
        return encode(points)
    except PaintError:  # the page refuses points past the cap; a link never holds them
        return None


# ----------------------------------------------------------------------------- editing
def add_point(points: Sequence[Point], cls: int, x: float, y: float) -> list[Point]:
    """``points`` with one more, snapped to the canvas; `PaintError` at the cap."""
    if len(points) >= MAX_POINTS:
        raise PaintError(_cap_message(len(points) + 1))
    if not 0 <= int(cls) < len(CLASSES):
        raise PaintError(f"class index {cls} is not one of 0–{len(CLASSES) - 1}")
    return [*points, (int(cls), _snap(x), _snap(y))]


def remove_near(
    points: Sequence[Point], x: float, y: float, radius: float = REMOVE_RADIUS
) -> tuple[list[Point], bool]:
    """``points`` without the one nearest (x, y) within ``radius``, and whether one went."""
    if not points:
        return list(points), False
    xy = np.array([(p[1], p[2]) for p in points], dtype=float)
    d = np.hypot(xy[:, 0] - x, xy[:, 1] - y)
    k = int(np.argmin(d))
    if d[k] > radius:
        return list(points), False
    return [p for i, p in enumerate(points) if i != k], True


def add_noise(points: Sequence[Point], jitter: float, flip: float, rng) -> list[Point]:
    """``points`` moved by Gaussian jitter (sd ``jitter``, in canvas units, kept on the
    canvas) and with a share ``flip`` of labels changed to another painted class."""
    out = list(points)
    if not out:
        return out
    n = len(out)
    xy = np.array([(p[1], p[2]) for p in out], dtype=float)
    if jitter > 0:
        xy = xy + rng.normal(0.0, jitter, size=xy.shape)
    codes = [p[0] for p in out]
    used = sorted(set(codes))
    if flip > 0 and len(used) > 1:
        for i in rng.choice(n, size=int(round(flip * n)), replace=False):
            others = [c for c in used if c != codes[i]]
            codes[i] = int(others[int(rng.integers(len(others)))])
    return [(c, _snap(x), _snap(y)) for c, (x, y) in zip(codes, xy, strict=True)]


def problem(points: Sequence[Point]) -> str | None:
    """Why ``points`` cannot be fitted yet (a sentence saying what to paint), or None."""
    counts = pd.Series([CLASSES[p[0]] for p in points], dtype=object).value_counts()
    enough = counts[counts >= MIN_PER_CLASS]
    if len(enough) >= 2 and len(enough) == len(counts):
        return None
    have = ", ".join(f"{n} of class {c}" for c, n in counts.sort_index().items()) or "none"
    return (
        f"Paint at least {MIN_PER_CLASS} points of each of two classes to fit a tree (each "
        f"class painted needs {MIN_PER_CLASS}); painted so far: {have}."
    )


# ----------------------------------------------------------------------------- as data
def points_frame(points: Sequence[Point]) -> pd.DataFrame:
    """The points as a table: x1, x2 (float) and label (the class's letter)."""
    return pd.DataFrame(
        {
            "x1": np.array([p[1] for p in points], dtype=np.float64),
            "x2": np.array([p[2] for p in points], dtype=np.float64),
            "label": np.array([CLASSES[p[0]] for p in points], dtype=object),
        }
    )


def points_csv(points: Sequence[Point]) -> str:
    """The points as CSV text (columns x1, x2, label), written by `ternary.data.to_csv`."""
    return to_csv(points_frame(points))


def painted_dataset(points: Sequence[Point]) -> tuple[Dataset, tuple]:
    """The points as a `Dataset` and its key (derived from the points, so caches work)."""
    return _painted(encode(points))


@st.cache_data(show_spinner=False, max_entries=32)
def _painted(code: str) -> tuple[Dataset, tuple]:
    frame = points_frame(decode(code))
    y = frame["label"].to_numpy()
    ds = Dataset(
        X=frame[["x1", "x2"]],
        y=y,
        class_names=sorted({str(v) for v in y}),
        name="painted points",
        source="painted",
        report=[f"{len(y)} points painted on the Decision regions page."],
    )
    return ds, dataset_key(ds)


# ----------------------------------------------------------------------------- the page
def _on_toggle() -> None:
    st.session_state["paint_on"] = bool(st.session_state.get("paint_toggle"))
    st.session_state.pop("_paint_over", None)  # painted over the sidebar's dataset of now


def apply_click(
    points: Sequence[Point], event, action: str, cls: str
) -> tuple[list[Point], str | None]:
    """``points`` after a canvas click ``event`` (a plotly selection), and a message or None.

    ``action`` "Add" paints a point of class ``cls`` where the click landed; "Remove"
    takes the painted point nearest it. An event without a clicked point changes nothing.
    """
    points = list(points)
    try:
        last = list(event["selection"]["points"] or ())[-1]
        x, y = float(last["x"]), float(last["y"])
    except (KeyError, TypeError, ValueError, IndexError):
        return points, None
    if not (np.isfinite(x) and np.isfinite(y)):
        return points, None
    if action == "Remove":
        points, gone = remove_near(points, x, y)
        if not gone:
            return points, f"No painted point within {REMOVE_RADIUS} of ({x:.2f}, {y:.2f})."
        return points, None
    try:
        index = CLASSES.index(cls) if cls in CLASSES else 0
        return add_point(points, index, x, y), None
    except PaintError as exc:
        return points, str(exc)


def _on_click(key: str) -> None:
    """A click on the canvas: add a point of the chosen class there, or remove the nearest."""
    s = st.session_state
    points, message = apply_click(
        s.get("paint_points") or [],
        s.get(key),
        s.get("paint_action", "Add"),
        s.get("paint_class", CLASSES[0]),
    )
    s["paint_points"], s["paint_message"] = points, message
    # a fresh chart: a second click on the same spot is a new selection, not the old one
    s["paint_canvas_n"] = int(s.get("paint_canvas_n", 0)) + 1


def _on_clear() -> None:
    st.session_state["paint_points"] = []
    st.session_state["paint_message"] = None


def _on_noise() -> None:
    s = st.session_state
    rng = np.random.default_rng()
    s["paint_points"] = add_noise(
        s.get("paint_points") or [],
        float(s.get("paint_jitter", 0.03)),
        float(s.get("paint_flip", 0.0)),
        rng,
    )


def _controls(points: list[Point]) -> None:
    """The class and what a click does; noise in a popover, its button beside Clear and
    the download: compact, so the canvas and the regions beside it fit on a 1400 × 900
    screen."""
    st.radio(
        "Class",
        CLASSES,
        key="paint_class",
        horizontal=True,
        help="The class a click paints.",
    )
    st.radio(
        "A click",
        ("Add", "Remove"),
        key="paint_action",
        horizontal=True,
        help=f"Add: a point of the chosen class where you click. Remove: the painted point "
        f"nearest the click (within {REMOVE_RADIUS}).",
    )
    noise, clear, download = st.columns([3, 2, 2])
    with noise.popover("Noise…", help="Jitter the points and flip some labels."):
        st.slider(
            "Jitter",
            0.0,
            0.2,
            0.03,
            step=0.01,
            key="paint_jitter",
            help="Standard deviation of the Gaussian noise 'Add noise' moves every point by "
            "(the canvas is 1 wide).",
        )
        st.slider(
            "Label flips",
            0.0,
            0.5,
            0.0,
            step=0.05,
            key="paint_flip",
            help="Share of points whose class 'Add noise' changes to another painted class.",
        )
        st.button(
            "Add noise", on_click=_on_noise, help="Jitter the points and flip labels, as set above."
        )
    clear.button("Clear", on_click=_on_clear, help="Remove every painted point.")
    download.download_button(
        "CSV",
        points_csv(points).encode(),
        file_name="painted_points.csv",
        mime="text/csv",
        help="Download the points as x1, x2, label; load the file on the Your data page to "
        "use them on every page.",
    )
    st.caption(f"{len(points)} of at most {MAX_POINTS} points.")


def beside_regions(fig):
    """The regions figure for the column beside the canvas: each panel's title broken at
    " — " and ", " (in one line the two met), and no figure title (the page's says it)."""
    import plotly.graph_objects as go

    out = go.Figure(fig)
    out.layout.title.text = None
    for note in out.layout.annotations or ():
        if note.text:
            note.text = note.text.replace(" — ", "<br>", 1).replace(", ", "<br>")
    return out


#: the canvas's height in px: with the controls above it, as tall as the regions beside it
CANVAS_PX = 360


def paint_section(ds: Dataset, key: tuple):
    """The page's draw mode: the toggle and, when on, the canvas; the dataset to fit.

    Returns ``(ds, key, beside)``. Off, ``(ds, key)`` come back unchanged and ``beside``
    is None. On, the painted points are the dataset, and ``beside`` is the column to the
    right of the canvas, where the page draws the regions: the canvas above them forced
    scrolling at 1400 × 900 (issue 32). With too few points to fit, the page says what to
    paint and stops below the canvas.
    """
    from viz.paint import canvas_figure

    s = st.session_state
    if shown("paint"):  # hide=paint in a lecture link: no switch, the link's points stay
        s["paint_toggle"] = bool(s.get("paint_on"))
        st.toggle(
            "Paint your points",
            key="paint_toggle",
            on_change=_on_toggle,
            help="Draw the dataset yourself: pick a class and click on the canvas. While this "
            "is on, the painted points replace the sidebar's dataset on every page: the tree, "
            "its zones and every card below follow them, and the page's link carries them.",
        )
    if not s.get("paint_on"):
        return ds, key, None
    points = list(s.get("paint_points") or [])
    canvas, beside = st.columns([1, 2], gap="medium")
    with canvas:
        # presenting, the canvas first and its controls under it: above it, at projector
        # size, they pushed the canvas off a 1400 x 900 screen
        controls = st.container()
        if not present.on():
            with controls:
                _controls(points)
        chart_key = f"paint_canvas_{int(s.get('paint_canvas_n', 0))}"
        figure = canvas_figure(points, CLASSES, bounds=BOUNDS, height=CANVAS_PX)
        st.plotly_chart(
            present.figure(figure),  # projector-sized
            key=chart_key,
            on_select=lambda: _on_click(chart_key),
            selection_mode="points",
            width="stretch",
        )
        if s.get("paint_message"):
            st.info(s["paint_message"], icon="ℹ️")
        if present.on():
            _controls(points)
    if float(s.get("test_size", 0.3)) > 0:
        # the figure beside draws its regions around the points the cards measure
        canvas.caption(
            "The tree is fitted on part of the points and the regions are drawn around the "
            "held-out rest; set the test fraction to 0 (sidebar) to fit and draw every "
            "painted point, as the paper's figures do."
        )
    why_not = problem(points)
    if why_not:
        beside.info(why_not, icon="ℹ️")
        st.stop()
    return (*painted_dataset(points), beside)
