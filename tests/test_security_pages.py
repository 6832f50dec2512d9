"""The pages refuse what another page makes a player's browser send, and a kept file is its uploader's (issue 39).

Cross-site request forgery: every state-changing request of the pages (log in and out, a roll, its
chances, an upload, a supply report, a log check, closing, creating a game) is refused unless its
Origin (or, without one, Sec-Fetch-Site or Referer) is the service's own and it carries this
browser's form token; the refusal is a page saying so, and nothing is recorded. The JSON API reads
no cookie: a bearer token works from anywhere, a cookie alone authorizes nothing.

Kept uploads: a side's saved game names all its hidden blocks, so its report, its checks, the log
continuing a ruling and its replay are that side's only; the opponent and the observer get 404.

Requests here are raw (werkzeug's client without the pages' own headers, `FlaskClient`); the
same attacks from a page on another port in headless Chromium: test_security_browser.py.
"""

from __future__ import annotations

import io
import re

import pytest
from flask.testing import FlaskClient

from adjudicator.web import csrf
from adjudicator.web.page_tokens import COOKIE
from adjudicator.testing import TEST_ORIGIN, bearer, make_app, new_game, replay_settled

CHECK = "un_supply_shortage_end"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("security-pages"))


@pytest.fixture(scope="module")
def setup(modules) -> bytes:
    return modules[("kwb", 1)][2]["setups/pusan.vsav"]


def ledger_seqs(app, game) -> list[int]:
    document = app.test_client().get(f"/api/v1/games/{game['game_id']}/ledger",
                                     headers=bearer(game["tokens"]["observer"])).get_json()
    return [r["seq"] for r in document["records"]]


def logged_in(app, game, role: str) -> FlaskClient:
    """A browser that logged in to the game as `role` by its own page (session and login cookies)."""
    client = app.test_client()
    assert client.post(f"/games/{game['game_id']}", data={"token": game["tokens"][role]}).status_code == 303
    return client


def raw_post(client: FlaskClient, path: str, data: dict, token: str | None, **headers: str):
    """POST `data` with exactly the given headers and form token: no Origin unless given."""
    body = dict(data)
    if token is not None:
        body[csrf.FIELD] = token
    return FlaskClient.post(client, path, data=body, headers=headers, content_type="multipart/form-data")


def state_changing_forms(game: dict, sha: str, log: bytes) -> list[tuple[str, str, dict]]:
    """(name, path, form) of every state-changing page request of a recorded game."""
    gid = game["game_id"]
    return [
        ("roll", f"/games/{gid}/checks/{CHECK}", {"game_turn": "2", "request_id": "page-forged-1"}),
        ("chances", f"/games/{gid}/checks/{CHECK}/odds", {"game_turn": "2"}),
        ("close", f"/games/{gid}/close", {"confirm": "close"}),
        ("logout", f"/games/{gid}/logout", {}),
        ("login", f"/games/{gid}", {"token": game["tokens"]["communist"]}),
        ("upload", f"/games/{gid}/savedgame", {"file": (io.BytesIO(log), "forged.vsav")}),
        ("supply", f"/games/{gid}/savedgame/{sha}/supply", {"request_id": "page-forged-2"}),
        ("replay", f"/games/{gid}/replay", {"file": (io.BytesIO(log), "forged.vlog")}),
        ("log check", f"/games/{gid}/log-check", {"file": (io.BytesIO(log), "forged.vlog")}),
        ("create a game", "/games", {"system_scenario": "kwb/pusan"}),
    ]


FOREIGN = [
    ("another site", {"Origin": "http://evil.example"}),
    ("another port of this host", {"Origin": "http://localhost:8501"}),
    ("a sibling subdomain", {"Origin": "http://forum.localhost"}),
    ("another scheme and port", {"Origin": "https://localhost:8443"}),
    ("an opaque origin", {"Origin": "null"}),
    ("no origin, cross-site fetch", {"Sec-Fetch-Site": "cross-site"}),
    ("no origin, same-site fetch", {"Sec-Fetch-Site": "same-site"}),
    ("no origin, a foreign referer", {"Referer": "http://localhost:8501/attack.html"}),
    ("no origin header of any kind", {}),
]


