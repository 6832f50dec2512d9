"""The saved-game pages: upload a ``.vsav``/``.vlog``; see the units by hex and the supply report;
take any check's situation from the file; get the ruling as a VASSAL log continuing the game.

Calculations (the players' own dice, nothing recorded)::

    GET  /systems/<system>/savedgame                             the upload form
    POST /systems/<system>/savedgame                             keep the file, go to its report
    GET  /systems/<system>/savedgame/<sha256>                    the report: positions, supply, map
    GET  /systems/<system>/savedgame/<sha256>/checks/<check>     a check from the file (click the map)
    POST /systems/<system>/savedgame/<sha256>/checks/<check>     its result beside the request built
    POST /systems/<system>/savedgame/<sha256>/checks/<check>/odds  its chances before the roll
    POST /systems/<system>/savedgame/<sha256>/checks/<check>/vlog  the game continued by the ruling

A recorded game (its token remembered by the browser, `adjudicator.web.page_tokens`)::

    GET  /games/<id>/savedgame                                   the upload form
    POST /games/<id>/savedgame                                   keep the file, go to its report
    GET  /games/<id>/savedgame/<sha256>                          the report; record its supply
    POST /games/<id>/savedgame/<sha256>/supply                   record the supply report
    GET  /games/<id>/savedgame/<sha256>/checks/<check>           a check from the file; the server rolls
    POST /games/<id>/savedgame/<sha256>/checks/<check>           record it, then the ruling's page
    POST /games/<id>/savedgame/<sha256>/checks/<check>/odds      Chances: to the GET of the form's situation
    GET  /games/<id>/savedgame/<sha256>/checks/<check>/odds?...  its chances (bound as a roll; not recorded)
    GET  /games/<id>/records/<seq>/vlog?upload=<sha256>          the game continued by that ruling

A file is uploaded once and kept for a while (`adjudicator.ledger.uploads`): every later step is an
address, so Back and refresh work and a recorded ruling can redirect to its own page
(post/redirect/get) whose log download still has the file. Recorded rolls go through
`adjudicator.bridge.rulings` and `adjudicator.rulings`, the path the API takes, with a request id
made when the form is shown: a repeat shows the ruling already recorded, never a new roll.

Element ids for browser tests: ``savedgame-form``, ``savedgame-error``, ``positions``,
``unit-<id>``, ``supply-<side>``, ``supply-unavailable``, ``unidentified``, ``map-<map>``,
``oos-<unit>``, ``savedgame-check``, ``resolve``, ``chances``, ``result``, ``odds-<check>``,
``savedgame-request``, ``from-board``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict

from adjudicator import rulings
from adjudicator.web.boardview import file_boards, seen_name
from adjudicator.bridge.errors import BridgeError
from adjudicator.bridge.fill import Pointed, fill_request
from adjudicator.bridge.games import load_system_game
from adjudicator.bridge.openapi import savedgame_checks
from adjudicator.bridge.positions import Positions, read_positions
from adjudicator.bridge.rulings import (
    compute_from_file, odds_from_file, problem_from, record_from_file, record_supply, refuse_other_scenario,
)
from adjudicator.bridge.supply import run_supply
from adjudicator.bridge.memo import Memo
from adjudicator.bridge.upload import MAX_UPLOAD_BYTES, read_upload
from adjudicator.bridge.writeback import ruling_log
from adjudicator.checks import CheckSpec, canonical_side, checks_for, get_check
from adjudicator.config import Config
from adjudicator.web.csrf import browser_key, guard
from adjudicator.fog import fog_of, hidden_side, reveal, seal
from adjudicator.words.forms import form_fields, form_request, submitted_values, unit_choices, unit_index
from adjudicator.web.game_pages import log_changes, new_request_id, ruling_seen, situation_address, starting_values
from adjudicator.web.page_tokens import page_grant
from adjudicator.problems import Problem
from adjudicator.api.ratelimits import RouteLimiter, odds_limited, pages_limit
from adjudicator.services import services
from adjudicator.ledger.storage import OBSERVER, GameNotFound, TokenGrant
from adjudicator.systems import system_info
from adjudicator.words.names import said_to
from adjudicator.words.transcript import chat_lines
from adjudicator.ledger.uploads import Upload, browser_scope, grant_scope, is_sha256
from adjudicator.words.wording import field_path_words, read_from_file
from vassalfmt import SavedGame

MULTIPART_OVERHEAD = 64 * 1024
#: The body an upload form may send: the file and the form around it.
UPLOAD_BODY_BYTES = MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD


# -- where a page stands: a system's calculations, or a recorded game ---------------------------------

@dataclass(frozen=True)
class Scope:
    """The pages' context: a system (calculations, this browser's files) or a recorded game (its grant)."""

    system: str
    grant: TokenGrant | None = None

    @property
    def key(self) -> str:
        """Where its files are kept: the grant's, or (a calculation) this browser's."""
        return grant_scope(self.grant) if self.grant else browser_scope(self.system, browser_key())

    @property
    def recorded(self) -> bool:
        return self.grant is not None

    def url(self, endpoint: str, **values: Any) -> str:
        if self.grant:
            return url_for(f"bridge_pages.game_{endpoint}", game_id=self.grant.game_id, **values)
        return url_for(f"bridge_pages.system_{endpoint}", system=self.system, **values)


def system_scope_of(system: str) -> Scope:
    if system_info(system) is None:
        abort(404)
    return Scope(system)


def game_scope(game_id: str, *, write: bool = True) -> Scope:
    try:
        services().store.game(game_id)
    except GameNotFound:
        abort(404)
    grant = page_grant(game_id, write=write)
    return Scope(grant.system, grant)


def kept_file(scope: Scope, sha256: str) -> Upload:
    """A file uploaded in this scope (404 when it is unknown or gone: upload it again)."""
    found = services().uploads.get(scope.key, sha256) if is_sha256(sha256) else None
    if found is None:
        raise Problem(404, "Saved game not kept", "This saved game is not (or no longer) kept here: upload it "
                      "again.", kind="unknown-upload")
    return found


#: Files read and located lately in this process, by content and game data (adjudicator.bridge.memo):
#: the pages of a long log are read once, not at every view.
READ_FILES: Memo[tuple[SavedGame, Positions]] = Memo(entries=8)


def read_kept(scope: Scope, upload: Upload) -> tuple[SavedGame, Positions]:
    """The kept file read and its pieces located: once per file's content in this process (reading is
    the costly part, and the server reads one upload at a time per worker)."""
    game = load_system_game(scope.system)

    def read() -> tuple[SavedGame, Positions]:
        try:
            saved = read_upload(upload.data)
            return saved, read_positions(game, saved)
        except BridgeError as error:
            raise problem_from(error) from None
    return READ_FILES.get((scope.system, upload.sha256, id(game)), read)


def positions_of(scope: Scope, upload: Upload) -> Positions:
    return read_kept(scope, upload)[1]


# -- the upload form -------------------------------------------------------------------------------------

def upload_form(scope: Scope, error: BridgeError | Problem | None = None, status: int = 200):
    info = system_info(scope.system)
    return render_template("bridge.html", info=info, scope=scope, error=error, form=request.form or {},
                           checks=savedgame_checks(checks_for(scope.system)),
                           max_mb=MAX_UPLOAD_BYTES // (1024 * 1024)), status


def receive(scope: Scope):
    """Keep the uploaded file (after reading it once, so a file that is none is refused here) and
    go to its report or straight to the check chosen."""
    storage = request.files.get("file")
    data = storage.read(MAX_UPLOAD_BYTES + 1) if storage else b""
    try:
        read_positions(load_system_game(scope.system), read_upload(data))
    except BridgeError as error:
        page, status = upload_form(scope, error, error.status)
        return page, status, error.headers
    upload = services().uploads.put(scope.key, storage.filename or "", data)
    form = request.form
    check = form.get("_check", "")
    if check and get_check(scope.system, check) is not None:
        return redirect(scope.url("check", sha256=upload.sha256, check=check), 303)
    args = {k: form.get(k, "").strip() for k in ("scenario", "side", "game_turn") if form.get(k, "").strip()}
    return redirect(scope.url("report", sha256=upload.sha256, **args), 303)


# -- the report ------------------------------------------------------------------------------------------

def report(scope: Scope, sha256: str):
    upload = kept_file(scope, sha256)
    positions = positions_of(scope, upload)
    game = positions.game
    args = request.args
    scenario = scope.grant.scenario if scope.grant else (args.get("scenario", "").strip() or None)
    run, supply_error = None, None
    try:
        run = run_supply(game, positions, scenario, args.get("side", "").strip() or None,
                         game_turn=args.get("game_turn", "").strip() or None)
    except BridgeError as error:
        supply_error = error
    out_ids = {u for u, _ in run.out_of_supply()} if run else set()
    in_ids = ({u.unit for r in run.reports for u in r.units if u.in_supply} if run else set())
    name = unit_namer(scope)
    maps = boards(scope, upload, run.scenario if run else scenario,
                  {"out-of-supply": sorted(u for u in out_ids if name(u)), "in-supply": sorted(u for u in in_ids if name(u))})
    return render_template("bridge_report.html", info=system_info(scope.system), game=game, scope=scope, name=name,
                           unfog=text_redactor(scope, positions),
                           positions=positions, run=run, supply_error=supply_error, out_ids=out_ids, maps=maps,
                           upload=upload, file_name=upload.name, request_id=new_request_id(),
                           checks=savedgame_checks(checks_for(scope.system)))


def viewer_of(scope: Scope) -> str | None:
    """Whose eyes the page is for: a recorded game's side (none for its observer); in a
    calculation, the side the page was asked to show (`?as=un`), else no one's."""
    if scope.grant:
        return None if scope.grant.role == OBSERVER else scope.grant.role
    asked = request.args.get("as") or request.form.get("_side") or ""
    return canonical_side(asked.strip()) or None


