"""The saved-game pages: upload a ``.vsav``/``.vlog``; see the units by hex and the supply
report; resolve any position-based check from the file; download the ruling as a VASSAL log.

    GET  /systems/<system>/savedgame        the upload form
    POST /systems/<system>/savedgame        the report: positions, supply per side, the map with
                                            every out-of-supply unit ringed in red (or, with
                                            ``_check``, straight to that check's page)
    POST /systems/<system>/savedgame/check  a check from the file: the map to click attackers and
                                            the hex attacked on, the check's own fields for what
                                            the board cannot know; with ``_resolve`` the result
                                            beside the request built from the file
    POST /systems/<system>/savedgame/vlog   the uploaded game continued by the ruling (.vlog)
    GET  /games/<game_id>/log-check         verify a log received from the opponent (form)
    POST /games/<game_id>/log-check         its rulings against the game's ledger

The file travels with each form as base64 (``_file``): nothing is stored between the steps.
Page fields start with ``_`` so they never meet a check's field (those never do).

Same reading and rules as the API (:mod:`adjudicator.api.bridge`); errors are shown on the page
with the status the API would give. Element ids for browser tests: ``savedgame-form``,
``savedgame-error``, ``positions``, ``unit-<id>``, ``supply-<side>``, ``supply-unavailable``,
``unidentified``, ``map-<map>``, ``oos-<unit>``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Response, abort, render_template, request

from adjudicator.bridge.rulings import compute_from_file as compute_from_savedgame
from adjudicator.logcheck import check_log_of_game
from adjudicator.rulings import recorded_response as game_check_response
from adjudicator.bridge.errors import BridgeError
from adjudicator.bridge.fill import Pointed
from adjudicator.bridge.games import load_system_game
from adjudicator.bridge.openapi import savedgame_checks
from adjudicator.bridge.positions import Positions, read_positions
from adjudicator.bridge.supply import run_supply
from adjudicator.bridge.svg import map_svg
from adjudicator.bridge.upload import MAX_UPLOAD_BYTES, read_upload
from adjudicator.bridge.writeback import piece_changes, ruling_log
from adjudicator.checks import CheckSpec, checks_for, get_check
from adjudicator.forms import form_fields, form_request, submitted_values, unit_choices
from adjudicator.problems import Problem
from adjudicator.services import services
from adjudicator.storage import GameNotFound
from adjudicator.systems import system_info
from adjudicator.transcript import chat_lines

MULTIPART_OVERHEAD = 64 * 1024


def _form_page(system: str, error: BridgeError | None = None, status: int = 200, form=None):
    info = system_info(system)
    if info is None:
        abort(404)
    return render_template("bridge.html", info=info, error=error, form=form or {},
                           checks=savedgame_checks(checks_for(system)),
                           max_mb=MAX_UPLOAD_BYTES // (1024 * 1024)), status


@dataclass
class Upload:
    """The file a page works on: from the upload field, or carried along as base64 (`_file`)."""

    data: bytes
    name: str

    @property
    def b64(self) -> str:
        return base64.b64encode(self.data).decode("ascii")

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


def _upload() -> Upload:
    storage = request.files.get("file")
    if storage is not None and storage.filename:
        return Upload(storage.read(MAX_UPLOAD_BYTES + 1), storage.filename)
    try:
        data = base64.b64decode(request.form.get("_file", ""), validate=True)
    except (binascii.Error, ValueError):
        raise BridgeError(400, "Damaged form", "The saved game carried by the form is not valid "
                          "base64; upload the file again.", "bad-savedgame") from None
    return Upload(data, request.form.get("_name", ""))


def _board_fields(spec: CheckSpec) -> set[str]:
    """Top-level fields the file fills: the form leaves them out."""
    return {pointer[1:] for pointer, _ in spec.board if pointer.count("/") == 1}


def _roles(spec: CheckSpec) -> set[str]:
    return {role for pointer, role in spec.board if pointer.count("/") == 1}


@dataclass
class CheckPage:
    """What the check-from-a-saved-game page shows."""

    spec: CheckSpec
    upload: Upload
    positions: Positions
    fields: list
    values: dict
    result: dict | None = None
    request_json: str = ""
    filled: dict = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    changes: list = field(default_factory=list)
    problem: Problem | None = None
    recorded: bool = False


def _pointed(form) -> Pointed:
    attackers = form.getlist("_attackers") or [
        a for a in re.split(r"[,\s]+", form.get("_attackers_text", "")) if a]
    return Pointed(attackers=attackers, target_hex=form.get("_target_hex", "").strip() or None,
                   target_map=form.get("_target_map", "").strip() or None,
                   unit=form.get("_unit", "").strip() or None)


def _resolve(page: CheckPage, form) -> None:
    """Resolve the page's check from the file and the form; the result or the problem."""
    given, unreadable = form_request(page.fields, form)
    if unreadable:
        page.problem = Problem(422, "The form cannot be read",
                               "; ".join(f"{e.location[0]}: {e}" for e in unreadable), kind="validation")
        return
    if page.spec.random and not form.get("_game_id"):
        given["dice"] = [int(d) for d in re.findall(r"-?\d+", form.get("dice", ""))]
    where = _pointed(form)
    game_turn = form.get("_game_turn", "").strip() or None
    try:
        if form.get("_game_id") or form.get("_token"):
            grant = services().store.grant_for(form.get("_token", "").strip())
            if grant is None or grant.game_id != form.get("_game_id", "").strip():
                raise Problem(403, "Not a token of this game", "That is not a side token of that game.",
                              kind="forbidden")
            from adjudicator.bridge.rulings import record_from_file
            recorded, fill = record_from_file(grant, page.spec, page.positions, given, where, game_turn)
            body = recorded.response()
            page.recorded = True
        else:
            body, fill = compute_from_savedgame(page.spec, page.positions, given, where,
                                                form.get("_scenario") or None, form.get("_side") or None,
                                                game_turn)
    except Problem as problem:
        page.problem = problem
        return
    page.result = body
    page.request_json = json.dumps(fill.request, indent=1, ensure_ascii=False)
    page.filled = fill.filled
    page.warnings = fill.warnings
    page.changes = piece_changes(page.positions, body.get("outcome") or {})


