"""The module's pictures as the pages get them (adjudicator/web/artwork.py): the bytes ``art`` draws for the
module, at addresses that never change their bytes, a scanned board as the module holds it; and which
picture a piece shows a viewer (adjudicator/logs/replay/pictures.py)."""

from __future__ import annotations

import pytest

from adjudicator.web.artwork import IMMUTABLE, Artwork
from adjudicator.web.boardview import board_json
from adjudicator.logs.replay.pictures import back_picture, known_backs, marker_picture, unit_picture
from adjudicator.testing import make_app
from art.board import board_file
from art.render import block_back_image_name, counter_jobs, draw_and_encode, pool_back_image_name
from scenarios import load_game
from scenarios.loader import load_game_dir
from test_board_scan import scanned  # noqa: F401 (fixture)


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("artwork"), ADJUDICATOR_ART_CACHE="")


@pytest.mark.slow
def test_a_counter_is_the_modules_picture_at_an_address_kept_for_good(app):
    game = load_game("kwb")
    job = counter_jobs(game)[0]
    with app.test_request_context():
        art = Artwork(game, None)
        address = art.url(job.names[-1])
        stale = address.replace(art.version, "0" * 20)
    client = app.test_client()
    answer = client.get(address)
    assert answer.status_code == 200 and answer.mimetype == "image/png"
    assert answer.headers["Cache-Control"] == IMMUTABLE
    assert answer.data == draw_and_encode(job)[-1]
    moved = client.get(stale)  # a page made before the data was reloaded
    assert moved.status_code == 302 and moved.headers["Location"].endswith(address)
    assert moved.headers["Cache-Control"] == "no-store"
    assert client.get(address.replace(job.names[-1], "kwb_no-such-unit_full.png")).status_code == 404
    assert client.get(address.replace("/art/kwb/", "/art/nosuch/")).status_code == 404


def test_the_version_follows_the_pictures_content(app):
    game = load_game("holdfast")
    with app.test_request_context():
        first, again = Artwork(game, None), Artwork(load_game("holdfast"), None)
    assert first.version == again.version
    assert set(first.board_names) == set(game.maps)


def test_a_scanned_board_is_the_scan_straightened_and_its_grid_places_the_counters(app, scanned):  # noqa: F811
    game = load_game_dir(scanned)
    game_map = game.maps["ridge"]
    with app.test_request_context():
        art = Artwork(game, None)
        board = board_json(art, game_map)
    name = art.board_names["ridge"]
    data, media = art.picture(name)
    assert (data, media) == (board_file(game_map.board)[0], "image/png")
    grid = game_map.board.grid
    assert board["image"].endswith("/" + name) and (board["width"], board["height"]) == (grid.width, grid.height)
    assert board["scan"] is True
    assert all(board["centres"][grid.label(h)] == list(grid.center(h)) for h in game_map.hexes())


def test_a_hidden_piece_shows_only_a_back_the_game_draws():
    holdfast, kwb = load_game("holdfast"), load_game("kwb")
    unit = next(iter(holdfast.units.values()))
    assert unit_picture(holdfast, unit, "").endswith(f"_{unit.steps[0].name}.png")  # a step not said: full
    assert back_picture(holdfast, "un", "") == block_back_image_name(holdfast, "un")
    assert back_picture(holdfast, "un", "holdfast_nkpa-1_3.png") == block_back_image_name(holdfast, "un")  # no front
    pool = next(b for b in kwb.boxes.values() if b.draw == "secret")
    assert back_picture(kwb, pool.side, pool_back_image_name(kwb, pool)) == pool_back_image_name(kwb, pool)
    assert back_picture(kwb, "un", "") == ""  # KWB's counters have no block back: a plain square
    assert pool_back_image_name(kwb, pool) in known_backs(kwb)
    marker = next(m for m in kwb.markers.values() if len(m.faces) > 1)
    assert marker_picture(kwb, marker, marker.faces[1]).endswith("_1.png")