@pytest.mark.slow
@pytest.mark.parametrize("why, headers", FOREIGN, ids=[f[0] for f in FOREIGN])
def test_every_state_changing_request_from_another_origin_is_refused_and_records_nothing(app, setup, why, headers):
    game = new_game(app.test_client(), "kwb", "pusan")
    victim = logged_in(app, game, "un")
    sha = re.search(r"/savedgame/([0-9a-f]{64})", victim.post(
        f"/games/{game['game_id']}/savedgame", data={"file": (io.BytesIO(setup), "mine.vsav")},
        content_type="multipart/form-data").headers["Location"]).group(1)
    before = ledger_seqs(app, game)
    for name, path, form in state_changing_forms(game, sha, setup):
        # the victim's cookies and even this browser's own valid form token: the origin alone refuses it
        response = raw_post(victim, path, form, victim.form_token(path), **headers)
        page = response.get_data(as_text=True)
        assert response.status_code == 403, (name, response.status_code, page[-600:])
        assert 'data-kind="cross-origin-request"' in page and "Nothing was recorded" in page, name
    assert ledger_seqs(app, game) == before
    info = app.test_client().get(f"/api/v1/games/{game['game_id']}", headers=bearer(game["tokens"]["un"])).get_json()
    assert info["status"] == "open"
    assert victim.get(f"/games/{game['game_id']}").status_code == 200  # still logged in: logout was refused too


def test_the_own_origin_without_this_browsers_form_token_is_refused(app, setup):
    game = new_game(app.test_client(), "kwb", "pusan")
    victim = logged_in(app, game, "un")
    sha = re.search(r"/savedgame/([0-9a-f]{64})", victim.post(
        f"/games/{game['game_id']}/savedgame", data={"file": (io.BytesIO(setup), "mine.vsav")},
        content_type="multipart/form-data").headers["Location"]).group(1)
    attacker = logged_in(app, game, "communist")  # his own session, his own valid tokens
    for number in range(len(state_changing_forms(game, sha, setup))):
        for token in (None, "", "0" * 64, "attacker's", csrf.token_for("x" * 43, game["tokens"]["un"])):
            name, path, form = state_changing_forms(game, sha, setup)[number]  # fresh files each time
            token = attacker.form_token(path) if token == "attacker's" else token
            response = raw_post(victim, path, form, token, Origin=TEST_ORIGIN)
            assert response.status_code == 403, (name, token)
            assert 'data-kind="bad-form-token"' in response.get_data(as_text=True), name
    assert ledger_seqs(app, game) == [0]


def test_a_token_bound_to_another_login_is_refused(app):
    """A sibling subdomain can plant a session cookie it knows; the token also binds the login
    cookie, which it does not know: a token made for its own login does not pass for the victim's."""
    game = new_game(app.test_client(), "kwb", "pusan")
    victim = logged_in(app, game, "un")
    path = f"/games/{game['game_id']}/checks/{CHECK}"
    session = victim.get_cookie(csrf.SESSION_COOKIE).value
    planted = csrf.token_for(session, game["tokens"]["communist"])  # what knowing the session alone gives
    response = raw_post(victim, path, {"game_turn": "2"}, planted, Origin=TEST_ORIGIN)
    assert response.status_code == 403 and ledger_seqs(app, game) == [0]


@pytest.mark.parametrize("headers", [{"Origin": TEST_ORIGIN}, {"Sec-Fetch-Site": "same-origin"},
                                     {"Referer": f"{TEST_ORIGIN}/games/x/checks/{CHECK}"}],
                         ids=["origin", "sec-fetch-site", "referer"])
def test_the_pages_own_form_is_recorded(app, headers):
    game = new_game(app.test_client(), "kwb", "pusan")
    player = logged_in(app, game, "un")
    path = f"/games/{game['game_id']}/checks/{CHECK}"
    form = player.get(path).get_data(as_text=True)
    token = re.search(rf'name="{csrf.FIELD}" value="([0-9a-f]+)"', form).group(1)  # as the page shows it
    response = raw_post(player, path, {"game_turn": "2", "request_id": "page-own-1"}, token, **headers)
    assert response.status_code == 303 and response.headers["Location"].endswith("/records/1")
    assert ledger_seqs(app, game) == [0, 1]