def _check_page(system: str, spec: CheckSpec, upload: Upload, positions: Positions, form,
                resolve: bool):
    board = _board_fields(spec)
    fields = [f for f in form_fields(spec) if f.name not in board]
    # The example's situation is not this board's: start from its required values only.
    values = (submitted_values(fields, form) if "_resolve" in form
              else {f.name: f.preset if f.required else f.default for f in fields})
    page = CheckPage(spec, upload, positions, fields, values)
    if resolve:
        _resolve(page, form)
    game = positions.game
    maps = [(m, map_svg(game, m, [u for u in positions.on_map() if u.location.map == m.id]))
            for m in _maps_to_draw(positions, None)]
    units = unit_choices(system)
    status = 200 if page.problem is None else page.problem.status
    return render_template("bridge_check.html", info=system_info(system), page=page, game=game,
                           maps=maps, form=form, roles=_roles(spec), system=system, units=units,
                           unit_index={u.id: u for u in units},
                           example_dice=", ".join(str(d) for d in (spec.example or {}).get("dice", []))), status


def _maps_to_draw(positions, scenario_id: str | None) -> list:
    game = positions.game
    used = [m for m in game.maps if any(u.location.map == m for u in positions.on_map())]
    if scenario_id and scenario_id in game.scenarios:
        used += [m for m in game.scenarios[scenario_id].maps if m not in used]
    return [game.maps[m] for m in used]


