"""Server-rendered pages for humans (Jinja templates in `templates/`; a little script,
`static/forms.js`, adds form rows and narrows step choices, and everything works without it).

- `/`                        the systems and their checks; a form to create a recorded game
- `/systems/<system>`        one form per check, grouped (die rolls, calculations), each folded
                             under its heading; compute mode: enter the situation and the dice
- `/systems/<system>/<check>` GET: the same page with that check unfolded (links to a check);
                             POST: resolve the form and show the ruling or the problems
- `/systems/<system>/<check>/odds`  POST (the form's "Chances" button): the chances of the form's
                             situation before the roll, a bar per outcome (`adjudicator.odds`)
- `/games/...`                a recorded game's pages: `adjudicator.web.game_pages`
- `/api/v1/docs`             the API reference, rendered from the OpenAPI document

Forms are generated from each check's pydantic schema by `adjudicator.words.forms`, so a new check
gets its form for free. Stable element ids (`section-<check>`, `check-<check>`, `<check>-<field>`,
`field-<check>-<field>`, `answer-<check>`, `result-<check>`, `outcome-<check>`, `steps-<check>`,
`dice-<check>`, `errors-<check>`, `chances-<check>`, `odds-<check>`, `ledger`, `record-<seq>`) are
there for browser tests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from flask import Blueprint, abort, render_template, request, send_from_directory
from markupsafe import Markup, escape

from adjudicator import rulings
from adjudicator.api.auth import rate_limit_key
from adjudicator.checks import CheckSpec, checks_for, get_check
from adjudicator.config import Config
from adjudicator.web.csrf import guard
from adjudicator.words.forms import (
    FieldError, FormField, UnitChoice, example_dice, form_fields, initial_values, read_form, read_situation,
    rows_of, shown, submitted_values, unit_choices, unit_index, units_json,
)
from adjudicator.problems import Problem
from adjudicator.odds import odds
from adjudicator.words.results import register_result_filters
from adjudicator.services import services
from adjudicator.systems import all_systems, system_info
from adjudicator.words.wording import players_words

from adjudicator.api.ratelimits import odds_limited

if TYPE_CHECKING:  # for the annotation only (ratelimits imports api.auth)
    from adjudicator.api.ratelimits import RouteLimiter


@dataclass
class Submission:
    """What happened to one submitted form: the result, or the problems found."""

    check: str
    result: dict | None = None
    errors: list[FieldError] = field(default_factory=list)
    request_json: str = ""  # the request the form made, as the API takes it (to share or script)
    odds: dict | None = None  # the chances of the situation (the "Chances" button), instead of a result

    def errors_for(self, name: str) -> list[str]:
        return [e.next_to_field for e in self.errors if e.field == name]


def _run_form(spec: CheckSpec, form) -> Submission:
    """A calculation from a submitted form, as the API computes it (`rulings.compute`)."""
    req, errors = read_form(spec, form)
    if req is None:
        return Submission(spec.name, errors=errors)
    try:
        result = rulings.compute(spec, req)
    except Problem as problem:
        if problem.kind == "dice":
            die = problem.extra["errors"][0]["pointer"].rpartition("/")[2]
            inside = f"die {int(die) + 1}" if die.isdigit() else ""
            where = f"Dice › {inside}" if inside else "Dice"
            return Submission(spec.name, errors=[FieldError("dice", where, problem.detail or "", inside)])
        return Submission(spec.name, errors=[FieldError(None, "The rules", problem.detail or problem.title)])
    request_json = json.dumps(req.model_dump(mode="json"), indent=1, ensure_ascii=False)
    return Submission(spec.name, result=result, request_json=request_json)


def _odds_form(spec: CheckSpec, form) -> Submission:
    """The chances of the form's situation; its dice box is not read."""
    req, errors = read_situation(spec, form)
    if req is None:
        return Submission(spec.name, errors=errors)
    try:
        answer = odds(spec, req)
    except ValueError as error:  # a situation the rules refuse, as a ruling would be refused
        return Submission(spec.name, errors=[FieldError(None, "The rules", str(error))])
    request_json = json.dumps(req.model_dump(mode="json"), indent=1, ensure_ascii=False)
    return Submission(spec.name, odds=answer, request_json=request_json)


@dataclass(frozen=True)
class CheckGroup:
    """Checks shown together on a system page."""

    id: str
    title: str
    blurb: str
    checks: list[tuple[CheckSpec, list[FormField]]]


def check_groups(system: str) -> list[CheckGroup]:
    """Die rolls first (what a PBEM player most often verifies), then the calculations."""
    checks = [(spec, form_fields(spec)) for spec in checks_for(system)]
    groups = [
        CheckGroup("rolls", "Die rolls", "Checks that use dice: enter the dice that were rolled.",
                   [c for c in checks if c[0].random]),
        CheckGroup("calculations", "Calculations", "Checks without dice: supply, movement, victory "
                   "and the like, worked out from the situation.", [c for c in checks if not c[0].random]),
    ]
    return [g for g in groups if g.checks]


