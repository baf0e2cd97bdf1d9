"""Read a zip archive's end records and central directory as the format defines them.

`zipfile` finds the end of central directory record its own way: the last 22 bytes when
they start with the signature and state no comment, else the *last* signature among the
file's final 64 KiB, whether or not the record it starts fits the file. It then takes a
ZIP64 end record, when a locator sits just before, over the classic one without comparing
them, and parses every directory entry the stated directory size holds (whatever count
either record states). A check that reads the records differently can be walked around:
an end record whose entry-count bytes spell the signature, or a ZIP64 record stating the
real directory behind a classic one stating a single entry.

`directory_problem` therefore reads the records the way the format (PKWARE's APPNOTE)
defines them, refuses any archive where `zipfile` would read something else, and walks the
directory itself, so that what `zipfile` parses afterwards is exactly what was measured:

* the end record is the last signature whose 22 bytes plus the comment length it states
  reach exactly the end of the file, and it must be the record `zipfile` takes;
* one disk only (both disk numbers 0, the two entry counts equal);
* a ZIP64 locator (the 20 bytes before the end record) must point at a ZIP64 end record
  just before it, of the 44-byte size without extensible data (`zipfile` reads it only
  there), and each classic field must equal the ZIP64 one or be its "see ZIP64" mark (all
  bits set);
* the directory ends where the end records begin (no bytes before the archive, which
  would move every offset `zipfile` reads), holds no more than ``max_members`` entries in
  no more than ``max_members * entry_bytes`` bytes (refused from the records alone, before
  the directory is read), and its entries, walked by their signatures and stated lengths,
  are exactly the count the records state and fill exactly the size they state.
"""

from __future__ import annotations

import struct

__all__ = ["directory_problem"]

_END = b"PK\x05\x06"
_LOCATOR = b"PK\x06\x07"
_END64 = b"PK\x06\x06"
_ENTRY = b"PK\x01\x02"
_END_BYTES = 22  # the classic end record without its comment
_LOCATOR_BYTES = 20
_END64_BYTES = 56  # the ZIP64 end record without extensible data
_ENTRY_BYTES = 46  # a directory entry before its name, extra field and comment
_MAX_COMMENT = 0xFFFF
#: how much of the file's end `zipfile` searches for the record (its own window)
_WINDOW = _END_BYTES + (1 << 16)


def _spec_end(tail: bytes) -> int | None:
    """Offset in ``tail`` (the file's end) of the end record as the format defines it."""
    end = len(tail)
    while (at := tail.rfind(_END, 0, end)) >= 0:
        if at + _END_BYTES <= len(tail):
            (comment,) = struct.unpack_from("<H", tail, at + 20)
            if at + _END_BYTES + comment == len(tail):
                return at
        end = at + len(_END) - 1  # the next search ends before this signature
    return None


def _zipfile_end(tail: bytes) -> int | None:
    """Offset in ``tail`` of the end record `zipfile` takes (its ``_EndRecData``)."""
    if len(tail) >= _END_BYTES and tail[-_END_BYTES:][:4] == _END and tail[-2:] == b"\x00\x00":
        return len(tail) - _END_BYTES
    at = tail.rfind(_END)
    return at if at >= 0 and len(tail) - at >= _END_BYTES else None


def _agree(classic: int, zip64: int, mark: int) -> bool:
    return classic in (zip64, mark)


