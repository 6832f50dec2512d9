"""Korean War Battles (Brian Train), exclusive rules. Checks of scenario 12.1, Pusan Perimeter.

Source: the Exclusive Rules v1.2, 12.1.1 Special Rules (digest: rules/korean-war-battles.md §10.1).
"""

from __future__ import annotations

from pydantic import Field

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, register_check

#: Pusan: hexes marked with a supply symbol (12.1.1 "Supply Sources").
PUSAN_SUPPLY_SYMBOL_HEXES = ("0301", "2501", "3701", "3706", "3710", "3721")
PUSAN_TURNS = 21


class UnSupplyShortageEndRequest(CheckRequest):
    game_turn: int = Field(
        ge=1, le=PUSAN_TURNS, description="The game-turn that is ending (Pusan Perimeter: 1-21)."
    )


@register_check(
    system="kwb",
    name="un_supply_shortage_end",
    request=UnSupplyShortageEndRequest,
    random=True,
    summary="End-of-turn roll to end the UN supply shortage (Pusan Perimeter)",
    rule="12.1.1",
    scenarios=("pusan",),
)
def un_supply_shortage_end(req: UnSupplyShortageEndRequest, dice: Dice) -> CheckResult:
    turn = req.game_turn
    steps = [
        Step(
            f"End of game-turn {turn}: the UN player, still under supply shortage, rolls one die "
            "to end it.",
            "12.1.1 UN Supply Shortages",
        )
    ]
    (roll,) = dice.roll(6, purpose="UN supply shortage end roll")
    ended = roll < turn
    comparison = "less than" if ended else "not less than"
    steps.append(
        Step(
            f"Rolled {roll}, {comparison} the game-turn number {turn}: the supply shortage "
            + ("ends permanently." if ended else "continues."),
            "12.1.1 UN Supply Shortages",
        )
    )
    steps.append(
        Step(
            "The UN may now apply one or two Support Fire markers to any combat (subject to 8.1.1)."
            if ended
            else "The UN may still apply no more than one Support Fire marker to any one combat "
            "(attack, defence or bombardment).",
            "12.1.1 UN Supply Shortages",
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
            "max_support_fire_markers_per_combat": 2 if ended else 1,
        },
        steps=steps,
        warnings=warnings,
    )


class SupplyCenterMoveRequest(CheckRequest):
    supply_center: str | None = Field(
        default=None,
        max_length=40,
        description="Which Communist Supply Center is moving (free text, for the record).",
    )
    from_hex: str | None = Field(
        default=None,
        pattern=r"^[0-9]{4}$",
        description="The hex it starts in, as printed (XXYY), for the record.",
    )


@register_check(
    system="kwb",
    name="supply_center_move",
    request=SupplyCenterMoveRequest,
    random=True,
    summary="Communist supply shortage: attempt to move a Supply Center (Pusan Perimeter)",
    rule="12.1.1",
    scenarios=("pusan",),
)
def supply_center_move(req: SupplyCenterMoveRequest, dice: Dice) -> CheckResult:
    what = req.supply_center or "a Supply Center"
    where = f" in {req.from_hex}" if req.from_hex else ""
    steps = [
        Step(
            f"The Communist player attempts to move {what}{where} in the Mobile Movement Phase; "
            "every such attempt needs a die roll.",
            "12.1.1 Communist Supply Shortages",
        )
    ]
    (roll,) = dice.roll(6, purpose="Supply Center move roll")
    breakdown = roll == 6
    if breakdown:
        steps.append(
            Step(
                "Rolled 6: the Supply Center does not move; instead it is placed in the nearest "
                "hex marked with a supply symbol.",
                "12.1.1 Communist Supply Shortages",
            )
        )
    else:
        steps.append(
            Step(f"Rolled {roll} (1-5): the Supply Center moves normally.", "12.1.1 / 5.1.3")
        )
    warnings = []
    if breakdown:
        warnings.append(
            "The nearest supply-symbol hex is not computed here (needs the map geometry); "
            "the candidates are " + ", ".join(PUSAN_SUPPLY_SYMBOL_HEXES) + "."
        )
    return CheckResult(
        outcome={
            "roll": roll,
            "moves_normally": not breakdown,
            "placed_in_nearest_supply_symbol_hex": breakdown,
            "supply_symbol_hexes": list(PUSAN_SUPPLY_SYMBOL_HEXES) if breakdown else [],
        },
        steps=steps,
        warnings=warnings,
    )
