"""Korean War Battles supply shortages of the Pusan Perimeter (12.1.1 Special Rules).

12.1.1 UN Supply Shortages: "To attempt to end the supply shortage, the UN player rolls the die at
the end of each game-turn. If the result is less than the current game-turn number, the supply
shortage is permanently ended."
12.1.1 Communist Supply Shortages: "Each time the Communist player attempts to move a Supply Center
in the Mobile Movement Phase, he rolls a die. If he rolls a "6," the supply network has broken down
locally and the Supply Center is placed in the nearest hex marked with a supply symbol instead."

Both are the scenario's special rules (`un_supply_shortage`, `communist_supply_shortage` in
scenarios/pusan.toml): the breakdown numbers, the citations and the supply-symbol hexes (the
scenario's Communist supply sources) are read from the data of the game's scenario, so a scenario a
maintainer adds with a copy of a rule gets it. "Nearest" is counted in hexes on the scenario map; on
a tie every nearest hex is listed (reading: the owner picks).
"""

from __future__ import annotations

from pydantic import ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, UnitKinds, board, register_check, the_side
from adjudicator.rules.gamedata import rule_of, with_special_rule
from adjudicator.rules.kwb import board as kb
from adjudicator.rules.kwb import data
from adjudicator.rules.kwb.schemas import ScenarioName

#: The Pusan Perimeter's last game-turn (its reinforcement chart; tests check it against the data).
PUSAN_TURNS = 21
UN_SHORTAGE, COMMUNIST_SHORTAGE = "un_supply_shortage", "communist_supply_shortage"


class UnSupplyShortageEndRequest(CheckRequest):
    """The UN player's end-of-turn roll to end the Pusan supply shortage (12.1.1)."""

    scenario: ScenarioName = board("scenario", default="pusan", description=(
        "Scenario id: one whose data has the special rule un_supply_shortage (the Pusan Perimeter's)."))
    game_turn: int = board(
        "turn", ge=1, le=PUSAN_TURNS, description="The game-turn that is ending (Pusan Perimeter: 1-21)."
    )

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        rule_of(g, self.scenario, UN_SHORTAGE)
        data.turn_record(g, self.scenario, self.game_turn)
        return self


@register_check(
    system="kwb",
    name="un_supply_shortage_end",
    request=UnSupplyShortageEndRequest,
    random=True,
    summary="End-of-turn roll to end the UN supply shortage (Pusan Perimeter)",
    rule="12.1.1",
    scenario_rule=with_special_rule(data.game, UN_SHORTAGE),
    actor=the_side("un", rule="12.1.1 (at the end of each game-turn the UN rolls 1d6)"),
    example={"game_turn": 5, "dice": [4]},
)
def un_supply_shortage_end(req: UnSupplyShortageEndRequest, dice: Dice) -> CheckResult:
    turn = req.game_turn
    rule = rule_of(data.game(), req.scenario, UN_SHORTAGE)
    cited = f"{rule.get('source', '')} UN Supply Shortages".strip()
    during, after = int(rule.get("max_markers_per_combat_during", 1)), int(rule.get("max_markers_per_combat_after", 2))
    steps = [
        Step(
            f"End of game-turn {turn}: the UN player, still under supply shortage, rolls one die "
            "to end it.",
            cited,
        )
    ]
    (roll,) = dice.roll(6, purpose="UN supply shortage end roll")
    ended = roll < turn
    comparison = "less than" if ended else "not less than"
    steps.append(
        Step(
            f"Rolled {roll}, {comparison} the game-turn number {turn}: the supply shortage "
            + ("ends permanently." if ended else "continues."),
            cited,
        )
    )
    steps.append(
        Step(
            "The UN may now apply one or two Support Fire markers to any combat (subject to 8.1.1)."
            if ended
            else "The UN may still apply no more than one Support Fire marker to any one combat "
            "(attack, defence or bombardment).",
            cited,
        )
    )
    warnings = []
    if turn == 1:
        warnings.append("On game-turn 1 no roll can end the shortage (a die is never below 1).")
    elif turn >= 7:
        warnings.append(f"On game-turn {turn} every roll ends the shortage.")
    return CheckResult(
        outcome={
            "roll": roll,
            "shortage_ended": ended,
            "max_support_fire_markers_per_combat": after if ended else during,
        },
        steps=steps,
        warnings=warnings,
    )


