"""The OpenAPI 3.1 document, generated from the pydantic models and the check registry.

Built once per app in `create_app`. Pydantic v2 emits JSON Schema 2020-12, which is the schema
dialect of OpenAPI 3.1, so the models' schemas go into `components.schemas` unchanged. Every
registered check gets its own compute-mode path with its own request schema; game-mode paths
are per check name (a name used by several systems accepts any of their schemas).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from adjudicator.api import schemas as s
from adjudicator.checks import CheckSpec, all_checks
from adjudicator.systems import all_systems

REF = "#/components/schemas/{model}"
PROBLEM_RESPONSE = {"$ref": "#/components/responses/Problem"}


def _json(ref: dict) -> dict:
    return {"content": {"application/json": {"schema": ref}}}


def _body(ref: dict, required: bool = True) -> dict:
    return {"required": required, "content": {"application/json": {"schema": ref}}}


def _op(summary: str, responses: dict, *, body=None, tags=(), secured=False, params=(), description=None) -> dict:
    operation: dict[str, Any] = {"summary": summary, "tags": list(tags), "responses": dict(responses)}
    if description:
        operation["description"] = description
    if body is not None:
        operation["requestBody"] = body
    if params:
        operation["parameters"] = list(params)
    if secured:
        operation["security"] = [{"bearer": []}]
    operation["responses"]["default"] = PROBLEM_RESPONSE
    return operation


GAME_ID_PARAM = {
    "name": "game_id",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "maxLength": 32},
}


TRANSCRIPT_PARAM = {
    "name": "transcript",
    "in": "query",
    "required": False,
    "description": "1: add `transcript`, the ruling as tagged chat lines (what the VASSAL extension "
    "posts and a written-back log holds; docs/api.md, \"Transcript\"), and `stand_ins`.",
    "schema": {"type": "string", "enum": ["0", "1", "true", "false", "yes", "no"]},
}

CHANGES_PARAM = {
    "name": "changes",
    "in": "query",
    "required": False,
    "description": "1 (with transcript=1): add `piece_changes`, the units the outcome names a new state of.",
    "schema": {"type": "string", "enum": ["0", "1", "true", "false", "yes", "no"]},
}


def create_game_schema() -> dict[str, Any]:
    options = []
    for info in all_systems():
        options.append(
            {
                "type": "object",
                "title": f"{info.name}",
                "properties": {
                    "system": {"const": info.id},
                    "scenario": {"enum": [scenario.id for scenario in info.scenarios]},
                },
                "required": ["system", "scenario"],
                "additionalProperties": False,
            }
        )
    return {"title": "CreateGameRequest", "oneOf": options}


def odds_paths(checks: list[CheckSpec], ref) -> dict[str, dict]:
    """The chances of every check with dice, in compute mode and in a recorded game (adjudicator.api.odds)."""
    paths: dict[str, dict] = {}
    answer = {"200": {"description": "Every distinct outcome with its probability; nothing is rolled or stored",
                      **_json(ref(s.OddsResponse))}}
    by_name: dict[str, list[CheckSpec]] = defaultdict(list)
    for spec in (c for c in checks if c.random):
        by_name[spec.name].append(spec)
        paths[f"/api/v1/systems/{spec.system}/{spec.name}/odds"] = {"post": _op(
            f"Chances of '{spec.name}' before the roll [{spec.system}, rule {spec.rule}]", answer,
            body=_body(ref(spec.request, "validation")), tags=[f"odds: {spec.system}"],
            description="The check's request without `dice`: the exact distribution of its outcomes.")}
    for name, specs in sorted(by_name.items()):
        bodies = [ref(spec.request, "validation") for spec in specs]
        paths[f"/api/v1/games/{{game_id}}/{name}/odds"] = {"post": _op(
            f"Chances of '{name}' in a game ({', '.join(spec.system for spec in specs)}); side token, nothing "
            "recorded", answer, body=_body(bodies[0] if len(bodies) == 1 else {"anyOf": bodies}),
            tags=["games"], secured=True, params=[GAME_ID_PARAM],
            description="Bound as the game binds a roll: its scenario, the asking side, the ledger's facts.")}
    return paths


def service_paths(ref: Callable[..., dict]) -> dict[str, dict]:
    """The service's own routes: systems, games and their records, verification, status."""
    return {
        "/ping": {"get": _op("Liveness check", {"200": _json({"type": "object"})}, tags=["service"])},
        "/api/v1/systems": {
            "get": _op(
                "Game systems, their scenarios and checks (with request schemas)",
                {"200": {"description": "The systems", **_json(ref(s.SystemsResponse))}},
                tags=["systems"],
            )
        },
        "/api/v1/games": {
            "post": _op(
                "Create a recorded game",
                {"201": {"description": "Created; tokens are shown only here", **_json(ref(s.CreateGameResponse))}},
                body=_body(ref(s.CreateGameRequest, "validation")),
                tags=["games"],
                description="Returns the game id, one bearer token per side plus an observer "
                "token, and the SHA-256 commitment to the game's secret seed.",
            )
        },
        "/api/v1/games/{game_id}/ledger": {
            "get": _op(
                "The game's hash-chained ledger (any token of the game)",
                {"200": {"description": "The ledger", **_json(ref(s.LedgerDocument))}},
                tags=["games"], secured=True, params=[GAME_ID_PARAM],
            )
        },
        "/api/v1/games/{game_id}/dice": {
            "get": _op(
                "The game's dice record: every server roll, and each die type tested against a fair die "
                "(any token of the game)",
                {"200": {"description": "The dice record", **_json(ref(s.DiceResponse))}},
                tags=["games"], secured=True, params=[GAME_ID_PARAM],
            )
        },
        "/api/v1/games/{game_id}/board-changes": {
            "get": _op(
                "The changes the game's rulings order to this token's side's pieces that only it can make "
                "(its pieces hidden from the side that asked): what the VASSAL extension applies for their owner",
                {"200": {"description": "The rulings and their changes", **_json(ref(s.BoardChangesResponse))}},
                tags=["games"], secured=True, params=[GAME_ID_PARAM],
            )
        },
        "/api/v1/games/{game_id}/rulings": {
            "get": _op(
                "The game's rulings after record `since`, oldest first, each its check's answer as this token's "
                "side may see it (any token of the game): what a player who was not there catches up from",
                {"200": {"description": "The rulings", **_json(ref(s.RulingsResponse))}},
                tags=["games"], secured=True, params=[GAME_ID_PARAM, TRANSCRIPT_PARAM, CHANGES_PARAM,
                                                      {"name": "since", "in": "query", "required": False,
                                                       "description": "only the rulings after this record (0: all)",
                                                       "schema": {"type": "integer", "minimum": 0}},
                                                      {"name": "limit", "in": "query", "required": False,
                                                       "description": "at most this many (1 to 100, the default)",
                                                       "schema": {"type": "integer", "minimum": 1, "maximum": 100}}],
            )
        },
        "/api/v1/games/{game_id}/close": {
            "post": _op(
                "Close the game and reveal its seed (side token)",
                {"200": {"description": "Closed", **_json(ref(s.CloseResponse))}},
                tags=["games"], secured=True, params=[GAME_ID_PARAM],
            )
        },
        "/api/v1/verify": {
            "post": _op(
                "Verify a receipt or a whole ledger",
                {"200": {"description": "Verification report (ok false = failed)", **_json(ref(s.VerifyResponse))}},
                body=_body(ref(s.VerifyRequest, "validation")),
                tags=["verification"],
            )
        },
        "/.well-known/adjudicator-keys.json": {
            "get": _op(
                "Public keys that sign receipts (current and rotated)",
                {"200": {"description": "The keys", **_json(ref(s.KeysDocument))}},
                tags=["verification"],
            )
        },
        "/api/v1/status": {
            "get": _op(
                "The game data served: where from, read when, and the last reload (SIGHUP) with its problems",
                {"200": {"description": "The status", **_json(ref(s.StatusResponse))}},
                tags=["service"],
                description="A reload whose data has problems is refused and the data read before is still "
                "served: `ok` is then false and `last_reload.problems` lists every problem as `file:line`.",
            )
        },
        "/api/v1/openapi.json": {
            "get": _op("This document", {"200": _json({"type": "object"})}, tags=["service"])
        },
    }


