"""The replay pages: upload a received log (or every log of a game, in order) and step through it.

A recorded game (any token of the game, an observer's too; `adjudicator.web.page_tokens`; a replay is
the files of the token that uploaded them, `adjudicator.ledger.uploads`)::

    GET  /games/<id>/replay                          the upload form
    POST /games/<id>/replay                          keep the files, build their replay, go to it
    GET  /games/<id>/replay/<key>                    the replay: board, steps, rulings judged, dice
    GET  /games/<id>/replay/<key>/steps/<build>/<n>  piece n of its steps (JSON), fetched as the player steps
    GET  /games/<id>/replay/<key>/report.md          the after-action report as Markdown
    GET  /games/<id>/replay/<key>/report.html        ... and as HTML
    GET  /games/<id>/dice                            the game's dice record

A log of no recorded game (rulings shown as computed, unverified; ``?as=<side>`` to see as a side)::

    GET/POST /systems/<system>/replay, GET /systems/<system>/replay/<key>[/report.md|.html],
    GET /systems/<system>/replay/<key>/steps/<build>/<n>

The files are kept as the saved-game pages keep theirs (`adjudicator.ledger.uploads`), each once, and the
replay's address names a small list of them in order (`key`, the list's SHA-256): a refresh, the
Back button and a link sent to a friend with the same token open the same replay. The replay is
built once — by the upload, within its time budget (`adjudicator.bridge.upload.Budget`) — and kept
(`adjudicator.logs.replay.kept`) for its viewer and the ledger's state; a page whose viewer or ledger
has changed since (the game closed, a ruling recorded) builds it again, once. The page carries what
it shows at once, bounded whatever the log holds; its script fetches the steps in pieces. Nothing
is recorded in the ledger. Each viewer gets only what his side may see (`adjudicator.logs.replay.views`).

Element ids for browser tests: ``replay-form``, ``replay-files``, ``replay-error``, ``replay-summary``,
``replay-verdict``, ``replay-data`` (the JSON the script reads), ``replay-controls`` and its buttons
(``replay-start``, ``replay-back``, ``replay-forward``, ``replay-next-ruling``, ``replay-prev-ruling``,
``replay-end``, ``replay-turn``, ``replay-goto``), ``replay-position``, ``replay-step``,
``replay-offmap``, ``replay-steplist``, ``replay-rulings``, ``dice-record``, ``replay-report``.
"""

from __future__ import annotations

import json
import logging
import re
import time
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, redirect, render_template, request, url_for

from adjudicator import rulings
from adjudicator.web.artwork import artwork_of
from adjudicator.web.boardview import board_json
from adjudicator.bridge.errors import BridgeError
from adjudicator.bridge.games import load_system_game
from adjudicator.bridge.positions import read_positions
from adjudicator.bridge.upload import MAX_UPLOAD_BYTES, Budget, read_upload
from adjudicator.checks import canonical_side
from adjudicator.config import Config
from adjudicator.web.csrf import browser_key, guard
from adjudicator.web.dicechart import die_chart
from adjudicator.ledger.dicestats import DiceRecord
from adjudicator.web.game_pages import grant_or_login
from adjudicator.api.dice_record import game_dice_record
from adjudicator.logs.check import MAX_CHAIN_FILES
from adjudicator.web.page_tokens import page_grant
from adjudicator.problems import Problem
from adjudicator.api.ratelimits import RouteLimiter, pages_limit
from adjudicator.logs.replay.build import LedgerContext, Replay, build_replay
from adjudicator.logs.background import FAILED, RETRY_AFTER_SECONDS, RUNNING, WAITING, Job, Refused, jobs_of
from adjudicator.logs.replay.kept import Built, build_key, kept_mark, kept_page, kept_part, mark, packed_parts, store_parts
from adjudicator.logs.replay.views import Viewer
from adjudicator.services import services
from adjudicator.ledger.storage import OBSERVER, TokenGrant
from adjudicator.systems import system_info
from adjudicator.logs.session_line import SessionLineError
from adjudicator.ledger.uploads import browser_scope, grant_scope, is_sha256
from scenarios.model import Game
from vassalfmt import SavedGame, VassalFormatError

log = logging.getLogger(__name__)

MULTIPART_OVERHEAD = 64 * 1024
#: All the files of one replay together (a game's logs are a few MB at most).
MAX_REPLAY_BYTES = 2 * MAX_UPLOAD_BYTES
MANIFEST_NAME = "replay.json"
#: What a replay of no recorded game is asked with: whose eyes, and the scenario (names the turns).
SYSTEM_ARGS = ("as", "scenario")


