"""CSV and TOML data files read with their line numbers, so every problem can say ``file:line``."""

from __future__ import annotations

import csv
import difflib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scenarios.problems import Problems, TomlLines
from scenarios.textfiles import Unreadable, read_text


@dataclass
class CsvRow:
    line: int
    cells: dict[str, str]

    def get(self, column: str, default: str = "") -> str:
        return (self.cells.get(column) or default).strip()


def read_csv(path: Path, problems: Problems, required: tuple[str, ...],
             columns: tuple[str, ...] | None = None) -> list[CsvRow]:
    """Rows of a CSV file with their line numbers.

    Blank lines and lines starting with '#' are comments, so maintainers can
    annotate a transcription in place.  One record per line (no multi-line
    quoted cells) keeps every line number exact.  ``columns``: every column
    of a file that has a fixed set (None: any beside ``required``, as a
    table's).  A misspelt column is one problem, at the header (``_read_header``).
    """
    if not path.exists():
        problems.add(path, 1, "file is missing")
        return []
    text = read_data_text(path, problems)
    if text is None:
        return []
    header: list[str] | None = None
    rows: list[CsvRow] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cells = next(csv.reader([line]))
        if header is None:
            header = _read_header([c.strip() for c in cells], required, columns, path, number, problems)
            if header is None:
                return []
            continue
        if len(cells) > len(header):
            problems.add(path, number, f"{len(cells)} cells but the header has {len(header)} columns")
            continue
        rows.append(CsvRow(number, dict(zip(header, cells))))
    if header is None:
        problems.add(path, 1, "no header line")
    return rows


def _read_header(header: list[str], required: tuple[str, ...], columns: tuple[str, ...] | None, path: Path,
                 line: int, problems: Problems) -> list[str] | None:
    """The header's columns, a misspelt one read as the column it resembles (one problem for the
    mistake, not one per row that then lacks the column); None when a required column is missing
    altogether (one problem: the rows cannot be read)."""
    known = columns or required
    expected = f"the columns of this file: {', '.join(known)}" + ("" if columns is not None else ", ...")
    strangers = [c for c in header if c not in known]
    for column in required:
        if column in header:
            continue
        meant = _resembling(column, strangers)
        if meant is None:
            problems.add_unreadable(Unreadable(path, line, f"missing column {column!r} (header has: "
                                                           f"{', '.join(header)}; {expected})"))
            return None
        problems.add(path, line, f"column {meant!r} should be {column!r} ({expected}); read as {column!r} "
                                 "for the rest of this check")
        header[header.index(meant)] = column
        strangers.remove(meant)
    for column in strangers if columns is not None else ():
        meant = _resembling(column, [c for c in columns if c not in header])
        if meant is not None:
            problems.add(path, line, f"column {column!r} should be {meant!r} ({expected}); read as {meant!r} "
                                     "for the rest of this check")
            header[header.index(column)] = meant
    return header


def _resembling(word: str, candidates: list[str]) -> str | None:
    """The candidate ``word`` most probably stands for (a misspelling either way), if any is close."""
    lowered = {c.lower(): c for c in candidates}
    found = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.7)
    return lowered[found[0]] if found else None


def read_data_text(path: Path, problems: Problems) -> str | None:
    """A data file's text, or None with the problem added (not UTF-8: ``scenarios.textfiles``)."""
    try:
        return read_text(path)
    except Unreadable as err:
        problems.add_unreadable(err)
        return None


def read_toml(path: Path, problems: Problems) -> tuple[dict[str, Any], TomlLines]:
    if not path.exists():
        problems.add(path, 1, "file is missing")
        return {}, TomlLines("")
    text = read_data_text(path, problems)
    if text is None:
        return {}, TomlLines("")
    try:
        return tomllib.loads(text), TomlLines(text)
    except tomllib.TOMLDecodeError as err:
        problems.add_unreadable(Unreadable(path, *toml_error(text, str(err))))
        return {}, TomlLines(text)


