"""A ruling from a saved game: the request is built from the file, then it takes the same path
as every other ruling (`adjudicator.rulings`).

The board fills what it shows (`adjudicator.bridge.fill`); the player gives only what it cannot
show. A recorded game also refuses a file that is not of its system and scenario, so a ruling is
never judged on another game's board.
"""

from __future__ import annotations

import hashlib
from typing import Any

from adjudicator import rulings
from adjudicator.odds.asked_again import asked_before
from adjudicator.chances import chances
from adjudicator.bridge.errors import BridgeError
from adjudicator.bridge.fill import BoardFill, Pointed, fill_request
from adjudicator.bridge.games import load_system_game
from adjudicator.bridge.positions import Positions, read_positions
from adjudicator.bridge.supply import SupplyRun, run_supply
from adjudicator.bridge.upload import read_upload
from adjudicator.checks import CheckSpec, canonical_side, recorded_request
from adjudicator.fog import as_seen_by
from adjudicator.problems import Problem
from adjudicator.ledger.storage import TokenGrant

#: The name a saved game's supply is recorded under: "<system>.savedgame_supply".
SUPPLY_CHECK = "savedgame_supply"


def problem_from(error: BridgeError) -> Problem:
    """The HTTP problem of a saved game that cannot be read (with its Retry-After when the server
    was too busy to read it)."""
    return Problem(error.status, error.title, error.detail, kind=error.kind, headers=error.headers)


def positions_of(system: str, data: bytes) -> Positions:
    """The file's pieces located and identified against the system's game (Problem if unreadable)."""
    try:
        return read_positions(load_system_game(system), read_upload(data))
    except BridgeError as error:
        raise problem_from(error) from None


def file_info(data: bytes, name: str, positions: Positions) -> dict[str, Any]:
    return {"name": name, "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data),
            "is_log": positions.is_log, "module": positions.module_name,
            "module_version": positions.module_version}


def refuse_other_scenario(grant: TokenGrant, positions: Positions) -> None:
    """422 unless the file's maps and turn tracks fit the recorded game's scenario."""
    shown = positions.scenario_candidates()
    if grant.scenario not in shown:
        raise Problem(422, "Saved game of another scenario",
                      f"This game plays scenario {grant.scenario!r}; the saved game's maps and turn tracks "
                      f"fit {' or '.join(shown) or 'no scenario of this system'}.", kind="scenario-mismatch")


def compute_from_file(spec: CheckSpec, positions: Positions, given: dict, where: Pointed,
                      scenario: str | None, side: str | None, game_turn: str | None
                      ) -> tuple[dict, BoardFill]:
    """A check's result from a saved game with the players' dice: (the response, the request built)."""
    try:
        fill = fill_request(spec, positions, where, given, scenario=scenario, side=side, game_turn=game_turn)
    except BridgeError as error:
        raise problem_from(error) from None
    req = rulings.validate(spec.compute_model, fill.request)
    fill.request = req.model_dump(mode="json")
    return rulings.compute(spec, req), fill


def odds_from_file(spec: CheckSpec, positions: Positions, given: dict, where: Pointed, scenario: str | None,
                   side: str | None, game_turn: str | None, grant: TokenGrant | None = None
                   ) -> tuple[dict, BoardFill]:
    """The chances of a check's situation read from a saved game, before any die: (the odds, the request
    built). In a recorded game the request is bound as its rolls are (`rulings.bind`); nothing is recorded."""
    if grant is not None:
        refuse_other_scenario(grant, positions)
        scenario, side = grant.scenario, canonical_side(grant.role)
    try:
        fill = fill_request(spec, positions, where, given, scenario=scenario, side=side, game_turn=game_turn)
    except BridgeError as error:
        raise problem_from(error) from None
    body = rulings.bind(spec, grant, fill.request) if grant is not None else fill.request
    req = rulings.validate(spec.request, body)
    fill.request = req.model_dump(mode="json")
    answer = chances(spec, req)
    if grant is not None:
        rulings.refuse_a_peek(grant, spec.name, fill.request)
        fill.request = as_seen_by(grant.system, spec.name, fill.request, grant.role)
        repeat = asked_before(grant, spec, req)
        if repeat is not None:  # asked already: said before the roll, as the game's chances say it
            answer["asked_before"] = repeat.to_json()
    return answer, fill


def record_from_file(grant: TokenGrant, spec: CheckSpec, positions: Positions, given: dict,
                     where: Pointed, game_turn: str | None, request_id: str | None = None,
                     warn_repeat: bool = False, again: str | None = None) -> tuple[rulings.Recorded, BoardFill]:
    """The same in a recorded game: the server rolls, the ledger records the request built from
    the file; the token's side asks. (the record, the request built). With `warn_repeat` (the
    pages), a situation already asked as a record that rolled dice is refused (409 `asked-before`,
    naming the record) unless `again` is that record's number: the player was warned and rolls again."""
    refuse_other_scenario(grant, positions)
    given = {**given, **({"request_id": request_id} if request_id else {})}
    try:
        fill = fill_request(spec, positions, where, given, scenario=grant.scenario,
                            side=canonical_side(grant.role), game_turn=game_turn)
    except BridgeError as error:
        raise problem_from(error) from None
    req = rulings.validate(spec.game_model, rulings.bind(spec, grant, fill.request))
    fill.request = recorded_request(req)
    if warn_repeat:
        repeat = asked_before(grant, spec, req)
        if repeat is not None and repeat.rolled and again != str(repeat.record):
            raise Problem(409, "Asked already", repeat.text, kind="asked-before", record=repeat.record)
    recorded = rulings.record(grant, spec, req)
    seen = recorded.response(grant.role).get("as_you_see_it")
    if seen is not None:  # fog of war: the request built shows the asker only what his side may see
        fill.request = seen["request"]
    return recorded, fill


def supply_of_file(positions: Positions, scenario: str | None, side: str | None,
                   game_turn: str | None) -> SupplyRun:
    try:
        return run_supply(positions.game, positions, scenario, side, game_turn=game_turn)
    except BridgeError as error:
        raise problem_from(error) from None


def supply_json(run: SupplyRun, positions: Positions) -> dict[str, Any]:
    """A supply answer: the reports plus what the bridge could not place or identify."""
    return {**run.to_json(),
            "unidentified": [p.to_json() for p in positions.unidentified],
            "by_hex": positions.by_hex()}


def record_supply(grant: TokenGrant, positions: Positions, data: bytes, name: str, side: str | None,
                  game_turn: str | None, request_id: str | None) -> rulings.Recorded:
    """A saved game's supply, recorded: the positions read from the file, the file's hash and the
    reports go into the ledger like a check without dice."""
    refuse_other_scenario(grant, positions)
    run = supply_of_file(positions, grant.scenario, side, game_turn)
    request_json = {
        "side": canonical_side(side or ""),
        "scenario": grant.scenario,
        "game_turn": run.turn.turn,
        "savedgame": {"name": name, "sha256": hashlib.sha256(data).hexdigest()},
        "positions": [vars(u) for u in positions.unit_ats()],
    }
    result = {"outcome": supply_json(run, positions), "steps": [], "warnings": run.warnings, "dice_used": []}
    return rulings.record_result(grant, f"{grant.system}.{SUPPLY_CHECK}", request_json, request_id, result)
