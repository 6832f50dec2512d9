"""Helpers for the adjudicator's tests (and anyone scripting against the app in-process).

The service tests exercise a small *probe* check registered only for the test, so that they
test the service (ledger, receipts, idempotency, errors, pages) and keep working while the
games' rules packages change under their owners.
"""

from __future__ import annotations

import secrets
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient
from pydantic import Field
from werkzeug.datastructures import MultiDict

from adjudicator import csrf
from adjudicator.app import create_app
from adjudicator.page_tokens import COOKIE
from adjudicator.checks import (
    CheckRequest,
    CheckResult,
    Dice,
    Step,
    either_side,
    get_check,
    register_check,
    unregister_check,
)

PROBE_SYSTEM = "kwb"
PROBE_CHECK = "probe_roll"
PROBE_URL = f"/api/v1/systems/{PROBE_SYSTEM}/{PROBE_CHECK}"


class ProbeRequest(CheckRequest):
    target: int = Field(ge=1, le=36, description="The total needed for a hit.")
    dice_count: int = Field(default=1, ge=0, le=6, description="How many d6 to roll.")
    cautious: bool = Field(default=False, description="Needs one more for a hit.")


def probe_roll(req: ProbeRequest, dice: Dice) -> CheckResult:
    """Roll `dice_count` d6; a hit if the total reaches the target (+1 if cautious)."""
    rolls = dice.roll(6, count=req.dice_count, purpose="probe die") if req.dice_count else []
    needed = req.target + (1 if req.cautious else 0)
    total = sum(rolls)
    steps = [Step(f"Rolled {rolls}, total {total}; {needed} needed.", "Probe rule 1")]
    warnings = ["No dice: the total is 0."] if not rolls else []
    return CheckResult(outcome={"total": total, "hit": total >= needed}, steps=steps, warnings=warnings)


def _register_probe() -> None:
    register_check(
        system=PROBE_SYSTEM, name=PROBE_CHECK, request=ProbeRequest, random=True,
        summary="Test probe: roll dice against a target", rule="Probe rule 1",
        actor=either_side(rule="Probe rule 1", why="either player rolls"),
        example={"target": 7, "dice_count": 2, "dice": [3, 4]},
    )(probe_roll)


@contextmanager
def probe_check():
    """Register the probe check for the duration of a `with` block."""
    _register_probe()
    try:
        yield get_check(PROBE_SYSTEM, PROBE_CHECK)
    finally:
        unregister_check(PROBE_SYSTEM, PROBE_CHECK)


def make_app(tmp_path: Path, database_url: str | None = None, **overrides: Any):
    """An app on a fresh SQLite file (or `database_url`) with its own signing key, whose
    `test_client()` sends the pages' forms as the pages themselves do (`PageClient`); a test of a
    forged request makes a plain `FlaskClient(app)`."""
    config = {
        "DATABASE_URL": database_url or f"sqlite:///{tmp_path / 'adjudicator.sqlite3'}",
        "ADJUDICATOR_KEY_PATH": str(tmp_path / "signing-key.pem"),
        "ADJUDICATOR_RATELIMIT_ENABLED": False,
    }
    config.update(overrides)
    app = create_app(config)
    app.test_client_class = PageClient
    return app


def make_probe_app():
    """An app configured from the environment with the probe check registered for good.

    For end-to-end tests: `gunicorn 'adjudicator.testing:make_probe_app()'`.
    """
    _register_probe()
    return create_app()


def first_scenario(client, system: str) -> str:
    systems = client.get("/api/v1/systems").get_json()["systems"]
    return next(s for s in systems if s["id"] == system)["scenarios"][0]["id"]


def new_game(client, system: str = PROBE_SYSTEM, scenario: str | None = None) -> dict:
    """Create a game over the API; returns the creation response (id, tokens, commitment)."""
    scenario = scenario or first_scenario(client, system)
    response = client.post("/api/v1/games", json={"system": system, "scenario": scenario})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def probe_url(game: dict) -> str:
    """The game-mode URL of the probe check in `game`."""
    return f"/api/v1/games/{game['game_id']}/{PROBE_CHECK}"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def a_side(game: dict) -> str:
    """A side token of the game (not the observer)."""
    return next(token for role, token in game["tokens"].items() if role != "observer")


#: The address the test client asks for (werkzeug's default Host), as a browser's Origin says it.
TEST_ORIGIN = "http://localhost"


class PageClient(FlaskClient):
    """A test client that sends the pages' forms as a browser showing them would: with the
    service's Origin and the form token the page held (`adjudicator.csrf`). A plain
    `FlaskClient(app)` sends neither, as another site's forged form would not have them."""

    def post(self, path: str, *args: Any, data: Any = None, headers: dict | None = None, **kwargs: Any):
        if isinstance(data, dict) and not path.startswith("/api/") and csrf.FIELD not in data:
            data = data.copy() if isinstance(data, MultiDict) else dict(data)
            data[csrf.FIELD] = self.form_token(path)
        return super().post(path, *args, data=data, headers={"Origin": TEST_ORIGIN, **(headers or {})}, **kwargs)

    def form_token(self, path: str) -> str:
        """The token a page of `path`'s game (or of no game) shows this client."""
        session = self.get_cookie(csrf.SESSION_COOKIE)
        if session is None:
            self.set_cookie(csrf.SESSION_COOKIE, secrets.token_urlsafe(32), path="/")
            session = self.get_cookie(csrf.SESSION_COOKIE)
        parts = path.split("?")[0].split("/")
        login = self.get_cookie(COOKIE, path=f"/games/{parts[2]}") if parts[1:2] == ["games"] and len(parts) > 2 else None
        return csrf.token_for(session.value, login.value if login else "")

