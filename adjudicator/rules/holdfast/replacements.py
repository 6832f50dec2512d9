"""HoldFast Korea replacements (8; RP costs 6; blocks 3).

8: "Players spend RP to add replacement steps to in supply units on board or in the FEC box that are
not at full strength, or bring back previously eliminated units to the board ... More than 1 SP may be
added to a unit in a turn up to its maximum ... Each non-marine replacement step costs 1 RP. Marine
replacement steps cost 3 RP. Alternatively the players may bring on a previously eliminated block at
1 SP for 2 RP spent. The US Marine 1 Div block may not be replaced in this manner." 3: a Chinese army's
4-SP block "can be replaced by the 8 SP max block if replacement steps are added" (the Marines' 2/1
block likewise by the 6-SP block). 6: no player may spend more RP than he received this turn.

Reading: a block brought back at 1 SP may receive further steps in the same turn (8: "Units may be
activated ... the turn they are brought in or add replacement steps").
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board, named_side, register_check
from adjudicator.rules.holdfast import data
from adjudicator.rules.holdfast.schemas import SideName
from scenarios.model import Game

RULE = "8 Adding Replacements"


class Replacement(BaseModel):
    """One block's replacement this turn."""

    model_config = ConfigDict(extra="forbid")

    unit: str = Field(min_length=1, max_length=40, description="The block as it stands now (or the eliminated block).")
    sp: int = Field(ge=0, le=8, description="Its SP now; 0 = eliminated (in the replacement pile).")
    add: int = Field(ge=1, le=8, description="SP to add this turn (an eliminated block comes back at 1 SP for the first).")
    in_supply: bool = Field(default=True, description="Whether the unit is in supply (or in the FEC box), 8.")


class ReplacementsRequest(CheckRequest):
    """RP cost and legality of this turn's replacement steps (8)."""

    scenario: str = board("scenario", default=data.DEFAULT_SCENARIO, description="Scenario id.")
    side: SideName = board("side", description="The player adding replacements.")
    replacements: list[Replacement] = Field(min_length=1, max_length=40, description="Blocks receiving SP.")
    rp_available: int | None = Field(default=None, ge=0, le=16, description="RP left this turn (6: no overspending).")
    chinese_armies_on_board: int = Field(default=0, ge=0, le=9, description=(
        "Chinese armies on the board before these replacements (11: never more than nine)."))

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        plan(data.game_in(info), self)
        return self


def plan(g: Game, req: ReplacementsRequest) -> tuple[list[dict], list[Step], int]:
    """(per-block results, steps, total RP); ValueError when a replacement is not allowed."""
    rules = data.special(g, req.scenario, "replacements")
    rows, steps, total = [], [], 0
    returning_chinese = 0
    seen: set[str] = set()
    for r in req.replacements:
        u = data.unit(g, r.unit)
        army = data.full_block_of(g, u)
        if army.id in seen:
            raise ValueError(f"{army.id} is listed twice")
        seen.add(army.id)
        if u.side != req.side:
            raise ValueError(f"{r.unit} is not a {req.side} block")
        marines = data.is_marines(g, u)
        max_sp = data.chart_row(g, u.type).max_sp
        cost = 0
        sp = r.sp
        text = []
        if sp == 0:
            if marines and rules.get("marines_never_return", True):
                raise ValueError(f"{r.unit}: the US 1st Marine Division may not be brought back once eliminated (8)")
            back = int(rules.get("return_eliminated_block_rp", 2))
            cost += back
            sp = int(rules.get("return_eliminated_block_sp", 1))
            text.append(f"brought back at {sp} SP for {back} RP")
            if u.type == "cpa-infantry":
                returning_chinese += 1
            steps_to_add = r.add - 1
        else:
            msg = data.check_block_sp(g, r.unit, sp)
            if msg:
                raise ValueError(msg)
            if not r.in_supply:
                raise ValueError(f"{r.unit} is out of supply: replacement steps go to in-supply units only (8)")
            steps_to_add = r.add
        new_sp = sp + steps_to_add
        if new_sp > max_sp:
            raise ValueError(f"{r.unit}: {new_sp} SP would exceed its maximum of {max_sp} (4; 8)")
        per = int(rules.get("rp_per_marine_sp" if marines else "rp_per_sp", 3 if marines else 1))
        if steps_to_add:
            cost += per * steps_to_add
            text.append(f"+{steps_to_add} SP at {per} RP each")
        block = army if new_sp in data.block_edges(army) else (data.reduced_block_of(g, army) or army)
        if new_sp not in data.block_edges(block):
            raise ValueError(f"{r.unit}: no block of {army.id} shows {new_sp} SP")
        swapped = block.id != r.unit
        if swapped:
            text.append(f"now shown by block {block.id} (3)")
        total += cost
        rows.append({"unit": r.unit, "sp_before": r.sp, "block": block.id, "sp": new_sp, "rp": cost, "swapped": swapped})
        steps.append(Step(f"{r.unit}: " + "; ".join(text) + f" -> {new_sp} SP, {cost} RP.", RULE + "; 6"))
    limit = int(data.special(g, req.scenario, "blocks").get("max_chinese_armies_on_board", 9))
    if req.chinese_armies_on_board + returning_chinese > limit:
        raise ValueError(f"never more than {limit} Chinese armies on the board (11)")
    if req.rp_available is not None and total > req.rp_available:
        raise ValueError(f"the replacements cost {total} RP; only {req.rp_available} left (6)")
    return rows, steps, total


def run_replacements(g: Game, req: ReplacementsRequest) -> CheckResult:
    rows, steps, total = plan(g, req)
    steps.append(Step(f"Total: {total} RP.", "6 Resource Points"))
    return CheckResult(outcome={"rp_cost": total, "blocks": rows}, steps=steps)


@register_check(system="holdfast", name="replacements", request=ReplacementsRequest, random=False,
                summary="RP cost and legality of replacement steps and returning eliminated blocks", rule="8",
                actor=named_side("side", rule="8", what="the player adding replacements (side)"),
                example={"side": "un", "replacements": [{"unit": "usmc-1-r", "sp": 1, "add": 1}]})
def replacements(req: ReplacementsRequest, dice: Dice) -> CheckResult:
    return run_replacements(data.game(), req)
