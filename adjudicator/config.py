"""Service configuration, read from environment variables (documented in docs/api.md).

`create_app(config)` accepts a `Config`, or a mapping of overrides (same names as the
environment variables) on top of the environment, the way Flask apps are usually configured
in tests.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from typing import Any, Mapping

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _as_bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValueError(f"{name} must be true or false, not {value!r}")


@dataclass(frozen=True)
class Config:
    database_url: str = "sqlite:///var/adjudicator.sqlite3"
    key_path: str = "var/signing-key.pem"
    max_body_bytes: int = 64 * 1024
    #: When a SQLite commit is made durable (docs/api.md, "SQLite durability"): GROUP, FULL's promise
    #: (an acknowledged roll survives a power cut) with the fsync outside the write lock and shared.
    sqlite_synchronous: str = "GROUP"
    ratelimit_enabled: bool = True
    ratelimit_storage_uri: str = "memory://"
    rate_limit_token: str = "30/second;3000/hour"
    rate_limit_anonymous: str = "60/second"
    rate_limit_create_game: str = "60/hour"
    #: Chances before a roll, per client address, on every route that computes them (API and pages).
    #: Empty: set from what a worker computes (`adjudicator.api.ratelimits.odds_limit`).
    rate_limit_odds: str = ""
    #: The address players reach the service at (e.g. https://adj.example.org), used in the
    #: verify links of rulings; empty: the address each request came to.
    public_url: str = ""
    #: Where the built VASSAL modules are (`make run` builds them into dist/): the home page
    #: offers them for download. Empty: none offered.
    modules_dir: str = "dist"
    #: Where the pictures the pages show are kept once drawn (`adjudicator.web.artwork`): the
    #: content-addressed cache `art` shares with the module generator. Empty: memory only.
    art_cache_dir: str = ".cache/art"

    #: environment variable -> field
    ENV = {
        "DATABASE_URL": "database_url",
        "ADJUDICATOR_KEY_PATH": "key_path",
        "ADJUDICATOR_MAX_BODY_BYTES": "max_body_bytes",
        "ADJUDICATOR_SQLITE_SYNCHRONOUS": "sqlite_synchronous",
        "ADJUDICATOR_RATELIMIT_ENABLED": "ratelimit_enabled",
        "ADJUDICATOR_RATELIMIT_STORAGE_URI": "ratelimit_storage_uri",
        "ADJUDICATOR_RATE_LIMIT_TOKEN": "rate_limit_token",
        "ADJUDICATOR_RATE_LIMIT_ANONYMOUS": "rate_limit_anonymous",
        "ADJUDICATOR_RATE_LIMIT_CREATE_GAME": "rate_limit_create_game",
        "ADJUDICATOR_RATE_LIMIT_ODDS": "rate_limit_odds",
        "ADJUDICATOR_PUBLIC_URL": "public_url",
        "ADJUDICATOR_MODULES_DIR": "modules_dir",
        "ADJUDICATOR_ART_CACHE": "art_cache_dir",
    }

    @classmethod
    def load(cls, overrides: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None) -> "Config":
        """Defaults, then the environment, then `overrides` (env names or field names)."""
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for env_name, field_name in cls.ENV.items():
            if env_name in environ:
                values[field_name] = environ[env_name]
        field_names = {f.name for f in fields(cls)}
        for name, value in (overrides or {}).items():
            field_name = cls.ENV.get(name, name)
            if field_name not in field_names:
                raise KeyError(f"unknown adjudicator setting {name!r}")
            values[field_name] = value
        if "max_body_bytes" in values:
            values["max_body_bytes"] = int(values["max_body_bytes"])
        if "ratelimit_enabled" in values:
            values["ratelimit_enabled"] = _as_bool("ADJUDICATOR_RATELIMIT_ENABLED", values["ratelimit_enabled"])
        if "public_url" in values:
            values["public_url"] = str(values["public_url"]).strip().rstrip("/")
        return cls(**values)