class SupplyCenterMoveRequest(CheckRequest):
    """One attempt to move a Communist Supply Center in the Mobile Movement Phase (12.1.1, 5.1.3)."""

    scenario: ScenarioName = board("scenario", default="pusan", description=(
        "Scenario id: one whose data has the special rule communist_supply_shortage (the Pusan Perimeter's)."))
    supply_center: str | None = board(
        "unit",
        default=None,
        max_length=40,
        description="Which Communist Supply Center is moving (free text, for the record).",
    )
    from_hex: str | None = board(
        "hex",
        default=None,
        pattern=r"^[0-9]{4}$",
        description="The hex it starts in, as printed (XXYY), for the record.",
    )

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        rule_of(data.game_in(info), self.scenario, COMMUNIST_SHORTAGE)
        return self


@register_check(
    system="kwb",
    name="supply_center_move",
    request=SupplyCenterMoveRequest,
    random=True,
    summary="Communist supply shortage: attempt to move a Supply Center (Pusan Perimeter)",
    rule="12.1.1",
    scenario_rule=with_special_rule(data.game, COMMUNIST_SHORTAGE),
    actor=the_side("communist", rule="12.1.1 (the Communist player attempts to move a Supply Center)"),
    example={"supply_center": "nk-sc-2", "from_hex": "2402", "dice": [6]},
    units=UnitKinds(types=("supply_center",), on_map=True),
)
def supply_center_move(req: SupplyCenterMoveRequest, dice: Dice) -> CheckResult:
    g = data.game()
    rule = rule_of(g, req.scenario, COMMUNIST_SHORTAGE)
    cited = f"{rule.get('source', '')} Communist Supply Shortages".strip()
    symbols = list(data.scenario(g, req.scenario).supply_sources["communist"])
    breakdown_on = [int(x) for x in rule.get("breakdown_on", [6])]
    what = req.supply_center or "a Supply Center"  # named: a breakdown's placement is a move the board makes
    where = f" in {req.from_hex}" if req.from_hex else ""
    steps = [
        Step(
            f"The Communist player attempts to move {what}{where} in the Mobile Movement Phase; "
            "every such attempt needs a die roll.",
            cited,
        )
    ]
    (roll,) = dice.roll(6, purpose="Supply Center move roll")
    breakdown = roll in breakdown_on
    gm = data.scenario_map(g, req.scenario)
    nearest = nearest_symbols(gm, req.from_hex, symbols) if (breakdown and req.from_hex) else []
    if breakdown:
        steps.append(
            Step(
                f"Rolled {roll}: the Supply Center does not move; instead it is placed in the nearest "
                "hex marked with a supply symbol"
                + (f": {' or '.join(nearest)} ({_distance(gm, req.from_hex, nearest[0])} hexes from {req.from_hex})."
                   if nearest else "."),
                cited,
            )
        )
    else:
        steps.append(
            Step(f"Rolled {roll}: the Supply Center moves normally.", f"{cited}; 5.1.3")
        )
    warnings = []
    if breakdown and not req.from_hex:
        warnings.append("Give from_hex to have the nearest supply-symbol hex computed; the candidates are "
                        + ", ".join(symbols) + ".")
    if nearest:
        warnings += data.map_warnings(g, gm.id)
    outcome = {
        "roll": roll,
        "moves_normally": not breakdown,
        "placed_in_nearest_supply_symbol_hex": breakdown,
        "supply_symbol_hexes": symbols if breakdown else [],
        "nearest_supply_symbol_hexes": nearest,
    }
    if breakdown and req.supply_center and len(nearest) == 1:  # the rules name the hex: the board follows it
        outcome["supply_center_placed"] = {"unit": req.supply_center, "to_hex": nearest[0]}
    return CheckResult(outcome=outcome, steps=steps, warnings=warnings)


def _distance(gm, a: str, b: str) -> int:
    return gm.grid.distance(kb.parse(gm, a), kb.parse(gm, b))


def nearest_symbols(gm, from_hex: str, symbols: list[str]) -> list[str]:
    """The supply-symbol hexes nearest `from_hex` in hexes on the scenario's map (all of them on a tie)."""
    best = min(_distance(gm, from_hex, s) for s in symbols)
    return [s for s in symbols if _distance(gm, from_hex, s) == best]
