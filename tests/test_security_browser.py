"""Forged forms in a real browser (issue 39): a page on another port of the same host, which is the
same *site* as the service (SameSite cookies go with its forms), makes a logged-in player's
headless Chromium post a roll and a close to the service. Both are refused with a page saying so,
and nothing is recorded; the player's own forms keep working. And Back after Chances and a roll
lands on the chances again, never on the browser's "Confirm Form Resubmission".

Headless Chromium as in tests/test_pages_browser.py (its fixtures are reused); raw requests with
foreign and missing origins: test_security_pages.py.
"""

from __future__ import annotations

import html

import pytest

from adjudicator.testing import bearer, new_game
from test_bridge_helpers import running_server
from test_pages_browser import app, browser, by_id, url, wait_for  # noqa: F401 (fixtures)
from test_savedgame_browser import log_in

pytestmark = pytest.mark.browser

CHECK = "un_supply_shortage_end"


def attacker_site(forms: dict[str, tuple[str, dict[str, str]]]):
    """A site of its own (another port of 127.0.0.1) whose page `/<name>` auto-submits a form."""
    def site(environ, start_response):
        action, fields = forms[environ["PATH_INFO"].lstrip("/")]
        inputs = "".join(f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">' for k, v in fields.items())
        page = (f'<!doctype html><title>Free wargame maps</title><form id="f" method="post" action="{html.escape(action)}">'
                f'{inputs}</form><script>document.getElementById("f").submit()</script>')
        start_response("200 OK", [("Content-Type", "text/html; charset=utf-8")])
        return [page.encode("utf-8")]
    return running_server(site)


def ledger(app, game) -> dict:
    return app.test_client().get(f"/api/v1/games/{game['game_id']}/ledger",
                                 headers=bearer(game["tokens"]["observer"])).get_json()


def test_a_page_on_another_port_cannot_roll_or_close_in_the_players_name(browser, url, app):
    game = new_game(app.test_client(), "kwb", "pusan")
    gid = game["game_id"]
    log_in(browser, url, gid, game["tokens"]["un"])
    forms = {"roll": (f"{url}/games/{gid}/checks/{CHECK}", {"game_turn": "2", "request_id": "page-evil-1"}),
             "close": (f"{url}/games/{gid}/close", {"confirm": "close"})}
    with attacker_site(forms) as evil:
        assert evil.split(":")[1] == url.split(":")[1] and evil != url  # same host, same site, another origin
        for name in forms:
            browser.get(f"{evil}/{name}")
            title = wait_for(browser, "error-title")
            assert browser.current_url.startswith(url)  # the browser did send it, with the player's cookies
            assert title.text.startswith("Refused"), name
            error = by_id(browser, "page-error")
            assert error.get_attribute("data-kind") == "cross-origin-request"
            assert evil in error.text and "Nothing was recorded" in error.text
    document = ledger(app, game)
    assert [r["seq"] for r in document["records"]] == [0] and document["game"]["status"] == "open"

    # the player's own pages still roll
    browser.get(f"{url}/games/{gid}/checks/{CHECK}")
    box = by_id(browser, f"roll-{'game_turn'}")
    box.clear()
    box.send_keys("2")
    by_id(browser, "roll-submit").click()
    wait_for(browser, "verification")
    assert [r["seq"] for r in ledger(app, game)["records"]] == [0, 1]


def test_back_after_chances_and_a_roll_shows_the_chances_again(browser, url, app):
    """Chances, then Roll, then Back: the chances' own page (a GET the redirect left in the
    history), with the form and its request id; no "Confirm Form Resubmission"."""
    game = new_game(app.test_client(), "kwb", "pusan")
    gid = game["game_id"]
    log_in(browser, url, gid, game["tokens"]["un"])
    browser.get(f"{url}/games/{gid}/checks/{CHECK}")
    box = by_id(browser, "roll-game_turn")
    box.clear()
    box.send_keys("3")
    by_id(browser, "chances").click()
    wait_for(browser, "odds-answer")
    chances_address = browser.current_url
    assert "/odds?" in chances_address and "game_turn=3" in chances_address and "form_token" not in chances_address
    request_id = by_id(browser, "request-id").get_attribute("value")
    by_id(browser, "roll-submit").click()
    wait_for(browser, "verification")
    assert [r["seq"] for r in ledger(app, game)["records"]] == [0, 1]
    browser.back()
    wait_for(browser, "odds-answer")
    assert browser.current_url == chances_address
    assert by_id(browser, "request-id").get_attribute("value") == request_id
    by_id(browser, "roll-submit").click()  # the same form again: the ruling already recorded, no new roll
    wait_for(browser, "verification")
    assert browser.current_url.split("#")[0].endswith(f"/games/{gid}/records/1")
    assert [r["seq"] for r in ledger(app, game)["records"]] == [0, 1]


def cookie_site(cookies: list[str]):
    """A site on another port of 127.0.0.1 whose page sets these cookies (Set-Cookie headers) for the
    host: browsers keep cookies per host, whatever the port, so they reach the service too."""
    def site(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/html; charset=utf-8")]
                       + [("Set-Cookie", cookie) for cookie in cookies])
        return [b"<!doctype html><title>Free wargame maps</title><p id='done'>maps</p>"]
    return running_server(site)


def test_a_page_on_another_port_cannot_log_the_player_in_as_someone_else(browser, url, app):
    """issue 52: the attacker logs in to the game as its observer in his own browser, then his page on
    another port sets that login cookie in the player's browser. The player's page does not become
    the observer's: the login cookie is tied to the player's session, which the attacker does not know."""
    game = new_game(app.test_client(), "kwb", "pusan")
    gid = game["game_id"]
    log_in(browser, url, gid, game["tokens"]["un"])
    assert by_id(browser, "role").text == "un"
    attacker = app.test_client()
    assert attacker.post(f"/games/{gid}", data={"token": game["tokens"]["observer"]}).status_code == 303
    held = attacker.get_cookie("adj_token", path=f"/games/{gid}").value
    with cookie_site([f"adj_token={held}; Path=/games/{gid}; HttpOnly; SameSite=Strict"]) as evil:
        browser.get(f"{evil}/maps")
        wait_for(browser, "done")
    browser.get(f"{url}/games/{gid}")
    # The planted cookie did replace the player's (he is no longer "un"), and is no login: he is asked
    # for a token, never shown the observer's game page.
    wait_for(browser, "game-login")
    assert not browser.find_elements("id", "role")
    log_in(browser, url, gid, game["tokens"]["un"])
    assert by_id(browser, "role").text == "un"
