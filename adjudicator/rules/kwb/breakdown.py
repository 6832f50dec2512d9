"""Korean War Battles divisional breakdown (5.3.2): a division becomes three random unnumbered regiments.

5.3.2 "At the beginning of their respective Movement Phases, players may break down ROK, NK or PRC
divisions. To break down a division-size unit, remove the division counter from the game and
replace it with three randomly selected unnumbered regiments. If the division was depleted at the
time, then the three regiments are placed depleted side up. Once broken down, divisions may not be
reformed. At least two of the regiments must leave the hex during the Movement Phase to comply with
the stacking limit."

The number of regiments is tables/rule_parameters.csv breakdown_regiments. Each regiment is drawn
with one die of as many sides as regiments remain in the pool (losses.GenericPool), so the draw is
recorded like any roll. "Remove the division counter from the game": it is not placed in the
deadpile (reading: it scores no VP; the book does not say).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, UnitKinds, board, register_check
from adjudicator.rules.kwb import data, losses
from scenarios.model import Game


#: The arms of the divisions that break down (data.is_division: a division-size unit that is no HQ).
DIVISION_TYPES = ("infantry", "tank", "marine", "motorised", "airborne", "engineer", "police")


class BreakdownRequest(CheckRequest):
    """Break down one ROK, NK or PRC division at the beginning of its Movement Phase (5.3.2)."""

    division: str = board("unit", max_length=60, description="The division's unit id, e.g. 'nk-6', 'rok-1', 'prc-58'.")
    step: Literal["", "full", "depleted"] = board("step", default="", description="Its side showing ('' = full).")
    generic_pool: list[str] | None = Field(default=None, max_length=60, description=(
        "Unnumbered regiments of that nationality still available (default: all of them)."))

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        u = data.unit(g, self.division)
        if not data.is_division(u) or u.nationality not in losses.LADDER_NATIONALITIES:
            raise ValueError(f"{self.division} is not an ROK, NK or PRC division: only those break down (5.3.2)")
        pool = losses.GenericPool.for_game(g, set(), self.generic_pool).available[u.nationality]
        need = data.int_parameter(g, "breakdown_regiments")
        if len(pool) < need:
            raise ValueError(f"only {len(pool)} unnumbered {u.nationality.upper()} regiment(s) available; a breakdown "
                             f"needs {need} (5.3.2)")
        return self


def break_down(g: Game, req: BreakdownRequest, dice: Dice) -> CheckResult:
    u = data.unit(g, req.division)
    step = data.step_name(u, "" if req.step == "full" else req.step)
    need = data.int_parameter(g, "breakdown_regiments")
    pool = losses.GenericPool.for_game(g, set(), req.generic_pool)
    drawn = [pool.draw(u.nationality, dice, f"breakdown of {u.id}: regiment {i + 1} of {need}") for i in range(need)]
    depleted = step != u.steps[0].name
    side = "depleted" if depleted else "full"
    regiments = [{"unit": r, "step": side, "values": data.unit(g, r).step(side).text} for r in drawn]
    steps = [Step(f"{u.id} ({step}) is removed from the game and replaced by {need} randomly drawn unnumbered "
                  f"{u.nationality.upper()} regiments: {', '.join(drawn)}, placed {side} side up.", "5.3.2"),
             Step("The division may not be re-formed; at least two of the regiments must leave the hex this Movement "
                  "Phase (stacking).", "5.3.2; 5.3.1")]
    return CheckResult(outcome={"division": u.id, "regiments": regiments},
                       steps=steps, warnings=data.unit_warnings(g, drawn[:1]))


@register_check(system="kwb", name="division_breakdown", request=BreakdownRequest, random=True,
                summary="Break a division down into three random unnumbered regiments", rule="5.3.2",
                actor=data.owner("the division (its owner breaks it down in his Movement Phase)", "5.3.2",
                                 lambda r: [r.division]),
                units=UnitKinds(types=DIVISION_TYPES, sizes=("XX",), nationalities=losses.LADDER_NATIONALITIES, on_map=True),
                example={"division": "prc-58", "dice": [18, 17, 16]})
def division_breakdown(req: BreakdownRequest, dice: Dice) -> CheckResult:
    return break_down(data.game(), req, dice)
