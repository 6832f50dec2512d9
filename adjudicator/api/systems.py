"""`GET /systems` and compute mode `POST /systems/<system>/<check>` (stateless)."""

from __future__ import annotations

from flask import jsonify, request

from adjudicator.api.body import parse_json_body
from adjudicator.checks import BOARD_ROLES, CheckSpec, DiceError, all_checks, get_check, run_check
from adjudicator.dice import SuppliedDice
from adjudicator.problems import Problem
from adjudicator.systems import all_systems, system_info
from adjudicator.transcript import chat_lines


def systems_document() -> dict:
    """The systems, their scenarios and checks (with request schemas). Built once per app."""
    checks = all_checks()
    out = []
    for info in all_systems():
        out.append(
            {
                "id": info.id,
                "name": info.name,
                "sides": list(info.sides),
                "scenarios": [{"id": s.id, "name": s.name} for s in info.scenarios],
                "checks": [check_info(spec) for spec in checks if spec.system == info.id],
            }
        )
    return {"systems": out, "board_roles": dict(BOARD_ROLES)}


def check_info(spec: CheckSpec) -> dict:
    return {
        "name": spec.name,
        "key": spec.key,
        "summary": spec.summary,
        "rule": spec.rule,
        "random": spec.random,
        "scenarios": list(spec.scenarios),
        "actor": spec.actor.to_json(),
        "board": {pointer: role for pointer, role in spec.board},
        "example": spec.example,
        "compute_url": f"/api/v1/systems/{spec.system}/{spec.name}",
        "request_schema": spec.compute_model.model_json_schema(),
    }


def find_check(system: str, check: str) -> CheckSpec:
    if system_info(system) is None:
        raise Problem(404, "Not Found", f"Unknown game system {system!r}.", kind="unknown-system")
    spec = get_check(system, check)
    if spec is None:
        raise Problem(404, "Not Found", f"System {system!r} has no check {check!r}.", kind="unknown-check")
    return spec


def compute(system: str, check: str):
    spec = find_check(system, check)
    req = parse_json_body(spec.compute_model)
    return jsonify(with_transcript(compute_response(spec, compute_result(spec, req))))


def compute_result(spec: CheckSpec, req) -> dict:
    """Run a validated compute-mode request with its own dice; 422 problems for dice that do not
    fit and situations the rules refuse."""
    dice = SuppliedDice(getattr(req, "dice", []))
    try:
        result = run_check(spec, req, dice)
        dice.finish()
    except DiceError as error:
        pointer = "/dice" if error.index is None else f"/dice/{error.index}"
        raise Problem(
            422,
            "The supplied dice do not fit this check",
            str(error),
            kind="dice",
            errors=[{"pointer": pointer, "detail": str(error), "code": "dice"}],
        ) from None
    except ValueError as error:  # SituationError, or a rules module's own ValueError
        raise situation_problem(error) from None
    return result.to_json()


def situation_problem(error: ValueError) -> Problem:
    return Problem(422, "The situation is not possible by the rules", str(error), kind="situation")


def compute_response(spec: CheckSpec, result: dict) -> dict:
    return {"system": spec.system, "check": spec.name, "rule": spec.rule, **result}


def wants_transcript() -> bool:
    """`?transcript=1`: the client (the VASSAL extension, a page) wants the ruling as chat lines."""
    if not request.environ.get("QUERY_STRING"):  # most calls: no need to parse the arguments
        return False
    return request.args.get("transcript", "").lower() in ("1", "true", "yes")


def with_transcript(body: dict) -> dict:
    """`body` plus `transcript` (chat lines, adjudicator.transcript) when the client asked."""
    if not wants_transcript():
        return body
    info = system_info(body["system"])
    verify_url = ""
    if body.get("game_id") and body.get("seq") is not None:
        verify_url = f"{request.host_url.rstrip('/')}/games/{body['game_id']}#record-{body['seq']}"
    return {**body, "transcript": chat_lines(body, system_name=info.name if info else "", verify_url=verify_url)}
