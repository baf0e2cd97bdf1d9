"""Reading the bytes of a path, bytes or an upload, and decoding them to text.

Nothing here consumes or modifies what it is given: an upload's position is restored.
"""

from __future__ import annotations

import codecs
import os
import stat
from pathlib import Path
from typing import Any

import numpy as np

from ._dataset import DataError, _quoted, _shorten
from .scan import (
    MAX_LINE_BYTES,
    SCAN_BLOCK,
    check_line_lengths,
    count_breaks,
    count_rows,
    line_of,
)

#: The largest file any loader reads, in bytes (200 MB); the default ``max_bytes``
#: of every loader, so an app can state the limit the loaders really apply.
MAX_FILE_BYTES = 200 * 2**20

_BINARY_SIGNATURES = (
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"%PDF", "a PDF document"),
    (b"PK\x03\x04", "a ZIP archive (or an Excel .xlsx workbook)"),
    (b"\x1f\x8b", "a gzip-compressed file"),
    (b"BZh", "a bzip2-compressed file"),
    (b"7z\xbc\xaf", "a 7-Zip archive"),
    (b"\xd0\xcf\x11\xe0", "an old Excel .xls / Office document"),
    (b"PAR1", "a Parquet file"),
)


# The scans every loader runs before parsing live in the public module .scan.
_MAX_LINE_BYTES = MAX_LINE_BYTES
_SCAN_BLOCK = SCAN_BLOCK
_check_line_lengths = check_line_lengths
_count_breaks = count_breaks
_count_rows = count_rows
_line_of = line_of


def _mb(n: int) -> str:
    return f"{n / 2**20:.1f} MB"


def _too_large(size: int, max_bytes: int, what: str = "file") -> DataError:
    return DataError(
        f"The {what} is too large ({_mb(size)}; the limit is {_mb(max_bytes)}). "
        "Use a sample of the rows or fewer columns."
    )


