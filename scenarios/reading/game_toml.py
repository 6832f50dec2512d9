"""game.toml's tables: sides, nationalities, unit types, boxes (and sealed pools), tracks, dice rolls,
map areas, terrain bans and the default scenario, each problem at the line of its key."""

from __future__ import annotations

import re
from pathlib import Path

from scenarios import pools
from scenarios.model import (
    DRAW_KINDS,
    DRAW_UNSEEN,
    Box,
    Game,
    MapArea,
    Nationality,
    Roll,
    Scenario,
    Side,
    TerrainBan,
    Track,
    UnitType,
)
from scenarios.problems import TomlLines
from scenarios.reading.context import COLOUR, Reading
from scenarios.reading.files import cell_range

ROLL_DICE = re.compile(r"^([1-9][0-9]?)d([0-9]{1,3})$")
REQUIRED_KEYS = ("id", "name", "publisher", "year", "rulebook", "value_fields")


def check_header(r: Reading, data: dict, path: Path, lines: TomlLines) -> None:
    """The keys every game.toml needs, and an id that is its directory's name."""
    for key in REQUIRED_KEYS:
        r.need(data, key, path, lines, key)
    if data.get("id") and data["id"] != r.dir.name:
        r.p.add(path, lines.find("id"), f"id {data['id']!r} differs from the directory name {r.dir.name!r}")


def read_sides(r: Reading, data: dict, path: Path, lines: TomlLines) -> dict[str, Side]:
    sides: dict[str, Side] = {}
    for _, item, _, sid in r.entries(data, "side", path, lines, "side", sides):
        sides[sid] = Side(sid, str(item.get("name", sid)))
    if len(sides) < 2:
        r.p.add(path, lines.find("side", 0), "a game needs at least two [[side]] tables")
    return sides


def read_nationalities(r: Reading, data: dict, path: Path, lines: TomlLines, sides: dict) -> dict[str, Nationality]:
    result: dict[str, Nationality] = {}
    for i, item, line, nid in r.entries(data, "nationality", path, lines, "nationality", result):
        if item.get("side") not in sides:
            r.p.add(path, lines.find("nationality", i, "side"), f"nationality {nid}: unknown side {item.get('side')!r}")
        for key in ("background", "text", "symbol"):
            value = item.get(key)
            if value and not COLOUR.match(str(value)):
                r.p.add(path, lines.find("nationality", i, key), f"nationality {nid}: {key} {value!r} is not a #rrggbb colour")
        if not item.get("background"):
            r.p.add(path, line, f"nationality {nid}: missing 'background' colour")
        result[nid] = Nationality(
            id=nid,
            name=str(item.get("name", nid)),
            side=str(item.get("side", "")),
            background=str(item.get("background", "#ffffff")),
            text=str(item.get("text", "#000000")),
            symbol=str(item.get("symbol", "")),
            letter=str(item.get("letter", "")),
            source=r.source(item.get("source"), path, line, f"nationality {nid} colours", required=False),
        )
    return result


def read_unit_types(r: Reading, data: dict, path: Path, lines: TomlLines) -> dict[str, UnitType]:
    result: dict[str, UnitType] = {}
    for _, item, _, tid in r.entries(data, "unit_type", path, lines, "unit type", result):
        result[tid] = UnitType(tid, str(item.get("name", tid)), str(item.get("symbol", tid)), bool(item.get("mobile", False)))
    return result


