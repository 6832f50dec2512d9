"""Reading and validating a game's data directory.

The layout and every column are documented in ``docs/data-format.md``.  The
loader reads everything, checks every reference (sides, nationalities, unit
types, units, boxes, maps, hexes, step names, turns), and reports *all*
problems as ``file:line: what is wrong`` before anybody builds a module or
adjudicates from broken data.
"""

from __future__ import annotations

import csv
import difflib
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from scenarios import board as boards
from scenarios import cells, facts, pools, special_rules
from scenarios.hexgrid import Hex, HexGrid, Hexside
from scenarios.model import (
    DRAW_KINDS,
    DRAW_UNSEEN,
    Arrival,
    BoardImage,
    Box,
    Fact,
    Game,
    MapArea,
    GameMap,
    HexFeature,
    HexsideFeature,
    MapPath,
    MarkerType,
    Nationality,
    Placement,
    Roll,
    Scenario,
    Side,
    Source,
    StandIn,
    Step,
    Table,
    TerrainBan,
    TerrainType,
    Track,
    Turn,
    Unit,
    UnitType,
)
from scenarios.problems import DataError, Problems, TomlLines
from scenarios.textfiles import Unreadable, read_text

#: The games' data: scenarios/data, or the folder the environment's SCENARIOS_DATA names (a maintainer's
#: own copy, e.g. with the published tables that may not be redistributed). Read once per process.
DATA_ROOT = Path(os.environ.get("SCENARIOS_DATA") or Path(__file__).parent / "data")
MARKER_PREFIX = "marker:"
COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
ID = re.compile(r"^[a-z0-9][a-z0-9_.\-]*$")
ROLL_DICE = re.compile(r"^([1-9][0-9]?)d([0-9]{1,3})$")
#: Every column of the files that have a fixed set, in the order docs/data-format.md gives them.
UNITS_COLUMNS = ("id", "designation", "name", "side", "nationality", "type", "size", "steps", "flags", "parent",
                 "count", "source", "note")
MARKERS_COLUMNS = ("id", "name", "faces", "side", "count", "kind", "source", "note")
FEATURES_COLUMNS = ("hex", "kind", "name", "side", "source")
HEXSIDES_COLUMNS = ("hex_a", "hex_b", "kind", "name", "source")
PATHS_COLUMNS = ("kind", "name", "hexes", "source")
SETUP_COLUMNS = ("unit", "location", "step", "choice", "note", "source")
SCHEDULE_COLUMNS = ("turn", "action", "unit", "location", "step", "note", "source")


# ---------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------


#: The games ``load_game`` has read (read-only, so kept for the process), and the ids of the games a
#: server process serves (``serve_games``; None: whatever DATA_ROOT holds).
_LOADED: dict[str, Game] = {}
_SERVED: tuple[str, ...] | None = None


def game_ids(root: Path | None = None) -> list[str]:
    """The games that have a data directory in ``root`` (sorted); without one, the games this process
    serves (``serve_games``), else those of DATA_ROOT."""
    if root is None and _SERVED is not None:
        return list(_SERVED)
    return sorted(p.parent.name for p in (root or DATA_ROOT).glob("*/game.toml"))


def load_game(game_id: str) -> Game:
    """The game of ``DATA_ROOT/<game_id>``, read once per process, or the one ``serve_games`` gave."""
    game = _LOADED.get(game_id)
    if game is None:
        if game_id not in game_ids():
            raise KeyError(f"no game {game_id!r}; games: {', '.join(game_ids()) or 'none'}")
        game = _LOADED[game_id] = load_game_dir(DATA_ROOT / game_id)
    return game


def serve_games(games: dict[str, Game]) -> None:
    """From now on ``load_game`` and ``game_ids`` answer with these games, read and checked already.

    For a server's master (adjudicator.served_data): it reads the data folder before it forks its
    workers, which then serve what it read and never read the folder themselves, so data that a
    maintainer is still editing (or broke) cannot reach a worker."""
    global _SERVED
    _LOADED.clear()
    _LOADED.update(games)
    _SERVED = tuple(sorted(games))


def track_cells(value: Any) -> tuple[str, ...]:
    """A track's cells from its ``cells`` entry: a list of labels, or ``"a-b"`` for a to b."""
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    match = re.fullmatch(r"\s*(-?\d+)\s*-\s*(-?\d+)\s*", str(value or ""))
    if not match or int(match[1]) > int(match[2]):
        return ()
    return tuple(str(n) for n in range(int(match[1]), int(match[2]) + 1))


def load_game_dir(directory: Path | str) -> Game:
    """Load and validate one game directory; raises DataError listing every problem."""
    game, problems = read_game_dir(directory)
    if game is not None:
        check_facts(game, problems)
    problems.raise_if_any()
    assert game is not None
    return game


def read_game_dir(directory: Path | str) -> tuple[Game | None, Problems]:
    """Read a game directory without checking its hex facts against the maps, and without raising.

    For the map builder, which needs the facts (scenarios.facts) to make a map that honours them,
    before that map exists or while it is out of date."""
    directory = Path(directory)
    problems = Problems(root=directory.parent)
    return _GameReader(directory, problems).read(), problems


def check_facts(game: Game, problems: Problems) -> None:
    """Every hex fact that a map breaks, as a problem at the line that states the fact."""
    for fact in game.hex_facts:
        gm = game.maps.get(fact.map_id)
        if gm is None or fact.hex not in gm.terrain:
            continue  # an unreadable map or terrain grid is reported already
        broken = facts.unmet(fact, gm, game.terrain_bans)
        if broken:
            file, _, line = fact.where.rpartition(":")
            problems.add(file, int(line), f"{fact.subject}: {'; '.join(broken)} [{_cite(fact.source)}; "
                                          f"map {fact.map_id}: maps/{fact.map_id}.terrain.txt]")


def _cell_problem(table: Table, column: str, value: str, kind: "cells.CellType", tables: dict[str, Table],
                  declared: str) -> str:
    """Why a cell is not of its column's type, naming what would be (the codes of a referenced table)."""
    text = f"table {table.id}: column {column}: {value!r} is not {cells.describe(kind.text)}"
    for ref in kind.tables:
        other = tables[ref]
        codes = ", ".join(r[other.key] for r in other.rows)
        text += f"; {ref} has: {codes} (a new code needs its row in {other.file})"
    return text + f" [tables.toml: columns {declared!r} = {kind.text!r}, what the rules read]"


def _cite(source: Source) -> str:
    return str(source) if source.is_stand_in else f"rule {source}"


def check_game_dir(directory: Path | str) -> list[str]:
    """Every problem of a game directory as ``file:line: message`` strings."""
    try:
        load_game_dir(directory)
    except DataError as err:
        return [str(p) for p in err.problems]
    return []


# ---------------------------------------------------------------------------
# File readers
# ---------------------------------------------------------------------------


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
        match = re.search(r"line (\d+)", str(err))
        problems.add_unreadable(Unreadable(path, int(match.group(1)) if match else 1, f"TOML syntax: {err}"))
        return {}, TomlLines(text)