@pytest.mark.slow
def test_behind_a_proxy_the_public_address_is_the_services_origin(tmp_path):
    """A reverse proxy that rewrites Host: the browser's Origin is the public address
    (ADJUDICATOR_PUBLIC_URL), not the Host the service sees; the same host under another scheme is not it."""
    app = make_app(tmp_path, ADJUDICATOR_PUBLIC_URL="https://adj.example.org")
    game = new_game(app.test_client(), "kwb", "pusan")
    player = FlaskClient(app, app.response_class, use_cookies=True)
    base = "http://127.0.0.1:8000"  # the Host the proxy sends on
    login = player.get(f"/games/{game['game_id']}", base_url=base).get_data(as_text=True)
    token = re.search(rf'name="{csrf.FIELD}" value="([0-9a-f]+)"', login).group(1)
    refused = FlaskClient.post(player, f"/games/{game['game_id']}", base_url=base, headers={
        "Origin": "http://adj.example.org"}, data={"token": game["tokens"]["un"], csrf.FIELD: token})
    assert refused.status_code == 403
    accepted = FlaskClient.post(player, f"/games/{game['game_id']}", base_url=base, headers={
        "Origin": "https://adj.example.org"}, data={"token": game["tokens"]["un"], csrf.FIELD: token})
    assert accepted.status_code == 303


def test_a_cookie_alone_never_authorizes_the_json_api(app):
    """The API reads bearer tokens only: a login cookie sent to it (any path) writes nothing, and
    a bearer token works from any origin, no form token asked."""
    game = new_game(app.test_client(), "kwb", "pusan")
    client = FlaskClient(app, app.response_class, use_cookies=True)
    client.set_cookie(COOKIE, game["tokens"]["un"], path="/")
    url = f"/api/v1/games/{game['game_id']}/{CHECK}"
    refused = client.post(url, json={"game_turn": 2}, headers={"Origin": TEST_ORIGIN})
    assert refused.status_code == 401 and refused.mimetype == "application/problem+json"
    assert client.post(f"/api/v1/games/{game['game_id']}/close", headers={"Origin": TEST_ORIGIN}).status_code == 401
    assert ledger_seqs(app, game) == [0]
    rolled = client.post(url, json={"game_turn": 2}, headers={"Origin": "http://evil.example", **bearer(game["tokens"]["un"])})
    assert rolled.status_code == 201 and ledger_seqs(app, game) == [0, 1]


# -- a kept upload is its uploader's ------------------------------------------------------------------

def supply_from_a_kept_save(app, setup: bytes, request_id: str):
    """A new game whose UN player uploads his save to its pages and records its supply report from it:
    (game, his browser, the file's SHA-256, the recording's redirect)."""
    game = new_game(app.test_client(), "kwb", "pusan")
    gid = game["game_id"]
    owner = logged_in(app, game, "un")
    kept = owner.post(f"/games/{gid}/savedgame", data={"file": (io.BytesIO(setup), "mine.vsav")},
                      content_type="multipart/form-data")
    sha = re.search(r"/savedgame/([0-9a-f]{64})", kept.headers["Location"]).group(1)
    recorded = owner.post(f"/games/{gid}/savedgame/{sha}/supply", data={"request_id": request_id})
    assert recorded.status_code == 303
    return game, owner, sha, recorded


@pytest.mark.slow
def test_a_kept_saved_game_and_everything_from_it_is_its_uploaders_only(app, setup):
    game, owner, sha, recorded = supply_from_a_kept_save(app, setup, "page-supply-1")
    gid = game["game_id"]
    record_page = recorded.headers["Location"]  # /games/<id>/records/1?upload=<sha>
    replayed = owner.post(f"/games/{gid}/replay", data={"file": (io.BytesIO(setup), "mine.vsav")},
                          content_type="multipart/form-data")
    assert replayed.status_code == 303
    replay = replayed.headers["Location"]
    assert replay_settled(owner, replay).status_code == 200  # built beside the request
    addresses = [f"/games/{gid}/savedgame/{sha}", f"/games/{gid}/savedgame/{sha}/checks/supply",
                 f"/games/{gid}/savedgame/{sha}/checks/combat",
                 f"/games/{gid}/savedgame/{sha}/checks/combat/odds?_target_hex=0101",
                 f"/games/{gid}/records/1/vlog?upload={sha}",
                 replay, f"{replay}/report.md", f"{replay}/report.html"]
    for address in addresses:
        assert owner.get(address).status_code in (200, 422), address  # 422: chances of no attack pointed at
    assert 'id="download-vlog"' in owner.get(record_page).get_data(as_text=True)
    for role in ("communist", "observer"):
        other = logged_in(app, game, role)
        for address in addresses:
            response = other.get(address)
            # the observer may not roll at all: a roll's page is 403 to him before any file is looked for
            allowed = (403, 404) if role == "observer" and "/checks/" in address else (404,)
            assert response.status_code in allowed, (role, address, response.status_code)
        page = other.get(record_page).get_data(as_text=True)
        assert 'id="download-vlog"' not in page, role  # (the file's hash is in the record: that is public)
        posted = other.post(f"/games/{gid}/savedgame/{sha}/checks/combat", data={"request_id": "page-x"})
        assert posted.status_code in (403, 404), role  # the observer may not roll at all; the opponent has no such file
    assert ledger_seqs(app, game) == [0, 1]


