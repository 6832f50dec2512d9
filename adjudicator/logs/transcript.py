"""Rulings read back from a log: the chat texts of a `.vlog` (or the lines a player pasted) as the
rulings they are, and what a log must show for a recorded ruling.

Every line `adjudicator.words.transcript.chat_lines` writes starts with a tag naming its ruling
(``[ADJ <game id>#<seq>]``, or ``[ADJ compute]``); consecutive lines with the same tag are one
ruling (`parse_transcript`). The log check compares each recorded ruling's lines with what the
ledger's record renders to (`comparable_lines`: tags stripped, the verify address left out, as the
ruling's own version rendered it; `written_lines`: every way a version rightly wrote it).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from adjudicator.words.names import UnitNames
from adjudicator.words.transcript import (
    NOT_RECORDED,
    RECEIPT_PREFIX,
    RULING_MARK,
    RULING_MARK_V2,
    VERIFY_PREFIX,
    VERSION,
    chat_lines,
)

TAG_RE = re.compile(r"\[ADJ (?:compute|(?P<game>[A-Za-z0-9_-]{1,64})#(?P<seq>\d{1,9}))\] ?")


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
    def version(self) -> int:
        """How the ruling was rendered: 3 (the short ruling, ``RULING » `` first), 2 (the whole
        ruling, ``RULING `` first) or 1 (older logs)."""
        first = self.lines[0] if self.lines else ""
        return 3 if first.startswith(RULING_MARK) else 2 if first.startswith(RULING_MARK_V2) else 1

    @property
    def hash_prefix(self) -> str:
        for line in self.lines:
            found = re.match(r"receipt: record \d+ hash ([0-9a-f]+)", line)
            if found:
                return found.group(1)
        return ""

    def comparable(self) -> list[str]:
        """The lines that must equal the ledger's rendering (everything but the verify address)."""
        return [line for line in self.lines if not line.startswith(VERIFY_PREFIX)]


def parse_transcript(texts: Iterable[str]) -> list[TranscriptEntry]:
    """The rulings in chat texts, in order; consecutive lines with the same tag are one ruling.

    A tag may stand anywhere in a text (VASSAL or a player may prefix a chat line); texts with
    no tag are not rulings and are skipped.
    """
    entries: list[TranscriptEntry] = []
    current_key: tuple[str | None, int | None] | None = None
    for index, text in enumerate(texts):
        found = TAG_RE.search(text)
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


def comparable_lines(result: dict[str, Any], *, system_name: str = "", version: int = VERSION,
                     names: UnitNames | None = None) -> list[str]:
    """What a log must show for this response (tags stripped, verify line left out), as `version`
    renders it: compare a ruling read from a log with ``version=entry.version``."""
    return TranscriptEntry(None, None, [TAG_RE.sub("", line, count=1) for line in chat_lines(
        result, system_name=system_name, version=version, names=names)]).comparable()


def written_lines(result: dict[str, Any], *, system_name: str = "", version: int = VERSION) -> list[list[str]]:
    """Every way a log may rightly show this response as `version` wrote it (`comparable_lines`):
    versions 2 and 3 first named identical counters with their ids ("NK SC (nk-sc-1)"), and read
    as they did before players' words (a headline's facts by id, "rebuilt nk-1"; `UnitNames.players_words`),
    as their logs still read, wrote no unit line for some orders (before issue 49:
    `UnitNames.as_written_before_every_order_was_a_change`), and a headline's yes/no facts by name and
    value ("intervenes no": `UnitNames.as_written_before_facts_in_words`). The first is the current
    rendering."""
    lines = [comparable_lines(result, system_name=system_name, version=version)]
    if version >= 2:
        names = UnitNames.of(result.get("system", ""))
        for ids, words, orders, facts in itertools.product((False, True), repeat=4):
            if not ids and words and orders and facts:
                continue  # the current rendering, first
            older = names.with_ids_of_identical_counters() if ids else names
            older = older if words else older.as_written_before_players_words()
            older = older if orders else older.as_written_before_every_order_was_a_change()
            older = older if facts else older.as_written_before_facts_in_words()
            rendered = comparable_lines(result, system_name=system_name, version=version, names=older)
            if rendered not in lines:
                lines.append(rendered)
    return lines


def _closed(lines: list[str], next_line: str) -> bool:
    """Whether a ruling's lines are complete, so `next_line` with the same tag starts another.

    Two compute rulings in a row share a tag, and a recorded ruling may be posted twice (a
    replayed request); each ends with its closing line.
    """
    if not lines:
        return False
    last = lines[-1]
    if last.startswith(NOT_RECORDED) or last.startswith(VERIFY_PREFIX):
        return True
    return last.startswith(RECEIPT_PREFIX) and not next_line.startswith(VERIFY_PREFIX)
