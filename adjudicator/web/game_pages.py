"""The pages of a recorded game: the ledger, rolling a check, a ruling, closing, checking a log.

    GET  /games/<id>                  the ledger with every receipt verified (or the token form)
    POST /games/<id>                  enter a token: remembered for this game (page_tokens)
    POST /games/<id>/logout           forget it
    GET  /games/<id>/checks/<check>   a check's form; the server rolls (a side's token)
    POST /games/<id>/checks/<check>   roll and record it, then go to the ruling's own page
    POST /games/<id>/checks/<check>/odds  the form's Chances button: to the GET of its situation
    GET  /games/<id>/checks/<check>/odds?<the form's fields>  the chances before the roll (nothing
                                      recorded), with the form to roll
    GET  /games/<id>/records/<seq>    one ruling: result, steps, receipt, its verification
    GET  /games/<id>/close            asks first; POST closes the game (reveals the seed)
    GET  /games/<id>/ledger.json      the ledger to keep and verify offline
    GET  /games/<id>/log-check        a log received from the opponent against the ledger (POST)

Every roll goes through `adjudicator.rulings`, the path the API takes: the same grant, the same
refusals, the same ledger. Every POST here is refused unless it comes from these pages themselves
(`adjudicator.web.csrf`). Every form that records carries a request id made when the form is shown, and
a recorded ruling answers with a redirect to its own page (post/redirect/get): a double click, a
refresh or the Back button shows the ruling already recorded, never a new roll.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for

from adjudicator import rulings
from adjudicator.web.boardview import file_boards, picks
from adjudicator.bridge.errors import BridgeError
from adjudicator.bridge.games import load_system_game
from adjudicator.bridge.positions import read_positions
from adjudicator.bridge.upload import MAX_UPLOAD_BYTES, read_upload
from adjudicator.chances import chances
from adjudicator.checks import CheckSpec, get_check, side_label
from adjudicator.config import Config
from adjudicator.web.csrf import FIELD as CSRF_FIELD
from adjudicator.web.csrf import guard
from adjudicator.fog import HIDDEN, Part, reveal
from adjudicator.words.forms import (
    FieldError, FormField, form_fields, form_request, submitted_values, unit_choices, validate_form,
)
from adjudicator.ledger.records import GAME_CLOSED, GAME_CREATED
from adjudicator.logs.check import check_log_of_game
from adjudicator.web.page_tokens import forget, game_path, page_grant, page_token, remember
from adjudicator.bridge.memo import Memo
from adjudicator.problems import Problem
from adjudicator.api.ratelimits import RouteLimiter, pages_limit
from adjudicator.services import services
from adjudicator.ledger.storage import OBSERVER, GameNotFound, TokenGrant
from adjudicator.systems import system_info
from adjudicator.words.transcript import (
    UnitNames, affected_units, chat_lines, first_line, headline, hidden_unit_words, notice_texts,
)
from adjudicator.ledger.uploads import grant_scope, is_sha256
from adjudicator.ledger.verify import verify_answer, verify_ledger

#: Board roles a recorded game fixes itself: its scenario, and the asking side (the token's).
GAME_BOUND_ROLES = ("scenario", "side")
MULTIPART_OVERHEAD = 64 * 1024


def new_request_id() -> str:
    """A request id for one showing of a form: a repeat of that form is the same request."""
    return "page-" + secrets.token_hex(12)


def game_or_404(game_id: str) -> dict[str, Any]:
    try:
        return services().store.game(game_id)
    except GameNotFound:
        abort(404)


def login_redirect(game_id: str) -> Response:
    """To the game's token form, coming back here afterwards."""
    return redirect(url_for("game_pages.game", game_id=game_id, next=request.full_path.rstrip("?")), 303)


def grant_or_login(game_id: str, *, write: bool) -> TokenGrant | Response:
    """This browser's grant for the game, or the redirect to the token form when it has none."""
    game_or_404(game_id)
    if page_token() is None:
        return login_redirect(game_id)
    return page_grant(game_id, write=write)


def roll_fields(spec: CheckSpec) -> list[FormField]:
    """A check's form in a recorded game: the game fixes its scenario and the asking side."""
    bound = {pointer[1:] for pointer, role in spec.board if pointer.count("/") == 1 and role in GAME_BOUND_ROLES}
    return [f for f in form_fields(spec) if f.name not in bound]


