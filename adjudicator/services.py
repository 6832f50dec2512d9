"""What a running app holds, built once in `create_app` and reached through `services()`.

Loading the signing key, connecting the engine and building the OpenAPI document happen once
per process, never per request. The published public keys are the exception: they are read
from the shared store when they are used (see `Services.published_keys`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from flask import current_app

from adjudicator.config import Config
from adjudicator.ledger.keys import PublicKeyInfo, SigningKey
from adjudicator.ledger.storage import Store
from adjudicator.ledger.uploads import Uploads


@dataclass
class Services:
    config: Config
    store: Store
    signing_key: SigningKey
    openapi_json: bytes = b""
    systems_json: bytes = b""
    #: Held here because Flask-Limiter keeps only a weak reference to its Limiter.
    limiter: Any = None
    #: Saved games uploaded to the pages.
    uploads: Uploads | None = None
    openapi: dict = field(default_factory=dict)
    #: Each game's ledger board as its rulings left it (adjudicator.ledger.board), kept up to date
    #: by the recorded-check path: caught up before it takes the ledger's write lock, and under it
    #: with what came in between (rulings.ledger_board_before).
    ledger_boards: dict = field(default_factory=dict)

    @property
    def published_keys(self) -> list[PublicKeyInfo]:
        """Every public key that has signed, read from the store each time it is asked for.

        Instances that share a database learn of a rotation by another instance (or by
        `adjudicator rotate-key`) without a restart: a list loaded at start made an instance
        not yet restarted report the new key's records as signed by an unknown key. The
        table holds one row per key ever used; reading it is one small query, and only the
        verification paths and the keys document ask (never a roll).
        """
        return self.store.public_keys()

    def verification_keys(self) -> dict[str, Ed25519PublicKey]:
        return {info.kid: info.public_key for info in self.published_keys}


def services() -> Services:
    return current_app.extensions["adjudicator"]
