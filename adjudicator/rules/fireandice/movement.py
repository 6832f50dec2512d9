"""Movement limits a player asks about (4.0): declaring combat costs (4.5) and strategic movement (4.8).

Declaring combat (4.5, 5.2; table `declaring_costs`): a moving active unit adjacent to an enemy unit
may declare a combat if it has the MP left to pay for it: Meeting Engagement 1, Hasty Attack 2,
Prepared Attack 3, Deliberate Attack all its MP - "the attacker must start adjacent to the enemy unit
to declare that type of attack". The allowance is the initial movement's 5 MP (4.4; table
`movement_allowances`). Declaring ends the unit's movement (5.2). Low Morale adds 1 to the cost and
forbids a Deliberate Attack (6.2 j); a unit that used the one-hex minimum move may declare no combat
(4.1); each activated unit places at most one chit per game turn (5.1); one chit per hex (4.4).

Strategic movement (4.8): a fresh HQ or unit, up to 10 MP (table `movement_allowances`), stays fresh.
- "may not move farther north (for the UN) or farther south (for the Communists) than the farthest
  northern or southern unit of the respective side. This is determined by hex row" (lower row = farther
  north). The farthest unit itself "may only move to the south or north, respectively, and must end ...
  farther south (for the UN) or farther north (for the Communists) than another friendly unit".
- "may not start within 2 hexes of an enemy unit - and may not enter any hex within 2 hexes of an enemy
  unit"; US and UN Minor Powers units may, "and possibly through enemy ZoCs" - then a Bug Out marker.
- An interdicted unit or HQ may not strategically move this phase (10.4.2).
Readings: an HQ is not a unit (1.0): HQs neither set the farthest row nor count as enemy units for the
2-hex rule, but a strategically moving HQ obeys both limits; "may only move to the south" means no hex
entered is farther north than the hex it started in. Terrain costs are the Terrain Effects Chart's
(a labelled stand-in, reported as a warning) plus +1 MP to enter an enemy ZoC no friendly unit negates.
"""

from __future__ import annotations

from fractions import Fraction

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board as board_field, register_check
from adjudicator.rules.fireandice import board, data
from adjudicator.rules.fireandice.schemas import CombatType, LeadMarker
from adjudicator.rules.positions import PositionModel
from scenarios.hexgrid import Hex
from scenarios.model import Game


def allowance(g: Game, movement: str) -> int:
    """A movement allowance of table `movement_allowances` (4.4 initial 5, 4.8 strategic 10)."""
    return int(data.table(g, "movement_allowances").cell(movement, "mp"))


# -- declaring combat (4.5) ----------------------------------------------------------------------------


class DeclareCombatRequest(CheckRequest):
    """May this moving unit declare this combat, and what does it cost (4.5)?"""

    unit: str = board_field("unit", min_length=1, max_length=60, description="The declaring unit's id.")
    combat_type: CombatType = Field(description="The combat declared.")
    mp_spent: float = Field(default=0, ge=0, le=5, multiple_of=0.5,
                            description="MP the unit has spent so far in its initial movement (4.4: 5 MP).")
    started_adjacent: bool = Field(default=False, description="It started its movement adjacent to the enemy unit "
                                                              "(needed for a Deliberate Attack, 4.5).")
    markers: list[LeadMarker] = Field(default_factory=list, max_length=9,
                                      description="Markers on the unit (Low Morale +1 MP, 6.2 j).")
    moved_one_hex_without_mp: bool = Field(default=False, description="It used the one-hex minimum move "
                                                                       "(then no combat may be declared, 4.1).")
    chit_placed_this_turn: bool = Field(default=False, description="It already placed a combat chit this game turn "
                                                                   "(5.1: one per activated unit per turn).")
    hex_has_chit: bool = Field(default=False, description="The combat hex already holds a combat chit (4.4).")


@register_check(system="fireandice", name="declare_combat", request=DeclareCombatRequest, random=False,
                summary="Declaring combat: its MP cost (1/2/3/all), whether the unit can pay it, and the cup",
                rule="4.5; 5.2; 6.2 j",
                actor=data.owner("the declaring unit", "4.5", lambda r: [r.unit]),
                units=data.DECLARING_UNITS,
                example={"unit": "nk-3", "combat_type": "Prepared Attack", "mp_spent": 1.5})
