"""The after-action report in a real browser (headless Chromium driven by selenium, as
tests/test_pages_browser.py does): a player finds it on the game's page, reads its sections, takes
its Markdown, and once the game is closed makes it public with the form; a browser holding no
token of the game then reads it. Skipped, with the reason, when Chromium, chromedriver or selenium
is missing."""

from __future__ import annotations

import pytest

from adjudicator.testing import bearer, make_app, new_game
from test_bridge_helpers import running_server
from test_pages_browser import by_id, show_ledger, wait_for
from test_pages_browser import browser  # noqa: F401  (the module's one Chromium)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("report-browser"))


@pytest.fixture(scope="module")
def url(app):
    with running_server(app) as base:
        yield base


def console_errors(driver) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]


def test_a_player_reads_publishes_and_shares_the_report(browser, url, app):  # noqa: F811
    """Fire and Ice's campaign: the UN earns 3 VP, the scenario ends with the marker at UN 3: "the
    side with more victory points wins" (19.0) — the UN."""
    client = app.test_client()
    game = new_game(client, "fireandice", "campaign")
    game_id, headers = game["game_id"], bearer(game["tokens"]["un"])
    for body in ({"track": 0, "gains": [{"side": "un", "vp": 3}]}, {"gains": [], "scenario_end": True}):
        assert client.post(f"/api/v1/games/{game_id}/victory_points", json=body, headers=headers).status_code == 201

    show_ledger(browser, url, game_id, game["tokens"]["un"])
    browser.get_log("browser")  # start from an empty console
    assert "UN" in by_id(browser, "game-winner").text
    by_id(browser, "report-link").click()
    wait_for(browser, "report")
    for section in ("report-headline", "report-turns", "report-losses", "report-dice", "report-verify", "report-export"):
        assert by_id(browser, section).is_displayed(), section
    assert by_id(browser, "report-winner").text == "UN"
    assert by_id(browser, "ruling-2").text.startswith("#2 UN: ")
    assert "rolled no server dice" in by_id(browser, "luck-un").text
    assert by_id(browser, "report-private").is_displayed()  # open: no publish form yet
    markdown_address = by_id(browser, "report-md").get_attribute("href")

    assert client.post(f"/api/v1/games/{game_id}/close", headers=headers).status_code == 200
    browser.get(f"{url}/games/{game_id}/report")
    by_id(browser, "publish-consent").click()
    by_id(browser, "publish-submit").click()
    public = wait_for(browser, "report-public")
    assert "made public by the UN player" in public.text
    assert console_errors(browser) == []

    browser.delete_all_cookies()  # a reader of the forum post: no token of the game
    browser.get(f"{url}/games/{game_id}/report")
    assert by_id(browser, "report-winner").text == "UN"
    browser.get(markdown_address)
    from selenium.webdriver.common.by import By

    shown = browser.find_element(By.TAG_NAME, "body").text  # shown as text, to copy into a forum post
    assert shown.startswith("## After-action report: Korea: Fire and Ice") and "**Result**: UN won" in shown
