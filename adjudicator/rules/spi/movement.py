"""SPI Korea movement costs (Movement (A)-(N), Terrain Effects Chart, Zones of Control (A)).

The cost of one step is what the unit pays to ENTER the next hex, plus the ZOC penalty for LEAVING
the hex it is in:
- Clear 1 MP; Rough (wholly or partly) 2 MP (TEC);
- along a road or railroad (or into/out of a town on one, TEC City "treat as a railroad hex"): the road
  cost of the unit's row of the Movement table, Movement (L) (tables/movement.csv): basic allowance /
  road hexes, so 1/2 MP for ordinary units ("no matter what terrain it passes through", TEC Roads) and
  1/4 MP for Communist supply units (road 4 with an allowance of 1); the United Nations row's 12 is
  Movement (I)'s doubled figure, so its ordinary road cost is 3 x 2 / 12 = 1/2 and (I) doubles the
  allowance. Neither Rough nor the river surcharge applies on a road step (every road crossing of a
  river is a bridge, Bridges);
- River hex (two sides crossed by a river): +1 MP "above the ordinary terrain cost" (TEC);
- leaving an Enemy Zone of Control: +1 MP, however many enemy units (Zones of Control (A));
  "thus it would cost four Movement Points to leave an Enemy Zone, and enter a Rough terrain/River
  hex" (1 + 2 + 1);
- sea hexes and inlet hexsides: no land unit (TEC Sea, Inlet);
- Communist supply units: 1/2 MP into clear, 1 MP into Rough (Movement (K): half the ordinary costs; the
  table's row, clear 2 and rough 1 hexes for an allowance of 1, says the same);
- Intervention rule (2): no ZOC-leaving cost in the First Movement Phases of turns 1-3;
  rule (4): Chinese units enter entirely Rough hexes for 1 MP in the Second Movement Phases;
- ending the phase stacked with units not moved with: +1 MP each; at most two units (Stacking (A), (B));
  a move that recombines a division (Stacking & Unit Breakdown: "recombined at the end of a Movement
  Phase ... Units must be stacked together to be recombined, and you pay movement penalties ... as
  outlined in Case B") may exceed two while forming it ("They may only stack higher while forming
  larger units"); once formed, the hex must be within the limit;
- allowance: halved out of supply, fractions lost (Movement (N)); doubled for non-Korean UN units moving
  only on roads (Movement (I): "six hexes along a road ... twelve"); at least one hex (Movement (M));
- rail (Movement (J)): counted in rail hexes, 6 x allowance (UN south of the 38th; Communist supply units,
  12 x north of the 38th on Invasion turns 1-4), never out of supply.

The same function prices UN supply lines (Supply (D): "computed just as if an actual unit was being
moved"), so its numbers come from tables/rule_parameters.csv.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, UnitKinds, board, register_check
from adjudicator.rules.positions import PositionModel, UnitAt
from adjudicator.rules.spi import board as sb
from adjudicator.rules.spi import data, special
from adjudicator.rules.spi.schemas import ScenarioName
from scenarios.hexgrid import Hex
from scenarios.model import Game

RULE_TEC = "Terrain Effects Chart"
RULE_ZOC = "Zones of Control (A)"


@dataclass(frozen=True)
class Mover:
    """How a unit pays for terrain: ordinary land unit, Communist supply unit, Chinese under rule (4)."""

    communist_supply: bool = False
    road_cost: Fraction = Fraction(1, 2)  # the unit's row of the Movement table (Movement (L))
    chinese_entire_rough_cost: int | None = None  # Intervention rule (4): what entering entirely Rough costs
    free_zoc_exit: bool = False  # Intervention rule (2)


ORDINARY = Mover()


def enter_cost(g: Game, t: sb.Terrain, a: Hex, b: Hex, mover: Mover = ORDINARY) -> Fraction | None:
    """MP to enter hex b from adjacent hex a, terrain only (None: a land unit may not)."""
    gm = t.map
    if sb.is_sea(gm, b) or sb.inlet_between(gm, a, b):
        return None
    if t.road_step(a, b):
        return mover.road_cost
    rough = sb.is_rough(gm, b)
    if mover.communist_supply:
        cost = data.fraction_parameter(g, "communist_supply_rough_cost" if rough else "communist_supply_clear_cost")
    elif rough and mover.chinese_entire_rough_cost is not None and sb.is_entirely_rough(gm, b):
        cost = Fraction(mover.chinese_entire_rough_cost)
    else:
        cost = Fraction(2 if rough else 1)
    if b in t.rivers:
        cost += data.int_parameter(g, "river_hex_extra_cost")
    return cost


def step_cost(g: Game, t: sb.Terrain, a: Hex, b: Hex, enemy_zoc: set[Hex], mover: Mover = ORDINARY) -> Fraction | None:
    """Entering b from a plus the cost of leaving an enemy ZOC in a (Zones of Control (A))."""
    cost = enter_cost(g, t, a, b, mover)
    if cost is None:
        return None
    if a in enemy_zoc and not mover.free_zoc_exit:
        cost += data.int_parameter(g, "zoc_leave_cost")
    return cost


#: Movement (L): the Movement table's row of each kind of unit (tables/movement.csv, column unit_type).
ROW_UN, ROW_SOUTH_KOREAN, ROW_COMMUNIST = "United Nations", "South Korean", "Communists"
ROW_UN_SUPPLY, ROW_COMMUNIST_SUPPLY = "UN supply unit", "Communist supply"


def movement_row(u) -> str:
    """The row of the Movement table (Movement (L)) a unit moves by."""
    if data.is_supply_unit(u):
        return ROW_UN_SUPPLY if u.side == "un" else ROW_COMMUNIST_SUPPLY
    if u.side == "communist":
        return ROW_COMMUNIST
    return ROW_SOUTH_KOREAN if data.is_korean(u) else ROW_UN


def table_hexes(g: Game, row: str, column: str) -> Fraction:
    """A cell of the Movement table as a number of hexes, its printed footnote letter dropped."""
    return Fraction(data.table(g, "movement").cell(row, column).split()[0])


def road_cost(g: Game, u) -> tuple[Fraction, str]:
    """MP per road hex for this unit: its row's basic allowance / road hexes (Movement (L)), and how.

    The United Nations row's road figure (12) is the Movement (I) rate ("using this rule, they may
    move twelve hexes along a road"), so its ordinary cost divides (I)'s multiplier back out; (I)
    itself is applied to the allowance.
    """
    row = movement_row(u)
    basic, road = table_hexes(g, row, "basic"), table_hexes(g, row, "road")
    if row == ROW_UN:
        multiplier = data.int_parameter(g, "non_korean_un_road_multiplier")
        cost = basic * multiplier / road
        return cost, (f"{row} row: {basic} x {multiplier} / {road} road hexes = {cost} MP per road hex "
                      "(the printed 12 is the Movement (I) rate)")
    cost = basic / road
    return cost, f"{row} row: {basic} / {road} road hexes = {cost} MP per road hex"


def halve(value: int) -> int:
    """Supply (A), Movement (N): halved, 'drop any fractions'."""
    return value // 2


# -- the check (naval movement, Naval Units (A), is not priced here) -----------------------------------


class MovementRequest(CheckRequest):
    """The Movement Point cost of one unit's move along a path, and whether its allowance covers it."""

    scenario: ScenarioName = board("scenario", description="Game played: a scenario id of the data, e.g. 'invasion'.")
    unit: str = board("unit", min_length=1, max_length=60, description="The moving unit's id (units.csv).")
    path: list[str] = Field(min_length=2, max_length=40, description="Hexes from the start hex to the end hex, each "
                            "adjacent to the previous (CCRR labels).")
    positions: list[PositionModel] = board("positions", default_factory=list, max_length=400, description=(
        "Other units on the map (enemy units exert ZOC; the moving unit need not be listed)."))
    in_supply: bool = Field(default=True, description="In supply at the BEGINNING of the Movement Phase (Movement (N)).")
    phase: Literal["first", "second"] = Field(default="first", description="First or Second Movement Phase.")
    game_turn: int | None = board("turn", default=None, ge=1, le=60,
                                  description="Game-Turn (Intervention rules (2), (4)).")
    shock_effect_active: bool = Field(default=False, description="Campaign: a Shock Effect turn (rules (2), (4)).")
    rail: bool = Field(default=False, description="Rail movement (Movement (J)): every step along a railroad, counted "
                       "in rail hexes (UN units except supply units; Communist supply units only).")
    moving_with: list[str] = Field(default_factory=list, max_length=1, description=(
        "The unit moving in the same stack (Movement (C): stacks of two); friendly units already in the end hex "
        "cost +1 MP each (Stacking (B))."))
    recombine_into: str | None = Field(default=None, min_length=1, max_length=60, description=(
        "The move ends by recombining: the id of the larger unit formed (e.g. a 16-3 division) from the moving unit "
        "and the other components in the end hex (Stacking & Unit Breakdown; Case B penalties are paid)."))

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        plan(g, self)
        return self


