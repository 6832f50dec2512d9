"""The pages of a long file read it once (issue 53): the saved-game page and the log check page keep
what they read and judged by the file's content (and, for the log check, the ledger's state), so a
second view of the same file does not read it again; a ruling recorded since is judged anew. Counts
of reads and checks, not timings."""

from __future__ import annotations

import io

import pytest

from adjudicator.testing import bearer, make_app, new_game
from tests.replay_logs import LogWriter

COUNTER_BATTERY = {"un_marker": "sf-un-3", "communist_marker": "sf-com-1"}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("page-memo"))


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()


def a_log(modules, moves: int) -> bytes:
    """Pusan's setup continued by moves of one unit back and forth."""
    writer = LogWriter("kwb", modules[("kwb", 1)][2]["setups/pusan.vsav"])
    unit = next(u for u in writer.pieces if writer.hex_of(u))
    grid = writer.game.maps[writer.map_of(unit)].grid
    start = writer.hex_of(unit)
    there = grid.label(grid.neighbours(grid.parse(start))[0])
    for n in range(moves):
        writer.move(unit, there if n % 2 == 0 else start)
    return writer.log()


def test_the_saved_game_page_reads_a_file_once(client, modules, monkeypatch):
    from adjudicator.web import savedgame_pages as pages

    reads = []
    real = pages.read_upload
    monkeypatch.setattr(pages, "read_upload", lambda data, *a, **k: reads.append(len(data)) or real(data, *a, **k))
    log = a_log(modules, 40)
    kept = client.post("/systems/kwb/savedgame", data={"file": (io.BytesIO(log), "memo.vlog")},
                       content_type="multipart/form-data")
    assert kept.status_code == 303
    reads.clear()  # the upload reads it once to refuse what is no saved game
    for _ in range(3):
        assert client.get(kept.headers["Location"]).status_code == 200
    assert len(reads) == 1


def test_the_log_check_page_judges_the_same_files_once_per_ledger_state(client, modules, monkeypatch):
    from adjudicator.web import game_pages

    checks = []
    real = game_pages.check_log_of_game
    monkeypatch.setattr(game_pages, "check_log_of_game", lambda *a, **k: checks.append(a[0]) or real(*a, **k))
    game = new_game(client, "kwb", "pusan")
    client.post(f"/games/{game['game_id']}", data={"token": game["tokens"]["observer"]})
    log = a_log(modules, 41)

    def checked():
        page = client.post(f"/games/{game['game_id']}/log-check", data={"file": (io.BytesIO(log), "memo.vlog")},
                           content_type="multipart/form-data")
        assert page.status_code == 200, page.get_data(as_text=True)[:500]
        return page.get_data(as_text=True)
    first = checked()
    assert checked() == first and len(checks) == 1
    rolled = client.post(f"/api/v1/games/{game['game_id']}/counter_battery", json=COUNTER_BATTERY,
                         headers=bearer(game["tokens"]["un"]))
    assert rolled.status_code == 201
    checked()
    assert len(checks) == 2  # the ledger moved on: judged again, once
    checked()
    assert len(checks) == 2
