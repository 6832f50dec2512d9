"""Korea: Fire and Ice (Operational Scale Series).

Source: the rulebook, 12.2 Foreign Aid and Intervention, 12.2.1 Foreign Intervention Table
(digest: rules/fire-and-ice.md §12.2).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, register_check

RULE = "12.2.1 Foreign Intervention Table (Chinese Intervention)"


class ChineseInterventionRequest(CheckRequest):
    un_vp: int = Field(
        ge=0,
        le=21,
        description="The UN's victory points: the VP marker's value if it is on the UN side, "
        "0 if it is at zero or on the Communist side.",
    )
    un_units_in_north_korea: bool = Field(
        default=False, description="Any UN unit is in North Korea."
    )
    chinese_airfield_struck: bool = Field(
        default=False,
        description="Any Chinese airfield has been attacked by an Airfield Strike (10.3.3).",
    )
    roc_intervened: bool = Field(
        default=False, description="The Republic of China has intervened."
    )
    trigger: Literal["direct", "foreign_aid"] = Field(
        default="direct",
        description="Why the roll is made: a direct Foreign Intervention roll, or a roll the "
        "Communist's Foreign Aid request triggered (UN at 10 or more VPs).",
    )


def _no_roll() -> dict:
    return {
        "roll_allowed": False,
        "roll": None,
        "modifier": None,
        "modified": None,
        "intervenes": False,
        "may_delay": False,
    }


def _modifiers(req: ChineseInterventionRequest) -> list[tuple[int, str]]:
    """The cumulative modifiers of 12.2.1 that apply, each with its reason."""
    found = []
    if req.un_vp >= 10:
        found.append((-1, "the UN has 10 or more VPs"))
    if req.un_vp >= 14:
        found.append((-1, "the UN has 14 or more VPs"))
    if req.un_units_in_north_korea:
        found.append((-1, "there are UN units in North Korea"))
    if req.chinese_airfield_struck:
        found.append((-1, "a Chinese airfield has been attacked by an Airfield Strike"))
    if req.roc_intervened:
        found.append((-2, "the Republic of China has intervened"))
    return found


@register_check(
    system="fireandice",
    name="chinese_intervention",
    request=ChineseInterventionRequest,
    random=True,
    summary="Monthly Foreign Intervention subphase: roll for Chinese intervention",
    rule="12.2.1",
)
def chinese_intervention(req: ChineseInterventionRequest, dice: Dice) -> CheckResult:
    if req.un_vp == 0:
        return CheckResult(
            outcome=_no_roll(),
            steps=[
                Step(
                    "No roll: only the side without VPs may roll for Foreign Intervention, and "
                    "nobody may when the VP marker is at zero. With no UN VPs the Communist "
                    "either holds the VPs or the marker is at zero.",
                    "12.2 Foreign Aid and Intervention",
                )
            ],
        )
    if req.trigger == "foreign_aid" and req.un_vp < 10:
        return CheckResult(
            outcome=_no_roll(),
            steps=[
                Step(
                    f"No roll: Communist Foreign Aid triggers a Chinese Intervention roll only "
                    f"when the UN has 10 or more VPs (UN has {req.un_vp}).",
                    "12.2.2 Foreign Aid Table",
                )
            ],
        )
    steps = [
        Step(
            "The Communist player rolls a D6 for Chinese intervention "
            + ("(triggered by a Foreign Aid request)." if req.trigger == "foreign_aid"
               else "(a direct Foreign Intervention roll; no Foreign Aid this month)."),
            "12.2 Foreign Aid and Intervention",
        )
    ]
    (roll,) = dice.roll(6, purpose="Chinese intervention roll")
    modifiers = _modifiers(req)
    total = sum(value for value, _ in modifiers)
    modified = roll + total
    steps.append(Step(f"Rolled {roll}.", RULE))
    for value, reason in modifiers:
        steps.append(Step(f"{value:+d} because {reason}.", RULE))
    if not modifiers:
        steps.append(Step("No modifiers apply.", RULE))
    intervenes = modified <= 0
    steps.append(
        Step(
            f"Modified roll {roll} {total:+d} = {modified}: "
            + ("0 or less, the Chinese intervene." if intervenes
               else "above 0, no Chinese intervention."),
            RULE,
        )
    )
    if intervenes:
        steps.append(
            Step(
                "The Chinese Army enters per the scenario instructions and Peng Dehuai arrives; "
                "the Communist player may delay the start of the intervention to any later "
                "Foreign Intervention subphase.",
                RULE,
            )
        )
    warnings = []
    if total == 0:
        warnings.append("With no modifiers the roll cannot succeed: a D6 is never 0 or less.")
    return CheckResult(
        outcome={
            "roll_allowed": True,
            "roll": roll,
            "modifier": total,
            "modified": modified,
            "intervenes": intervenes,
            "may_delay": intervenes,
        },
        steps=steps,
        warnings=warnings,
    )
