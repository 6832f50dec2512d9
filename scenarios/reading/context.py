"""What every reader of one game directory shares: where problems go, and the checks all of them make.

A ``Reading`` gathers, across files, the problems (``file:line: what is wrong``), the stand-in data
(every ``stand-in: <reason>`` source, for ``scenarios standins``) and the hex facts (what a line says
about a hex, checked against the maps once they are all read: ``scenarios.facts``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

from scenarios import special_rules
from scenarios.model import Fact, Side, Source, StandIn
from scenarios.problems import Problems, TomlLines

COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
ID = re.compile(r"^[a-z0-9][a-z0-9_.\-]*$")


class Reading:
    """One game directory being read: its problems, stand-ins and hex facts, and the sides once known."""

    def __init__(self, directory: Path, problems: Problems):
        self.dir = directory
        self.p = problems
        self.stand_ins: list[StandIn] = []
        self.hex_facts: list[Fact] = []
        self.sides: dict[str, Side] = {}
        self.game_id = directory.name
        # each scenario's TOML as read, for the special rules' check once the whole game is read
        self.scenario_files: dict[str, special_rules.ScenarioFile] = {}

    def where(self, path: Path, line: int) -> str:
        return f"{self.p._show(path)}:{line}"

    def source(self, text: Any, path: Path, line: int, what: str, required: bool = True) -> Source:
        """A ``source`` cell: a rulebook section, or ``stand-in: <reason>`` (listed as a stand-in)."""
        value = str(text or "").strip()
        src = Source(value)
        if not value:
            if required:
                self.p.add(path, line, f"{what}: no source (give the rulebook section or 'stand-in: <reason>')")
            return src
        if src.is_stand_in:
            if not src.reason:
                self.p.add(path, line, f"{what}: a stand-in needs its reason ('stand-in: <why>')")
            self.stand_ins.append(StandIn(self.game_id, what, self.where(path, line), src.reason))
        return src

    def nested_stand_ins(self, data: dict, path: Path, lines: TomlLines, loc: tuple, what: str) -> None:
        """Stand-in sources in sub-tables of a special rule or victory schedule."""
        for key, value in data.items():
            if isinstance(value, dict):
                self.source(value.get("source"), path, lines.find(*loc, key, "source"), f"{what} {key}", required=False)
                self.nested_stand_ins(value, path, lines, (*loc, key), f"{what} {key}")

    def need(self, data: dict, key: str, path: Path, lines: TomlLines, *loc: str | int) -> Any:
        if key not in data or data[key] in ("", None):
            self.p.add(path, lines.find(*loc) if loc else 1, f"missing {key!r}")
            return None
        return data[key]

    def check_id(self, value: str, path: Path, line: int, what: str) -> bool:
        if not ID.match(value or ""):
            self.p.add(path, line, f"{what} id {value!r} must be lower-case letters, digits, '_', '-' or '.'")
            return False
        return True

    def entries(self, data: dict, key: str, path: Path, lines: TomlLines, what: str,
                seen: dict | None = None) -> Iterator[tuple[int, dict, int, str]]:
        """Each ``[[key]]`` table whose id is valid: (its number, the table, its line, its id). With
        ``seen`` (the ids read so far), an id read before is a problem, and still given."""
        for i, item in enumerate(data.get(key) or []):
            line = lines.find(key, i)
            ident = str(item.get("id", ""))
            if not self.check_id(ident, path, line, what):
                continue
            if seen is not None and ident in seen:
                self.p.add(path, line, f"{what} {ident!r} defined twice")
            yield i, item, line, ident