def _read_source(source: Any, max_bytes: int) -> tuple[bytes, str | None]:
    """Return the bytes of ``source`` and its file name, without consuming it.

    At most ``max_bytes + 1`` bytes are ever read, so an endless stream cannot
    exhaust memory, and a path is checked to be a regular file before it is read.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        data, name = bytes(source), None
    elif isinstance(source, (str, os.PathLike)):
        data, name = _read_path(source, max_bytes)
    elif hasattr(source, "getvalue") or hasattr(source, "read"):
        data, name = _read_upload(source, max_bytes)
    else:
        raise DataError(
            f"Cannot read data from a {type(source).__name__}. Pass a file path, the "
            "file's bytes, or an uploaded file object."
        )
    if len(data) > max_bytes:
        raise _too_large(len(data), max_bytes)
    return data, name


def _read_path(source: str | os.PathLike, max_bytes: int) -> tuple[bytes, str]:
    if isinstance(source, str) and "\n" in source:
        # A common slip: passing the file's contents where a path is expected.
        raise DataError(
            "Got text with line breaks where a file path was expected. Pass "
            "the contents as bytes instead, e.g. text.encode('utf-8')."
        )
    path = Path(source).expanduser()
    shown = _quoted(path)
    try:
        info = os.stat(path)
    except FileNotFoundError as exc:
        raise DataError(f"File not found: {shown}. Check the path and try again.") from exc
    except (OSError, ValueError) as exc:  # e.g. a name too long for the file system
        raise DataError(
            f"Cannot use {shown} as a file path ({_shorten(exc)}). Check the path."
        ) from exc
    if stat.S_ISDIR(info.st_mode):
        raise DataError(f"{shown} is a folder, not a file. Pick a file inside it.")
    # A named pipe would block the reader until some other process writes, and a
    # device such as /dev/zero never ends: only regular files are read.
    _require_regular(info, shown)
    if info.st_size > max_bytes:
        raise _too_large(info.st_size, max_bytes)
    try:
        # O_NONBLOCK: should the path be swapped for a pipe after the check above,
        # opening it still returns at once, and the fstat below refuses it.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            _require_regular(os.fstat(fh.fileno()), shown)
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        raise DataError(
            f"Could not read {shown}: {_shorten(exc)}. Check the file's permissions."
        ) from exc
    return data, path.name


def _require_regular(info: os.stat_result, shown: str) -> None:
    if stat.S_ISREG(info.st_mode):
        return
    kind = (
        "a named pipe (FIFO)"
        if stat.S_ISFIFO(info.st_mode)
        else "a device"
        if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
        else "a socket"
        if stat.S_ISSOCK(info.st_mode)
        else "not a regular file"
    )
    raise DataError(
        f"{shown} is {kind}, not a regular file, so it is not read. Save the data "
        "to a regular .csv or .arff file and load that."
    )


def _read_upload(source: Any, max_bytes: int) -> tuple[bytes, str | None]:
    size = getattr(source, "size", None)
    if isinstance(size, int) and size > max_bytes:
        raise _too_large(size, max_bytes, "upload")
    try:
        if hasattr(source, "getvalue"):
            # getvalue() returns the whole buffer and leaves the position alone.
            raw = source.getvalue()
        else:
            seekable = bool(getattr(source, "seekable", lambda: False)())
            pos = source.tell() if seekable else None
            if seekable:
                source.seek(0)
            raw = source.read(max_bytes + 1)
            if seekable:
                source.seek(pos)
    except (OSError, ValueError) as exc:
        raise DataError(
            f"Could not read the upload: {_shorten(exc)}. Upload the file again."
        ) from exc
    data = raw.encode("utf-8") if isinstance(raw, str) else bytes(raw)
    name = getattr(source, "name", None)
    return data, (Path(str(name)).name if name else None)


# Byte-order marks of the wide encodings, UTF-32 first: its little-endian mark begins
# with UTF-16's, so testing UTF-16 first would read UTF-32 as UTF-16 with NULs.
_WIDE_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32", "utf-32"),
    (b"\x00\x00\xfe\xff", "UTF-32", "utf-32"),
    (b"\xff\xfe", "UTF-16", "utf-16"),
    (b"\xfe\xff", "UTF-16", "utf-16"),
)


def _wide_codec(data: bytes) -> tuple[str, str] | None:
    """(description, codec) of a file that starts with a UTF-32 or UTF-16 byte-order mark."""
    for bom, described, codec in _WIDE_BOMS:
        if data.startswith(bom):
            return described, codec
    return None


def _wide_without_bom(sample: bytes) -> str | None:
    """The name of the encoding of ASCII-range text in UTF-16/32 without a mark, or None.

    Such text has NUL bytes in fixed positions (every other byte, or three in four);
    the pattern must hold for nearly every character.
    """
    n = len(sample) // 4 * 4
    if n < 8:
        return None
    raw = np.frombuffer(sample[:n], dtype=np.uint8).reshape(-1, 4)
    zero = raw == 0
    share = zero.mean(axis=0)
    if share[1:].min() > 0.95 and share[0] < 0.05:
        return "UTF-32 (little-endian)"
    if share[:3].min() > 0.95 and share[3] < 0.05:
        return "UTF-32 (big-endian)"
    pairs = zero.reshape(-1, 2)
    share = pairs.mean(axis=0)
    if share[1] > 0.95 and share[0] < 0.05:
        return "UTF-16 (little-endian)"
    if share[0] > 0.95 and share[1] < 0.05:
        return "UTF-16 (big-endian)"
    return None


def _check_not_binary(data: bytes, what: str) -> None:
    for magic, kind in _BINARY_SIGNATURES:
        if data.startswith(magic):
            raise DataError(
                f"This is not a text {what} file: it looks like {kind}. "
                f"Export the data as a plain-text {what} file and upload that."
            )
    sample = data[:65536]
    wide = _wide_without_bom(sample)
    if wide is not None:
        raise DataError(
            f"This {what} file looks like {wide} text without a byte-order mark, which "
            "cannot be told apart from binary data reliably. Save it as UTF-8 (or as "
            'UTF-16 with a byte-order mark, Excel\'s "Unicode text") and upload that.'
        )
    if b"\x00" in sample:
        raise DataError(
            f"This is not a text {what} file: it contains NUL bytes, so it is binary "
            f"data. Export the data as a plain-text {what} file (UTF-8) and upload that."
        )
    controls = sum(1 for b in sample if b < 32 and b not in (9, 10, 12, 13))
    if sample and controls / len(sample) > 0.01:
        raise DataError(
            f"This is not a text {what} file: {controls} of its first {len(sample)} bytes "
            f"are control characters. Export the data as a plain-text {what} file."
        )
    nul = data.find(b"\x00", len(sample))  # memchr: the whole file costs milliseconds
    if nul >= 0:
        raise DataError(
            f"Line {_line_of(data, nul)} holds a NUL byte (character 0), which is not text: "
            f"the file is damaged or partly binary. Remove it, or export the data again as "
            f"a plain-text {what} file."
        )


def _decoded(data: bytes, codec: str, keep: int | None, start: int = 0) -> str:
    """``data[start:]`` decoded with ``codec``; only its first ``keep`` characters kept.

    With ``keep`` the whole file is still checked to decode, but block by block, so
    the text of a large file never exists whole (200 MB of UTF-8 holding one emoji
    would be an 800 MB str). A UnicodeDecodeError gives positions in ``data``.
    """
    if keep is None or len(data) - start <= keep:
        try:
            return codecs.decode(memoryview(data)[start:], codec)
        except UnicodeDecodeError as exc:
            raise UnicodeDecodeError(
                codec, data, exc.start + start, exc.end + start, exc.reason
            ) from None
    decoder = codecs.getincrementaldecoder(codec)()
    head: list[str] = []
    kept = 0
    for at in range(start, len(data), _SCAN_BLOCK):
        pending = len(decoder.getstate()[0])
        try:
            out = decoder.decode(data[at : at + _SCAN_BLOCK], final=at + _SCAN_BLOCK >= len(data))
        except UnicodeDecodeError as exc:
            offset = at - pending
            raise UnicodeDecodeError(
                codec, data, exc.start + offset, exc.end + offset, exc.reason
            ) from None
        if kept < keep:
            head.append(out[: keep - kept])
            kept += len(head[-1])
    return "".join(head)


def _decode(data: bytes, what: str, keep: int | None = None) -> tuple[str, str, str]:
    """Decode text: return it, a description of the encoding, and the codec's name.

    The whole file must decode with the one encoding returned; with ``keep`` only
    its first ``keep`` characters are returned (see :func:`_decoded`).
    """
    if not data:
        raise DataError(
            "The file is empty (0 bytes). Upload a "
            f"{what} with a header row and at least two rows of data."
        )
    # Excel's "Unicode text" export is UTF-16 with a BOM; it would otherwise be
    # rejected as binary because every other byte is NUL. UTF-32 is tested first.
    wide = _wide_codec(data)
    if wide is not None:
        described, codec = wide
        try:
            return _decoded(data, codec, keep), described, codec
        except UnicodeDecodeError as exc:
            raise DataError(
                f"The file starts like {described} text but cannot be decoded "
                f"({_shorten(exc)}). Save it as UTF-8 and try again."
            ) from exc
    _check_not_binary(data, what)
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            text = _decoded(data, "utf-8", keep, start=3)
            return text, "UTF-8 (with byte-order mark)", "utf-8-sig"
        except UnicodeDecodeError as exc:
            # The mark promises UTF-8; guessing another encoding would turn the mark
            # itself into text ("ï»¿") at the start of the first column name.
            raise DataError(
                f"Line {_line_of(data, exc.start)}: the file starts with a UTF-8 byte-order "
                f"mark, but this line holds bytes that are not UTF-8 "
                f"({data[exc.start : exc.end]!r}). "
                "The file mixes encodings; save it again as UTF-8 from the program that "
                "made it."
            ) from exc
    else:
        try:
            return _decoded(data, "utf-8", keep), "UTF-8", "utf-8"
        except UnicodeDecodeError as exc:
            _refuse_mixed(data, exc)
    # One decoding for the whole file: the bytes before the first invalid one are
    # pure ASCII (see _refuse_mixed), so reading all as an 8-bit code changes none of them.
    # Windows-1252 is what spreadsheet programs usually write when not UTF-8
    # (it adds e.g. the euro sign to Latin-1); Latin-1 itself never fails.
    try:
        text = _decoded(data, "cp1252", keep)
    except UnicodeDecodeError:
        return _decoded(data, "latin-1", keep), "Latin-1: the file is not valid UTF-8", "latin-1"
    return text, "Latin-1 (Windows-1252): the file is not valid UTF-8", "cp1252"


def _refuse_mixed(data: bytes, exc: UnicodeDecodeError) -> None:
    """Refuse a file whose start is UTF-8 with non-ASCII text and a later byte is not UTF-8.

    Decoding such a file as Windows-1252 would turn its UTF-8 text into mojibake
    (``température`` -> ``tempÃ©rature``); decoding it as UTF-8 would lose the other
    bytes. Neither is the file, so the person is asked to save it in one encoding.
    """
    if data[: exc.start].isascii():
        return
    raise DataError(
        f"Line {_line_of(data, exc.start)}: the file is UTF-8 up to here (with accented or "
        f"other non-ASCII letters before this line), but this line holds bytes that are not "
        f"UTF-8 ({data[exc.start : exc.end]!r}). The file mixes encodings; save it again as "
        "UTF-8 from the program that made it."
    )
