"""Game mode: create a game, roll recorded checks, read the ledger, close (reveal the seed)."""

from __future__ import annotations

from flask import Response, jsonify
from pydantic import BaseModel

from adjudicator.api.auth import require_grant
from adjudicator.api.body import parse_json_body, refuse_oversized_body
from adjudicator.api.schemas import CreateGameRequest
from adjudicator.api.systems import situation_problem, with_transcript
from adjudicator.checks import (
    CheckSpec,
    canonical_side,
    checks_for,
    get_check,
    narrow_request,
    run_check,
    side_label,
)
from adjudicator.dice import LedgerDice
from adjudicator.ledger import Record, ledger_document
from adjudicator.problems import Problem
from adjudicator.services import services
from adjudicator.storage import GameClosed, GameNotFound, IdempotencyConflict, TokenGrant
from adjudicator.systems import system_info, system_label


def create_game():
    req = parse_json_body(CreateGameRequest)
    info = system_info(req.system)
    if info.scenario(req.scenario) is None:
        known = ", ".join(s.id for s in info.scenarios)
        raise Problem(
            422,
            "The request body is invalid",
            f"/scenario: {info.name} has no scenario {req.scenario!r} (known: {known})",
            kind="validation",
            errors=[{"pointer": "/scenario", "detail": f"unknown scenario; known: {known}", "code": "scenario"}],
        )
    svc = services()
    created = svc.store.create_game(req.system, req.scenario, info.sides, svc.signing_key)
    response = jsonify(
        {
            "game_id": created.game_id,
            "system": created.system,
            "scenario": created.scenario,
            "tokens": created.tokens,
            "seed_commitment": created.seed_commitment,
            "genesis": created.genesis.to_json(),
        }
    )
    response.status_code = 201
    response.headers["Location"] = f"/api/v1/games/{created.game_id}/ledger"
    response.headers["Cache-Control"] = "no-store"
    return response


class _Refused(Exception):
    """Carries a rules function's refusal out of the ledger transaction (which rolls back)."""

    def __init__(self, error: ValueError):
        super().__init__(str(error))
        self.error = error


def game_check(game_id: str, check: str):
    grant = require_grant(game_id, write=True)
    spec = find_game_check(grant, check)
    req = parse_json_body(spec.game_model, prepare=lambda body: bound_to_game(spec, grant, body))
    record, replayed = record_game_check(game_id, grant, spec, req)
    return recorded_response(game_check_response(record), replayed)


def record_game_check(game_id: str, grant: TokenGrant, spec: CheckSpec, req: BaseModel) -> tuple[Record, bool]:
    """Roll a validated game-mode request into the game's ledger: (record, replayed).

    The asking side must be one that acts in the check (403 otherwise, nothing recorded)."""
    side = canonical_side(grant.role)
    own = narrow_request(spec, req)  # once: the actor and the rules function both read it
    refuse_other_side(spec, own, side)
    request_json = req.model_dump(mode="json", exclude={"request_id"})

    def run(seed: bytes, seq: int) -> dict:
        try:
            return run_check(spec, own, LedgerDice(seed, seq)).to_json()
        except ValueError as error:  # SituationError, or a rules module's own ValueError
            raise _Refused(error) from error

    svc = services()
    try:
        return svc.store.append_check(
            game_id, side, spec.key, request_json, req.request_id, svc.signing_key, run
        )
    except GameNotFound:
        raise Problem(404, "Not Found", "No such game.", kind="unknown-game") from None
    except GameClosed:
        raise Problem(409, "Conflict", "The game is closed; no more rolls.", kind="game-closed") from None
    except _Refused as refused:
        raise situation_problem(refused.error) from None
    except IdempotencyConflict:
        raise Problem(
            409, "Conflict",
            f"request_id {req.request_id!r} was already used for a different request in this game.",
            kind="idempotency-conflict",
        ) from None


def recorded_response(body: dict, replayed: bool) -> Response:
    """201 for a new record, 200 with `Idempotent-Replayed` for a repeated request_id."""
    response = jsonify(with_transcript(body))
    response.status_code = 200 if replayed else 201
    if replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return response


def find_game_check(grant: TokenGrant, check: str) -> CheckSpec:
    """The check a recorded game asks for: one of its system's, or 404 naming the game's checks."""
    spec = get_check(grant.system, check)
    if spec is None:
        known = ", ".join(game_checks(grant))
        raise Problem(404, "Not Found", f"{system_label(grant.system)} has no check {check!r}. This game's "
                      f"checks: {known}.", kind="unknown-check", checks=game_checks(grant))
    return spec


