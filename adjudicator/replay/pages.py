"""The replay pages: upload a received log (or every log of a game, in order) and step through it.

A recorded game (any token of the game, an observer's too; `adjudicator.page_tokens`; a replay is
the files of the token that uploaded them, `adjudicator.uploads`)::

    GET  /games/<id>/replay                          the upload form
    POST /games/<id>/replay                          keep the files, go to their replay
    GET  /games/<id>/replay/<key>                    the replay: board, steps, rulings judged, dice
    GET  /games/<id>/replay/<key>/report.md          the after-action report as Markdown
    GET  /games/<id>/replay/<key>/report.html        ... and as HTML
    GET  /games/<id>/dice                            the game's dice record

A log of no recorded game (rulings shown as computed, unverified; ``?as=<side>`` to see as a side)::

    GET/POST /systems/<system>/replay, GET /systems/<system>/replay/<key>[/report.md|.html]

The files are kept as the saved-game pages keep theirs (`adjudicator.uploads`), each once, and the
replay's address names a small list of them in order (`key`, the list's SHA-256): a refresh, the
Back button and a link sent to a friend with the same token open the same replay. Nothing is
recorded in the ledger. Each viewer gets only what his side may see (`adjudicator.replay.views`).

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

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for

from adjudicator import rulings
from adjudicator.bridge.errors import BridgeError
from adjudicator.bridge.games import load_system_game
from adjudicator.bridge.positions import read_positions
from adjudicator.bridge.svg import map_svg
from adjudicator.bridge.upload import MAX_UPLOAD_BYTES, read_upload
from adjudicator.checks import canonical_side
from adjudicator.config import Config
from adjudicator.csrf import guard
from adjudicator.dicechart import die_chart
from adjudicator.dicestats import DiceRecord
from adjudicator.game_pages import grant_or_login
from adjudicator.gamedice import game_dice_record
from adjudicator.logcheck import MAX_CHAIN_FILES
from adjudicator.page_tokens import page_grant
from adjudicator.problems import Problem
from adjudicator.ratelimits import RouteLimiter, pages_limit
from adjudicator.replay import report
from adjudicator.replay.build import LedgerContext, Replay, build_replay
from adjudicator.replay.views import Viewer
from adjudicator.services import services
from adjudicator.storage import OBSERVER, TokenGrant
from adjudicator.systems import system_info
from adjudicator.uploads import grant_scope, is_sha256, system_scope
from scenarios.model import Game
from vassalfmt import VassalFormatError

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


def check_files(game: Game, files: list[tuple[str, bytes]]) -> BridgeError | None:
    """A file that is no saved game of this system, said with its name."""
    for name, data in files:
        try:
            read_positions(game, read_upload(data))
        except BridgeError as error:
            return BridgeError(error.status, error.title, f"{name or 'A file'}: {error.detail}", error.kind)
    return None


# -- whose eyes --------------------------------------------------------------------------------------

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


# -- building ------------------------------------------------------------------------------------------

def replay_of(system: str, files: list[tuple[str, bytes]], viewer: Viewer, scenario: str | None,
              ledger: LedgerContext | None) -> Replay:
    info = system_info(system)
    game = load_system_game(system)
    try:
        saved = [(name, read_upload(data)) for name, data in files]
        return build_replay(system, info.name if info else system, game, saved, viewer, scenario, ledger)
    except BridgeError as error:
        raise Problem(error.status, error.title, error.detail, kind=error.kind) from None
    except (VassalFormatError, ValueError, KeyError, IndexError, TypeError, RecursionError):
        log.exception("a kept log could not be replayed")
        raise Problem(422, "The log cannot be replayed", "The file is not a log this service can step through.",
                      kind="bad-savedgame") from None


def game_ledger(game_id: str) -> LedgerContext:
    return LedgerContext(rulings.game_ledger(game_id), services().verification_keys())


def maps_svg(replay: Replay, game: Game) -> list:
    """The terrain of each map the replay uses, with no unit on it: the script draws the pieces."""
    return [(game.maps[m], map_svg(game, game.maps[m], [])) for m in replay.maps]


def render_replay(replay: Replay, game: Game, urls: dict[str, str], dice: DiceRecord | None,
                  start: int) -> Response:
    response = Response(render_template(
        "replay.html", replay=replay, info=system_info(replay.system), maps=maps_svg(replay, game),
        data=replay.to_json(), summary=replay.summary(), urls=urls, dice=dice, die_chart=die_chart,
        start=min(max(start, 0), len(replay.steps) - 1), aar_markdown=report.markdown(replay),
        aar_html=report.html(replay)))
    response.headers["Cache-Control"] = "no-store"  # a replay is for this token's eyes
    return response


def report_response(replay: Replay, kind: str) -> Response:
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", (replay.file_names[0] if replay.file_names else "replay").rsplit(".", 1)[0])
    if kind == "md":
        body, mimetype = report.markdown(replay), "text/markdown"
    else:
        body = render_template("replay_report.html", title=report.title(replay), fragment=report.html(replay))
        mimetype = "text/html"
    return Response(body, mimetype=mimetype, headers={
        "Content-Disposition": f'inline; filename="{stem or "replay"}-report.{kind}"', "Cache-Control": "no-store"})


def start_step() -> int:
    try:
        return int(request.args.get("step", "0"))
    except ValueError:
        return 0


# -- the blueprint ---------------------------------------------------------------------------------------

def make_replay_blueprint(config: Config, limiter: RouteLimiter) -> Blueprint:
    bp = Blueprint("replay_pages", __name__)

    limited = pages_limit(config, limiter)

    # a recorded game ---------------------------------------------------------------------------------------

    def game_scope(game_id: str) -> tuple[TokenGrant, Game] | Response:
        grant = grant_or_login(game_id, write=False)
        if isinstance(grant, Response):
            return grant
        return grant, load_system_game(grant.system)

    def game_replay(game_id: str, key: str) -> tuple[Replay, Game, TokenGrant, LedgerContext] | Response:
        scoped = game_scope(game_id)
        if isinstance(scoped, Response):
            return scoped
        grant, game = scoped
        files = kept_files(grant_scope(grant), key)
        ledger = game_ledger(game_id)
        viewer = game_viewer(grant, game, ledger.document["game"]["status"] == "closed")
        return replay_of(grant.system, files, viewer, grant.scenario, ledger), game, grant, ledger

    @bp.get("/games/<game_id>/replay")
    def game_form(game_id: str):
        scoped = game_scope(game_id)
        if isinstance(scoped, Response):
            return scoped
        grant, _ = scoped
        return render_template("replay_upload.html", info=system_info(grant.system), game_id=game_id,
                               action=url_for("replay_pages.game_upload", game_id=game_id), error=None)

    @bp.post("/games/<game_id>/replay")
    @limited
    @guard(max_bytes=MAX_REPLAY_BYTES + MULTIPART_OVERHEAD)
    def game_upload(game_id: str):
        grant = page_grant(game_id, write=False)
        files = received_files()
        problem = files if isinstance(files, BridgeError) else check_files(load_system_game(grant.system), files)
        if problem is not None:
            return render_template("replay_upload.html", info=system_info(grant.system), game_id=game_id,
                                   action=url_for("replay_pages.game_upload", game_id=game_id),
                                   error=problem), problem.status
        key = keep_files(grant_scope(grant), files)
        return redirect(url_for("replay_pages.game_replay_page", game_id=game_id, key=key), 303)

    @bp.get("/games/<game_id>/replay/<key>")
    def game_replay_page(game_id: str, key: str):
        built = game_replay(game_id, key)
        if isinstance(built, Response):
            return built
        replay, game, grant, ledger = built
        urls = {"md": url_for("replay_pages.game_report", game_id=game_id, key=key, kind="md"),
                "html": url_for("replay_pages.game_report", game_id=game_id, key=key, kind="html"),
                "again": url_for("replay_pages.game_form", game_id=game_id),
                "game": url_for("game_pages.game", game_id=game_id),
                "records": url_for("game_pages.record", game_id=game_id, seq=0).rsplit("/", 1)[0] + "/",
                "dice": url_for("replay_pages.game_dice_page", game_id=game_id)}
        return render_replay(replay, game, urls, game_dice_record(grant, ledger.document), start_step())

    @bp.get("/games/<game_id>/replay/<key>/report.<any(md, html):kind>")
    def game_report(game_id: str, key: str, kind: str):
        built = game_replay(game_id, key)
        if isinstance(built, Response):
            return built
        return report_response(built[0], kind)

    @bp.get("/games/<game_id>/dice")
    def game_dice_page(game_id: str):
        scoped = game_scope(game_id)
        if isinstance(scoped, Response):
            return scoped
        grant, _ = scoped
        document = game_ledger(game_id).document
        response = Response(render_template("dice.html", game_id=game_id, info=system_info(grant.system),
                                            dice=game_dice_record(grant, document), die_chart=die_chart,
                                            viewer=grant.role))
        response.headers["Cache-Control"] = "no-store"
        return response

    # a log of no recorded game -------------------------------------------------------------------------------

    def system_game(system: str) -> Game:
        if system_info(system) is None:
            abort(404)
        return load_system_game(system)

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
        files = received_files()
        problem = files if isinstance(files, BridgeError) else check_files(game, files)
        if problem is not None:
            return render_template("replay_upload.html", info=system_info(system), game_id=None,
                                   action=url_for("replay_pages.system_upload", system=system),
                                   error=problem), problem.status
        key = keep_files(system_scope(system), files)
        asked = {name: request.form.get(name, "").strip() for name in SYSTEM_ARGS}
        return redirect(url_for("replay_pages.system_replay_page", system=system, key=key,
                                **{k: v for k, v in asked.items() if v}), 303)

    def system_replay(system: str, key: str) -> tuple[Replay, Game]:
        game = system_game(system)
        files = kept_files(system_scope(system), key)
        scenario = request.args.get("scenario", "").strip() or None
        return replay_of(system, files, calculation_viewer(game), scenario, None), game

    @bp.get("/systems/<system>/replay/<key>")
    def system_replay_page(system: str, key: str):
        replay, game = system_replay(system, key)
        asked = {k: request.args[k] for k in SYSTEM_ARGS if request.args.get(k)}
        urls = {"md": url_for("replay_pages.system_report", system=system, key=key, kind="md", **asked),
                "html": url_for("replay_pages.system_report", system=system, key=key, kind="html", **asked),
                "again": url_for("replay_pages.system_form", system=system)}
        return render_replay(replay, game, urls, None, start_step())

    @bp.get("/systems/<system>/replay/<key>/report.<any(md, html):kind>")
    def system_report(system: str, key: str, kind: str):
        return report_response(system_replay(system, key)[0], kind)

    return bp