@dataclass
class Plan:
    """A priced move: the cost of each step, the allowance that applies, and whether it covers the move."""

    costs: list[Fraction]
    steps: list[Step]
    allowance: Fraction
    total: Fraction
    legal: bool
    notes: list[str]
    recombined: list[str] | None = None  # the components that form `recombine_into`


def plan(g: Game, req: MovementRequest) -> Plan:
    gm = data.scenario_map(g, req.scenario)
    u = data.unit(g, req.unit)
    if data.is_naval(u):
        raise ValueError(f"{req.unit} is a naval unit: naval movement is priced by Naval Units (A), not here")
    others = [UnitAt.from_model(p) for p in req.positions if p.unit != req.unit]
    b = sb.Board.from_positions(g, gm, others)
    hexes = [sb.parse(gm, x) for x in req.path]
    for a, c in zip(hexes, hexes[1:]):
        if not gm.grid.are_adjacent(a, c):
            raise ValueError(f"{gm.grid.label(a)} and {gm.grid.label(c)} are not adjacent")
    enemy = data.other_side(u.side)
    for mate in req.moving_with:
        if data.unit(g, mate).side != u.side or mate == req.unit:
            raise ValueError(f"moving_with names {mate!r}: a stack moves with another unit of the same side (Movement (C))")
    enemy_units = b.occupied_by(enemy)
    for h in hexes:
        if h in enemy_units:
            raise ValueError(f"{gm.grid.label(h)} holds enemy units: units may never enter it (Movement (G))")
    rules = special.in_force(g, req.scenario, req.game_turn, req.shock_effect_active)
    if req.rail:
        if req.recombine_into:
            raise ValueError("recombine_into is priced with a land move (its Case B penalties); rail movement does not "
                             "price stacking (Movement (J))")
        return plan_rail(g, gm, req, u, hexes)
    road_mp, road_text = road_cost(g, u)
    mover = Mover(
        communist_supply=u.side == "communist" and data.is_supply_unit(u),
        road_cost=road_mp,
        chinese_entire_rough_cost=(rules.chinese_entire_rough_cost if req.phase == "second" and data.is_chinese(u)
                                   else None),
        free_zoc_exit=rules.free_zoc_exit_first_phase and req.phase == "first",
    )
    terrain = sb.Terrain.of(gm)
    zoc = b.zoc_of(enemy)
    steps, costs, total = [], [], Fraction(0)
    if any(terrain.road_step(a, c) for a, c in zip(hexes, hexes[1:])):
        steps.append(Step(f"Road cost of {req.unit}: {road_text}.", "Movement (L); Terrain Effects Chart"))
    armour = g.unit_types[u.type].mobile if u.type in g.unit_types else False
    for a, c in zip(hexes, hexes[1:]):
        cost = step_cost(g, terrain, a, c, zoc, mover)
        if cost is None:
            raise ValueError(f"{gm.grid.label(c)} cannot be entered from {gm.grid.label(a)} by a land unit (TEC Sea, "
                             "Inlet hex-side)")
        road = terrain.road_step(a, c)
        if armour and sb.is_rough(gm, c) and not road:
            raise ValueError(f"{req.unit} is armour: it may not enter Rough hex {gm.grid.label(c)} except on a road "
                             "(Movement (O))")
        if u.side == "un" and data.is_supply_unit(u) and sb.is_rough(gm, c) and req.phase == "first":
            raise ValueError("UN supply units may enter Rough hexes only in the Second Movement Phase (Movement (K))")
        parts = [f"road {mover.road_cost}" if road else ("Rough" if sb.is_rough(gm, c) else "clear")]
        if not road and c in terrain.rivers:
            parts.append("river +1")
        if a in zoc:
            parts.append("no cost to leave the enemy ZOC (Intervention (2))" if mover.free_zoc_exit else "leave enemy ZOC +1")
        costs.append(cost)
        total += cost
        steps.append(Step(f"{gm.grid.label(a)} -> {gm.grid.label(c)}: {', '.join(parts)} = {cost} MP.",
                          "Terrain Effects Chart; Zones of Control (A)"))
    end = hexes[-1]
    stacked = [p.at.unit for p in b.placed if p.hex == end and p.unit.side == u.side and not data.is_naval(p.unit)
               and p.at.unit not in req.moving_with]
    recombined = recombination(g, req, u, stacked, b) if req.recombine_into else None
    ending = len(stacked) + 1 + len(req.moving_with)
    after = ending - len(recombined) + 1 if recombined else ending
    limit = data.int_parameter(g, "stacking_limit")
    if after > limit:
        if recombined:
            raise ValueError(f"after forming {req.recombine_into}, {gm.grid.label(end)} would still hold {after} units: "
                             f"more than the stacking limit of {limit} (Stacking (A); Stacking & Unit Breakdown)")
        raise ValueError(f"ending in {gm.grid.label(end)} with {', '.join(stacked)} exceeds the stacking limit of {limit} "
                         "(Stacking (A)); if the move recombines a division, name it in recombine_into: units may stack "
                         "higher only while forming larger units (Stacking & Unit Breakdown)")
    if stacked:
        extra = Fraction(len(stacked) * data.int_parameter(g, "stack_end_penalty"))
        costs.append(extra)
        total += extra
        steps.append(Step(f"Ending the phase stacked with {', '.join(stacked)} (not moved with): +{extra} MP"
                          + (", paid also when recombining" if recombined else "") + ".",
                          "Stacking (B); Movement (F)" + ("; Stacking & Unit Breakdown" if recombined else "")))
    if recombined:
        steps.append(Step(f"{', '.join(recombined)} recombine into {req.recombine_into} in {gm.grid.label(end)} at the end "
                          f"of the Movement Phase: {ending} units while forming it, {after} once formed.",
                          "Stacking & Unit Breakdown; Stacking (A)"))
    ma = data.movement_allowance(u)
    notes = []
    all_road = all(terrain.road_step(a, c) for a, c in zip(hexes, hexes[1:]))
    allowance = Fraction(ma)
    if not req.in_supply and not data.is_supply_unit(u):
        allowance = Fraction(halve(ma))
        notes.append(f"out of supply: allowance {ma} halved to {allowance}, fractions lost (Movement (N))")
    elif data.is_non_korean_un(u) and all_road:
        allowance = Fraction(ma * data.int_parameter(g, "non_korean_un_road_multiplier"))
        notes.append(f"non-Korean UN unit moving only on roads: allowance doubled to {allowance} (Movement (I))")
    one_hex = len(hexes) == 2 and not (u.side == "un" and data.is_supply_unit(u) and req.phase == "first"
                                         and sb.is_rough(gm, hexes[-1]))
    legal = total <= allowance or one_hex
    if total > allowance and one_hex:
        notes.append("a unit may always move at least one hex (Movement (M))")
    return Plan(costs, steps, allowance, total, legal, notes, recombined)


