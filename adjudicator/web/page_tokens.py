"""A recorded game's token in the browser: entered once, then carried by a cookie for that game.

The pages of a recorded game (`/games/<id>/...`) are plain addresses a player can refresh,
bookmark and go back to; the token that says who the player is travels in an HttpOnly cookie
scoped to the game's path, never in an address or a form field a page echoes. Two games in one
browser keep two cookies. SameSite=Strict keeps another site from posting to these pages with it.

Every page then asks `rulings.authorize` exactly as the API does with a bearer token.
"""

from __future__ import annotations

from flask import Response, request

from adjudicator import rulings
from adjudicator.problems import Problem
from adjudicator.ledger.storage import TokenGrant

COOKIE = "adj_token"
#: A token cookie lasts a month (a long PBEM game logs in again, nothing is lost).
MAX_AGE_SECONDS = 31 * 24 * 3600


def game_path(game_id: str) -> str:
    return f"/games/{game_id}"


def page_token() -> str | None:
    return request.cookies.get(COOKIE) or None


def page_grant(game_id: str, *, write: bool) -> TokenGrant:
    """The grant of this browser's token for the game (401/403 problems, as the API gives)."""
    token = page_token()
    if token is None:
        raise Problem(401, "Not logged in to this game", f"Open {game_path(game_id)} and enter your token "
                      "first: this browser holds none for this game.", kind="missing-token")
    return rulings.authorize(token, game_id, write=write)


def remember(response: Response, game_id: str, token: str) -> Response:
    response.set_cookie(COOKIE, token, max_age=MAX_AGE_SECONDS, path=game_path(game_id), httponly=True,
                        samesite="Strict", secure=request.is_secure)
    return response


def forget(response: Response, game_id: str) -> Response:
    response.delete_cookie(COOKIE, path=game_path(game_id), httponly=True, samesite="Strict",
                           secure=request.is_secure)
    return response
