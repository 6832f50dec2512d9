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
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for

from adjudicator import rulings
from adjudicator.web.boardview import file_boards, picks
from adjudicator.bridge.errors import BridgeError
from adjudicator.bridge.games import load_system_game
from adjudicator.bridge.positions import Positions, read_positions
from adjudicator.bridge.upload import MAX_UPLOAD_BYTES, read_upload
from adjudicator.bridge.writeback import piece_changes
from vassalfmt import SavedGame
from adjudicator.odds.asked_again import AGAIN_FIELD, AskedBefore, asked_before
from adjudicator.chances import chances
from adjudicator.checks import CheckSpec, get_check, side_label
from adjudicator.config import Config
from adjudicator.web.csrf import FIELD as CSRF_FIELD
from adjudicator.web.csrf import guard
from adjudicator.facts import result_checks
from adjudicator.fog import Part, has_sealed, reveal
from adjudicator.words.forms import (
    FieldError, FormField, form_fields, form_request, submitted_values, unit_choices, unit_index, validate_form,
)
from adjudicator.ledger.records import GAME_CLOSED, GAME_CREATED
from adjudicator.logs.check import check_log_of_game
from adjudicator.web.page_tokens import forget, game_path, page_grant, page_token, remember
from adjudicator.bridge.memo import Memo
from adjudicator.problems import Problem
from adjudicator.api.ratelimits import RouteLimiter, odds_limited, pages_limit
from adjudicator.services import services
from adjudicator.ledger.storage import OBSERVER, GameNotFound, TokenGrant
from adjudicator.systems import system_info
from adjudicator.words.names import UnitNames, for_players, result_for_players
from adjudicator.words.transcript import affected_units, chat_lines, first_line, headline, notice_texts
from adjudicator.words.unit_lists import unit_lists
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
    if page_token(game_id) is None:
        return login_redirect(game_id)
    return page_grant(game_id, write=write)


def fact_words(fact) -> Any:
    """A fact's value as its line on a roll form says it: a list the request must include is
    named by its reason (units by their counters' names), never by ids."""
    if fact.includes:
        return "every one the ledger holds, whatever else you add"
    return fact.shown_value


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
    #: Field -> (value, why, includes) of what the game's own ledger and scenario establish
    #: (adjudicator.facts; includes: a list the request must contain, the player may add to it).
    facts: dict[str, tuple[Any, str, bool]] = field(default_factory=dict)
    #: The chances of the form's situation, when the player asked for them (adjudicator.odds).
    odds: dict[str, Any] | None = None
    #: The record the form's situation was asked as (adjudicator.odds.asked_again): warned before the roll.
    asked_before: AskedBefore | None = None

    def errors_for(self, name: str) -> list[str]:
        return [e.next_to_field for e in self.errors if e.field == name]


