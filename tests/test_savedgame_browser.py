"""The saved-game path in a real browser, for each game (issue #15): upload the module's setup,
choose the combat, click the attacking units and the hex attacked on the map, resolve in a
recorded game, read the result beside the request built from the file, download the log and
read it back. Then an accessibility pass: every control labelled, the map usable from the
keyboard, the pages readable at a phone's width.

Headless Chromium as in tests/test_pages_browser.py (its fixtures are reused); skipped with the
reason when Chromium, chromedriver or selenium is missing.
"""

from __future__ import annotations

import pytest
from adjudicator.logs.transcript import parse_transcript
from tests.engine.play import adjacent_combat
from test_pages_browser import app, browser, by_id, url, wait_for  # noqa: F401 (fixtures)
from vassalfmt import read_saved_game

pytestmark = pytest.mark.browser

GAMES = ["kwb", "spi", "holdfast", "fireandice"]

#: Every visible form control without a label (label[for], a wrapping label, aria-label(ledby)).
UNLABELLED_JS = """
return [...document.querySelectorAll('input, select, textarea')].filter(el => {
  if (el.type === 'hidden' || el.closest('template')) return false;
  if (el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')) return false;
  if (el.closest('label')) return false;
  return !(el.id && document.querySelector('label[for="' + CSS.escape(el.id) + '"]'));
}).map(el => el.name || el.id);
"""


def setup_path(modules, tmp_path, game_id: str, scenario_id: str):
    path = tmp_path / f"{scenario_id}.vsav"
    path.write_bytes(modules[(game_id, 1)][2][f"setups/{scenario_id}.vsav"])
    return path


def stack_of(driver, unit_id: str):
    from selenium.webdriver.common.by import By

    return in_sight(driver, next(g for g in driver.find_elements(By.CSS_SELECTOR, "svg.savedgame-map g.stack")
                                 if unit_id in g.get_attribute("data-units").split()))


def in_sight(driver, element):
    """The element, the board's frame scrolled to show it (as a player pans to it)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", element)
    return element


def open_check_page(driver, url: str, game_id: str, path, recorded_game: str | None = None) -> None:
    """Upload `path` on the system's saved-game page (or a recorded game's) and open its combat."""
    from selenium.webdriver.support.ui import Select

    page = f"/games/{recorded_game}/savedgame" if recorded_game else f"/systems/{game_id}/savedgame"
    driver.get(f"{url}{page}")
    by_id(driver, "savedgame-file").send_keys(str(path))
    Select(by_id(driver, "savedgame-check")).select_by_value("combat")
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    form_page = driver.find_element(By.TAG_NAME, "html")
    by_id(driver, "savedgame-submit").click()
    WebDriverWait(driver, 30, ignored_exceptions=(WebDriverException,)).until(ec.staleness_of(form_page))  # the check's page, not the form still showing
    wait_for(driver, "savedgame-check")


def log_in(driver, url: str, game_id: str, token: str) -> None:
    """Enter a token on the game's page, as a player does (the browser remembers it for the game)."""
    driver.get(f"{url}/games/{game_id}")
    by_id(driver, "token").send_keys(token)
    by_id(driver, "game-login").submit()
    wait_for(driver, "ledger")