def starting_values(fields: list[FormField]) -> dict[str, Any]:
    """What a recorded game's form starts with: the schema's defaults, never the example's
    situation (another board's values would be recorded as this game's)."""
    return {f.name: f.default for f in fields}


@dataclass
class RollPage:
    """What the roll form of a recorded game shows."""

    grant: TokenGrant
    spec: CheckSpec
    fields: list[FormField]
    values: dict[str, Any]
    request_id: str
    errors: list[FieldError] = field(default_factory=list)
    problem: Problem | None = None
    #: Field -> (value, why) of what the game's own ledger and scenario establish (adjudicator.facts).
    facts: dict[str, tuple[Any, str]] = field(default_factory=dict)
    #: The chances of the form's situation, when the player asked for them (adjudicator.odds).
    odds: dict[str, Any] | None = None

    def errors_for(self, name: str) -> list[str]:
        return [e.next_to_field for e in self.errors if e.field == name]


def render_roll(page: RollPage, status: int = 200):
    info = system_info(page.grant.system)
    units = unit_choices(page.grant.system)
    response = Response(render_template(
        "game_check.html", page=page, spec=page.spec, info=info, grant=page.grant, system=page.grant.system,
        units=units, unit_index={u.id: u for u in units}, side_label=side_label,
        withheld=rulings.chances_withheld(page.spec)), status)
    response.headers["Cache-Control"] = "no-store"  # a form's request id is for one showing
    return response


def roll(game_id: str, check: str, form) -> Response:
    """Record the submitted form (or show it again with its problems)."""
    grant = page_grant(game_id, write=True)
    spec = rulings.game_check(grant, check)
    fields = roll_fields(spec)
    request_id = (form.get("request_id") or "").strip() or new_request_id()
    values, unreadable = form_request(fields, form)
    page = RollPage(grant, spec, fields, submitted_values(fields, form), request_id)
    try:
        body = rulings.bind(spec, grant, {**values, "request_id": request_id})
        req, page.errors = validate_form(spec.game_model, fields, body, unreadable)
        if req is None:
            return render_roll(page, 422)
        recorded = rulings.record(grant, spec, req)
    except Problem as problem:
        page.problem = problem
        return render_roll(page, problem.status)
    return redirect(url_for("game_pages.record", game_id=game_id, seq=recorded.record.seq), 303)


def situation_address(path: str, form, anchor: str) -> str:
    """`path` with a submitted form's fields as its query (less the form token): where a form's
    chances are shown. A page reached by a redirect leaves no POST in the browser's history, so
    Back after the roll that follows comes to this page again, never to "Confirm Form Resubmission"."""
    pairs = [(name, value) for name, value in form.items(multi=True) if name != CSRF_FIELD]
    return f"{path}?{urlencode(pairs)}#{anchor}"


def chances_of_form(game_id: str, check: str, form) -> Response:
    """The chances of the submitted form's situation, bound as a roll in this game is; nothing
    is recorded, and the form keeps its request id for the roll that may follow."""
    grant = page_grant(game_id, write=True)
    spec = rulings.game_check(grant, check)
    if not spec.random:
        abort(404)
    fields = roll_fields(spec)
    values, unreadable = form_request(fields, form)
    page = RollPage(grant, spec, fields, submitted_values(fields, form),
                    (form.get("request_id") or "").strip() or new_request_id())
    try:
        req, page.errors = validate_form(spec.request, fields, rulings.bind(spec, grant, values), unreadable)
        if req is None:
            return render_roll(page, 422)
        rulings.refuse_a_peek(grant, spec.name, req.model_dump(mode="json"))
        page.odds = chances(spec, req)
    except Problem as problem:
        page.problem = problem
        return render_roll(page, problem.status)
    return render_roll(page)


def record_view(game_id: str, seq: int, grant: TokenGrant) -> dict[str, Any]:
    """One ruling as its page shows it to this viewer: the answer as the viewer may see it (fog of
    war), its verification (of the record as everyone sees it), its chat lines (the log's), and the
    words it opens with (its headline and a line per unit it changes; a record of the game's own, in
    words)."""
    found = rulings.find_record(game_id, seq)
    body = found.body if isinstance(found.body, dict) else {}
    is_ruling = not str(body.get("check", "")).startswith("game.")
    answer = rulings.recorded_response(found) if is_ruling else None
    info = system_info(grant.system)
    report = verify_answer(answer, services().verification_keys()) if answer else None
    lines = chat_lines(answer, system_name=info.name if info else "") if answer else []
    shown = answer
    if answer is not None:
        closed = services().store.game(game_id)["status"] == "closed"
        parts = rulings.record_parts(game_id, seq)
        seen = reveal(grant.system, body, parts, viewer(grant), closed)
        shown = {**answer, **{k: seen["result"].get(k) for k in ("outcome", "steps", "warnings", "dice_used")},
                 "request": seen["request"], "notices": notice_texts(seen["result"], grant.system)}
    words = ruling_words(shown) if shown is not None else (game_record_words(body), [])
    if shown is not None:
        shown = {**shown, "steps": steps_in_names(shown)}
    return {"record": found, "answer": shown, "report": report, "lines": lines, "info": info,
            "headline": words[0], "unit_lines": words[1]}


