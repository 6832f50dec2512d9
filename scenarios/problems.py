"""Collecting data-file problems as ``file:line: what is wrong``.

The loader does not stop at the first mistake: a maintainer fixing a
transcription wants the whole list in one run.  Everything that goes wrong is
added to a ``Problems`` list; the caller raises ``DataError`` once at the end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from scenarios.textfiles import Unreadable


@dataclass(frozen=True)
class Problem:
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


class DataError(Exception):
    """Raised with every problem found; ``str()`` is one problem per line."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass
class Problems:
    root: Path | None = None
    items: list[Problem] = field(default_factory=list)
    # the files that could not be read at all (not UTF-8, not TOML): what was read is incomplete
    unreadable: list[Problem] = field(default_factory=list)
    # file -> how it is shown: every stand-in's location names its file (thousands per game)
    _shown: dict = field(default_factory=dict, repr=False, compare=False)

    def add(self, file: Path | str, line: int, message: str) -> None:
        self.items.append(Problem(self._show(file), max(line, 1), message))

    def add_unreadable(self, err: Unreadable) -> None:
        """A file that cannot be read (``scenarios.textfiles``): a problem, and remembered as such."""
        self.add(err.path, err.line, err.message)
        self.unreadable.append(self.items[-1])

    def _show(self, file: Path | str) -> str:
        shown = self._shown.get(file)
        if shown is None:
            shown = self._shown[file] = self._relative(Path(file))
        return shown

    def _relative(self, path: Path) -> str:
        if self.root is not None:
            try:
                return str(path.relative_to(self.root))
            except ValueError:
                pass
        return str(path)

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        """DataError with every problem; only the unreadable files' when there are any, since what
        else is wrong then mostly follows from what could not be read (every unit of an unreadable
        units.csv "unknown" in every setup): one error per mistake."""
        if self.items:
            raise DataError(list(self.unreadable or self.items))


_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\-\"' ]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-\"]+)\s*=")


class TomlLines:
    """Finds the line of a value in a TOML file.

    ``tomllib`` forgets line numbers, so this scans the text for table headers
    and keys.  It understands what our data files use: ``[table]``,
    ``[[array.of.tables]]`` and ``key = value`` lines; anything it cannot place
    falls back to the start of the enclosing table.
    """

    def __init__(self, text: str):
        self.lines = text.splitlines()
        # (line index, table name, is an array table) of every header, found once
        self._headers: list[tuple[int, str, bool]] = []
        for idx, line in enumerate(self.lines):
            m = _HEADER.match(line)
            if m:
                self._headers.append((idx, m.group(1).replace('"', ""), line.lstrip().startswith("[[")))

    def find(self, *path: str | int) -> int:
        """Line (1-based) of ``path``, e.g. ``("nationality", 2, "background")``
        for the third ``[[nationality]]`` table's ``background`` key."""
        start, end = 0, len(self.lines)
        prefix = ""
        best = 1
        i = 0
        parts = list(path)
        while i < len(parts):
            part = parts[i]
            nxt = parts[i + 1] if i + 1 < len(parts) else None
            name = f"{prefix}{part}"
            if isinstance(nxt, int):
                line = self._nth_header(name, nxt, start, end, array=True)
                if line is None:
                    return best
                best = line + 1
                start, end = line + 1, self._next_header(line + 1, end)
                prefix = name + "."
                i += 2
                continue
            header = self._nth_header(name, 0, start, end, array=False)
            if header is None and nxt is not None and not isinstance(nxt, int):
                # a dotted header such as [special_rules.un_supply_shortage]
                dotted = self._nth_header(f"{name}.{nxt}", 0, start, end, array=False)
                if dotted is not None:
                    best = dotted + 1
                    start, end = dotted + 1, self._next_header(dotted + 1, len(self.lines))
                    prefix = f"{name}.{nxt}."
                    i += 2
                    continue
            if header is not None:
                best = header + 1
                start, end = header + 1, self._next_header(header + 1, len(self.lines))
                prefix = name + "."
                i += 1
                continue
            key_line = self._key(str(part), start, end)
            if key_line is not None:
                return key_line + 1
            sub = self._nth_header(name, 0, start, len(self.lines), array=False)
            if sub is not None:  # [parent.child] written as its own table
                best = sub + 1
                start, end = sub + 1, self._next_header(sub + 1, len(self.lines))
                prefix = name + "."
                i += 1
                continue
            return best
        return best

    def _nth_header(self, name: str, n: int, start: int, end: int, array: bool) -> int | None:
        seen = 0
        for idx, header, is_array in self._headers:
            if idx >= end:
                break
            if idx >= start and header == name and is_array == array:
                if seen == n:
                    return idx
                seen += 1
        return None

    def _next_header(self, start: int, end: int) -> int:
        for idx, _, _ in self._headers:
            if start <= idx < end:
                return idx
            if idx >= end:
                break
        return end

    def _key(self, key: str, start: int, end: int) -> int | None:
        for idx in range(start, end):
            m = _KEY.match(self.lines[idx])
            if m and m.group(1).strip('"') == key:
                return idx
        return None
