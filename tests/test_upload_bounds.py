"""Reading an upload is bounded work (issue 29): linear in the file, bounded in pieces, commands
and moves (413), bounded in time (503 with Retry-After, never gunicorn's timeout), one read at a
time per process; each answer is problem+json through the real routes.
"""

from __future__ import annotations

import io
import random
import threading
import zipfile
from dataclasses import replace

import pytest

from adjudicator.bridge import BridgeError, read_upload
from adjudicator.bridge import upload as upload_module
from adjudicator.testing import make_app
from bench.uploads import compression_bomb, many_pieces, saved_game, stacks_and_moves
from vassalfmt import WorkLimits
from vassalfmt.commands import AddPiece, ChangePiece, MovePiece, RemovePiece
from vassalfmt.piece import Piece
from vassalfmt.savedgame import _GameBuilder, read_command_text
from vassalfmt.sequence import ESC, encode
from vassalfmt.traits import BasicPiece

POSITIONS = "/api/v1/systems/kwb/savedgame/positions"


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path).test_client()


def post(client, data: bytes):
    return client.post(POSITIONS, data={"file": (io.BytesIO(data), "hostile.vsav")},
                       content_type="multipart/form-data")


def problem(response, status: int) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)[:400]
    assert response.mimetype == "application/problem+json"
    return response.get_json()


# -- the stack index gives the answers the scan gave ------------------------------------------------

class ScanningBuilder(_GameBuilder):
    """The reader as it was: a move onto a spot joins the first stack there, found by a scan."""

    def _first_stack_at(self, where):
        return next((sid for sid, s in self.stacks.items() if (s.map_id, s.x, s.y) == where), None)


def random_stream(rng: random.Random, steps: int) -> list:
    spots = [("Main Map", x * 10, y * 10) for x in range(3) for y in range(3)] + [("Other", 0, 0)]
    commands, pieces, stacks = [], [], []
    for n in range(steps):
        roll = rng.random()
        if roll < 0.25 or not pieces:
            map_id, x, y = rng.choice(spots)
            piece_id = f"p{n}"
            state = Piece([BasicPiece(name=piece_id, map_id=map_id, x=x, y=y)])
            commands.append(AddPiece(piece_id, state.type_string(), state.state_string()))
            pieces.append(piece_id)
        elif roll < 0.4:
            map_id, x, y = rng.choice(spots)
            stack_id = rng.choice(stacks) if stacks and rng.random() < 0.3 else f"s{n}"
            members = ";".join(rng.sample(pieces, min(len(pieces), rng.randint(1, 3))))
            commands.append(AddPiece(stack_id, "stack", f"{map_id};{x};{y};{members}"))
            stacks.append(stack_id)
        elif roll < 0.85:
            map_id, x, y = rng.choice(spots)
            mover = rng.choice(stacks) if stacks and rng.random() < 0.2 else rng.choice(pieces)
            under = rng.choice(pieces) if rng.random() < 0.2 else None
            commands.append(MovePiece(mover, map_id, x, y, under, None, 0, 0, None, "p"))
        elif roll < 0.93 and stacks:
            commands.append(RemovePiece(rng.choice(stacks)))
        else:
            victim = rng.choice(pieces)
            map_id, x, y = rng.choice(spots)
            state = Piece([BasicPiece(name=victim, map_id=map_id, x=x, y=y)])
            commands.append(ChangePiece(victim, state.state_string(), None))
    return commands


def built(builder_class, commands) -> list:
    builder = builder_class()
    for command in commands:
        builder.apply(command)
    return [(p.piece_id, p.map_id, p.x, p.y, p.stack_id) for p in builder.result()]


def test_finding_stacks_by_position_changes_no_answer():
    rng = random.Random(29)
    for _ in range(60):
        commands = random_stream(rng, 120)
        assert built(_GameBuilder, commands) == built(ScanningBuilder, commands)


@pytest.mark.slow
def test_a_log_of_many_stacks_and_moves_is_read_well_within_its_budget(client):
    """5,000 stacks and 20,000 moves: 100 million stack visits for the scan (minutes), a second here."""
    data = stacks_and_moves(5000, 20_000)
    response = client.post(POSITIONS, data={"file": (io.BytesIO(data), "long.vlog")},
                           content_type="multipart/form-data")
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert response.get_json()["file"]["is_log"] is True