def seen_as_choices(scope: Scope, game) -> list[tuple[str, str]] | None:
    """A calculation of a game that hides units: whose eyes the board may be seen with (`?as=`):
    ("", no side's) and each side; None where nothing is hidden, or in a recorded game (the token's)."""
    fog = fog_of(scope.system)
    if scope.recorded or fog is None or all(hidden_side(fog, u, None) is None for u in game.units):
        return None
    return [("", "no side's eyes")] + [(side, f"the {s.name} player's") for side, s in game.sides.items()]


def unit_namer(scope: Scope) -> Callable[[str], str | None]:
    """unit id -> the id, or None for a unit whose identity the fog of war hides from the viewer."""
    return seen_name(scope.system, viewer_of(scope))


def text_redactor(scope: Scope, positions: Positions) -> Callable[[str], str]:
    """text -> the text as the viewer reads it: the units he may not see (fog of war) named by their
    side, the others as their counters read (`adjudicator.words.names.said_to`)."""
    name = unit_namer(scope)
    hidden = {u.unit.id: u.unit.side for u in positions.units if name(u.unit.id) is None}
    viewer = viewer_of(scope)
    return lambda text: said_to(scope.system, text, viewer, fogged=bool(hidden)) if text else text


def boards(scope: Scope, upload: Upload, scenario_id: str | None, marks: dict[str, list[str]] | None = None) -> list:
    """(map, board data) of each map the file or the scenario uses, with the file's stacks as the
    page's viewer may see them (`adjudicator.web.boardview`)."""
    saved, positions = read_kept(scope, upload)
    return file_boards(positions, saved, viewer_of(scope), scenario_id, marks)