def read_terrain_bans(r: Reading, data: dict, path: Path, lines: TomlLines, unit_types: dict, units: dict,
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
            r.p.add(path, line, "terrain_ban needs `units` (unit type ids or flags) and `terrain` (terrain ids)")
        for u in selectors:
            if u not in unit_types and u not in flags:
                r.p.add(path, lines.find("terrain_ban", i, "units"),
                        f"terrain_ban: {u!r} is neither a unit type nor a flag any unit has")
        for t in terrain:
            if t not in terrain_ids:
                r.p.add(path, lines.find("terrain_ban", i, "terrain"),
                        f"terrain_ban: {t!r} is not a terrain of any map ({', '.join(sorted(terrain_ids))})")
        result.append(TerrainBan(selectors, terrain, tuple(str(k) for k in item.get("except_on") or ()),
                                 r.source(item.get("source"), path, line, f"terrain ban {i + 1}"),
                                 r.where(path, line)))
    return tuple(result)


def read_boxes(r: Reading, data: dict, path: Path, lines: TomlLines, sides: dict) -> dict[str, Box]:
    result: dict[str, Box] = {}
    for i, item, line, bid in r.entries(data, "box", path, lines, "box"):
        side = str(item.get("side", ""))
        if side and side not in sides:
            r.p.add(path, line, f"box {bid}: unknown side {side!r}")
        draw = str(item.get("draw", ""))
        if draw and draw not in DRAW_KINDS:
            r.p.add(path, lines.find("box", i, "draw"),
                    f"box {bid}: draw {draw!r} must be one of {', '.join(DRAW_KINDS)}")
        result[bid] = Box(bid, str(item.get("name", bid)), side, str(item.get("kind", "box")),
                          r.source(item.get("source"), path, line, f"box {bid}", required=False),
                          draw=draw, returns=str(item.get("returns", "")),
                          holds=str(item.get("holds", "")), back=str(item.get("back", "")),
                          reveal=str(item.get("reveal", "")), placeholders=str(item.get("placeholders", "")),
                          faces=str(item.get("faces", "")))
        if item.get("placeholders") and (draw != DRAW_UNSEEN or not side):
            r.p.add(path, lines.find("box", i, "placeholders"),
                    f"box {bid}: placeholders stand for pieces nobody may see: the box needs draw = "
                    f"\"{DRAW_UNSEEN}\" and a side")
        for key in ("returns", "reveal"):  # "stand-in: ..." rule text is listed like any stand-in
            r.source(item.get(key), path, line, f"box {bid} {key}", required=False)
    return result


def check_sealed_pools(r: Reading, game: Game, data: dict, path: Path, lines: TomlLines) -> None:
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
            r.p.add(path, lines.find("box", i, "faces"),
                    f"box {box.id}: faces must name a box (not a pool) where the module lays the counters the "
                    f"placeholders stand for; {box.faces!r} is none")
        shown = pools.placeholders(game, box)
        if not shown:
            r.p.add(path, line, f"box {box.id}: no unit of side {box.side} has the flag {box.placeholders!r} "
                                "(units.csv flags)")
            continue
        for scenario in game.scenarios.values():
            held = pools.pool_contents(game, scenario).get(box.id, [])
            if len(held) > len(shown):
                r.p.add(path, line, f"box {box.id}: scenario {scenario.id} puts {len(held)} pieces in it, but "
                                    f"only {len(shown)} units have the flag {box.placeholders!r} to show them")
            placed = sorted(({p.unit for p in scenario.setup} | {a.unit for a in scenario.schedule}) & set(shown))
            if placed:
                r.p.add(path, line, f"box {box.id}: scenario {scenario.id} places {', '.join(placed)}, a "
                                    "placeholder the module shows for the pool's pieces; place the pool's "
                                    "own counters in box:" + box.id)


def read_tracks(r: Reading, data: dict, path: Path, lines: TomlLines) -> dict[str, Track]:
    """``[[track]]`` tables: ``cells`` is a list of labels or a range ``"0-19"``."""
    result: dict[str, Track] = {}
    for i, item, line, tid in r.entries(data, "track", path, lines, "track", result):
        cells = cell_range(item.get("cells"))
        if not cells:
            r.p.add(path, lines.find("track", i, "cells"),
                    f"track {tid}: cells must be a list of labels or a range like \"0-19\"")
        elif len(set(cells)) != len(cells):
            r.p.add(path, lines.find("track", i, "cells"), f"track {tid}: a cell is named twice")
        result[tid] = Track(tid, str(item.get("name", tid)), cells,
                            r.source(item.get("source"), path, line, f"track {tid}"),
                            str(item.get("note", "")))
    return result


def read_rolls(r: Reading, data: dict, path: Path, lines: TomlLines, dice: tuple[str, ...]) -> tuple[Roll, ...]:
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
            r.p.add(path, lines.find("roll", i, "dice"), f"roll {i + 1}: dice {item.get('dice')!r} must be "
                    f"like \"1d6\" of a die the game uses ({', '.join(dice)})")
            continue
        name = str(item.get("name") or item.get("dice"))
        if any(roll.name == name for roll in rolls):
            r.p.add(path, line, f"roll {name!r} defined twice")
        uses = str(item.get("uses", "")).strip()
        if not uses:
            r.p.add(path, lines.find("roll", i), f"roll {name!r}: say what it is rolled for (uses)")
        source = r.source(item.get("source"), path, line, f"roll {name}")
        rolls.append(Roll(name, int(found.group(1)), int(found.group(2)), uses, source, bool(item.get("ask", False))))
    return tuple(rolls)


def read_map_areas(r: Reading, data: dict, path: Path, lines: TomlLines) -> tuple[MapArea, ...]:
    """``[[map_area]]``: a named region beyond border rivers (the maps are checked when drawn)."""
    areas = []
    for _, item, line, aid in r.entries(data, "map_area", path, lines, "map_area"):
        beyond = tuple(str(river) for river in item.get("beyond") or ())
        if not beyond:
            r.p.add(path, line, f"map_area {aid}: beyond must name the rivers that bound it")
        areas.append(MapArea(aid, str(item.get("map", "")), str(item.get("name", aid)), beyond,
                             str(item.get("label", "")), r.source(item.get("source"), path, line,
                                                                  f"map_area {aid}")))
    return tuple(areas)


def read_default_scenario(r: Reading, data: dict, path: Path, lines: TomlLines,
                          scenarios: dict[str, Scenario]) -> str:
    """game.toml `default_scenario`: the scenario a game opens on (empty: the first in order)."""
    wanted = str(data.get("default_scenario", "")).strip()
    if wanted and scenarios and wanted not in scenarios:
        r.p.add(path, lines.find("default_scenario"), f"default_scenario {wanted!r} is not a scenario of "
                                                       f"this game (scenarios: {', '.join(scenarios)})")
    return wanted
