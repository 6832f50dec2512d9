"""scenarios/<id>.toml and its turns (<id>.turns.csv); the setup and schedule beside it are read by
``setups`` against what this file names (maps, turns)."""

from __future__ import annotations

from pathlib import Path

from scenarios import facts, special_rules
from scenarios.model import Fact, Scenario, Turn
from scenarios.problems import TomlLines
from scenarios.reading.context import Reading
from scenarios.reading.files import read_csv, read_toml
from scenarios.reading.places import PlaceContext, check_location, locate
from scenarios.reading.setups import read_schedule, read_setup


def read_scenarios(r: Reading, units, markers, boxes, tracks, maps, sides) -> dict[str, Scenario]:
    """Every scenario, in the order of their `order` keys (the same order: by id); those without one
    after them, by id (so a scenario added without one never moves the others)."""
    found: list[Scenario] = []
    for path in sorted((r.dir / "scenarios").glob("*.toml")):
        scenario = read_scenario(r, path, units, markers, boxes, tracks, maps, sides)
        if scenario is not None:
            found.append(scenario)
    result = {s.id: s for s in sorted(found, key=lambda s: (s.order is None, s.order or 0, s.id))}
    if not result:
        r.p.add(r.dir / "scenarios", 1, "no scenarios (scenarios/<id>.toml)")
    return result


def read_scenario(r: Reading, path: Path, units, markers, boxes, tracks, maps, sides) -> Scenario | None:
    data, lines = read_toml(path, r.p)
    if not data:
        return None
    sid = str(data.get("id", path.stem))
    r.scenario_files[sid] = special_rules.ScenarioFile(path, data, lines)
    if sid != path.stem:
        r.p.add(path, lines.find("id"), f"scenario id {sid!r} differs from the file name {path.stem!r}")
    for key in ("name", "maps", "first_player", "sets_up_first"):
        r.need(data, key, path, lines, key)
    for key in ("first_player", "sets_up_first"):
        if data.get(key) and data[key] not in sides:
            r.p.add(path, lines.find(key), f"{key}: unknown side {data[key]!r}")
    map_ids = tuple(data.get("maps") or ())
    for m in map_ids:
        if m not in maps:
            r.p.add(path, lines.find("maps"), f"unknown map {m!r}")
    stem = path.with_suffix("")
    turns = read_turns(r, Path(f"{stem}.turns.csv"))
    context = PlaceContext(units, markers, boxes, [maps[m] for m in map_ids if m in maps], len(turns), tracks)
    setup = read_setup(r, Path(f"{stem}.setup.csv"), context, sid)
    schedule = read_schedule(r, Path(f"{stem}.schedule.csv"), context, sid)
    placed = {p.unit for p in setup if not p.is_marker}
    for arrival in schedule:
        if arrival.action == "arrive" and arrival.unit in placed:
            r.p.add(Path(f"{stem}.schedule.csv"), 1,
                    f"unit {arrival.unit} arrives on turn {arrival.turn} but is already in the setup")
    source = r.source(data.get("source"), path, lines.find("source"), f"scenario {sid}")
    supply = _read_supply_sources(r, data, path, lines, sid, context, sides, source)
    _read_rule_sources(r, data, path, lines, sid)
    return Scenario(
        id=sid, name=str(data.get("name", sid)), maps=map_ids,
        first_player=str(data.get("first_player", "")), sets_up_first=str(data.get("sets_up_first", "")),
        turns=turns, setup=setup, schedule=schedule,
        special_rules=dict(data.get("special_rules") or {}), victory=dict(data.get("victory") or {}),
        supply_sources=supply, description=str(data.get("description", "")), note=str(data.get("note", "")),
        order=_read_order(r, data, path, lines),
        source=source,
    )


def _read_supply_sources(r: Reading, data: dict, path: Path, lines: TomlLines, sid: str, context: PlaceContext,
                         sides, source) -> dict[str, list[str]]:
    """``[supply_sources]``: side -> places; each a place of the scenario, on land (a hex fact)."""
    supply = {str(k): [str(x) for x in v] for k, v in (data.get("supply_sources") or {}).items()}
    for side, places in supply.items():
        line = lines.find("supply_sources", side)
        if side not in sides:
            r.p.add(path, line, f"supply_sources: unknown side {side!r}")
        for place in places:
            check_location(r, place, context, path, line, f"supply source of {side}")
            found = locate(place, context)
            if found is not None:
                r.hex_facts.append(Fact(found[0].id, found[1], (facts.LAND,),
                                        f"{sid}: supply source of {side} ({place})", source, r.where(path, line)))
    return supply


def _read_rule_sources(r: Reading, data: dict, path: Path, lines: TomlLines, sid: str) -> None:
    """The sources of the special rules and the victory schedule (what they say is checked by
    ``scenarios.special_rules`` once the whole game is read)."""
    for rule, params in (data.get("special_rules") or {}).items():
        if isinstance(params, dict):
            r.source(params.get("source"), path, lines.find("special_rules", rule, "source"),
                     f"scenario {sid} rule {rule}")
            r.nested_stand_ins(params, path, lines, ("special_rules", rule), f"scenario {sid} rule {rule}")
    victory = data.get("victory") or {}
    if isinstance(victory, dict):
        r.source(victory.get("source"), path, lines.find("victory", "source"), f"scenario {sid} victory",
                 required=False)
        r.nested_stand_ins(victory, path, lines, ("victory",), f"scenario {sid} victory")


def _read_order(r: Reading, data: dict, path: Path, lines: TomlLines) -> int | None:
    """A scenario's `order`: a whole number, or None when it has none."""
    value = data.get("order")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        r.p.add(path, lines.find("order"), f"order {value!r} must be a whole number (1, 2, ...): the "
                                           "scenario's place in the lists")
        return None
    return value


def read_turns(r: Reading, path: Path) -> list[Turn]:
    turns: list[Turn] = []
    for row in read_csv(path, r.p, ("turn", "date")):
        number = row.get("turn")
        if not number.isdigit():
            r.p.add(path, row.line, f"turn {number!r} is not a whole number")
            continue
        if int(number) != len(turns) + 1:
            r.p.add(path, row.line, f"turn {number} out of order (expected {len(turns) + 1})")
        extras = {k: v.strip() for k, v in row.cells.items() if k not in ("turn", "date", "source")}
        if "source" in row.cells:
            r.source(row.get("source"), path, row.line, f"turn {number} of {path.name.split('.')[0]}",
                     required=False)
        turns.append(Turn(int(number), row.get("date"), extras))
    return turns