# -- counts ----------------------------------------------------------------------------------------

@pytest.mark.slow
def test_the_70k_piece_save_is_refused_with_a_413(client):
    body = problem(post(client, many_pieces(70_000)), 413)
    assert body["type"].endswith(":savedgame-too-large")
    assert "20000 pieces" in body["detail"]
    assert "End Logfile" in body["detail"]  # what the player can do about it


@pytest.mark.parametrize("limits, data, words", [
    (WorkLimits(max_pieces=50), many_pieces(51), "more than 50 pieces"),
    (WorkLimits(max_commands=500), many_pieces(600), "more than 500 commands"),
    (WorkLimits(max_moves=100), stacks_and_moves(10, 101), "more than 100 moves"),
])
def test_each_count_is_bounded(limits, data, words):
    with pytest.raises(BridgeError) as caught:
        read_upload(data, work=limits)
    assert caught.value.status == 413 and words in caught.value.detail


def test_a_file_at_the_bounds_is_read():
    work = WorkLimits(max_pieces=50, max_commands=200, max_moves=100)
    assert len(read_upload(many_pieces(50), work=work).pieces) == 50
    assert read_upload(stacks_and_moves(10, 100), work=WorkLimits(max_moves=100)).is_log


# -- time ------------------------------------------------------------------------------------------

def test_a_read_past_its_time_is_a_503_with_retry_after():
    with pytest.raises(BridgeError) as caught:
        read_upload(stacks_and_moves(2000, 40_000), work=replace(upload_module.SAVEDGAME_WORK, seconds=0.05))
    error = caught.value
    assert error.status == 503 and error.kind == "savedgame-too-slow"
    assert int(error.headers["Retry-After"]) > 0


@pytest.mark.slow
def test_the_time_budget_answers_problem_json_through_the_route(client, monkeypatch):
    monkeypatch.setattr(upload_module, "SAVEDGAME_WORK", replace(upload_module.SAVEDGAME_WORK, seconds=0.05))
    body = problem(post(client, stacks_and_moves(2000, 40_000)), 503)
    assert body["type"].endswith(":savedgame-too-slow") and "try again" in body["detail"]


@pytest.mark.slow
def test_one_read_at_a_time_and_a_waiting_one_gives_up_within_its_budget():
    slots = upload_module._read_slots
    assert slots.acquire(timeout=5)  # another upload is being read
    try:
        finished = []
        waiter = threading.Thread(target=lambda: finished.append(_outcome(many_pieces(3), 0.3)))
        waiter.start()
        waiter.join(timeout=10)
    finally:
        slots.release()
    assert finished == [(503, "server-busy")]
    assert _outcome(many_pieces(3), 5) == (200, None)  # the slot is free again


def _outcome(data: bytes, seconds: float):
    try:
        read_upload(data, work=replace(upload_module.SAVEDGAME_WORK, seconds=seconds))
    except BridgeError as error:
        return error.status, error.kind
    return 200, None


# -- bombs and damage through the route ------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("method, name", [(zipfile.ZIP_BZIP2, "bzip2"), (zipfile.ZIP_LZMA, "lzma")])
def test_bombs_in_foreign_methods_are_422_through_the_route(client, method, name):
    body = problem(post(client, compression_bomb(method, 64 * 1024 * 1024)), 422)
    assert name in body["detail"]


@pytest.mark.slow
def test_a_command_stream_of_only_separators_is_bounded():
    text = encode(["x"] * 50, ESC) * 20_000  # a million fields
    data = saved_game([])
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        entries = {n: archive.read(n) for n in archive.namelist()}
    from vassalfmt import build_zip, obfuscate

    entries["savedGame"] = obfuscate(text)
    with pytest.raises(BridgeError) as caught:
        read_upload(build_zip(entries), work=WorkLimits(max_commands=10_000, seconds=10))
    assert caught.value.status == 413
    assert read_command_text("begin_save").pieces == []
