"""A recorded game's token in the browser: entered once, then carried by a cookie for that game.

The pages of a recorded game (`/games/<id>/...`) are plain addresses a player can refresh,
bookmark and go back to; the token that says who the player is travels in an HttpOnly cookie
scoped to the game's path (over HTTPS named by the game, `__Host-`), never in an address or a form
field a page echoes, and tied to the browser's session (`adjudicator.web.cookies`: a login cookie
another page set is none). Two games in one browser keep two cookies. SameSite=Strict keeps another
site from posting to these pages with it.

Every page then asks `rulings.authorize` exactly as the API does with a bearer token.
"""

from __future__ import annotations

from flask import Response

from adjudicator import rulings
from adjudicator.problems import Problem
from adjudicator.ledger.storage import TokenGrant
from adjudicator.web import cookies

#: The login cookie's name over plain HTTP (over HTTPS: ``__Host-adj_token-<game id>``, `cookies`).
COOKIE = cookies.LOGIN
MAX_AGE_SECONDS = cookies.MAX_AGE_SECONDS


def game_path(game_id: str) -> str:
    return f"/games/{game_id}"


def page_token(game_id: str) -> str | None:
    """The token this browser logged in to the game with (None: none, or one not tied to its session)."""
    return cookies.login_token(game_id)


def page_grant(game_id: str, *, write: bool) -> TokenGrant:
    """The grant of this browser's token for the game (401/403 problems, as the API gives)."""
    token = page_token(game_id)
    if token is None:
        raise Problem(401, "Not logged in to this game", f"Open {game_path(game_id)} and enter your token "
                      "first: this browser holds none for this game.", kind="missing-token")
    return rulings.authorize(token, game_id, write=write)


def remember(response: Response, game_id: str, token: str) -> Response:
    """Keep the login, tied to this browser's session (the login form is guarded: it has one)."""
    session = cookies.session_cookie()
    assert session, "a login is posted by a page of ours, which gave the browser its session"
    cookies.set_login(response, game_id, token, session)
    return response


def forget(response: Response, game_id: str) -> Response:
    cookies.delete_login(response, game_id)
    return response
