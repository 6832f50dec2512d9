"""SPI Korea victory levels of each game from a position (Victory Conditions; each scenario's [victory]).

Victory Conditions (re-assembled OCR): "to measure the accomplishments of the competing Players, simply
award progressively higher victories to greater disparity of Victory Condition achievements; if one
Player achieves a strategic victory, and the other no victory at all (a defeat), his level is obviously
higher ...; if both sides achieve a marginal victory, which would be termed a tie, or no one's victory."

Condition kinds (scenario TOML `[victory]`, read as data):
- occupy_or_last: every named place is occupied by the side's land units, or, unoccupied, was last
  occupied by the side (the request says who last occupied an empty place);
- hold_same_port_throughout: the UN held one and the same Korean port the whole game (the request names
  it; the position must still show it UN-held);
- no_enemy_south_of / no_enemy_north_of: no enemy land unit on the map south / north of the line (a
  hexside kind: parallel_38, parallel_37; board.Line says which side of it a hex lies on);
- no_enemy_on_map: no enemy land unit left in Korea;
- all: every listed condition.

Readings (the alternative in brackets): a side's level is the highest level whose condition it meets
[levels cumulative]; the winner is the side with the higher level and the victory is named by the
disparity: 1 = marginal, 2 = tactical, 3 = strategic [the winner's own level]; naval units at sea are
not 'units in Korea' for the line and map conditions.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board, either_side, register_check, side_label
from adjudicator.facts import GameFacts, GameResult, register_ledger_facts, register_result
from adjudicator.rules.endgame import eliminated_fact
from adjudicator.rules.positions import PositionModel, UnitAt
from adjudicator.rules.spi import board as sb
from adjudicator.rules.spi import data
from adjudicator.rules.spi.schemas import ScenarioName, SideName
from scenarios.model import Game

RULE = "Victory Conditions"


class LastOccupied(BaseModel):
    model_config = ConfigDict(extra="forbid")

    place: str = Field(min_length=1, max_length=40, description="A named place: 'Soul', 'Pyongyang', 'Pusan'.")
    side: SideName = Field(description="The side whose land units last occupied it.")


class VictoryRequest(CheckRequest):
    """Victory levels at the end of a game, from the final position."""

    scenario: ScenarioName = board("scenario", description="Game played: a scenario id of the data, e.g. 'invasion'.")
    positions: list[PositionModel] = board("positions", max_length=400,
                                           description="Every unit on the map, both sides.")
    last_occupied: list[LastOccupied] = Field(default_factory=list, max_length=10, description=(
        "Who last occupied each objective place that is empty now (needed for 'occupy, or be the last to occupy')."))
    un_port_held_throughout: str = Field(default="", max_length=40, description=(
        "Invasion Game: the Korean port the UN held for the whole game, if any ('' = none)."))
    game_turn: int | None = board("turn", default=None, ge=1, le=60, description=(
        "The game turn the turn track shows: at the scenario's last, the levels are the game's result; before "
        "it, the position so far."))
    eliminated: list[str] = Field(default_factory=list, max_length=400, description=(
        "Units eliminated during the game (or set aside by a breakdown): they hold nothing, wherever a position "
        "still shows them (in a recorded game, every unit its rulings eliminated or set aside)."))

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        gm = data.scenario_map(g, self.scenario)
        length = data.scenario(g, self.scenario).length
        if self.game_turn is not None and self.game_turn > length:
            raise ValueError(f"game_turn {self.game_turn}: the scenario has {length} game turns")
        sb.Board.from_positions(g, gm, [UnitAt.from_model(p) for p in self.positions])
        for lo in self.last_occupied:
            sb.place_hexes(gm, lo.place)
        if self.un_port_held_throughout:
            hexes = sb.place_hexes(gm, self.un_port_held_throughout)
            if not any(gm.features_at(h, "port") for h in hexes):
                raise ValueError(f"{self.un_port_held_throughout} is not a port on map {gm.id}")
        return self


class Evaluation:
    """Evaluates condition dicts of one scenario against one position."""

    def __init__(self, g: Game, req: VictoryRequest):
        self.g = g
        self.req = req
        self.map = data.scenario_map(g, req.scenario)
        gone = set(req.eliminated)
        self.left_out = [p.unit for p in req.positions if p.unit in gone]
        self.board = sb.Board.from_positions(g, self.map, [UnitAt.from_model(p) for p in req.positions
                                                           if p.unit not in gone])
        self.last = {lo.place.lower(): lo.side for lo in req.last_occupied}
        self.lines: dict[str, sb.Line] = {}

    def holder(self, place: str) -> tuple[str | None, str]:
        """Who occupies the place now, or last occupied it (ValueError when that is needed and not given)."""
        hexes = sb.place_hexes(self.map, place)
        for side in data.SIDES:
            if any(h in self.board.occupied_by(side) for h in hexes):
                return side, f"{place} is occupied by {side_label(side)} units"
        if place.lower() in self.last:
            side = self.last[place.lower()]
            return side, f"{place} is empty, last occupied by {side_label(side)}"
        raise ValueError(f"{place} is unoccupied: say who last occupied it in `last_occupied`")

    def line(self, kind: str) -> sb.Line:
        if kind not in self.lines:
            self.lines[kind] = sb.Line.of(self.map, kind)
        return self.lines[kind]

    def check(self, side: str, cond: dict) -> tuple[bool, str]:
        kind = cond.get("kind")
        enemy = data.other_side(side)
        if kind == "all":
            results = [self.check(side, c) for c in cond.get("conditions", [])]
            return all(ok for ok, _ in results), "; ".join(why for _, why in results)
        if kind == "occupy_or_last":
            found = [self.holder(p) for p in cond.get("places", [])]
            return all(s == side for s, _ in found), "; ".join(why for _, why in found)
        if kind in ("no_enemy_south_of", "no_enemy_north_of"):
            line = self.line(cond["line"])
            want_south = kind == "no_enemy_south_of"
            offenders = [p.at.unit for p in self.board.land_units_of(enemy) if line.is_south(p.hex) == want_south]
            where = f"{'south' if want_south else 'north'} of the {_line_words(cond['line'])}"
            if offenders:
                return False, f"{side_label(enemy)} units {where}: {', '.join(offenders[:6])}" + \
                    (f" and {len(offenders) - 6} more" if len(offenders) > 6 else "")
            return True, f"no {side_label(enemy)} units {where}"
        if kind == "no_enemy_on_map":
            left = [p.at.unit for p in self.board.land_units_of(enemy)]
            return not left, (f"{len(left)} {side_label(enemy)} units left in Korea" if left
                              else f"no {side_label(enemy)} units left in Korea")
        if kind == "hold_same_port_throughout":
            port = self.req.un_port_held_throughout
            if not port:
                return False, "no port held by the UN throughout the game"
            holder, why = self.holder(port)
            if holder != side:
                raise ValueError(f"un_port_held_throughout names {port}, but {why}")
            return True, f"{port} held throughout the game ({why})"
        raise ValueError(f"unknown victory condition kind {kind!r} in the scenario data")


def _line_words(kind: str) -> str:
    """A line the map draws, as the rules say it: "parallel_38" -> "38th parallel"."""
    found = re.fullmatch(r"parallel_(\d+)", kind)
    return f"{found.group(1)}th parallel" if found else kind.replace("_", " ")


def level_name(levels: list[str], n: int) -> str:
    return levels[n - 1] if n else "none"


def evaluate(g: Game, req: VictoryRequest) -> CheckResult:
    victory = data.scenario(g, req.scenario).victory
    levels = list(victory.get("levels", ["marginal", "tactical", "strategic"]))
    ev = Evaluation(g, req)
    steps: list[Step] = []
    if ev.left_out:
        steps.append(Step(f"Eliminated during the game, so holding nothing: {', '.join(ev.left_out)}.", RULE))
    achieved: dict[str, int] = {}
    detail: dict[str, dict] = {}
    for side in data.SIDES:
        best = 0
        detail[side] = {}
        for i, name in enumerate(levels, start=1):
            cond = victory[side][name]
            ok, why = ev.check(side, cond)
            detail[side][name] = ok
            steps.append(Step(f"{side_label(side)} {name} ({cond.get('text', '')}): {'met' if ok else 'not met'} - {why}.",
                              victory.get("source", RULE)))
            if ok:
                best = i
        achieved[side] = best
    diff = achieved["un"] - achieved["communist"]
    if diff == 0:
        winner, result = None, "tie"
        steps.append(Step(f"Both sides at level '{level_name(levels, achieved['un'])}': a tie, no one's victory.", RULE))
    else:
        winner = "un" if diff > 0 else "communist"
        result = level_name(levels, abs(diff))
        steps.append(Step(f"UN level '{level_name(levels, achieved['un'])}', Communist level "
                          f"'{level_name(levels, achieved['communist'])}': {winner} wins a {result} victory (named by "
                          "the disparity of achievements).", RULE))
    length = data.scenario(g, req.scenario).length
    early = ([f"Game turn {req.game_turn} is before the scenario's last ({length}): these are the levels of the "
              "position so far, not the game's result."] if req.game_turn is not None and req.game_turn < length else [])
    return CheckResult(
        outcome={"levels": {s: level_name(levels, n) for s, n in achieved.items()}, "conditions": detail,
                 "winner": winner, "victory": result},
        steps=steps,
        warnings=early + ["Victory Conditions' general paragraph survives as interleaved OCR columns: the comparison by "
                          "disparity is the data's re-assembly (scenario [victory] comparison)."]
        + data.map_warnings(g, ev.map.id))


@register_check(system="spi", name="victory", request=VictoryRequest, random=False,
                summary="Victory levels of both sides and the result, from the final position", rule=RULE,
                actor=either_side(rule="Victory Conditions", why="the levels of the final position; no die"),
                example={"scenario": "stalemate",
                         "positions": [{"unit": "rok-d1", "hex": "2025"}, {"unit": "us-d25", "hex": "2125"},
                                       {"unit": "nk-d1", "hex": "1818"}],
                         "last_occupied": [{"place": "Pyongyang", "side": "communist"},
                                           {"place": "Soul", "side": "un"}]})
def victory(req: VictoryRequest, dice: Dice) -> CheckResult:
    return evaluate(data.game(), req)


@register_ledger_facts("spi", "victory")
def ledger_facts(scenario: str, records: list[tuple[int, dict]], ledger_board, side: str | None) -> GameFacts:
    """A recorded game's final position: the units its rulings eliminated hold nothing, nor does a
    division a breakdown set aside (its regiments stand in its stead)."""
    g = data.game()
    gone = eliminated_fact(ledger_board, "Victory Conditions: units in Korea at the end", known=lambda u: u in g.units,
                           set_aside=True, system="spi", side=side)
    return GameFacts({"eliminated": gone} if gone is not None else {})


@register_result("spi", "victory")
def game_result(request: dict, outcome: dict) -> GameResult | None:
    """Victory Conditions: the side with the higher level wins, named by the disparity; equal levels tie."""
    winner = outcome.get("winner")
    if winner is None:
        return GameResult(None, "a tie: no one's victory")
    levels = outcome.get("levels") or {}
    return GameResult(winner, f"{side_label(winner)} {outcome.get('victory')} victory (UN level {levels.get('un')}, "
                              f"Communist level {levels.get('communist')})")