def ruling_words(answer: dict[str, Any]) -> tuple[str, list[str]]:
    """A ruling as its page opens: the chat's first line (its headline: the units by their counters'
    names, the result), and a line for each unit it changes ("NK 83 depleted")."""
    return first_line(answer), affected_units(answer, UnitNames.of(answer.get("system", "")))


def steps_in_names(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """The ruling's steps with each unit id as its counter reads ("nk-83-mot" -> "NK 83"), as the
    chat names them."""
    names = UnitNames.of(answer.get("system", ""))
    return [{**step, "text": names.text(step["text"])} if isinstance(step, dict) and isinstance(step.get("text"), str)
            else step for step in answer.get("steps") or []]


def game_record_words(body: dict[str, Any]) -> str:
    """A record of the game itself, in words: its creation (the seed committed) or its close (the
    seed revealed)."""
    result = body.get("result") if isinstance(body.get("result"), dict) else {}
    commitment, seed = str(result.get("seed_commitment", "")), str(result.get("seed", ""))
    if body.get("check") == GAME_CREATED:
        return f"The game was created: its dice seed committed to (SHA-256 {commitment[:16]}…)"
    if body.get("check") == GAME_CLOSED:
        return f"The game was closed: its dice seed revealed ({seed[:16]}…), so every die can be recomputed"
    return str(body.get("check", "a record of the game"))


def record_boards(grant: TokenGrant, sha256: str, answer: dict[str, Any]) -> list:
    """The boards of the saved game a ruling was taken from, as this viewer may see them, with what
    the ruling named marked: its attacking units and the hex attacked (`adjudicator.web.boardview`)."""
    kept = services().uploads.get(grant_scope(grant), sha256)
    spec = get_check(grant.system, str(answer.get("check", "")))
    if kept is None or spec is None:
        return []
    try:
        game = load_system_game(grant.system)
        saved = read_upload(kept.data)
        positions = read_positions(game, saved)
    except BridgeError:
        return []
    attackers, hex_label, map_id = picks(spec, answer.get("request") or {})
    hex_marks = {m: {"target": hex_label} for m in game.maps if hex_label and map_id in ("", m)}
    return file_boards(positions, saved, viewer(grant), grant.scenario, {"attacker": attackers}, hex_marks)


def viewer(grant: TokenGrant) -> str | None:
    """The side whose eyes a page is for (none for an observer): what the fog of war lets it see."""
    return None if grant.role == OBSERVER else grant.role


def ledger_as_seen(document: dict[str, Any], grant: TokenGrant) -> dict[str, Any]:
    """The ledger document with each record's body as this viewer may see it (fog of war)."""
    closed = document["game"]["status"] == "closed"
    parts: dict[int, list[Part]] = {}
    for seq, part in services().store.hidden_parts(grant.game_id):
        parts.setdefault(seq, []).append(Part.from_json(part))
    if not parts:
        return document
    records = [{**r, "body": reveal(grant.system, r["body"], parts[r["seq"]], viewer(grant), closed)}
               if r["seq"] in parts else r for r in document["records"]]
    return {**document, "records": records}


@dataclass(frozen=True)
class LedgerRow:
    """A record of the ledger as its row reads: what was ruled, in one sentence, and its notices."""

    headline: str
    notices: list[str]


def ledger_rows(document: dict[str, Any]) -> dict[int, LedgerRow]:
    """seq -> its row, for a ledger document as its viewer may see it: each ruling by its headline
    (units by their counters' names; a unit the fog hides from the viewer by its side and hex,
    "a UN block in 0520") and its notices."""
    system = document["game"]["system"]
    rows = {}
    for record in document["records"]:
        body = record.get("body") if isinstance(record.get("body"), dict) else {}
        check = str(body.get("check", ""))
        if check.startswith("game."):
            rows[record["seq"]] = LedgerRow(game_record_words(body), [])
            continue
        result = body.get("result") if isinstance(body.get("result"), dict) else {}
        shown = _hidden_named(system, {**result, "system": system, "check": check.partition(".")[2],
                                       "side": body.get("side"), "request": body.get("request") or {}})
        rows[record["seq"]] = LedgerRow(headline(shown), notice_texts(result, system))
    return rows


def _hidden_named(system: str, node: Any) -> Any:
    """`node` with each sealed unit (adjudicator.fog) named as the viewer may see it: its side, its
    kind and where it stands ("a UN block in 0520"); never its commitment."""
    if isinstance(node, dict):
        if isinstance(node.get(HIDDEN), str):
            return {"unit": hidden_unit_words(system, node)}
        return {key: _hidden_named(system, value) for key, value in node.items()}
    if isinstance(node, list):
        return [_hidden_named(system, item) for item in node]
    if isinstance(node, str) and node.startswith(f"{HIDDEN}:"):
        return "a hidden unit"
    return node


def make_game_pages_blueprint(config: Config, limiter: RouteLimiter) -> Blueprint:
    bp = Blueprint("game_pages", __name__)
    per_client = pages_limit(config, limiter)

    @bp.get("/games/<game_id>")
    def game(game_id: str):
        game_or_404(game_id)
        if page_token() is None:
            return render_template("game_login.html", game_id=game_id, next=request.args.get("next", ""))
        try:
            grant = page_grant(game_id, write=False)
        except Problem:  # a remembered token that no longer opens this game: ask again
            page = render_template("game_login.html", game_id=game_id, next="",
                                   error="The token this browser remembered does not open this game.")
            return forget(Response(page, 403), game_id)
        document = rulings.game_ledger(game_id)
        report = verify_ledger(document, services().verification_keys())
        problems: dict[int | None, list[str]] = {}
        for finding in report.problems:
            problems.setdefault(finding.seq, []).append(finding.message)
        seen = ledger_as_seen(document, grant)
        response = Response(render_template(
            "game.html", document=seen, rows=ledger_rows(seen), report=report, role=grant.role, grant=grant, problems=problems,
            info=system_info(document["game"]["system"]), checks=game_checks_of(grant),
            may_roll=grant.role != OBSERVER and document["game"]["status"] == "open"))
        response.headers["Cache-Control"] = "no-store"
        return response

    @bp.post("/games/<game_id>")
    @per_client
    @guard(for_login=True)
    def login(game_id: str):
        game_or_404(game_id)
        token = request.form.get("token", "").strip()
        try:
            rulings.authorize(token, game_id, write=False)
        except Problem:
            return render_template("game_login.html", game_id=game_id, next=request.form.get("next", ""),
                                   error="That is not a token of this game."), 403
        target = request.form.get("next", "")
        if not target.startswith(game_path(game_id)) or "//" in target:
            target = url_for("game_pages.game", game_id=game_id)
        return remember(redirect(target, 303), game_id, token)

    @bp.post("/games/<game_id>/logout")
    @per_client
    @guard
    def logout(game_id: str):
        return forget(redirect(url_for("game_pages.game", game_id=game_id), 303), game_id)

    @bp.get("/games/<game_id>/checks/<check>")
    def roll_form(game_id: str, check: str):
        grant = grant_or_login(game_id, write=True)
        if isinstance(grant, Response):
            return grant
        spec = rulings.game_check(grant, check)
        rulings.refuse_check_of_other_scenario(spec, grant)
        fields = roll_fields(spec)
        page = RollPage(grant, spec, fields, starting_values(fields), new_request_id())
        found = rulings.game_facts(spec, grant)
        if spec.name in found.closed_checks:
            page.problem = Problem(422, "Nothing to roll any more", found.closed_checks[spec.name],
                                   kind="check-closed")
        for name, fact in found.values.items():
            if name in page.values:
                page.values[name] = fact.value
                page.facts[name] = (fact.value, fact.why)
        return render_roll(page)

    @bp.post("/games/<game_id>/checks/<check>")
    @per_client
    @guard
    def roll_check(game_id: str, check: str):
        game_or_404(game_id)
        return roll(game_id, check, request.form)

    @bp.post("/games/<game_id>/checks/<check>/odds")
    @per_client
    @guard
    def roll_chances(game_id: str, check: str):
        """The form's Chances button: to the address of these chances (post/redirect/get)."""
        game_or_404(game_id)
        return redirect(situation_address(url_for("game_pages.chances", game_id=game_id, check=check),
                                          request.form, "odds-roll"), 303)

    @bp.get("/games/<game_id>/checks/<check>/odds")
    def chances(game_id: str, check: str):
        """The chances of the situation in the address: a page the Back button comes back to."""
        grant = grant_or_login(game_id, write=True)
        if isinstance(grant, Response):
            return grant
        return chances_of_form(game_id, check, request.args)

    @bp.get("/games/<game_id>/records/<int:seq>")
    def record(game_id: str, seq: int):
        grant = grant_or_login(game_id, write=False)
        if isinstance(grant, Response):
            return grant
        view = record_view(game_id, seq, grant)
        upload = request.args.get("upload", "")
        if not (is_sha256(upload) and services().uploads.has(grant_scope(grant), upload)):
            upload = ""  # a file this token did not upload (or no longer kept): no download offered
        boards = record_boards(grant, upload, view["answer"]) if upload and view["answer"] else []
        return render_template("record.html", game_id=game_id, grant=grant, upload=upload, boards=boards, **view)

    @bp.get("/games/<game_id>/close")
    def close_form(game_id: str):
        grant = grant_or_login(game_id, write=True)
        if isinstance(grant, Response):
            return grant
        return render_template("game_close.html", game=services().store.game(game_id), grant=grant)

    @bp.post("/games/<game_id>/close")
    @per_client
    @guard
    def close(game_id: str):
        grant = page_grant(game_id, write=True)
        if request.form.get("confirm") != "close":
            return render_template("game_close.html", game=services().store.game(game_id), grant=grant,
                                   error="Tick the box to confirm: closing cannot be undone."), 422
        svc = services()
        svc.store.close_game(game_id, grant.role, svc.signing_key)
        return redirect(url_for("game_pages.game", game_id=game_id), 303)

    @bp.get("/games/<game_id>/ledger.json")
    def ledger_file(game_id: str):
        grant = grant_or_login(game_id, write=False)
        if isinstance(grant, Response):
            return grant
        document = rulings.game_ledger(game_id)
        return Response(json.dumps(document, indent=1), mimetype="application/json", headers={
            "Content-Disposition": f'attachment; filename="ledger-{game_id}.json"', "Cache-Control": "no-store"})

    @bp.get("/games/<game_id>/log-check")
    def log_check_form(game_id: str):
        grant = grant_or_login(game_id, write=False)
        if isinstance(grant, Response):
            return grant
        return render_template("log_check.html", game_id=game_id, report=None, error=None)

    @bp.post("/games/<game_id>/log-check")
    @per_client
    @guard(max_bytes=2 * MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD)
    def log_check(game_id: str):
        """Every adjudication line of an uploaded log against the ledger (any token of the game)."""
        page_grant(game_id, write=False)
        files = [(f.filename or "", f.read(MAX_UPLOAD_BYTES + 1)) for f in request.files.getlist("file") if f]
        try:
            report = checked_logs(game_id, files)
        except Problem as problem:
            return render_template("log_check.html", game_id=game_id, report=None,
                                   error=f"{problem.title}: {problem.detail}"), problem.status
        return render_template("log_check.html", game_id=game_id, report=report,
                               file_name=", ".join(name for name, _ in files), error=None)

    return bp


#: Log checks made lately in this process, by the files' contents and the ledger's state: the same
#: files checked again against the same ledger are not read and judged again (adjudicator.bridge.memo).
LOG_CHECKS: Memo = Memo(entries=4)


def checked_logs(game_id: str, files: list[tuple[str, bytes]]):
    """`check_log_of_game` of the files, once per files' contents and ledger state in this process."""
    try:
        header = services().store.game(game_id)
    except GameNotFound:
        raise Problem(404, "Not Found", "No such game.", kind="unknown-game") from None
    key = (game_id, header["head_hash"], header["status"],
           tuple((name, hashlib.sha256(data).hexdigest()) for name, data in files))
    return LOG_CHECKS.get(key, lambda: check_log_of_game(game_id, files if len(files) > 1
                                                         else (files[0][1] if files else b"")))


def game_checks_of(grant: TokenGrant) -> list[CheckSpec]:
    return [spec for name in rulings.game_checks(grant) if (spec := get_check(grant.system, name)) is not None]
