"""SPI Korea: The Mobile War 1950-51 (1971).

The only die-roll check besides combat that the surviving rulebook text fully specifies is the
Intervention Game's special rule 5 (the combat results tables were printed on the map and are
not in the text). Digest: rules/spi-korea.md §11.2 and §17.
"""

from __future__ import annotations

from pydantic import Field

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, register_check

RULE = "Intervention Game, Special Rule 5"


class NorthEdgeReturnRequest(CheckRequest):
    road_hex_enemy_occupied: bool = Field(
        default=False,
        description="Only matters on a roll of 4-6: whether the road hex (the last road hex "
        "northwest of Iwon) is occupied by the enemy when the delayed 10-3 arrives.",
    )


@register_check(
    system="spi",
    name="north_edge_return",
    request=NorthEdgeReturnRequest,
    random=True,
    summary="Intervention Game: when the second 10-3 returns from off the north map edge",
    rule=RULE,
    scenarios=("intervention",),
)
def north_edge_return(req: NorthEdgeReturnRequest, dice: Dice) -> CheckResult:
    steps = [
        Step(
            "Second Movement Phase of the first UN Player Turn: a 10-3 appears automatically on "
            "the last railroad hex northeast of Iwon (the RR) and a 5-3 on the last road hex "
            "northwest of Iwon (the road); then a die is rolled for a second 10-3.",
            RULE,
        )
    ]
    (roll,) = dice.roll(6, purpose="second 10-3 return roll")
    now = roll <= 3
    if now:
        steps.append(
            Step(
                f"Rolled {roll} (1-3): the second 10-3 appears on the road in this Second "
                "Movement Phase, stacked with the 5-3.",
                RULE,
            )
        )
        placement = "road"
        arrives = "first UN Player Turn, Second Movement Phase"
    else:
        placement = (
            "first unoccupied hex east of the road" if req.road_hex_enemy_occupied else "road"
        )
        arrives = "second UN Player Turn, First Movement Phase"
        steps.append(
            Step(
                f"Rolled {roll} (4-6): the second 10-3 appears in the First Movement Phase of the "
                f"second UN Player Turn, on the {placement}"
                + (" because the road hex is enemy-occupied." if req.road_hex_enemy_occupied
                   else "."),
                RULE,
            )
        )
    return CheckResult(
        outcome={
            "roll": roll,
            "second_10_3_arrives_now": now,
            "second_10_3_arrives": arrives,
            "second_10_3_placement": placement,
        },
        steps=steps,
        warnings=[
            "The text of special rule 5 survives only as OCR of interleaved columns; the "
            "reading used here is the digest's re-assembly (rules/spi-korea.md §11.2)."
        ],
    )
