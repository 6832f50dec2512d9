"""Shared by the art tests: the games they run over — every game with data,
plus the example game.

A game whose data does not load yet is skipped here (``scenarios check``
and the scenario tests report why); the art tests grow as data lands.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from scenarios import DataError, game_ids, load_game, load_game_dir

EXAMPLE_DIR = Path(__file__).resolve().parent.parent / "docs" / "example"
GAME_IDS = ["example", *game_ids()]


@lru_cache(maxsize=None)
def _load(game_id: str):
    if game_id == "example":
        return load_game_dir(EXAMPLE_DIR)
    return load_game(game_id)


def game_or_skip(game_id: str):
    try:
        return _load(game_id)
    except DataError as exc:
        pytest.skip(f"{game_id} data does not load yet: {str(exc).splitlines()[0]}")


def test_art_tests_cover_the_example_and_every_data_game():
    assert GAME_IDS[0] == "example"
    assert set(game_ids()) <= set(GAME_IDS)