def make_bridge_pages_blueprint() -> Blueprint:
    bp = Blueprint("bridge_pages", __name__)

    @bp.get("/systems/<system>/savedgame")
    def savedgame_form(system: str):
        return _form_page(system)

    def _read(system: str) -> tuple[Upload, Positions]:
        request.max_content_length = 2 * MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD  # base64 is longer
        upload = _upload()
        return upload, read_positions(load_system_game(system), read_upload(upload.data))

    def _check_of(system: str) -> CheckSpec:
        spec = get_check(system, request.form.get("_check", ""))
        if spec is None or spec not in savedgame_checks([spec]):
            abort(404)
        return spec

    @bp.post("/systems/<system>/savedgame/check")
    def savedgame_check(system: str):
        if system_info(system) is None:
            abort(404)
        spec = _check_of(system)
        try:
            upload, positions = _read(system)
        except BridgeError as error:
            return _form_page(system, error, error.status, request.form)
        return _check_page(system, spec, upload, positions, request.form, "_resolve" in request.form)

    @bp.post("/systems/<system>/savedgame/vlog")
    def savedgame_vlog(system: str):
        """The uploaded game continued by the ruling: its chat lines and the piece changes."""
        info = system_info(system)
        if info is None:
            abort(404)
        spec = _check_of(system)
        try:
            upload, positions = _read(system)
            saved = read_upload(upload.data)
        except BridgeError as error:
            return _form_page(system, error, error.status, request.form)
        page = CheckPage(spec, upload, positions, [], {})
        body = _recorded_body(request.form) if request.form.get("_seq") else None
        if body is None:
            page.fields = [f for f in form_fields(spec) if f.name not in _board_fields(spec)]
            _resolve(page, request.form)
            if page.problem is not None:
                return _check_page(system, spec, upload, positions, request.form, True)
            body = page.result
        verify_url = (f"{request.host_url.rstrip('/')}/games/{body['game_id']}#record-{body['seq']}"
                      if body.get("game_id") else "")
        lines = chat_lines(body, system_name=info.name, verify_url=verify_url)
        log = ruling_log(upload.data, saved, positions, lines, piece_changes(positions, body.get("outcome") or {}))
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", (upload.name or system).rsplit(".", 1)[0]) or system
        return Response(log, mimetype="application/zip", headers={
            "Content-Disposition": f'attachment; filename="{stem}-{spec.name}.vlog"'})

    @bp.get("/games/<game_id>/log-check")
    def log_check_form(game_id: str):
        return render_template("log_check.html", game_id=game_id, report=None, error=None)

    @bp.post("/games/<game_id>/log-check")
    def log_check(game_id: str):
        """Every adjudication line of an uploaded log against the ledger (any token of the game)."""
        grant = services().store.grant_for(request.form.get("token", "").strip())
        if grant is None or grant.game_id != game_id:
            return render_template("log_check.html", game_id=game_id, report=None,
                                   error="That is not a token of this game."), 403
        request.max_content_length = MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD
        storage = request.files.get("file")
        try:
            report = check_log_of_game(game_id, storage.read(MAX_UPLOAD_BYTES + 1) if storage else b"")
        except Problem as problem:
            return render_template("log_check.html", game_id=game_id, report=None,
                                   error=f"{problem.title}: {problem.detail}"), problem.status
        return render_template("log_check.html", game_id=game_id, report=report,
                               file_name=storage.filename if storage else "", error=None)

    @bp.post("/systems/<system>/savedgame")
    def savedgame_report(system: str):
        if system_info(system) is None:
            abort(404)
        form = request.form
        try:
            game = load_system_game(system)
            upload, positions = _read(system)
            data = upload.data
        except BridgeError as error:
            return _form_page(system, error, error.status, form)
        if form.get("_check"):
            return _check_page(system, _check_of(system), upload, positions, form, False)
        scenario = form.get("scenario", "").strip() or None
        side = form.get("side", "").strip() or None
        run, supply_error = None, None
        try:
            run = run_supply(game, positions, scenario, side, game_turn=form.get("game_turn", "").strip() or None)
        except BridgeError as error:
            supply_error = error
        out_ids = {u for u, _ in run.out_of_supply()} if run else set()
        in_ids = ({u.unit for r in run.reports for u in r.units if u.in_supply} if run else set())
        maps = [(m, map_svg(game, m, [u for u in positions.on_map() if u.location.map == m.id],
                            out_ids, in_ids))
                for m in _maps_to_draw(positions, run.scenario if run else scenario)]
        return render_template("bridge_report.html", info=system_info(system), game=game,
                               positions=positions, run=run, supply_error=supply_error,
                               out_ids=out_ids, maps=maps, file_name=upload.name, upload=upload,
                               checks=savedgame_checks(checks_for(system)))

    return bp


def _recorded_body(form) -> dict | None:
    """A recorded ruling, from the game's ledger (a token of the game is needed to read it)."""
    store = services().store
    grant = store.grant_for(form.get("_token", "").strip())
    if grant is None or grant.game_id != form.get("_game_id", "").strip():
        abort(403)
    try:
        records = store.records(grant.game_id)
    except GameNotFound:
        abort(404)
    record = next((r for r in records if str(r.seq) == form.get("_seq")), None)
    if record is None:
        abort(404)
    return game_check_response(record)
