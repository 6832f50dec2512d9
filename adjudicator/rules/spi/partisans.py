"""SPI Korea Campaign Game: Partisans.

"Whenever there are no Communist units south of the dotted line designated 38th parallel, two South Korean
divisions (10-3) must be retained at, or placed within four haxes of Chonju and/or Taegu. These units regain
the ability to [... lost in the OCR]". The data (campaign.toml `partisans`, `partisans_release`) reads the
lost ending as: they move freely again once a Communist unit is south of the 38th parallel.

The check says whether the rule is in force in a position and whether the UN complies: at least two South
Korean 10-3 divisions within four hexes (distance 0-4) of Chonju or Taegu. Reading: "within four hexes" is hex
distance, whatever the terrain or Zones of Control. The numbers, places and citation are the scenario's data:
a scenario a maintainer adds with a copy of the rule gets it.
"""

from __future__ import annotations

from pydantic import ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board, either_side, register_check
from adjudicator.rules.positions import PositionModel, UnitAt
from adjudicator.rules.spi import board as sb
from adjudicator.rules.gamedata import with_special_rule
from adjudicator.rules.spi import data
from adjudicator.rules.spi.schemas import ScenarioName
from scenarios.model import Game

RULE = "Campaign Game: Partisans"
PARTISANS = "partisans"


class PartisansRequest(CheckRequest):
    """Whether the Partisans rule binds two South Korean divisions in this position (Campaign Game)."""

    scenario: ScenarioName = board("scenario", default="campaign", description=(
        "Game played: a scenario whose data has the special rule partisans (the Campaign Game's)."))
    positions: list[PositionModel] = board("positions", max_length=400,
                                           description="Every unit on the map, both sides.")

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        data.rule_of(g, self.scenario, PARTISANS)
        sb.Board.from_positions(g, data.scenario_map(g, self.scenario), [UnitAt.from_model(p) for p in self.positions])
        return self


def evaluate(g: Game, req: PartisansRequest) -> CheckResult:
    rule = data.rule_of(g, req.scenario, PARTISANS)
    cited = str(rule.get("source", RULE))
    gm = data.scenario_map(g, req.scenario)
    board = sb.Board.from_positions(g, gm, [UnitAt.from_model(p) for p in req.positions])
    line = sb.Line.of(gm, "parallel_38")
    south = [p.at.unit for p in board.land_units_of("communist") if line.is_south(p.hex)]
    steps = []
    if south:
        steps.append(Step(f"Communist units south of the 38th parallel ({', '.join(south[:6])}): the rule is not in "
                          "force; the divisions may move freely (the data's reading of the lost ending).", cited))
        release = str(data.special(g, req.scenario, "partisans_release").get("source", ""))
        return CheckResult(outcome={"in_force": False, "compliant": True, "qualifying": [], "needed": 0}, steps=steps,
                           warnings=[release] if release else [])
    places = [h for name in rule.get("places", ["Chonju", "Taegu"]) for h in sb.place_hexes(gm, name)]
    reach = int(rule.get("within_hexes", 4))
    needed = int(rule.get("count", 2))
    qualifying = [p.at.unit for p in board.land_units_of("un")
                  if p.unit.nationality == "rok" and data.values_text(p.unit) == "10-3"
                  and any(gm.grid.distance(p.hex, h) <= reach for h in places)]
    steps.append(Step(f"No Communist units south of the 38th parallel: {needed} South Korean 10-3 divisions must be "
                      f"within {reach} hexes of {' or '.join(rule.get('places', []))}; there are {len(qualifying)}"
                      + (f" ({', '.join(qualifying)})" if qualifying else "") + ".", cited))
    return CheckResult(outcome={"in_force": True, "compliant": len(qualifying) >= needed, "qualifying": qualifying,
                                "needed": needed},
                       steps=steps, warnings=data.map_warnings(g, gm.id))


@register_check(system="spi", name="partisans", request=PartisansRequest, random=False,
                summary="Campaign Game: whether two South Korean divisions must stay near Chonju/Taegu, and whether "
                        "they do", rule=RULE, scenario_rule=with_special_rule(data.game, PARTISANS),
                actor=either_side(rule=RULE, why="a fact of the position; no die"),
                example={"positions": [{"unit": "rok-d1", "hex": "2025"}, {"unit": "us-d25", "hex": "2125"}]})
def partisans(req: PartisansRequest, dice: Dice) -> CheckResult:
    return evaluate(data.game(), req)
