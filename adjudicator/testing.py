"""Helpers for the adjudicator's tests (and anyone scripting against the app in-process).

The service tests exercise a small *probe* check registered only for the test, so that they
test the service (ledger, receipts, idempotency, errors, pages) and keep working while the
games' rules packages change under their owners.

A test fixes the dice it needs: a recorded game's dice follow from its seed (`adjudicator.ledger.dice`),
so a test chooses the seed of the games it creates (`choose_seeds`, or for a gunicorn server
`make_test_app` with ``ADJUDICATOR_TEST_SEEDS``) — one found by `seed_rolling` (dice of a record
in a range) or `seed_where` (a check's outcome). Only this module sets a store's seed chooser: no
setting or request of the service reaches it.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import secrets
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable

from flask.testing import FlaskClient
from pydantic import Field
from werkzeug.datastructures import MultiDict

from adjudicator.web import csrf
from adjudicator.app import create_app
from adjudicator.web.cookies import seal_login
from adjudicator.web.page_tokens import COOKIE
from adjudicator.checks import (
    CheckRequest,
    CheckResult,
    CheckSpec,
    Dice,
    Step,
    either_side,
    get_check,
    register_check,
    run_check,
    unregister_check,
)
from adjudicator.ledger.dice import LedgerDice, derive_die

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
    forged request makes a plain `FlaskClient(app)`. Its games' seeds are `unchosen_seeds` until a
    test chooses them: no run depends on a server's luck."""
    config = {
        "DATABASE_URL": database_url or f"sqlite:///{tmp_path / 'adjudicator.sqlite3'}",
        "ADJUDICATOR_KEY_PATH": str(tmp_path / "signing-key.pem"),
        "ADJUDICATOR_RATELIMIT_ENABLED": False,
    }
    config.update(overrides)
    app = create_app(config)
    app.test_client_class = PageClient
    choose_seeds(app, {})  # reproducible dice; a test that needs given dice chooses them (`choose_seeds`)
    return app


def make_probe_app():
    """An app configured from the environment with the probe check registered for good.

    For end-to-end tests: `gunicorn 'adjudicator.testing:make_probe_app()'`.
    """
    _register_probe()
    return create_app()


# -- chosen dice ----------------------------------------------------------------------------------

#: ``ADJUDICATOR_TEST_SEEDS`` (for `make_test_app` only): a JSON object of seeds (hex) by the games
#: they are for: "<system>/<scenario>", "<system>" or "*".
TEST_SEEDS_ENV = "ADJUDICATOR_TEST_SEEDS"
#: How many candidate seeds a search tries before it gives up (a wish the dice cannot grant).
SEED_TRIES = 20_000


def candidate_seeds(tries: int = SEED_TRIES) -> Iterable[bytes]:
    """The seeds a search tries, always the same ones in the same order (a test is deterministic)."""
    for number in range(tries):
        yield hashlib.sha256(f"adjudicator test seed {number}".encode("ascii")).digest()


def seed_rolling(seq: int, sides: int, allowed: Iterable[int], indexes: Iterable[int] = range(6)) -> bytes:
    """A seed whose record `seq` rolls, on a die of `sides` at each of `indexes` (the dice of the
    record, in order), a value in `allowed`: whichever of them a check rolls for what it decides."""
    allowed, indexes = set(allowed), list(indexes)
    for seed in candidate_seeds():
        if all(derive_die(seed, seq, index, sides) in allowed for index in indexes):
            return seed
    raise LookupError(f"no test seed rolls {sorted(allowed)} on d{sides} at dice {indexes} of record {seq}")


def seed_where(spec: CheckSpec, request: dict[str, Any], wanted: Callable[[dict[str, Any]], bool],
               seq: int = 1) -> bytes:
    """A seed whose record `seq`, asking `spec` with `request`, has an outcome `wanted` says yes to."""
    return seed_for((spec, request, wanted, seq))


def seed_for(*wishes: tuple[CheckSpec, dict[str, Any], Callable[[dict[str, Any]], bool], int]) -> bytes:
    """A seed that grants every wish: (check, request, outcome wanted, the record it is asked as)."""
    asked = [(spec, spec.request.model_validate_json(json.dumps(request)), wanted, seq)
             for spec, request, wanted, seq in wishes]
    for seed in candidate_seeds():
        if all(wanted(run_check(spec, req, LedgerDice(seed, seq)).to_json()["outcome"]) for spec, req, wanted, seq in asked):
            return seed
    raise LookupError(f"no test seed gives {', '.join(spec.key for spec, *_ in wishes)} the outcomes wanted")


