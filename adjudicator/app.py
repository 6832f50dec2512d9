"""The Flask app factory.

    from adjudicator.app import create_app
    app = create_app()                                   # configured from the environment
    app = create_app({"DATABASE_URL": "sqlite:///x.db"})  # overrides, e.g. in tests

Everything expensive happens here, once per process: opening the database engine (and
creating missing tables), loading or creating the signing key, recording its public half,
and building the OpenAPI and systems documents.
"""

from __future__ import annotations

import gc
import json
import logging
from typing import Any, Mapping

from flask import Flask, jsonify

from adjudicator import served_data
from adjudicator.api import make_api_blueprint
from adjudicator.api.bridge import register_bridge
from adjudicator.web.savedgame_pages import make_bridge_pages_blueprint
from adjudicator.api.games import well_known_keys
from adjudicator.api.systems import systems_document
from adjudicator.web.artwork import make_artwork_blueprint
from adjudicator.checks import SYSTEM_IDS
from adjudicator.config import Config
from adjudicator.web.csrf import register_csrf
from adjudicator.web.game_pages import make_game_pages_blueprint
from adjudicator.web.headers import register_security_headers
from adjudicator.json_provider import OrjsonProvider
from adjudicator.ledger.keys import load_or_create_signing_key
from adjudicator.api.openapi import build_openapi
from adjudicator.web.pages import make_pages_blueprint
from adjudicator.problems import register_error_handlers
from adjudicator.api.ratelimits import make_limiter
from adjudicator.web.replay_pages import make_replay_blueprint
from adjudicator.rules import register_all_games
from adjudicator.services import Services
from adjudicator.ledger.storage import StorageUnavailable, Store, make_engine
from adjudicator.ledger.uploads import Uploads

log = logging.getLogger(__name__)


def prepare(config: Config, *, storage_may_be_down: bool = False) -> Services:
    """Open storage and keys for `config` (also used by the CLI and gunicorn's master).

    Raises `StorageUnavailable` (a RuntimeError whose text says what is wrong) when the
    database cannot be written, so `adjudicator serve` and gunicorn's master stop with that
    sentence. A gunicorn worker (`storage_may_be_down`) starts anyway: its master created the
    tables and recorded the key already, and a worker that refused to boot during a database
    outage would make gunicorn stop the whole service instead of answering 503 until the
    database is back.
    """
    store = Store(make_engine(config.database_url, config.sqlite_synchronous))
    key = load_or_create_signing_key(config.key_path)
    try:
        store.create_schema()
        store.register_public_key(key)
    except StorageUnavailable as error:
        if not storage_may_be_down:
            raise
        log.error("%s; this worker answers 503 until it is back", error)
    return Services(config=config, store=store, signing_key=key, uploads=Uploads(store))


_SETTLED = False


def settle_game_data() -> None:
    """Load every game's data now (or take the master's), and leave it out of the garbage collector's
    full sweeps.

    The data is read-only and lives as long as the process. A full collection walks every tracked
    object, and the four games are some 120,000 of them: it paused whatever request it fell in by
    ~70 ms (a check's chances, bench odds: p99 95 ms against a median of 29). Frozen (`gc.freeze`)
    they are never walked again. Once per process, so apps made later (tests) do not freeze their
    own garbage; loading here also spares the first request the reading."""
    global _SETTLED
    if _SETTLED:
        return
    served_data.ensure_read(SYSTEM_IDS)  # under gunicorn, the games its master read (served_data)
    gc.freeze()
    _SETTLED = True


def create_app(config: Config | Mapping[str, Any] | None = None, *, storage_may_be_down: bool = False) -> Flask:
    """The app; `storage_may_be_down` for gunicorn's workers (see `prepare`)."""
    if not isinstance(config, Config):
        config = Config.load(config)
    register_all_games()
    app = Flask(__name__, static_folder="web/static")
    app.config["MAX_CONTENT_LENGTH"] = config.max_body_bytes
    app.json = OrjsonProvider(app)

    svc = prepare(config, storage_may_be_down=storage_may_be_down)
    svc.openapi = build_openapi()
    svc.openapi_json = json.dumps(svc.openapi).encode("utf-8")
    svc.systems_json = json.dumps(systems_document()).encode("utf-8")
    app.extensions["adjudicator"] = svc

    limiter = make_limiter(app, config)
    svc.limiter = limiter
    register_error_handlers(app)
    register_security_headers(app)
    register_csrf(app)

    @app.get("/ping")
    def ping():
        return jsonify(ok=True)

    app.add_url_rule("/.well-known/adjudicator-keys.json", "keys", well_known_keys)
    app.register_blueprint(make_api_blueprint(config, limiter))
    app.register_blueprint(make_pages_blueprint(config, limiter))
    app.register_blueprint(make_game_pages_blueprint(config, limiter))
    register_bridge(app, config, limiter)
    app.register_blueprint(make_bridge_pages_blueprint(config, limiter))
    app.register_blueprint(make_replay_blueprint(config, limiter))
    app.register_blueprint(make_artwork_blueprint())
    settle_game_data()
    return app
