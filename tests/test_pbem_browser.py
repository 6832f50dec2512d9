"""The README's "Play by e-mail in the browser", step by step, in headless Chromium, for each game:
create a game on the home page, open it with a side's token, take a combat from the module's setup by
clicking the board, roll, read the ruling's page, download the log that continues the game; the
opponent, in a browser of his own, replays the log and checks it against the ledger; close the game and
verify the ledger offline with the published keys.

Screenshots of each page the walk shows go to ``.artifacts/screenshots/`` (test_board_browser.py).
The server rolls from a seed chosen for the combat the player points at (`calm_seed`): a result
that orders no retreat, marker or choice left to the defender, so the log the page writes is the
whole turn (a retreat is the owner's to make in VASSAL; tests/test_log_board.py checks those).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
import requests

from test_board_browser import screenshot, shots  # noqa: F401 (fixture)
from test_pages_browser import app, browser, by_id, url, wait_for  # noqa: F401 (fixtures)
from test_savedgame_browser import in_sight, setup_path
from tests.engine.play import adjacent_combat

from pydantic_core import PydanticUndefined

from adjudicator.bridge import load_system_game, read_positions, read_upload
from adjudicator.bridge.fill import Pointed, fill_request
from adjudicator.checks import get_check
from adjudicator.ruled_orders import loss_choices, marker_orders, retreat_orders
from adjudicator.testing import choose_seeds, seed_where

pytestmark = pytest.mark.browser

GAMES = ["kwb", "spi", "holdfast", "fireandice"]


def click_and_wait(driver, selector: str, element_id: str):
    """Click what leads to another page (a CSS selector), and the element of that page.

    Chromium now and then reports a click that did navigate as failed ("Node ... does not belong to
    the document": the page it clicked on is gone); the click is tried again only when the page it
    was made on is still there. While the page changes Chromium may also answer a question about the
    old page with an "unhandled inspector error": the wait asks again rather than fail on it."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    html = driver.find_element("tag name", "html")
    for attempt in range(3):
        try:
            driver.find_element("css selector", selector).click()
            break
        except WebDriverException:
            if ec.staleness_of(html)(driver):
                break
            if attempt == 2:
                raise
    WebDriverWait(driver, 30, ignored_exceptions=(WebDriverException,)).until(ec.staleness_of(html))
    return wait_for(driver, element_id)


def cookies(driver) -> dict[str, str]:
    return {c["name"]: c["value"] for c in driver.get_cookies()}


#: What the page's form gives a combat beyond the board when the player leaves it as it opens.
FORM_DEFAULTS = {"fireandice": {"combat_type": "Meeting Engagement"}, "spi": {"table": "meeting"}}


def calm_seed(modules, system: str, combat, side: str, target_hex: str) -> bytes:
    """A seed whose first ruling, the combat the page will ask from the setup, orders nothing the
    page's log cannot carry (a retreat, a marker, the defender's choice of losses)."""
    spec = get_check(system, "combat")
    data = modules[(system, 1)][2][f"setups/{combat.scenario.id}.vsav"]
    positions = read_positions(load_system_game(system), read_upload(data))
    given = {name: f.default for name, f in spec.request.model_fields.items() if f.default is not PydanticUndefined}
    given.update(FORM_DEFAULTS.get(system, {}))
    request = fill_request(spec, positions, Pointed(list(combat.attackers), target_hex), given,
                           scenario=combat.scenario.id, side=side).request
    return seed_where(spec, request, lambda o: not any((*retreat_orders(o), *marker_orders(o), *loss_choices(o))))


@pytest.mark.parametrize("system", GAMES)
def test_a_game_played_by_e_mail_in_the_browser(app, browser, url, modules, tmp_path, shots, system):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    combat = adjacent_combat(system)
    side = combat.side or combat.scenario.first_player
    target_hex = next(p for p in combat.scenario.setup if p.unit == combat.defender).location.partition("@")[0]
    choose_seeds(app, {f"{system}/{combat.scenario.id}": calm_seed(modules, system, combat, side, target_hex)})
    browser.delete_all_cookies()

    # 2. Create the game on the home page; the tokens are shown once.
    browser.get(f"{url}/")
    Select(by_id(browser, "system-scenario")).select_by_value(f"{system}/{combat.scenario.id}")
    click_and_wait(browser, "#create-submit", "tokens")
    tokens = {cell.get_attribute("data-role"): cell.text
              for cell in by_id(browser, "tokens").find_elements(By.CSS_SELECTOR, "code[data-role]")}
    game_id = browser.find_element(By.TAG_NAME, "h1").text.split()[1]
    opponent = next(role for role in tokens if role not in (side, "observer"))

    # 3. Open the game page as the attacking side.
    click_and_wait(browser, f"#open-as-{side}", "ledger")
    assert "Ledger verified" in by_id(browser, "verification").text

    # 5. From a saved game: the module's setup, and the combat.
    click_and_wait(browser, "#savedgame-link", "savedgame-form")
    by_id(browser, "savedgame-file").send_keys(str(setup_path(modules, tmp_path, system, combat.scenario.id)))
    Select(by_id(browser, "savedgame-check")).select_by_value("combat")
    click_and_wait(browser, "#savedgame-submit", "savedgame-check")
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return document.documentElement.dataset.boardsReady"))

    # 6. Point at the board: the attacking units, then the hex attacked.
    if browser.find_elements(By.CSS_SELECTOR, "input[name=_attackers]"):
        for unit in combat.attackers:
            box = by_id(browser, f"attacker-{unit}")
            if not box.is_selected():
                in_sight(browser, browser.find_element(By.CSS_SELECTOR, f"g.stack g.piece[data-unit='{unit}']")).click()
        for box in browser.find_elements(By.CSS_SELECTOR, "input[name=_attackers]:checked"):
            if box.get_attribute("value") not in combat.attackers:
                box.click()
        assert sorted(b.get_attribute("value") for b in browser.find_elements(
            By.CSS_SELECTOR, "input[name=_attackers]:checked")) == sorted(combat.attackers)
    browser.find_element(By.CSS_SELECTOR, "input[name=_mode][value=target]").click()
    in_sight(browser, next(g for g in browser.find_elements(By.CSS_SELECTOR, "g.stack")
                           if g.get_attribute("data-hex") == target_hex)).click()
    assert by_id(browser, "target-hex").get_attribute("value") == target_hex
    screenshot(browser, shots, f"{system}-pbem-6-check")
    if system == "holdfast":  # the defending block is hidden until the roll: no chances, and why
        assert not browser.find_elements(By.ID, "chances")
        assert "hidden from you" in by_id(browser, "chances-withheld").text
    else:
        click_and_wait(browser, "#chances", "odds-combat")
        screenshot(browser, shots, f"{system}-pbem-6-chances")

    # 7. Roll: the ruling's own page, opening with the chat's first line; then each unit's fate, the
    # steps with their rules, the whole table.
    click_and_wait(browser, "#resolve", "verification")
    assert "/records/1" in browser.current_url and "Verified" in by_id(browser, "verification").text
    chat = by_id(browser, "transcript").get_attribute("textContent").splitlines()
    first = re.sub(r"^\[ADJ [^\]]*\] RULING » ", "", chat[0])
    assert first != chat[0] and first.startswith("Combat for ")
    assert browser.find_element(By.CSS_SELECTOR, "main > :first-child").get_attribute("id") == "headline"
    assert by_id(browser, "headline").text == first
    order = browser.execute_script(
        "return ['headline', 'unit-changes', 'steps-record', 'outcome-record', 'receipt'].map("
        "id => [...document.querySelectorAll('main *')].indexOf(document.getElementById(id)))")
    assert order == sorted(order) and -1 not in order, order
    units = [li.text for li in by_id(browser, "unit-changes").find_elements(By.TAG_NAME, "li")]
    assert units == [line.split("] ", 1)[1] for line in chat[1:1 + len(units)]]  # as the chat says each
    screenshot(browser, shots, f"{system}-pbem-7-ruling")

    # 8. The log that continues the game, with the ruling in its chat.
    log = requests.get(url + by_id(browser, "download-vlog").get_attribute("href").removeprefix(url),
                       cookies=cookies(browser), timeout=30)
    assert log.status_code == 200, log.text[:300]
    path = tmp_path / "turn.vlog"
    path.write_bytes(log.content)

    # 9. The opponent, in his own browser: the replay, and the log checked against the ledger.
    browser.delete_all_cookies()
    browser.get(f"{url}/games/{game_id}")
    by_id(browser, "token").send_keys(tokens[opponent])
    click_and_wait(browser, "#game-login button", "ledger")
    click_and_wait(browser, "#replay-link", "replay-form")
    by_id(browser, "replay-files").send_keys(str(path))
    click_and_wait(browser, "#replay-submit", "replay-data")
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return document.body.dataset.replayReady") == "yes")
    assert by_id(browser, "replay-verdict").get_attribute("data-ok") == "yes", by_id(browser, "replay-rulings").text
    browser.find_element(By.CSS_SELECTOR, "#replay-rulings a[data-step]").click()
    WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#replay-step section.ruling"))
    screenshot(browser, shots, f"{system}-pbem-9-replay")
    browser.get(f"{url}/games/{game_id}/log-check")
    by_id(browser, "log-file").send_keys(str(path))
    click_and_wait(browser, "#log-check-form button", "log-report")
    assert "Every ruling matches the ledger" in by_id(browser, "log-verdict").text

    # 10. The ledger: each record by its headline (the ruling's with what it did to units), none by a hash.
    browser.get(f"{url}/games/{game_id}")
    headlines = {row.get_attribute("id"): row.find_element(By.CSS_SELECTOR, "strong.headline").text
                 for row in browser.find_elements(By.CSS_SELECTOR, "#ledger > tbody > tr")}
    assert headlines["record-0"].startswith("The game was created")
    assert headlines["record-1"].startswith(first)
    assert not [h for h in headlines.values() if re.search(r"[0-9a-f]{32}", h)]
    screenshot(browser, shots, f"{system}-pbem-10-ledger")

    # 11. Close the game: the seed revealed, every die recomputed.
    click_and_wait(browser, "#close-link", "close-form")
    by_id(browser, "close-confirm").click()
    click_and_wait(browser, "#close-submit", "ledger")
    assert by_id(browser, "game-status").text == "closed"
    assert "dice recomputed from the revealed seed" in by_id(browser, "verification").text
    screenshot(browser, shots, f"{system}-pbem-11-closed")

    # 12. Offline, with the ledger and the published keys the game page links.
    ledger = requests.get(url + by_id(browser, "ledger-download").get_attribute("href").removeprefix(url),
                          cookies=cookies(browser), timeout=30)
    keys = requests.get(f"{url}/.well-known/adjudicator-keys.json", timeout=30)
    (tmp_path / "ledger.json").write_bytes(ledger.content)
    (tmp_path / "keys.json").write_bytes(keys.content)
    assert json.loads(ledger.content)["records"]
    verified = subprocess.run([sys.executable, "-m", "adjudicator.cli", "verify", str(tmp_path / "ledger.json"),
                               "--key", str(tmp_path / "keys.json")], capture_output=True, text=True, timeout=120)
    assert verified.returncode == 0, verified.stdout + verified.stderr
