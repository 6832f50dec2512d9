"""Hand edits of the generated files moved into ``overrides.csv`` (``--adopt-edits``).

A maintainer who corrected ``paths.csv``, ``hexsides.csv`` or ``terrain.txt`` in place has
corrections the build cannot make again: the next build keeps the edited file as it is, so the
overrides of that file no longer reach it and a geography change never does.  Adopting compares
each hand-edited file with what the build makes and writes the difference as override rows
(a road added becomes ``add_path``, one deleted ``remove_path``, a changed hex ``terrain``), so
the following build makes the file with the corrections in it, and keeps making it.

The town features (``geo-features.csv``) are not adopted: places belong in ``features.csv``.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from scenarios.hexgrid import Hex, Hexside, HexGrid
from scenarios.mapbuild import SOURCE_PREFIX
from scenarios.mapbuild.build import MapBuild
from scenarios.mapbuild.output import is_hand_edited
from scenarios.textfiles import read_text

HEADER = ["action", "hex_a", "hex_b", "value", "name", "note", "source"]
ADOPTED = (".terrain.txt", ".hexsides.csv", ".paths.csv")


class AdoptError(Exception):
    pass


@dataclass(frozen=True)
class Adopted:
    """Override rows (``HEADER`` order) made from one hand-edited file."""

    file: Path
    rows: list[list[str]]


def adoptable(b: MapBuild) -> list[Path]:
    """The hand-edited files ``adopt`` can turn into overrides."""
    return [b.cfg.path(s) for s in ADOPTED if is_hand_edited(b.cfg.path(s))]


def adopt(b: MapBuild) -> list[Adopted]:
    """The override rows that make the build give each hand-edited file's content."""
    found = []
    grid = b.cal.grid
    for path in adoptable(b):
        note = f"moved from a hand edit of {path.name}"
        if path.name.endswith(".terrain.txt"):
            rows = _terrain_rows(grid, b.terrain, _read_terrain(path, grid, b.cfg.legend), note)
        elif path.name.endswith(".hexsides.csv"):
            rows = _hexside_rows(grid, _read_csv(path), _csv_text(b.files[".hexsides.csv"]), note)
        else:
            rows = _path_rows(grid, _read_csv(path), _csv_text(b.files[".paths.csv"]), note)
        found.append(Adopted(path, rows))
    return found


def append_rows(overrides_path: Path, rows: list[list[str]]) -> None:
    """Add rows to overrides.csv, giving its header the ``source`` column when it lacks one."""
    text = read_text(overrides_path) if overrides_path.exists() else ""
    lines = text.splitlines()
    header_at = next((i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")), None)
    if header_at is None:
        lines.append(",".join(HEADER))
    else:
        header = [h.strip() for h in next(csv.reader([lines[header_at]]))]
        if header != HEADER[: len(header)]:
            raise AdoptError(f"{overrides_path}: header {header} is not {HEADER}")
        lines[header_at] = ",".join(HEADER)
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    overrides_path.write_text("\n".join(lines) + "\n" + buf.getvalue(), encoding="utf-8", newline="\n")


# -- reading the files ------------------------------------------------------------------------------

def _csv_text(text: str) -> list[dict[str, str]]:
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return list(csv.DictReader(lines))


def _read_csv(path: Path) -> list[dict[str, str]]:
    return _csv_text(read_text(path))


def _read_terrain(path: Path, grid: HexGrid, legend: dict[str, str]) -> dict[Hex, str]:
    by_char = {char: tid for tid, char in legend.items()}
    terrain = {}
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        row, _, chars = line.partition(" ")
        for offset, char in enumerate(chars.rstrip()):
            if char not in by_char:
                raise AdoptError(f"{path.name}:{number}: unknown terrain character {char!r}")
            terrain[Hex(grid.first_col + offset, int(row))] = by_char[char]
    return terrain


def _hexes(grid: HexGrid, text: str) -> list[Hex]:
    return [grid.parse(label) for label in text.split()]


def _own_source(source: str) -> str:
    """A hand row's source, unless it is a copy of a generated row's (then the row is ours)."""
    return "" if source.strip().startswith(SOURCE_PREFIX) else source.strip()


# -- the differences as rows ------------------------------------------------------------------------

def _terrain_rows(grid: HexGrid, built: dict[Hex, str], hand: dict[Hex, str], note: str) -> list[list[str]]:
    return [["terrain", grid.label(h), "", hand[h], "", note, ""]
            for h in sorted(hand) if h in built and hand[h] != built[h]]


def _hexside_rows(grid: HexGrid, hand: list[dict[str, str]], built: list[dict[str, str]],
                  note: str) -> list[list[str]]:
    def key(row: dict[str, str]) -> tuple[Hexside, str]:
        return Hexside.between(grid.parse(row["hex_a"]), grid.parse(row["hex_b"])), row["kind"]

    built_keys = {key(r) for r in built}
    hand_keys = {key(r) for r in hand}
    rows = [["add_hexside", r["hex_a"], r["hex_b"], r["kind"], r.get("name", ""), note,
             _own_source(r.get("source", ""))] for r in hand if key(r) not in built_keys]
    rows += [["remove_hexside", r["hex_a"], r["hex_b"], r["kind"], "", note, ""]
             for r in built if key(r) not in hand_keys]
    return rows


def _path_rows(grid: HexGrid, hand: list[dict[str, str]], built: list[dict[str, str]],
               note: str) -> list[list[str]]:
    """A stretch of a hand path the build lacks is an ``add_path``; a stretch of a built path the
    hand file lacks is a ``remove_path`` (steps compared by kind and hexside, not by name)."""
    def steps(rows: list[dict[str, str]]) -> set[tuple[str, Hexside]]:
        return {(r["kind"], Hexside.between(a, b)) for r in rows
                for a, b in zip(_hexes(grid, r["hexes"]), _hexes(grid, r["hexes"])[1:])}

    built_steps, hand_steps = steps(built), steps(hand)
    rows = [["add_path", *_chain(grid, run), r["kind"], r.get("name", ""), note, _own_source(r.get("source", ""))]
            for r in hand for run in _runs(grid, r, built_steps)]
    rows += [["remove_path", *_chain(grid, run), r["kind"], "", note, ""]
             for r in built for run in _runs(grid, r, hand_steps)]
    return rows


def _runs(grid: HexGrid, row: dict[str, str], present: set[tuple[str, Hexside]]) -> list[list[Hex]]:
    """The stretches of a path row whose steps are not in ``present``."""
    hexes = _hexes(grid, row["hexes"])
    runs: list[list[Hex]] = []
    for a, b in zip(hexes, hexes[1:]):
        if (row["kind"], Hexside.between(a, b)) in present:
            continue
        if runs and runs[-1][-1] == a:
            runs[-1].append(b)
        else:
            runs.append([a, b])
    return runs


def _chain(grid: HexGrid, run: list[Hex]) -> tuple[str, str]:
    """hex_a and hex_b of a path row: the first hex, then the rest separated by spaces."""
    return grid.label(run[0]), " ".join(grid.label(h) for h in run[1:])
