"""Korean War Battles bombardment (8.4) and counter-battery fire (8.4.1) on the tables in the game data.

8.4 "The Communist player may not select an enemy unit for bombardment unless it is adjacent to at
least one friendly unit (the Communists had no aircraft or radios to direct fire remotely)."
8.4.1 "The Communist player may not conduct counter-battery fire."
8.1.1 / 12.1.1: the number of markers in a bombardment is limited like any combat (support.py).

The procedures themselves are Standard Rules, absent from the book (1.0). The stand-in tables
(tables/bombardment.csv, tables/counter_battery.csv) are read cell by cell: bombardment column = total
value of the markers ('6+' and up), D = one unit in the hex (the owner's choice: the first listed)
loses a step (7.6 ladder), NE = no effect; a Rough or City hex or an Improved Position moves the
column one left (the table's note). Counter-battery: column = value of the UN marker spent,
C = the Communist marker is cancelled, NE = no effect.
"""

from __future__ import annotations

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import (
    CheckRequest, CheckResult, Dice, Refusal, Step, at_field, board, named_side, register_check, the_side,
)
from adjudicator.checks import side_label
from adjudicator.words.names import marker_words
from adjudicator.rules.kwb import board as kb
from adjudicator.rules.kwb import data, losses, support
from adjudicator.rules.kwb.schemas import ScenarioName, SideName, UnitInCombat, unique
from adjudicator.rules.positions import PositionModel, UnitAt
from scenarios.model import Game, Table

#: Columns left for a Rough/City target hex or an Improved Position (tables/bombardment.csv note).
TERRAIN_COLUMNS_LEFT = 1


def value_column(t: Table, total: int) -> int:
    """Index of the column for a total marker value: the exact number, or the last 'N+' column."""
    cols = [c for c in t.columns if c != t.key]
    best = 0
    for i, c in enumerate(cols):
        if int(c.rstrip("+")) <= total:
            best = i
    return best


class BombardmentRequest(CheckRequest):
    """Support Fire markers bombarding one enemy-occupied hex (8.4)."""

    scenario: ScenarioName = board("scenario", description="Scenario id.")
    side: SideName = board("side", description="The bombarding side.")
    markers: list[str] = Field(min_length=1, max_length=4, description="Support Fire markers used (ids from markers.csv).")
    targets: list[UnitInCombat] = board("defenders", min_length=1, max_length=12, description=(
        "The enemy units in the bombarded hex (one hex), in the order their owner takes a step loss."))
    positions: list[PositionModel] = board("positions", default_factory=list, max_length=200, description=(
        "Every unit on the map: needed for a Communist bombardment (8.4: the target must be adjacent to a Communist "
        "unit) and to trace the 8.1.1 LOC when more than one marker is used and `hq_loc` is not given."))
    involved: list[str] = Field(default_factory=list, max_length=6, description=(
        "The bombarding side's units involved (for the 8.1.1 LOC and the ROK-only rule); Communist: the adjacent unit(s)."))
    hq_loc: bool | None = Field(default=None, description="8.1.1 LOC to a qualifying HQ, if known (else traced from positions).")
    un_supply_shortage: bool = Field(default=False, description="Pusan: the UN supply shortage is in force (12.1.1): one marker.")
    improved_position: bool = Field(default=False, description="The target hex is under an Improved Position marker.")
    generic_pool: list[str] | None = Field(default=None, max_length=60, description="Unnumbered regiments available (7.6).")

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        gm = data.scenario_map(g, self.scenario)
        enemy = data.other_side(self.side)
        if not unique(self.markers):
            raise ValueError("a marker is listed twice")
        for i, m in enumerate(self.markers):
            with at_field(f"/markers/{i}"):
                data.support_fire_value(g, m, self.side)
        if len({t.hex for t in self.targets}) != 1:
            raise ValueError("a bombardment is on one hex")
        for t in self.targets:
            if data.unit(g, t.unit).side != enemy:
                raise ValueError(f"target {t.unit} is not a {enemy} unit")
        target = kb.parse(gm, self.targets[0].hex)
        b = kb.Board.from_positions(g, gm, [UnitAt.from_model(p) for p in self.positions]) if self.positions else None
        if self.side == "communist":
            if b is None:
                raise ValueError("a Communist bombardment needs `positions`: the target must be adjacent to a Communist "
                                 "unit (8.4)")
            if not any(b.occupied_by(n, "communist") for n in gm.grid.neighbours(target)):
                raise ValueError(f"no Communist unit is adjacent to {self.targets[0].hex}: the Communist player may not "
                                 "bombard it (8.4)")
        if self.un_supply_shortage and (self.side != "un" or not data.special(g, self.scenario, "un_supply_shortage")):
            raise ValueError("un_supply_shortage applies to the UN in the Pusan Perimeter only (12.1.1)")
        if len(self.markers) > 1:
            involved = [data.unit(g, u) for u in self.involved]
            limit = support.marker_limit(g, self.scenario, self.side, involved, un_supply_shortage=self.un_supply_shortage,
                                         b=b, hq_loc=self.hq_loc)
            if len(self.markers) > limit.limit:
                raise ValueError(f"at most {limit.limit} marker(s) in this bombardment ({limit.steps[-1].text})")
        return self


