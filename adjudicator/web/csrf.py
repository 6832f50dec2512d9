"""Cross-site request forgery: a page's form is accepted only from the service's own pages.

The pages carry a player's token in a cookie (`adjudicator.web.page_tokens`). SameSite=Strict keeps
other *sites* from posting with it, but a site is a registrable domain, not an origin: a page
served by another port of the same host, or by a sibling subdomain (``forum.example.org`` beside
``adj.example.org``), is the same site, and its auto-submitted form arrived with the cookie and
recorded a roll in the player's name (issue 39). So every state-changing request of the pages
(`guard`) must pass two checks before its view runs, and a refusal records nothing:

1. **Its origin is the service's own.** The browser says where the form was: ``Origin`` (every
   current browser sends it with a POST); when absent, ``Sec-Fetch-Site`` (``same-origin`` only);
   when that is absent too, the ``Referer``'s origin (the pages send it to themselves:
   ``Referrer-Policy: same-origin``). A request with none of them is refused: no browser we serve
   sends one so. The service's own origin is the address the browser asked for (its ``Host``
   header: a page can make a browser send a form but cannot choose its Host), or
   ``ADJUDICATOR_PUBLIC_URL`` when it is set; scheme, host and port all compared. Behind a reverse
   proxy that rewrites Host or ends TLS (the service then sees plain HTTP), set
   ``ADJUDICATOR_PUBLIC_URL`` (or pass the Host through): otherwise every form is refused, and the
   refusal and the log say so.
2. **It carries the form token of this browser** (a synchronizer token): every guarded form holds
   ``form_token``, an HMAC keyed by this browser's session cookie (``adj_session``, over HTTPS
   ``__Host-adj_session``: `adjudicator.web.cookies`; random, made when a page first shows a form)
   over the game's login cookie when the request carries one (itself tied to the session).
   Another page cannot read it (the same-origin policy), and a sibling subdomain that plants its
   own session cookie still cannot make the token of a login it does not know. Compared in
   constant time.

Calculations (``/systems/<system>/<check>`` and its chances, a saved game's calculation) record
nothing and use no login: they are not guarded, except an upload, which is kept for the browser
that sent it (`browser_key`, from its session cookie). The JSON API never reads a cookie
(bearer tokens only), so it is not guarded either and works from any client.

Hand-written, not Flask-WTF's CSRFProtect: CSRFProtect checks no Origin (its Referer check is for
HTTPS only), so the first check is ours anyway; it reads every POST's form in a before-request
hook, before an upload view can raise the body limit (the app's is 64 KB, an upload's 16 MB); it
needs a Flask ``SECRET_KEY`` shared by every worker and instance, which this service has no place
for; and its tokens expire (a roll form kept open over lunch would be refused). The token here is
twenty lines of ``hmac``.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import logging
import secrets
from typing import Any, Callable
from urllib.parse import urlsplit

from flask import Flask, Response, g, request
from markupsafe import Markup, escape

from adjudicator.web import cookies
from adjudicator.problems import Problem
from adjudicator.services import services

log = logging.getLogger(__name__)

#: The session cookie's name over plain HTTP (over HTTPS ``__Host-adj_session``: `adjudicator.web.cookies`).
SESSION_COOKIE = cookies.SESSION
FIELD = "form_token"
_DEFAULT_PORTS = {"http": 80, "https": 443}
_NOTHING_DONE = "Nothing was recorded or changed."


# -- the origin ------------------------------------------------------------------------------------

def _origin_parts(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin or URL; None for "null" or what is no http(s) address."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or _DEFAULT_PORTS[scheme]


def is_own_origin(origin: str) -> bool:
    """Whether a browser's `origin` (``scheme://host[:port]``) is this service's."""
    seen = _origin_parts(origin)
    if seen is None:
        return False
    public = services().config.public_url
    if public and _origin_parts(public) == seen:
        return True
    # The address the browser asked for: its Host, by the scheme the pages are served with. The scheme
    # counts: a page of http://host is another origin than the service at https://host (before, the
    # Host was read by the Origin's own scheme, and such a page passed).
    asked = _origin_parts(f"{'https' if cookies.over_https() else request.scheme}://{request.host}")
    return asked == seen


def foreign_origin() -> str | None:
    """Why this request is not from the service's own pages, in words; None when it is."""
    origin = request.headers.get("Origin")
    if origin is not None:
        return None if is_own_origin(origin) else f"it was sent by a page at {origin.strip()[:200]}"
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        return None if site == "same-origin" else f"the browser says it came from another page ({site[:40]})"
    referer = request.headers.get("Referer")
    if referer:
        parts = _origin_parts(referer)
        page = f"{parts[0]}://{parts[1]}:{parts[2]}" if parts else "an unknown address"
        return None if parts and is_own_origin(referer) else f"it was sent by a page at {page}"
    return "it carried no Origin, Sec-Fetch-Site or Referer header to show it came from this service's pages"


