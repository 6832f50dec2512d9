"""Breaking a unit down by choice (Stacking & Unit Breakdown).

"Units may be broken down or recombined at the beginning of the Movement Phase before any movement has
taken place ... To break down or recombine unit(s), simply remove the unit(s) to be replaced, and place
the unit(s) which replace it on the same hex. Communist units (except 25-2's) may never be broken down
voluntarily. Such units may only break down when taking losses in combat. "25-2" units may be broken down
voluntarily."

The counters placed come from those not in play, as a breakdown in combat takes them (`losses.Spares`):
the unit's own components first, then the unnumbered ones of its nationality. A recombination is the
movement check's (`movement_cost` with `recombine_into`).
"""

from __future__ import annotations

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, UnitKinds, board, register_check
from adjudicator.rules.spi import data, losses
from adjudicator.rules.spi.schemas import HEX_PATTERN
from scenarios.model import Game

RULE = "Stacking & Unit Breakdown"
#: The units a breakdown by choice takes: the UN's divisions and the Chinese Armies (units.csv flag divisional,
#: their nationalities); the check refuses any other Communist unit in the book's words.
BROKEN_DOWN_BY_CHOICE = UnitKinds(flags=("divisional",), nationalities=("us", "uk", "rok", "cpv"), on_map=True)


class BreakdownRequest(CheckRequest):
    """Break one unit down on its hex at the beginning of its side's Movement Phase."""

    unit: str = board("unit", min_length=1, max_length=60,
                      description="The unit broken down: a 16-3, 20-3 or 10-3 (UN) or a Chinese 25-2 Army.")
    hex: str | None = board("hex", default=None, pattern=HEX_PATTERN, description="Its hex, as printed.")
    counters_not_in_play: list[str] | None = board("counters_not_in_play", default=None, max_length=300, description=(
        "The counters lying in the sides' boxes of counters not in play: what the breakdown places on the hex. "
        "Left out: every breakdown counter of the game but this unit; [] none."))

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        u = data.unit(g, self.unit)
        parts = data.breakdown(g, data.values_text(u))
        if parts is None:
            raise ValueError(f"{self.unit} ({data.values_text(u)}) is not a unit the breakdown table breaks down ({RULE}: "
                             "16-3, 20-3, 10-3, 10-4, 25-2, 9-8)")
        if u.side == "communist" and not data.is_army(u):
            raise ValueError(f"{self.unit} may not be broken down by choice: \"Communist units (except 25-2's) may never "
                             f"be broken down voluntarily. Such units may only break down when taking losses in combat\" "
                             f"({RULE})")
        for other in self.counters_not_in_play or ():
            data.unit(g, other)
        return self


def break_down(g: Game, req: BreakdownRequest) -> CheckResult:
    u = data.unit(g, req.unit)
    count, component = data.breakdown(g, data.values_text(u))
    spares = losses.Spares(g, losses.spares_of(g, req.counters_not_in_play, {u.id}))
    parts = spares.take(u, component, count)
    placed = [p for p in parts if p is not None]
    where = f" in {req.hex}" if req.hex else ""
    steps = [Step(f"{u.id} ({data.values_text(u)}) is removed{where} and replaced on the same hex by {count} x "
                  f"{component}: {', '.join(placed) or 'no counter'} (one {data.values_text(u)} = {count} "
                  f"{component}'s).", RULE),
             Step("A breakdown is made at the beginning of the Movement Phase, before any movement; units may stack "
                  "higher while breaking down into smaller units.", f"{RULE}; Stacking (A)")]
    warnings = []
    if len(placed) < count:
        warnings.append(f"No counter not in play is left for {count - len(placed)} x {component} of {u.id}: place "
                        f"{'it' if count - len(placed) == 1 else 'them'} by hand ({RULE}).")
    return CheckResult(outcome={"breakdowns": [{"unit": u.id, "broken_down_into": placed}], "component": component,
                                "count": count}, steps=steps, warnings=warnings)


@register_check(system="spi", name="division_breakdown", request=BreakdownRequest, random=False,
                summary="Break a unit down into its components on its hex (at the beginning of the Movement Phase)",
                rule=RULE,
                actor=data.owner("the unit broken down", RULE, lambda r: [r.unit]),
                units=BROKEN_DOWN_BY_CHOICE,
                example={"unit": "us-d2", "hex": "1506"})
def division_breakdown(req: BreakdownRequest, dice: Dice) -> CheckResult:
    return break_down(data.game(), req)
