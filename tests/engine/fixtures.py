"""pytest fixtures and the ``engine`` marker for tests that drive the real VASSAL engine.

Loaded by tests/conftest.py. A test marked ``@pytest.mark.engine`` (or using the ``engine``
fixture) skips with a clear reason when the engine cannot run here (``VASSAL_ENGINE_JAR`` unset,
Java libraries or Xvfb missing).
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Callable

import pytest

from tests.engine.harness import EngineRun, driver_classes, run_engine, skip_reason


def pytest_runtest_setup(item):
    if item.get_closest_marker("engine"):
        reason = skip_reason()
        if reason:
            pytest.skip(f"real VASSAL engine not available: {reason}")


@pytest.fixture(scope="session")
def engine() -> Callable[..., EngineRun]:
    """``run_engine`` once the engine is known to run here (the driver compiled); else skip."""
    reason = skip_reason()
    if reason:
        pytest.skip(f"real VASSAL engine not available: {reason}")
    driver_classes()
    return run_engine


@pytest.fixture(scope="session")
def engine_module(tmp_path_factory) -> Callable[[str], Path]:
    """A module built by modgen for a game id ("example" = docs/example), once per session."""
    from modgen.artwork import collect_images
    from modgen.build import build_entries, write_module
    from scenarios import load_game, load_game_dir

    out = tmp_path_factory.mktemp("engine-modules")
    art = tmp_path_factory.mktemp("engine-art")
    built: dict[str, Path] = {}

    def build(game_id: str) -> Path:
        if game_id not in built:
            example = Path(__file__).resolve().parent.parent.parent / "docs" / "example"
            game = load_game_dir(example) if game_id == "example" else load_game(game_id)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                result = build_entries(game, collect_images(game, cache_dir=art), "1.0")
            built[game_id] = write_module(result, out, f"{game_id}.vmod")
        return built[game_id]

    return build