@pytest.mark.parametrize("game_id", GAMES)
def test_a_combat_from_an_uploaded_setup_by_clicking(browser, url, app, modules, tmp_path, game_id):
    """A recorded game in the browser: log in, upload, click, roll; the ruling's own page; a
    refresh and a second submission of the same form record nothing more; the log download."""
    import requests
    from selenium.webdriver.common.by import By

    combat = adjacent_combat(game_id)
    client = app.test_client()
    game = client.post("/api/v1/games", json={"system": game_id, "scenario": combat.scenario.id}).get_json()
    side = combat.game.units[combat.attackers[0]].side
    log_in(browser, url, game["game_id"], game["tokens"][side])
    open_check_page(browser, url, game_id, setup_path(modules, tmp_path, game_id, combat.scenario.id),
                    game["game_id"])
    assert not browser.find_elements(By.ID, f"{'combat'}-dice")  # the server rolls: no dice box

    if browser.find_elements(By.CSS_SELECTOR, "input[name=_attackers]"):
        for unit in combat.attackers:  # click each attacker's stack, as a player does
            box = by_id(browser, f"attacker-{unit}")
            if not box.is_selected():
                stack_of(browser, unit).click()
            assert box.is_selected()
        for box in browser.find_elements(By.CSS_SELECTOR, "input[name=_attackers]:checked"):
            if box.get_attribute("value") not in combat.attackers:  # a stack-mate that does not attack
                box.click()
    browser.find_element(By.CSS_SELECTOR, "input[name=_mode][value=target]").click()
    # The defender's stack, found by its hex: an enemy block's identity is not on the page (fog of war)
    target_hex = next(p for p in combat.scenario.setup if p.unit == combat.defender).location.partition("@")[0]
    defender = in_sight(browser, next(g for g in browser.find_elements(By.CSS_SELECTOR, "svg.savedgame-map g.stack")
                                      if g.get_attribute("data-hex") == target_hex))
    defender.click()
    target = defender.get_attribute("data-hex")
    assert by_id(browser, "target-hex").get_attribute("value") == target
    check_page = browser.current_url

    by_id(browser, "resolve").click()
    wait_for(browser, "verification")
    assert "/records/1" in browser.current_url
    assert "Verified" in by_id(browser, "verification").text
    sent = by_id(browser, "situation").get_attribute("textContent")  # the request built from the file names the defender or the hex
    assert combat.defender in sent or target in sent, sent

    browser.refresh()  # a GET: nothing is posted again
    wait_for(browser, "verification")
    browser.back()  # to the form, as the browser kept it: the same request id
    wait_for(browser, "savedgame-check")
    assert browser.current_url == check_page
    by_id(browser, "resolve").click()  # an honest second click of the same form
    wait_for(browser, "verification")
    assert "/records/1" in browser.current_url  # the ruling already recorded, not a new roll
    ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger",
                        headers={"Authorization": f"Bearer {game['tokens'][side]}"}).get_json()
    assert [r["seq"] for r in ledger["records"]] == [0, 1]

    # Download as VASSAL log: the link on the ruling's page, with the browser's cookie for the game
    href = by_id(browser, "download-vlog").get_attribute("href")
    cookie = {c["name"]: c["value"] for c in browser.get_cookies()}
    log = requests.get(href, cookies=cookie, timeout=30)
    assert log.status_code == 200, log.text[:500]
    back = read_saved_game(log.content)
    chats = [c[len("CHAT"):] for c in back.other_commands if c.startswith("CHAT")]
    assert [(e.game_id, e.seq) for e in parse_transcript(chats)] == [(game["game_id"], 1)]


def test_every_control_is_labelled_and_the_map_works_from_the_keyboard(browser, url, modules, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    combat = adjacent_combat("kwb")
    open_check_page(browser, url, "kwb", setup_path(modules, tmp_path, "kwb", combat.scenario.id))
    assert browser.execute_script(UNLABELLED_JS) == []
    browser.find_element(By.CSS_SELECTOR, "input[name=_mode][value=target]").click()
    stack = stack_of(browser, combat.defender)
    browser.execute_script("arguments[0].focus()", stack)
    stack.send_keys(Keys.ENTER)
    assert by_id(browser, "target-hex").get_attribute("value") == stack.get_attribute("data-hex")
    for system in GAMES:
        browser.get(f"{url}/systems/{system}")
        assert browser.execute_script(UNLABELLED_JS) == [], system


@pytest.mark.parametrize("path", ["/systems/holdfast/combat", "/systems/kwb/savedgame"])
def test_pages_fit_a_phone(browser, url, path):
    browser.set_window_size(375, 800)
    try:
        browser.get(url + path)
        overflow = browser.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 1, f"{path} scrolls sideways by {overflow}px at 375px"
    finally:
        browser.set_window_size(1280, 1000)