def unchosen_seeds() -> Callable[[str, str], bytes]:
    """The seeds of the games a test did not choose dice for: the n-th game this chooser gives one
    gets ``sha256("adjudicator test game <n>")``, so a run is the same run every time (its games'
    seeds still differ, as a server's do), whatever a server's luck would have been."""
    made = itertools.count()

    def choose(system: str, scenario: str) -> bytes:
        return hashlib.sha256(f"adjudicator test game {next(made)}".encode("ascii")).digest()

    return choose


def seed_chooser(seeds: dict[str, bytes],
                 otherwise: Callable[[str, str], bytes] | None = None) -> Callable[[str, str], bytes]:
    """A store's seed chooser (`Store.new_seed`) giving the games of a key of `seeds` ("<system>/
    <scenario>", "<system>" or "*") that seed; any other game one of `otherwise` (`unchosen_seeds`:
    never the server's own random seed, so a test's run is reproducible)."""
    otherwise = otherwise or unchosen_seeds()

    def choose(system: str, scenario: str) -> bytes:
        for key in (f"{system}/{scenario}", system, "*"):
            if key in seeds:
                return seeds[key]
        return otherwise(system, scenario)

    return choose


#: Where an app keeps its `unchosen_seeds`, whose count goes on across `choose_seeds` calls.
UNCHOSEN_SEEDS = "adjudicator.testing:unchosen-seeds"


def choose_seeds(app, seeds: dict[str, bytes]) -> None:
    """The games `app` creates from now on get these seeds (see `seed_chooser`); the others go on
    getting the app's own `unchosen_seeds`."""
    otherwise = app.extensions.setdefault(UNCHOSEN_SEEDS, unchosen_seeds())
    app.extensions["adjudicator"].store.new_seed = seed_chooser(seeds, otherwise)


def seeds_env(seeds: dict[str, bytes]) -> dict[str, str]:
    """The environment that gives a `make_test_app` server these seeds."""
    return {TEST_SEEDS_ENV: json.dumps({key: seed.hex() for key, seed in seeds.items()})}


def make_test_app():
    """A gunicorn app for the tests (`gunicorn 'adjudicator.testing:make_test_app()'`): the
    service configured from the environment, the probe check registered, and the seeds of the
    games it creates chosen by ``ADJUDICATOR_TEST_SEEDS`` (see `seed_chooser`)."""
    app = make_probe_app()
    chosen = json.loads(os.environ.get(TEST_SEEDS_ENV) or "{}")
    choose_seeds(app, {key: bytes.fromhex(value) for key, value in chosen.items()})
    return app


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
    service's Origin and the form token the page held (`adjudicator.web.csrf`). A plain
    `FlaskClient(app)` sends neither, as another site's forged form would not have them."""

    def post(self, path: str, *args: Any, data: Any = None, headers: dict | None = None, **kwargs: Any):
        if isinstance(data, dict) and not path.startswith("/api/") and csrf.FIELD not in data:
            data = data.copy() if isinstance(data, MultiDict) else dict(data)
            data[csrf.FIELD] = self.form_token(path)
        return super().post(path, *args, data=data, headers={"Origin": TEST_ORIGIN, **(headers or {})}, **kwargs)

    def form_token(self, path: str) -> str:
        """The token a page of `path`'s game (or of no game) shows this client."""
        parts = path.split("?")[0].split("/")
        login = self.get_cookie(COOKIE, path=f"/games/{parts[2]}") if parts[1:2] == ["games"] and len(parts) > 2 else None
        return csrf.token_for(self.session(), login.value if login else "")

    def session(self) -> str:
        """This client's session cookie (plain HTTP's name), made as a page would when it has none."""
        session = self.get_cookie(csrf.SESSION_COOKIE)
        if session is None:
            self.set_cookie(csrf.SESSION_COOKIE, secrets.token_urlsafe(32), path="/")
            session = self.get_cookie(csrf.SESSION_COOKIE)
        return session.value

    def log_in(self, game_id: str, token: str) -> None:
        """Hold the game's login as the page's token form leaves it (plain HTTP): the token tied to this
        client's session (`adjudicator.web.cookies`), without posting the form."""
        self.set_cookie(COOKIE, seal_login(self.session(), token), path=f"/games/{game_id}")



def replay_settled(client, address: str, timeout: float = 120.0):
    """The replay page at `address` once its build (beside the requests, adjudicator.logs.background)
    has ended: the replay (200) or the refusal (its status). Polls the page's JSON status as the
    page's script does."""
    import time

    ends = time.monotonic() + timeout
    path, _, query = address.partition("?")
    while True:
        status = client.get(f"{path}/status" + (f"?{query}" if query else "")).get_json()
        if status["state"] in ("ready", "failed") or time.monotonic() > ends:
            return client.get(address)
        time.sleep(0.05)
