"""Security headers (issue 29): no caching of what shows tokens, no framing, a Content-Security-Policy
that the pages themselves live with.

In-process for the headers; headless Chromium (the fixtures of tests/test_pages_browser.py) for
the policy: every kind of page is opened, its forms used, and the browser's console must show no
Content-Security-Policy refusal (an inline style or script the policy would block).
"""

from __future__ import annotations

import base64
import hashlib
import io
import re

import pytest
from test_bridge_helpers import SCENARIO, SYSTEM, kwb, savedgame_bytes, setup_units
from test_pages_browser import app, browser, by_id, url, wait_for  # noqa: F401 (fixtures)

from adjudicator.headers import inline_style_hashes
from adjudicator.testing import a_side, bearer, make_app, new_game

PAGES = ["/", "/systems/kwb", "/systems/kwb/savedgame", "/api/v1/docs", "/no-such-page",
         "/api/v1/openapi.json", "/api/v1/systems", "/.well-known/adjudicator-keys.json", "/ping",
         "/api/v1/no-such-thing"]


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path).test_client()


def directives(policy: str) -> dict[str, str]:
    return dict(part.strip().split(" ", 1) for part in policy.split(";"))


@pytest.mark.parametrize("path", PAGES)
def test_every_response_refuses_framing_and_carries_a_policy(client, path):
    response = client.get(path)
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    policy = directives(response.headers["Content-Security-Policy"])
    assert policy["frame-ancestors"] == "'none'"
    assert policy["script-src"] == "'self'" and policy["object-src"] == "'none'"
    assert "unsafe-inline" not in response.headers["Content-Security-Policy"]


def test_the_pages_and_answers_that_show_tokens_are_never_stored(client):
    page = client.post("/games", data={"system_scenario": f"{SYSTEM}/{SCENARIO}"})
    assert page.status_code == 201
    assert "observer" in page.get_data(as_text=True)  # the tokens are on it
    assert page.headers["Cache-Control"] == "no-store"
    created = client.post("/api/v1/games", json={"system": SYSTEM, "scenario": SCENARIO})
    assert created.status_code == 201 and created.get_json()["tokens"]
    assert created.headers["Cache-Control"] == "no-store"
    game = created.get_json()
    ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(a_side(game)))
    assert ledger.headers["Cache-Control"] == "no-store"
    game_page = client.post(f"/games/{game['game_id']}", data={"token": a_side(game)})
    assert game_page.status_code == 200 and game_page.headers["Cache-Control"] == "no-store"


def test_static_files_keep_their_own_caching(client):
    response = client.get("/static/style.css")
    assert response.status_code == 200 and response.headers["Cache-Control"] != "no-store"


def test_the_inline_style_of_the_served_report_is_the_one_the_policy_allows(client):
    units = setup_units(kwb(), SCENARIO, 6)
    data = savedgame_bytes(kwb(), units)
    page = client.post(f"/systems/{SYSTEM}/savedgame", data={"file": (io.BytesIO(data), "game.vsav")},
                       content_type="multipart/form-data")
    assert page.status_code == 200
    styles = re.findall(r"<style>(.*?)</style>", page.get_data(as_text=True), re.DOTALL)
    assert styles, "the report page has an inline style block"
    allowed = directives(page.headers["Content-Security-Policy"])["style-src"]
    for style in styles:
        digest = base64.b64encode(hashlib.sha256(style.encode("utf-8")).digest()).decode("ascii")
        assert f"'sha256-{digest}'" in allowed
    assert set(inline_style_hashes()) <= set(allowed.split())


# -- in a real browser ---------------------------------------------------------------------------

def policy_refusals(driver) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser")
            if "Content Security Policy" in entry["message"] or "Content-Security-Policy" in entry["message"]]


@pytest.mark.browser
def test_every_kind_of_page_works_under_the_policy(browser, url, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get_log("browser")  # start from an empty console
    browser.get(f"{url}/")
    by_id(browser, "create-submit").click()
    tokens = {cell.get_attribute("data-role"): cell.text
              for cell in wait_for(browser, "tokens").find_elements(By.CSS_SELECTOR, "code[data-role]")}
    assert "observer" in tokens
    by_id(browser, "game-link").click()
    token_box = browser.find_element(By.CSS_SELECTOR, "input[name=token]")
    token_box.send_keys(tokens["observer"])
    token_box.submit()
    browser.find_element(By.TAG_NAME, "h1")

    browser.get(f"{url}/systems/kwb")  # forms.js: a unit list gets a row by a click
    section = by_id(browser, "section-combat")
    section.find_element(By.TAG_NAME, "summary").click()
    button = section.find_element(By.CSS_SELECTOR, "button.add-row")
    rows = by_id(browser, button.get_attribute("data-rows"))
    before = len(rows.find_elements(By.CSS_SELECTOR, "[data-row], tr, fieldset"))
    button.click()
    assert len(rows.find_elements(By.CSS_SELECTOR, "[data-row], tr, fieldset")) > before

    setup = tmp_path / "setup.vsav"
    setup.write_bytes(savedgame_bytes(kwb(), setup_units(kwb(), SCENARIO, 6)))
    browser.get(f"{url}/systems/{SYSTEM}/savedgame")
    by_id(browser, "savedgame-file").send_keys(str(setup))
    Select(by_id(browser, "savedgame-check")).select_by_value("")
    by_id(browser, "savedgame-submit").click()
    browser.find_element(By.CSS_SELECTOR, ".map-frame svg")  # the report, with its inline style

    browser.get(f"{url}/api/v1/docs")
    assert policy_refusals(browser) == []