def check_paths(checks: list[CheckSpec], ref: Callable[..., dict]) -> dict[str, dict]:
    """Each check's route in compute mode (per system) and in a recorded game (per name)."""
    paths: dict[str, dict] = {}
    by_name: dict[str, list[CheckSpec]] = defaultdict(list)
    for spec in checks:
        by_name[spec.name].append(spec)
        paths[f"/api/v1/systems/{spec.system}/{spec.name}"] = {
            "post": _op(
                f"{spec.summary} [{spec.system}, rule {spec.rule}] (compute mode)",
                {"200": {"description": "The result; nothing is stored", **_json(ref(s.CheckResponse))}},
                body=_body(ref(spec.compute_model, "validation")),
                tags=[f"compute: {spec.system}"], params=[TRANSCRIPT_PARAM, CHANGES_PARAM],
                description="Supply the dice rolled elsewhere in `dice`, in the order the check "
                "uses them." if spec.random else None,
            )
        }
    for name, specs in sorted(by_name.items()):
        bodies = [ref(spec.game_model, "validation") for spec in specs]
        schema = bodies[0] if len(bodies) == 1 else {"anyOf": bodies}
        systems = ", ".join(spec.system for spec in specs)
        paths[f"/api/v1/games/{{game_id}}/{name}"] = {
            "post": _op(
                f"Roll and record '{name}' in a game ({systems}); side token",
                {
                    "201": {"description": "Rolled and recorded", **_json(ref(s.GameCheckResponse))},
                    "200": {"description": "request_id seen before: the recorded result", **_json(ref(s.GameCheckResponse))},
                },
                body=_body(schema),
                tags=["games"], secured=True, params=[GAME_ID_PARAM, TRANSCRIPT_PARAM, CHANGES_PARAM],
            )
        }
    return paths