# -- keeping the files ------------------------------------------------------------------------------

def keep_files(scope: str, files: list[tuple[str, bytes]]) -> str:
    """Keep each file and the list of them in order; the list's SHA-256 is the replay's address."""
    uploads = services().uploads
    kept = [{"name": name, "sha256": uploads.put(scope, name, data).sha256} for name, data in files]
    manifest = json.dumps({"replay": 1, "files": kept}, sort_keys=True).encode("utf-8")
    return uploads.put(scope, MANIFEST_NAME, manifest).sha256


def kept_files(scope: str, key: str) -> list[tuple[str, bytes]]:
    """The files of a kept replay, in order (404 when it is unknown or gone: upload again)."""
    uploads = services().uploads
    found = uploads.get(scope, key) if is_sha256(key) else None
    files = None
    if found is not None and found.name == MANIFEST_NAME:
        try:
            listed = json.loads(found.data)["files"]
            files = [(str(f["name"]), uploads.get(scope, f["sha256"])) for f in listed]
        except (ValueError, KeyError, TypeError):
            files = None
    if not files or any(upload is None for _, upload in files):
        raise Problem(404, "Replay not kept", "These files are not (or no longer) kept here: upload them again.",
                      kind="unknown-upload")
    return [(name, upload.data) for name, upload in files]


def received_files() -> list[tuple[str, bytes]] | BridgeError:
    """The files of the upload form, or the problem with them."""
    files = [(f.filename or "", f.read(MAX_UPLOAD_BYTES + 1)) for f in request.files.getlist("file") if f]
    files = [(name, data) for name, data in files if name or data]
    if not files:
        return BridgeError(400, "No log", "Choose a .vlog (or several logs of the game, in order).", "no-savedgame")
    if len(files) > MAX_CHAIN_FILES:
        return BridgeError(413, "Too many files", f"At most {MAX_CHAIN_FILES} files are replayed at once.",
                           "too-many-files")
    return files


def read_files(game: Game, files: list[tuple[str, bytes]], budget: Budget) -> list[tuple[str, SavedGame]]:
    """Each file read once within the request's budget; BridgeError naming a file that is no saved
    game of this system."""
    saved = []
    for name, data in files:
        try:
            one = read_upload(data, budget=budget, keep_commands=True)  # stepped through next: parsed once
            read_positions(game, one)
        except BridgeError as error:
            if error.kind == "request-too-slow":
                raise
            raise BridgeError(error.status, error.title, f"{name or 'A file'}: {error.detail}", error.kind,
                              headers=error.headers) from None
        saved.append((name, one))
    return saved


# -- whose eyes, and what a build depends on ---------------------------------------------------------

def game_viewer(grant: TokenGrant, game: Game, closed: bool) -> Viewer:
    """A recorded game's viewer: its side, or an observer; everyone once the game is closed."""
    if closed:
        return Viewer(sees_all=True)
    if grant.role == OBSERVER or grant.role not in game.sides:
        return Viewer()
    return Viewer(grant.role, game.sides[grant.role].name)


def calculation_viewer(game: Game) -> Viewer:
    """No recorded game: an observer's eyes, or a side's when the page is asked ``?as=<side>``."""
    side = canonical_side((request.args.get("as") or "").strip())
    if side and side in game.sides:
        return Viewer(side, game.sides[side].name)
    return Viewer()


@dataclass(frozen=True)
class ReplayOf:
    """What a replay is built from besides its files: where they are kept, the system, whose eyes,
    the scenario and, for a recorded game, its id (its ledger judges the rulings)."""

    scope: str
    system: str
    game: Game
    viewer: Viewer
    scenario: str | None = None
    game_id: str | None = None

    def ledger_head(self) -> str | None:
        return services().store.game(self.game_id)["head_hash"] if self.game_id else None

    def build_key(self, key: str, ledger_head: str | None) -> str:
        viewer = {"side": self.viewer.side, "all": self.viewer.sees_all}
        return build_key(key, viewer, ledger_head)


def ledger_of(of: ReplayOf) -> LedgerContext | None:
    """The recorded game's ledger the rulings are judged against (read by the request; the build
    runs beside it, `adjudicator.logs.background`)."""
    return LedgerContext(rulings.game_ledger(of.game_id), services().verification_keys()) if of.game_id else None


