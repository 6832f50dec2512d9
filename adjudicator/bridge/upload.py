"""Reading an uploaded saved game or log: size limits first, then :func:`vassalfmt.read_saved_game`.

Uploads come from strangers. :mod:`vassalfmt.zipreader` already refuses path traversal,
too many entries, zip bombs (decompression is abandoned past the limit), encryption and
damaged archives, and :mod:`vassalfmt.moduledata` parses XML without DTDs or entities. Here we
choose the limits for saved games (far above any real game, far below what could hurt the
server) and make sure *any* failure while reading is a 4xx :class:`BridgeError`: a
``VassalFormatError`` says what is wrong; anything else the reader trips over on a hostile
file is logged and reported as unreadable, never as a server error.
"""

from __future__ import annotations

import logging

from adjudicator.bridge.errors import BridgeError
from vassalfmt import SavedGame, VassalFormatError, ZipLimits, read_saved_game

log = logging.getLogger(__name__)

#: The largest upload accepted, in bytes. Our setups are ~10 KB; a long log a few MB.
MAX_UPLOAD_BYTES = 16 * 1024 * 1024

SAVEDGAME_LIMITS = ZipLimits(
    max_archive_bytes=MAX_UPLOAD_BYTES,
    max_entries=64,  # savedGame, savedata, moduledata (+ whatever newer engines add)
    max_entry_bytes=48 * 1024 * 1024,  # the obfuscated stream is hex: twice the text
    max_total_bytes=64 * 1024 * 1024,
)


def read_upload(data: bytes, limits: ZipLimits = SAVEDGAME_LIMITS) -> SavedGame:
    """The saved game in `data`, or BridgeError (400 empty, 413 too large, 422 unreadable)."""
    if not data:
        raise BridgeError(400, "No saved game",
                          "The request carried no file. Upload a .vsav or .vlog as the multipart "
                          "field 'file' or as the raw request body.", "no-savedgame")
    if len(data) > limits.max_archive_bytes:
        raise BridgeError(413, "Saved game too large",
                          f"The file has {len(data)} bytes; at most {limits.max_archive_bytes} "
                          "are accepted.", "savedgame-too-large")
    try:
        return read_saved_game(data, limits)
    except VassalFormatError as error:
        raise BridgeError(422, "The saved game cannot be read", str(error),
                          "bad-savedgame") from None
    except (MemoryError, RecursionError):
        raise BridgeError(422, "The saved game cannot be read",
                          "The file is too complex to read within the server's limits.",
                          "bad-savedgame") from None
    except Exception:  # noqa: BLE001 - a hostile file must never become a 500
        log.exception("unexpected failure reading an uploaded saved game")
        raise BridgeError(422, "The saved game cannot be read",
                          "The file is not a VASSAL saved game or log this service can read.",
                          "bad-savedgame") from None
