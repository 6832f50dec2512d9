"""A whole game directory: each kind of file in the order the next one needs it, then the checks
that need the whole game (sealed pools, special rules)."""

from __future__ import annotations

from scenarios import special_rules
from scenarios.model import Game
from scenarios.reading import game_toml, maps, scenario, tables, units
from scenarios.reading.context import Reading
from scenarios.reading.files import read_toml


def read_game(r: Reading) -> Game | None:
    """The game of ``r.dir`` (None when its game.toml cannot be read), every problem in ``r.p``."""
    path = r.dir / "game.toml"
    data, lines = read_toml(path, r.p)
    if not data:
        return None
    game_toml.check_header(r, data, path, lines)
    sides = r.sides = game_toml.read_sides(r, data, path, lines)
    nationalities = game_toml.read_nationalities(r, data, path, lines, sides)
    unit_types = game_toml.read_unit_types(r, data, path, lines)
    boxes = game_toml.read_boxes(r, data, path, lines, sides)
    tracks = game_toml.read_tracks(r, data, path, lines)
    map_areas = game_toml.read_map_areas(r, data, path, lines)
    dice = tuple(data.get("dice") or ("d6",))
    rolls = game_toml.read_rolls(r, data, path, lines, dice)
    value_fields = tuple(data.get("value_fields") or ())
    separator = str(data.get("value_separator", "-"))
    step_names = tuple(data.get("step_names") or ("full",))
    game_units = units.read_units(r, sides, nationalities, unit_types, value_fields, separator, step_names)
    markers = units.read_markers(r, sides)
    game_tables = tables.read_tables(r)
    markers.update(units.markers_from_tables(r, data, path, lines, game_tables, markers))
    game_maps = maps.read_maps(r)
    terrain_bans = game_toml.read_terrain_bans(r, data, path, lines, unit_types, game_units, game_maps)
    scenarios = scenario.read_scenarios(r, game_units, markers, boxes, tracks, game_maps, sides)
    default_scenario = game_toml.read_default_scenario(r, data, path, lines, scenarios)
    game = Game(
        id=str(data.get("id", r.dir.name)),
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
        units=game_units,
        markers=markers,
        boxes=boxes,
        maps=game_maps,
        scenarios=scenarios,
        tables=game_tables,
        tracks=tracks,
        map_areas=map_areas,
        rolls=rolls,
        phases=tuple(data.get("phases") or ()),
        step_names=step_names,
        description=str(data.get("description", "")),
        note=str(data.get("note", "")),
        data_dir=str(r.dir),
        stand_ins=r.stand_ins,
        terrain_bans=terrain_bans,
        hex_facts=r.hex_facts,
        default_scenario_id=default_scenario,
    )
    game_toml.check_sealed_pools(r, game, data, path, lines)
    _check_special_rules(r, game)
    return game


def _check_special_rules(r: Reading, game: Game) -> None:
    """Each scenario's special rules against the game's `special_rules.toml` (scenarios.special_rules)."""
    path = r.dir / special_rules.FILE
    if not path.exists():
        return
    data, lines = read_toml(path, r.p)
    special_rules.check(game, special_rules.kinds_of(data, path, lines, r.p), r.scenario_files, r.p)