def recombination(g: Game, req: MovementRequest, u, stacked: list[str], b: sb.Board) -> list[str]:
    """The components that recombine into `req.recombine_into` (Stacking & Unit Breakdown), moving unit first.

    The breakdown table says what a larger unit is made of ("one 16-3 = three 5-3's"); the components
    must be stacked together at the end of the move: the moving unit, its stack mate and units already there.
    """
    larger = data.unit(g, req.recombine_into)
    parts = data.breakdown(g, data.values_text(larger))
    if parts is None:
        raise ValueError(f"{req.recombine_into} ({data.values_text(larger)}) is not a unit the breakdown table forms "
                         "(Stacking & Unit Breakdown)")
    count, component = parts
    if larger.side != u.side:
        raise ValueError(f"{req.recombine_into} is not a unit of {u.side}'s side (Stacking & Unit Breakdown)")
    if any(p.at.unit == req.recombine_into for p in b.placed):
        raise ValueError(f"{req.recombine_into} is already on the map: recombining forms it from its components "
                         "(Stacking & Unit Breakdown)")
    if data.values_text(u) != component:
        raise ValueError(f"{req.unit} ({data.values_text(u)}) is not a component of {req.recombine_into}: one "
                         f"{data.values_text(larger)} = {count} x {component} (Stacking & Unit Breakdown)")
    others = [x for x in list(req.moving_with) + stacked if data.values_text(data.unit(g, x)) == component]
    if len(others) + 1 < count:
        raise ValueError(f"recombining {req.recombine_into} needs {count} {component}s stacked together at the end of "
                         f"the move; there would be {len(others) + 1} (Stacking & Unit Breakdown)")
    formed = [req.unit] + others[:count - 1]
    if data.is_army(larger) and not all(data.is_chinese(data.unit(g, x)) for x in formed):
        raise ValueError("a 25-2 Army is formed from Chinese 10-4s only (Stacking & Unit Breakdown: 'Chinese only')")
    return formed


