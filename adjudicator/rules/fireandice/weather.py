"""Weather (14.1): one D10 each month against the month's rain chance on the Game Turn Record Track.

"Each month roll a D10 to see if it is rainy that month. If you roll equal to or less than the rain
percentage, it is a rainy month. In addition, if it is a winter month, the rain is now snow."
The rain chances and which months are winter are a labelled stand-in (table `weather_track`); the
effects are the book's (table `weather_effects`).  A winter month without snow still has the Winter
effects (UN LoC 8 MP); Snow adds no flying and doubled UN supply costs (7.0 says winter turns double
them - see check `supply_cost`).
"""

from __future__ import annotations

from pydantic import ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board, either_side, register_check
from adjudicator.rules.fireandice import data
from adjudicator.rules.fireandice.schemas import Month

RULE = "14.1 Weather"


class WeatherRequest(CheckRequest):
    month: Month = board("month", description="The new month on the Game Turn Record Track (YYYY-MM, e.g. '1950-12').")

    @model_validator(mode="after")
    def _known(self, info: ValidationInfo):
        data.month_row(data.game_in(info), self.month)
        return self


def effects(g, weather: str, winter: bool) -> list[str]:
    t = data.table(g, "weather_effects")
    found = [t.cell(weather.capitalize(), "effect")]
    if winter and weather != "snow":
        found.append(t.cell("Winter", "effect"))
    return found


@register_check(system="fireandice", name="weather", request=WeatherRequest, random=True,
                summary="Monthly weather check: clear, rain or snow", rule="14.1",
                actor=either_side(rule="14.1", why="the rules name no roller"),
                example={"month": "1950-12", "dice": [1]})
def weather(req: WeatherRequest, dice: Dice) -> CheckResult:
    g = data.game()
    row = data.month_row(g, req.month)
    rain = int(row["rain"])
    winter = row["winter"].strip().lower() == "yes"
    (roll,) = dice.roll(10, purpose=f"weather check for {req.month}")
    wet = roll <= rain
    result = ("snow" if winter else "rain") if wet else "clear"
    steps = [Step(f"{req.month}: rain chance {rain} in 10{' (a winter month)' if winter else ''}; rolled {roll}.", RULE),
             Step(f"{roll} {'<=' if wet else '>'} {rain}: " + ({"snow": "rainy, and in a winter month the rain is snow.",
                                                                "rain": "a rainy month.", "clear": "clear."}[result]), RULE)]
    eff = effects(g, result, winter)
    for e in eff:
        steps.append(Step(e + ".", RULE))
    return CheckResult(outcome={"month": req.month, "roll": roll, "rain_chance": rain, "winter": winter,
                                "weather": result, "effects": eff,
                                "aircraft_rating_modifier": -1 if result == "rain" else 0,
                                "aircraft_fly": result != "snow",
                                "un_loc_mp": 8 if winter else 10,
                                "un_supply_costs_doubled": winter},
                       steps=steps, warnings=data.stand_in_warnings(g, "table weather_track"))
