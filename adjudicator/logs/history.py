"""The game's positions as a history: where each ruling was asked, where each file begins, and a
rewind over a ruling that was then asked again.

VASSAL lets a player go back: load a save taken before a ruling (File > Save Game As in the middle
of a log, or an autosave), or Undo back over it, and ask again. The ledger keeps both rulings; the
files show where the game stood. From the files sent (each file's opening state and every command
in it, read as `adjudicator.logs.board` reads them: each unit's step and the hex or box it is in),
a file's history is the list of positions its board stood at, in order (`Moment`), and the
position each of its rulings was asked at. A position is a digest of every unit as it stands and of
the turn trackers' states (the game turn and phase: the same units a turn later are another
position), the digests of each combined, so following a log costs one digest per event.

Each moment knows the last ruling made before the board stood so (`began_after`) and the last
ruling after which it still stood so (`seen_after`): a ruling asked there that changed nothing the
asker applies (a "no effect", a supply report) leaves the position as it was; one whose changes
the file shows applied (a step lost, a unit eliminated, a move) makes the position it was asked at
a position *before* it. A ruling Q asked at a position P is a **rewind** when the files sent before
it, or its own file before the moment it came to P, show P last before a ruling R that was then
made (R shown in a file): the file began from P (a save reloaded, an autosave) or returned to it
(VASSAL's Undo, or the pieces put back by hand) and asked again. Q is named a re-roll of R.

What positions cannot see, said so:

* a ruling that changed nothing leaves the position as it was, so a file begun from just before it
  is a file begun from just after it. The ledger's own "asked again" notice closes part of that
  gap: Q the same situation as R, asked at the same position in another file (or after the board
  left that position and came back), with no ruling between them, both rolling dice, is a re-roll
  of R too. Another ruling asked between them (the game went on), or none of them rolling dice
  (asking again gives the same answer), is not named;
* a ruling whose changes the file does not show applied is named not applied; it does not make
  its position "before" it (that file's fault is named once);
* only the files sent are a history: a rewind over a ruling of a file not sent is not seen (send
  the game's logs in order), and a change only the opponent can make (his hidden block) is his
  file's, not the asker's position.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from adjudicator.logs.board import LogEvent, Shown

#: A ruling asked at a position that comes back to it with a move in between rewinds it.
BEGINS, RETURNS, SAME_AGAIN = "begins", "returns", "same-again"


def unit_digest(unit: str, shown: Shown) -> int:
    """One unit as it stands, as a 128-bit number (combined by XOR into a position)."""
    text = "\x1f".join((unit, shown.step, shown.map, shown.hex, shown.box, "1" if shown.deleted else "0"))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=16).digest(), "big")


def position_digest(units: dict[str, Shown]) -> int:
    out = 0
    for unit, shown in units.items():
        out ^= unit_digest(unit, shown)
    return out


@dataclass
class Moment:
    """A position the file's board stood at, from one piece event to the next that changed it."""

    digest: int
    began_after: int | None  # the last ruling of the file before it (None: before the file's first)
    seen_after: int | None  # the last ruling after which the board still stood so


@dataclass(frozen=True)
class Asked:
    """A ruling the file shows, and the moment (its index) it was asked in."""

    seq: int
    moment: int


@dataclass
class FileHistory:
    moments: list[Moment] = field(default_factory=list)
    asked: list[Asked] = field(default_factory=list)
    #: Each ruling's board as it was asked (unit -> how it stands): what a rewind is judged on.
    units_at: dict[int, dict[str, Shown]] = field(default_factory=dict, repr=False)


def file_history(start: dict[str, Shown], events: list[LogEvent], rulings: list[tuple[int, int, bool]]
                 ) -> FileHistory:
    """The positions a file stood at, from its opening state through its piece events, and the
    moment each of its `rulings` was asked in: (seq, index of its first line in `events`, whether
    the file shows changes of it applied by the asker)."""
    units = dict(start)
    digest = position_digest(units)
    history = FileHistory([Moment(digest, None, None)])
    at = {index: (seq, changed) for seq, index, changed in rulings}
    last: int | None = None
    turns: dict[str, str] = {}  # tracker -> its state
    opening = True  # the file's opening state: its turn trackers' states are part of where it begins
    for index, event in enumerate(events):
        if index in at:
            seq, changed = at[index]
            history.asked.append(Asked(seq, len(history.moments) - 1))
            history.units_at[seq] = dict(units)
            if not changed:
                history.moments[-1].seen_after = seq
            last = seq
        if event.turn is not None:
            tracker, _, state = event.turn.partition("\t")
            if tracker in turns:
                digest ^= unit_digest(f"\x1eturn {tracker}", Shown(turns[tracker]))
            turns[tracker] = state
            digest ^= unit_digest(f"\x1eturn {tracker}", Shown(state))
            if opening:
                history.moments[0].digest = digest
            elif digest != history.moments[-1].digest:
                history.moments.append(Moment(digest, last, last))
            continue
        opening = False
        if event.piece is None:
            continue
        was = units.get(event.piece.unit)
        if was == event.piece.shown:
            continue
        if was is not None:
            digest ^= unit_digest(event.piece.unit, was)
        digest ^= unit_digest(event.piece.unit, event.piece.shown)
        units[event.piece.unit] = event.piece.shown
        if digest != history.moments[-1].digest:
            history.moments.append(Moment(digest, last, last))
    return history