def render_roll(page: RollPage, status: int = 200):
    info = system_info(page.grant.system)
    units = unit_choices(page.grant.system)
    response = Response(render_template(
        "game_check.html", page=page, spec=page.spec, info=info, grant=page.grant, system=page.grant.system,
        units=units, unit_index=unit_index(units), side_label=side_label,
        unit_lists=unit_lists(page.spec, page.grant.system, units, page.grant.role),
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
        page.asked_before = asked_before(grant, spec, req)
        if page.asked_before is not None and page.asked_before.rolled \
                and form.get(AGAIN_FIELD) != str(page.asked_before.record):
            return render_roll(page, 409)  # asked already: the player chooses to roll again or open the record
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
        page.asked_before = asked_before(grant, spec, req)
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
    words = ruling_words(for_players(grant.system, shown, name_units=False)) if shown is not None \
        else (game_record_words(body), [])
    return {"record": found, "answer": result_for_players(grant.system, shown) if shown is not None else None,
            "report": report, "lines": lines, "info": info, "headline": words[0], "unit_lines": words[1],
            "hidden_changes": shown is not None and has_sealed(shown.get("outcome"))}


def ruling_words(answer: dict[str, Any]) -> tuple[str, list[str]]:
    """A ruling as its page opens: the chat's first line (its headline: the units by their counters'
    names, the result), and a line for each unit it changes ("NK 83 depleted")."""
    return first_line(answer), affected_units(answer, UnitNames.of(answer.get("system", "")))


def game_record_words(body: dict[str, Any]) -> str:
    """A record of the game itself, in words: its creation (the seed committed) or its close (the
    seed revealed)."""
    if body.get("check") == GAME_CREATED:  # the commitment itself is in the record (the ledger download)
        return "The game was created: its dice seed committed to, so no die can be chosen after the fact"
    if body.get("check") == GAME_CLOSED:
        return "The game was closed: its dice seed revealed, so every die can be recomputed"
    return str(body.get("check", "a record of the game"))


def kept_positions(grant: TokenGrant, sha256: str) -> tuple[SavedGame, Positions] | None:
    """The saved game this token's browser uploaded, read and its pieces located (None: not kept, or
    not readable)."""
    kept = services().uploads.get(grant_scope(grant), sha256)
    if kept is None:
        return None
    try:
        saved = read_upload(kept.data)
        return saved, read_positions(load_system_game(grant.system), saved)
    except BridgeError:
        return None


def record_boards(grant: TokenGrant, read: tuple[SavedGame, Positions] | None, answer: dict[str, Any]
                  ) -> tuple[list, str]:
    """The boards of the saved game a ruling was taken from (`kept_positions`), as this viewer may
    see them, with what the ruling named marked: its attacking units and the hex attacked
    (`adjudicator.web.boardview`); and the words under them, saying the marks there are."""
    spec = get_check(grant.system, str(answer.get("check", "")))
    if read is None or spec is None:
        return [], ""
    saved, positions = read
    attackers, hex_label, map_id = picks(spec, answer.get("request") or {})
    hex_marks = {m: {"target": hex_label} for m in positions.game.maps if hex_label and map_id in ("", m)}
    marks = (["the attacking units ringed in blue"] if attackers else []) + (["the hex attacked in red"] if hex_label else [])
    caption = "The saved game as you may see it" + (": " + ", ".join(marks) if marks else "") + "."
    return file_boards(positions, saved, viewer(grant), grant.scenario, {"attacker": attackers}, hex_marks), caption


def ruling_seen(game_id: str, seq: int, eyes: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """A ruling's answer, and its outcome as `eyes` (a side; None: the observer) sees it, his own
    hidden units named: what the log continuing his saved game is written from."""
    found = rulings.find_record(game_id, seq)
    seen = rulings.Recorded(found, True, tuple(rulings.record_parts(game_id, seq))).response(eyes)
    answer = rulings.recorded_response(found)
    return answer, (seen.get("as_you_see_it") or {}).get("outcome") or answer.get("outcome") or {}


def log_changes(positions: Positions, answer: dict[str, Any], outcome: dict[str, Any], eyes: str | None) -> list:
    """What the log continuing a saved game with a ruling does to its pieces, and what it leaves to
    the players, each saying who makes it (`adjudicator.bridge.writeback.piece_changes`): the log
    the pages write, and what the ruling's page says it will do. The file is the viewer's (`eyes`),
    so the pieces hidden from him are the other side's to change, whoever asked the ruling: the
    owner of a block the opponent's ruling eliminated gets a log that eliminates it; the ruling's
    side where no side views (a calculation)."""
    return piece_changes(positions, outcome, eyes or answer.get("side") or "")


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


#: The ledger rows the game's page shows at a time (issue 52: at ~1,000 records the one page was
#: 1.58 MB, every ruling's situation and steps in it); older ones are a link away (`?before=<seq>`).
LEDGER_PAGE_ROWS = 50


@dataclass(frozen=True)
class LedgerPage:
    """A page of the ledger's rows, in the ledger's order: the newest unless `before` a record."""

    records: list[dict[str, Any]]
    older: int | None  # `before` of the page of older records (its first seq here), None at the start
    newer: bool  # records after this page
    newer_before: int | None  # `before` of the page of newer records; None: the newest page


def ledger_page(records: list[dict[str, Any]], before: int | None) -> LedgerPage:
    """The `LEDGER_PAGE_ROWS` records before record `before` (None: the newest)."""
    end = len(records) if before is None else next((i for i, r in enumerate(records) if r["seq"] >= before),
                                                    len(records))
    start = max(0, end - LEDGER_PAGE_ROWS)
    shown = records[start:end]
    newer_end = end + LEDGER_PAGE_ROWS
    return LedgerPage(shown, shown[0]["seq"] if start > 0 and shown else None, end < len(records),
                      records[newer_end]["seq"] if newer_end < len(records) else None)


def ledger_for_players(document: dict[str, Any]) -> dict[str, Any]:
    """A ledger document as its page shows each ruling's situation and result: in players' words
    (`adjudicator.words.names.result_for_players`: counters' names, a hidden unit as the fog allows)."""
    system = document["game"]["system"]

    def shown(body: Any) -> Any:
        if not isinstance(body, dict) or str(body.get("check", "")).startswith("game."):
            return body
        result = body.get("result") if isinstance(body.get("result"), dict) else {}
        return {**body, "request": for_players(system, body.get("request") or {}),
                "result": result_for_players(system, result)}
    return {**document, "records": [{**r, "body": shown(r.get("body"))} for r in document["records"]]}


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
        shown = for_players(system, {**result, "system": system, "check": check.partition(".")[2],
                                     "side": body.get("side"), "request": body.get("request") or {}}, name_units=False)
        rows[record["seq"]] = LedgerRow(headline(shown), notice_texts(result, system))
    return rows


def make_game_pages_blueprint(config: Config, limiter: RouteLimiter) -> Blueprint:
    """A recorded game's pages: its ledger and login, its roll forms and chances, its records."""
    bp = Blueprint("game_pages", __name__)
    per_client = pages_limit(config, limiter)
    _add_game_routes(bp, per_client)
    _add_roll_routes(bp, per_client, odds_limited(config, limiter))
    _add_record_routes(bp, per_client)
    return bp


def _add_game_routes(bp: Blueprint, per_client) -> None:
    """The game's page (its ledger as the token's side may see it), logging in and out."""

    @bp.get("/games/<game_id>")
    def game(game_id: str):
        game_or_404(game_id)
        if page_token(game_id) is None:
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
        before = request.args.get("before", type=int)
        raw_page = ledger_page(seen["records"], before)  # the rows' headlines name units themselves
        players = ledger_for_players({**seen, "records": raw_page.records})
        page = replace(raw_page, records=players["records"])
        response = Response(render_template(
            "game.html", document=seen, page=page, rows=ledger_rows({**seen, "records": raw_page.records}),
            report=report, role=grant.role, grant=grant, problems=problems,
            info=system_info(document["game"]["system"]), checks=game_checks_of(grant),
            may_roll=grant.role != OBSERVER and document["game"]["status"] == "open",
            result=rulings.game_result(game_id, grant.system), side_label=side_label,
            victory_checks=[c for c in result_checks(grant.system) if c in rulings.game_checks(grant)]))
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


def _add_roll_routes(bp: Blueprint, per_client, per_client_odds) -> None:
    """A check's roll form, the roll, and the chances of the situation a form states (per_client_odds:
    the limit every route that computes chances shares, adjudicator.api.ratelimits.odds_limited)."""

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
            if name in page.values:  # what the fog lets this player see of it (the server adds the rest)
                page.values[name] = fact.shown_value
                page.facts[name] = (fact_words(fact), fact.why, fact.includes)
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
    @per_client_odds
    def chances(game_id: str, check: str):
        """The chances of the situation in the address: a page the Back button comes back to."""
        grant = grant_or_login(game_id, write=True)
        if isinstance(grant, Response):
            return grant
        return chances_of_form(game_id, check, request.args)


def _add_record_routes(bp: Blueprint, per_client) -> None:
    """One record, closing the game, the ledger file and checking a log against it."""

    @bp.get("/games/<game_id>/records/<int:seq>")
    def record(game_id: str, seq: int):
        grant = grant_or_login(game_id, write=False)
        if isinstance(grant, Response):
            return grant
        view = record_view(game_id, seq, grant)
        upload = request.args.get("upload", "")
        if not (is_sha256(upload) and services().uploads.has(grant_scope(grant), upload)):
            upload = ""  # a file this token did not upload (or no longer kept): no download offered
        read = kept_positions(grant, upload) if upload and view["answer"] else None
        boards, caption = record_boards(grant, read, view["answer"]) if read else ([], "")
        changes = log_changes(read[1], *ruling_seen(game_id, seq, viewer(grant)), viewer(grant)) if read else []
        return render_template("record.html", game_id=game_id, grant=grant, upload=upload, boards=boards,
                               board_caption=caption, changes=changes, **view)

    @bp.get("/games/<game_id>/close")
    def close_form(game_id: str):
        grant = grant_or_login(game_id, write=True)
        if isinstance(grant, Response):
            return grant
        return render_template("game_close.html", game=services().store.game(game_id), grant=grant,
                               result=rulings.game_result(game_id, grant.system), side_label=side_label)

    @bp.post("/games/<game_id>/close")
    @per_client
    @guard
    def close(game_id: str):
        grant = page_grant(game_id, write=True)
        if request.form.get("confirm") != "close":
            return render_template("game_close.html", game=services().store.game(game_id), grant=grant,
                                   result=rulings.game_result(game_id, grant.system), side_label=side_label,
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
        grant = page_grant(game_id, write=False)
        files = [(f.filename or "", f.read(MAX_UPLOAD_BYTES + 1)) for f in request.files.getlist("file") if f]
        try:
            report = checked_logs(game_id, files, viewer(grant))
        except Problem as problem:
            return render_template("log_check.html", game_id=game_id, report=None,
                                   error=f"{problem.title}: {problem.detail}"), problem.status
        return render_template("log_check.html", game_id=game_id, report=report,
                               file_name=", ".join(name for name, _ in files), error=None)


#: Log checks made lately in this process, by the files' contents and the ledger's state: the same
#: files checked again against the same ledger are not read and judged again (adjudicator.bridge.memo).
LOG_CHECKS: Memo = Memo(entries=4)


def checked_logs(game_id: str, files: list[tuple[str, bytes]], eyes: str | None):
    """`check_log_of_game` of the files as `eyes` (a side; None: an observer) may read it, once per
    files' contents, ledger state and viewer in this process."""
    try:
        header = services().store.game(game_id)
    except GameNotFound:
        raise Problem(404, "Not Found", "No such game.", kind="unknown-game") from None
    key = (game_id, header["head_hash"], header["status"], eyes,
           tuple((name, hashlib.sha256(data).hexdigest()) for name, data in files))
    return LOG_CHECKS.get(key, lambda: check_log_of_game(game_id, files if len(files) > 1
                                                         else (files[0][1] if files else b""), viewer=eyes))


def game_checks_of(grant: TokenGrant) -> list[CheckSpec]:
    """The checks the game's page offers: its scenario's, less those its rules make "no roll" and
    those its ledger does not offer yet (an Atomic Strike before Atomic Release)."""
    waiting = rulings.waiting_checks(grant)
    return [spec for name in rulings.game_checks(grant)
            if (spec := get_check(grant.system, name)) is not None and spec.offered_in(grant.scenario)
            and name not in waiting]
