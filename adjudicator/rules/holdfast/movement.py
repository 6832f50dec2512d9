"""HoldFast Korea movement: the MP cost of a path and whether the unit may make it (9.1; 2; 4; 7).

2: "Terrain movement effects are not cumulative. The terrain cost to enter a hex is the highest
cost if more than one condition exists. River hex side costs are cumulative in that it is in
addition to the cost of entering the hex." Clear 1, mountain 2, city 1, village/port as the other
terrain, enemy ZOC 3 (4: "It cost 3 MP to enter and for each hex moved through an enemy ZOC"),
river hexside +1; a rail line "negates cost of terrain in hex or to cross river where crosses river".
9.1: out of supply -1 MP when activated; snow -1 MP (7), cumulative; "An in supply unit activated
for movement that does not begin, end, or move through an enemy ZOC may move twice its MP".
No crossing red hex lines, no entering enemy-occupied hexes, friendly units may be passed through
but a move may not end on one (one unit per hex).

Readings (campaign.toml; terrain_effects.csv):
- Moving along the rail (a rail hexside between the two hexes) the hex costs 1 MP (as clear) and
  a river crossed by that rail costs nothing extra; the rail does NOT negate the enemy-ZOC cost
  (the 8 example: "He spends 3 MP to use the railroad to cross the river into the ZOC").
- The doubled allowance is (MP + weather and supply modifiers) x 2. Alternative: 2 x MP, then the
  modifiers.
- After a naval transfer the path starts at the landing port, whose terrain cost is paid, and the
  double move is not applied (the Amphibious Assault example: 1 MP for Inch'on, 1 for Seoul, 4 of
  6 MP left); the transfer's RP pays for the move (no extra 1 RP activation).
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, UnitKinds, board as board_field, register_check
from adjudicator.rules.holdfast import board, data, supply
from adjudicator.rules.holdfast.schemas import WEATHER_MARKER, WeatherName
from adjudicator.rules.positions import PositionModel, UnitAt
from scenarios.hexgrid import Hex
from scenarios.model import Game, GameMap

RULE = "9.1 Movement"


@dataclass
class StepCost:
    into: str
    cost: int
    why: str


def entry_cost(g: Game, gm: GameMap, a: Hex | None, b: Hex, enemy_zoc: set[Hex]) -> StepCost:
    """MP to move from `a` into adjacent `b` (a = None: placed there, e.g. landing after a transfer)."""
    terrain = board.terrain(gm, b)
    by_rail = a is not None and board.rail_between(gm, a, b)
    if by_rail:
        base, why = int(data.terrain_row(g, "rail")["mp"]), "rail line (negates the terrain)"
    else:
        base, why = int(data.terrain_row(g, terrain)["mp"]), f"{terrain}"
    if b in enemy_zoc:
        zoc = int(data.terrain_row(g, "enemy_zoc")["mp"])
        if zoc > base:
            base, why = zoc, f"enemy ZOC (highest cost; {why} not added)"
    cost = base
    if a is not None and board.river_between(gm, a, b):
        if by_rail:
            why += "; river crossed by the rail: no extra cost"
        else:
            add = int(data.terrain_row(g, "river")["mp_add"])
            cost += add
            why += f"; river hexside +{add}"
    return StepCost(gm.grid.label(b), cost, why)


class MovementRequest(CheckRequest):
    """The MP cost of one unit's move along a path (9.1)."""

    scenario: str = board_field("scenario", default=data.DEFAULT_SCENARIO, description="Scenario id.")
    unit: str = board_field("unit", min_length=1, max_length=40, description="The moving block.")
    path: list[str] = Field(min_length=1, max_length=40, description=(
        "Hexes in order, starting with the hex the unit starts in (after a naval transfer: the landing port)."))
    positions: list[PositionModel] = board_field("positions", default_factory=list, max_length=80, description=(
        "The other blocks on the map, both sides (ZOC, occupied hexes, supply). The mover may be listed at its "
        "start hex."))
    weather: WeatherName = board_field(WEATHER_MARKER, description="This turn's weather (7: snow -1 MP).")
    in_supply: bool | None = Field(default=None, description=(
        "Whether the unit is in supply when activated (9.1); null = traced from `positions` (10)."))
    after_naval_transfer: bool = Field(default=False, description=(
        "The unit was just naval-transferred to the first hex of the path (9.1; Amphibious Assault example)."))
    rp_available: int | None = Field(default=None, ge=0, le=16, description="RP left this turn (activation costs 1).")

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        data.unit(g, self.unit)
        gm = g.maps[data.scenario(g, self.scenario).maps[0]]
        for text in self.path:
            board.parse(gm, text)
        if len(self.path) < 2 and not self.after_naval_transfer:
            raise ValueError("a path needs the start hex and at least one more hex")
        others = [p for p in self.positions if p.unit != self.unit]
        supply.positions_board(g, gm, [UnitAt.from_model(p) for p in others])
        return self