@dataclass(frozen=True)
class Rewind:
    """Ruling `seq` of file `file` (0-based) asked after the game was taken back over `rewound`."""

    seq: int
    file: int
    rewound: tuple[int, ...]
    how: str  # BEGINS: the file began there; RETURNS: it came back there; SAME_AGAIN: the same situation


def find_rewinds(histories: list[FileHistory | None], records: dict[int, dict[str, Any]]) -> list[Rewind]:
    """Every ruling the files show that was asked after the game went back over a ruling made
    (module docstring), the files in the order sent."""
    found: list[Rewind] = []
    earlier: dict[int, list[int]] = {}  # digest -> seen_after of the moments of the files before
    shown_before: dict[int, int] = {}  # seq -> file showing it (the files before)
    asked_at: dict[int, tuple[int, int, int]] = {}  # seq -> (file, moment, digest)
    for number, history in enumerate(histories):
        if history is None:
            continue
        first = min((a.seq for a in history.asked), default=None)
        base = max((s for s in shown_before if first is None or s < first), default=0)
        own: dict[int, list[int]] = {}  # digest -> this file's moments (indexes) so far
        by_moment: dict[int, list[int]] = {}
        for asked in history.asked:
            by_moment.setdefault(asked.moment, []).append(asked.seq)
        asked_here: list[tuple[int, int]] = []  # (seq, moment) of this file so far
        for index, moment in enumerate(history.moments):
            for seq in by_moment.get(index, ()):
                rewind = _rewind_of(seq, number, index, moment.digest, history, base, earlier, own, shown_before,
                                    asked_here, asked_at, records)
                if rewind is not None:
                    found.append(rewind)
                asked_here.append((seq, index))
                asked_at.setdefault(seq, (number, index, moment.digest))
            own.setdefault(moment.digest, []).append(index)
        for moment in history.moments:
            earlier.setdefault(moment.digest, []).append(_seen(moment, base))
        for seq, _ in asked_here:
            shown_before.setdefault(seq, number)
    return found


def _seen(moment: Moment, base: int) -> int:
    return base if moment.seen_after is None else moment.seen_after


def _rewind_of(seq: int, number: int, index: int, digest: int, history: FileHistory, base: int,
               earlier: dict[int, list[int]], own: dict[int, list[int]], shown_before: dict[int, int],
               asked_here: list[tuple[int, int]], asked_at: dict[int, tuple[int, int, int]],
               records: dict[int, dict[str, Any]]) -> Rewind | None:
    """Whether ruling `seq`, asked in moment `index` of file `number`, rewinds rulings made."""
    how = BEGINS if index == 0 else RETURNS
    seen = list(earlier.get(digest, ())) + [_seen(history.moments[k], base) for k in own.get(digest, ()) if k < index]
    if seen:
        best = max(min(s, seq - 1) for s in seen)
        rewound: tuple[int, ...] = ()
        if best < seq - 1:  # rulings may have been made since the board last stood so
            made = set(shown_before) | {s for s, at in asked_here if at < index}
            rewound = tuple(sorted(s for s in made if best < s < seq))
        if rewound:
            start = earlier.get(history.moments[0].digest, ())
            if start and max(min(s, seq - 1) for s in start) < rewound[0]:
                how = BEGINS  # the file began before them, and came to this position again
            return Rewind(seq, number, rewound, how)
    again = _repeat_of(records.get(seq))
    if again is None or again not in asked_at or (asked_at[again][0], asked_at[again][1]) == (number, index):
        return None
    if asked_at[again][2] != digest or not _rolls(records.get(again)) or not _rolls(records.get(seq)):
        return None
    between = set(shown_before) | {s for s, _ in asked_here}
    if any(again < s < seq for s in between):
        return None
    return Rewind(seq, number, (again,), SAME_AGAIN)


def _repeat_of(record: dict[str, Any] | None) -> int | None:
    """The record a ruling's "asked again" notice names (adjudicator.ledger.board), if any."""
    if record is None:
        return None
    for notice in (record["body"].get("result") or {}).get("notices") or []:
        if isinstance(notice, dict) and notice.get("kind") == "repeat" and isinstance(notice.get("record"), int):
            return notice["record"]
    return None


def _rolls(record: dict[str, Any] | None) -> bool:
    return record is not None and bool((record["body"].get("result") or {}).get("dice_used"))
