"""Helpers for the adjudicator's tests (and anyone scripting against the app in-process)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adjudicator.app import create_app


def make_app(tmp_path: Path, database_url: str | None = None, **overrides: Any):
    """An app on a fresh SQLite file (or `database_url`) with its own signing key."""
    config = {
        "DATABASE_URL": database_url or f"sqlite:///{tmp_path / 'adjudicator.sqlite3'}",
        "ADJUDICATOR_KEY_PATH": str(tmp_path / "signing-key.pem"),
        "ADJUDICATOR_RATELIMIT_ENABLED": False,
    }
    config.update(overrides)
    return create_app(config)


def first_scenario(client, system: str) -> str:
    systems = client.get("/api/v1/systems").get_json()["systems"]
    return next(s for s in systems if s["id"] == system)["scenarios"][0]["id"]


def new_game(client, system: str = "kwb", scenario: str | None = None) -> dict:
    """Create a game over the API; returns the creation response (id, tokens, commitment)."""
    scenario = scenario or first_scenario(client, system)
    response = client.post("/api/v1/games", json={"system": system, "scenario": scenario})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def a_side(game: dict) -> str:
    """A side token of the game (not the observer)."""
    return next(token for role, token in game["tokens"].items() if role != "observer")