def game_checks(grant: TokenGrant) -> list[str]:
    """The checks of a recorded game's system that its scenario has."""
    return [s.name for s in checks_for(grant.system) if not s.scenarios or grant.scenario in s.scenarios]


def bound_to_game(spec: CheckSpec, grant: TokenGrant, body: dict) -> dict:
    """The request as the recorded game asks it: its scenario, and the asking side by default.

    The check must be one the game's scenario has. A scenario field may be left out (the game's
    own is used) or must match; a field naming the asker's side (board role `side`) is the
    token's side when left out.
    """
    if spec.scenarios and grant.scenario not in spec.scenarios:
        raise Problem(
            422, "The check is not part of this game's scenario",
            f"{spec.key} belongs to scenario {' or '.join(spec.scenarios)}; this game plays "
            f"{grant.scenario!r}. This game's checks: {', '.join(game_checks(grant))}.",
            kind="scenario-mismatch", checks=game_checks(grant),
        )
    body = dict(body)
    scenario_field = spec.top_level_field("scenario")
    if scenario_field:
        given = body.setdefault(scenario_field, grant.scenario)
        if given != grant.scenario:
            detail = (f"This game plays scenario {grant.scenario!r}, not {given!r}: leave {scenario_field} out "
                      f"or send {grant.scenario!r}.")
            raise Problem(
                422, "The request is for another scenario", f"/{scenario_field}: {detail}",
                kind="scenario-mismatch",
                errors=[{"pointer": f"/{scenario_field}", "detail": detail, "code": "scenario-mismatch"}],
            )
    side_field = spec.top_level_field("side")
    if side_field:
        body.setdefault(side_field, canonical_side(grant.role))
    return body


def refuse_other_side(spec: CheckSpec, req: BaseModel, side: str) -> None:
    """403 unless `side` may act in this check (the rules package's `actor`); nothing is recorded."""
    try:
        allowed = spec.actor.sides(narrow_request(spec, req))
    except ValueError as error:
        raise situation_problem(error) from None
    if allowed is None or side in allowed:
        return
    actor = spec.actor
    who = f"who acts: {actor.description}; rule {actor.rule}"
    if allowed:
        names = " or the ".join(side_label(s) for s in sorted(allowed))
        detail = (f"Only the {names} player may roll {spec.key} here ({who}). This token is the "
                  f"{side_label(side)} player's. Nothing was recorded.")
    else:
        detail = (f"No side may ask for {spec.key} alone here ({who}): the units named belong to both "
                  "sides. Ask once per side. Nothing was recorded.")
    raise Problem(403, "Not your roll", detail, kind="not-your-roll", may_roll=sorted(allowed),
                  actor=actor.to_json())


def game_check_response(record: Record) -> dict:
    """A game-mode result, built only from the stored record so a replay is identical."""
    body = record.body
    system, _, name = body["check"].partition(".")
    spec = get_check(system, name)
    return {
        "system": system,
        "check": name,
        "rule": spec.rule if spec else "",
        **body["result"],
        "game_id": record.game_id,
        "seq": record.seq,
        "prev_hash": record.prev_hash,
        "hash": record.hash,
        "request_id": body["request_id"],
        "side": body["side"],
        "time": body["time"],
        "receipt": record.receipt,
    }


def ledger(game_id: str):
    require_grant(game_id, write=False)
    store = services().store
    try:
        document = ledger_document(store.game(game_id), store.records(game_id))
    except GameNotFound:
        raise Problem(404, "Not Found", "No such game.", kind="unknown-game") from None
    return jsonify(document)


def close_game(game_id: str):
    grant = require_grant(game_id, write=True)
    refuse_oversized_body()  # close takes no body; one over the limit is refused, not ignored
    svc = services()
    try:
        record, _ = svc.store.close_game(game_id, grant.role, svc.signing_key)
    except GameNotFound:
        raise Problem(404, "Not Found", "No such game.", kind="unknown-game") from None
    result = record.body["result"]
    return jsonify(
        {
            "game_id": game_id,
            "seed": result["seed"],
            "seed_commitment": result["seed_commitment"],
            "record": record.to_json(),
        }
    )


def well_known_keys():
    keys = [info.to_json() for info in services().published_keys]
    response: Response = jsonify({"keys": keys})
    response.headers["Cache-Control"] = "public, max-age=300"
    return response