# -- a check from the file -------------------------------------------------------------------------------

def board_fields(spec: CheckSpec) -> set[str]:
    """Top-level fields the file fills: the form leaves them out."""
    return {pointer[1:] for pointer, _ in spec.board if pointer.count("/") == 1}


def roles(spec: CheckSpec) -> set[str]:
    return {role for pointer, role in spec.board if pointer.count("/") == 1}


def savedgame_check_of(system: str, check: str) -> CheckSpec:
    spec = get_check(system, check)
    if spec is None or spec not in savedgame_checks([spec]):
        raise Problem(404, "Not Found", f"{system} has no check {check!r} that takes a saved game's positions.",
                      kind="unknown-check")
    return spec


@dataclass
class CheckPage:
    """What the check-from-a-saved-game page shows."""

    scope: Scope
    spec: CheckSpec
    upload: Upload
    positions: Positions
    fields: list
    values: dict
    request_id: str = ""
    result: dict | None = None
    odds: dict | None = None  # the chances of the situation (the "Chances" button), instead of a result
    request_json: str = ""
    filled: dict = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    changes: list = field(default_factory=list)
    problem: Problem | None = None
    #: What the check reads from this board before anything is pointed at: {pointer: where seen}.
    board_reads: dict = field(default_factory=dict)