def _zip64_problem(handle, at: int, classic: tuple[int, ...]) -> tuple[str | None, tuple]:
    """The ZIP64 end record before the locator at ``at - 20``: (problem, (entries, size,
    offset, where the end records begin))."""
    handle.seek(at - _LOCATOR_BYTES)
    locator = handle.read(_LOCATOR_BYTES)
    _, disk, where, disks = struct.unpack("<4sLQL", locator)
    start = at - _LOCATOR_BYTES - _END64_BYTES
    if disk != 0 or disks != 1:
        return "its ZIP64 locator names another disk (archives over several disks)", ()
    if where != start or start < 0:
        return "its ZIP64 locator does not point at a ZIP64 end record just before it", ()
    handle.seek(start)
    record = handle.read(_END64_BYTES)
    sig, rest, _, _, disk, disk_dir, n_disk, n_total, size, offset = struct.unpack(
        "<4sQ2H2L4Q", record
    )
    if sig != _END64 or rest != _END64_BYTES - 12:
        return "its ZIP64 locator points at no ZIP64 end record of the size zipfile reads", ()
    if disk or disk_dir or n_disk != n_total:
        return "its ZIP64 end record describes an archive over several disks", ()
    c_entries, c_size, c_offset = classic
    if not (
        _agree(c_entries, n_total, 0xFFFF)
        and _agree(c_size, size, 0xFFFFFFFF)
        and _agree(c_offset, offset, 0xFFFFFFFF)
    ):
        return (
            f"its end record states {c_entries:,} entries in {c_size:,} bytes at "
            f"{c_offset:,}, its ZIP64 end record {n_total:,} entries in {size:,} bytes at "
            f"{offset:,}",
            (),
        )
    return None, (n_total, size, offset, start)


def _walk_problem(directory: bytes, entries: int) -> str | None:
    """What does not fit between ``directory``'s entries and the count stated, or None."""
    at = count = 0
    while at < len(directory):
        if count == entries:
            return f"its directory holds more than the {entries:,} entries its end record states"
        if directory[at : at + 4] != _ENTRY or at + _ENTRY_BYTES > len(directory):
            return f"its directory's entry {count + 1:,} is damaged"
        name, extra, comment = struct.unpack_from("<3H", directory, at + 28)
        at += _ENTRY_BYTES + name + extra + comment
        count += 1
    if at != len(directory) or count != entries:
        return (
            f"its directory holds {count:,} entries in {at:,} bytes, its end record "
            f"states {entries:,} in {len(directory):,}"
        )
    return None


def directory_problem(handle, size: int, max_members: int, entry_bytes: int):
    """What is wrong with the end records and directory of the zip archive in ``handle``.

    Parameters
    ----------
    handle : binary file
        The archive, seekable; its position is left anywhere.
    size : int
        Its size in bytes.
    max_members : int
        The most entries the directory may hold.
    entry_bytes : int
        The most bytes an entry may take on average.

    Returns
    -------
    (str, bool) or None
        None for an archive whose records agree and whose directory is within the
        bounds; else what is wrong, and True when it is the bound that is passed (the
        caller words that refusal itself) rather than a damaged or ambiguous archive.
    """
    tail_size = min(size, _WINDOW)
    handle.seek(size - tail_size)
    tail = handle.read(tail_size)
    spec = _spec_end(tail)
    if spec is None:
        return "it has no end of central directory record", False
    if _zipfile_end(tail) != spec:
        return "it has two end of central directory records that disagree", False
    at = size - tail_size + spec  # where the end record starts in the file
    disk, disk_dir, n_disk, n_total, d_size, d_offset = struct.unpack_from("<4H2L", tail, spec + 4)
    if disk or disk_dir or n_disk != n_total:
        return (
            f"its end record describes an archive over several disks (entries "
            f"{n_disk:,} on this disk, {n_total:,} in all)",
            False,
        )
    entries, d_size_, d_offset_, begin = n_total, d_size, d_offset, at
    if at >= _LOCATOR_BYTES:
        handle.seek(at - _LOCATOR_BYTES)
        if handle.read(4) == _LOCATOR:
            problem, values = _zip64_problem(handle, at, (n_total, d_size, d_offset))
            if problem is not None:
                return problem, False
            entries, d_size_, d_offset_, begin = values
    if entries > max_members or d_size_ > max_members * entry_bytes:
        return f"{entries:,} members in a {d_size_:,}-byte directory", True
    if d_offset_ + d_size_ != begin:
        return (
            f"its directory ({d_size_:,} bytes at {d_offset_:,}) does not end where its "
            f"end records begin ({begin:,})",
            False,
        )
    handle.seek(d_offset_)
    problem = _walk_problem(handle.read(d_size_), entries)
    return None if problem is None else (problem, False)
