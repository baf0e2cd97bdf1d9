"""Reading the bytes of a path, bytes or an upload, and decoding them to text.

Nothing here consumes or modifies what it is given: an upload's position is restored.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ._dataset import DataError

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


def _mb(n: int) -> str:
    return f"{n / 2**20:.1f} MB"


def _read_source(source: Any, max_bytes: int) -> tuple[bytes, str | None]:
    """Return the bytes of ``source`` and its file name, without consuming it."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        name = None
    elif isinstance(source, (str, os.PathLike)):
        if isinstance(source, str) and "\n" in source:
            # A common slip: passing the file's contents where a path is expected.
            raise DataError(
                "Got text with line breaks where a file path was expected. Pass "
                "the contents as bytes instead, e.g. text.encode('utf-8')."
            )
        path = Path(source).expanduser()
        try:
            exists = path.exists()
        except OSError as exc:  # e.g. a name too long for the file system
            raise DataError(
                f"Cannot use {str(path)[:80]!r} as a file path ({exc}). Check the path."
            ) from exc
        if not exists:
            raise DataError(f"File not found: {str(path)!r}. Check the path and try again.")
        if path.is_dir():
            raise DataError(f"{str(path)!r} is a folder, not a file. Pick a file inside it.")
        size = path.stat().st_size
        if size > max_bytes:
            raise DataError(
                f"The file is too large ({_mb(size)}; the limit is {_mb(max_bytes)}). "
                "Use a sample of the rows or fewer columns."
            )
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise DataError(
                f"Could not read {str(path)!r}: {exc}. Check the file's permissions."
            ) from exc
        name = path.name
    elif hasattr(source, "getvalue") or hasattr(source, "read"):
        size = getattr(source, "size", None)
        if isinstance(size, int) and size > max_bytes:
            raise DataError(
                f"The upload is too large ({_mb(size)}; the limit is {_mb(max_bytes)}). "
                "Use a sample of the rows or fewer columns."
            )
        try:
            if hasattr(source, "getvalue"):
                # getvalue() returns the whole buffer and leaves the position alone.
                raw = source.getvalue()
            else:
                seekable = bool(getattr(source, "seekable", lambda: False)())
                pos = source.tell() if seekable else None
                if seekable:
                    source.seek(0)
                raw = source.read()
                if seekable:
                    source.seek(pos)
        except (OSError, ValueError) as exc:
            raise DataError(f"Could not read the upload: {exc}. Upload the file again.") from exc
        data = raw.encode("utf-8") if isinstance(raw, str) else bytes(raw)
        name = getattr(source, "name", None)
        name = Path(str(name)).name if name else None
    else:
        raise DataError(
            f"Cannot read data from a {type(source).__name__}. Pass a file path, the "
            "file's bytes, or an uploaded file object."
        )
    if len(data) > max_bytes:
        raise DataError(
            f"The file is too large ({_mb(len(data))}; the limit is {_mb(max_bytes)}). "
            "Use a sample of the rows or fewer columns."
        )
    return data, name


def _check_not_binary(data: bytes, what: str) -> None:
    for magic, kind in _BINARY_SIGNATURES:
        if data.startswith(magic):
            raise DataError(
                f"This is not a text {what} file: it looks like {kind}. "
                f"Export the data as a plain-text {what} file and upload that."
            )
    sample = data[:65536]
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


def _decode(data: bytes, what: str) -> tuple[str, str]:
    """Decode text, returning it and a description of the encoding used."""
    if not data:
        raise DataError(
            "The file is empty (0 bytes). Upload a "
            f"{what} with a header row and at least two rows of data."
        )
    # Excel's "Unicode text" export is UTF-16 with a BOM; it would otherwise be
    # rejected as binary because every other byte is NUL.
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), "UTF-16"
        except UnicodeDecodeError as exc:
            raise DataError(
                f"The file starts like UTF-16 text but cannot be decoded "
                f"({exc}). Save it as UTF-8 and try again."
            ) from exc
    _check_not_binary(data, what)
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return data[3:].decode("utf-8"), "UTF-8 (with byte-order mark)"
        except UnicodeDecodeError:
            pass
    else:
        try:
            return data.decode("utf-8"), "UTF-8"
        except UnicodeDecodeError:
            pass
    # Windows-1252 is what spreadsheet programs usually write when not UTF-8
    # (it adds e.g. the euro sign to Latin-1); Latin-1 itself never fails.
    try:
        return data.decode("cp1252"), "Latin-1 (Windows-1252): the file is not valid UTF-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "Latin-1: the file is not valid UTF-8"
