"""The saved-game page: upload a ``.vsav``/``.vlog``, see the units by hex and the supply report.

    GET  /systems/<system>/savedgame    the upload form
    POST /systems/<system>/savedgame    the report: positions, supply per side, the map with
                                        every out-of-supply unit ringed in red

Same reading and rules as the API (:mod:`adjudicator.api.bridge`); errors are shown on the page
with the status the API would give. Element ids for browser tests: ``savedgame-form``,
``savedgame-error``, ``positions``, ``unit-<id>``, ``supply-<side>``, ``supply-unavailable``,
``unidentified``, ``map-<map>``, ``oos-<unit>``.
"""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request

from adjudicator.bridge.errors import BridgeError
from adjudicator.bridge.games import load_system_game
from adjudicator.bridge.positions import read_positions
from adjudicator.bridge.supply import run_supply
from adjudicator.bridge.svg import map_svg
from adjudicator.bridge.upload import MAX_UPLOAD_BYTES, read_upload
from adjudicator.systems import system_info

MULTIPART_OVERHEAD = 64 * 1024


def _form_page(system: str, error: BridgeError | None = None, status: int = 200, form=None):
    info = system_info(system)
    if info is None:
        abort(404)
    return render_template("bridge.html", info=info, error=error, form=form or {},
                           max_mb=MAX_UPLOAD_BYTES // (1024 * 1024)), status


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

    @bp.post("/systems/<system>/savedgame")
    def savedgame_report(system: str):
        if system_info(system) is None:
            abort(404)
        request.max_content_length = MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD
        form = request.form
        try:
            game = load_system_game(system)
            upload = request.files.get("file")
            data = upload.read(MAX_UPLOAD_BYTES + 1) if upload else b""
            positions = read_positions(game, read_upload(data))
        except BridgeError as error:
            return _form_page(system, error, error.status, form)
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
                               out_ids=out_ids, maps=maps,
                               file_name=upload.filename if upload else "")

    return bp
