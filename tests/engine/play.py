"""Playing a game through the Adjudicator extension in the engine: the units a setup puts next to
each other, and what a player types in a check's form. Shared by the extension's end-to-end test
and its benchmark (bench/extension.py)."""

from __future__ import annotations

import json
import re
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
    """A setup's units that can fight: `side` (by default the side moving first) attacks
    `defender` with `attackers`."""

    game: Game
    scenario: Scenario
    attackers: list[str]
    defender: str
    side: str = ""

    @property
    def attacking_side(self) -> str:
        """The attacking side's roster name ("Communist")."""
        return self.game.sides[self.side or self.scenario.first_player].name


def fighting(game: Game, unit_id: str) -> bool:
    unit = game.units[unit_id]
    return unit.type not in NOT_FIGHTING and not (set(unit.flags) & NOT_FIGHTING)


def setup_hexes(game: Game, scenario: Scenario) -> dict[str, tuple[str, object]]:
    """unit -> (map id, hex) of the scenario's setup on the hex maps."""
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
    return where


def adjacent_combat(game_id: str, scenario_id: str | None = None, distance: int = 1, side: str | None = None,
                    skip: tuple[str, ...] = ()) -> Combat:
    """The first enemy unit (not one of `skip`) that fighting units of `side` (default: the side
    moving first) stand next to (or within ``distance`` hexes of) in the setup of the scenario
    (default: the game's first)."""
    game = load_game(game_id)
    scenario = game.scenarios[scenario_id] if scenario_id else next(iter(game.scenarios.values()))
    where = setup_hexes(game, scenario)
    attacking = side or scenario.first_player
    for defender, (map_id, hex_) in where.items():
        if game.units[defender].side == attacking or not fighting(game, defender) or defender in skip:
            continue
        grid = game.maps[map_id].grid
        attackers = [u for u, (m, h) in where.items() if m == map_id and game.units[u].side == attacking
                     and fighting(game, u) and grid.distance(h, hex_) <= distance]
        if attackers:
            return Combat(game, scenario, attackers, defender, attacking)
    raise LookupError(f"{game_id}: no enemy units stand within {distance} hex(es) in {scenario.id}")


def hex_label(combat: Combat, unit_id: str) -> str:
    """The hex a unit of the combat's setup stands in, as printed."""
    map_id, hex_ = setup_hexes(combat.game, combat.scenario)[unit_id]
    return combat.game.maps[map_id].grid.label(hex_)


def board_request(game_id: str, scenario: str, setup: bytes, check: str, side: str, attackers: list[str] = (),
                  target_hex: str | None = None, given: dict | None = None) -> dict:
    """A check's request as the board builds it from a saved game (the saved-game pages' fill,
    by the same board roles the extension fills by), without dice: what a player's click sends."""
    from adjudicator.bridge import read_positions, read_upload
    from adjudicator.bridge.fill import Pointed, fill_request
    from adjudicator.checks import get_check

    game = load_game(game_id)
    fill = fill_request(get_check(game_id, check), read_positions(game, read_upload(setup)),
                        Pointed(attackers=list(attackers), target_hex=target_hex), dict(given or {}),
                        scenario=scenario, side=side, game_turn=None)
    return {key: value for key, value in fill.request.items() if key != "dice"}


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


def kept_games(prefs_dir: Path) -> dict[str, dict]:
    """The recorded games kept in VASSAL's preference files under ``prefs_dir`` (where the
    extension keeps this player's tokens, and nowhere else): game id -> {scenario, server, tokens}."""
    found: dict[str, dict] = {}
    for path in prefs_dir.rglob("*"):
        if not path.is_file():
            continue
        try:
            with zipfile.ZipFile(path) as archive:
                texts = [archive.read(n).decode("utf-8", "replace") for n in archive.namelist()]
        except zipfile.BadZipFile:
            texts = [path.read_text("utf-8", "replace")]
        for text in texts:
            properties = Properties(text)
            if properties.get("adjudicatorGames"):
                found.update(json.loads(properties["adjudicatorGames"]))
    return found


def kept_tokens(prefs_dir: Path) -> list[str]:
    """Every token of every recorded game kept under ``prefs_dir``."""
    return [token for game in kept_games(prefs_dir).values() for token in game["tokens"].values()]


class Properties(dict):
    """A Java properties text (VASSAL's preferences), its values unescaped."""

    def __init__(self, text: str):
        super().__init__()
        for line in text.splitlines():
            if not line or line.startswith(("#", "!")) or "=" not in line:
                continue
            key, _, value = line.partition("=")
            self[key.strip()] = re.sub(r"\\(u[0-9a-fA-F]{4}|.)", _unescape, value.strip())