_STATEMENT = re.compile(r"""^\s*(\[|[A-Za-z0-9_\-"'.]+\s*=)""")


def toml_error(text: str, error: str) -> tuple[int, str]:
    """The line of a TOML syntax error, and what to say there.

    The parser reports where it stopped. For a value left open (an array without its ``]``, an inline
    table without its ``}``) that is the next key or table it met, lines after the mistake when a blank
    line or a comment stands between; for a multi-line string never closed, the end of the file. Those
    are reported at the line that needs the closing bracket or quotes."""
    match = re.search(r"\(at line (\d+), column (\d+)\)", error)
    lines = text.splitlines()
    what = error.split(" (at ", 1)[0]
    if match is None:
        if "end of document" not in error:
            return 1, f"TOML syntax: {error}"
        opened = _open_multiline_string(lines)
        if opened is not None:
            return opened, "TOML syntax: the multi-line string that opens here is never closed (no \"\"\" or \'\'\' after it)"
        return max(len(lines), 1), f"TOML syntax: {error}"
    line, column = int(match.group(1)), int(match.group(2))
    if 1 < line <= len(lines) and _STATEMENT.match(lines[line - 1]):
        bracket = _open_bracket(lines[:line - 1])
        if bracket is not None:  # the parser met the next key or table inside a value still open
            last = max(n for n in range(1, line) if lines[n - 1].strip() and not lines[n - 1].lstrip().startswith("#"))
            closer = "]" if bracket == "[" else "}"
            return last, (f"TOML syntax: {closer!r} missing at the end of this value (the parser stopped at line "
                          f"{line}, column {column}: {what})")
    return line, f"TOML syntax: {error}"


def _open_bracket(lines: list[str]) -> str | None:
    """The innermost ``[`` or ``{`` of a value these lines leave open (strings and comments skipped,
    table headers are no values), or None when every value is closed."""
    stack: list[str] = []
    quote = ""
    for line in lines:
        if not stack and not quote and line.lstrip().startswith("["):
            continue  # a [table] or [[array]] header
        i = 0
        while i < len(line):
            if quote:
                if line.startswith(quote, i) and (len(quote) == 3 or quote == "'" or line[i - 1:i] != "\\"):
                    i += len(quote)
                    quote = ""
                    continue
                i += 1
                continue
            char = line[i]
            if char == "#":
                break
            if char in "\"'":
                quote = line[i:i + 3] if line[i:i + 3] in ('"""', "'''") else char
                i += len(quote)
                continue
            if char in "[{":
                stack.append(char)
            elif char in "]}" and stack:
                stack.pop()
            i += 1
        if quote in ('"', "'"):
            quote = ""  # a one-line string ends with its line (the parser says so there)
    return stack[-1] if stack else None


def _open_multiline_string(lines: list[str]) -> int | None:
    """The line whose \"\"\" or \'\'\' opens a multi-line string that is never closed."""
    opened: int | None = None
    quotes = ""
    for number, line in enumerate(lines, start=1):
        rest = line
        while rest:
            if opened is None:
                found = [(rest.find(q), q) for q in ('"""', "'''") if q in rest]
                if not found:
                    break
                at, quotes = min(found)
                opened, rest = number, rest[at + 3:]
            else:
                at = rest.find(quotes)
                if at < 0:
                    break
                opened, rest = None, rest[at + 3:]
    return opened


def cell_range(value: Any) -> tuple[str, ...]:
    """A list of labels, or ``"a-b"`` for a to b (a track's cells, a table's rows)."""
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    match = re.fullmatch(r"\s*(-?\d+)\s*-\s*(-?\d+)\s*", str(value or ""))
    if not match or int(match[1]) > int(match[2]):
        return ()
    return tuple(str(n) for n in range(int(match[1]), int(match[2]) + 1))
