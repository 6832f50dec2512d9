"""Test-session assembly: the rules register into the check registry as the service's do.

`adjudicator.checks` is a leaf that the rules packages fill when imported; the app factory imports
them, and so does the test session, for the tests that call rules and registry functions directly.

`modules` builds each game's module entries (setups included) once per session, for the tests that
read the generated setups back through the saved-game bridge. modgen is imported there, in the
tests only: the adjudicator itself must not depend on it.
"""

from pathlib import Path

import pytest

from adjudicator.rules import register_all_games

# The real-engine harness's fixtures and `engine` marker (tests/engine/fixtures.py).
pytest_plugins = ["tests.engine.fixtures"]

register_all_games()


class Modules(dict):
    """(game, images, build entries) per (game id, art scale), built on first use."""

    def __init__(self, cache: Path):
        super().__init__()
        self.cache = cache

    def __missing__(self, key):
        from modgen.artwork import collect_images
        from modgen.build import build_entries
        from scenarios import load_game

        game_id, scale = key
        game = load_game(game_id)
        images = collect_images(game, scale=scale, cache_dir=self.cache)
        self[key] = (game, images, build_entries(game, images, "9.9.9").entries)
        return self[key]


@pytest.fixture(scope="session")
def modules(tmp_path_factory) -> Modules:
    return Modules(tmp_path_factory.mktemp("bridge-art-cache"))
