"""The Flask app factory.

    from adjudicator.app import create_app
    app = create_app()                                   # configured from the environment
    app = create_app({"DATABASE_URL": "sqlite:///x.db"})  # overrides, e.g. in tests

Everything expensive happens here, once per process: opening the database engine (and
creating missing tables), loading or creating the signing key, recording its public half,
and building the OpenAPI and systems documents.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from flask import Flask, jsonify

from adjudicator.api import make_api_blueprint
from adjudicator.api.bridge import register_bridge
from adjudicator.api.games import well_known_keys
from adjudicator.api.systems import systems_document
from adjudicator.config import Config
from adjudicator.game_pages import make_game_pages_blueprint
from adjudicator.json_provider import OrjsonProvider
from adjudicator.keys import load_or_create_signing_key
from adjudicator.openapi import build_openapi
from adjudicator.pages import make_pages_blueprint
from adjudicator.problems import register_error_handlers
from adjudicator.ratelimits import make_limiter
from adjudicator.replay.pages import make_replay_blueprint
from adjudicator.rules import register_all_games
from adjudicator.services import Services
from adjudicator.storage import Store, make_engine
from adjudicator.uploads import Uploads


def prepare(config: Config) -> Services:
    """Open storage and keys for `config` (also used by the CLI and gunicorn's master)."""
    store = Store(make_engine(config.database_url, config.sqlite_synchronous))
    store.create_schema()
    key = load_or_create_signing_key(config.key_path)
    store.register_public_key(key)
    return Services(config=config, store=store, signing_key=key, published_keys=store.public_keys(),
                    uploads=Uploads(store))


def create_app(config: Config | Mapping[str, Any] | None = None) -> Flask:
    if not isinstance(config, Config):
        config = Config.load(config)
    register_all_games()
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = config.max_body_bytes
    app.json = OrjsonProvider(app)

    svc = prepare(config)
    svc.openapi = build_openapi()
    svc.openapi_json = json.dumps(svc.openapi).encode("utf-8")
    svc.systems_json = json.dumps(systems_document()).encode("utf-8")
    app.extensions["adjudicator"] = svc

    limiter = make_limiter(app, config)
    svc.limiter = limiter
    register_error_handlers(app)

    @app.get("/ping")
    def ping():
        return jsonify(ok=True)

    app.add_url_rule("/.well-known/adjudicator-keys.json", "keys", well_known_keys)
    app.register_blueprint(make_api_blueprint(config, limiter))
    app.register_blueprint(make_pages_blueprint(config, limiter))
    app.register_blueprint(make_game_pages_blueprint(config, limiter))
    register_bridge(app, config, limiter)
    app.register_blueprint(make_replay_blueprint(config, limiter))
    return app
