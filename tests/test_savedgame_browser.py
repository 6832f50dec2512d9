"""The saved-game path in a real browser, for each game (issue #15): upload the module's setup,
choose the combat, click the attacking units and the hex attacked on the map, resolve in a
recorded game, read the result beside the request built from the file, download the log and
read it back. Then an accessibility pass: every control labelled, the map usable from the
keyboard, the pages readable at a phone's width.

Headless Chromium as in tests/test_pages_browser.py (its fixtures are reused); skipped with the
reason when Chromium, chromedriver or selenium is missing.
"""

from __future__ import annotations

import json

import pytest
from lxml import html as lxml_html
from werkzeug.datastructures import MultiDict

from adjudicator.transcript import parse_transcript
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

    return next(g for g in driver.find_elements(By.CSS_SELECTOR, "svg.savedgame-map g.stack")
                if unit_id in g.get_attribute("data-units").split())


def open_check_page(driver, url: str, game_id: str, path) -> None:
    from selenium.webdriver.support.ui import Select

    driver.get(f"{url}/systems/{game_id}/savedgame")
    by_id(driver, "savedgame-file").send_keys(str(path))
    Select(by_id(driver, "savedgame-check")).select_by_value("combat")
    by_id(driver, "savedgame-submit").click()
    wait_for(driver, "savedgame-check")


@pytest.mark.parametrize("game_id", GAMES)
def test_a_combat_from_an_uploaded_setup_by_clicking(browser, url, app, modules, tmp_path, game_id):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    combat = adjacent_combat(game_id)
    client = app.test_client()
    game = client.post("/api/v1/games", json={"system": game_id, "scenario": combat.scenario.id}).get_json()
    side = combat.game.units[combat.attackers[0]].side
    open_check_page(browser, url, game_id, setup_path(modules, tmp_path, game_id, combat.scenario.id))

    if browser.find_elements(By.CSS_SELECTOR, "input[name=_attackers]"):
        for unit in combat.attackers:  # click each attacker's stack, as a player does
            box = by_id(browser, f"attacker-{unit}")
            if not box.is_selected():
                stack_of(browser, unit).click()
            assert box.is_selected()
        for box in browser.find_elements(By.CSS_SELECTOR, "input[name=_attackers]:checked"):
            if box.get_attribute("value") not in combat.attackers:  # a stack-mate that does not attack
                box.click()
    else:  # Fire and Ice: the combat is fought by levels; the board gives the hex and the side
        Select(by_id(browser, "savedgame-side")).select_by_value(side)
    browser.find_element(By.CSS_SELECTOR, "input[name=_mode][value=target]").click()
    defender = stack_of(browser, combat.defender)
    defender.click()
    target = defender.get_attribute("data-hex")
    assert by_id(browser, "target-hex").get_attribute("value") == target

    browser.find_element(By.CSS_SELECTOR, "#field-game summary").click()
    by_id(browser, "savedgame-game-id").send_keys(game["game_id"])
    by_id(browser, "savedgame-token").send_keys(game["tokens"][side])
    by_id(browser, "resolve").click()
    result = wait_for(browser, "answer")
    assert result.find_elements(By.ID, "result"), result.text
    assert "recorded: record 1" in by_id(browser, "result").text
    built = json.loads(by_id(browser, "savedgame-request").get_attribute("textContent"))
    sent = json.dumps(built)  # the request built from the file names the defender or the hex attacked
    assert combat.defender in sent or f'"{target}"' in sent, sent
    assert built.get("scenario", combat.scenario.id) == combat.scenario.id

    # Download as VASSAL log: the form the button submits, posted as the browser would
    page = lxml_html.fromstring(browser.page_source)
    form = MultiDict(list(page.get_element_by_id("download-vlog").form_values()))
    log = client.post(f"/systems/{game_id}/savedgame/vlog", data=form)
    assert log.status_code == 200
    back = read_saved_game(log.data)
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