@pytest.mark.slow
def test_a_calculation_pages_upload_is_its_browsers_only(app, setup):
    """issue 52: the ledger publishes each recorded file's SHA-256; a player who also checked that file
    on a calculation page kept it there. Its report (`?as=un`: a side's eyes), checks, the log
    continuing a check and a replay of it open for the browser that uploaded it, for no one else
    who knows the hash: a logged-in opponent, a stranger, a browser with no cookie at all."""
    game, player, sha, _ = supply_from_a_kept_save(app, setup, "page-supply-9")
    gid = game["game_id"]
    ledger = app.test_client().get(f"/api/v1/games/{gid}/ledger", headers=bearer(game["tokens"]["communist"]))
    assert sha in ledger.get_data(as_text=True)  # the opponent reads it: what he starts from

    calculation = player.post("/systems/kwb/savedgame", data={"file": (io.BytesIO(setup), "mine.vsav")},
                              content_type="multipart/form-data")
    assert calculation.status_code == 303 and f"/systems/kwb/savedgame/{sha}" in calculation.headers["Location"]
    replayed = player.post("/systems/kwb/replay", data={"file": (io.BytesIO(setup), "mine.vsav"), "as": "un"},
                           content_type="multipart/form-data")
    assert replayed.status_code == 303, replayed.get_data(as_text=True)[:500]
    replay = replayed.headers["Location"].split("?", 1)[0]
    assert replay_settled(player, replayed.headers["Location"]).status_code == 200  # built beside the request
    addresses = [f"/systems/kwb/savedgame/{sha}?as=un", f"/systems/kwb/savedgame/{sha}",
                 f"/systems/kwb/savedgame/{sha}/checks/combat?as=un", replay, f"{replay}/report.md"]
    for address in addresses:  # a replay for other eyes is built anew, beside the request
        assert (replay_settled(player, address) if address == replay else player.get(address)).status_code == 200, address
    vlog = {"_attackers_text": "", "dice": "3"}
    others = {"opponent": logged_in(app, game, "communist"), "stranger": app.test_client(),
              "no cookie": FlaskClient(app, app.response_class, use_cookies=False)}
    others["stranger"].get("/systems/kwb/savedgame")  # a page with a form: it has a session of its own
    for who, other in others.items():
        for address in addresses:
            response = other.get(address)
            assert response.status_code == 404, (who, address, response.status_code)
            assert "kwb-" not in response.get_data(as_text=True), (who, address)  # no unit of the file
        for check in ("combat", "combat/odds", "combat/vlog"):
            posted = other.post(f"/systems/kwb/savedgame/{sha}/checks/{check}", data=vlog)
            assert posted.status_code == 404, (who, check, posted.status_code)


# -- cookies another port cannot stand in for (issue 52) ---------------------------------------------------

def role_shown(client, gid: str, **kwargs) -> str | None:
    """The role the game's page says this browser is, None when it asks for a token."""
    page = client.get(f"/games/{gid}", **kwargs).get_data(as_text=True)
    found = re.search(r'<strong id="role">([a-z]+)</strong>', page)
    assert found or 'id="game-login"' in page, page[:500]
    return found.group(1) if found else None


