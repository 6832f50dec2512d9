"""Byte-reproducible zip files (``.vmod``, ``.vsav``), written atomically.

Two builds of the same content must give identical bytes, so every entry gets the same fixed
timestamp, permissions and "made on Unix" marker, entries are written in sorted name order, and
compression is chosen by file kind: already-compressed images and nested zips are *stored*,
text (XML, HTML, the saved-game stream) is *deflated* at a fixed level.

Writing goes to a temporary file in the target directory that is renamed over the target only
after it is complete, so a failed build never leaves a half-written file behind.
"""

from __future__ import annotations

import io
import os
import tempfile
import zipfile
from collections.abc import Mapping
from pathlib import Path

#: 1980-01-01 00:00:00, the earliest time a zip can hold.
FIXED_DATE_TIME = (1980, 1, 1, 0, 0, 0)
FILE_MODE = 0o644
DEFLATE_LEVEL = 6

#: Entries with these endings are stored as they are (compressing them again gains nothing).
STORED_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".zip", ".vsav", ".vlog", ".vmod", ".mp3",
                   ".ogg", ".pdf")


def check_entry_name(name: str) -> None:
    """Refuse names a zip should not contain: absolute, ``..``, backslashes, empty parts."""
    if not name or name.startswith("/") or "\\" in name or "\0" in name:
        raise ValueError(f"bad zip entry name {name!r}")
    parts = name.split("/")
    if any(part in ("", ".", "..") for part in parts):
        raise ValueError(f"bad zip entry name {name!r}")


def _is_stored(name: str) -> bool:
    return name.lower().endswith(STORED_SUFFIXES)


def build_zip(entries: Mapping[str, bytes]) -> bytes:
    """The zip file bytes for ``{name: content}``; same input, same bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(entries):
            check_entry_name(name)
            info = zipfile.ZipInfo(name, date_time=FIXED_DATE_TIME)
            info.create_system = 3  # Unix, so external_attr means permission bits everywhere
            info.external_attr = (0o100000 | FILE_MODE) << 16
            if _is_stored(name):
                info.compress_type = zipfile.ZIP_STORED
                archive.writestr(info, entries[name])
            else:
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, entries[name], compresslevel=DEFLATE_LEVEL)
    return buffer.getvalue()


def write_atomic(path: str | os.PathLike, data: bytes) -> Path:
    """Write ``data`` to ``path`` via a temporary file and a rename (never half-written)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, FILE_MODE)
        os.replace(tmp_name, target)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise
    return target


def write_zip(path: str | os.PathLike, entries: Mapping[str, bytes]) -> Path:
    """Build the zip in memory and write it atomically to ``path``."""
    return write_atomic(path, build_zip(entries))
