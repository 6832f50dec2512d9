"""HoldFast Korea resource points per turn (6), with the optional air interdiction (14).

6: "The Communist player receives 10 RP per turn until Chinese intervention. During the first turn of
Chinese intervention and for the remainder of the game the Communist player receives 15 RP. The UN
player receives 6 RP on turn 1 and adds 2 additional RP per turn until they are receiving 16 RP per
turn." RP may not be saved. 14 (optional): "The UN player may spend 1 RP to use 1 air support and
eliminate 2 Communist RP on clear weather turns. He may use 2 air support for 2 RP and eliminate 4
Communist RP" — decided in the RP phase. The numbers come from campaign.toml
(special_rules.resource_points, special_rules.air_interdiction).
"""

from __future__ import annotations

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board, either_side, register_check
from adjudicator.rules.holdfast import data
from adjudicator.rules.holdfast.schemas import WEATHER_MARKER, WeatherName
from scenarios.model import Game

RULE = "6 Resource Points"


def un_rp(g: Game, scenario_id: str, turn: int) -> int:
    r = data.special(g, scenario_id, "resource_points")
    return min(int(r["un_turn_1"]) + int(r["un_increase_per_turn"]) * (turn - 1), int(r["un_maximum"]))


def communist_rp(g: Game, scenario_id: str, turn: int, intervention_turn: int | None) -> int:
    r = data.special(g, scenario_id, "resource_points")
    if intervention_turn is not None and turn >= intervention_turn:
        return int(r["communist_from_intervention"])
    return int(r["communist_before_intervention"])


class ResourcePointsRequest(CheckRequest):
    """RP each player receives this turn (6) and the optional air interdiction (14)."""

    scenario: str = board("scenario", default=data.DEFAULT_SCENARIO, description="Scenario id.")
    turn: int = board("turn", ge=1, le=99, description="Game turn.")
    chinese_intervention_turn: int | None = Field(default=None, ge=1, le=99, description=(
        "Turn on which the Chinese intervened (11), or null if they have not (yet)."))
    air_interdiction: int = Field(default=0, ge=0, le=2, description=(
        "Optional rule 14: air supports the UN spends on interdiction (0, 1 or 2; 1 RP each, -2 Communist RP each)."))
    weather: WeatherName = board(WEATHER_MARKER, "clear", description="This turn's weather (air interdiction needs clear).")

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        data.turn_record(g, self.scenario, self.turn)
        if self.chinese_intervention_turn is not None and self.chinese_intervention_turn > self.turn:
            raise ValueError("chinese_intervention_turn is after this turn: give null until the Chinese intervene")
        if self.air_interdiction:
            if self.weather != "clear":
                raise ValueError("air interdiction is allowed on clear weather turns only (14)")
            row = data.support_row(g, "un", "air")
            if row is None or self.turn < row.first_turn:
                raise ValueError(f"the UN has no air support on turn {self.turn} (4)")
            if self.air_interdiction > row.per_turn:
                raise ValueError(f"the UN receives only {row.per_turn} air support per turn (4)")
        return self


def run_resource_points(g: Game, req: ResourcePointsRequest) -> CheckResult:
    rules = data.special(g, req.scenario, "resource_points")
    un = un_rp(g, req.scenario, req.turn)
    com = communist_rp(g, req.scenario, req.turn, req.chinese_intervention_turn)
    steps = [
        Step(f"UN: {rules['un_turn_1']} RP on turn 1, +{rules['un_increase_per_turn']} per turn up to "
             f"{rules['un_maximum']}: {un} RP on {data.turn_label(g, req.scenario, req.turn)}.", RULE),
        Step(f"Communist: {com} RP ("
             + ("from the turn of Chinese intervention on" if com == int(rules["communist_from_intervention"])
                else "until Chinese intervention") + ").", RULE + "; 11"),
    ]
    un_spent = 0
    com_lost = 0
    if req.air_interdiction:
        option = next((o for o in data.special(g, req.scenario, "air_interdiction").get("options", [])
                       if int(o["air_support"]) == req.air_interdiction), None)
        if option is None:
            option = {"un_rp": req.air_interdiction, "communist_rp_lost": 2 * req.air_interdiction}
        un_spent, com_lost = int(option["un_rp"]), int(option["communist_rp_lost"])
        steps.append(Step(f"Air interdiction (optional): the UN spends {un_spent} RP and {req.air_interdiction} air "
                          f"support; the Communist player loses {com_lost} RP.", "14 Optional Air Interdiction Rule"))
    steps.append(Step("RP may not be saved: unspent RP are lost at the end of the turn.", RULE))
    outcome = {
        "un_rp": un - un_spent,
        "communist_rp": max(com - com_lost, 0),
        "un_rp_received": un,
        "communist_rp_received": com,
        "air_interdiction_air_support_used": req.air_interdiction,
        "costs": {row["use"]: int(row["rp"]) for row in g.tables["rp_costs"].rows},
    }
    return CheckResult(outcome=outcome, steps=steps)


@register_check(system="holdfast", name="resource_points", request=ResourcePointsRequest, random=False,
                summary="RP for both players this turn (and optional air interdiction)", rule="6",
                actor=either_side(rule="6", why="the RP of both players; no die"),
                example={"turn": 6})
def resource_points(req: ResourcePointsRequest, dice: Dice) -> CheckResult:
    return run_resource_points(data.game(), req)
