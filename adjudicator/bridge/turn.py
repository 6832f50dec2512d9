"""Which game turn a saved game is at: its turn tracker, or what the request says.

Supply can depend on the turn (KWB Changjin's surprise turns, SPI's first Intervention and
Invasion turns put Communist units in supply; Fire and Ice's winter months shorten the UN's
line), so the saved-game answers must know it. The module (modgen) has one VASSAL TurnTracker
(id ``TurnTracker0``) with a top level per scenario, in the order of the game's scenarios; the
engine saves its state as the command ``TURN<id>\\t<state>``
(``VASSAL.build.module.turn.TurnTracker``). The state is ``|``-separated: the level shown, then
each level's state, whose first ``;``-separated field is the index of the list entry shown
("Turn 3 (...)" is entry 2). Files of older modules, with a tracker per scenario
(``TurnTracker<n>`` for scenario n, its first level counting), are read too. A log's later
TURN commands override the saved one.

A file without its scenario's TURN command starts the tracker at its first entry, the
scenario's first turn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from adjudicator.bridge.errors import BridgeError
from adjudicator.systems import scenario_months
from scenarios.model import Game, Scenario
from vassalfmt import VassalFormatError
from vassalfmt.sequence import decode

_TURN_COMMAND_RE = re.compile(r"^TURNTurnTracker(\d{1,4})\t(.*)$", re.S)

FROM_REQUEST = "the request"
FROM_TRACKER = "the module's turn tracker"
FROM_TRACKER_START = "the turn tracker's start: the file records no turn"


@dataclass(frozen=True)
class TurnReading:
    """The game turn a saved game is read at (None: not known) and where that came from."""

    turn: int | None
    source: str
    problem: str = ""  # why the file's turn could not be read


def tracker_entries(commands: list[str]) -> dict[int, int]:
    """Scenario index -> the index of the entry its turn level shows, from the last TURN
    command; levels whose state cannot be read are left out. A module's one tracker with a top
    level per scenario (``TurnTracker0``, several levels) gives each level's entry; otherwise
    tracker n is scenario n's and its first level counts."""
    shown: dict[int, int] = {}
    for command in commands:
        found = _TURN_COMMAND_RE.match(command)
        if not found:
            continue
        try:
            levels = decode(found.group(2), "|")
        except VassalFormatError:
            continue
        tracker = int(found.group(1))
        by_level = tracker == 0 and len(levels) > 2
        for index, level in enumerate(levels[1:] if by_level else levels[1:2]):
            try:
                shown[index if by_level else tracker] = int(decode(level, ";")[0])
            except (VassalFormatError, IndexError, ValueError):
                continue
    return shown


def read_turn(game: Game, scenario_id: str, commands: list[str]) -> TurnReading:
    """The turn the scenario's tracker shows in a saved game's commands."""
    scenario = game.scenarios[scenario_id]
    index = list(game.scenarios).index(scenario_id)
    shown = tracker_entries(commands)
    if shown and max(shown) >= len(game.scenarios):
        return TurnReading(None, "", f"the file has {max(shown) + 1} turn trackers, the module of "
                           f"{game.name} has {len(game.scenarios)}: it is not this module's layout")
    if index not in shown:
        return TurnReading(scenario.turns[0].number, FROM_TRACKER_START) if scenario.turns else \
            TurnReading(None, "", f"{scenario.name} has no turn record")
    entry = shown[index]
    if not 0 <= entry < len(scenario.turns):
        return TurnReading(None, "", f"the {scenario.name} turn tracker shows entry {entry + 1}, beyond its "
                           f"{len(scenario.turns)} turns")
    return TurnReading(scenario.turns[entry].number, FROM_TRACKER)


def requested_turn(scenario: Scenario, text: str) -> TurnReading:
    """A turn given with the request (`game_turn`), checked against the scenario's turns."""
    numbers = [t.number for t in scenario.turns]
    try:
        turn = int(text)
    except ValueError:
        turn = None
    if turn is None or (numbers and turn not in numbers):
        span = f"{numbers[0]}-{numbers[-1]}" if numbers else "none"
        raise BridgeError(422, "Unknown game turn", f"game_turn {text!r} is not a turn of {scenario.name} "
                          f"(turns {span}).", "unknown-turn")
    return TurnReading(turn, FROM_REQUEST)


def month_of(scenario: Scenario, turn: int) -> str | None:
    """The month (YYYY-MM) of a turn, where the scenario's turn record gives one."""
    return scenario_months(scenario).get(turn)