def check_page(scope: Scope, sha256: str, check: str, form=None) -> CheckPage:
    spec = savedgame_check_of(scope.system, check)
    if scope.grant:
        rulings.refuse_check_of_other_scenario(spec, scope.grant)
    upload = kept_file(scope, sha256)
    positions = positions_of(scope, upload)
    board = board_fields(spec)
    fields = [f for f in form_fields(spec) if f.name not in board]
    if form is not None:
        values = submitted_values(fields, form)
    elif scope.recorded:
        values = starting_values(fields)  # never another board's example in a recorded game
    else:
        values = {f.name: f.preset if f.required else f.default for f in fields}
    request_id = (form.get("request_id", "") if form is not None else "") or new_request_id()
    page = CheckPage(scope, spec, upload, positions, fields, values, request_id)
    page.board_reads = reads_before_pointing(page, form)
    page.fields = without_pointers(page.fields, set(page.board_reads))
    return page


def without_pointers(fields: list, pointers: set[str], prefix: str = "") -> list:
    """The form's fields less those the board gives (JSON pointers, nested objects included)."""
    kept = []
    for f in fields:
        pointer = f"{prefix}/{f.name}"
        if pointer in pointers:
            continue
        if f.kind == "object" and f.children:
            f = replace(f, children=tuple(without_pointers(list(f.children), pointers, pointer)))
        kept.append(f)
    return kept


def reads_before_pointing(page: CheckPage, form) -> dict[str, str]:
    """What the check's board reader takes from this file for the asking side, shown before the
    player points at anything (support levels, markers); {} when it needs more to go on."""
    side = page.scope.grant.role if page.scope.grant else ((form.get("_side") if form is not None else None) or None)
    try:
        return fill_request(page.spec, page.positions, Pointed(), {}, scenario=page.scope.grant.scenario
                            if page.scope.grant else None, side=side).read
    except (BridgeError, ValueError, KeyError, TypeError):
        return {}


def pointed_at(form) -> Pointed:
    attackers = form.getlist("_attackers") or [
        a for a in re.split(r"[,\s]+", form.get("_attackers_text", "")) if a]
    return Pointed(attackers=attackers, target_hex=form.get("_target_hex", "").strip() or None,
                   target_map=form.get("_target_map", "").strip() or None,
                   unit=form.get("_unit", "").strip() or None)


def players_fields(page: CheckPage, form) -> dict[str, Any]:
    given, unreadable = form_request(page.fields, form)
    if unreadable:
        raise Problem(422, "The form cannot be read",
                      "; ".join(f"{e.location[0]}: {e}" for e in unreadable), kind="validation")
    return given


def compute_on_page(page: CheckPage, form) -> None:
    """The result with the players' dice, or the problem, onto the page."""
    try:
        given = players_fields(page, form)
        if page.spec.random:
            given["dice"] = [int(d) for d in re.findall(r"-?\d+", form.get("dice", ""))]
        body, fill = compute_from_file(page.spec, page.positions, given, pointed_at(form),
                                       form.get("_scenario") or None, form.get("_side") or None,
                                       form.get("_game_turn", "").strip() or None)
    except Problem as problem:
        page.problem = problem
        return
    request_shown = fill.request
    if fog_of(page.scope.system) is not None:  # a calculation shows the viewer only what the fog lets him see
        viewer = viewer_of(page.scope)
        result = {k: body.get(k) for k in ("outcome", "steps", "warnings", "dice_used")}
        sealed = seal(page.scope.system, page.spec.name, viewer or "", fill.request, result)
        seen = reveal(page.scope.system, {"request": sealed.request, "result": sealed.result}, sealed.parts,
                      viewer, closed=False)
        body = {**body, **seen["result"]}
        request_shown = seen["request"]
    page.result = body
    page.request_json = json.dumps(request_shown, indent=1, ensure_ascii=False)
    page.filled = fill.filled
    page.board_reads = fill.read
    page.warnings = fill.warnings
    page.changes = log_changes(page.positions, body, body.get("outcome") or {}, viewer_of(page.scope))


