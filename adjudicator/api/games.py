"""Game mode: create a game, roll recorded checks, read the ledger, close (reveal the seed)."""

from __future__ import annotations

from flask import Response, jsonify

from adjudicator.api.auth import require_grant
from adjudicator.api.body import parse_json_body, refuse_oversized_body
from adjudicator.api.schemas import CreateGameRequest
from adjudicator.api.systems import situation_problem, with_transcript
from adjudicator.checks import get_check, run_check
from adjudicator.dice import LedgerDice
from adjudicator.ledger import Record, ledger_document
from adjudicator.problems import Problem
from adjudicator.services import services
from adjudicator.storage import GameClosed, GameNotFound, IdempotencyConflict
from adjudicator.systems import system_info


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
    spec = get_check(grant.system, check)
    if spec is None:
        raise Problem(
            404, "Not Found", f"This game's system ({grant.system}) has no check {check!r}.",
            kind="unknown-check",
        )
    req = parse_json_body(spec.game_model)
    request_json = req.model_dump(mode="json", exclude={"request_id"})

    def run(seed: bytes, seq: int) -> dict:
        try:
            return run_check(spec, req, LedgerDice(seed, seq)).to_json()
        except ValueError as error:  # SituationError, or a rules module's own ValueError
            raise _Refused(error) from error

    svc = services()
    try:
        record, replayed = svc.store.append_check(
            game_id, grant.role, spec.key, request_json, req.request_id, svc.signing_key, run
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
    response = jsonify(with_transcript(game_check_response(record)))
    response.status_code = 200 if replayed else 201
    if replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return response


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
