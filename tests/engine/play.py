"""Playing a game through the Adjudicator extension in the engine: the units a setup puts next to
each other, and what a player types in a check's form. Shared by the extension's end-to-end test
and its benchmark (bench/extension.py)."""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

from scenarios import load_game
from scenarios.model import Game, Scenario

EXTENSION = "korea.adjudicator.Adjudicator"

#: Units that do not attack (headquarters, supply, ships, aircraft, dummies, cadres).
NOT_FIGHTING = {"hq", "supply_center", "supply", "naval", "naval_gun", "sea_transport", "amphibious", "aircraft",
                "dummy", "cadre", "no_zoc"}


@dataclass(frozen=True)
class Combat:
    """A setup's units that can fight: the side moving first attacks `defender` with `attackers`."""

    game: Game
    scenario: Scenario
    attackers: list[str]
    defender: str

    @property
    def attacking_side(self) -> str:
        return self.game.sides[self.scenario.first_player].name


def fighting(game: Game, unit_id: str) -> bool:
    unit = game.units[unit_id]
    return unit.type not in NOT_FIGHTING and not (set(unit.flags) & NOT_FIGHTING)


def adjacent_combat(game_id: str, scenario_id: str | None = None, distance: int = 1) -> Combat:
    """The first enemy unit that fighting units of the side moving first stand next to (or within
    ``distance`` hexes of) in the setup of the scenario (default: the game's first)."""
    game = load_game(game_id)
    scenario = game.scenarios[scenario_id] if scenario_id else next(iter(game.scenarios.values()))
    where = {}
    for placement in scenario.setup:
        if placement.is_marker or ":" in placement.location:
            continue
        label, _, hint = placement.location.partition("@")
        for map_id in scenario.maps:
            grid = game.maps[map_id].grid
            if hint and hint != map_id:
                continue
            try:
                hex_ = grid.parse(label)
            except ValueError:
                continue
            if grid.is_on_map(hex_):
                where[placement.unit] = (map_id, hex_)
                break
    attacking = scenario.first_player
    for defender, (map_id, hex_) in where.items():
        if game.units[defender].side == attacking or not fighting(game, defender):
            continue
        grid = game.maps[map_id].grid
        attackers = [u for u, (m, h) in where.items() if m == map_id and game.units[u].side == attacking
                     and fighting(game, u) and grid.distance(h, hex_) <= distance]
        if attackers:
            return Combat(game, scenario, attackers, defender)
    raise LookupError(f"{game_id}: no enemy units stand within {distance} hex(es) in {scenario.id}")


def player_fields(system: dict, check: str) -> dict:
    """What a player types in a check's form, from one system of GET /api/v1/systems: the check's
    example values of the required fields the board does not fill (and no dice: in a recorded
    game the server rolls)."""
    spec = next(c for c in system["checks"] if c["name"] == check)
    schema = spec["request_schema"]
    board = {name for name, prop in schema["properties"].items() if "x-board" in prop}
    return {name: spec["example"][name] for name in schema.get("required", [])
            if name not in board and name != "dice" and name in spec["example"]}


def call(method: str, *args) -> dict:
    """A harness step calling one of the extension's public methods (off the event thread: they wait for the server)."""
    return {"do": "call", "class": EXTENSION, "method": method, "args": list(args), "thread": "background"}


def kept_tokens(prefs_dir: Path) -> list[str]:
    """The recorded-game tokens in VASSAL's preference files under ``prefs_dir`` (where the
    extension keeps this side's token, and nowhere else)."""
    found = []
    for path in prefs_dir.rglob("*"):
        if not path.is_file():
            continue
        try:
            with zipfile.ZipFile(path) as archive:
                texts = [archive.read(n).decode("utf-8", "replace") for n in archive.namelist()]
        except zipfile.BadZipFile:
            texts = [path.read_text("utf-8", "replace")]
        for text in texts:
            found += [line.split("=", 1)[1].strip() for line in text.splitlines()
                      if line.startswith("adjudicatorToken=") and line.split("=", 1)[1].strip()]
    return found
