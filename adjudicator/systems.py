"""Game-system metadata (names, scenarios, sides), behind one function: `system_info`.

The shared scenario model (`scenarios.load_game(system_id)`) is the source. For a system whose
data directory does not exist or does not load yet, `_builtin_game` answers from the small table
below, transcribed from the rule digests (and a warning is logged). Once all four games ship
data, make `_load_game` return `scenarios.load_game(system_id)` directly and delete the table.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import lru_cache

from adjudicator.checks import SYSTEM_IDS

log = logging.getLogger(__name__)

#: Every game here is UN against Communist; game mode issues one token per side.
SIDES = ("un", "communist")


@dataclass(frozen=True)
class ScenarioInfo:
    id: str
    name: str
    #: turn -> its month (YYYY-MM) where the scenario's turn record gives one (Fire and Ice): what a
    #: board's turn track says of the month, for checks that go by month (board role `month`).
    months: tuple[tuple[int, str], ...] = ()
    #: How many turns the scenario lasts (0: not known): its last is when its victory is ruled.
    turns: int = 0


def scenario_months(scenario) -> dict[int, str]:
    """turn -> month (YYYY-MM) of a scenario's turn record, for the turns that give one."""
    found = {}
    for turn in getattr(scenario, "turns", ()):
        month = turn.values.get("month", "")
        if re.fullmatch(r"\d{4}-\d{2}", month):
            found[turn.number] = month
    return found


@dataclass(frozen=True)
class SystemInfo:
    id: str
    name: str
    sides: tuple[str, ...]
    scenarios: tuple[ScenarioInfo, ...]

    def scenario(self, scenario_id: str) -> ScenarioInfo | None:
        return next((s for s in self.scenarios if s.id == scenario_id), None)


_BUILTIN = {
    "kwb": (
        "Korean War Battles",
        [
            ("pusan", "Pusan Perimeter (12.1)"),
            ("seoul", "Battle for Seoul (12.2)"),
            ("changjin", "Changjin Reservoir (12.3)"),
        ],
    ),
    "spi": (
        "Korea: The Mobile War 1950-51 (SPI)",
        [
            ("invasion", "Invasion Game"),
            ("intervention", "Intervention Game"),
            ("stalemate", "Stalemate Game"),
            ("campaign", "Campaign Game"),
        ],
    ),
    "holdfast": ("HoldFast Korea", [("campaign", "Korea 1950-51")]),
    "fireandice": (
        "Korea: Fire and Ice",
        [
            ("invasion", "Invasion (16.0)"),
            ("inchon", "Inch'on Invasion! (17.0)"),
            ("intervention", "Chinese Intervention! (18.0)"),
            ("campaign", "Campaign (19.0)"),
        ],
    ),
}


def _builtin_game(system_id: str):
    name, scenarios = _BUILTIN[system_id]
    return SystemInfo(
        id=system_id,
        name=name,
        sides=SIDES,
        scenarios=tuple(ScenarioInfo(sid, sname) for sid, sname in scenarios),
    )


def _load_game(system_id: str):
    """The one switch point between the shared scenario model and the built-in table."""
    from scenarios import DataError, game_ids, load_game

    if system_id not in game_ids():
        return _builtin_game(system_id)
    try:
        return load_game(system_id)
    except DataError as error:
        # A game's data directory that is still incomplete must not take the service down:
        # the data's own checks (`scenarios check`) report it; here the built-in names serve.
        first = str(error).splitlines()[0] if str(error) else ""
        log.warning("scenario data of %s does not load (%s ...); using built-in metadata", system_id, first)
        return _builtin_game(system_id)


@lru_cache(maxsize=None)
def system_info(system_id: str) -> SystemInfo | None:
    """Metadata of one game system, or None for an unknown id. Cached: it never changes."""
    if system_id not in SYSTEM_IDS:
        return None
    game = _load_game(system_id)
    if isinstance(game, SystemInfo):
        return game
    scenarios = game.scenarios.values() if isinstance(game.scenarios, dict) else game.scenarios
    return SystemInfo(
        id=system_id,
        name=str(game.name),
        sides=tuple(game.sides) if getattr(game, "sides", None) else SIDES,
        scenarios=tuple(ScenarioInfo(str(s.id), str(s.name), tuple(scenario_months(s).items()),
                                     len(getattr(s, "turns", ()) or ())) for s in scenarios),
    )


def all_systems() -> list[SystemInfo]:
    return [system_info(system_id) for system_id in SYSTEM_IDS]


def system_label(system_id: str) -> str:
    """A system's name for messages ("Korean War Battles (kwb)"), or the id if it is unknown."""
    info = system_info(system_id)
    return f"{info.name} ({system_id})" if info else system_id
