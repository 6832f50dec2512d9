"""HoldFast Korea Chinese intervention (11), read from the Chinese Intervention Chart.

11: "Starting on the turn after a UN unit crosses the 38th Parallel the Communist player rolls one
die. If the die is in the range needed for Intervention then the Chinese army is available that turn
... The units are immediately placed by the Communist player in hexes along Chinese border with
North Korea (the yellow hexes). The Communist player immediately receives 15 RP per turn and for
the remainder of the game." "The Chinese automatically intervene on the January 1 turn whether the
UN player crosses the 38th Parallel or not." Nine Chinese armies at 8 SP.

The chart is data (tables/chinese_intervention.csv: `turn_after_crossing`, `min_die`; a row like
"5+" covers that turn and every later one). Reading (campaign.toml special_rules.chinese_
intervention): the 11 example counts the 15 October turn as turn 1 after a crossing on 1 October.
"""

from __future__ import annotations

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board, register_check, the_side
from adjudicator.rules.holdfast import data
from scenarios.model import Game

RULE = "11 Chinese Intervention"


def lowest_successful_roll(g: Game, turns_after_crossing: int) -> int:
    """The smallest die that brings the Chinese in, from the Chinese Intervention Chart."""
    table = g.tables["chinese_intervention"]
    best = None
    for row in table.rows:
        key = row["turn_after_crossing"].strip()
        if key.endswith("+"):
            if turns_after_crossing >= int(key[:-1]):
                best = int(row["min_die"])
        elif int(key) == turns_after_crossing:
            return int(row["min_die"])
    if best is None:
        raise ValueError(f"the Chinese Intervention Chart has no row for turn {turns_after_crossing} after crossing")
    return best


def automatic_turn(g: Game, scenario_id: str) -> int | None:
    """The '1 January' turn of the Turn Track (campaign.toml special_rules.turn_track)."""
    value = data.special(g, scenario_id, "turn_track").get("automatic_intervention_turn")
    return int(value) if value is not None else None


class ChineseInterventionRequest(CheckRequest):
    """The Communist player's start-of-turn roll for Chinese intervention (11)."""

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
    turn: int | None = board("turn", default=None, ge=1, le=99, description=(
        "Optional game turn: the Turn Track's 1 January turn (turn 14 of the campaign) is recognised "
        "automatically."))
    scenario: str = board("scenario", default=data.DEFAULT_SCENARIO, description="Scenario id.")
    already_intervened: bool = Field(default=False, description="The Chinese have already intervened (no more rolls).")

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        if self.turn is not None:
            data.turn_record(g, self.scenario, self.turn)
        return self


def run_intervention(g: Game, req: ChineseInterventionRequest, dice: Dice) -> CheckResult:
    rules = data.special(g, req.scenario, "chinese_intervention")
    armies = int(rules.get("armies", 9))
    sp = int(rules.get("enter_sp", 8))
    rp_after = int(data.special(g, req.scenario, "resource_points").get("communist_from_intervention", 15))
    rp_before = int(data.special(g, req.scenario, "resource_points").get("communist_before_intervention", 10))
    steps: list[Step] = []

    def outcome(intervenes: bool, roll: int | None, lowest: int | None) -> dict:
        return {
            "intervenes": intervenes,
            "roll": roll,
            "needed": _range_text(lowest) if lowest else None,
            "chinese_units_placed": armies if intervenes and not req.already_intervened else 0,
            "chinese_unit_sp": sp if intervenes else None,
            "communist_rp_per_turn": rp_after if intervenes or req.already_intervened else rp_before,
        }

    if req.already_intervened:
        steps.append(Step(f"The Chinese have already intervened: no roll; the Communist player keeps receiving "
                          f"{rp_after} RP per turn.", RULE + "; 6"))
        return CheckResult(outcome=outcome(True, None, None), steps=steps)
    auto = automatic_turn(g, req.scenario)
    if req.january_1951_turn or (req.turn is not None and auto is not None and req.turn == auto):
        steps.append(Step("1 January turn"
                          + (f" ({data.turn_label(g, req.scenario, req.turn)})" if req.turn else "")
                          + ": the Chinese intervene automatically, whether or not the UN crossed the 38th Parallel; "
                          "no roll is made.", RULE))
        _placement(steps, armies, sp, rp_after)
        warnings = data.stand_in_warnings(g, f"scenario {req.scenario} rule turn_track") if req.turn else []
        return CheckResult(outcome=outcome(True, None, None), steps=steps, warnings=warnings)
    if req.turns_after_crossing == 0:
        steps.append(Step("No roll: the roll starts on the turn after a UN unit crosses the 38th Parallel.", RULE))
        return CheckResult(outcome=outcome(False, None, None), steps=steps)

    lowest = lowest_successful_roll(g, req.turns_after_crossing)
    steps.append(Step(f"Turn {req.turns_after_crossing} after a UN unit crossed the 38th Parallel: the Chinese "
                      f"Intervention Chart needs {_range_text(lowest)}.", RULE + " (Chinese Intervention Chart)"))
    (roll,) = dice.roll(6, purpose="Chinese intervention roll")
    intervenes = roll >= lowest
    steps.append(Step(f"The Communist player rolled {roll}: "
                      + ("in range, the Chinese intervene this turn." if intervenes else "out of range."), RULE))
    if intervenes:
        _placement(steps, armies, sp, rp_after)
    return CheckResult(outcome=outcome(intervenes, roll, lowest), steps=steps)


def _placement(steps: list[Step], armies: int, sp: int, rp: int) -> None:
    steps.append(Step(f"The {armies} Chinese units, at {sp} SP, are placed immediately in the yellow hexes along the "
                      f"Chinese-North Korean border; the Communist receives {rp} RP this turn and every later turn.",
                      RULE + "; 6"))


def _range_text(lowest: int) -> str:
    return "a 6" if lowest == 6 else f"{lowest}-6"


@register_check(system="holdfast", name="chinese_intervention", request=ChineseInterventionRequest, random=True,
                summary="Start-of-turn roll for Chinese intervention", rule="11",
                actor=the_side("communist", rule="11 (the Communist player's start-of-turn roll)"),
                example={"turns_after_crossing": 3, "dice": [4]})
def chinese_intervention(req: ChineseInterventionRequest, dice: Dice) -> CheckResult:
    return run_intervention(data.game(), req, dice)
