"""Server-rendered pages for humans (Jinja templates in `templates/`, no JavaScript build).

- `/`                      the systems and their checks; a form to create a recorded game
- `/systems/<system>`      one form per check (compute mode: enter the situation and the dice)
- `/games/<id>`            enter a token, see the game's ledger and each record's verification
- `/api/v1/docs`           the API reference, rendered from the OpenAPI document

Forms are generated from each check's pydantic schema, so a new check gets its form for free.
Stable element ids (`check-<name>`, `result-<name>`, `errors-<name>`, `ledger`, `record-<seq>`)
are there for browser tests.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, render_template, request
from flask_limiter import Limiter
from pydantic import ValidationError

from adjudicator.api.auth import rate_limit_key
from adjudicator.config import Config
from adjudicator.checks import CheckSpec, DiceError, checks_for, get_check, run_check
from adjudicator.dice import SuppliedDice
from adjudicator.ledger import ledger_document
from adjudicator.services import services
from adjudicator.storage import GameNotFound
from adjudicator.systems import all_systems, system_info
from adjudicator.verify import verify_ledger


@dataclass(frozen=True)
class FormField:
    """One input of a check form, derived from a JSON-schema property."""

    name: str
    label: str
    kind: str  # "number" | "checkbox" | "select" | "text"
    description: str
    required: bool
    default: Any = None
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    pattern: str | None = None
    max_length: int | None = None


def _non_null(schema: dict) -> dict:
    for option in schema.get("anyOf", []):
        if option.get("type") != "null":
            return option
    return schema


def form_fields(spec: CheckSpec) -> list[FormField]:
    schema = spec.request.model_json_schema()
    required = set(schema.get("required", []))
    fields = []
    for name, prop in schema.get("properties", {}).items():
        inner = _non_null(prop)
        if "enum" in inner:
            kind = "select"
        elif inner.get("type") == "integer":
            kind = "number"
        elif inner.get("type") == "boolean":
            kind = "checkbox"
        else:
            kind = "text"
        fields.append(
            FormField(
                name=name,
                label=prop.get("title", name.replace("_", " ").capitalize()),
                kind=kind,
                description=prop.get("description", ""),
                required=name in required,
                default=prop.get("default"),
                minimum=inner.get("minimum"),
                maximum=inner.get("maximum"),
                choices=tuple(inner.get("enum", ())),
                pattern=inner.get("pattern"),
                max_length=inner.get("maxLength"),
            )
        )
    return fields


def _form_values(spec: CheckSpec, form) -> dict[str, Any]:
    """Turn submitted form strings into the request dict; pydantic does the type checks."""
    values: dict[str, Any] = {}
    for field in form_fields(spec):
        if field.kind == "checkbox":
            values[field.name] = field.name in form
            continue
        raw = form.get(field.name, "").strip()
        if raw == "":
            if field.required:
                values[field.name] = None  # reported by validation as a wrong type
            continue
        values[field.name] = _int_or_text(raw) if field.kind == "number" else raw
    if spec.random:
        values["dice"] = [
            _int_or_text(part) for part in re.split(r"[\s,]+", form.get("dice", "").strip()) if part
        ]
    return values


def _int_or_text(text: str) -> int | str:
    """Form inputs arrive as text; numbers become ints, anything else is left for validation."""
    try:
        return int(text)
    except ValueError:
        return text


def _run_form(spec: CheckSpec, form) -> tuple[dict | None, list[str]]:
    values = _form_values(spec, form)
    try:
        req = spec.compute_model.model_validate(values)
    except ValidationError as error:
        return None, [
            f"{'.'.join(str(p) for p in item['loc']) or 'form'}: {item['msg']}"
            for item in error.errors(include_url=False)
        ]
    dice = SuppliedDice(getattr(req, "dice", []))
    try:
        result = run_check(spec, req, dice)
        dice.finish()
    except DiceError as error:
        return None, [f"dice: {error}"]
    except ValueError as error:  # SituationError, or a rules module's own ValueError
        return None, [str(error)]
    return result.to_json(), []


def make_pages_blueprint(config: Config, limiter: Limiter) -> Blueprint:
    """The pages. Their form posts share the API's per-address limits (game creation too)."""
    bp = Blueprint("pages", __name__, template_folder="templates", static_folder="static",
                   static_url_path="/static/adjudicator")
    anonymous = limiter.shared_limit(config.rate_limit_anonymous, scope="anonymous", key_func=rate_limit_key)
    create = limiter.shared_limit(config.rate_limit_create_game, scope="create-game", key_func=rate_limit_key)

    @bp.get("/")
    def home():
        systems = [(info, checks_for(info.id)) for info in all_systems()]
        return render_template("home.html", systems=systems)

    def _system_page(system: str, submitted: str | None = None, result=None, errors=(), form=None):
        info = system_info(system)
        if info is None:
            abort(404)
        checks = [(spec, form_fields(spec)) for spec in checks_for(system)]
        return render_template(
            "system.html", info=info, checks=checks, submitted=submitted,
            result=result, errors=list(errors), form=form or {},
        )

    @bp.get("/systems/<system>")
    def system_page(system: str):
        return _system_page(system)

    @bp.post("/systems/<system>/<check>")
    @anonymous
    def system_check(system: str, check: str):
        spec = get_check(system, check)
        if spec is None:
            abort(404)
        result, errors = _run_form(spec, request.form)
        status = 200 if result is not None else 422
        return _system_page(system, check, result, errors, request.form), status

    @bp.post("/games")
    @create
    def create_game_page():
        system, _, scenario = request.form.get("system_scenario", "").partition("/")
        info = system_info(system)
        if info is None or info.scenario(scenario) is None:
            return render_template("home.html", systems=[(i, checks_for(i.id)) for i in all_systems()],
                                   create_error=f"Unknown system or scenario: {system}/{scenario}"), 422
        svc = services()
        created = svc.store.create_game(system, scenario, info.sides, svc.signing_key)
        return render_template("game_created.html", game=created, info=info), 201

    @bp.get("/games/<game_id>")
    def game_login(game_id: str):
        return render_template("game_login.html", game_id=game_id)

    @bp.post("/games/<game_id>")
    @anonymous
    def game_page(game_id: str):
        svc = services()
        grant = svc.store.grant_for(request.form.get("token", "").strip())
        if grant is None or grant.game_id != game_id:
            return render_template("game_login.html", game_id=game_id,
                                   error="That is not a token of this game."), 403
        try:
            document = ledger_document(svc.store.game(game_id), svc.store.records(game_id))
        except GameNotFound:
            abort(404)
        report = verify_ledger(document, svc.verification_keys())
        return render_template("game.html", document=document, report=report, role=grant.role)

    @bp.get("/api/v1/docs")
    def api_docs():
        document = services().openapi
        operations = []
        for path, methods in document["paths"].items():
            for method, operation in methods.items():
                body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
                operations.append(
                    {
                        "method": method.upper(),
                        "path": path,
                        "summary": operation.get("summary", ""),
                        "description": operation.get("description", ""),
                        "tags": operation.get("tags", []),
                        "secured": bool(operation.get("security")),
                        "body": _resolve(body.get("schema"), document),
                        "responses": {
                            code: _resolve(
                                resp.get("content", {}).get("application/json", {}).get("schema"), document
                            )
                            for code, resp in operation["responses"].items()
                            if code != "default"
                        },
                    }
                )
        return render_template("docs.html", operations=operations, info=document["info"])

    return bp


def _resolve(schema: dict | None, document: dict) -> str | None:
    """Pretty JSON of a schema, with top-level $refs replaced by the referenced schema."""
    if not schema:
        return None

    def expand(node):
        if isinstance(node, dict) and "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            return {"title": name, **document["components"]["schemas"].get(name, {})}
        if isinstance(node, dict) and "anyOf" in node:
            return {"anyOf": [expand(option) for option in node["anyOf"]]}
        return node

    return json.dumps(expand(schema), indent=2)
