"""The pages' two cookies — the browser's session and a game's login — named, scoped and checked so
that a page of another port of the host cannot stand in for them.

Browsers keep cookies per host, not per port or scheme: a page served by another port of the same
host (a forum, a test server) may set cookies the service then reads, and replaced a player's login
with another token (the game's observer token, say), logged him out, or voided his open forms
(issue 52). So:

- **Host-only.** No cookie names a ``Domain``: a sibling subdomain cannot set one for this host.
- **``__Host-`` names over HTTPS** (the request is, or ``ADJUDICATOR_PUBLIC_URL`` is ``https://``):
  ``__Host-adj_session`` and ``__Host-adj_token-<game id>``, ``Secure``, ``Path=/``, no ``Domain``.
  A browser keeps a ``__Host-`` cookie only when an HTTPS response sets it with exactly those, so a
  page on a plain-HTTP port of the host, or on a subdomain, cannot set or replace them. (The path
  must be ``/``, so the login cookie is named by its game instead of scoped by the game's path.)
  Over plain HTTP the names stay ``adj_session`` and ``adj_token`` (path ``/games/<id>``).
- **A login is tied to its session.** The login cookie holds the token and an HMAC keyed by the
  session cookie over it (`seal_login`): a login cookie set by another page, which does not know
  this browser's session, does not validate and is no login at all (the page asks for the token
  again) — it cannot make the player another side or the observer. The form tokens are keyed by
  the same session (`adjudicator.web.csrf`).

What remains over plain HTTP: another port can still replace *both* cookies with a pair it got from
the service itself, or delete them (a log-out). Serve over HTTPS with no other HTTPS service on the
host to rule that out (docs/api.md).
"""

from __future__ import annotations

import hashlib
import hmac

from flask import Response, request

from adjudicator.services import services

SESSION = "adj_session"
LOGIN = "adj_token"
HOST_PREFIX = "__Host-"
#: The shortest session a browser may hold: what `secrets.token_urlsafe(32)` makes.
SESSION_MIN_CHARS = 32
#: Both cookies last a month (a long PBEM game logs in again, nothing is lost).
MAX_AGE_SECONDS = 31 * 24 * 3600
_SEAL_CHARS = 32


def over_https() -> bool:
    """Whether the browser reaches the pages over HTTPS: the request says so, or the public address."""
    return request.is_secure or services().config.public_url.startswith("https://")


def session_name() -> str:
    return HOST_PREFIX + SESSION if over_https() else SESSION


def login_name(game_id: str) -> str:
    return f"{HOST_PREFIX}{LOGIN}-{game_id}" if over_https() else LOGIN


def login_path(game_id: str) -> str:
    return "/" if over_https() else f"/games/{game_id}"


def session_cookie() -> str:
    """This browser's session, "" when it has none (or one too short to be ours)."""
    found = request.cookies.get(session_name(), "")
    return found if len(found) >= SESSION_MIN_CHARS else ""


def set_session(response: Response, value: str) -> None:
    response.set_cookie(session_name(), value, max_age=MAX_AGE_SECONDS, path="/", httponly=True,
                        samesite="Lax", secure=over_https())


def seal_login(session: str, token: str) -> str:
    """The login cookie's value: the token, and the HMAC tying it to this browser's session."""
    tie = hmac.new(session.encode("utf-8"), b"adjudicator login\0" + token.encode("utf-8"), hashlib.sha256)
    return f"{token}.{tie.hexdigest()[:_SEAL_CHARS]}"


def login_cookie(game_id: str | None) -> str:
    """The login cookie of `game_id` as the browser sent it ("" when none): what the form tokens cover."""
    return request.cookies.get(login_name(game_id), "") if game_id else ""


def login_token(game_id: str) -> str | None:
    """The token this browser logged in to the game with; None without a login, or with a login
    cookie not tied to this browser's session (set by another page, or before the session changed)."""
    sealed = login_cookie(game_id)
    session = session_cookie()
    token = sealed.rpartition(".")[0]
    if not token or not session or not hmac.compare_digest(sealed.encode("utf-8"),
                                                           seal_login(session, token).encode("utf-8")):
        return None
    return token


def set_login(response: Response, game_id: str, token: str, session: str) -> None:
    response.set_cookie(login_name(game_id), seal_login(session, token), max_age=MAX_AGE_SECONDS,
                        path=login_path(game_id), httponly=True, samesite="Strict", secure=over_https())


def delete_login(response: Response, game_id: str) -> None:
    response.delete_cookie(login_name(game_id), path=login_path(game_id), httponly=True, samesite="Strict",
                           secure=over_https())
