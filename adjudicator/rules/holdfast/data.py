"""HoldFast Korea game data as the rules read it: unit chart, blocks, support, turns.

Everything the rules engine needs from the scenario model goes through this module, so a
maintainer who replaces a stand-in CSV (the weather ranges, a unit name, the Turn Track)
changes adjudication without touching code. Tables are read cell by cell
(`game.tables[...]`); nothing here copies a printed number into a Python constant.

Block conventions (units.csv): a block's steps are named by the SP on its top edge
("8|7|6|5"), a Chinese army's 4-SP block and the Marines' 2/1 block carry the flag
`reduced_block` and name the full block as their `parent` (rule 3).
"""

from __future__ import annotations

from dataclasses import dataclass

from scenarios.model import Game, Unit
from adjudicator.rules import gamedata
from adjudicator.rules.gamedata import scenario, special, turn_record  # noqa: F401  (re-exported)

GAME_ID = "holdfast"
SIDES = ("communist", "un")
FRONT = gamedata.GameFront(GAME_ID, SIDES, unit_noun="HoldFast Korea block")
game, game_in, owner, other_side, unit = FRONT.game, FRONT.game_in, FRONT.owner, FRONT.other_side, FRONT.unit
DEFAULT_SCENARIO = "campaign"
SUPPORT_TYPES = ("air", "armor", "naval")
WEATHERS = ("clear", "overcast", "snow")


def turn_label(g: Game, scenario_id: str, number: int) -> str:
    try:
        return f"turn {number} ({turn_record(g, scenario_id, number).date})"
    except ValueError:
        return f"turn {number}"


# -- units and blocks ---------------------------------------------------------------------


@dataclass(frozen=True)
class UnitChartRow:
    """One row of the Combat Chart (4 THE UNITS), for a unit type."""

    type: str
    name: str
    max_sp: int
    dice: int
    target: int
    mp: int


def chart_row(g: Game, unit_type: str) -> UnitChartRow:
    row = g.tables["unit_chart"].row(unit_type)
    return UnitChartRow(
        type=unit_type,
        name=row["army_unit"],
        max_sp=int(row["max_sp"]),
        dice=int(row["dice_rolled_in_combat"]),
        target=int(row["target_hit_number"]),
        mp=int(row["mp"]),
    )


def unit_chart(g: Game, unit_id: str) -> UnitChartRow:
    return chart_row(g, unit(g, unit_id).type)


def block_edges(u: Unit) -> list[int]:
    """The SP printed on the block's edges, highest first (the step names)."""
    return [int(s.name) for s in u.steps]


def reduced_block_of(g: Game, u: Unit) -> Unit | None:
    """The 4-SP Chinese block / the Marines' 2/1 block that replaces `u` when it drops low (3)."""
    for other in g.units.values():
        if other.parent == u.id and other.has("reduced_block"):
            return other
    return None


def full_block_of(g: Game, u: Unit) -> Unit:
    """The block that carries the army's name: the parent of a reduced block, else itself."""
    if u.has("reduced_block") and u.parent:
        return g.units[u.parent]
    return u


def is_marines(g: Game, u: Unit) -> bool:
    return u.type == "us-marines"


def check_block_sp(g: Game, unit_id: str, sp: int) -> str | None:
    """None if block `unit_id` can stand on `sp`, else a precise message (3, 4)."""
    if unit_id not in g.units:
        return f"unknown HoldFast Korea block {unit_id!r}"
    u = g.units[unit_id]
    edges = block_edges(u)
    if sp in edges:
        return None
    hint = ""
    low = reduced_block_of(g, u)
    if low is not None and sp in block_edges(low):
        hint = f"; at {sp} SP the army is shown by its other block {low.id!r} (rule 3)"
    elif u.has("reduced_block") and u.parent and sp in block_edges(g.units[u.parent]):
        hint = f"; at {sp} SP the army is shown by its full block {u.parent!r} (rule 3)"
    return f"block {unit_id} has edges {'/'.join(map(str, edges))} SP, not {sp}{hint}"


