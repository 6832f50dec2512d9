"""Supply point costs (7.0) and the cost of flipping a spent HQ to fresh (9.3).

Tables `hq_flip_costs` (9.3, by side, place and occasion) and `supply_costs` (7.0).  "Winter turns
double all of the above costs for the UN player (only)" (7.0); 14.1 says Snow doubles "all costs
listed in 7.0" for the UN.  Reading (table note): a UN cost is doubled in a winter month, which
includes every Snow month; the request may say `snow` alone to get the 14.1 reading.

North/South (9.3 "north of the South/North Korea border"): from the HQ's hex (board.in_north_korea)
or given directly.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board as board_field, named_side, register_check
from adjudicator.rules.fireandice import board, data
from adjudicator.rules.fireandice.schemas import SideId


class SeasonMixin(CheckRequest):
    winter: bool = Field(default=False, description="A winter turn (7.0: UN costs doubled).")
    snow: bool = Field(default=False, description="A Snow month (14.1: UN costs doubled).")
    month: str | None = board_field("month", default=None, pattern=r"^\d{4}-\d{2}$",
                                    description="Month (YYYY-MM): a winter month on the Game Turn Record Track "
                                                "sets winter.")


def _doubling(g, req: SeasonMixin, side: str) -> tuple[int, str]:
    winter = req.winter or req.snow or (req.month is not None and data.is_winter_month(g, req.month))
    if side == "un" and winter:
        return 2, "Winter (and Snow) turns double the UN's supply costs (7.0; 14.1)."
    return 1, ""


class HqFlipRequest(SeasonMixin):
    scenario: str = board_field("scenario", default=data.DEFAULT_SCENARIO, max_length=40,
                                description="Scenario id (its map).")
    side: SideId = board_field("side", description="The HQ's side.")
    occasion: Literal["monthly", "activation"] = Field(
        description="'monthly' = flip a spent HQ in the Infrastructure and Supply Determination subphase; "
                    "'activation' = re-fresh an HQ used but not moved at the end of its activation (9.3).")
    hex: str | None = board_field("hex", default=None, pattern=r"^\d{4}$",
                                  description="The HQ's hex (decides North/South Korea).")
    location: Literal["north", "south"] | None = Field(default=None, description="Or say where the HQ is.")
    moved: bool = Field(default=False, description="The HQ moved during its activation (then it cannot be re-freshed).")

    @model_validator(mode="after")
    def _where(self, info: ValidationInfo):
        if (self.hex is None) == (self.location is None):
            raise ValueError("give exactly one of 'hex' or 'location'")
        g = data.game_in(info)
        gm = g.maps[data.scenario(g, self.scenario).maps[0]]
        if self.hex is not None:
            board.parse(gm, self.hex)
        if self.month is not None:
            data.month_row(data.game_in(info), self.month)
        return self


@register_check(system="fireandice", name="hq_flip_cost", request=HqFlipRequest, random=False,
                summary="Supply points to flip a spent HQ to fresh, by side, place and season", rule="9.3; 7.0",
                actor=named_side("side", rule="9.3", what="the HQ's side (side), which pays"),
                example={"side": "un", "occasion": "activation", "hex": "2550"})
def hq_flip_cost(req: HqFlipRequest, dice: Dice) -> CheckResult:
    g = data.game()
    if req.occasion == "activation" and req.moved:
        return CheckResult(outcome={"allowed": False, "cost": None}, steps=[Step(
            "An HQ that moved at the end of its activation may not be flipped back to fresh.", "9.1; 9.3")])
    gm = g.maps[data.scenario(g, req.scenario).maps[0]]
    where = req.location or ("north" if board.in_north_korea(board.parse(gm, req.hex)) else "south")
    case = f"{req.occasion}-{where}"
    t = data.table(g, "hq_flip_costs")
    base = data.cell_int(t, case, "un" if req.side == "un" else "communist")
    factor, why = _doubling(g, req, req.side)
    steps = [Step(f"{data.SIDE_NAMES[req.side]} HQ {t.cell(case, 'location')}, {t.cell(case, 'when')}: {base} "
                  "supply point(s).", "9.3 Fresh/Spent HQs and Units")]
    if req.hex:
        steps.insert(0, Step(f"Hex {req.hex} is in {'North' if where == 'north' else 'South'} Korea.", "1.0 Glossary"))
    if factor > 1:
        steps.append(Step(why + f" {base} x 2 = {base * factor}.", "7.0; 14.1"))
    return CheckResult(outcome={"allowed": True, "case": case, "base_cost": base, "cost": base * factor,
                                "location": where}, steps=steps)


class SupplyCostRequest(SeasonMixin):
    side: SideId = board_field("side", description="The paying side.")

    @model_validator(mode="after")
    def _month(self, info: ValidationInfo):
        if self.month is not None:
            data.month_row(data.game_in(info), self.month)
        return self


@register_check(system="fireandice", name="supply_cost", request=SupplyCostRequest, random=False,
                summary="Every supply point cost of 7.0 for a side and season", rule="7.0",
                actor=named_side("side", rule="7.0", what="the paying side (side)"),
                example={"side": "un", "winter": True})
def supply_cost(req: SupplyCostRequest, dice: Dice) -> CheckResult:
    g = data.game()
    t = data.table(g, "supply_costs")
    factor, why = _doubling(g, req, req.side)
    column = "un" if req.side == "un" else "communist"
    costs = {r["item"]: data.cell_int(t, r["item"], column) * factor for r in t.rows}
    steps = [Step(f"{data.SIDE_NAMES[req.side]} supply costs (7.0).", "7.0 Infrastructure & Supply")]
    if why:
        steps.append(Step(why, "7.0; 14.1"))
    return CheckResult(outcome={"costs": costs, "doubled": factor > 1}, steps=steps)