def build(of: ReplayOf, saved: list[tuple[str, SavedGame]], budget: Budget, ledger: LedgerContext | None = None,
          progress=None) -> Replay:
    """The replay of the files read, judged against `ledger` (a recorded game's)."""
    info = system_info(of.system)
    try:
        return build_replay(of.system, info.name if info else of.system, of.game, saved, of.viewer, of.scenario,
                            ledger, budget, progress)
    except SessionLineError as error:
        raise BridgeError(422, "The log's session line cannot be read", str(error), "bad-session-line") from None
    except BridgeError:
        raise
    except (VassalFormatError, ValueError, KeyError, IndexError, TypeError, RecursionError):
        log.exception("a kept log could not be replayed")
        raise BridgeError(422, "The log cannot be replayed", "The file is not a log this service can step through.",
                          "bad-savedgame") from None


# -- building beside the requests ----------------------------------------------------------------------

#: Seconds one replay's build may take beside the requests, reading its files included (the
#: largest log takes a few on an idle core; a busy server gets this long before it is refused).
BUILD_SECONDS = 120.0
#: A build another worker process noted as under way is waited for this long before it is
#: taken to have died with that process (and is started again).
BUILDING_STALE_SECONDS = BUILD_SECONDS + 30.0
#: Refusals of a build that a later try may not meet (a busy server): said once, not kept.
TRANSIENT = (503,)


@dataclass(frozen=True)
class Pending:
    """A replay not built yet: how far its build has come (the JSON its page polls)."""

    status: dict[str, Any]


def build_work(of: ReplayOf, files: list[tuple[str, bytes]], ledger: LedgerContext | None, build_id: str):
    """The build as a background job: read, built and packed in the job's thread (CPU only);
    `store_parts` keeps the parts."""
    def work(job: Job) -> list[tuple[str, str, bytes]]:
        budget = Budget(seconds=BUILD_SECONDS, beside_requests=True)
        job.progress("reading the files")
        saved = read_files(of.game, files, budget)
        job.progress("building the steps")
        replay = build(of, saved, budget, ledger, lambda steps: job.progress(f"building the steps: {steps:,} so far"))
        job.progress(f"writing its {replay.timeline.command_count:,} commands' steps and the report")
        return packed_parts(build_id, replay)[1]
    return work


def refusal(error: Exception) -> BridgeError:
    """A failed build as what the player is told."""
    if isinstance(error, BridgeError):
        return error
    if isinstance(error, Problem):
        return BridgeError(error.status, error.title, error.detail, error.kind or "bad-savedgame")
    log.error("a replay's build failed", exc_info=error)
    return BridgeError(422, "The log cannot be replayed", "The file is not a log this service can step through.",
                       "bad-savedgame")


def failed_status(error: BridgeError) -> dict[str, Any]:
    return {"state": "failed", "status": error.status, "title": error.title, "detail": error.detail, "kind": error.kind,
            "retry_after": error.headers.get("Retry-After") if error.headers else None}


def replay_now(of: ReplayOf, key: str, start: bool = True, shown: bool = True) -> Built | Pending:
    """The kept build of these files for this viewer and ledger state, or how far its build has
    come: started now (beside this request) when nothing is kept, none is under way and `start`.
    BridgeError when it was refused (too long, unreadable...; a busy server's refusal is forgotten
    once `shown`, so the next visit tries again), 404 Problem when the files are gone."""
    build_id = of.build_key(key, of.ledger_head())
    found = kept_page(of.scope, build_id)
    if found is not None:
        return found
    jobs = jobs_of(current_app._get_current_object())
    job = jobs.get(build_id)
    if job is not None and job.state == FAILED:
        error = refusal(job.error)
        if error.status in TRANSIENT and shown:
            jobs.forget_failure(build_id)  # said once: the next visit tries again
        raise error
    if job is not None:
        return Pending(job.status())
    failed = kept_mark(of.scope, build_id, "failed")
    if failed is not None:
        raise BridgeError(failed["status"], failed["title"], failed["detail"], failed["kind"])
    building = kept_mark(of.scope, build_id, "building")
    if building is not None and time.time() - building["since"] < BUILDING_STALE_SECONDS:
        return Pending({"state": RUNNING, "phase": "being built by another of the server's processes",
                        "seconds": round(time.time() - building["since"], 1)})
    if not start:
        return Pending({"state": WAITING, "phase": "not started"})
    files, ledger = kept_files(of.scope, key), ledger_of(of)
    scope, app = of.scope, current_app._get_current_object()

    def keep_failure(error: Exception) -> None:
        said = refusal(error)
        if said.status not in TRANSIENT:
            mark(scope, build_id, "failed", failed_status(said))
        else:  # no longer under way: another process may try again at once
            mark(scope, build_id, "building", {"since": 0.0})
    try:
        job = jobs.submit(build_id, f"{scope} {request.remote_addr}", build_work(of, files, ledger, build_id),
                          lambda parts: store_parts(scope, parts), app, keep_failure)
    except Refused as refused:
        raise BridgeError(refused.status, "Too many replays at once", refused.detail, "too-many-builds",
                          headers={"Retry-After": str(RETRY_AFTER_SECONDS)}) from None
    mark(scope, build_id, "building", {"since": time.time()})
    return Pending(job.status())


