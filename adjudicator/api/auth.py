"""Bearer tokens: each is one role (a side, or "observer") in exactly one game."""

from __future__ import annotations

from flask import request

from adjudicator.problems import Problem
from adjudicator.services import services
from adjudicator.storage import OBSERVER, TokenGrant, hash_token


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
    """The caller's grant for `game_id`; 401 without a valid token, 403 for another game's
    token or (for `write`) an observer token."""
    token = bearer_token()
    if token is None:
        raise Problem(
            401,
            "Unauthorized",
            "Send 'Authorization: Bearer <token>' with a token of this game.",
            kind="missing-token",
            headers={"WWW-Authenticate": "Bearer"},
        )
    grant = services().store.grant_for(token)
    if grant is None:
        raise Problem(
            401, "Unauthorized", "Unknown token.", kind="bad-token",
            headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
        )
    if grant.game_id != game_id:
        raise Problem(403, "Forbidden", "This token belongs to another game.", kind="wrong-game")
    if write and grant.role == OBSERVER:
        raise Problem(403, "Forbidden", "Observer tokens are read-only.", kind="read-only-token")
    return grant
