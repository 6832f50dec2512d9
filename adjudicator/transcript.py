"""A ruling as chat lines: what VASSAL shows, logs and sends to the opponent.

The Adjudicator extension inside every module posts these lines to VASSAL's chat, and the
players' pages write them into a `.vlog` that continues an uploaded game; both take them from
the service (`?transcript=1` on a check), so a ruling reads the same wherever it was asked and
the text is composed in one place. Every line starts with a tag naming the ruling,

    [ADJ <game id>#<seq>]   a recorded ruling: record <seq> of the game's ledger
    [ADJ compute]           a calculation with the players' own dice; nothing recorded

so a log can be read back (`parse_transcript`) and each recorded ruling checked against the
ledger: the lines `chat_lines` renders from the ledger record must be the lines in the log,
except the `verify:` line, whose address depends on the server name the players used.

Lines are plain text, one per outcome field, die group, step and warning, without control
characters (a VASSAL command string cannot carry newlines or ESC). Object keys are rendered in
sorted order at every level: the ledger stores results as canonical JSON (sorted keys), and a
ruling must read the same from the live response and from the ledger.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from adjudicator.checks import side_label

COMPUTE_TAG = "[ADJ compute]"
HASH_PREFIX_LENGTH = 16

_TAG_RE = re.compile(r"\[ADJ (?:compute|(?P<game>[A-Za-z0-9_-]{1,64})#(?P<seq>\d{1,9}))\] ?")
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]+")
_SPACES_RE = re.compile(r" {2,}")
_VERIFY_PREFIX = "verify: "
_RECEIPT_PREFIX = "receipt: "
_NOT_RECORDED = "not recorded: "


def tag_for(result: dict[str, Any]) -> str:
    """The tag of a check response: recorded (game mode) or compute."""
    if result.get("game_id") and result.get("seq") is not None:
        return f"[ADJ {result['game_id']}#{result['seq']}]"
    return COMPUTE_TAG


def chat_lines(result: dict[str, Any], *, system_name: str = "", verify_url: str = "") -> list[str]:
    """The ruling of a check response (compute or game mode) as tagged chat lines."""
    tag = tag_for(result)
    who = f" for {side_label(result['side'])}" if result.get("side") else ""
    title = system_name or result.get("system", "")
    rule = f" ({result['rule']})" if result.get("rule") else ""
    body = [f"{title}: {_words(result.get('check', ''))}{rule}{who}"]
    outcome = result.get("outcome") or {}
    body += [f"= {_words(key)}: {readable(outcome[key])}" for key in sorted(outcome) if not _empty(outcome[key])]
    dice = dice_text(result.get("dice_used") or [])
    if dice:
        body.append(f"dice: {dice}")
    for number, step in enumerate(result.get("steps") or [], start=1):
        rule = f" [{step['rule']}]" if step.get("rule") else ""
        body.append(f"{number}. {step.get('text', '')}{rule}")
    body += [f"warning: {warning}" for warning in result.get("warnings") or []]
    if tag != COMPUTE_TAG:
        receipt = result.get("receipt") or {}
        signed = f" signed {receipt['kid']}" if isinstance(receipt, dict) and receipt.get("kid") else ""
        body.append(f"{_RECEIPT_PREFIX}record {result['seq']} hash {str(result.get('hash', ''))[:HASH_PREFIX_LENGTH]}"
                    f"{signed}")
        if verify_url:
            body.append(f"{_VERIFY_PREFIX}{verify_url}")
    else:
        body.append(f"{_NOT_RECORDED}computed from the players' own dice")
    return [f"{tag} {_clean(line)}" for line in body]


def dice_text(dice: list[dict[str, Any]]) -> str:
    """Dice grouped by purpose, in the order rolled: "attacker combat dice d6 5 6 2; ..."."""
    groups: list[tuple[str, int, list[int]]] = []
    for die in dice:
        purpose, sides = die.get("purpose", ""), die.get("sides", 0)
        if groups and groups[-1][0] == purpose and groups[-1][1] == sides:
            groups[-1][2].append(die.get("value"))
        else:
            groups.append((purpose, sides, [die.get("value")]))
    return "; ".join(f"{purpose} d{sides} " + " ".join(str(v) for v in values) if purpose
                     else f"d{sides} " + " ".join(str(v) for v in values)
                     for purpose, sides, values in groups)


def readable(value: Any) -> str:
    """A nested JSON value as one line a player reads: no braces, no quotes, no Python reprs."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, dict) and isinstance(value.get("hidden"), str):  # fog of war (adjudicator.fog)
        where = f" at {value['hex']}" if value.get("hex") else ""
        return f"a hidden {side_label(value['side'])} unit{where}" if value.get("side") else "hidden"
    if isinstance(value, str) and value.startswith("hidden:"):
        return "hidden"
    if isinstance(value, dict):
        lead = value.get("unit") or value.get("id")
        parts = [f"{_words(k)} {readable(value[k])}" for k in sorted(value)
                 if not _empty(value[k]) and not (lead and k in ("unit", "id"))]
        inner = ", ".join(parts)
        if lead:
            return f"{lead} ({inner})" if inner else str(lead)
        return inner or "-"
    if isinstance(value, (list, tuple)):
        if not value:
            return "none"
        return "; ".join(readable(item) for item in value)
    return str(value)