def built_replay(of: ReplayOf, key: str) -> Built:
    """The kept build (a report's download): 503 with Retry-After while it is being built."""
    try:
        now = replay_now(of, key)
    except BridgeError as error:
        raise Problem(error.status, error.title, error.detail, kind=error.kind, headers=error.headers) from None
    if isinstance(now, Pending):
        raise Problem(503, "The replay is being built", "Its page shows how far it has come; ask again when it is "
                      "ready.", kind="replay-building", headers={"Retry-After": "2"})
    return now


def upload(of: ReplayOf) -> str | BridgeError:
    """Keep the uploaded files and start their replay's build beside the requests (none when it is
    kept already: the same files, viewer and ledger state are built once): the replay's key, or the
    problem with the files."""
    files = received_files()
    if isinstance(files, BridgeError):
        return files
    key = keep_files(of.scope, files)
    try:
        replay_now(of, key)
    except BridgeError as error:
        if error.kind == "too-many-builds":
            return error
    return key


# -- answering ---------------------------------------------------------------------------------------

def replay_or_progress(of: ReplayOf, key: str, info, status_url: str, again: str,
                       game_id: str | None) -> Built | tuple:
    """The kept build; else the page that shows its build's progress (202, it polls `status_url`),
    or the upload form with the refusal (its status: 413 too long, 422 unreadable...)."""
    try:
        now = replay_now(of, key)
    except BridgeError as error:
        return (render_template("replay_upload.html", info=info, game_id=game_id, action=again, error=error),
                error.status, error.headers or {})
    if isinstance(now, Built):
        return now
    page = render_template("replay_building.html", info=info, game_id=game_id, status=now.status,
                           status_url=status_url)
    return page, 202, {"Cache-Control": "no-store", "Refresh": "5"}


def status_response(of: ReplayOf, key: str) -> Response:
    """How far the replay's build has come, as the building page polls it: ``ready``, ``waiting``
    or ``running`` (with the phase), or ``failed`` (with the refusal's status and words)."""
    try:
        now = replay_now(of, key, shown=False)
    except BridgeError as error:
        body = failed_status(error)
    else:
        body = {"state": "ready"} if isinstance(now, Built) else now.status
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-store"
    return response


def boards(page: dict[str, Any], game: Game) -> list:
    """(map, board data) of each map the replay uses, with no piece on it: the script draws the
    pieces as the player steps."""
    art = artwork_of(game)
    return [(game.maps[m], board_json(art, game.maps[m])) for m in page["maps"] if m in game.maps]


def render_replay(built: Built, game: Game, urls: dict[str, str], dice: DiceRecord | None, start: int) -> Response:
    page = built.page
    data = {key: page[key] for key in ("system", "game", "viewer", "files", "last_step", "piece_steps", "pieces",
                                       "turns", "ruling_steps", "maps", "summary")}
    data["art"] = artwork_of(game).base_url()
    response = Response(render_template(
        "replay.html", page=page, info=system_info(page["system"]), maps=boards(page, game), data=data,
        urls=urls, dice=dice, die_chart=die_chart, start=min(max(start, 0), page["last_step"])))
    response.headers["Cache-Control"] = "no-store"  # a replay is for this token's eyes
    return response


def piece_response(of: ReplayOf, build_id: str, number: int) -> Response:
    """One piece of a kept build's steps (404 when the build is not kept: the page is reloaded)."""
    piece = kept_part(of.scope, build_id, f"piece/{number}") if is_sha256(build_id) else None
    if piece is None:
        raise Problem(404, "Replay not kept", "This replay has changed or is no longer kept: reload the page.",
                      kind="unknown-upload")
    return Response(json.dumps(piece, separators=(",", ":")), mimetype="application/json",
                    headers={"Cache-Control": "no-store"})