def plan_rail(g: Game, gm, req: MovementRequest, u, hexes) -> Plan:
    """Movement (J): 'All units moving by rail must begin and end their Movement Phase on the rail-line and may
    not leave the rail-line'; UN units except supply units at six times their allowance, only south of the 38th
    Parallel (footnote a); Communist supply units only, at six times (twelve times on rail lines north of the
    38th during the first four Game-Turns of the Invasion Game). Out of supply: no rail (Movement (N), Supply (E)).
    Reading: rail movement is counted in rail hexes; Zones of Control do not add to it."""
    if u.side == "un" and data.is_supply_unit(u):
        raise ValueError("UN supply units may not move by rail (Movement (J))")
    if u.side == "communist" and not data.is_supply_unit(u):
        raise ValueError("only Communist supply units may move by rail (Movement (J))")
    if not req.in_supply and not data.is_supply_unit(u):
        raise ValueError("units out of supply may not use rail movement (Movement (N); Supply (E))")
    for a, c in zip(hexes, hexes[1:]):
        if sb.RAIL not in gm.hexside_kinds(a, c):
            raise ValueError(f"{gm.grid.label(a)} -> {gm.grid.label(c)} is not along a railroad: rail movement may not "
                             "leave the rail-line (Movement (J))")
    line = sb.Line.of(gm, "parallel_38")
    ma = data.movement_allowance(u)
    notes = []
    if u.side == "un":
        multiplier = data.int_parameter(g, "un_rail_multiplier")
        north = [gm.grid.label(h) for h in hexes if not line.is_south(h)]
        if north:
            raise ValueError(f"UN rail movement only on railroads south of the 38th Parallel ({', '.join(north)} is "
                             "not; Movement (L) footnote a)")
    else:
        multiplier = data.int_parameter(g, "communist_supply_rail_multiplier")
        bonus = data.special(g, req.scenario, "communist_supply_rail_bonus")
        if bonus and req.game_turn in bonus.get("turns", []) and not any(line.is_south(h) for h in hexes):
            multiplier = int(bonus.get("rail_multiplier", multiplier))
            notes.append(f"Invasion Game-Turn {req.game_turn}, north of the 38th: rail rate {multiplier} x allowance "
                         "(Movement (J) Special Case)")
    allowance = Fraction(ma * multiplier)
    total = Fraction(len(hexes) - 1)
    steps = [Step(f"Rail movement along {' '.join(req.path)}: {total} rail hexes.", "Movement (J)")]
    notes.append(f"rail allowance {ma} x {multiplier} = {allowance} rail hexes (Movement (J))")
    return Plan([Fraction(1)] * int(total), steps, allowance, total, total <= allowance, notes)