def _unescape(found: re.Match) -> str:
    """One escape of a properties value: \\uXXXX, \\t, \\n, or an escaped character (\\: is :)."""
    code = found.group(1)
    if code.startswith("u") and len(code) == 5:
        return chr(int(code[1:], 16))
    return {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}.get(code, code)


# -- a person playing (the harness's person steps: real mouse and key events) -------------------

class Script:
    """An engine run's steps, with names for the steps a test reads back (``at["combat"]``)."""

    def __init__(self):
        self.steps: list[dict] = []
        self.at: dict[str, int] = {}

    def add(self, *steps: dict, name: str = "") -> "Script":
        """Appends steps; `name` marks the last of them."""
        self.steps += steps
        if name:
            self.at[name] = len(self.steps) - 1
        return self


def sign_in(name: str) -> list[dict]:
    """A player with a name and password (VASSAL's own preferences) at the keyboard and mouse,
    the engine's questions about logs on."""
    return [{"do": "pref", "key": "RealName", "value": name},
            {"do": "pref", "key": "SecretName", "value": f"{name.lower()}-secret"},
            {"do": "person", "on": True, "prompts": True}]


def take_side(side: str) -> list[dict]:
    """The wizard's side step, answered: the side chosen from its list, Finish."""
    return [{"do": "wait_window", "window": "Join game as which side", "timeout": 90},
            {"do": "choose", "window": "Join game as which side", "field": "Join game as which side?", "item": side},
            {"do": "click", "window": "Join game as which side", "on": "Finish"}]


def log_prompt(log: Path | None) -> list[dict]:
    """The engine's "Start new Logfile?" after a game starts: Yes (the log's file named) or No."""
    steps = [{"do": "wait_window", "window": "Start new Logfile", "timeout": 90}]
    if log is None:
        return steps + [{"do": "click", "window": "Start new Logfile", "on": "No"}]
    return steps + [{"do": "file_answer", "file": str(log)}, {"do": "click", "window": "Start new Logfile", "on": "Yes"}]


def start_scenario(name: str, side: str, log: Path | None) -> list[dict]:
    """File > <scenario>: its predefined setup, the side chosen in the wizard, the log question answered."""
    return [{"do": "main_menu", "path": ["File", name]}, *take_side(side), *log_prompt(log)]


def open_game(path: Path, log: Path | None, side: str | None = None) -> list[dict]:
    """File > Load Game or Log...: a save or a log (the side chosen when this player is new to it)."""
    return [{"do": "file_answer", "file": str(path)}, {"do": "main_menu", "path": ["File", "Load Game or Log..."]},
            *(take_side(side) if side else []), *log_prompt(log)]


def save_as(path: Path) -> list[dict]:
    return [{"do": "file_answer", "file": str(path)}, {"do": "main_menu", "path": ["File", "Save Game As..."]}]


def end_log() -> list[dict]:
    return [{"do": "main_menu", "path": ["File", "End Logfile"]}]


def connect_dialog(url: str) -> list[dict]:
    """Adjudicator > Connect..., the address typed, OK, and OK on the answer."""
    return [{"do": "toolbar_click", "button": "Adjudicator", "path": ["Connect..."]},
            {"do": "type", "window": "Adjudicator: connect", "field": "Adjudicator server address:", "text": url},
            {"do": "click", "window": "Adjudicator: connect", "on": "OK"},
            {"do": "wait_window", "window": "checks of"},
            {"do": "click", "window": "checks of", "on": "OK"}]


def select(*units: str) -> list[dict]:
    """Clicks on the units' pieces: the first selects it alone, the others are added (shift-click)."""
    return [{"do": "piece_click", "piece": {"id": u}, "shift": i > 0} for i, u in enumerate(units)]


def menu_of(unit: str, choose: str | None = None) -> dict:
    """A right click on a unit's piece; its menu read, and with `choose` ("Adjudicator/...") that entry clicked."""
    step = {"do": "piece_click", "piece": {"id": unit}, "right": True}
    return {**step, "choose": choose} if choose else step


def submit_form(title: str) -> list[dict]:
    """OK in a check's form, then the form closes (the ruling is posted)."""
    return [{"do": "click", "window": f"^Adjudicator: {title}", "on": "OK"},
            {"do": "wait_window", "window": f"^Adjudicator: {title}", "gone": True, "timeout": 60}]


def close_game() -> list[dict]:
    """File > Close Game (a question whether to save first is answered No)."""
    return [{"do": "main_menu", "path": ["File", "Close Game"]},
            {"do": "click_if", "window": "(?i)save", "on": "No", "timeout": 2}]
