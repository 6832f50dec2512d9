"""Korean War Battles support fire: how many markers one combat may take (8.1.1, 12.1.1).

8.1 "Support Fire markers are always drawn randomly from the pool of those available."
8.1.1 "For the Communist player to place more than one Support Fire marker, in attack, defense, or
bombardment situations, at least one of the involved units must be able to trace a Line of
Communications to a friendly HQ. The Line of Communications must be no more than 3 hexes long, and
may not pass through an enemy ZOC (however, friendly units do 'screen' enemy ZOCs for this purpose)."
8.1.1 "For the UN player to place more than one Support Fire marker to any combat (whether attacking
or defending) involving only ROK units, at least one involved ROK unit must be able to trace a LOC
to an ROK corps HQ unit as above. One or two Support Fire markers may be allocated normally to any
attack or defense that involves both ROK and US or CW units."
12.1.1 (Pusan) UN Supply Shortages: "the UN player may not apply more than one Support Fire marker
to any one combat, as attacker nor defender or when bombarding, until the supply shortage ends."

The ceiling of two markers per combat is tables/rule_parameters.csv max_support_markers_per_combat
("one or two", 8.1.1 and 12.1.1). How a marker changes a combat is a Standard Rule: the stand-in
tables/support_fire_use.csv adds its value to the side's strength.

Readings: the LOC is counted like a supply line (at most 3 steps from the unit to the HQ), blocked by
enemy units, water and unscreened enemy ZOC (6.1); rivers do not block it. An "ROK corps HQ" is an ROK
HQ of size XXX.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from typing import Literal

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board, either_side, named_side, register_check
from adjudicator.rules.kwb import board as kb
from adjudicator.rules.gamedata import draw_at_random
from adjudicator.rules.kwb import data
from adjudicator.rules.kwb.schemas import ScenarioName, SideName
from adjudicator.rules.positions import PositionModel, UnitAt
from scenarios.hexgrid import search
from scenarios.model import Game, Unit

RULE = "8.1.1"


@dataclass
class LocResult:
    """Whether one of the involved units traces a Line of Communications to a qualifying HQ."""

    traced: bool
    unit: str = ""
    hq: str = ""
    path: list[str] = field(default_factory=list)
    text: str = ""


def qualifying_hq(side: str, rok_only: bool):
    """The HQs a LOC may end at: any friendly HQ (Communist), an ROK corps HQ (UN, ROK-only combat)."""
    if side == "communist":
        return lambda u: data.is_hq(u) and u.side == "communist"
    if rok_only:
        return lambda u: data.is_hq(u) and u.nationality == "rok" and u.size == "XXX"
    return lambda u: data.is_hq(u) and u.side == "un"


def trace_loc(g: Game, b: kb.Board, side: str, involved: list[str], hq_ok) -> LocResult:
    """One search of at most 3 hexes from every qualifying HQ; the first involved unit reached wins."""
    reach = data.int_parameter(g, "loc_to_hq_max_hexes")
    gm = b.gm
    blocked = b.blocked_for(side)
    hqs = {p.hex: p.at.unit for p in b.units_of(side) if hq_ok(p.unit)}
    if not hqs:
        return LocResult(False, text="no qualifying HQ on the map")
    found = search(gm.grid, {h: 0.0 for h in hqs}, lambda a, n: None if n in blocked else 1.0, max_cost=reach)
    where = {p.at.unit: p for p in b.placed}
    for uid in involved:
        p = where.get(uid)
        if p is not None and found.reached(p.hex):
            path = [gm.grid.label(h) for h in reversed(found.path_to(p.hex))]
            hq = hqs[found.origin[p.hex]]
            return LocResult(True, uid, hq, path, f"{uid} traces a {int(found.cost[p.hex])}-hex LOC to {hq}: "
                             + " ".join(path))
    return LocResult(False, text=f"no involved unit traces a LOC of at most {reach} hexes to "
                     + ", ".join(sorted(hqs.values())) + " free of enemy units and unscreened enemy ZOC")


@dataclass
class MarkerLimit:
    limit: int
    steps: list[Step]
    loc: LocResult | None = None


def marker_limit(g: Game, scenario_id: str, side: str, involved: list[Unit], *, un_supply_shortage: bool,
                 b: kb.Board | None = None, hq_loc: bool | None = None) -> MarkerLimit:
    """The most Support Fire markers `side` may put into one combat (attack, defence or bombardment).

    `involved` are `side`'s units in the combat. The LOC condition is read from `hq_loc` when given,
    otherwise traced on board `b`; with neither, ValueError (the caller asked the impossible).
    """
    ceiling = data.int_parameter(g, "max_support_markers_per_combat")
    steps = [Step(f"At most {ceiling} Support Fire markers per combat ('one or two').", RULE)]
    if side == "un" and un_supply_shortage:
        rule = data.special(g, scenario_id, "un_supply_shortage")
        if not rule:
            raise ValueError(f"the UN supply shortage is a Pusan Perimeter rule (12.1.1), not {scenario_id}")
        limit = int(rule.get("max_markers_per_combat_during", 1))
        steps.append(Step(f"The UN supply shortage is in force: at most {limit} marker per combat.",
                          f"{rule.get('source', '')} UN Supply Shortages".strip()))
        return MarkerLimit(limit, steps)
    rok_only = side == "un" and bool(involved) and all(u.nationality == "rok" for u in involved)
    if side == "un" and not rok_only:
        steps.append(Step("The UN combat involves US or CW units: one or two markers may be allocated normally.", RULE))
        return MarkerLimit(ceiling, steps)
    who = "an ROK corps HQ" if rok_only else "a friendly HQ"
    if hq_loc is not None:
        loc = LocResult(hq_loc, text=f"given: {'a' if hq_loc else 'no'} LOC to {who}")
    elif b is not None:
        loc = trace_loc(g, b, side, [u.id for u in involved], qualifying_hq(side, rok_only))
    else:
        raise ValueError(f"more than one marker needs a LOC to {who} (8.1.1): give the positions or the LOC flag")
    limit = ceiling if loc.traced else 1
    steps.append(Step(("Only ROK units are involved" if rok_only else "Communist combat")
                      + f": more than one marker only if an involved unit traces a LOC of at most "
                      f"{data.parameter(g, 'loc_to_hq_max_hexes')} hexes to {who}, not through unscreened enemy "
                      f"ZOC. {loc.text[:1].upper() + loc.text[1:]}: at most {limit}.", RULE))
    return MarkerLimit(limit, steps, loc)


class SupportFireLimitRequest(CheckRequest):
    """How many Support Fire markers one side may put into one combat or bombardment."""

    scenario: ScenarioName = board("scenario", description="Scenario id.")
    side: SideName = board("side", description="The side placing the markers.")
    involved: list[str] = Field(min_length=1, max_length=12, description=(
        "That side's units in the combat (attackers or defenders; for a Communist bombardment, the adjacent unit)."))
    positions: list[PositionModel] = board("positions", min_length=1, max_length=200, description=(
        "Every unit on the map, both sides (the LOC is blocked by enemy units and unscreened enemy ZOC)."))
    un_supply_shortage: bool = Field(default=False, description=(
        "Pusan: the UN supply shortage has not ended yet (12.1.1; the `un_supply_shortage_end` check ends it)."))
    improved_positions: list[str] = Field(default_factory=list, max_length=40,
                                          description="Hexes under Improved Position markers (no ZOC, 6.1.1).")

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        gm = data.scenario_map(g, self.scenario)
        kb.Board.from_positions(g, gm, [UnitAt.from_model(p) for p in self.positions], self.improved_positions)
        on_map = {p.unit for p in self.positions}
        for uid in self.involved:
            if uid not in on_map:
                raise ValueError(f"involved unit {uid!r} has no position")
            if data.unit(g, uid).side != self.side:
                raise ValueError(f"involved unit {uid!r} is not a {self.side} unit")
        if self.un_supply_shortage and (self.side != "un" or not data.special(g, self.scenario, "un_supply_shortage")):
            raise ValueError("un_supply_shortage applies to the UN in the Pusan Perimeter only (12.1.1)")
        return self


def run_support_fire_limit(g: Game, req: SupportFireLimitRequest) -> CheckResult:
    gm = data.scenario_map(g, req.scenario)
    b = kb.Board.from_positions(g, gm, [UnitAt.from_model(p) for p in req.positions], req.improved_positions)
    involved = [data.unit(g, u) for u in req.involved]
    result = marker_limit(g, req.scenario, req.side, involved, un_supply_shortage=req.un_supply_shortage, b=b)
    outcome = {"max_markers": result.limit}
    if result.loc is not None:
        outcome["loc"] = {"traced": result.loc.traced, "unit": result.loc.unit, "hq": result.loc.hq,
                          "path": result.loc.path}
    warnings = data.map_warnings(g, gm.id) if result.loc is not None else []
    return CheckResult(outcome=outcome, steps=result.steps, warnings=warnings)


@register_check(system="kwb", name="support_fire_limit", request=SupportFireLimitRequest, random=False,
                summary="How many Support Fire markers a side may put into one combat (HQ LOC, supply shortage)",
                rule="8.1.1, 12.1.1",
                actor=either_side(rule="8.1.1", why="a limit both players may check; no die"),
                example={"scenario": "pusan",
                         "side": "un",
                         "involved": ["rok-17"],
                         "un_supply_shortage": True,
                         "positions": [{"unit": "rok-17", "hex": "1505"}, {"unit": "us-24-hq", "hex": "1305"},
                                       {"unit": "nk-4", "hex": "1203"}]})
def support_fire_limit(req: SupportFireLimitRequest, dice: Dice) -> CheckResult:
    return run_support_fire_limit(data.game(), req)


# -- markers per turn ------------------------------------------------------------------------------


class SupportFireAllocationRequest(CheckRequest):
    """How many Support Fire markers a side draws this game-turn (8.1; the scenario chart's column)."""

    scenario: ScenarioName = board("scenario", description="Scenario id.")
    side: SideName = board("side", description="The side drawing markers.")
    game_turn: int = board("turn", ge=1, le=21, description="The game-turn (its row of the reinforcement chart).")
    hqs_lost: int = Field(default=0, ge=0, le=10, description=(
        "HQs of this side eliminated so far (8.1.1: the allocation in that and all later turns is reduced)."))
    airfields_occupied: list[str] = Field(default_factory=list, max_length=2, description=(
        "Pusan, UN: airfield hexes (2221, 0316) the Communists occupy now (12.1.1: one fewer marker per hex)."))
    optional_hq_taken: bool = Field(default=False, description=(
        "Changjin, UN: the 3rd Division HQ was taken as an optional reinforcement (12.3: one more marker)."))

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        data.turn_record(g, self.scenario, self.game_turn)
        if self.airfields_occupied:
            rule = data.special(g, self.scenario, "airfields")
            if not rule or self.side != "un":
                raise ValueError("airfields_occupied reduces the UN allocation in the Pusan Perimeter only (12.1.1)")
            for x in self.airfields_occupied:
                if x not in rule.get("hexes", []):
                    raise ValueError(f"{x} is not one of the Pusan airfield hexes {', '.join(rule.get('hexes', []))}")
        if self.optional_hq_taken and (self.side != "un" or not data.special(g, self.scenario, "optional_reinforcements")):
            raise ValueError("optional_hq_taken is a Changjin UN rule (12.3)")
        return self


def allocation(g: Game, req: SupportFireAllocationRequest) -> CheckResult:
    turn = data.turn_record(g, req.scenario, req.game_turn)
    base = int(turn.values[f"support_{req.side}"])
    steps = [Step(f"Game-turn {req.game_turn} ({turn.date}): the chart gives the {req.side} {base} Support Fire "
                  "markers, drawn at random from the pool (8.1 Allotted markers is suspended).",
                  "8.1; scenario reinforcement chart")]
    total, warnings = base, []
    if req.hqs_lost:
        per = data.int_parameter(g, "hq_loss_allocation_reduction")
        total -= per * req.hqs_lost
        steps.append(Step(f"{req.hqs_lost} HQ(s) lost: -{per * req.hqs_lost}.", "8.1.1"))
        warnings.append("8.1.1 is cut off in the text ('... is reduced by'): read as one per HQ lost "
                        "(tables/rule_parameters.csv hq_loss_allocation_reduction).")
    if req.airfields_occupied:
        airfields = data.special(g, req.scenario, "airfields")
        per = int(airfields.get("allocation_reduction_per_hex_while_occupied", 1))
        total -= per * len(req.airfields_occupied)
        steps.append(Step(f"Airfield hex(es) {', '.join(req.airfields_occupied)} occupied by the Communists: "
                          f"-{per * len(req.airfields_occupied)}.", f"{airfields.get('source', '')} Airfields".strip()))
    if req.optional_hq_taken:
        optional = data.special(g, req.scenario, "optional_reinforcements")
        bonus = int(optional["un_support_bonus"]["support_un_per_turn"])
        total += bonus
        steps.append(Step(f"The 3rd Division HQ was taken as an optional reinforcement: +{bonus}.",
                          str(optional.get("source", ""))))
    total = max(0, total)
    steps.append(Step(f"Markers this turn: {total}.", "8.1"))
    return CheckResult(outcome={"chart": base, "markers": total}, steps=steps, warnings=warnings)


@register_check(system="kwb", name="support_fire_allocation", request=SupportFireAllocationRequest, random=False,
                summary="Support Fire markers a side draws this turn (chart, HQ losses, Pusan airfields, Changjin HQ)",
                rule="8.1, 8.1.1, 12.1.1, 12.3",
                actor=named_side("side", rule="8.1", what="the side drawing markers (side)"),
                example={"scenario": "pusan", "side": "un", "game_turn": 16})
def support_fire_allocation(req: SupportFireAllocationRequest, dice: Dice) -> CheckResult:
    return allocation(data.game(), req)


# -- the draw itself (8.1) ------------------------------------------------------------------------

DRAW_RULE = "8.1"


class SupportFireDrawRequest(CheckRequest):
    """Support Fire markers drawn at random from a side's pool of those available (8.1), or removed
    from it at random (8.1.1 an HQ lost; 12.1.1 an airfield taken, the withdrawal for Inchon)."""

    scenario: ScenarioName = board("scenario", description="Scenario id.")
    side: SideName = board("side", description="Whose pool the markers are drawn from.")
    count: int = Field(default=1, ge=1, le=8, description=(
        "How many markers: this turn's allocation (support_fire_allocation), or the number the rule removes."))
    out_of_pool: dict[str, int] = Field(default_factory=dict, description=(
        "The side's markers not in the pool now, by marker id -> how many: in hand, on a combat, removed for good "
        "(e.g. {'sf-com-2': 1})."))
    purpose: Literal["draw", "remove"] = Field(default="draw", description=(
        "'draw': into the drawer's hand, hidden from the opponent until used (8.1); 'remove': out of the game "
        "(8.1.1 an HQ eliminated; 12.1.1 an airfield occupied, the withdrawal of three markers)."))

    @model_validator(mode="after")
    def _pool(self, info: ValidationInfo):
        pool = marker_pool(data.game_in(info), self.side, self.out_of_pool)
        if len(pool) < self.count:
            raise ValueError(f"only {len(pool)} Support Fire markers are in the pool; {self.count} asked ({DRAW_RULE})")
        return self


def marker_pool(g: Game, side: str, out: dict[str, int]) -> list[str]:
    """The side's Support Fire markers in its pool, one entry per counter (markers.csv counts), less
    those out of it."""
    pool = [m.id for m in g.markers.values() if m.kind == "support_fire" and m.side == side for _ in range(m.count)]
    for marker_id, n in out.items():
        for _ in range(n):
            if marker_id not in pool:
                raise ValueError(f"out_of_pool: there are not that many {marker_id} markers of the {side} in the pool")
            pool.remove(marker_id)
    return pool


@register_check(system="kwb", name="support_fire_draw", request=SupportFireDrawRequest, random=True,
                summary="Draw Support Fire markers at random from a side's pool (hidden from the opponent until used)",
                rule="8.1, 8.1.1, 12.1.1",
                actor=named_side("side", rule="8.1", what="the side whose pool it is (side)"),
                example={"scenario": "pusan", "side": "communist", "count": 2, "dice": [3, 5]})
def support_fire_draw(req: SupportFireDrawRequest, dice: Dice) -> CheckResult:
    g = data.game()
    pool = marker_pool(g, req.side, req.out_of_pool)
    size = len(pool)
    drawn = draw_at_random(pool, req.count, dice, lambda n, left: f"Support Fire marker {n} ({left} in the pool)")
    where = "into the hand: hidden from the opponent until it is used" if req.purpose == "draw" else "removed from the game"
    steps = [Step(f"Marker {n} of {req.count} taken at random from the {size - n + 1} in the {req.side} pool ({where}).",
                  DRAW_RULE if req.purpose == "draw" else "8.1; 8.1.1; 12.1.1") for n in range(1, req.count + 1)]
    stand_in = next((g.markers[m].source for m in drawn if g.markers[m].source.is_stand_in), None)
    return CheckResult(outcome={"markers": drawn}, steps=steps,
                       warnings=[f"Stand-in Support Fire marker values ({stand_in.reason})"] if stand_in else [])