def odds_on_page(page: CheckPage, form) -> None:
    """The chances of the situation the file and the form give (no dice), or the problem, onto the page."""
    try:
        answer, fill = odds_from_file(page.spec, page.positions, players_fields(page, form), pointed_at(form),
                                      form.get("_scenario") or None, form.get("_side") or None,
                                      form.get("_game_turn", "").strip() or None, page.scope.grant)
    except Problem as problem:
        page.problem = problem
        return
    page.odds = answer
    page.request_json = json.dumps(fill.request, indent=1, ensure_ascii=False)
    page.filled = fill.filled
    page.board_reads = fill.read
    page.warnings = fill.warnings


def odds_page(scope: Scope, sha256: str, check: str, form=None):
    """The chances of the situation `form` (the request's form) gives, on the check's page."""
    form = request.form if form is None else form
    page = check_page(scope, sha256, check, form)
    if not page.spec.random:
        abort(404)
    odds_on_page(page, form)
    return render_check(page, form, page.problem.status if page.problem else 200)


def render_check(page: CheckPage, form=None, status: int = 200):
    game = page.positions.game
    name = unit_namer(page.scope)
    maps = boards(page.scope, page.upload, page.scope.grant.scenario if page.scope.grant else None)
    units = unit_choices(page.scope.system)
    every_field = form_fields(page.spec)
    response = Response(render_template(
        "bridge_check.html", info=system_info(page.scope.system), page=page, spec=page.spec, game=game,
        maps=maps, form=form if form is not None else MultiDict(), roles=roles(page.spec), system=page.scope.system, units=units,
        unit_index=unit_index(units), scope=page.scope, name=name,
        read_words=read_from_file(page.spec, game, every_field, page.scope.recorded),
        field_words=lambda pointer: field_path_words(every_field, pointer),
        withheld=rulings.chances_withheld(page.spec) if page.scope.recorded else "",
        seen_as=seen_as_choices(page.scope, game),
        seen_as_arg={"as": request.args["as"]} if request.args.get("as") and not page.scope.recorded else {}), status)
    response.headers["Cache-Control"] = "no-store"
    return response


def record_check(scope: Scope, sha256: str, check: str):
    """Roll the page's check in the recorded game, then show the ruling's own page."""
    form = request.form
    page = check_page(scope, sha256, check, form)
    try:
        given = players_fields(page, form)
        recorded, _ = record_from_file(scope.grant, page.spec, page.positions, given, pointed_at(form),
                                       form.get("_game_turn", "").strip() or None, page.request_id,
                                       warn_repeat=True, again=form.get("again"))
    except Problem as problem:
        page.problem = problem
        return render_check(page, form, problem.status)
    return redirect(url_for("game_pages.record", game_id=scope.grant.game_id, seq=recorded.record.seq,
                            upload=sha256), 303)


def continued_log(scope: Scope, upload: Upload, positions: Positions, body: dict, name: str,
                  outcome_seen: dict | None = None) -> Response:
    """The uploaded game continued by the ruling: its chat lines and the piece changes, as a .vlog
    (`outcome_seen`: the outcome as the asker sees it, his own hidden units named: their changes
    are his to apply)."""
    info = system_info(scope.system)
    saved, _ = read_kept(scope, upload)
    verify_url = ""
    if body.get("game_id"):
        base = services().config.public_url or request.host_url.rstrip("/")
        verify_url = f"{base}/games/{body['game_id']}#record-{body['seq']}"
    lines = chat_lines(body, system_name=info.name, verify_url=verify_url)
    outcome = outcome_seen if outcome_seen is not None else body.get("outcome") or {}
    changes = log_changes(positions, body, outcome, viewer_of(scope))
    log = ruling_log(upload.data, saved, positions, lines, changes)
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", (upload.name or scope.system).rsplit(".", 1)[0]) or scope.system
    return Response(log, mimetype="application/zip", headers={
        "Content-Disposition": f'attachment; filename="{stem}-{name}.vlog"', "Cache-Control": "no-store"})


# -- the blueprint ---------------------------------------------------------------------------------------