@dataclass
class TranscriptEntry:
    """One ruling found in a log: its tag's game and record (None for compute) and its lines."""

    game_id: str | None
    seq: int | None
    lines: list[str] = field(default_factory=list)
    #: Where the ruling stands among the texts it was read from: its first and last text's index.
    first: int = 0
    last: int = 0

    @property
    def recorded(self) -> bool:
        return self.game_id is not None

    @property
    def hash_prefix(self) -> str:
        for line in self.lines:
            found = re.match(r"receipt: record \d+ hash ([0-9a-f]+)", line)
            if found:
                return found.group(1)
        return ""

    def comparable(self) -> list[str]:
        """The lines that must equal the ledger's rendering (everything but the verify address)."""
        return [line for line in self.lines if not line.startswith(_VERIFY_PREFIX)]


def parse_transcript(texts: Iterable[str]) -> list[TranscriptEntry]:
    """The rulings in chat texts, in order; consecutive lines with the same tag are one ruling.

    A tag may stand anywhere in a text (VASSAL or a player may prefix a chat line); texts with
    no tag are not rulings and are skipped.
    """
    entries: list[TranscriptEntry] = []
    current_key: tuple[str | None, int | None] | None = None
    for index, text in enumerate(texts):
        found = _TAG_RE.search(text)
        if not found:
            current_key = None
            continue
        game, seq = found.group("game"), found.group("seq")
        key = (game, int(seq) if seq is not None else None)
        line = text[found.end():]
        if key != current_key or _closed(entries[-1].lines, line):
            entries.append(TranscriptEntry(game_id=key[0], seq=key[1], first=index))
            current_key = key
        entries[-1].lines.append(line)
        entries[-1].last = index
    return entries


def comparable_lines(result: dict[str, Any], *, system_name: str = "") -> list[str]:
    """What a log must show for this response (tags stripped, verify line left out)."""
    return TranscriptEntry(None, None, [_TAG_RE.sub("", line, count=1) for line in
                                        chat_lines(result, system_name=system_name)]).comparable()


def _closed(lines: list[str], next_line: str) -> bool:
    """Whether a ruling's lines are complete, so `next_line` with the same tag starts another.

    Two compute rulings in a row share a tag, and a recorded ruling may be posted twice (a
    replayed request); each ends with its closing line.
    """
    if not lines:
        return False
    last = lines[-1]
    if last.startswith(_NOT_RECORDED) or last.startswith(_VERIFY_PREFIX):
        return True
    return last.startswith(_RECEIPT_PREFIX) and not next_line.startswith(_VERIFY_PREFIX)


def _words(name: str) -> str:
    return str(name).replace("_", " ")


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def _clean(text: str) -> str:
    return _SPACES_RE.sub(" ", _CONTROL_RE.sub(" ", text)).strip()


# -- log sessions ------------------------------------------------------------------------------------

SESSION_TAG = "[ADJ session "
_SESSION_RE = re.compile(r"\[ADJ session (?P<id>[A-Za-z0-9_-]{1,64})\]")
_SESSION_FIELDS = {
    "game": re.compile(r"\bgame (?P<v>[A-Za-z0-9_-]{1,64})"),
    "file": re.compile(r"\bfile (?P<v>\d{1,6})"),
    "start": re.compile(r"\bposition (?P<v>[0-9a-f]{16,64})"),
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

    @property
    def parent(self) -> str | None:
        return self.chain[-1] if self.chain else None


def session_line(game_id: str, session: dict[str, Any], chain: list[str]) -> str:
    """The chat line naming a log session (what the extension posts when a log begins):

        [ADJ session k3f9x2] log of game G, file 3, begun at position 9a1b…, after k1a2b3 k2c4d5
    """
    parts = [f"{SESSION_TAG}{session['id']}] log of game {game_id}"]
    if session.get("file"):
        parts.append(f"file {session['file']}")
    if session.get("start"):
        parts.append(f"begun at position {session['start']}")
    parts.append("after " + " ".join(chain) if chain else "after the setup")
    return _clean(", ".join(parts))


def parse_session_line(text: str) -> SessionLine | None:
    found = _SESSION_RE.search(text)
    if not found:
        return None
    rest = text[found.end():]
    values = {name: (m.group("v") if (m := pattern.search(rest)) else None) for name, pattern in _SESSION_FIELDS.items()}
    chain = tuple(values["after"].split()) if values["after"] and values["after"].strip() != "the setup" else ()
    return SessionLine(found.group("id"), values["game"], int(values["file"]) if values["file"] else None,
                       values["start"], tuple(c for c in chain if c not in ("the", "setup")))
