"""HoldFast Korea victory (12).

12: "Automatic victory goes to the player controlling all of the cities with a star at the end of
their turn. Control is determined by the last player with an in supply unit in the hex. It does not
mean current occupation. ... Otherwise, victory is determined after the last turn of the game and
the winner is the player with the most in supply units on his opponent's side of the 38th Parallel."

The star cities are the map's `star_city` features (their `side` = who controls them at the start,
2). Control history cannot be seen in a position, so the request lists the star cities whose
control changed; units standing in a star city and in supply now take it (12). Both sides' supply
is traced with the supply tracer (10). Ties at the end of the game: a draw (stand-in,
campaign.toml special_rules.victory_tie).
"""

from __future__ import annotations

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import (
    CheckRequest, CheckResult, Dice, Step, board as board_field, either_side, register_check, side_label,
)
from adjudicator.facts import GameFacts, GameResult, register_ledger_facts, register_result
from adjudicator.rules.endgame import eliminated_fact
from adjudicator.rules.holdfast import board, data, supply
from adjudicator.rules.holdfast.schemas import SideName
from adjudicator.rules.positions import PositionModel, UnitAt
from scenarios.model import Game, Source

RULE = "12 Victory"


class VictoryRequest(CheckRequest):
    """The victory check at the end of a player's turn (5 steps 8 and 12), and after the last turn."""

    scenario: str = board_field("scenario", default=data.DEFAULT_SCENARIO, description="Scenario id.")
    side: SideName = board_field("side", description="The player whose turn just ended (automatic victory is his, 12).")
    positions: list[PositionModel] = board_field("positions", default_factory=list, max_length=80,
                                                 description="Every block on the map, both sides.")
    star_city_control: dict[str, SideName] = Field(default_factory=dict, description=(
        "Star cities (hex -> side) whose control changed since the start; others keep their starting control (2)."))
    last_turn: bool = Field(default=False, description=(
        "True after the last turn's UN player turn: decide by in-supply units beyond the 38th."))
    game_turn: int | None = board_field("turn", default=None, ge=1, le=60, description=(
        "The turn the turn track shows: after the UN player turn of the scenario's last turn, the end-of-game "
        "count decides (as last_turn)."))
    un_controlled_ports: list[str] = Field(default_factory=list, max_length=40,
                                           description="Ports that changed to UN control (UN supply, 10).")
    communist_controlled_ports: list[str] = Field(default_factory=list, max_length=40,
                                                  description="Ports that changed to Communist control.")
    eliminated: list[str] = Field(default_factory=list, max_length=80, description=(
        "Blocks eliminated during the game: they hold nothing and count for nothing, wherever a position still "
        "shows them (in a recorded game, every block its rulings eliminated)."))

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        gm = g.maps[data.scenario(g, self.scenario).maps[0]]
        stars = {gm.grid.label(h) for h in gm.hexes_with("star_city")}
        for hex in self.star_city_control:
            if hex not in stars:
                raise ValueError(f"{hex} is not a star city (star cities: {', '.join(sorted(stars))})")
        length = data.scenario(g, self.scenario).length
        if self.game_turn is not None and self.game_turn > length:
            raise ValueError(f"game_turn {self.game_turn}: the scenario has {length} turns")
        supply.positions_board(g, gm, [UnitAt.from_model(p) for p in self.positions])
        return self


