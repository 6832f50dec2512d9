"""A turn played in the real engine for the replay's tests: the side moving first moves a unit, asks a
combat and two supply reports through the Adjudicator extension, draws from a pile where its game has
one, loses a step by hand, moves again, and saves the game at two chosen points while the log runs.

`turn_steps` gives the harness steps (tests/engine) and what each checkpoint is, so a test can open
the log in the replay, go to the step where the engine saved, and compare the board.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from modgen.buildfile import main_map_name
from scenarios.model import Game, Scenario
from scenarios.pools import pool_contents
from tests.engine.play import Combat, adjacent_combat, call, fighting, setup_hexes

PROPS = ["UnitId", "MarkerId", "Step_Level"]
CHECKPOINTS = ("checkpoint A", "checkpoint B")


@dataclass
class Turn:
    """The steps of one played turn and where things are in them."""

    game_id: str
    combat: Combat
    files: Path
    steps: list[dict] = field(default_factory=list)
    at: dict[str, int] = field(default_factory=dict)  # name -> step index

    def add(self, step: dict, name: str = "") -> None:
        if name:
            self.at[name] = len(self.steps)
        self.steps.append(step)

    @property
    def defending_side(self) -> str:
        scenario = self.combat.scenario
        return next(s for s in self.combat.game.sides if s != scenario.first_player)


def a_free_neighbour(game: Game, where: dict, unit: str, taken: set) -> dict:
    """The harness's drop target: an empty hex next to `unit`'s setup hex."""
    map_id, hex_ = where[unit]
    grid = game.maps[map_id].grid
    occupied = {grid.label(h) for m, h in where.values() if m == map_id} | taken
    for near in grid.neighbours(hex_):
        label = grid.label(near)
        if label not in occupied:
            taken.add(label)
            return {"map": main_map_name(game), "location": label}  # the main map shows the scenario's
    raise LookupError(f"{unit} has no empty neighbouring hex")


def open_pile(game: Game, scenario: Scenario, side: str) -> str | None:
    """A pile of the scenario the side may draw from (its own, or no side's), if the game has one."""
    filled = pool_contents(game, scenario)
    for box_id, contents in filled.items():
        box = game.boxes[box_id]
        if contents and box.side in ("", side):
            return box.name
    return None


def turn_steps(game_id: str, server_url: str, fields: dict, files: Path) -> Turn:
    combat = adjacent_combat(game_id)
    game, scenario = combat.game, combat.scenario
    turn = Turn(game_id, combat, files)
    where = setup_hexes(game, scenario)
    side = scenario.first_player
    mover = next(u for u in where if game.units[u].side == side and u not in combat.attackers and fighting(game, u)
                 and where[u][0] == where[combat.attackers[0]][0])
    taken: set = set()
    first_move, second_move = a_free_neighbour(game, where, mover, taken), \
        a_free_neighbour(game, where, combat.attackers[0], taken)
    viewers = [{"do": "pieces", "properties": PROPS, "as": game.sides[s].name} for s in game.sides]
    turn.add({"do": "setup", "name": scenario.name})
    turn.add({"do": "side", "side": combat.attacking_side})
    turn.add(call("connect", server_url), "connect")
    turn.add(call("createRecordedGame", "", ""), "create")
    turn.add({"do": "pieces", "properties": PROPS}, "start")
    for view in viewers:
        turn.add(view, f"start as {view['as']}")
    turn.add({"do": "log_begin", "file": str(files / "turn.vlog")})
    turn.add({"do": "move", "piece": {"id": mover}, "to": first_move, "properties": PROPS}, "first move")
    turn.add({"do": "chat", "text": CHECKPOINTS[0]})
    turn.add({"do": "save", "file": str(files / "a.vsav")})
    for view in viewers:
        turn.add(view, f"{CHECKPOINTS[0]} as {view['as']}")
    turn.add({"do": "select", "pieces": [{"id": a} for a in combat.attackers]})
    turn.add(call("check", "combat", combat.defender, json.dumps(fields)), "combat")
    turn.add(call("check", "supply", combat.attackers[0], "{}"), "supply 1")
    pile = open_pile(game, scenario, side)
    if pile:
        turn.add({"do": "draw", "deck": pile, "to": second_move, "properties": PROPS}, "draw")
    if len(game.units[combat.attackers[0]].steps) > 1:
        turn.add({"do": "key", "piece": {"id": combat.attackers[0]}, "properties": PROPS,
                  "menu": game.units[combat.attackers[0]].step_commands[0]}, "flip")
    turn.add({"do": "move", "piece": {"id": combat.attackers[0]}, "to": second_move, "properties": PROPS},
             "second move")
    turn.add(call("check", "supply", combat.attackers[0], "{}"), "supply 2")
    turn.add({"do": "chat", "text": CHECKPOINTS[1]})
    turn.add({"do": "save", "file": str(files / "b.vsav")})
    for view in viewers:
        turn.add(view, f"{CHECKPOINTS[1]} as {view['as']}")
    turn.add({"do": "log_end"})
    return turn

