"""HoldFast Korea (Worthington Publishing, 2015).

Source: the rulebook, 11 Chinese Intervention (digest: rules/holdfast-korea.md §10).
"""

from __future__ import annotations

from pydantic import Field

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, register_check

#: Chinese Intervention Chart: turn after a UN unit crosses the 38th -> lowest die that succeeds.
#: Turn 5 and later need 2-6.
INTERVENTION_LOWEST_ROLL = {1: 6, 2: 5, 3: 4, 4: 3}
LATE_LOWEST_ROLL = 2
CHINESE_UNITS = 9
CHINESE_UNIT_SP = 8
COMMUNIST_RP_BEFORE_INTERVENTION = 10
COMMUNIST_RP_AFTER_INTERVENTION = 15


def lowest_successful_roll(turns_after_crossing: int) -> int:
    """The smallest die result that brings the Chinese in, per the Chinese Intervention Chart."""
    return INTERVENTION_LOWEST_ROLL.get(turns_after_crossing, LATE_LOWEST_ROLL)


class ChineseInterventionRequest(CheckRequest):
    turns_after_crossing: int = Field(
        ge=0,
        le=40,
        description="Which turn after the one on which a UN unit first crossed the 38th Parallel "
        "this is (1 = the next turn). 0 if no UN unit has crossed yet (or it crossed this turn).",
    )
    january_1951_turn: bool = Field(
        default=False,
        description="True on the 1 January (1951) turn: the Chinese intervene automatically.",
    )


@register_check(
    system="holdfast",
    name="chinese_intervention",
    request=ChineseInterventionRequest,
    random=True,
    summary="Start-of-turn roll for Chinese intervention",
    rule="11",
)
def chinese_intervention(req: ChineseInterventionRequest, dice: Dice) -> CheckResult:
    rule = "11 Chinese Intervention"
    steps: list[Step] = []
    if req.january_1951_turn:
        steps.append(
            Step(
                "1 January turn: the Chinese intervene automatically, whether or not the UN "
                "crossed the 38th Parallel; no roll is made.",
                rule,
            )
        )
        return CheckResult(outcome=_outcome(True, roll=None, lowest=None), steps=steps)
    if req.turns_after_crossing == 0:
        steps.append(
            Step(
                "No roll: the roll starts on the turn after a UN unit crosses the 38th Parallel.",
                rule,
            )
        )
        return CheckResult(outcome=_outcome(False, roll=None, lowest=None), steps=steps)

    lowest = lowest_successful_roll(req.turns_after_crossing)
    steps.append(
        Step(
            f"Turn {req.turns_after_crossing} after a UN unit crossed the 38th Parallel: the "
            f"Chinese Intervention Chart needs {_range_text(lowest)}.",
            rule + " (Chinese Intervention Chart)",
        )
    )
    (roll,) = dice.roll(6, purpose="Chinese intervention roll")
    intervenes = roll >= lowest
    steps.append(
        Step(
            f"The Communist player rolled {roll}: "
            + ("in range, the Chinese intervene this turn." if intervenes else "out of range."),
            rule,
        )
    )
    if intervenes:
        steps.append(
            Step(
                f"The {CHINESE_UNITS} Chinese units, at {CHINESE_UNIT_SP} SP, are placed "
                "immediately in the yellow hexes along the Chinese-North Korean border; the "
                f"Communist receives {COMMUNIST_RP_AFTER_INTERVENTION} RP this turn and every "
                "later turn.",
                rule,
            )
        )
    return CheckResult(outcome=_outcome(intervenes, roll=roll, lowest=lowest), steps=steps)


def _range_text(lowest: int) -> str:
    return "a 6" if lowest == 6 else f"{lowest}-6"


def _outcome(intervenes: bool, roll: int | None, lowest: int | None) -> dict:
    return {
        "intervenes": intervenes,
        "roll": roll,
        "needed": _range_text(lowest) if lowest else None,
        "chinese_units_placed": CHINESE_UNITS if intervenes else 0,
        "chinese_unit_sp": CHINESE_UNIT_SP if intervenes else None,
        "communist_rp_per_turn": (
            COMMUNIST_RP_AFTER_INTERVENTION if intervenes else COMMUNIST_RP_BEFORE_INTERVENTION
        ),
    }