# ---------------------------------------------------------------------------
# The reader
# ---------------------------------------------------------------------------


class _GameReader:
    """Reads one game directory, accumulating problems instead of stopping."""

    def __init__(self, directory: Path, problems: Problems):
        self.dir = directory
        self.p = problems
        self.stand_ins: list[StandIn] = []
        self.hex_facts: list[Fact] = []
        self.sides: dict[str, Side] = {}
        self.game_id = directory.name
        self.scenario_files: dict[str, special_rules.ScenarioFile] = {}

    # -- helpers ---------------------------------------------------------------

    def where(self, path: Path, line: int) -> str:
        return f"{self.p._show(path)}:{line}"

    def source(self, text: Any, path: Path, line: int, what: str, required: bool = True) -> Source:
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

    # -- game.toml -----------------------------------------------------------------

    def read(self) -> Game | None:
        path = self.dir / "game.toml"
        data, lines = read_toml(path, self.p)
        if not data:
            return None
        for key in ("id", "name", "publisher", "year", "rulebook", "value_fields"):
            self.need(data, key, path, lines, key)
        if data.get("id") and data["id"] != self.dir.name:
            self.p.add(path, lines.find("id"), f"id {data['id']!r} differs from the directory name {self.dir.name!r}")
        sides = self.read_sides(data, path, lines)
        self.sides = sides
        nationalities = self.read_nationalities(data, path, lines, sides)
        unit_types = self.read_unit_types(data, path, lines)
        boxes = self.read_boxes(data, path, lines, sides)
        tracks = self.read_tracks(data, path, lines)
        map_areas = self.read_map_areas(data, path, lines)
        dice = tuple(data.get("dice") or ("d6",))
        rolls = self.read_rolls(data, path, lines, dice)
        value_fields = tuple(data.get("value_fields") or ())
        separator = str(data.get("value_separator", "-"))
        step_names = tuple(data.get("step_names") or ("full",))
        units = self.read_units(sides, nationalities, unit_types, value_fields, separator, step_names)
        markers = self.read_markers(sides)
        tables = self.read_tables()
        markers.update(self.markers_from_tables(data, path, lines, tables, markers))
        maps = self.read_maps()
        terrain_bans = self.read_terrain_bans(data, path, lines, unit_types, units, maps)
        scenarios = self.read_scenarios(units, markers, boxes, tracks, maps, sides)
        default_scenario = self.read_default_scenario(data, path, lines, scenarios)
        game = Game(
            id=str(data.get("id", self.dir.name)),
            name=str(data.get("name", "")),
            publisher=str(data.get("publisher", "")),
            year=int(data.get("year", 0) or 0),
            rulebook=str(data.get("rulebook", "")),
            dice=dice,
            value_fields=value_fields,
            value_separator=separator,
            sides=sides,
            nationalities=nationalities,
            unit_types=unit_types,
            units=units,
            markers=markers,
            boxes=boxes,
            maps=maps,
            scenarios=scenarios,
            tables=tables,
            tracks=tracks,
            map_areas=map_areas,
            rolls=rolls,
            phases=tuple(data.get("phases") or ()),
            step_names=step_names,
            description=str(data.get("description", "")),
            note=str(data.get("note", "")),
            data_dir=str(self.dir),
            stand_ins=self.stand_ins,
            terrain_bans=terrain_bans,
            hex_facts=self.hex_facts,
            default_scenario_id=default_scenario,
        )
        self.check_sealed_pools(game, data, path, lines)
        self.check_special_rules(game)
        return game

    def check_special_rules(self, game: Game) -> None:
        """Each scenario's special rules against the game's `special_rules.toml` (scenarios.special_rules)."""
        path = self.dir / special_rules.FILE
        if not path.exists():
            return
        data, lines = read_toml(path, self.p)
        special_rules.check(game, special_rules.kinds_of(data, path, lines, self.p), self.scenario_files, self.p)

    def check_sealed_pools(self, game: Game, data: dict, path: Path, lines: TomlLines) -> None:
        """A sealed pool (``placeholders``) shows each of its pieces as a placeholder counter: every
        scenario needs as many as its pool holds, and the placeholders are the module's, never placed
        by a setup or a schedule (the pool's own counters are: they are what the adjudicator draws)."""
        for i, item in enumerate(data.get("box") or []):
            box = game.boxes.get(str(item.get("id", "")))
            if box is None or not box.placeholders:
                continue
            line = lines.find("box", i, "placeholders")
            faces = game.boxes.get(box.faces)
            if faces is None or faces.draw:
                self.p.add(path, lines.find("box", i, "faces"),
                           f"box {box.id}: faces must name a box (not a pool) where the module lays the counters the "
                           f"placeholders stand for; {box.faces!r} is none")
            shown = pools.placeholders(game, box)
            if not shown:
                self.p.add(path, line, f"box {box.id}: no unit of side {box.side} has the flag {box.placeholders!r} "
                                       "(units.csv flags)")
                continue
            for scenario in game.scenarios.values():
                held = pools.pool_contents(game, scenario).get(box.id, [])
                if len(held) > len(shown):
                    self.p.add(path, line, f"box {box.id}: scenario {scenario.id} puts {len(held)} pieces in it, but "
                                           f"only {len(shown)} units have the flag {box.placeholders!r} to show them")
                placed = sorted(({p.unit for p in scenario.setup} | {a.unit for a in scenario.schedule}) & set(shown))
                if placed:
                    self.p.add(path, line, f"box {box.id}: scenario {scenario.id} places {', '.join(placed)}, a "
                                           "placeholder the module shows for the pool's pieces; place the pool's "
                                           "own counters in box:" + box.id)

    def read_sides(self, data: dict, path: Path, lines: TomlLines) -> dict[str, Side]:
        sides: dict[str, Side] = {}
        for i, item in enumerate(data.get("side") or []):
            line = lines.find("side", i)
            sid = str(item.get("id", ""))
            if not self.check_id(sid, path, line, "side"):
                continue
            if sid in sides:
                self.p.add(path, line, f"side {sid!r} defined twice")
            sides[sid] = Side(sid, str(item.get("name", sid)))
        if len(sides) < 2:
            self.p.add(path, lines.find("side", 0), "a game needs at least two [[side]] tables")
        return sides

    def read_nationalities(self, data: dict, path: Path, lines: TomlLines, sides: dict) -> dict[str, Nationality]:
        result: dict[str, Nationality] = {}
        for i, item in enumerate(data.get("nationality") or []):
            line = lines.find("nationality", i)
            nid = str(item.get("id", ""))
            if not self.check_id(nid, path, line, "nationality"):
                continue
            if nid in result:
                self.p.add(path, line, f"nationality {nid!r} defined twice")
            if item.get("side") not in sides:
                self.p.add(path, lines.find("nationality", i, "side"), f"nationality {nid}: unknown side {item.get('side')!r}")
            for key in ("background", "text", "symbol"):
                value = item.get(key)
                if value and not COLOUR.match(str(value)):
                    self.p.add(path, lines.find("nationality", i, key), f"nationality {nid}: {key} {value!r} is not a #rrggbb colour")
            if not item.get("background"):
                self.p.add(path, line, f"nationality {nid}: missing 'background' colour")
            result[nid] = Nationality(
                id=nid,
                name=str(item.get("name", nid)),
                side=str(item.get("side", "")),
                background=str(item.get("background", "#ffffff")),
                text=str(item.get("text", "#000000")),
                symbol=str(item.get("symbol", "")),
                letter=str(item.get("letter", "")),
                source=self.source(item.get("source"), path, line, f"nationality {nid} colours", required=False),
            )
        return result

    def read_unit_types(self, data: dict, path: Path, lines: TomlLines) -> dict[str, UnitType]:
        result: dict[str, UnitType] = {}
        for i, item in enumerate(data.get("unit_type") or []):
            line = lines.find("unit_type", i)
            tid = str(item.get("id", ""))
            if not self.check_id(tid, path, line, "unit type"):
                continue
            if tid in result:
                self.p.add(path, line, f"unit type {tid!r} defined twice")
            result[tid] = UnitType(tid, str(item.get("name", tid)), str(item.get("symbol", tid)), bool(item.get("mobile", False)))
        return result

    def read_terrain_bans(self, data: dict, path: Path, lines: TomlLines, unit_types: dict, units: dict,
                          maps: dict) -> tuple[TerrainBan, ...]:
        """[[terrain_ban]]: terrain some units may not stand on (checked on every setup and arrival hex)."""
        flags = {f for u in units.values() for f in u.flags}
        terrain_ids = {t for m in maps.values() for t in m.terrain_types}
        result = []
        for i, item in enumerate(data.get("terrain_ban") or []):
            line = lines.find("terrain_ban", i)
            selectors = tuple(str(u) for u in item.get("units") or ())
            terrain = tuple(str(t) for t in item.get("terrain") or ())
            if not selectors or not terrain:
                self.p.add(path, line, "terrain_ban needs `units` (unit type ids or flags) and `terrain` (terrain ids)")
            for u in selectors:
                if u not in unit_types and u not in flags:
                    self.p.add(path, lines.find("terrain_ban", i, "units"),
                               f"terrain_ban: {u!r} is neither a unit type nor a flag any unit has")
            for t in terrain:
                if t not in terrain_ids:
                    self.p.add(path, lines.find("terrain_ban", i, "terrain"),
                               f"terrain_ban: {t!r} is not a terrain of any map ({', '.join(sorted(terrain_ids))})")
            result.append(TerrainBan(selectors, terrain, tuple(str(k) for k in item.get("except_on") or ()),
                                     self.source(item.get("source"), path, line, f"terrain ban {i + 1}"),
                                     self.where(path, line)))
        return tuple(result)

    def read_boxes(self, data: dict, path: Path, lines: TomlLines, sides: dict) -> dict[str, Box]:
        result: dict[str, Box] = {}
        for i, item in enumerate(data.get("box") or []):
            line = lines.find("box", i)
            bid = str(item.get("id", ""))
            if not self.check_id(bid, path, line, "box"):
                continue
            side = str(item.get("side", ""))
            if side and side not in sides:
                self.p.add(path, line, f"box {bid}: unknown side {side!r}")
            draw = str(item.get("draw", ""))
            if draw and draw not in DRAW_KINDS:
                self.p.add(path, lines.find("box", i, "draw"),
                           f"box {bid}: draw {draw!r} must be one of {', '.join(DRAW_KINDS)}")
            result[bid] = Box(bid, str(item.get("name", bid)), side, str(item.get("kind", "box")),
                              self.source(item.get("source"), path, line, f"box {bid}", required=False),
                              draw=draw, returns=str(item.get("returns", "")),
                              holds=str(item.get("holds", "")), back=str(item.get("back", "")),
                              reveal=str(item.get("reveal", "")), placeholders=str(item.get("placeholders", "")),
                              faces=str(item.get("faces", "")))
            if item.get("placeholders") and (draw != DRAW_UNSEEN or not side):
                self.p.add(path, lines.find("box", i, "placeholders"),
                           f"box {bid}: placeholders stand for pieces nobody may see: the box needs draw = "
                           f"\"{DRAW_UNSEEN}\" and a side")
            for key in ("returns", "reveal"):  # "stand-in: ..." rule text is listed like any stand-in
                self.source(item.get(key), path, line, f"box {bid} {key}", required=False)
        return result

    def read_tracks(self, data: dict, path: Path, lines: TomlLines) -> dict[str, Track]:
        """``[[track]]`` tables: ``cells`` is a list of labels or a range ``"0-19"``."""
        result: dict[str, Track] = {}
        for i, item in enumerate(data.get("track") or []):
            line = lines.find("track", i)
            tid = str(item.get("id", ""))
            if not self.check_id(tid, path, line, "track"):
                continue
            if tid in result:
                self.p.add(path, line, f"track {tid!r} defined twice")
            cells = track_cells(item.get("cells"))
            if not cells:
                self.p.add(path, lines.find("track", i, "cells"),
                           f"track {tid}: cells must be a list of labels or a range like \"0-19\"")
            elif len(set(cells)) != len(cells):
                self.p.add(path, lines.find("track", i, "cells"), f"track {tid}: a cell is named twice")
            result[tid] = Track(tid, str(item.get("name", tid)), cells,
                                self.source(item.get("source"), path, line, f"track {tid}"),
                                str(item.get("note", "")))
        return result

    def read_rolls(self, data: dict, path: Path, lines: TomlLines, dice: tuple[str, ...]) -> tuple[Roll, ...]:
        """``[[roll]]``: the dice buttons, each ``dice = "1d6"`` of a die the game uses, what it is
        rolled for (``uses``) and its ``source``. None given: one "1d<n>" button per die."""
        items = data.get("roll") or []
        if not items:
            return tuple(Roll(f"1{die}", 1, int(die.lstrip("dD")), "") for die in dice if die.lstrip("dD").isdigit())
        rolls: list[Roll] = []
        for i, item in enumerate(items):
            line = lines.find("roll", i)
            found = ROLL_DICE.match(str(item.get("dice", "")))
            if not found or f"d{found.group(2)}" not in dice:
                self.p.add(path, lines.find("roll", i, "dice"), f"roll {i + 1}: dice {item.get('dice')!r} must be "
                           f"like \"1d6\" of a die the game uses ({', '.join(dice)})")
                continue
            name = str(item.get("name") or item.get("dice"))
            if any(r.name == name for r in rolls):
                self.p.add(path, line, f"roll {name!r} defined twice")
            uses = str(item.get("uses", "")).strip()
            if not uses:
                self.p.add(path, lines.find("roll", i), f"roll {name!r}: say what it is rolled for (uses)")
            source = self.source(item.get("source"), path, line, f"roll {name}")
            rolls.append(Roll(name, int(found.group(1)), int(found.group(2)), uses, source, bool(item.get("ask", False))))
        return tuple(rolls)

    def read_map_areas(self, data: dict, path: Path, lines: TomlLines) -> tuple[MapArea, ...]:
        """``[[map_area]]``: a named region beyond border rivers (the maps are checked when drawn)."""
        areas = []
        for i, item in enumerate(data.get("map_area") or []):
            line = lines.find("map_area", i)
            aid = str(item.get("id", ""))
            if not self.check_id(aid, path, line, "map_area"):
                continue
            beyond = tuple(str(r) for r in item.get("beyond") or ())
            if not beyond:
                self.p.add(path, line, f"map_area {aid}: beyond must name the rivers that bound it")
            areas.append(MapArea(aid, str(item.get("map", "")), str(item.get("name", aid)), beyond,
                                 str(item.get("label", "")), self.source(item.get("source"), path, line,
                                                                         f"map_area {aid}")))
        return tuple(areas)

    # -- units.csv / markers.csv -------------------------------------------------------

    def read_units(self, sides, nationalities, unit_types, value_fields, separator, step_names) -> dict[str, Unit]:
        path = self.dir / "units.csv"
        rows = read_csv(path, self.p, ("id", "designation", "side", "nationality", "type", "size", "steps", "source"),
                        UNITS_COLUMNS)
        units: dict[str, Unit] = {}
        for row in rows:
            uid = row.get("id")
            if not self.check_id(uid, path, row.line, "unit"):
                continue
            side, nat, utype = row.get("side"), row.get("nationality"), row.get("type")
            if side not in sides:
                self.p.add(path, row.line, f"unit {uid}: unknown side {side!r}")
            if nat not in nationalities:
                self.p.add(path, row.line, f"unit {uid}: unknown nationality {nat!r}")
            elif nationalities[nat].side != side:
                self.p.add(path, row.line, f"unit {uid}: nationality {nat} belongs to side {nationalities[nat].side}, not {side}")
            if utype not in unit_types:
                self.p.add(path, row.line, f"unit {uid}: unknown unit type {utype!r}")
            steps = self.parse_steps(row.get("steps"), value_fields, separator, step_names, path, row.line, uid)
            source = self.source(row.get("source"), path, row.line, f"unit {uid}")
            count_text = row.get("count", "1") or "1"
            if not count_text.isdigit() or int(count_text) < 1:
                self.p.add(path, row.line, f"unit {uid}: count {count_text!r} is not a positive whole number")
                count_text = "1"
            count = int(count_text)
            ids = [uid] if count == 1 else [f"{uid}-{n}" for n in range(1, count + 1)]
            flags = frozenset(row.get("flags").split())
            if utype in unit_types and unit_types[utype].mobile:
                flags |= {"mobile"}
            for one in ids:
                if one in units:
                    self.p.add(path, row.line, f"unit id {one!r} used twice")
                units[one] = Unit(
                    id=one,
                    designation=row.get("designation"),
                    side=side,
                    nationality=nat,
                    type=utype,
                    size=row.get("size"),
                    steps=tuple(steps),
                    name=row.get("name"),
                    flags=flags,
                    parent=row.get("parent"),
                    note=row.get("note"),
                    source=source,
                )
        for unit in units.values():
            if unit.parent and unit.parent not in units:
                self.p.add(path, 1, f"unit {unit.id}: parent {unit.parent!r} is not a unit")
        return units

    def parse_steps(self, text, value_fields, separator, step_names, path, line, uid) -> list[Step]:
        """"10-9-3|5-4-3" or "full:10-9-3|depleted:5-4-3" -> Steps."""
        steps: list[Step] = []
        if not text:
            self.p.add(path, line, f"unit {uid}: no steps (values as printed, e.g. '10-9-3|5-4-3')")
            return steps
        for i, part in enumerate(text.split("|")):
            part = part.strip()
            if ":" in part:
                name, printed = (s.strip() for s in part.split(":", 1))
            elif i < len(step_names):
                name, printed = step_names[i], part
            else:
                name, printed = str(i + 1), part
            if step_names and ":" in part and name not in step_names and not name.isdigit():
                self.p.add(path, line, f"unit {uid}: step name {name!r} is not one of {', '.join(step_names)}")
            pieces = printed.split(separator) if separator else [printed]
            if len(pieces) != len(value_fields):
                self.p.add(path, line, f"unit {uid}: step {name!r} {printed!r} has {len(pieces)} values, "
                                       f"expected {len(value_fields)} ({separator.join(value_fields)})")
                continue
            values: dict[str, int | str] = {}
            for fname, raw in zip(value_fields, pieces):
                raw = raw.strip()
                values[fname] = int(raw) if re.fullmatch(r"-?\d+", raw) else raw
                if raw == "":
                    self.p.add(path, line, f"unit {uid}: step {name!r} has an empty {fname}")
            steps.append(Step(name, values, printed))
        return steps

    def read_markers(self, sides) -> dict[str, MarkerType]:
        path = self.dir / "markers.csv"
        if not path.exists():
            return {}
        markers: dict[str, MarkerType] = {}
        for row in read_csv(path, self.p, ("id", "name", "faces", "source"), MARKERS_COLUMNS):
            mid = row.get("id")
            if not self.check_id(mid, path, row.line, "marker"):
                continue
            if mid in markers:
                self.p.add(path, row.line, f"marker id {mid!r} used twice")
            side = row.get("side")
            if side and side not in sides:
                self.p.add(path, row.line, f"marker {mid}: unknown side {side!r}")
            count = row.get("count", "1") or "1"
            if not count.isdigit():
                self.p.add(path, row.line, f"marker {mid}: count {count!r} is not a whole number")
                count = "1"
            markers[mid] = MarkerType(
                id=mid, name=row.get("name"), faces=tuple(f.strip() for f in row.get("faces").split("|")),
                side=side, count=int(count), kind=row.get("kind", "marker") or "marker", note=row.get("note"),
                source=self.source(row.get("source"), path, row.line, f"marker {mid}"),
            )
        return markers

    def markers_from_tables(self, data: dict, path: Path, lines: TomlLines, tables: dict[str, Table],
                            markers: dict[str, MarkerType]) -> dict[str, MarkerType]:
        """``[[markers_from_table]]``: one marker per row of a table (Fire and Ice's combat chits
        are printed as a table, one row per chit).  ``id``, ``name``, ``face`` and ``kind`` are
        ``str.format`` patterns over the row's columns (``"chit-{chit}"``); faces split at ``|``."""
        made: dict[str, MarkerType] = {}
        for i, item in enumerate(data.get("markers_from_table") or []):
            line = lines.find("markers_from_table", i)
            table = tables.get(str(item.get("table", "")))
            if table is None:
                self.p.add(path, line, f"markers_from_table: unknown table {item.get('table')!r}")
                continue
            for row in table.rows:
                try:
                    fields = {k: str(item.get(k, "")).format(**row) for k in ("id", "name", "face", "kind")}
                except (KeyError, IndexError, ValueError) as exc:
                    self.p.add(path, line, f"markers_from_table {table.id}: pattern names no column ({exc})")
                    break
                mid = fields["id"].lower()
                if not self.check_id(mid, path, line, "marker"):
                    continue
                if mid in markers or mid in made:
                    self.p.add(path, line, f"markers_from_table {table.id}: marker id {mid!r} used twice")
                    continue
                made[mid] = MarkerType(id=mid, name=fields["name"] or mid, faces=tuple(fields["face"].split("|")),
                                       kind=fields["kind"] or "marker", source=table.source,
                                       note=f"one row of table {table.id}")
        return made

    # -- tables ----------------------------------------------------------------------

    def read_tables(self) -> dict[str, Table]:
        path = self.dir / "tables.toml"
        if not path.exists():
            return {}
        data, lines = read_toml(path, self.p)
        tables: dict[str, Table] = {}
        index: dict[str, int] = {}  # table id -> its [[table]] number (for the line of its declaration)
        for i, item in enumerate(data.get("table") or []):
            line = lines.find("table", i)
            tid = str(item.get("id", ""))
            if not self.check_id(tid, path, line, "table"):
                continue
            if tid in tables:
                self.p.add(path, line, f"table {tid!r} defined twice")
            file = self.dir / "tables" / str(item.get("file") or f"{tid}.csv")
            rows = read_csv(file, self.p, ())
            columns = tuple(rows[0].cells.keys()) if rows else ()
            key = str(item.get("key", ""))
            if rows and key and key not in columns:
                self.p.add(path, lines.find("table", i, "key"), f"table {tid}: key column {key!r} not in {file.name}")
            if key and rows:
                seen: set[str] = set()
                for r in rows:
                    k = r.get(key)
                    if k in seen:
                        self.p.add(file, r.line, f"table {tid}: key {key}={k!r} appears twice")
                    seen.add(k)
            declared = item.get("columns") or {}
            if not isinstance(declared, dict):
                self.p.add(path, lines.find("table", i, "columns"),
                           f"table {tid}: columns must be a table of column = type")
                declared = {}
            tables[tid] = Table(
                id=tid, name=str(item.get("name", tid)), columns=columns,
                rows=tuple({c: v.strip() for c, v in r.cells.items()} for r in rows),
                key=key, note=str(item.get("note", "")),
                source=self.source(item.get("source"), path, line, f"table {tid}"),
                file=file.relative_to(self.dir).as_posix(),
                row_lines=tuple(r.line for r in rows),
                column_types={str(c): str(t) for c, t in declared.items()},
                needed_rows=track_cells(item["rows"]) if "rows" in item else (),
            )
            index[tid] = i
            self.check_rows(tables[tid], item.get("rows"), path, lines.find("table", i, "rows"))
        self.check_cell_types(tables, path, lines, index)
        return tables

    def check_rows(self, table: Table, wanted: Any, path: Path, line: int) -> None:
        """`rows`: the keys the rules look up (`"1-6"` for a d6 table, or a list); each needs its row."""
        if wanted is None or not table.rows or (table.key and table.key not in table.columns):
            return  # no rows, or a key column the CSV lacks: reported already
        keys = table.needed_rows
        if not keys or not table.key:
            self.p.add(path, line, f"table {table.id}: rows must be a list of keys or a range like \"1-6\" "
                                   "(and the table needs a `key`)")
            return
        have = {r[table.key] for r in table.rows}
        missing = [k for k in keys if k not in have]
        if missing:
            self.p.add(self.dir / table.file, table.row_lines[-1],
                       f"table {table.id}: no row {table.key}={', '.join(missing)}; the rules look up "
                       f"{table.key} {', '.join(keys)} [tables.toml rows]")

    def check_cell_types(self, tables: dict[str, Table], path: Path, lines: TomlLines, index: dict[str, int]) -> None:
        """Every cell of a column with a declared type (tables.toml [table.columns]) is of that type:
        a CRT code without a row in its result-code table, or `all` where a number is read, is a
        problem at the cell's line (docs/data-format.md "Column types")."""
        keys = {t.id: tuple(r.get(t.key, "") for r in t.rows) for t in tables.values() if t.key in t.columns}
        for table in tables.values():
            for column, text in table.column_types.items():
                where = lines.find("table", index[table.id], "columns")
                if column != "*" and table.columns and column not in table.columns:
                    self.p.add(path, where, f"table {table.id}: columns: no column {column!r} in {table.file} "
                                            f"(it has: {', '.join(table.columns)})")
                    continue
                try:
                    kind = cells.compile_type(text, keys)
                except cells.CellTypeError as err:
                    self.p.add(path, where, f"table {table.id}: columns: {column} = {text!r}: {err}")
                    continue
                wanted = [c for c in table.columns if c != table.key] if column == "*" else [column]
                for row, line in zip(table.rows, table.row_lines):
                    for c in wanted:
                        value = row.get(c) or ""
                        if not kind.matches(value):
                            self.p.add(self.dir / table.file, line, _cell_problem(table, c, value, kind, tables, column))

    # -- maps -------------------------------------------------------------------------

    def read_maps(self) -> dict[str, GameMap]:
        maps: dict[str, GameMap] = {}
        for path in sorted((self.dir / "maps").glob("*.toml")):
            game_map = self.read_map(path)
            if game_map is not None:
                maps[game_map.id] = game_map
        return maps

    def read_map(self, path: Path) -> GameMap | None:
        data, lines = read_toml(path, self.p)
        if not data:
            return None
        mid = str(data.get("id", path.stem))
        if mid != path.stem:
            self.p.add(path, lines.find("id"), f"map id {mid!r} differs from the file name {path.stem!r}")
        grid = self.read_grid(data.get("grid") or {}, path, lines)
        terrain_types: dict[str, TerrainType] = {}
        by_char: dict[str, str] = {}
        for i, item in enumerate(data.get("terrain") or []):
            line = lines.find("terrain", i)
            tid, char = str(item.get("id", "")), str(item.get("char", ""))
            if not self.check_id(tid, path, line, "terrain"):
                continue
            char_line = lines.find("terrain", i, "char")
            if len(char) != 1 or char.isspace():
                self.p.add(path, char_line, f"terrain {tid}: char must be one visible character, got {char!r}")
            elif char in by_char:
                self.p.add(path, char_line, f"terrain {tid}: char {char!r} already used by {by_char[char]}")
            colour = str(item.get("colour", ""))
            if not COLOUR.match(colour):
                self.p.add(path, lines.find("terrain", i, "colour"), f"terrain {tid}: colour {colour!r} is not #rrggbb")
            by_char[char] = tid
            terrain_types[tid] = TerrainType(tid, str(item.get("name", tid)), char, colour,
                                             self.source(item.get("source"), path, line, f"map {mid} terrain {tid}", required=False),
                                             water=bool(item.get("water", False)))
        source = self.source(data.get("source"), path, lines.find("source"), f"map {mid}")
        if grid is None:
            return None
        stem = path.with_suffix("")
        terrain = self.read_terrain(Path(f"{stem}.terrain.txt"), grid, by_char)
        # features.csv is transcribed from the rulebook; geo-features.csv is
        # generated from geography by scenarios.mapbuild (towns the book omits).
        features = self.read_features(Path(f"{stem}.features.csv"), grid, mid)
        features += self.read_features(Path(f"{stem}.geo-features.csv"), grid, mid)
        hexsides = self.read_hexsides(Path(f"{stem}.hexsides.csv"), grid, mid)
        paths = self.read_paths(Path(f"{stem}.paths.csv"), grid, mid)
        board = self.read_board(data["board"], path, lines, mid, grid) if "board" in data else None
        return GameMap(
            id=mid, name=str(data.get("name", mid)), grid=grid, scale=str(data.get("scale", "")),
            terrain_types=terrain_types, terrain=terrain, features=features,
            hexside_features=hexsides, paths=paths, source=source, note=str(data.get("note", "")), board=board,
        )

    def read_board(self, data: Any, path: Path, lines: TomlLines, mid: str, grid: HexGrid) -> BoardImage | None:
        """A scanned board (``[board]``, scenarios.board): problems at the toml key they are about."""
        if not isinstance(data, dict):
            self.p.add(path, lines.find("board"), "[board] must be a table (image, source, calibration, points)")
            return None
        source = self.source(data.get("source"), path, lines.find("board", "source"), f"map {mid} board image")
        board, problems = boards.read_board(data, path.parent, grid, source, f"modgen board {self.game_id} {mid}")
        for key, text in problems:
            self.p.add(path, lines.find(*key), text)
        return board

    def read_grid(self, g: dict, path: Path, lines: TomlLines) -> HexGrid | None:
        try:
            cols, rows = g["columns"], g["rows"]
            return HexGrid.build(
                first_col=int(cols[0]), last_col=int(cols[1]),
                first_row=int(rows[0]), last_row=int(rows[1]),
                hex_height=int(g.get("hex_height", 88)),
                shifted_columns=str(g.get("shifted_columns", "even")),
                stagger=bool(g.get("stagger", False)),
                sideways=bool(g.get("sideways", False)),
                col_digits=int(g.get("col_digits", 2)),
                row_digits=int(g.get("row_digits", 2)),
            )
        except (KeyError, IndexError, TypeError, ValueError) as err:
            self.p.add(path, lines.find("grid"), f"[grid] needs columns = [first, last], rows = [first, last] "
                                                 f"and valid options ({err})")
            return None

    def parse_hex(self, text: str, grid: HexGrid, path: Path, line: int, what: str) -> Hex | None:
        try:
            hex = grid.parse(text)
        except ValueError:
            self.p.add(path, line, f"{what}: {text!r} is not a hex label")
            return None
        if not grid.is_on_map(hex):
            self.p.add(path, line, f"{what}: hex {text} is off the map "
                                   f"(columns {grid.first_col}-{grid.last_col}, rows {grid.first_row}-{grid.last_row})")
            return None
        return hex

    def read_terrain(self, path: Path, grid: HexGrid, by_char: dict[str, str]) -> dict[Hex, str]:
        """One line per printed row: the row number, then one character per column."""
        terrain: dict[Hex, str] = {}
        if not path.exists():
            self.p.add(path, 1, "terrain grid file is missing")
            return terrain
        width = grid.last_col - grid.first_col + 1
        seen_rows: set[int] = set()
        grid_text = read_data_text(path, self.p)
        if grid_text is None:
            return terrain
        for number, text in enumerate(grid_text.splitlines(), start=1):
            if not text.strip() or text.lstrip().startswith("#"):
                continue
            parts = text.split(None, 1)
            if len(parts) != 2 or not parts[0].isdigit():
                self.p.add(path, number, "expected '<row number> <one character per column>'")
                continue
            row, chars = int(parts[0]), parts[1].rstrip()
            if row in seen_rows:
                self.p.add(path, number, f"row {row} appears twice")
            seen_rows.add(row)
            if not grid.first_row <= row <= grid.last_row:
                self.p.add(path, number, f"row {row} is outside rows {grid.first_row}-{grid.last_row}")
                continue
            if len(chars) != width:
                self.p.add(path, number, f"row {row} has {len(chars)} columns, expected {width}")
            for offset, char in enumerate(chars[:width]):
                if char not in by_char:
                    self.p.add(path, number, f"row {row} column {grid.first_col + offset}: "
                                             f"unknown terrain character {char!r}")
                    continue
                terrain[Hex(grid.first_col + offset, row)] = by_char[char]
        missing = [r for r in range(grid.first_row, grid.last_row + 1) if r not in seen_rows]
        if missing:
            self.p.add(path, 1, f"rows missing from the terrain grid: {', '.join(map(str, missing[:10]))}"
                                + ("..." if len(missing) > 10 else ""))
        return terrain

    def read_features(self, path: Path, grid: HexGrid, mid: str) -> list[HexFeature]:
        if not path.exists():
            return []
        result = []
        for row in read_csv(path, self.p, ("hex", "kind"), FEATURES_COLUMNS):
            hex = self.parse_hex(row.get("hex"), grid, path, row.line, "feature")
            if hex is None:
                continue
            kind, side = row.get("kind"), row.get("side")
            if not kind:
                self.p.add(path, row.line, "feature without a kind")
            if side and side not in self.sides:
                self.p.add(path, row.line, f"feature {kind} {row.get('hex')}: unknown side {side!r}")
            feature = HexFeature(hex, kind, row.get("name"), side,
                                 self.source(row.get("source"), path, row.line,
                                             f"map {mid} feature {kind} {row.get('hex')}", required=False),
                                 self.where(path, row.line))
            result.append(feature)
            name = f" {feature.name}" if feature.name else ""
            self.hex_facts.append(Fact(mid, hex, facts.feature_demands(kind), f"{kind}{name} ({row.get('hex')})",
                                       feature.source, feature.where))
        return result

    def read_hexsides(self, path: Path, grid: HexGrid, mid: str) -> list[HexsideFeature]:
        if not path.exists():
            return []
        result = []
        for row in read_csv(path, self.p, ("hex_a", "hex_b", "kind"), HEXSIDES_COLUMNS):
            a = self.parse_hex(row.get("hex_a"), grid, path, row.line, "hexside")
            b = self.parse_hex(row.get("hex_b"), grid, path, row.line, "hexside")
            if a is None or b is None:
                continue
            if grid.distance(a, b) != 1:
                self.p.add(path, row.line, f"hexside {row.get('hex_a')}-{row.get('hex_b')}: the hexes are not adjacent")
                continue
            result.append(HexsideFeature(Hexside.between(a, b), row.get("kind"), row.get("name"),
                                         self.source(row.get("source"), path, row.line,
                                                     f"map {mid} hexside {row.get('kind')}", required=False)))
        return result

    def read_paths(self, path: Path, grid: HexGrid, mid: str) -> list[MapPath]:
        if not path.exists():
            return []
        result = []
        for row in read_csv(path, self.p, ("kind", "hexes"), PATHS_COLUMNS):
            hexes = []
            for label in row.get("hexes").split():
                hex = self.parse_hex(label, grid, path, row.line, f"{row.get('kind')} {row.get('name')}")
                if hex is not None:
                    hexes.append(hex)
            for a, b in zip(hexes, hexes[1:]):
                if grid.distance(a, b) != 1:
                    self.p.add(path, row.line, f"{row.get('kind')} {row.get('name')}: "
                                               f"{grid.label(a)} and {grid.label(b)} are not adjacent")
            if len(hexes) < 2:
                self.p.add(path, row.line, "a path needs at least two hexes")
                continue
            result.append(MapPath(row.get("kind"), tuple(hexes), row.get("name"),
                                  self.source(row.get("source"), path, row.line,
                                              f"map {mid} {row.get('kind')} {row.get('name')}", required=False)))
        return result

    # -- scenarios --------------------------------------------------------------------

    def read_scenarios(self, units, markers, boxes, tracks, maps, sides) -> dict[str, Scenario]:
        """Every scenario, in the order of their `order` keys (the same order: by id); those without one
        after them, by id (so a scenario added without one never moves the others)."""
        found: list[Scenario] = []
        for path in sorted((self.dir / "scenarios").glob("*.toml")):
            scenario = self.read_scenario(path, units, markers, boxes, tracks, maps, sides)
            if scenario is not None:
                found.append(scenario)
        result = {s.id: s for s in sorted(found, key=lambda s: (s.order is None, s.order or 0, s.id))}
        if not result:
            self.p.add(self.dir / "scenarios", 1, "no scenarios (scenarios/<id>.toml)")
        return result

    def read_default_scenario(self, data: dict, path: Path, lines: TomlLines, scenarios: dict[str, Scenario]) -> str:
        """game.toml `default_scenario`: the scenario a game opens on (empty: the first in order)."""
        wanted = str(data.get("default_scenario", "")).strip()
        if wanted and scenarios and wanted not in scenarios:
            self.p.add(path, lines.find("default_scenario"), f"default_scenario {wanted!r} is not a scenario of "
                                                              f"this game (scenarios: {', '.join(scenarios)})")
        return wanted

    def read_scenario(self, path: Path, units, markers, boxes, tracks, maps, sides) -> Scenario | None:
        data, lines = read_toml(path, self.p)
        if not data:
            return None
        sid = str(data.get("id", path.stem))
        self.scenario_files[sid] = special_rules.ScenarioFile(path, data, lines)
        if sid != path.stem:
            self.p.add(path, lines.find("id"), f"scenario id {sid!r} differs from the file name {path.stem!r}")
        for key in ("name", "maps", "first_player", "sets_up_first"):
            self.need(data, key, path, lines, key)
        for key in ("first_player", "sets_up_first"):
            if data.get(key) and data[key] not in sides:
                self.p.add(path, lines.find(key), f"{key}: unknown side {data[key]!r}")
        map_ids = tuple(data.get("maps") or ())
        for m in map_ids:
            if m not in maps:
                self.p.add(path, lines.find("maps"), f"unknown map {m!r}")
        stem = path.with_suffix("")
        turns = self.read_turns(Path(f"{stem}.turns.csv"))
        context = _PlaceContext(units, markers, boxes, [maps[m] for m in map_ids if m in maps], len(turns),
                                tracks)
        setup = self.read_setup(Path(f"{stem}.setup.csv"), context, sid)
        schedule = self.read_schedule(Path(f"{stem}.schedule.csv"), context, sid)
        placed = {p.unit for p in setup if not p.is_marker}
        for arrival in schedule:
            if arrival.action == "arrive" and arrival.unit in placed:
                self.p.add(Path(f"{stem}.schedule.csv"), 1,
                           f"unit {arrival.unit} arrives on turn {arrival.turn} but is already in the setup")
        supply = {str(k): [str(x) for x in v] for k, v in (data.get("supply_sources") or {}).items()}
        source = self.source(data.get("source"), path, lines.find("source"), f"scenario {sid}")
        for side, places in supply.items():
            line = lines.find("supply_sources", side)
            if side not in sides:
                self.p.add(path, line, f"supply_sources: unknown side {side!r}")
            for place in places:
                self.check_location(place, context, path, line, f"supply source of {side}")
                found = self.locate(place, context)
                if found is not None:
                    self.hex_facts.append(Fact(found[0].id, found[1], (facts.LAND,),
                                               f"{sid}: supply source of {side} ({place})", source,
                                               self.where(path, line)))
        for rule, params in (data.get("special_rules") or {}).items():
            if isinstance(params, dict):
                self.source(params.get("source"), path, lines.find("special_rules", rule, "source"),
                            f"scenario {sid} rule {rule}")
                self.nested_stand_ins(params, path, lines, ("special_rules", rule), f"scenario {sid} rule {rule}")
        victory = data.get("victory") or {}
        if isinstance(victory, dict):
            self.source(victory.get("source"), path, lines.find("victory", "source"), f"scenario {sid} victory",
                        required=False)
            self.nested_stand_ins(victory, path, lines, ("victory",), f"scenario {sid} victory")
        return Scenario(
            id=sid, name=str(data.get("name", sid)), maps=map_ids,
            first_player=str(data.get("first_player", "")), sets_up_first=str(data.get("sets_up_first", "")),
            turns=turns, setup=setup, schedule=schedule,
            special_rules=dict(data.get("special_rules") or {}), victory=dict(data.get("victory") or {}),
            supply_sources=supply, description=str(data.get("description", "")), note=str(data.get("note", "")),
            order=self.read_order(data, path, lines),
            source=source,
        )

    def read_order(self, data: dict, path: Path, lines: TomlLines) -> int | None:
        """A scenario's `order`: a whole number, or None when it has none."""
        value = data.get("order")
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.p.add(path, lines.find("order"), f"order {value!r} must be a whole number (1, 2, ...): the "
                                                  "scenario's place in the lists")
            return None
        return value

    def read_turns(self, path: Path) -> list[Turn]:
        turns: list[Turn] = []
        for row in read_csv(path, self.p, ("turn", "date")):
            number = row.get("turn")
            if not number.isdigit():
                self.p.add(path, row.line, f"turn {number!r} is not a whole number")
                continue
            if int(number) != len(turns) + 1:
                self.p.add(path, row.line, f"turn {number} out of order (expected {len(turns) + 1})")
            extras = {k: v.strip() for k, v in row.cells.items() if k not in ("turn", "date", "source")}
            if "source" in row.cells:
                self.source(row.get("source"), path, row.line, f"turn {number} of {path.name.split('.')[0]}",
                            required=False)
            turns.append(Turn(int(number), row.get("date"), extras))
        return turns

    def check_location(self, text: str, ctx: "_PlaceContext", path: Path, line: int, what: str) -> None:
        if text.startswith("box:"):
            if text[4:] not in ctx.boxes:
                self.p.add(path, line, f"{what}: unknown box {text[4:]!r}")
            return
        if text.startswith("track:"):
            track_id, _, cell = text[len("track:"):].partition(":")
            track = ctx.tracks.get(track_id)
            if track is None:
                self.p.add(path, line, f"{what}: unknown track {track_id!r}")
            elif cell not in track.cells:
                self.p.add(path, line, f"{what}: track {track_id} has no cell {cell!r}")
            return
        if text.startswith("turn:"):
            turn = text[len("turn:"):]
            if not turn.isdigit() or not 1 <= int(turn) <= ctx.turns:
                self.p.add(path, line, f"{what}: {text!r} is not a turn of this scenario (1-{ctx.turns})")
            return
        if text.startswith("edge:") or text.startswith("any:"):
            return  # a rule-described place; the choice column explains it
        label = text.split("@", 1)[0]
        map_hint = text.split("@", 1)[1] if "@" in text else ""
        candidates = [m for m in ctx.maps if not map_hint or m.id == map_hint]
        if not candidates:
            self.p.add(path, line, f"{what}: no map {map_hint!r} in this scenario")
            return
        for m in candidates:
            try:
                if m.grid.is_on_map(m.grid.parse(label)):
                    return
            except ValueError:
                self.p.add(path, line, f"{what}: {text!r} is not a hex label, box:<id>, track:<id>:<cell>, "
                                       "turn:<n>, edge:<name> or any:<kind>")
                return
        self.p.add(path, line, f"{what}: hex {label} is not on map {', '.join(m.id for m in candidates)}")

    @staticmethod
    def locate(text: str, ctx: "_PlaceContext") -> tuple[GameMap, Hex] | None:
        """The map and hex a location names (None for boxes, rule-described places and bad labels)."""
        if text.startswith(("box:", "edge:", "any:")):
            return None
        label, _, map_hint = text.partition("@")
        for m in ctx.maps:
            if map_hint and m.id != map_hint:
                continue
            try:
                hex = m.grid.parse(label)
            except ValueError:
                return None
            if m.grid.is_on_map(hex):
                return m, hex
        return None

    def stand_fact(self, unit_id: str, location: str, ctx: "_PlaceContext", source: Source, where: str,
                   what: str) -> None:
        """A unit placed on a map hex: that hex must be terrain the unit may stand on (scenarios.facts)."""
        found = self.locate(location, ctx)
        unit = ctx.units.get(unit_id)
        if found is None or unit is None:
            return
        gm, hex = found
        name = f" ({unit.name})" if unit.name else ""
        self.hex_facts.append(Fact(gm.id, hex, (facts.STAND,), f"{what}{name} in {gm.grid.label(hex)}",
                                   source, where, unit))

    def check_unit_step(self, unit_id: str, step: str, ctx: "_PlaceContext", path: Path, line: int, what: str) -> bool:
        unit = ctx.units.get(unit_id)
        if unit is None:
            self.p.add(path, line, f"{what}: unknown unit {unit_id!r}")
            return False
        if step and step not in {s.name for s in unit.steps}:
            self.p.add(path, line, f"{what}: unit {unit_id} has no step {step!r} "
                                   f"(it has {', '.join(s.name for s in unit.steps)})")
        return True

    def check_marker_face(self, marker_id: str, face: str, ctx: "_PlaceContext", path: Path, line: int,
                          what: str) -> bool:
        marker = ctx.markers.get(marker_id)
        if marker is None:
            self.p.add(path, line, f"{what}: unknown marker {marker_id!r}")
            return False
        if face and face not in marker.faces:
            self.p.add(path, line, f"{what}: marker {marker_id} has no face {face!r} "
                                   f"(it has {', '.join(marker.faces)})")
        return True

    def read_setup(self, path: Path, ctx: "_PlaceContext", sid: str) -> list[Placement]:
        result: list[Placement] = []
        seen: dict[str, int] = {}
        for row in read_csv(path, self.p, ("unit", "location", "source"), SETUP_COLUMNS):
            uid = row.get("unit")
            what = f"setup of {uid}"
            if uid.startswith(MARKER_PREFIX):
                # Markers (turn, VP, objective...) may be placed any number of times.
                if self.check_marker_face(uid[len(MARKER_PREFIX):], row.get("step"), ctx, path, row.line, what):
                    self.check_location(row.get("location"), ctx, path, row.line, what)
                    result.append(Placement(uid, row.get("location"), row.get("step"), row.get("choice"),
                                            row.get("note"),
                                            self.source(row.get("source"), path, row.line, f"scenario {sid} {what}"),
                                            self.where(path, row.line)))
                continue
            if not self.check_unit_step(uid, row.get("step"), ctx, path, row.line, what):
                continue
            if uid in seen:
                self.p.add(path, row.line, f"unit {uid} is set up twice (also line {seen[uid]})")
            seen[uid] = row.line
            self.check_location(row.get("location"), ctx, path, row.line, what)
            placement = Placement(uid, row.get("location"), row.get("step"), row.get("choice"), row.get("note"),
                                  self.source(row.get("source"), path, row.line, f"scenario {sid} {what}"),
                                  self.where(path, row.line))
            result.append(placement)
            self.stand_fact(uid, placement.location, ctx, placement.source, placement.where, f"{sid}: {what}")
        return result

    def read_schedule(self, path: Path, ctx: "_PlaceContext", sid: str) -> list[Arrival]:
        if not path.exists():
            return []
        result: list[Arrival] = []
        for row in read_csv(path, self.p, ("turn", "action", "unit", "source"), SCHEDULE_COLUMNS):
            uid, action, turn = row.get("unit"), row.get("action"), row.get("turn")
            what = f"{action} of {uid}"
            if action not in ("arrive", "withdraw"):
                self.p.add(path, row.line, f"action {action!r} must be 'arrive' or 'withdraw'")
            if not turn.isdigit() or not 1 <= int(turn) <= max(ctx.turns, 1):
                self.p.add(path, row.line, f"{what}: turn {turn!r} is not a turn of this scenario (1-{ctx.turns})")
                continue
            if not self.check_unit_step(uid, row.get("step"), ctx, path, row.line, what):
                continue
            if action == "arrive":
                if not row.get("location"):
                    self.p.add(path, row.line, f"{what}: an arrival needs a location")
                else:
                    self.check_location(row.get("location"), ctx, path, row.line, what)
            arrival = Arrival(int(turn), uid, action, row.get("location"), row.get("step"), row.get("note"),
                              self.source(row.get("source"), path, row.line, f"scenario {sid} {what}"),
                              self.where(path, row.line))
            result.append(arrival)
            if action == "arrive":
                self.stand_fact(uid, arrival.location, ctx, arrival.source, arrival.where, f"{sid}: {what} on turn {turn}")
        return result


@dataclass
class _PlaceContext:
    units: dict[str, Unit]
    markers: dict[str, MarkerType]
    boxes: dict[str, Box]
    maps: list[GameMap]
    turns: int
    tracks: dict[str, Track]


def iter_problems(directories: list[Path]) -> Iterator[str]:
    for d in directories:
        yield from check_game_dir(d)