def run_movement(g: Game, req: MovementRequest) -> CheckResult:
    sc = data.scenario(g, req.scenario)
    gm = g.maps[sc.maps[0]]
    mover = data.unit(g, req.unit)
    side, enemy = mover.side, data.other_side(mover.side)
    others = [UnitAt.from_model(p) for p in req.positions if p.unit != req.unit]
    b = supply.positions_board(g, gm, others)
    enemy_zoc = b.zoc_of(enemy)
    hexes = [board.parse(gm, t) for t in req.path]
    steps: list[Step] = []
    warnings = data.map_stand_in_warning(g, gm.id)
    act = data.special(g, req.scenario, "activation")

    in_supply = req.in_supply
    if in_supply is None:
        start = UnitAt(req.unit, req.path[0])
        report = supply.trace_side(g, req.scenario, side, [*others, start], {})
        mine = next(u for u in report.units if u.unit == req.unit)
        in_supply = mine.in_supply
        steps.append(Step(f"Supply when activated: {'in supply' if in_supply else 'out of supply'} ({mine.reason}).",
                          "9.1; 10"))
        warnings += [w for w in report.warnings if w not in warnings]

    chart = data.unit_chart(g, req.unit)
    allowance = chart.mp
    terms = [f"{chart.mp} MP ({chart.name})"]
    mod = data.weather_effect(g, req.weather)["mp_modifier"]
    if mod:
        allowance += mod
        terms.append(f"{req.weather} {mod:+d}")
    if not in_supply:
        oos = int(act.get("out_of_supply_mp", -1))
        allowance += oos
        terms.append(f"out of supply {oos:+d}")
    touches_zoc = any(h in enemy_zoc for h in hexes)
    doubled = in_supply and not touches_zoc and not req.after_naval_transfer
    if doubled:
        allowance *= 2
        terms.append("x2 (in supply, never in an enemy ZOC)")
    elif req.after_naval_transfer:
        terms.append("no double move after a naval transfer (reading of the Amphibious Assault example)")
    elif touches_zoc:
        terms.append("no double move (the path begins, ends or passes through an enemy ZOC)")
    steps.append(Step("Movement allowance: " + ", ".join(terms) + f" = {allowance} MP.", RULE + "; 7; 4"))

    problems: list[str] = []
    costs: list[StepCost] = []
    if req.after_naval_transfer:
        costs.append(entry_cost(g, gm, None, hexes[0], enemy_zoc))
    for a, n in zip(hexes, hexes[1:]):
        label = gm.grid.label(n)
        if not gm.grid.are_adjacent(a, n):
            problems.append(f"{gm.grid.label(a)} to {label} is not a move to an adjacent hex (9.1)")
            break
        if board.red_line_between(gm, a, n):
            problems.append(f"{gm.grid.label(a)} to {label} crosses a red hex line (2; 9.1)")
            break
        if board.is_water(gm, n):
            problems.append(f"{label} is open water")
            break
        if b.occupied_by(n, enemy):
            problems.append(f"{label} holds an enemy unit ({b.unit_at[n]}): units may not move through it (9.1)")
            break
        costs.append(entry_cost(g, gm, a, n, enemy_zoc))
    if not problems and b.occupied_by(hexes[-1], side) and len(hexes) > 1:
        problems.append(f"the move may not end in {req.path[-1]}, where {b.unit_at[hexes[-1]]} stands (one unit per hex)")
    spent = 0
    for c in costs:
        spent += c.cost
        steps.append(Step(f"Enter {c.into}: {c.cost} MP ({c.why}); {spent} MP spent.", "2 Terrain; 4 ZOC"))
    if not problems and spent > allowance:
        problems.append(f"the path costs {spent} MP, more than the {allowance} MP allowance")
    rp = 0 if req.after_naval_transfer else data.rp_cost(g, "activate_movement")
    steps.append(Step(f"Activation: {rp} RP" + (" (the naval transfer's RP pays for this move, reading)" if
                                                req.after_naval_transfer else "") + ".", "9.1; 6"))
    if req.rp_available is not None and rp > req.rp_available:
        problems.append(f"activating the unit costs {rp} RP; only {req.rp_available} left")
    legal = not problems
    steps.append(Step("Legal move." if legal else "Not allowed: " + "; ".join(problems) + ".", RULE))
    outcome = {
        "legal": legal,
        "problems": problems,
        "mp_allowance": allowance,
        "mp_spent": spent,
        "mp_left": allowance - spent if legal else None,
        "double_move": doubled,
        "in_supply": in_supply,
        "rp_cost": rp,
        "steps": [{"hex": c.into, "mp": c.cost, "why": c.why} for c in costs],
    }
    return CheckResult(outcome=outcome, steps=steps, warnings=warnings)


@register_check(system="holdfast", name="movement", request=MovementRequest, random=False,
                summary="MP cost and legality of a unit's move along a path", rule="9.1",
                actor=data.owner("the moving block", "9.1", lambda r: [r.unit]),
                units=UnitKinds(on_map=True),
                example={"unit": "rok-1",
                         "path": ["0920", "1020"],
                         "weather": "clear",
                         "positions": [{"unit": "rok-1", "hex": "0920", "step": "2"},
                                       {"unit": "nkpa-1", "hex": "0818", "step": "3"}]})
def movement(req: MovementRequest, dice: Dice) -> CheckResult:
    return run_movement(data.game(), req)
