"""The session line: the chat line a log begins with when the Adjudicator extension keeps it.

    [ADJ session k3f9x2] log of game G, file 3, played by un, begun at position 9a1b…, after k1a2b3 k2c4d5

It says which log session the file is, of which recorded game, which side played it ("played by"
is left out where the side is not known), the digest of the position it began from, the live
session it was kept in (live play: "…, begun at position 9a1b…, live session m4n5p6, after …"; a
log begun before the game went live says so in a second line of the same session when it does),
and the sessions (files) before it, oldest first ("after the setup" for none). Only the extension
writes it (`LogSessions.line`, Java); this module is its one specification: `parse_session_line`
reads it, and tests/test_extension_java.py runs the extension's writer and reads its lines back
here. The log check reads the chain of files with it
(`adjudicator.logs.sessions`, `adjudicator.logs.check`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SESSION_TAG = "[ADJ session "
#: A log session's id, as the API takes it (`adjudicator.checks.SESSION_ID_PATTERN`): at most 64.
SESSION_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: The most sessions a line may name before its own (the API's `file` bound).
MAX_CHAIN_SESSIONS = 100_000
_SESSION_RE = re.compile(r"\[ADJ session (?P<id>[A-Za-z0-9_-]{1,64})\]")
_LONG_SESSION_RE = re.compile(r"\[ADJ session ([A-Za-z0-9_-]{65,})\]")
_SESSION_FIELDS = {
    "game": re.compile(r"\bgame (?P<v>[A-Za-z0-9_-]{1,64})"),
    "file": re.compile(r"\bfile (?P<v>\d{1,6})"),
    "side": re.compile(r", played by (?P<v>[a-z][a-z0-9_]{0,31})(?=,|$)"),
    "start": re.compile(r"\bposition (?P<v>[0-9a-f]{16,64})"),
    "live": re.compile(r", live session (?P<v>[A-Za-z0-9_-]{1,64})(?=,|$)"),
    "after": re.compile(r"\bafter (?P<v>[A-Za-z0-9_ -]*)$"),
}


@dataclass(frozen=True)
class SessionLine:
    """The line a log begins with when the Adjudicator extension keeps it: which log session this
    file is, of which game, and the sessions (files) before it, oldest first."""

    id: str
    game_id: str | None = None
    file: int | None = None
    start: str | None = None
    chain: tuple[str, ...] = ()
    side: str | None = None  # the side that played the file (lines before sides were named: None)
    #: The live session the log was kept in (players at one board in a VASSAL server room; every
    #: player's log of it names the same id), None for a log kept alone (play by e-mail).
    live: str | None = None

    @property
    def parent(self) -> str | None:
        return self.chain[-1] if self.chain else None


class SessionLineError(ValueError):
    """A session line naming sessions outside the documented bounds (ids of 1 to 64 of
    A-Za-z0-9_-, at most `MAX_CHAIN_SESSIONS` before it): no line the extension writes."""


def parse_session_line(text: str) -> SessionLine | None:
    """The session line `text` is, None when it is none; SessionLineError for one out of bounds."""
    found = _SESSION_RE.search(text)
    if not found:
        if (long := _LONG_SESSION_RE.search(text)) is not None:
            raise SessionLineError(f"A line names log session {long.group(1)[:24]}… of {len(long.group(1))} "
                                   "characters: ids are at most 64. No line the Adjudicator extension writes.")
        return None
    rest = text[found.end():]
    values = {name: (m.group("v") if (m := pattern.search(rest)) else None) for name, pattern in _SESSION_FIELDS.items()}
    chain = tuple(values["after"].split()) if values["after"] and values["after"].strip() != "the setup" else ()
    chain = tuple(c for c in chain if c not in ("the", "setup"))
    longest = max(chain, key=len, default="")
    if len(chain) > MAX_CHAIN_SESSIONS or (longest and not SESSION_ID_RE.fullmatch(longest)):
        raise SessionLineError(f"Log session {found.group('id')}'s line names {len(chain)} earlier sessions, the longest "
                               f"id of {len(longest)} characters: ids are at most 64, and at most "
                               f"{MAX_CHAIN_SESSIONS} sessions come before one. No line the Adjudicator extension writes.")
    return SessionLine(found.group("id"), values["game"], int(values["file"]) if values["file"] else None,
                       values["start"], chain, values["side"], values["live"])
