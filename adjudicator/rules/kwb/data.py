"""Korean War Battles game data as the rules read it: units and their steps, tables, scenarios.

Everything the rules engine needs from the scenario model goes through this module, so a
maintainer who replaces a stand-in CSV (the combat results table, a depleted side, the victory
scale) changes adjudication without touching code. Tables are read cell by cell from
`game.tables[...]`; nothing here copies a printed number into a Python constant.

Stand-ins: every helper that reads stand-in data has a companion that returns the warning a
result must carry (`table_warnings`, `unit_warnings`, `map_warnings`).
"""

from __future__ import annotations

from scenarios.model import Game, MarkerType, Unit
from adjudicator.checks import Refusal, side_label
from adjudicator.rules import gamedata
from adjudicator.rules.gamedata import (  # noqa: F401  (re-exported)
    cite,
    int_parameter,
    parameter,
    placeholder_pool,
    pool_counters,
    scenario,
    scenario_map,
    special,
    turn_record,
)

GAME_ID = "kwb"
SIDES = ("communist", "un")
FRONT = gamedata.GameFront(GAME_ID, SIDES, unit_noun="Korean War Battles unit")
game, game_in, owner, other_side, unit, table = (FRONT.game, FRONT.game_in, FRONT.owner, FRONT.other_side, FRONT.unit,
                                                 FRONT.table)


def side_name(g: Game, side: str) -> str:
    """A side as the rulings name it ("Communist", "UN")."""
    return g.sides[side].name if side in g.sides else side


def turns_text(turns) -> str:
    """Game-turns as the steps say them: "1-2", "1, 3", "4"."""
    turns = sorted(int(t) for t in turns)
    if len(turns) > 1 and turns == list(range(turns[0], turns[-1] + 1)):
        return f"{turns[0]}-{turns[-1]}"
    return ", ".join(map(str, turns))


# -- units ------------------------------------------------------------------------------------


def step_name(u: Unit, step: str) -> str:
    """The step a position shows: '' means full strength; ValueError for a step the counter lacks."""
    name = step or u.steps[0].name
    if name not in {s.name for s in u.steps}:
        raise ValueError(f"{u.id} has no {name!r} side (it has: {', '.join(s.name for s in u.steps)})")
    return name


def value(u: Unit, step: str, field: str) -> int:
    """A printed value (attack, defense, movement) of the side showing."""
    v = u.step(step_name(u, step)).values[field]
    if not isinstance(v, int):
        raise ValueError(f"{u.id} {step or 'full'} has no numeric {field} ({v!r})")
    return v


def is_division(u: Unit) -> bool:
    return u.size == "XX" and u.type != "hq"


def is_hq(u: Unit) -> bool:
    return u.type == "hq" or u.has("hq")


def is_supply_center(u: Unit) -> bool:
    return u.type == "supply_center" or u.has("supply_center")


def is_mobile(g: Game, u: Unit) -> bool:
    """2.3.1 'A unit with its MA printed in red is a mobile unit' (data: unit type `mobile` or flag)."""
    return u.has("mobile") or g.unit_types[u.type].mobile


def has_zoc(u: Unit) -> bool:
    """6.1.1: battalion/cadre-size units, HQs, Supply Centers have no ZOC (data flag `no_zoc`)."""
    return not (u.has("no_zoc") or is_hq(u) or is_supply_center(u) or u.size == "II")


def generic_regiments(g: Game, nationality: str) -> list[Unit]:
    """The unnumbered regiments of a nationality (2.3.1): the pool of the random draw (5.3.2, 7.6)."""
    return [u for u in g.units.values() if u.has("generic") and u.nationality == nationality]


def unit_warnings(g: Game, unit_ids) -> list[str]:
    """One warning per stand-in unit value used (units.csv `source` starting 'stand-in')."""
    out = []
    for uid in dict.fromkeys(unit_ids):
        u = g.units.get(uid)
        if u is not None and u.source.is_stand_in:
            out.append(f"Stand-in values for {uid} ({u.steps[0].text}"
                       + (f" / {u.steps[1].text}" if len(u.steps) > 1 else "") + f"): {u.source.reason}")
    return out


# -- markers ----------------------------------------------------------------------------------


def marker(g: Game, marker_id: str) -> MarkerType:
    try:
        return g.markers[marker_id]
    except KeyError:
        raise ValueError(f"unknown Korean War Battles marker {marker_id!r}") from None


def support_fire_markers(g: Game, side: str) -> list[str]:
    """The ids of `side`'s Support Fire markers."""
    return [m.id for m in g.markers.values() if m.kind == "support_fire" and m.side == side]


def support_fire_value(g: Game, marker_id: str, side: str) -> int:
    """The value printed on a Support Fire marker (its first face), which must be `side`'s."""
    m = g.markers.get(marker_id)
    allowed = support_fire_markers(g, side)
    names = [g.markers[i].name for i in allowed]
    if m is None or m.kind != "support_fire":
        raise Refusal(f"{marker_id!r} is not a Support Fire marker", allowed=allowed, allowed_names=names)
    if m.side != side:
        raise Refusal(f"{m.name} is the {side_label(m.side)} player's marker, not the {side_label(side)} player's "
                      f"({', '.join(names)})", allowed=allowed, allowed_names=names)
    return int(m.faces[0])


# -- tables -----------------------------------------------------------------------------------


def table_warnings(g: Game, *table_ids: str) -> list[str]:
    """'Stand-in ...' warnings for each table used whose source is a stand-in."""
    return gamedata.table_warnings(g, table_ids)


def map_warnings(g: Game, map_id: str) -> list[str]:
    """One summary warning for a map whose terrain, rivers or roads are stand-ins."""
    return gamedata.map_warnings(g, map_id, "terrain, features, rivers, roads")
