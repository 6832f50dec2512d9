"""Zip bombs in the compression methods VASSAL never writes (issue 29).

Python's `zipfile` bounds a read's output only for deflate: a bzip2 or lzma entry is unpacked
whole on the first read, whatever size the caller asks for. The bombs here are real (made with
the real compressors, declared sizes left as the compressors wrote them) and unpack to 64 MB;
the reader must refuse them unread: a clear message, and a few MB of memory at most.
"""

from __future__ import annotations

import io
import lzma
import tracemalloc
import zipfile
import zlib

import pytest

from vassalfmt.errors import VassalFormatError
from vassalfmt.savedgame import read_saved_game
from vassalfmt.zipreader import SafeZip

BOMB_BYTES = 64 * 1024 * 1024


def bomb(method: int) -> bytes:
    """A saved game whose 'savedGame' entry is BOMB_BYTES of zeros compressed with `method`."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        with archive.open("savedGame", "w", force_zip64=True) as entry:
            block = b"\0" * (1 << 20)
            for _ in range(BOMB_BYTES >> 20):
                entry.write(block)
    return buffer.getvalue()


@pytest.fixture(scope="module")
def bombs() -> dict[str, bytes]:
    return {"bzip2": bomb(zipfile.ZIP_BZIP2), "lzma": bomb(zipfile.ZIP_LZMA)}


@pytest.mark.slow
@pytest.mark.parametrize("method", ["bzip2", "lzma"])
def test_a_bomb_in_a_method_vassal_never_writes_is_refused_unread(bombs, method):
    data = bombs[method]
    assert len(data) < 64 * 1024  # thousands of times smaller than what it unpacks to
    tracemalloc.start()
    try:
        with pytest.raises(VassalFormatError, match=f"compressed with {method}.*only stored or deflated"):
            read_saved_game(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * 1024 * 1024, f"reading the {method} bomb allocated {peak} bytes"


def test_the_methods_vassal_writes_are_read():
    for method in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", method) as archive:
            archive.writestr("savedGame", "begin_save\x1bend_save")
        assert read_saved_game(buffer.getvalue()).pieces == []


def test_an_unknown_method_number_is_named_in_the_refusal():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("savedGame", "begin_save")
    data = bytearray(buffer.getvalue())
    # the method field of the local header (offset 8) and of the central directory entry (offset 10)
    data[8:10] = (99).to_bytes(2, "little")
    central = data.rfind(b"PK\x01\x02")
    data[central + 10:central + 12] = (99).to_bytes(2, "little")
    with pytest.raises(VassalFormatError, match="method 99"):
        SafeZip(bytes(data))


def xz_with_dictionary(text: bytes, size_byte: int) -> bytes:
    """An xz stream of `text` whose header asks the decoder for a dictionary of size code
    `size_byte` (38: 2 GiB). Compressing with such a dictionary would take the encoder gigabytes
    too, so a small one is used and the block header's LZMA2 property byte patched (with the
    header's CRC32 written again)."""
    stream = bytearray(lzma.compress(text, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32))
    start = 12  # the stream header
    header_size = (stream[start] + 1) * 4
    lzma2 = stream.index(b"\x21\x01", start, start + header_size)  # filter id 0x21, one property byte
    stream[lzma2 + 2] = size_byte
    end = start + header_size - 4
    stream[end:end + 4] = zlib.crc32(stream[start:end]).to_bytes(4, "little")
    return bytes(stream)


def test_an_xz_stream_asking_for_a_huge_dictionary_is_refused():
    """The 'savedGame' text of newer engines may be xz: its decoder gets a memory limit too."""
    assert lzma.decompress(xz_with_dictionary(b"begin_save", 20)) == b"begin_save"  # the patch is sound
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("savedGame", xz_with_dictionary(b"begin_save", 38))
    with pytest.raises(VassalFormatError, match="xz"):
        read_saved_game(buffer.getvalue())
