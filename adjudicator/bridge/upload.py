"""Reading an uploaded saved game or log: size limits first, then :func:`vassalfmt.read_saved_game`.

Uploads come from strangers. :mod:`vassalfmt.zipreader` already refuses path traversal,
too many entries, zip bombs (decompression is abandoned past the limit; methods VASSAL never
writes are refused unread), encryption and damaged archives, and :mod:`vassalfmt.moduledata`
parses XML without DTDs or entities. Here we choose the limits for saved games (far above any
real game, far below what could hurt the server) and make sure *any* failure while reading is
a 4xx :class:`BridgeError` (or a 503 when the server could not read it in time):

- the zip: `SAVEDGAME_LIMITS` (16 MB upload, 48 MB unpacked stream);
- the work: `SAVEDGAME_WORK` bounds pieces, commands and moves (413 ``savedgame-too-large``)
  and the time reading may take (`UPLOAD_SECONDS`; 503 ``savedgame-too-slow`` with
  Retry-After: within the counts a file reads in a fraction of that on an idle core, so running
  out of time means a busy server, and the answer says to come back);
- `MAX_PARALLEL_READS` uploads are read at once per worker process; the next waits for a slot
  within its own time budget (503 ``server-busy`` if none frees). Reading is CPU work: two
  hostile uploads at once must not take every core from the rolls.
- a request that reads several files (a chain of logs checked or replayed) has one `Budget` of
  `REQUEST_SECONDS` for all of them and the work on them, however many there are: each file is
  read within what is left, and the work after reading looks at it between steps (503
  ``request-too-slow``, saying to send fewer files at once).

A file refused for its size says what a player can do about it (`TOO_LARGE_HINT`): a log keeps
every move since it began, so one begun each turn stays small.

A ``VassalFormatError`` says what is wrong (422); anything else the reader trips over on a
hostile file is logged and reported as unreadable, never as a server error.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field, replace

from adjudicator.bridge.errors import BridgeError
from adjudicator.greenlets import greenlet_pause
from vassalfmt import (
    SavedGame,
    VassalFormatError,
    VassalLimitError,
    VassalTimeLimit,
    WorkLimits,
    ZipLimits,
    read_saved_game,
)

log = logging.getLogger(__name__)

#: The largest upload accepted, in bytes. Our setups are ~10 KB; a long log a few MB.
MAX_UPLOAD_BYTES = 16 * 1024 * 1024

SAVEDGAME_LIMITS = ZipLimits(
    max_archive_bytes=MAX_UPLOAD_BYTES,
    max_entries=64,  # savedGame, savedata, moduledata (+ whatever newer engines add)
    max_entry_bytes=48 * 1024 * 1024,  # the obfuscated stream is hex: twice the text
    max_total_bytes=64 * 1024 * 1024,
)

#: Seconds one upload may take to be read (waiting for a slot included).
UPLOAD_SECONDS = 10.0
#: Seconds one request may spend on all its files together: reading them and the work on them
#: (a chain's log check, a replay's build), whatever their number.
REQUEST_SECONDS = 20.0
#: What a player whose file is too large can do.
TOO_LARGE_HINT = ("A log keeps every move since it began: end the log and begin a new one each turn "
                  "(VASSAL: File > End Logfile, then File > Begin Logfile) and send each turn's log; "
                  "check or replay a long game a few files at a time.")

#: The most commands one log (or saved game) may hold, the setup's included, on every path that
#: reads one: the saved-game pages, the log check and the replay (a replay of several files holds
#: at most this many together). One bound, said in every refusal; a turn's log is a few thousand.
MAX_LOG_COMMANDS = 50_000

#: The four games have at most a few hundred counters and markers; a campaign's log some tens of
#: thousands of moves. docs/performance.md ("Hostile uploads") has the time a file at these
#: bounds takes to read.
SAVEDGAME_WORK = WorkLimits(
    max_commands=MAX_LOG_COMMANDS,
    max_pieces=20_000,
    max_moves=100_000,
    seconds=UPLOAD_SECONDS,
)

#: Uploads read at the same time in one process (the others wait for a slot).
MAX_PARALLEL_READS = 1
RETRY_AFTER_SECONDS = 30

_read_slots = threading.BoundedSemaphore(MAX_PARALLEL_READS)


@dataclass
class Budget:
    """The time one request may spend on uploaded files: reading each of them, and the work on
    them after, draw from it."""

    seconds: float = REQUEST_SECONDS
    started: float = field(default_factory=lambda: time.monotonic())
    #: Work done beside the requests (a background job, `adjudicator.logs.background`): it runs in a
    #: thread of its own, so it neither yields to the worker's greenlets nor takes a read slot (the
    #: jobs' own bounds hold it).
    beside_requests: bool = False

    def left(self) -> float:
        return max(0.0, self.seconds - (time.monotonic() - self.started))

    def check(self, doing: str) -> None:
        """503 once the budget is spent (`doing`: what was under way, in words); else let the other
        requests of a gevent worker run a moment (long work must not hold them all)."""
        if self.left() <= 0:
            raise BridgeError(503, "Too much work for one request",
                              f"{doing[:1].upper()}{doing[1:]} took longer than the {self.seconds:g} s one request "
                              f"may take. Send fewer files at once (the chain's last few files), or try again in "
                              f"{RETRY_AFTER_SECONDS} s if the server is busy. {TOO_LARGE_HINT}", "request-too-slow",
                              headers={"Retry-After": str(RETRY_AFTER_SECONDS)})
        pause = None if self.beside_requests else greenlet_pause()
        if pause is not None:
            pause()


def read_upload(data: bytes, limits: ZipLimits = SAVEDGAME_LIMITS,
                work: WorkLimits | None = None, budget: Budget | None = None,
                keep_commands: bool = False) -> SavedGame:
    """The saved game in `data`, or BridgeError (400 empty, 413 too large, 422 unreadable,
    503 not read in time). `work` defaults to `SAVEDGAME_WORK`; with a request's `budget`, the file
    is read within what is left of it (and within its own `UPLOAD_SECONDS`). `keep_commands` keeps
    its parsed commands for a reader that steps through the log next (the replay, the log check:
    `vassalfmt.WorkLimits.keep_commands`); a file kept for later views keeps none."""
    work = work or SAVEDGAME_WORK
    if budget is not None:
        budget.check("reading the files")
        # work beside the requests reads within its own (longer) budget: no player waits on it
        work = replace(work, seconds=budget.left() if budget.beside_requests
                       else min(work.seconds or budget.seconds, budget.left()))
    if not data:
        raise BridgeError(400, "No saved game",
                          "The request carried no file. Upload a .vsav or .vlog as the multipart "
                          "field 'file' or as the raw request body.", "no-savedgame")
    if len(data) > limits.max_archive_bytes:
        raise BridgeError(413, "Saved game too large",
                          f"The file has {len(data)} bytes; at most {limits.max_archive_bytes} "
                          f"are accepted. {TOO_LARGE_HINT}", "savedgame-too-large")
    started = time.monotonic()
    beside = budget is not None and budget.beside_requests
    if work.pause is None:
        work = replace(work, pause=_no_pause if beside else greenlet_pause())
    if not beside and not _read_slots.acquire(timeout=work.seconds):
        raise busy(f"Other saved games were being read for {work.seconds:g} s.", "server-busy")
    try:
        if work.seconds is not None:
            work = replace(work, seconds=max(0.0, work.seconds - (time.monotonic() - started)))
        return _read(data, limits, replace(work, keep_commands=True) if keep_commands else work)
    except BridgeError as error:
        if budget is not None and error.kind == "savedgame-too-slow":
            budget.check("reading the files")  # the request's budget ran out: say that, not a slow file
        raise
    finally:
        if not beside:
            _read_slots.release()


def _no_pause() -> None:
    """No yield: work beside the requests has a thread of its own."""


def busy(detail: str, kind: str) -> BridgeError:
    return BridgeError(503, "Saved game not read in time",
                       f"{detail} The server is busy: try again in {RETRY_AFTER_SECONDS} s.", kind,
                       headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


def _read(data: bytes, limits: ZipLimits, work: WorkLimits) -> SavedGame:
    try:
        return read_saved_game(data, limits, work=work)
    except VassalTimeLimit as error:
        raise busy(f"Reading it took longer than {UPLOAD_SECONDS:g} s ({error}).", "savedgame-too-slow") from None
    except VassalLimitError as error:
        raise BridgeError(413, "Saved game too large",
                          f"{str(error)[0].upper()}{str(error)[1:]}: a saved game may hold at most "
                          f"{work.max_pieces} pieces, {work.max_commands} commands and {work.max_moves} moves, "
                          f"{limits.max_total_bytes // (1024 * 1024)} MB unpacked. {TOO_LARGE_HINT}",
                          "savedgame-too-large") from None
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