def build_openapi(checks: list[CheckSpec] | None = None) -> dict[str, Any]:
    checks = all_checks() if checks is None else checks
    response_models: list[type[BaseModel]] = [
        s.CheckResponse,
        s.GameCheckResponse,
        s.CreateGameResponse,
        s.LedgerDocument,
        s.CloseResponse,
        s.DiceResponse,
        s.BoardChangesResponse,
        s.RulingsResponse,
        s.VerifyResponse,
        s.SystemsResponse,
        s.KeysDocument,
        s.ProblemDetails,
        s.OddsResponse,
        s.StatusResponse,
    ]
    request_models: list[type[BaseModel]] = [s.CreateGameRequest, s.VerifyRequest]
    for spec in checks:
        request_models += [spec.compute_model, spec.game_model] + ([spec.request] if spec.random else [])
    refs, definitions = models_json_schema(
        [(m, "validation") for m in request_models] + [(m, "serialization") for m in response_models],
        ref_template=REF,
    )

    def ref(model: type[BaseModel], mode: str = "serialization") -> dict:
        return refs[(model, mode)]

    paths = service_paths(ref)
    paths.update(check_paths(checks, ref))
    paths.update(odds_paths(checks, ref))

    # Which scenarios a system has is data, not something the pydantic model can say; state it
    # exactly here so that every schema-valid creation request is also accepted.
    definitions.setdefault("$defs", {})["CreateGameRequest"] = create_game_schema()

    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Korean War wargames adjudicator",
            "version": "1.0.0",
            "description": "Resolves die-roll checks of four Korean War board wargames by their "
            "rules, with rule citations; game mode records every roll in a hash-chained ledger "
            "with Ed25519 receipts and dice derived from a committed seed. See docs/api.md.",
        },
        "paths": paths,
        "components": {
            "schemas": definitions.get("$defs", {}),
            "responses": {
                "Problem": {
                    "description": "RFC 9457 problem details",
                    "content": {"application/problem+json": {"schema": ref(s.ProblemDetails)}},
                }
            },
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