def make_bridge_pages_blueprint(config: Config, limiter: RouteLimiter) -> Blueprint:
    bp = Blueprint("bridge_pages", __name__)

    limited = pages_limit(config, limiter)
    chances_limited = odds_limited(config, limiter)

    # calculations ----------------------------------------------------------------------------------------

    @bp.get("/systems/<system>/savedgame")
    def system_form(system: str):
        return upload_form(system_scope_of(system))

    @bp.post("/systems/<system>/savedgame")
    @limited
    @guard(max_bytes=UPLOAD_BODY_BYTES)
    def system_upload(system: str):
        return receive(system_scope_of(system))

    @bp.get("/systems/<system>/savedgame/<sha256>")
    def system_report(system: str, sha256: str):
        return report(system_scope_of(system), sha256)

    @bp.get("/systems/<system>/savedgame/<sha256>/checks/<check>")
    def system_check(system: str, sha256: str, check: str):
        return render_check(check_page(system_scope_of(system), sha256, check))

    @bp.post("/systems/<system>/savedgame/<sha256>/checks/<check>")
    @limited
    def system_resolve(system: str, sha256: str, check: str):
        page = check_page(system_scope_of(system), sha256, check, request.form)
        compute_on_page(page, request.form)
        return render_check(page, request.form, page.problem.status if page.problem else 200)

    @bp.post("/systems/<system>/savedgame/<sha256>/checks/<check>/odds")
    @limited
    @chances_limited
    def system_odds(system: str, sha256: str, check: str):
        return odds_page(system_scope_of(system), sha256, check)

    @bp.post("/systems/<system>/savedgame/<sha256>/checks/<check>/vlog")
    @limited
    def system_vlog(system: str, sha256: str, check: str):
        scope = system_scope_of(system)
        page = check_page(scope, sha256, check, request.form)
        compute_on_page(page, request.form)
        if page.problem is not None:
            return render_check(page, request.form, page.problem.status)
        return continued_log(scope, page.upload, page.positions, page.result, check)

    # a recorded game -------------------------------------------------------------------------------------

    @bp.get("/games/<game_id>/savedgame")
    def game_form(game_id: str):
        return upload_form(game_scope(game_id))

    @bp.post("/games/<game_id>/savedgame")
    @limited
    @guard(max_bytes=UPLOAD_BODY_BYTES)
    def game_upload(game_id: str):
        return receive(game_scope(game_id))

    @bp.get("/games/<game_id>/savedgame/<sha256>")
    def game_report(game_id: str, sha256: str):
        return report(game_scope(game_id, write=False), sha256)

    @bp.post("/games/<game_id>/savedgame/<sha256>/supply")
    @limited
    @guard
    def game_supply(game_id: str, sha256: str):
        scope = game_scope(game_id)
        upload = kept_file(scope, sha256)
        positions = positions_of(scope, upload)
        refuse_other_scenario(scope.grant, positions)
        recorded = record_supply(scope.grant, positions, upload.data, upload.name,
                                 request.form.get("side", "").strip() or None,
                                 request.form.get("game_turn", "").strip() or None,
                                 request.form.get("request_id", "").strip() or None)
        return redirect(url_for("game_pages.record", game_id=game_id, seq=recorded.record.seq, upload=sha256), 303)

    @bp.get("/games/<game_id>/savedgame/<sha256>/checks/<check>")
    def game_check(game_id: str, sha256: str, check: str):
        return render_check(check_page(game_scope(game_id), sha256, check))

    @bp.post("/games/<game_id>/savedgame/<sha256>/checks/<check>")
    @limited
    @guard
    def game_resolve(game_id: str, sha256: str, check: str):
        return record_check(game_scope(game_id), sha256, check)

    @bp.post("/games/<game_id>/savedgame/<sha256>/checks/<check>/odds")
    @limited
    @guard
    def game_odds(game_id: str, sha256: str, check: str):
        """The Chances button: to the address of these chances (post/redirect/get, as a roll form's)."""
        game_scope(game_id)
        return redirect(situation_address(url_for("bridge_pages.game_chances", game_id=game_id, sha256=sha256,
                                                  check=check), request.form, "answer"), 303)

    @bp.get("/games/<game_id>/savedgame/<sha256>/checks/<check>/odds")
    @chances_limited
    def game_chances(game_id: str, sha256: str, check: str):
        return odds_page(game_scope(game_id), sha256, check, request.args)

    @bp.get("/games/<game_id>/records/<int:seq>/vlog")
    def game_record_vlog(game_id: str, seq: int):
        scope = game_scope(game_id, write=False)
        upload = kept_file(scope, request.args.get("upload", ""))
        positions = positions_of(scope, upload)
        answer, outcome = ruling_seen(game_id, seq, viewer_of(scope))
        return continued_log(scope, upload, positions, answer, f"record-{seq}", outcome)

    return bp
