"""Korean War Battles supply shortages of the Pusan Perimeter (12.1.1 Special Rules).

12.1.1 UN Supply Shortages: "To attempt to end the supply shortage, the UN player rolls the die at
the end of each game-turn. If the result is less than the current game-turn number, the supply
shortage is permanently ended."
12.1.1 Communist Supply Shortages: "Each time the Communist player attempts to move a Supply Center
in the Mobile Movement Phase, he rolls a die. If he rolls a "6," the supply network has broken down
locally and the Supply Center is placed in the nearest hex marked with a supply symbol instead."

The breakdown numbers are data (scenarios/pusan.toml special_rules.communist_supply_shortage
`breakdown_on`); the supply-symbol hexes are the scenario's Communist supply sources. "Nearest" is
counted in hexes on the scenario map; on a tie every nearest hex is listed (reading: the owner picks).
"""

from __future__ import annotations

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board, register_check, the_side
from adjudicator.rules.kwb import board as kb
from adjudicator.rules.gamedata import with_special_rule
from adjudicator.rules.kwb import data

#: The Pusan Perimeter's last game-turn (its reinforcement chart; tests check it against the data).
PUSAN_TURNS = 21


class UnSupplyShortageEndRequest(CheckRequest):
    """The UN player's end-of-turn roll to end the Pusan supply shortage (12.1.1)."""

    game_turn: int = board(
        "turn", ge=1, le=PUSAN_TURNS, description="The game-turn that is ending (Pusan Perimeter: 1-21)."
    )


@register_check(
    system="kwb",
    name="un_supply_shortage_end",
    request=UnSupplyShortageEndRequest,
    random=True,
    summary="End-of-turn roll to end the UN supply shortage (Pusan Perimeter)",
    rule="12.1.1",
    scenario_rule=with_special_rule(data.game, "un_supply_shortage"),
    actor=the_side("un", rule="12.1.1 (at the end of each game-turn the UN rolls 1d6)"),
    example={"game_turn": 5, "dice": [4]},
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
    """One attempt to move a Communist Supply Center in the Mobile Movement Phase (12.1.1, 5.1.3)."""

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


@register_check(
    system="kwb",
    name="supply_center_move",
    request=SupplyCenterMoveRequest,
    random=True,
    summary="Communist supply shortage: attempt to move a Supply Center (Pusan Perimeter)",
    rule="12.1.1",
    scenario_rule=with_special_rule(data.game, "communist_supply_shortage"),
    actor=the_side("communist", rule="12.1.1 (the Communist player attempts to move a Supply Center)"),
    example={"supply_center": "nk-sc-2", "from_hex": "2402", "dice": [6]},
)
def supply_center_move(req: SupplyCenterMoveRequest, dice: Dice) -> CheckResult:
    g = data.game()
    symbols = list(data.scenario(g, "pusan").supply_sources["communist"])
    breakdown_on = [int(x) for x in data.special(g, "pusan", "communist_supply_shortage").get("breakdown_on", [6])]
    what = req.supply_center or "a Supply Center"  # named: a breakdown's placement is a move the board makes
    where = f" in {req.from_hex}" if req.from_hex else ""
    steps = [
        Step(
            f"The Communist player attempts to move {what}{where} in the Mobile Movement Phase; "
            "every such attempt needs a die roll.",
            "12.1.1 Communist Supply Shortages",
        )
    ]
    (roll,) = dice.roll(6, purpose="Supply Center move roll")
    breakdown = roll in breakdown_on
    nearest = nearest_symbols(g, req.from_hex, symbols) if (breakdown and req.from_hex) else []
    if breakdown:
        steps.append(
            Step(
                f"Rolled {roll}: the Supply Center does not move; instead it is placed in the nearest "
                "hex marked with a supply symbol"
                + (f": {' or '.join(nearest)} ({_distance(g, req.from_hex, nearest[0])} hexes from {req.from_hex})."
                   if nearest else "."),
                "12.1.1 Communist Supply Shortages",
            )
        )
    else:
        steps.append(
            Step(f"Rolled {roll} (1-5): the Supply Center moves normally.", "12.1.1 / 5.1.3")
        )
    warnings = []
    if breakdown and not req.from_hex:
        warnings.append("Give from_hex to have the nearest supply-symbol hex computed; the candidates are "
                        + ", ".join(symbols) + ".")
    if nearest:
        warnings += data.map_warnings(g, data.scenario_map(g, "pusan").id)
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


def _distance(g, a: str, b: str) -> int:
    gm = data.scenario_map(g, "pusan")
    return gm.grid.distance(kb.parse(gm, a), kb.parse(gm, b))


def nearest_symbols(g, from_hex: str, symbols: list[str]) -> list[str]:
    """The supply-symbol hexes nearest `from_hex` in hexes on the Pusan map (all of them on a tie)."""
    best = min(_distance(g, from_hex, s) for s in symbols)
    return [s for s in symbols if _distance(g, from_hex, s) == best]