def report_response(of: ReplayOf, key: str, kind: str) -> Response:
    built = built_replay(of, key)
    body = kept_part(of.scope, built.key, f"report.{kind}") or ""
    files = built.page["files"]
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", (files[0] if files else "replay").rsplit(".", 1)[0])
    if kind == "md":
        mimetype = "text/markdown"
    else:
        body = render_template("replay_report.html", title=built.page["report_title"], fragment=body)
        mimetype = "text/html"
    return Response(body, mimetype=mimetype, headers={
        "Content-Disposition": f'inline; filename="{stem or "replay"}-report.{kind}"', "Cache-Control": "no-store"})


def pieces_address(first_piece: str) -> str:
    """The address the page's script adds a piece's number to."""
    return first_piece.rsplit("/", 1)[0] + "/"


def start_step() -> int:
    try:
        return int(request.args.get("step", "0"))
    except ValueError:
        return 0


# -- the blueprint ---------------------------------------------------------------------------------------

def make_replay_blueprint(config: Config, limiter: RouteLimiter) -> Blueprint:
    """The replay pages: of a recorded game's log (any token of the game), and of a log of no recorded
    game (a calculation page's, for a system)."""
    bp = Blueprint("replay_pages", __name__)
    limited = pages_limit(config, limiter)
    _add_game_replay_routes(bp, limited)
    _add_system_replay_routes(bp, limited)
    return bp


def _add_game_replay_routes(bp: Blueprint, limited) -> None:
    """A recorded game's log replayed against its ledger, its steps, its report, and the game's dice."""

    def game_scope(game_id: str) -> tuple[TokenGrant, Game] | Response:
        grant = grant_or_login(game_id, write=False)
        if isinstance(grant, Response):
            return grant
        return grant, load_system_game(grant.system)

    def game_replay_of(grant: TokenGrant, game: Game) -> ReplayOf:
        closed = services().store.game(grant.game_id)["status"] == "closed"
        return ReplayOf(grant_scope(grant), grant.system, game, game_viewer(grant, game, closed), grant.scenario,
                        grant.game_id)

    def upload_form(game_id: str, grant: TokenGrant, error: BridgeError | None = None, status: int = 200):
        return render_template("replay_upload.html", info=system_info(grant.system), game_id=game_id,
                               action=url_for("replay_pages.game_upload", game_id=game_id), error=error), status

    @bp.get("/games/<game_id>/replay")
    def game_form(game_id: str):
        scoped = game_scope(game_id)
        if isinstance(scoped, Response):
            return scoped
        return upload_form(game_id, scoped[0])

    @bp.post("/games/<game_id>/replay")
    @limited
    @guard(max_bytes=MAX_REPLAY_BYTES + MULTIPART_OVERHEAD)
    def game_upload(game_id: str):
        grant = page_grant(game_id, write=False)
        key = upload(game_replay_of(grant, load_system_game(grant.system)))
        if isinstance(key, BridgeError):
            page, status = upload_form(game_id, grant, key, key.status)
            return page, status, key.headers
        return redirect(url_for("replay_pages.game_replay_page", game_id=game_id, key=key), 303)

    @bp.get("/games/<game_id>/replay/<key>")
    def game_replay_page(game_id: str, key: str):
        scoped = game_scope(game_id)
        if isinstance(scoped, Response):
            return scoped
        grant, game = scoped
        built = replay_or_progress(game_replay_of(grant, game), key, info=system_info(grant.system),
                                   status_url=url_for("replay_pages.game_status", game_id=game_id, key=key),
                                   again=url_for("replay_pages.game_upload", game_id=game_id), game_id=game_id)
        if not isinstance(built, Built):
            return built
        urls = {"md": url_for("replay_pages.game_report", game_id=game_id, key=key, kind="md"),
                "html": url_for("replay_pages.game_report", game_id=game_id, key=key, kind="html"),
                "again": url_for("replay_pages.game_form", game_id=game_id),
                "game": url_for("game_pages.game", game_id=game_id),
                "records": url_for("game_pages.record", game_id=game_id, seq=0).rsplit("/", 1)[0] + "/",
                "dice": url_for("replay_pages.game_dice_page", game_id=game_id),
                "pieces": pieces_address(url_for("replay_pages.game_piece", game_id=game_id, key=key, build=built.key,
                                                 number=0))}
        dice = game_dice_record(grant, rulings.game_ledger(game_id))
        return render_replay(built, game, urls, dice, start_step())

    @bp.get("/games/<game_id>/replay/<key>/status")
    def game_status(game_id: str, key: str):
        scoped = game_scope(game_id)
        if isinstance(scoped, Response):
            return scoped
        return status_response(game_replay_of(*scoped), key)

    @bp.get("/games/<game_id>/replay/<key>/steps/<build>/<int:number>")
    def game_piece(game_id: str, key: str, build: str, number: int):
        scoped = game_scope(game_id)
        if isinstance(scoped, Response):
            return scoped
        return piece_response(game_replay_of(*scoped), build, number)

    @bp.get("/games/<game_id>/replay/<key>/report.<any(md, html):kind>")
    def game_report(game_id: str, key: str, kind: str):
        scoped = game_scope(game_id)
        if isinstance(scoped, Response):
            return scoped
        return report_response(game_replay_of(*scoped), key, kind)

    @bp.get("/games/<game_id>/dice")
    def game_dice_page(game_id: str):
        scoped = game_scope(game_id)
        if isinstance(scoped, Response):
            return scoped
        grant, _ = scoped
        document = rulings.game_ledger(game_id)
        response = Response(render_template("dice.html", game_id=game_id, info=system_info(grant.system),
                                            dice=game_dice_record(grant, document), die_chart=die_chart,
                                            viewer=grant.role))
        response.headers["Cache-Control"] = "no-store"
        return response


