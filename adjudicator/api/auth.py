"""Bearer tokens: each is one role (a side, or "observer") in exactly one game."""

from __future__ import annotations

from flask import request

from adjudicator import rulings
from adjudicator.ledger.storage import TokenGrant, hash_token


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def rate_limit_key() -> str:
    """Rate limits count per token when one is sent, else per client address."""
    token = bearer_token()
    if token:
        return "token:" + hash_token(token)
    return "addr:" + (request.remote_addr or "unknown")


def require_grant(game_id: str, *, write: bool) -> TokenGrant:
    """The bearer token's grant for `game_id` (`rulings.authorize`: 401/403 problems)."""
    return rulings.authorize(bearer_token(), game_id, write=write)