def declare_combat(req: DeclareCombatRequest, dice: Dice) -> CheckResult:
    return run_declare_combat(data.game(), req)


def run_declare_combat(g: Game, req: DeclareCombatRequest) -> CheckResult:
    t = data.table(g, "declaring_costs")
    ma = allowance(g, "initial")
    spent = Fraction(str(req.mp_spent))
    left = ma - spent
    printed = t.cell(req.combat_type, "mp_cost")
    data.unit(g, req.unit)
    who = req.unit
    steps = [Step(f"{who}: {ma} MP of initial movement, {_mp(spent)} spent, {_mp(left)} left.", "4.4 Initial Movement")]
    refusals: list[tuple[str, str]] = []
    low_morale = "low_morale" in req.markers
    if printed == "all":
        cost = left
        steps.append(Step(f"A {req.combat_type} costs all movement points: {_mp(cost)}.", "4.5 Declaring Combat Costs"))
        if not req.started_adjacent or spent > 0:
            refusals.append(("the attacker must start adjacent to the enemy unit (and spend all its MP, so it may not "
                             "have moved)", "4.5"))
        if low_morale:
            refusals.append(("a Low Morale unit may never perform a Deliberate Attack", "6.2 j Low Morale"))
    else:
        cost = Fraction(int(printed))
        steps.append(Step(f"A {req.combat_type} costs {cost} MP.", "4.5 Declaring Combat Costs; 5.2"))
        if low_morale:
            cost += 1
            steps.append(Step(f"Low Morale adds one to the combat chit's movement cost: {_mp(cost)} MP.", "6.2 j Low Morale"))
        if cost > left:
            refusals.append((f"it has {_mp(left)} MP left, the combat costs {_mp(cost)}", "4.5"))
    if {"routed", "bug_out"} & set(req.markers):
        refusals.append(("a Routed (or Bug Out) unit may not attack", "6.2 f"))
    if req.moved_one_hex_without_mp:
        refusals.append(("it used the one-hex move without enough MP: no combat may be declared", "4.1"))
    if req.chit_placed_this_turn:
        refusals.append(("each activated unit may only place one combat chit per game turn", "5.1"))
    if req.hex_has_chit:
        refusals.append(("the combat hex already holds a combat chit (not more than one per hex)", "4.4"))
    for text, rule in refusals:
        steps.append(Step(f"May not declare: {text}.", rule))
    allowed = not refusals
    cup = t.cell(req.combat_type, "cup")
    if allowed:
        steps.append(Step(f"Declared: {_mp(cost)} MP paid, {_mp(left - cost)} MP unused; the unit's movement ends. "
                          f"Draw a chit from the {cup} cup.", "5.2; 5.2.1"))
    return CheckResult(outcome={"allowed": allowed, "cost": float(cost), "mp_left_before": float(left),
                                "mp_left_after": float(left - cost) if allowed else float(left), "cup": cup,
                                "movement_ends": allowed, "refusals": [text for text, _ in refusals]},
                       steps=steps)


def _mp(value: Fraction) -> str:
    return f"{float(value):g}"


# -- strategic movement (4.8) ----------------------------------------------------------------------------


class StrategicMoveRequest(CheckRequest):
    """May this fresh HQ or unit make this strategic move (4.8)?"""

    scenario: str = board_field("scenario", default=data.DEFAULT_SCENARIO, max_length=40, description="Scenario id.")
    unit: str = board_field("unit", min_length=1, max_length=60, description="The moving HQ or unit.")
    path: list[str] = Field(min_length=2, max_length=30, description="Hexes from the start hex to the end hex, each "
                                                                     "adjacent to the previous (XXYY).")
    positions: list[PositionModel] = board_field("positions", default_factory=list, max_length=300, description=(
        "Units and HQs of both sides on the map (the moving unit's own entry, if listed, is ignored)."))
    fresh: bool = Field(default=True, description="The HQ or unit is fresh (only fresh ones move strategically).")
    interdicted: bool = Field(default=False, description="Enemy Interdiction denied this strategic move (10.4.2).")

    @model_validator(mode="after")
    def _check(self, info: ValidationInfo):
        g = data.game_in(info)
        gm = g.maps[data.scenario(g, self.scenario).maps[0]]
        data.unit(g, self.unit)
        hexes = [board.parse(gm, x) for x in self.path]
        for a, b in zip(hexes, hexes[1:]):
            if not gm.grid.are_adjacent(a, b):
                raise ValueError(f"{board.label(gm, a)} and {board.label(gm, b)} are not adjacent")
        for p in self.positions:
            data.unit(g, p.unit)
            board.parse(gm, p.hex)
        return self