# -- the form token --------------------------------------------------------------------------------

def _session() -> str:
    """This browser's session secret: its cookie, or a new one (set on the response, `_set_session`)."""
    found = cookies.session_cookie()
    if found:
        return found
    if "new_session" not in g:
        g.new_session = secrets.token_urlsafe(32)
    return g.new_session


def browser_key() -> str:
    """A name of this browser for what the service keeps for it alone (a calculation page's upload,
    `adjudicator.ledger.uploads.browser_scope`): a digest of its session cookie, 24 hex digits. A
    request without the cookie is a new browser (its session is made and set as a form's is): it
    finds nothing kept. The digest, not the cookie, goes into the database."""
    message = b"adjudicator kept files\0"
    return hmac.new(_session().encode("utf-8"), message, hashlib.sha256).hexdigest()[:24]


def token_for(session: str, login_token: str) -> str:
    """The form token of a browser session (its cookie) and a game's login (its token, or "")."""
    message = b"adjudicator page form\0" + login_token.encode("utf-8")
    return hmac.new(session.encode("utf-8"), message, hashlib.sha256).hexdigest()


def form_token(login: bool = True) -> str:
    """The token this browser's forms carry: keyed by its session, over the game's login cookie
    when the request has one (`login`; False for the login form itself, which makes the login)."""
    game_id = (request.view_args or {}).get("game_id")
    return token_for(_session(), cookies.login_cookie(game_id) if login else "")


def form_token_field(login: bool = True) -> Markup:
    """The hidden field every guarded form holds (templates call it)."""
    return Markup(f'<input type="hidden" name="{FIELD}" value="{escape(form_token(login))}">')


def _token_matches(sent: str, login_or_not: tuple[bool, ...]) -> bool:
    if not sent or not cookies.session_cookie():  # no form of ours was shown to it
        return False
    return any(hmac.compare_digest(sent.encode("utf-8"), form_token(login).encode("utf-8")) for login in login_or_not)


# -- the guard -----------------------------------------------------------------------------------------

def refused(why: str, kind: str) -> Problem:
    log.warning("page request refused (%s): %s %s: %s", kind, request.method, request.path, why)
    return Problem(403, "Refused: not sent from this service's own page",
                   f"This request was refused because {why}. {_NOTHING_DONE} A page of another site, or of "
                   "another port or subdomain of this one, may not send forms here with your login. If you "
                   "sent this form yourself, go back, reload the page and send it again.", kind=kind)


def check_request(max_bytes: int | None = None, login_or_not: tuple[bool, ...] = (True,)) -> None:
    """Refuse (403 `Problem`) a request not sent by one of the service's own pages."""
    why = foreign_origin()
    if why is not None:
        raise refused(why, "cross-origin-request")
    if max_bytes is not None:
        request.max_content_length = max_bytes  # before the form (and its file) is read
    if not _token_matches(request.form.get(FIELD, ""), login_or_not):
        raise refused("its form token is missing or is not this browser's (a form shown before you logged "
                      "in again, or sent from elsewhere)", "bad-form-token")


def guard(view: Callable | None = None, *, max_bytes: int | None = None, for_login: bool = False):
    """Decorate a page's state-changing view: `check_request` first, then the view.

    `max_bytes`: the body limit of a view that takes files (read before the token is). `for_login`:
    the view that makes a login accepts a token made with or without the one it replaces."""
    login_or_not = (False, True) if for_login else (True,)

    def decorate(function: Callable) -> Callable:
        @functools.wraps(function)
        def guarded(*args: Any, **kwargs: Any):
            check_request(max_bytes, login_or_not)
            return function(*args, **kwargs)
        return guarded
    return decorate(view) if view is not None else decorate


def _set_session(response: Response) -> Response:
    """Keep a session made while this request's page was drawn."""
    made = g.get("new_session")
    if made:
        cookies.set_session(response, made)
    return response


def register_csrf(app: Flask) -> None:
    app.add_template_global(form_token_field)
    app.after_request(_set_session)
