"""HoldFast Korea weather (7): one die against the month's printed ranges.

7: "Any turn without a range of weather is automatically clear. When a turn on the Turn Track lists
weather types under the date, the communist player rolls a die to determine the weather. The month
shows a number range for the possible type of weather; clear, overcast and snow." Turn 1 is clear
(13.6). The ranges are printed on the board's Turn Track, not in the text: tables/weather.csv is a
labelled STAND-IN (every result that reads it says so). Which month a turn rolls for is the
`weather` column of the Turn Track (scenarios/campaign.turns.csv; 'clear' = no printed range).
"""

from __future__ import annotations

from pydantic import ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board, register_check, the_side
from adjudicator.rules.holdfast import data
from scenarios.model import Game

RULE = "7 Weather"
#: The Weather Track and the Weather block that stands on it (game.toml, markers.csv; schemas.WEATHER_MARKER).
WEATHER_TRACK, WEATHER_BLOCK = "weather", "weather"


def parse_range(text: str) -> range | None:
    """'1-5' -> 1..5, '6' -> 6..6, '-' or '' -> None (cannot occur)."""
    t = text.strip().replace("–", "-")
    if t in ("", "-"):
        return None
    low, _, high = t.partition("-")
    return range(int(low), int(high or low) + 1)


def weather_for(g: Game, month: str, roll: int) -> str:
    row = g.tables["weather"].row(month)
    for kind in data.WEATHERS:
        r = parse_range(row.get(kind, ""))
        if r is not None and roll in r:
            return kind
    raise ValueError(f"weather table row {month}: no weather for a roll of {roll}")


class WeatherRequest(CheckRequest):
    """The turn-opening weather roll (7), made by the Communist player."""

    scenario: str = board("scenario", default=data.DEFAULT_SCENARIO, description="Scenario id.")
    turn: int = board("turn", ge=1, le=99,
                      description="Game turn: its Turn Track entry says which month's ranges apply.")

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        month = data.turn_record(g, self.scenario, self.turn).values.get("weather", "clear")
        if month != "clear" and month not in {r["month"] for r in g.tables["weather"].rows}:
            raise ValueError(f"turn {self.turn} rolls for {month!r}, which the weather table does not list")
        return self


def run_weather(g: Game, req: WeatherRequest, dice: Dice) -> CheckResult:
    rule_cfg = data.special(g, req.scenario, "weather")
    turn = data.turn_record(g, req.scenario, req.turn)
    month = turn.values.get("weather", "clear")
    steps: list[Step] = []
    warnings = data.stand_in_warnings(g, f"scenario {req.scenario} rule turn_track")
    roll = None
    if req.turn == 1 or month == "clear":
        weather = str(rule_cfg.get("turn_1", "clear")) if req.turn == 1 else "clear"
        steps.append(Step(f"{data.turn_label(g, req.scenario, req.turn)}: "
                          + ("turn 1 is clear (13.6)." if req.turn == 1 else
                             "no weather range on the Turn Track, automatically clear."), RULE + "; 13.6"))
    else:
        row = g.tables["weather"].row(month)
        ranges = ", ".join(f"{k} {row[k]}" for k in data.WEATHERS if parse_range(row.get(k, "")))
        steps.append(Step(f"{data.turn_label(g, req.scenario, req.turn)} rolls on the {month} ranges: {ranges}.",
                          RULE + " (Turn Track)"))
        (roll,) = dice.roll(6, purpose=f"weather roll ({month})")
        weather = weather_for(g, month, roll)
        steps.append(Step(f"The Communist player rolled {roll}: {weather}.", RULE))
        warnings += data.stand_in_warnings(g, "table weather")
    effect = data.weather_effect(g, weather)
    text = g.tables["weather_effects"].cell(weather, "effect_as_printed")
    steps.append(Step(f"{weather.capitalize()}: {text}", RULE))
    outcome = {"weather": weather, "roll": roll, "month": None if month == "clear" else month,
               "air_support": effect["air_support"], "mp_modifier": effect["mp_modifier"],
               "track_moves": _weather_block_move(g, weather)}
    return CheckResult(outcome=outcome, steps=steps, warnings=warnings)


def _weather_block_move(g, weather: str) -> list[dict]:
    """The Weather block onto the Weather Track's cell of the weather rolled (3: "the turn and weather
    labels should be placed on blue blocks"; 7), in the shape `adjudicator.ruled_orders.track_orders`
    reads: a change every reader of the ruling sees (none when the module has no such track)."""
    track = g.tracks.get(WEATHER_TRACK)
    cell = next((c for c in track.cells if c.lower() == weather.lower()), None) if track is not None else None
    marker = g.markers.get(WEATHER_BLOCK)
    if cell is None or marker is None:
        return []
    return [{"track": WEATHER_TRACK, "marker": WEATHER_BLOCK, "marker_name": marker.name, "to": cell, "side": "",
             "rule": "3; 7 Weather"}]


@register_check(system="holdfast", name="weather", request=WeatherRequest, random=True,
                summary="Turn-opening weather roll by month", rule="7",
                actor=the_side("communist", rule="7 (rolled by the Communist player)"),
                example={"turn": 12, "dice": [1]})
def weather(req: WeatherRequest, dice: Dice) -> CheckResult:
    return run_weather(data.game(), req, dice)
