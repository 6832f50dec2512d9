"""Security headers (issue 29): no caching of what shows tokens, no framing, a Content-Security-Policy
that the pages themselves live with.

In-process for the headers; headless Chromium (the fixtures of tests/test_pages_browser.py) for
the policy: every kind of page is opened, its forms used, and the browser's console must show no
Content-Security-Policy refusal (an inline style or script the policy would block).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from test_bridge_helpers import SCENARIO, SYSTEM, kwb, savedgame_bytes, setup_units
from test_pages_browser import app, browser, by_id, url, wait_for  # noqa: F401 (fixtures)

from adjudicator.testing import a_side, bearer, make_app, new_game

PAGES = ["/", "/systems/kwb", "/systems/kwb/savedgame", "/api/v1/docs", "/no-such-page",
         "/api/v1/openapi.json", "/api/v1/systems", "/.well-known/adjudicator-keys.json", "/ping",
         "/api/v1/no-such-thing"]


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path).test_client()


def directives(policy: str) -> dict[str, str]:
    return dict(part.strip().split(" ", 1) for part in policy.split(";"))


@pytest.mark.slow
@pytest.mark.parametrize("path", PAGES)
def test_every_response_refuses_framing_and_carries_a_policy(client, path):
    response = client.get(path)
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    policy = directives(response.headers["Content-Security-Policy"])
    assert policy["frame-ancestors"] == "'none'"
    assert policy["script-src"] == "'self'" and policy["object-src"] == "'none'"
    assert "unsafe-inline" not in response.headers["Content-Security-Policy"]


@pytest.mark.slow
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
    game_page = client.post(f"/games/{game['game_id']}", data={"token": a_side(game)}, follow_redirects=True)
    assert game_page.status_code == 200 and game_page.headers["Cache-Control"] == "no-store"


@pytest.mark.slow
def test_static_files_keep_their_own_caching(client):
    response = client.get("/static/style.css")
    assert response.status_code == 200 and response.headers["Cache-Control"] != "no-store"


@pytest.mark.slow
def test_no_page_needs_an_inline_style_or_script(client):
    """The policy allows styles and scripts from this origin only: every template keeps them in
    static files (style attributes and <style> blocks would be refused by the browser)."""
    from adjudicator.web.headers import CONTENT_SECURITY_POLICY

    assert directives(CONTENT_SECURITY_POLICY)["style-src"] == "'self'"
    templates = sorted((Path(__file__).parents[1] / "adjudicator" / "web" / "templates").glob("*.html"))
    for template in templates:
        text = template.read_text(encoding="utf-8")
        assert "<style" not in text and ' style="' not in text, template.name
        assert not re.search(r"<script(?![^>]*(src=|application/json))", text), template.name
        assert not re.search(r"\son[a-z]+=", text), template.name  # no inline event handlers
    units = setup_units(kwb(), SCENARIO, 6)
    page = client.post(f"/systems/{SYSTEM}/savedgame", data={"file": (io.BytesIO(savedgame_bytes(kwb(), units)),
                                                                       "game.vsav")},
                       content_type="multipart/form-data", follow_redirects=True)
    assert page.status_code == 200 and "<style" not in page.get_data(as_text=True)


# -- in a real browser ---------------------------------------------------------------------------

def policy_refusals(driver) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser")
            if "Content Security Policy" in entry["message"] or "Content-Security-Policy" in entry["message"]]


@pytest.mark.slow
@pytest.mark.browser
def test_every_kind_of_page_works_under_the_policy(browser, url, tmp_path):  # noqa: F811
    from selenium.webdriver.common.action_chains import ActionChains
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
    wait_for(browser, "positions")  # the report: its board drawn, zoomed and a stack spread by the script
    stack = browser.find_element(By.CSS_SELECTOR, "figure.board g.stack")
    browser.find_element(By.CSS_SELECTOR, "figure.board .board-zoom-in").click()
    browser.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", stack)
    ActionChains(browser).move_to_element(stack).perform()
    assert browser.find_elements(By.CSS_SELECTOR, "g.spread-piece")

    browser.get(f"{url}/api/v1/docs")
    assert policy_refusals(browser) == []
