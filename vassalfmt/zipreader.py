"""Reading zip files that come from strangers (uploaded saved games and logs).

The limits make sure that a hostile or broken upload costs bounded memory and time:

* the archive itself may be at most ``max_archive_bytes``;
* at most ``max_entries`` entries, with names that are relative and free of ``..``;
* every entry we read is decompressed in chunks and abandoned as soon as it passes
  ``max_entry_bytes`` (declared sizes in a zip can lie), and all entries read together may not
  pass ``max_total_bytes`` — a zip bomb is refused after reading at most that much;
* only the two compression methods VASSAL writes (stored and deflated; Java's
  ``ZipOutputStream`` has no others) are accepted. Python's ``zipfile`` bounds a read's output
  only for deflate: a bzip2 or lzma entry is unpacked whole on the first read, so a 1.5 KB
  bzip2 bomb took gigabytes before any limit here could look at it. Such archives are refused
  when opened, before anything is unpacked;
* encrypted entries and CRC errors are reported, not raised as random library exceptions.

Every problem is a :class:`VassalFormatError` with a sentence a user can understand; one of size
(the archive, an entry or all of them unpacked over their limit) is a :class:`VassalLimitError`:
the file may be a real game's, too large here.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from dataclasses import dataclass

from .errors import VassalFormatError, VassalLimitError

try:  # lzma is optional in some Python builds
    import lzma
    _LZMA_ERRORS: tuple[type[BaseException], ...] = (lzma.LZMAError,)
except ImportError:  # pragma: no cover
    _LZMA_ERRORS = ()

_CHUNK = 64 * 1024

#: The compression methods VASSAL writes; `zipfile` bounds the output of reads only for these.
_ACCEPTED_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflated"}
_METHOD_NAMES = {zipfile.ZIP_BZIP2: "bzip2", zipfile.ZIP_LZMA: "lzma", 9: "deflate64", 93: "zstandard"}


@dataclass(frozen=True)
class ZipLimits:
    max_archive_bytes: int = 32 * 1024 * 1024
    max_entries: int = 200
    max_entry_bytes: int = 64 * 1024 * 1024
    max_total_bytes: int = 128 * 1024 * 1024


DEFAULT_LIMITS = ZipLimits()

_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError,
               NotImplementedError, RuntimeError, ValueError, KeyError, *_LZMA_ERRORS)


def _check_name(name: str) -> None:
    cleaned = name.replace("\\", "/")
    if (not name or cleaned.startswith("/") or "\0" in name or
            (len(cleaned) > 1 and cleaned[1] == ":") or
            any(part == ".." for part in cleaned.split("/"))):
        raise VassalFormatError(f"the archive contains an unsafe entry name {name!r}")


class SafeZip:
    """A zip opened under :class:`ZipLimits`. Use as a context manager or call ``close()``."""

    def __init__(self, source: bytes | str, limits: ZipLimits = DEFAULT_LIMITS,
                 what: str = "file"):
        self.limits = limits
        self.what = what
        self._read_total = 0
        data = self._load(source)
        if not data.startswith(b"PK"):
            raise VassalFormatError(f"the {what} is not a zip archive (VASSAL files are zips)")
        try:
            self._zip = zipfile.ZipFile(io.BytesIO(data))
            infos = self._zip.infolist()
        except _ZIP_ERRORS as exc:
            raise VassalFormatError(f"the {what} is a damaged zip archive ({exc})") from None
        if len(infos) > limits.max_entries:
            raise VassalFormatError(
                f"the {what} has {len(infos)} entries; at most {limits.max_entries} are accepted")
        seen = set()
        for info in infos:
            _check_name(info.filename)
            if info.filename in seen:
                raise VassalFormatError(f"the {what} has the entry {info.filename!r} twice")
            seen.add(info.filename)
            self._check_method(info)
        self._infos = {info.filename: info for info in infos}

    def _check_method(self, info: zipfile.ZipInfo) -> None:
        if info.compress_type in _ACCEPTED_METHODS:
            return
        method = _METHOD_NAMES.get(info.compress_type, f"method {info.compress_type}")
        raise VassalFormatError(
            f"the {self.what}'s {info.filename!r} entry is compressed with {method}; VASSAL writes "
            "only stored or deflated entries, so the file is refused unread")

    def _load(self, source: bytes | str) -> bytes:
        limit = self.limits.max_archive_bytes
        if isinstance(source, (bytes, bytearray, memoryview)):
            data = bytes(source)
        else:
            try:
                with open(source, "rb") as handle:
                    data = handle.read(limit + 1)
            except OSError as exc:
                raise VassalFormatError(f"cannot read the {self.what}: {exc.strerror}") from None
        if len(data) > limit:
            raise VassalLimitError(
                f"the {self.what} is larger than {limit // (1024 * 1024)} MB and is refused")
        return data

    def names(self) -> list[str]:
        return list(self._infos)

    def has(self, name: str) -> bool:
        return name in self._infos

    def read(self, name: str) -> bytes:
        """Decompress one entry under the per-entry and total limits."""
        info = self._infos.get(name)
        if info is None:
            raise VassalFormatError(f"the {self.what} has no {name!r} entry")
        if info.flag_bits & 0x1:
            raise VassalFormatError(f"the {self.what}'s {name!r} entry is encrypted")
        entry_limit = self.limits.max_entry_bytes
        total_left = self.limits.max_total_bytes - self._read_total
        if info.file_size > entry_limit or info.file_size > total_left:
            raise VassalLimitError(
                f"the {self.what}'s {name!r} entry is too large when unpacked "
                f"({info.file_size} bytes); refused")
        out = bytearray()
        try:
            with self._zip.open(info) as stream:
                while True:
                    chunk = stream.read(_CHUNK)
                    if not chunk:
                        break
                    out += chunk
                    if len(out) > entry_limit or len(out) > total_left:
                        raise VassalLimitError(
                            f"the {self.what}'s {name!r} entry unpacks to more than allowed; "
                            "refused (possible zip bomb)")
        except VassalFormatError:
            raise
        except _ZIP_ERRORS as exc:
            raise VassalFormatError(
                f"the {self.what}'s {name!r} entry cannot be unpacked ({exc})") from None
        self._read_total += len(out)
        return bytes(out)

    def close(self) -> None:
        self._zip.close()

    def __enter__(self) -> SafeZip:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
