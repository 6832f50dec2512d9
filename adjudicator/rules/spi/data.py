"""SPI Korea game data as the rules read it: units, breakdown equivalents, tables, scenarios.

Everything the engine needs from the scenario model goes through here, so a maintainer who
replaces a stand-in CSV (one of the three Combat Results Tables, the map) changes adjudication
without touching code. Tables are read cell by cell from `game.tables[...]`; the numbers the
rules state in prose come from `tables/rule_parameters.csv`.

The rulebook has no numbered sections: citations are `Heading (Case)`, e.g. "Combat (G)".
"""

from __future__ import annotations

from fractions import Fraction

from scenarios.model import Game, Unit
from adjudicator.rules import gamedata
from adjudicator.rules.gamedata import (  # noqa: F401  (re-exported)
    cite,
    int_parameter,
    parameter,
    rule_of,
    scenario,
    scenario_map,
    special,
    turn_record,
)

GAME_ID = "spi"
SIDES = ("communist", "un")
FRONT = gamedata.GameFront(GAME_ID, SIDES, unit_noun="SPI Korea unit")
game, game_in, owner, other_side, unit, table = (FRONT.game, FRONT.game_in, FRONT.owner, FRONT.other_side, FRONT.unit,
                                                 FRONT.table)
CRT_TABLES = {"meeting": "crt_meeting", "position": "crt_position", "pursuit": "crt_pursuit"}
CRT_NAMES = {"meeting": "Meeting Engagement", "position": "Position Defense", "pursuit": "Pursuit"}


def fraction_parameter(g: Game, key: str) -> Fraction:
    return Fraction(parameter(g, key))


# -- units ------------------------------------------------------------------------------------


def strength(u: Unit) -> int:
    """The printed Combat Strength (first number of e.g. '10-3')."""
    return int(u.full.values["combat"])


def movement_allowance(u: Unit) -> int:
    return int(u.full.values["movement"])


def values_text(u: Unit) -> str:
    """The counter's values as printed, e.g. '16-3' (the key of the breakdown table)."""
    return u.full.text


def is_supply_unit(u: Unit) -> bool:
    return u.type == "supply" or u.has("supply")


def is_naval(u: Unit) -> bool:
    return u.has("naval") or u.type in ("naval_gun", "sea_transport", "amphibious")


def is_amph(u: Unit) -> bool:
    return u.type == "amphibious"


def is_naval_gun(u: Unit) -> bool:
    return u.type == "naval_gun"


def is_army(u: Unit) -> bool:
    """A Chinese Army (25-2): takes losses in divisions (Combat (J), (K))."""
    return u.type == "army"


def is_chinese(u: Unit) -> bool:
    return u.nationality == "cpv"


def is_korean(u: Unit) -> bool:
    """North or South Korean (units.csv flag `korean`, else the nationality)."""
    return u.has("korean") or u.nationality in ("nk", "rok")


def is_non_korean_un(u: Unit) -> bool:
    """Combat (K) and Movement (I): UN land units that are not South Korean."""
    return u.side == "un" and not is_korean(u) and not is_naval(u) and not is_supply_unit(u)


def has_zoc(u: Unit) -> bool:
    """Zones of Control: 'All units' Zone of Control are identical'; naval units (flag no_zoc) have
    none and do not feel them (Zones of Control (D))."""
    return not (u.has("no_zoc") or is_naval(u))


# -- breakdown (Stacking & Unit Breakdown) -----------------------------------------------------


def breakdown(g: Game, values: str) -> tuple[int, str] | None:
    """(count, component values) a unit of printed `values` breaks down into, or None for a regiment
    (a unit the breakdown table does not list). E.g. '16-3' -> (3, '5-3'), '25-2' -> (3, '10-4')."""
    t = g.tables["breakdown"]
    for row in t.rows:
        if row["unit"] == values:
            return int(row["equals"]), row["component"]
    return None


# -- tables ------------------------------------------------------------------------------------


def table_warnings(g: Game, *table_ids: str) -> list[str]:
    """'Stand-in ...' warnings for each table used whose source is a stand-in."""
    return gamedata.table_warnings(g, table_ids, "the published table (printed on the map)")


def map_warnings(g: Game, map_id: str) -> list[str]:
    """One summary warning for a map whose terrain, rivers or roads are stand-ins."""
    return gamedata.map_warnings(g, map_id, "terrain, rivers, roads, towns and parallels")