@register_check(system="fireandice", name="strategic_movement", request=StrategicMoveRequest, random=False,
                summary="Strategic movement: 10 MP, the farthest-row limit, 2 hexes from the enemy, Bug Out",
                rule="4.8; 10.4.2",
                actor=data.owner("the moving HQ or unit", "4.8", lambda r: [r.unit]),
                units=data.GROUND_UNITS,
                example={"unit": "rok-1", "path": ["2252", "2251", "2250"],
                         "positions": [{"unit": "rok-2", "hex": "2240"}, {"unit": "nk-1", "hex": "2230"}]})
def strategic_movement(req: StrategicMoveRequest, dice: Dice) -> CheckResult:
    return run_strategic_movement(data.game(), req)


def run_strategic_movement(g: Game, req: StrategicMoveRequest) -> CheckResult:
    gm = g.maps[data.scenario(g, req.scenario).maps[0]]
    mover = data.unit(g, req.unit)
    side, enemy = mover.side, data.other_side(mover.side)
    hexes = [board.parse(gm, x) for x in req.path]
    others = [p for p in req.positions if p.unit != req.unit]
    units_of = {s: [(p.unit, board.parse(gm, p.hex)) for p in others
                    if data.unit(g, p.unit).side == s and data.unit(g, p.unit).type not in ("hq", "aircraft")]
                for s in (side, enemy)}
    steps: list[Step] = []
    broken: list[tuple[str, str]] = []
    if not req.fresh:
        broken.append(("only fresh HQs and units may move strategically", "4.8"))
    if req.interdicted:
        broken.append(("Interdiction: it may not strategically move this phase (it stays fresh)", "10.4.2"))
    total, cost_steps = _path_cost(g, gm, hexes, side, others)
    steps += cost_steps
    limit = allowance(g, "strategic")
    if total > limit:
        broken.append((f"the move costs {_mp(total)} MP, more than the {limit} MP of strategic movement", "4.8"))
    broken += _farthest_row(gm, mover, hexes, units_of[side], steps)
    bug_out = _enemy_distance(gm, mover, hexes, units_of[enemy], steps, broken)
    for text, rule in broken:
        steps.append(Step(f"Not allowed: {text}.", rule))
    legal = not broken
    if legal:
        steps.append(Step(f"{req.unit} moves strategically {_mp(total)} of {limit} MP and stays fresh"
                          + ("; it ends with a Bug Out marker" if bug_out else "") + ".", "4.8"))
    return CheckResult(outcome={"legal": legal, "mp": float(total), "allowance": limit,
                                "bug_out": legal and bug_out, "broken": [text for text, _ in broken]},
                       steps=steps, warnings=data.stand_in_warnings(g, "table terrain_effects"))