def make_pages_blueprint(config: Config, limiter: RouteLimiter) -> Blueprint:
    """The pages. Their form posts share the API's per-address limits (game creation too)."""
    bp = Blueprint("pages", __name__, template_folder="templates", static_folder="static",
                   static_url_path="/static/adjudicator")
    register_result_filters(bp)
    register_form_globals(bp)
    bp.add_app_template_filter(inline_code, "inline_code")
    bp.add_app_template_filter(players_words, "players_words")
    anonymous = limiter.shared_limit(config.rate_limit_anonymous, scope="anonymous", key_func=rate_limit_key)
    create = limiter.shared_limit(config.rate_limit_create_game, scope="create-game", key_func=rate_limit_key)

    @bp.get("/")
    def home():
        systems = [(info, checks_for(info.id)) for info in all_systems()]
        return render_template("home.html", systems=systems, modules=built_modules(config))

    @bp.get("/modules/<name>")
    def module_file(name: str):
        """A built VASSAL module, for players to download (only files the listing offers)."""
        if name not in {m.name for m in built_modules(config)}:
            abort(404)
        return send_from_directory(Path(config.modules_dir).resolve(), name, as_attachment=True,
                                   mimetype="application/zip")

    def _system_page(system: str, open_check: str | None = None, submission: Submission | None = None,
                     form=None):
        info = system_info(system)
        if info is None:
            abort(404)
        units = unit_choices(system)
        return render_template(
            "system.html", info=info, groups=check_groups(system), open_check=open_check,
            submission=submission, form=form or {}, example_dice=example_dice, system=system,
            units=units, unit_index=unit_index(units),
        )

    @bp.get("/systems/<system>")
    def system_page(system: str):
        return _system_page(system)

    @bp.get("/systems/<system>/<check>")
    def system_check_form(system: str, check: str):
        """The system page with one check's form open (a link to a check)."""
        if get_check(system, check) is None:
            abort(404)
        return _system_page(system, open_check=check)

    @bp.post("/systems/<system>/<check>")
    @anonymous
    def system_check(system: str, check: str):
        spec = get_check(system, check)
        if spec is None:
            abort(404)
        submission = _run_form(spec, request.form)
        status = 200 if submission.result is not None else 422
        return _system_page(system, check, submission, request.form), status

    @bp.post("/systems/<system>/<check>/odds")
    @anonymous
    @odds_limited(config, limiter)
    def system_check_odds(system: str, check: str):
        spec = get_check(system, check)
        if spec is None or not spec.random:
            abort(404)
        submission = _odds_form(spec, request.form)
        status = 200 if submission.odds is not None else 422
        return _system_page(system, check, submission, request.form), status

    @bp.post("/games")
    @create
    @guard
    def create_game_page():
        system, _, scenario = request.form.get("system_scenario", "").partition("/")
        info = system_info(system)
        if info is None or info.scenario(scenario) is None:
            return render_template("home.html", systems=[(i, checks_for(i.id)) for i in all_systems()],
                                   create_error=f"Unknown system or scenario: {system}/{scenario}"), 422
        created = rulings.create_game(system, scenario, info.sides)
        page = render_template("game_created.html", game=created, info=info)
        return page, 201, {"Cache-Control": "no-store"}  # the tokens are shown only here

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
        groups: dict[str, list[dict]] = {}
        for number, operation in enumerate(operations, start=1):
            operation["anchor"] = f"op-{number}"
            groups.setdefault((operation["tags"] or ["other"])[0], []).append(operation)
        return render_template("docs.html", groups=groups, info=document["info"])

    return bp


@dataclass(frozen=True)
class BuiltModule:
    name: str
    size: int
    built: str  # UTC date and time of the file


def built_modules(config: Config) -> list[BuiltModule]:
    """The .vmod files in the modules folder, newest first."""
    folder = Path(config.modules_dir) if config.modules_dir else None
    if folder is None or not folder.is_dir():
        return []
    found = []
    for path in folder.glob("*.vmod"):
        if path.is_file() and not path.is_symlink():
            stat = path.stat()
            built = datetime.fromtimestamp(stat.st_mtime, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
            found.append(BuiltModule(path.name, stat.st_size, built))
    return sorted(found, key=lambda m: m.name)


def step_label(step: str, unit: UnitChoice | None) -> str:
    """A step as a choice shows it: "depleted (0-1-4)", "full strength" for ''."""
    printed = next((text for name, text, _ in unit.steps if name == step), "") if unit else ""
    name = step or "full strength"
    return f"{name} ({printed})" if printed and printed != step else name


def register_form_globals(bp: Blueprint) -> None:
    """What templates/_form.html calls (any page showing a check form)."""
    for function in (initial_values, rows_of, shown, step_label, submitted_values, units_json):
        bp.add_app_template_global(function)


def inline_code(text: str) -> Markup:
    """Text whose `backticks` (the API descriptions use Markdown's) show as code, escaped."""
    parts = str(escape(text or "")).split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: leave the text as it is
        return escape(text or "")
    return Markup("".join(f"<code>{part}</code>" if i % 2 else part for i, part in enumerate(parts)))


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