def run_movement(g: Game, req: MovementRequest) -> CheckResult:
    p = plan(g, req)
    steps = p.steps + [Step(n, "Movement") for n in p.notes]
    unit = "rail hexes" if req.rail else "MP"
    steps.append(Step(f"Total {p.total} {unit} against an allowance of {p.allowance}: "
                      f"{'within it' if p.legal else 'EXCEEDS it'}.", "Movement (A), (C), (J)"))
    return CheckResult(outcome={"mode": "rail" if req.rail else "land", "step_costs": [str(c) for c in p.costs],
                                "total": float(p.total), "allowance": float(p.allowance), "legal": p.legal,
                                "recombines": ({"into": req.recombine_into, "components": p.recombined,
                                                "hex": req.path[-1]} if p.recombined else None)},
                       steps=steps, warnings=data.map_warnings(g, data.scenario_map(g, req.scenario).id))


@register_check(system="spi", name="movement_cost", request=MovementRequest, random=False,
                summary="Movement Point cost of a move (terrain, roads, rivers, leaving enemy ZOC, stacking) or rail move "
                        "against the allowance", rule="Movement (A)-(O); Terrain Effects Chart; Zones of Control (A)",
                actor=data.owner("the moving unit", "Movement (A)", lambda r: [r.unit]),
                units=UnitKinds(on_map=True),
                example={"scenario": "stalemate", "unit": "nk-d1", "path": ["0101", "0201"]})
def movement_cost(req: MovementRequest, dice: Dice) -> CheckResult:
    return run_movement(data.game(), req)