def _add_system_replay_routes(bp: Blueprint, limited) -> None:
    """A log of no recorded game, replayed by a system's rules as the side the address names."""

    def system_game(system: str) -> Game:
        if system_info(system) is None:
            abort(404)
        return load_system_game(system)

    def system_replay_of(system: str, game: Game) -> ReplayOf:
        return ReplayOf(browser_scope(system, browser_key()), system, game, calculation_viewer(game),
                        request.args.get("scenario", "").strip() or None)

    @bp.get("/systems/<system>/replay")
    def system_form(system: str):
        system_game(system)
        return render_template("replay_upload.html", info=system_info(system), game_id=None,
                               action=url_for("replay_pages.system_upload", system=system), error=None)

    @bp.post("/systems/<system>/replay")
    @limited
    @guard(max_bytes=MAX_REPLAY_BYTES + MULTIPART_OVERHEAD)
    def system_upload(system: str):
        game = system_game(system)
        asked = {name: request.form.get(name, "").strip() for name in SYSTEM_ARGS}
        side = canonical_side(asked["as"])
        viewer = Viewer(side, game.sides[side].name) if side and side in game.sides else Viewer()
        key = upload(ReplayOf(browser_scope(system, browser_key()), system, game, viewer, asked["scenario"] or None))
        if isinstance(key, BridgeError):
            return render_template("replay_upload.html", info=system_info(system), game_id=None,
                                   action=url_for("replay_pages.system_upload", system=system),
                                   error=key), key.status, key.headers
        return redirect(url_for("replay_pages.system_replay_page", system=system, key=key,
                                **{k: v for k, v in asked.items() if v}), 303)

    @bp.get("/systems/<system>/replay/<key>")
    def system_replay_page(system: str, key: str):
        game = system_game(system)
        asked = {k: request.args[k] for k in SYSTEM_ARGS if request.args.get(k)}
        built = replay_or_progress(system_replay_of(system, game), key, info=system_info(system),
                                   status_url=url_for("replay_pages.system_status", system=system, key=key, **asked),
                                   again=url_for("replay_pages.system_upload", system=system), game_id=None)
        if not isinstance(built, Built):
            return built
        urls = {"md": url_for("replay_pages.system_report", system=system, key=key, kind="md", **asked),
                "html": url_for("replay_pages.system_report", system=system, key=key, kind="html", **asked),
                "again": url_for("replay_pages.system_form", system=system),
                "pieces": pieces_address(url_for("replay_pages.system_piece", system=system, key=key, build=built.key,
                                                 number=0))}
        return render_replay(built, game, urls, None, start_step())

    @bp.get("/systems/<system>/replay/<key>/status")
    def system_status(system: str, key: str):
        game = system_game(system)
        return status_response(system_replay_of(system, game), key)

    @bp.get("/systems/<system>/replay/<key>/steps/<build>/<int:number>")
    def system_piece(system: str, key: str, build: str, number: int):
        game = system_game(system)
        return piece_response(system_replay_of(system, game), build, number)

    @bp.get("/systems/<system>/replay/<key>/report.<any(md, html):kind>")
    def system_report(system: str, key: str, kind: str):
        game = system_game(system)
        return report_response(system_replay_of(system, game), key, kind)
