"""Supply / line-of-communication for the positions of a saved game, by the game's own tracer.

Each game's rules register a tracer (``adjudicator.rules.positions.register_supply_tracer``):
``(game, scenario_id, side, positions, options) -> SupplyReport``. The bridge gives it every
unit standing on a hex, of both sides (enemy units and their zones of control block paths),
and asks once per requested side. Until a game has a tracer the answer is a 501 problem, never
a made-up report.

The options are what the game's ``supply`` check would take: the game turn goes into the field
its board role ``turn`` (or ``month``) names, so the saved game and the check, given the same
positions and turn, answer the same. The turn comes from the request or the file's turn tracker
(:mod:`.turn`); when neither gives it and the check takes one, the answer says so.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from adjudicator.bridge.errors import BridgeError
from adjudicator.bridge.positions import Positions
from adjudicator.bridge.turn import TurnReading, month_of, read_turn, requested_turn
from adjudicator.checks import canonical_side, get_check
from adjudicator.rules.positions import SupplyReport, supply_tracer
from scenarios.model import Game

log = logging.getLogger(__name__)

ALL_SIDES = ("", "both", "all")


@dataclass
class SupplyRun:
    """The reports of one request, and what the bridge decided on the way."""

    system: str
    scenario: str
    scenario_guessed: bool
    turn: TurnReading = TurnReading(None, "")
    reports: list[SupplyReport] = field(default_factory=list)
    #: side -> units of that side that stand in a box, on a turn track or nowhere (not traced)
    not_on_map: dict[str, list[str]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def out_of_supply(self) -> set[tuple[str, str]]:
        """(unit id, hex) of every unit some report finds out of supply."""
        return {(u.unit, u.hex) for r in self.reports for u in r.units if not u.in_supply}

    def to_json(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "scenario": self.scenario,
            "scenario_guessed": self.scenario_guessed,
            "game_turn": self.turn.turn,
            "game_turn_from": self.turn.source,
            "sides": [
                {**report.to_json(), "not_on_map": self.not_on_map.get(report.side, [])}
                for report in self.reports
            ],
            "warnings": list(self.warnings),
        }


def resolve_sides(game: Game, side: str | None) -> list[str]:
    """Side ids for a request's ``side`` (an id, an old spelling of one, or a name; empty/"both" =
    every side)."""
    wanted = canonical_side((side or "").strip().lower())
    if wanted in ALL_SIDES:
        return list(game.sides)
    for s in game.sides.values():
        if wanted in (s.id.lower(), s.name.lower()):
            return [s.id]
    known = ", ".join(game.sides)
    raise BridgeError(422, "Unknown side", f"{game.name} has no side {side!r} (known: {known}, "
                      "or leave it out for both).", "unknown-side")


def resolve_scenario(game: Game, positions: Positions, scenario: str | None) -> tuple[str, bool]:
    """The scenario id to trace in and whether it was guessed from the file."""
    if scenario:
        if scenario not in game.scenarios:
            known = ", ".join(game.scenarios)
            raise BridgeError(422, "Unknown scenario", f"{game.name} has no scenario {scenario!r} "
                              f"(known: {known}).", "unknown-scenario")
        return scenario, False
    candidates = positions.scenario_candidates()
    if len(candidates) == 1:
        return candidates[0], True
    listed = ", ".join(candidates or game.scenarios)
    raise BridgeError(422, "Which scenario?",
                      f"The saved game does not show which scenario it is; give one of {listed} "
                      "(query parameter 'scenario', or --scenario in the client).",
                      "scenario-needed")


def run_supply(game: Game, positions: Positions, scenario: str | None = None,
               side: str | None = None, options: dict[str, Any] | None = None,
               game_turn: str | None = None) -> SupplyRun:
    """Every requested side's supply report; `game_turn` (text, from the request) overrides the
    turn the file's turn tracker shows."""
    tracer = supply_tracer(game.id)
    if tracer is None:
        raise BridgeError(501, "Not Implemented",
                          f"There is no supply tracer for {game.name} ({game.id}) yet; the "
                          "positions endpoint works, supply reports do not.", "no-supply-tracer")
    scenario_id, guessed = resolve_scenario(game, positions, scenario)
    sides = resolve_sides(game, side)
    turn = (requested_turn(game.scenarios[scenario_id], game_turn) if game_turn
            else read_turn(game, scenario_id, positions.commands))
    run = SupplyRun(game.id, scenario_id, guessed, turn, warnings=list(positions.warnings))
    if guessed:
        run.warnings.append(f"scenario {scenario_id!r} was inferred from the maps and turn "
                            "tracks the pieces stand on")
    options = {**turn_options(game, scenario_id, turn, run.warnings), **(options or {})}
    unit_ats = positions.unit_ats()
    for side_id in sides:
        try:
            report = tracer(game, scenario_id, side_id, list(unit_ats), dict(options))
        except (KeyError, ValueError) as error:
            log.warning("supply tracer of %s refused the positions: %s", game.id, error)
            raise BridgeError(422, "The supply tracer cannot use these positions",
                              f"{game.id} supply for {side_id}: {error}", "supply-refused") from None
        run.reports.append(report)
        run.not_on_map[side_id] = sorted(u.unit.id for u in positions.units
                                         if u.unit.side == side_id and not u.location.on_map)
    return run


def turn_options(game: Game, scenario_id: str, turn: TurnReading, warnings: list[str]) -> dict[str, Any]:
    """The tracer options that carry the turn: the `supply` check's fields with board role
    `turn` (the number) and `month` (YYYY-MM). A warning when the rules take a turn that is
    not known."""
    spec = get_check(game.id, "supply")
    turn_field = spec.top_level_field("turn") if spec else None
    month_field = spec.top_level_field("month") if spec else None
    if not (turn_field or month_field):
        return {}  # this game's supply does not depend on the turn
    if turn.turn is None:
        why = f" ({turn.problem})" if turn.problem else ""
        warnings.append(f"The game turn is not known{why}: supply was traced without it, although "
                        f"{game.name}'s supply rules depend on it. Give game_turn with the request.")
        return {}
    options: dict[str, Any] = {}
    if turn_field:
        options[turn_field] = turn.turn
    month = month_of(game.scenarios[scenario_id], turn.turn)
    if month_field and month:
        options[month_field] = month
    return options
