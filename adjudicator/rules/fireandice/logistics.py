"""Supply point costs (7.0), the cost of flipping a spent HQ to fresh (9.3), and the monthly
Infrastructure and Supply Determination (3.0 A 3, 7.0).

Determination (7.0): "first place the Supply marker on top of the Infrastructure marker ... This is the
amount of Supply that players will have to use for the entire month" - supply left from last month is
lost. Infrastructure strikes and Foreign Aid move the Infrastructure marker during the month ("the Supply
marker stays where it is"); they count at the next determination. Infrastructure is never above 19 nor
below 2 (Communist) or 0 (UN); reading: the limit holds after each change, in the order they happened.
Then the "*" items of 7.0 (paid in this subphase: HQ flips, airfield repairs, Prepared Positions,
Trenches) may be bought, UN first, at the season's cost (winter doubles the UN's).

Tables `hq_flip_costs` (9.3, by side, place and occasion) and `supply_costs` (7.0).  "Winter turns
double all of the above costs for the UN player (only)" (7.0); 14.1 says Snow doubles "all costs
listed in 7.0" for the UN.  Reading (table note): a UN cost is doubled in a winter month, which
includes every Snow month; the request may say `snow` alone to get the 14.1 reading.

North/South (9.3 "north of the South/North Korea border"): from the HQ's hex (board.in_north_korea)
or given directly.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board as board_field, named_side, register_check
from adjudicator.rules.fireandice import board, data
from adjudicator.rules.fireandice.schemas import Month, SideId


class SeasonMixin(CheckRequest):
    winter: bool = Field(default=False, description="A winter turn (7.0: UN costs doubled).")
    snow: bool = Field(default=False, description="A Snow month (14.1: UN costs doubled).")
    month: Month | None = board_field("month", default=None,
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


# -- the monthly Infrastructure and Supply Determination (7.0) ---------------------------------------------

MONTHLY = "Monthly Infrastructure and Supply Determination"


class Purchase(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    item: str = Field(max_length=120, description="An item of table supply_costs paid in this subphase, e.g. "
                                                  "'repair an Airfield marker'.")
    count: int = Field(default=1, ge=1, le=40, description="How many.")


class SupplyDeterminationRequest(SeasonMixin):
    side: SideId = board_field("side", description="The side whose Supply is determined.")
    infrastructure: int = Field(ge=0, le=19, description=(
        "The Infrastructure marker at last month's determination (or now, if `changes` is empty)."))
    changes: list[int] = Field(default_factory=list, max_length=40, description=(
        "Changes to Infrastructure since, in the order they happened: strikes negative (10.3.2), additions such as "
        "Foreign Aid positive (12.2.2)."))
    supply_left: int = Field(default=0, ge=0, le=40, description="Supply still on the track from last month (lost).")
    purchases: list[Purchase] = Field(default_factory=list, max_length=20, description=(
        "Items bought in this subphase (7.0 '*' items: HQ flips, airfield repairs, Prepared Positions, Trenches)."))

    @model_validator(mode="after")
    def _check(self, info: ValidationInfo):
        g = data.game_in(info)
        low, high = data.infrastructure_limits(g, self.side)
        if not low <= self.infrastructure <= high:
            raise ValueError(f"{data.SIDE_NAMES[self.side]} Infrastructure is {low}..{high} (7.0), not {self.infrastructure}")
        t = data.table(g, "supply_costs")
        for p in self.purchases:
            if p.item not in {r["item"] for r in t.rows}:
                raise ValueError(f"{p.item!r} is not an item of table supply_costs (7.0)")
            if t.cell(p.item, "paid") != MONTHLY:
                raise ValueError(f"{p.item!r} is paid during the Activation Phase, not in the {MONTHLY} subphase (7.0)")
        if self.month is not None:
            data.month_row(g, self.month)
        return self


@register_check(system="fireandice", name="supply_determination", request=SupplyDeterminationRequest, random=False,
                summary="Monthly Infrastructure and Supply Determination: Supply := Infrastructure, then the 7.0 "
                        "purchases", rule="3.0 A 3; 7.0",
                actor=named_side("side", rule="7.0", what="the side whose Supply is determined (side)"),
                example={"side": "communist", "infrastructure": 12, "changes": [-4, 6], "supply_left": 3})
def supply_determination(req: SupplyDeterminationRequest, dice: Dice) -> CheckResult:
    return run_supply_determination(data.game(), req)


def run_supply_determination(g, req: SupplyDeterminationRequest) -> CheckResult:
    name = data.SIDE_NAMES[req.side]
    low, high = data.infrastructure_limits(g, req.side)
    infrastructure = req.infrastructure
    steps = [Step(f"{name} Infrastructure at the last determination: {infrastructure}.", "7.0")]
    for change in req.changes:
        after = min(high, max(low, infrastructure + change))
        held = "" if after == infrastructure + change else f" (held at {after}: never above {high} or below {low})"
        steps.append(Step(f"Infrastructure {infrastructure} {change:+d} -> {after}{held}.", "7.0; 10.3.2; 12.2.2"))
        infrastructure = after
    steps.append(Step(f"The Supply marker goes on the Infrastructure marker: {infrastructure} Supply for the month"
                      + (f"; the {req.supply_left} left from last month are lost" if req.supply_left else "") + ".",
                      "7.0 Infrastructure & Supply; 3.0 A 3 a"))
    factor, why = _doubling(g, req, req.side)
    if why and req.purchases:
        steps.append(Step(why, "7.0; 14.1"))
    t = data.table(g, "supply_costs")
    column = "un" if req.side == "un" else "communist"
    supply, bought = infrastructure, []
    for p in req.purchases:
        cost = data.cell_int(t, p.item, column) * factor * p.count
        if cost > supply:
            raise ValueError(f"{p.count} x {p.item} costs {cost} Supply; {supply} are left (7.0)")
        supply -= cost
        bought.append({"item": p.item, "count": p.count, "cost": cost})
        steps.append(Step(f"{p.count} x {p.item}: {cost} Supply, {supply} left.", "7.0; 3.0 A 3 b, c"))
    return CheckResult(outcome={"infrastructure": infrastructure, "supply": infrastructure, "supply_lost": req.supply_left,
                                "purchases": bought, "supply_after_purchases": supply}, steps=steps)
