"""Korean War Battles replacements (10.1.2), Communist emergency replacements (10.1.3) and the scenario limits.

10.1.2 "Each player-turn, at the beginning of the Movement Phase, the player may undeplete (that is,
raise to its next-highest strength level) one infantry cadre, regiment, or brigade from each
nationality he controls (therefore the UN player may undeplete one unit from each of the US and ROK
armies, while the Communist player may undeplete only one). The unit must be in supply. Eliminated
units may not be replaced ... Commonwealth units may not receive replacements."
10.1.3 "... the Communist player may "burn" a Supply Center in the Movement Phase to generate
additional replacements ... undeplete either one division or three regiments. The unit or units to be
undepleted must be stacked with or adjacent to the Supply Center, all of which must be in supply."
12.21 Seoul: "ROK units may not take replacements in this scenario."
12.3 Changjin: the Communist player "may not undeplete his infantry regiments (as in 10.1.2)."

Readings: "infantry" includes marine and airborne infantry; "three regiments" is up to three; the
Changjin ban is on the 10.1.2 replacement ("as in 10.1.2"), so a burned Supply Center may still
undeplete Chinese regiments (alternative: the ban covers 10.1.3 too). Supply is given per unit (use the
`supply` check).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board, named_side, register_check
from adjudicator.rules.kwb import board as kb
from adjudicator.rules.kwb import data
from adjudicator.rules.kwb.schemas import HEX_PATTERN, ScenarioName, SideName, unique
from scenarios.model import Game, Unit

INFANTRY_TYPES = ("infantry", "marine", "airborne")
REPLACEABLE_SIZES = ("II", "III", "X")  # cadre, regiment, brigade


class Replaced(BaseModel):
    """A depleted unit to be raised to full strength."""

    model_config = ConfigDict(extra="forbid")

    unit: str = Field(min_length=1, max_length=60, description="Unit id (showing its depleted side).")
    hex: str = Field(pattern=HEX_PATTERN, description="Hex it stands in.")
    in_supply: bool = Field(description="Whether it traces supply now (10.1.2, 10.1.3: it must).")


class ReplacementsRequest(CheckRequest):
    """The replacements one player takes at the beginning of his Movement Phase (10.1.2, 10.1.3)."""

    scenario: ScenarioName = board("scenario", description="Scenario id (Seoul and Changjin restrict replacements).")
    side: SideName = board("side", description="The player taking replacements.")
    undeplete: list[Replaced] = Field(default_factory=list, max_length=3, description=(
        "10.1.2: depleted infantry cadres/regiments/brigades to undeplete, at most one per nationality "
        "(Communist: one in all)."))
    burned_supply_center: str | None = Field(default=None, max_length=60, description=(
        "10.1.3 (Communist): the Supply Center burned for emergency replacements."))
    burned_supply_center_hex: str | None = Field(default=None, pattern=HEX_PATTERN, description="Its hex.")
    emergency: list[Replaced] = Field(default_factory=list, max_length=3, description=(
        "10.1.3: one depleted division or up to three depleted regiments stacked with or adjacent to the Center."))

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        check_replacements(g, self)
        return self


def _replaceable(u: Unit) -> bool:
    return u.type in INFANTRY_TYPES and u.size in REPLACEABLE_SIZES and len(u.steps) > 1


def check_replacements(g: Game, req: ReplacementsRequest) -> None:
    names = [r.unit for r in req.undeplete + req.emergency]
    if not unique(names):
        raise ValueError("a unit is listed twice")
    for r in req.undeplete + req.emergency:
        u = data.unit(g, r.unit)
        if u.side != req.side:
            raise ValueError(f"{r.unit} is not a {req.side} unit")
        if not r.in_supply:
            raise ValueError(f"{r.unit} is out of supply: only units in supply are undepleted (10.1.2, 10.1.3)")
        if len(u.steps) < 2:
            raise ValueError(f"{r.unit} has one strength level: nothing to undeplete")
    nationalities = []
    for r in req.undeplete:
        u = data.unit(g, r.unit)
        if not _replaceable(u):
            raise ValueError(f"{r.unit} is not an infantry cadre, regiment or brigade (10.1.2)")
        if u.nationality == "cw":
            raise ValueError(f"{r.unit}: Commonwealth units may not receive replacements (10.1.2)")
        replacements = data.special(g, req.scenario, "replacements")
        if u.nationality == "rok" and replacements.get("rok_may_receive") is False:
            raise ValueError(f"{r.unit}: ROK units may not take replacements in this scenario "
                             f"({replacements.get('source', '')})")
        coordination = data.special(g, req.scenario, "poor_coordination")
        if (req.side == "communist" and u.size == "III"
                and coordination.get("communist_may_undeplete_regiments") is False):
            raise ValueError(f"{r.unit}: the Communist player may not undeplete infantry regiments in "
                             f"{data.scenario(g, req.scenario).name} ({coordination.get('source', '')})")
        nationalities.append(u.nationality)
    if req.side == "communist" and len(req.undeplete) > data.int_parameter(g, "replacements_communist_total"):
        raise ValueError("the Communist player may undeplete only one unit a player-turn (10.1.2)")
    if req.side == "un" and not unique(nationalities):
        raise ValueError("the UN player undepletes at most one unit of each nationality (US, ROK) (10.1.2)")
    if req.emergency or req.burned_supply_center:
        if req.side != "communist":
            raise ValueError("emergency replacements are a Communist rule (10.1.3)")
        sc, where = req.burned_supply_center, req.burned_supply_center_hex
        if not sc or not where or not req.emergency:
            raise ValueError("emergency replacements need burned_supply_center, its hex and the units (10.1.3)")
        if not data.is_supply_center(data.unit(g, sc)) or data.unit(g, sc).side != "communist":
            raise ValueError(f"{sc} is not a Communist Supply Center")
        gm = data.scenario_map(g, req.scenario)
        centre = kb.parse(gm, where)
        units = [data.unit(g, r.unit) for r in req.emergency]
        divisions = [u for u in units if data.is_division(u)]
        regiments = [u for u in units if u.size == "III" and u.type in INFANTRY_TYPES]
        if not ((len(divisions) == 1 and len(units) == 1) or (len(regiments) == len(units) <= 3)):
            raise ValueError("a burned Supply Center undepletes either one division or three regiments (10.1.3)")
        for r in req.emergency:
            if gm.grid.distance(kb.parse(gm, r.hex), centre) > 1:
                raise ValueError(f"{r.unit} ({r.hex}) is neither stacked with nor adjacent to {sc} ({where}) (10.1.3)")


def take(g: Game, req: ReplacementsRequest) -> CheckResult:
    steps, raised = [], []
    for r in req.undeplete:
        u = data.unit(g, r.unit)
        steps.append(Step(f"{r.unit} ({u.nationality.upper()}, in supply) is raised to full strength "
                          f"({u.steps[0].text}).", "10.1.2"))
        raised.append(r.unit)
    if req.emergency:
        for r in req.emergency:
            steps.append(Step(f"{r.unit} (in supply, with or next to {req.burned_supply_center}) is raised to full strength "
                              f"({data.unit(g, r.unit).steps[0].text}).", "10.1.3"))
            raised.append(r.unit)
        steps.append(Step(f"{req.burned_supply_center} is burned: permanently removed (a Supply Center in the deadpile for "
                          "UN victory points).", "10.1.3"))
    if not raised:
        steps.append(Step("No replacements taken.", "10.1.2"))
    return CheckResult(outcome={"undepleted": raised, "supply_center_burned": req.burned_supply_center},
                       steps=steps, warnings=data.unit_warnings(g, raised))


@register_check(system="kwb", name="replacements", request=ReplacementsRequest, random=False,
                summary="Check and apply one player-turn's replacements (and Communist emergency replacements)",
                rule="10.1.2, 10.1.3, 12.21, 12.3",
                actor=named_side("side", rule="10.1.2", what="the player taking replacements (side)"),
                example={"scenario": "pusan",
                         "side": "un",
                         "undeplete": [{"unit": "us-5-1c", "hex": "2205", "in_supply": True},
                                       {"unit": "rok-17", "hex": "1505", "in_supply": True}]})
def replacements(req: ReplacementsRequest, dice: Dice) -> CheckResult:
    return take(data.game(), req)