def _path_cost(g: Game, gm, hexes: list[Hex], side: str, others: list[PositionModel]) -> tuple[Fraction, list[Step]]:
    """MP of the path by the Terrain Effects Chart, +1 to enter an enemy ZoC no friendly unit negates (4.1, 4.3)."""
    b = board.Board(gm)
    for p in others:
        u = data.unit(g, p.unit)
        if u.type not in ("hq", "aircraft"):  # an HQ is not a unit (1.0)
            b.place(p.unit, u.side, board.parse(gm, p.hex))
    enemy = data.other_side(side)
    zoc = b.zoc_of(enemy)
    total, parts = Fraction(0), []
    for a, c in zip(hexes, hexes[1:]):
        if b.occupied_by(c, enemy):
            raise ValueError(f"{board.label(gm, c)} holds an enemy unit: no unit may enter it (4.1)")
        cost = board.move_cost(g, gm, a, c)
        if cost is None:
            raise ValueError(f"{board.label(gm, c)} cannot be entered (Terrain Effects Chart)")
        step = Fraction(str(cost))
        text = f"{board.label(gm, c)} {_mp(step)}"
        if c in zoc and not b.occupied_by(c, side):
            step += 1
            text += " + 1 enemy ZoC"
        total += step
        parts.append(text)
    return total, [Step(f"Path costs: {', '.join(parts)} = {_mp(total)} MP.", "4.1; 4.3; Terrain Effects Chart")]


def _farther(side: str, row: int, than: int) -> bool:
    """Row `row` is farther forward for `side` than row `than` (UN: north = lower row; Communist: south)."""
    return row < than if side == "un" else row > than


def _farthest_row(gm, mover, hexes: list[Hex], friends: list[tuple[str, Hex]], steps: list[Step]) -> list[tuple[str, str]]:
    """4.8: no farther north (UN) / south (Communist) than the side's farthest unit, by hex row."""
    side = mover.side
    ahead = "north" if side == "un" else "south"
    back = "south" if side == "un" else "north"
    if not friends:
        return [(f"no other friendly unit: the farthest {ahead} unit cannot end farther {back} than another one", "4.8")]
    rows = [h.row for _, h in friends]
    farthest_other = min(rows) if side == "un" else max(rows)
    start = hexes[0]
    is_unit = mover.type != "hq"
    if is_unit and _farther(side, start.row, farthest_other):
        steps.append(Step(f"{mover.id} in row {start.row:02d} is the farthest {ahead} unit of its side: it may only move "
                          f"{back} and must end farther {back} than another friendly unit (row {farthest_other:02d}).",
                          "4.8 Strategic Movement"))
        broken = []
        forward = [board.label(gm, h) for h in hexes[1:] if _farther(side, h.row, start.row)]
        if forward:
            broken.append((f"the farthest {ahead} unit may only move {back}; {', '.join(forward)} is farther {ahead}", "4.8"))
        if not _farther(side, farthest_other, hexes[-1].row):
            broken.append((f"it must end farther {back} than another friendly unit (row {farthest_other:02d})", "4.8"))
        return broken
    steps.append(Step(f"The farthest {ahead} {data.SIDE_NAMES[side]} unit is in row {farthest_other:02d}: no hex farther "
                      f"{ahead} may be entered.", "4.8 Strategic Movement"))
    beyond = [board.label(gm, h) for h in hexes[1:] if _farther(side, h.row, farthest_other)]
    return [(f"{', '.join(beyond)} is farther {ahead} than row {farthest_other:02d}", "4.8")] if beyond else []


def _enemy_distance(gm, mover, hexes: list[Hex], enemies: list[tuple[str, Hex]], steps: list[Step],
                    broken: list[tuple[str, str]]) -> bool:
    """4.8: not within 2 hexes of an enemy unit at the start or in any hex entered; US and UN Minor Powers may,
    and then take a Bug Out marker. Returns whether a Bug Out marker is due."""
    near = []
    for i, h in enumerate(hexes):
        close = [u for u, e in enemies if gm.grid.distance(h, e) <= 2]
        if close:
            near.append(f"{board.label(gm, h)} ({'start; ' if i == 0 else ''}{', '.join(close)} within 2 hexes)")
    if not near:
        steps.append(Step("No hex of the move is within 2 hexes of an enemy unit.", "4.8"))
        return False
    if mover.type != "hq" and data.is_us_or_minor(mover):
        steps.append(Step(f"{mover.id} is a US or UN Minor Powers unit: it may move strategically within 2 hexes of the "
                          f"enemy ({'; '.join(near)}), and receives a Bug Out marker.", "4.8; 6.2 g Bug Out"))
        return True
    broken.append((f"within 2 hexes of an enemy unit: {'; '.join(near)}", "4.8"))
    return False