def test_a_login_cookie_another_page_set_is_no_login(app):
    """A page on another port of the host sets the game's login cookie in the player's browser (cookies
    are the host's, whatever the port): the observer token, raw or as the attacker's own browser held it
    (tied to his session). Neither is a login here: the page asks for a token, never shows the observer's
    game; the player's own login, tied to his session, works."""
    game = new_game(app.test_client(), "kwb", "pusan")
    gid = game["game_id"]
    victim = logged_in(app, game, "un")
    assert role_shown(victim, gid) == "un"
    attacker = logged_in(app, game, "observer")
    held = attacker.get_cookie(COOKIE, path=f"/games/{gid}").value  # what the attacker's login cookie holds
    assert held.startswith(game["tokens"]["observer"] + ".")
    for planted in (game["tokens"]["observer"], held):
        victim.set_cookie(COOKIE, planted, path=f"/games/{gid}")
        assert role_shown(victim, gid) is None, planted
        response = victim.get(f"/games/{gid}/checks/{CHECK}")
        assert response.status_code == 303 and "next=" in response.headers["Location"]
    victim.log_in(gid, game["tokens"]["un"])
    assert role_shown(victim, gid) == "un"


@pytest.mark.slow
def test_over_https_the_cookies_are_host_prefixed_host_only_and_secure(tmp_path):
    """Over HTTPS the session and the login cookies are `__Host-` cookies (Secure, Path=/, no Domain): a
    browser keeps them only from an HTTPS response of this host, so no page of a plain-HTTP port or a
    subdomain can set or replace them; a plain-named cookie such a page sets is not read."""
    app = make_app(tmp_path)
    game = new_game(app.test_client(), "kwb", "pusan")
    gid = game["game_id"]
    base = "https://localhost"
    browser = FlaskClient(app, app.response_class, use_cookies=True)
    form = browser.get(f"/games/{gid}", base_url=base)
    (session,) = [h for h in form.headers.getlist("Set-Cookie") if h.startswith("__Host-adj_session=")]
    attributes = {a.strip().split("=")[0].lower() for a in session.split(";")[1:]}
    assert {"secure", "httponly", "path"} <= attributes and "domain" not in attributes and "Path=/;" in session + ";"
    token = re.search(rf'name="{csrf.FIELD}" value="([0-9a-f]+)"', form.get_data(as_text=True)).group(1)
    login = FlaskClient.post(browser, f"/games/{gid}", base_url=base, headers={"Origin": base},
                             data={"token": game["tokens"]["un"], csrf.FIELD: token})
    assert login.status_code == 303
    (cookie,) = [h for h in login.headers.getlist("Set-Cookie") if h.startswith(f"__Host-adj_token-{gid}=")]
    assert "Secure" in cookie and "Path=/;" in cookie + ";" and "Domain" not in cookie
    assert role_shown(browser, gid, base_url=base) == "un"
    # what a plain-HTTP page of the host could set: plain names, read by no HTTPS page
    other = FlaskClient(app, app.response_class, use_cookies=True)
    http_login = logged_in(app, game, "observer")
    other.set_cookie("adj_session", http_login.get_cookie("adj_session").value, path="/")
    other.set_cookie(COOKIE, http_login.get_cookie(COOKIE, path=f"/games/{gid}").value, path=f"/games/{gid}")
    assert role_shown(http_login, gid) == "observer"  # the pair works where it was made, over HTTP
    assert role_shown(other, gid, base_url=base) is None  # not over HTTPS


def test_the_origins_scheme_is_compared(tmp_path):
    """A page of http://host is another origin than the service at https://host (and the reverse):
    before, the Host was read by the Origin's own scheme and such a page's form passed."""
    app = make_app(tmp_path)
    game = new_game(app.test_client(), "kwb", "pusan")
    gid = game["game_id"]
    for served, foreign in (("https://localhost", "http://localhost"), ("http://localhost", "https://localhost")):
        browser = FlaskClient(app, app.response_class, use_cookies=True)
        form = browser.get(f"/games/{gid}", base_url=served).get_data(as_text=True)
        token = re.search(rf'name="{csrf.FIELD}" value="([0-9a-f]+)"', form).group(1)
        data = {"token": game["tokens"]["un"], csrf.FIELD: token}
        refused = FlaskClient.post(browser, f"/games/{gid}", base_url=served, headers={"Origin": foreign}, data=data)
        assert refused.status_code == 403 and 'data-kind="cross-origin-request"' in refused.get_data(as_text=True)
        accepted = FlaskClient.post(browser, f"/games/{gid}", base_url=served, headers={"Origin": served}, data=data)
        assert accepted.status_code == 303, served