def run_victory(g: Game, req: VictoryRequest) -> CheckResult:
    sc = data.scenario(g, req.scenario)
    gm = g.maps[sc.maps[0]]
    gone = set(req.eliminated)
    positions = [UnitAt.from_model(p) for p in req.positions if p.unit not in gone]
    left_out = [p.unit for p in req.positions if p.unit in gone]
    options = {"un_controlled_ports": req.un_controlled_ports,
               "communist_controlled_ports": req.communist_controlled_ports}
    reports = {side: supply.trace_side(g, req.scenario, side, positions, options) for side in data.SIDES}
    in_supply = {u.unit: u.in_supply for r in reports.values() for u in r.units}
    warnings: list[str] = data.stand_in_warnings(g, f"map {gm.id} feature star_city")[:1]
    for r in reports.values():
        warnings += [w for w in r.warnings if w not in warnings]
    steps: list[Step] = []
    if left_out:
        steps.append(Step(f"Eliminated during the game, so neither controlling nor counted: {', '.join(left_out)}.",
                          RULE))

    control: dict[str, str] = {}
    for f in gm.features:
        if f.kind == "star_city":
            control[gm.grid.label(f.hex)] = f.side or "un"
    control.update(req.star_city_control)
    for p in positions:
        if p.hex in control and in_supply.get(p.unit):
            side = data.unit(g, p.unit).side
            if control[p.hex] != side:
                steps.append(Step(f"{p.unit} stands in star city {p.hex} and is in supply: {side} now controls it.",
                                  RULE + " (control)"))
            control[p.hex] = side
    held = {s: sorted(h for h, c in control.items() if c == s) for s in data.SIDES}
    steps.append(Step(f"Star cities: Communist controls {', '.join(held['communist']) or 'none'}; UN controls "
                      f"{', '.join(held['un']) or 'none'}.", RULE + "; 2 Hex Control"))
    winner = None
    how = None
    if control and all(c == req.side for c in control.values()):
        winner, how = req.side, "automatic"
        steps.append(Step(f"The {side_label(req.side)} player controls every star city at the end of his turn: automatic "
                          "victory.", RULE))
    else:
        steps.append(Step(f"No automatic victory: the {side_label(req.side)} player does not control every star city.", RULE))
    counts = None
    at_the_end = req.last_turn or (req.game_turn == sc.length and req.side != sc.first_player)
    if at_the_end and not req.last_turn:
        steps.append(Step(f"Turn {req.game_turn} is the scenario's last and the {side_label(req.side)} player's turn "
                          "ends it: the game is over.", RULE))
    if winner is None and at_the_end:
        north = board.north_of_38th(g, gm, data.special(g, req.scenario, "parallel_38"))
        if north.warning:
            warnings.append(north.warning)
        counts = {"communist": 0, "un": 0}
        for p in positions:
            side = data.unit(g, p.unit).side
            h = board.parse(gm, p.hex)
            beyond = (h not in north.north) if side == "communist" else (h in north.north)
            if beyond and in_supply.get(p.unit):
                counts[side] += 1
        steps.append(Step(f"After the last turn: in-supply units on the opponent's side of the 38th Parallel — "
                          f"Communist {counts['communist']} (south), UN {counts['un']} (north).", RULE))
        if counts["communist"] != counts["un"]:
            winner = max(counts, key=counts.get)
            how = "end of game"
            steps.append(Step(f"The {side_label(winner)} player has more and wins.", RULE))
        else:
            how = "draw"
            tie = Source(str(data.special(g, req.scenario, "victory_tie").get("source", "")))
            steps.append(Step("Equal numbers: a draw" + (" (stand-in reading; the book does not say)." if tie.is_stand_in
                                                         else "."),
                              f"{req.scenario}.toml special_rules.victory_tie" if tie.is_stand_in else str(tie)))
            warnings += data.stand_in_warnings(g, f"scenario {req.scenario} rule victory_tie")
    outcome = {"winner": winner, "how": how, "star_city_control": control, "units_beyond_38th": counts,
               "in_supply": in_supply}
    return CheckResult(outcome=outcome, steps=steps, warnings=warnings)


@register_check(system="holdfast", name="victory", request=VictoryRequest, random=False,
                summary="Automatic (all star cities) and end-of-game victory", rule="12",
                actor=either_side(rule="12", why="a fact of the position; no die"),
                example={"side": "un",
                         "positions": [{"unit": "nkpa-1", "hex": "0818", "step": "3"},
                                       {"unit": "rok-1", "hex": "0920", "step": "2"}],
                         "last_turn": True})
def victory(req: VictoryRequest, dice: Dice) -> CheckResult:
    return run_victory(data.game(), req)


@register_ledger_facts("holdfast", "victory")
def ledger_facts(scenario: str, records: list[tuple[int, dict]], ledger_board, side: str | None) -> GameFacts:
    """A recorded game's position: the blocks its rulings eliminated neither control a star city nor count."""
    g = data.game()
    gone = eliminated_fact(ledger_board, "12 Victory: in-supply units at the end", known=lambda u: u in g.units,
                           system="holdfast", side=side)
    return GameFacts({"eliminated": gone} if gone is not None else {})


@register_result("holdfast", "victory")
def game_result(request: dict, outcome: dict) -> GameResult | None:
    """12: an automatic victory, or after the last turn the most in-supply units beyond the 38th (a draw when equal)."""
    how, winner = outcome.get("how"), outcome.get("winner")
    if how is None:
        return None
    if how == "draw":
        counts = outcome.get("units_beyond_38th") or {}
        return GameResult(None, f"a draw: {counts.get('communist')} in-supply units beyond the 38th Parallel each")
    if how == "automatic":
        return GameResult(winner, f"{side_label(winner)} automatic victory: every star city controlled")
    counts = outcome.get("units_beyond_38th") or {}
    return GameResult(winner, f"{side_label(winner)} victory after the last turn: in-supply units beyond the 38th "
                              f"Parallel, Communist {counts.get('communist')}, UN {counts.get('un')}")