def bombard(g: Game, req: BombardmentRequest, dice: Dice) -> CheckResult:
    gm = data.scenario_map(g, req.scenario)
    t = data.table(g, "bombardment")
    cols = [c for c in t.columns if c != t.key]
    values = [data.support_fire_value(g, m, req.side) for m in req.markers]
    total = sum(values)
    raw = value_column(t, total)
    target = kb.parse(gm, req.targets[0].hex)
    left = TERRAIN_COLUMNS_LEFT if (req.improved_position or kb.is_rough(gm, target) or kb.is_city(gm, target)) else 0
    index = max(0, raw - left)
    steps = [Step(f"The {side_label(req.side)} player bombards {req.targets[0].hex} with {marker_words(g, req.markers)}: "
                  f"total value {total}, column "
                  f"{cols[raw]}" + (f"; Rough/City/Improved Position: one column left -> {cols[index]}" if left else "")
                  + ".", data.cite("8.4", t))]
    if req.side == "communist":
        steps.insert(0, Step("The target is adjacent to at least one Communist unit.", "8.4"))
    (roll,) = dice.roll(6, purpose="bombardment")
    code = t.cell(roll, cols[index])
    steps.append(Step(f"Rolled {roll}: {code}.", t.citation))
    states = [losses.UnitState(x.unit, data.step_name(data.unit(g, x.unit), x.shown))
              for x in req.targets]
    new_units = []
    if code == "D":
        pool = losses.GenericPool.for_game(g, {x.unit for x in req.targets}, req.generic_pool)
        born, text = losses.take_step(g, states[0], pool, dice, "bombardment")
        new_units = born
        steps.append(Step(text, "7.6"))
    warnings = data.table_warnings(g, "bombardment", "support_fire_use") + data.map_warnings(g, gm.id)
    return CheckResult(outcome={"total_value": total, "column": cols[index], "roll": roll, "result": code,
                                "targets": [s.to_json() for s in states], "new_units": [s.to_json() for s in new_units]},
                       steps=steps, warnings=warnings)


@register_check(system="kwb", name="bombardment", request=BombardmentRequest, random=True,
                summary="Bombard one hex with Support Fire markers (Communist: only a unit adjacent to his own)",
                rule="8.4, 8.1.1, 12.1.1",
                actor=named_side("side", rule="8.4", what="the bombarding side (side)"),
                example={"scenario": "pusan",
                         "side": "un",
                         "markers": ["sf-un-3"],
                         "targets": [{"unit": "nk-6", "hex": "0201"}],
                         "dice": [6]})
def bombardment(req: BombardmentRequest, dice: Dice) -> CheckResult:
    return bombard(data.game(), req, dice)


class CounterBatteryRequest(CheckRequest):
    """The UN spends one Support Fire marker against one Communist marker (8.4.1: UN only)."""

    un_marker: str = Field(max_length=40, description="The UN Support Fire marker spent (e.g. 'sf-un-2').")
    communist_marker: str = Field(max_length=40, description="The Communist marker it fires at (e.g. 'sf-com-3').")

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        try:
            data.support_fire_value(g, self.un_marker, "un")
        except Refusal as err:
            raise Refusal(f"{err} (the Communist player may not conduct counter-battery fire, 8.4.1)", "/un_marker",
                          err.allowed) from None
        with at_field("/communist_marker"):
            data.support_fire_value(g, self.communist_marker, "communist")
        return self


def counter_fire(g: Game, req: CounterBatteryRequest, dice: Dice) -> CheckResult:
    t = data.table(g, "counter_battery")
    cols = [c for c in t.columns if c != t.key]
    value = data.support_fire_value(g, req.un_marker, "un")
    col = cols[value_column(t, value)]
    (roll,) = dice.roll(6, purpose="counter-battery")
    code = t.cell(roll, col)
    steps = [Step(f"UN counter-battery with {marker_words(g, [req.un_marker])} (value {value}, column {col}) against "
                  f"{marker_words(g, [req.communist_marker])}; "
                  "the Communist player may never fire counter-battery.", data.cite("8.4.1", t)),
             Step(f"Rolled {roll}: {code} — " + ("the Communist marker is cancelled (returned to the pool)." if code == "C"
                                                 else "no effect."), t.citation)]
    return CheckResult(outcome={"column": col, "roll": roll, "result": code, "cancelled": code == "C"},
                       steps=steps, warnings=data.table_warnings(g, "counter_battery", "support_fire_use"))


@register_check(system="kwb", name="counter_battery", request=CounterBatteryRequest, random=True,
                summary="UN counter-battery fire against one Communist Support Fire marker", rule="8.4.1",
                actor=the_side("un", rule="8.4.1 (UN only)"),
                example={"un_marker": "sf-un-3", "communist_marker": "sf-com-1", "dice": [1]})
def counter_battery(req: CounterBatteryRequest, dice: Dice) -> CheckResult:
    return counter_fire(data.game(), req, dice)
