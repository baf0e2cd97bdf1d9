"""Uploads kept on the server, so a link to an uploaded file survives a reload.

An upload's bytes are stored under their SHA-256 (64 hex digits: the key), in a folder
of their own under `root` (``TERNARY_UPLOAD_DIR``, default ``~/.cache/ternary/uploads``).
The page's link carries the key (``upload=<key>``) with the file's name, label column
and gap policy, so a reload, a new tab or a colleague on the same server loads the very
same bytes the same way, and gets the same answers.

Bounds: at most `max_bytes` in all (``TERNARY_UPLOAD_MAX_MB``, default 500 MB) and
`max_age_days` since an upload was last stored (``TERNARY_UPLOAD_MAX_DAYS``, default 7);
storing evicts the expired uploads, then the oldest first until the new one fits. An
evicted upload's link says so on the page, naming the file.

No upload is readable without its key: nothing lists the folder, a key is 256 bits
(never guessed), and a key from a link is read only when it is exactly 64 lower-case hex
digits, so it cannot name any other path.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["KEY_PATTERN", "Stored", "UploadStore", "default_store", "is_key"]

#: a key: the SHA-256 of the bytes, 64 lower-case hex digits, nothing else
KEY_PATTERN = re.compile(r"[0-9a-f]{64}")
_DATA, _META = "data", "meta.json"


def is_key(text: object) -> bool:
    """Whether ``text`` is a well-formed key (and so can name no path but its own)."""
    return isinstance(text, str) and KEY_PATTERN.fullmatch(text) is not None


@dataclass(frozen=True)
class Stored:
    """An upload read back: its bytes and the file name it was stored under."""

    key: str
    data: bytes
    name: str


class UploadStore:
    """A content-addressed folder of uploads, bounded in total size and age.

    Parameters
    ----------
    root : str or Path
        The folder (created on first store, readable by this user only).
    max_bytes : int
        The most bytes all uploads may take together; the oldest go first.
    max_age_days : float
        An upload not stored again for this long is evicted.
    """

    def __init__(self, root, max_bytes: int, max_age_days: float):
        self.root = Path(root)
        self.max_bytes = int(max_bytes)
        self.max_age_seconds = float(max_age_days) * 86_400

    def _folder(self, key: str) -> Path:
        if not is_key(key):  # a link's text never reaches the file system unchecked
            raise ValueError("not an upload key")
        return self.root / key

    def put(self, data: bytes, name: str) -> str:
        """Store ``data`` (as uploaded under ``name``) and return its key.

        The same bytes again refresh the stored copy's age (and its name). Evicts expired
        uploads, then the oldest, until everything fits in `max_bytes`; an upload larger
        than `max_bytes` on its own is not kept (the key is still returned: its link will
        say the upload is gone).
        """
        data = bytes(data)
        key = hashlib.sha256(data).hexdigest()
        self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._evict(room=len(data), keep=key)
        if len(data) > self.max_bytes:
            return key
        folder = self._folder(key)
        if self._same_bytes(folder, len(data)):  # kept already: a new name and age only
            meta = folder / f".{_META}.tmp"
            meta.write_text(json.dumps({"name": str(name), "stored": time.time()}))
            os.replace(meta, folder / _META)
            return key
        tmp = Path(tempfile.mkdtemp(dir=self.root, prefix=".tmp-"))
        try:
            (tmp / _DATA).write_bytes(data)
            (tmp / _META).write_text(json.dumps({"name": str(name), "stored": time.time()}))
            if folder.exists():
                shutil.rmtree(folder, ignore_errors=True)
            os.replace(tmp, folder)  # readers see the whole upload or none
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return key

    @staticmethod
    def _same_bytes(folder: Path, size: int) -> bool:
        """Whether ``folder`` holds a whole copy (its name is the bytes' hash)."""
        try:
            return (folder / _DATA).stat().st_size == size and (folder / _META).is_file()
        except OSError:
            return False

    def has(self, key: str) -> bool:
        """Whether an upload is kept under ``key`` (well formed, stored, not expired)."""
        if not is_key(key):
            return False
        try:
            meta = json.loads((self._folder(key) / _META).read_text())
            fresh = time.time() - float(meta["stored"]) <= self.max_age_seconds
        except (OSError, ValueError, KeyError, TypeError):
            return False
        return fresh and (self._folder(key) / _DATA).is_file()

    def get(self, key: str) -> Stored | None:
        """The upload stored under ``key``, or None (a malformed, unknown or evicted key)."""
        if not is_key(key):
            return None
        folder = self._folder(key)
        try:
            meta = json.loads((folder / _META).read_text())
            if time.time() - float(meta["stored"]) > self.max_age_seconds:
                return None
            data = (folder / _DATA).read_bytes()
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if hashlib.sha256(data).hexdigest() != key:  # a damaged copy is no copy
            return None
        return Stored(key, data, str(meta.get("name", "upload.csv")))

    def _entries(self) -> list[tuple[float, int, Path]]:
        """``(stored time, bytes, folder)`` of every upload, oldest first."""
        out = []
        for folder in self.root.iterdir() if self.root.is_dir() else ():
            if not is_key(folder.name):
                continue
            try:
                stored = float(json.loads((folder / _META).read_text())["stored"])
                size = (folder / _DATA).stat().st_size
            except (OSError, ValueError, KeyError, TypeError):
                stored, size = 0.0, 0  # damaged: evicted first
            out.append((stored, size, folder))
        return sorted(out)

    def _evict(self, room: int, keep: str) -> None:
        """Drop expired uploads, then the oldest, until ``room`` more bytes fit."""
        now = time.time()
        entries = [e for e in self._entries() if e[2].name != keep]
        total = sum(size for _, size, _ in entries)
        for stored, size, folder in entries:
            if now - stored > self.max_age_seconds or total + room > self.max_bytes:
                shutil.rmtree(folder, ignore_errors=True)
                total -= size

    def total_bytes(self) -> int:
        """The bytes all stored uploads take."""
        return sum(size for _, size, _ in self._entries())


def default_store() -> UploadStore:
    """The app's store, configured by the environment (see the module's docstring)."""
    root = os.environ.get("TERNARY_UPLOAD_DIR") or Path.home() / ".cache" / "ternary" / "uploads"
    max_mb = float(os.environ.get("TERNARY_UPLOAD_MAX_MB", "500"))
    days = float(os.environ.get("TERNARY_UPLOAD_MAX_DAYS", "7"))
    return UploadStore(root, int(max_mb * 2**20), days)