@dataclass(frozen=True)
class BlockAfterHits:
    """A block after losing SP: which block now stands for the unit, at what SP (3, 9.2)."""

    unit: str  # block id before
    sp_before: int
    hits: int
    block: str  # block id after (a swap changes it); the last block if eliminated
    sp: int  # 0 when eliminated
    eliminated: bool
    swapped: bool
    destination: str = ""  # box the eliminated block goes to

    def to_json(self) -> dict:
        return {
            "unit": self.unit,
            "sp_before": self.sp_before,
            "hits": self.hits,
            "block": self.block,
            "sp": self.sp,
            "eliminated": self.eliminated,
            "swapped": self.swapped,
            "destination": self.destination,
        }


def lose_sp(g: Game, scenario_id: str, unit_id: str, sp: int, hits: int) -> BlockAfterHits:
    """Rotate a block down `hits` SP, swapping to the reduced block and eliminating below 1 SP.

    3: a Chinese army reduced below 5 SP is replaced by its 4-SP block; the Marines below 3 SP by
    their 2/1 block. 9.2: "When a unit is reduced below 1 SP it is removed from the board and
    placed in the replacement pile"; 8: an eliminated US 1st Marine Division is removed for good.
    The swap points come from the blocks' printed edges, not from constants.
    """
    u = unit(g, unit_id)
    new_sp = sp - hits
    if new_sp < 1:
        marines_gone = is_marines(g, u) and special(g, scenario_id, "replacements").get("marines_never_return", True)
        box = "removed" if marines_gone else f"replacement-{u.side}"
        return BlockAfterHits(unit_id, sp, hits, unit_id, 0, True, False, box)
    if new_sp in block_edges(u):
        return BlockAfterHits(unit_id, sp, hits, unit_id, new_sp, False, False)
    low = reduced_block_of(g, u)
    if low is not None and new_sp in block_edges(low):
        return BlockAfterHits(unit_id, sp, hits, low.id, new_sp, False, True)
    raise ValueError(f"block {unit_id} cannot show {new_sp} SP and has no reduced block that can")


# -- tables -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SupportRow:
    """One row of tables/support.csv (4 Support)."""

    id: str
    side: str
    type: str
    dice: int
    per_turn: int
    first_turn: int
    last_turn: int | None
    uses: tuple[str, ...]  # "attack", "defense"
    weather: str  # "clear" or "any"


def support_row(g: Game, side: str, kind: str) -> SupportRow | None:
    for row in g.tables["support"].rows:
        if row["side"] == side and row["type"] == kind:
            return SupportRow(
                id=row["support"],
                side=side,
                type=kind,
                dice=int(row["dice"]),
                per_turn=int(row["per_turn"]),
                first_turn=int(row["first_turn"]),
                last_turn=int(row["last_turn"]) if row["last_turn"] else None,
                uses=tuple(row["uses"].split()),
                weather=row["weather"],
            )
    return None


def terrain_row(g: Game, terrain: str) -> dict:
    return dict(g.tables["terrain_effects"].row(terrain))


def rp_cost(g: Game, use: str) -> int:
    return int(g.tables["rp_costs"].cell(use, "rp"))


def weather_effect(g: Game, weather: str) -> dict:
    row = g.tables["weather_effects"].row(weather)
    return {"air_support": row["air_support"] == "yes", "mp_modifier": int(row["mp_modifier"])}


def stand_in_warnings(g: Game, *prefixes: str) -> list[str]:
    """One warning per stand-in datum whose `what` starts with a prefix ("table weather")."""
    seen: list[str] = []
    for prefix in prefixes:
        for s in g.stand_ins_for(prefix):
            text = f"Stand-in used ({s.where}): {s.what}: {s.reason}"
            if text not in seen:
                seen.append(text)
    return seen


def map_stand_in_warning(g: Game, map_id: str) -> list[str]:
    """The map is a stand-in (provisional terrain/lines) until the board is transcribed."""
    gm = g.maps.get(map_id)
    if gm is None or not gm.source.is_stand_in:
        return []
    return [f"Stand-in map {map_id!r} used for terrain, rivers, rails and coasts: {gm.source.reason}"]
