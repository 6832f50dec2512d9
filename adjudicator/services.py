"""What a running app holds, built once in `create_app` and reached through `services()`.

Loading the signing key, connecting the engine and building the OpenAPI document happen once
per process, never per request.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from flask import current_app

from adjudicator.config import Config
from adjudicator.keys import PublicKeyInfo, SigningKey
from adjudicator.storage import Store
from adjudicator.uploads import Uploads


@dataclass
class Services:
    config: Config
    store: Store
    signing_key: SigningKey
    published_keys: list[PublicKeyInfo] = field(default_factory=list)
    openapi_json: bytes = b""
    systems_json: bytes = b""
    #: Held here because Flask-Limiter keeps only a weak reference to its Limiter.
    limiter: Any = None
    #: Saved games uploaded to the pages.
    uploads: Uploads | None = None
    openapi: dict = field(default_factory=dict)

    def verification_keys(self) -> dict[str, Ed25519PublicKey]:
        return {info.kid: info.public_key for info in self.published_keys}


def services() -> Services:
    return current_app.extensions["adjudicator"]
