"""The adjudicator's pages in a real browser: headless Chromium (Debian's `chromium` and
`chromium-driver`, no browser download) driven by selenium against the app served on a free
loopback port.

What a player does: find the game on the home page, open a check's form, enter the situation and
the dice, read the ruling with its rule citations; see a mistake pointed out next to the field;
look at a recorded game's ledger and see every receipt verified, and a tampered record caught.

Skipped, with the reason, when Chromium, chromedriver or selenium is missing.
"""

from __future__ import annotations

import json
import shutil

import pytest

from adjudicator.testing import bearer, make_app
from test_bridge_helpers import running_server

pytestmark = pytest.mark.browser

WAIT_SECONDS = 20


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("pages-browser"))


@pytest.fixture(scope="module")
def url(app):
    with running_server(app) as base:
        yield base


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """One headless Chromium for the module (starting one takes most of a test's time)."""
    binary, driver_path = _chromium(), shutil.which("chromedriver")
    if not binary or not driver_path:
        pytest.skip("headless Chromium and chromedriver are not installed "
                    "(Debian: apt-get install chromium chromium-driver)")
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    profile = tmp_path_factory.mktemp("chromium-profile")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage",
                 "--window-size=1280,1000", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # console: policy refusals
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=driver_path),
                              options=options)
    try:
        yield driver
    finally:
        driver.quit()


def by_id(driver, element_id: str):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, element_id)


def wait_for(driver, element_id: str):
    """The element, once the page that has it has loaded (after a form was submitted)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT_SECONDS).until(ec.presence_of_element_located((By.ID, element_id)))


def open_check(driver, url: str, system: str, check: str) -> None:
    """Open a system page and unfold one check's form by clicking its heading, as a player would."""
    from selenium.webdriver.common.by import By

    driver.get(f"{url}/systems/{system}")
    section = by_id(driver, f"section-{check}")
    assert section.get_attribute("open") is None  # folded until asked for
    section.find_element(By.TAG_NAME, "summary").click()
    assert by_id(driver, f"check-{check}").is_displayed()


def fill(driver, check: str, values: dict[str, str]) -> None:
    for name, text in values.items():
        box = by_id(driver, f"{check}-{name}")
        box.clear()
        box.send_keys(text)


def submit(driver, check: str):
    """Submit a check's form; returns its answer block on the page that comes back."""
    from selenium.webdriver.common.by import By

    by_id(driver, f"check-{check}").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    return wait_for(driver, f"answer-{check}")


def outcome(driver, check: str) -> dict[str, str]:
    from selenium.webdriver.common.by import By

    cells = by_id(driver, f"outcome-{check}").find_elements(By.CSS_SELECTOR, "td[data-key]")
    return {cell.get_attribute("data-key"): cell.text for cell in cells}


# -- home page -----------------------------------------------------------------------------------

def test_home_page_lists_the_four_systems(browser, url):
    from selenium.webdriver.common.by import By

    browser.get(url + "/")
    systems = by_id(browser, "systems").find_elements(By.CSS_SELECTOR, "section.system")
    assert [s.get_attribute("id") for s in systems] == [
        "system-kwb", "system-spi", "system-holdfast", "system-fireandice"]
    for section in systems:
        assert section.find_elements(By.CSS_SELECTOR, ".chips a"), "each system lists its checks"
    by_id(browser, "system-holdfast").find_element(By.CSS_SELECTOR, "h2 a").click()
    assert wait_for(browser, "toc").is_displayed()
    assert browser.find_element(By.TAG_NAME, "h1").text == "HoldFast Korea"


# -- compute mode: a simple random check per system ---------------------------------------------

COMPUTE_CASES = [
    # system, check, inputs, dice, outcome entries the rules give for them (the fields not filled
    # keep the values of the check's example, which the form starts from)
    ("kwb", "un_supply_shortage_end", {"game_turn": "5"}, "4",
     {"roll": "4", "shortage_ended": "yes"}),
    ("holdfast", "chinese_intervention", {"turns_after_crossing": "2"}, "6",
     {"roll": "6", "needed": "5-6", "intervenes": "yes"}),
    ("fireandice", "chinese_intervention", {"un_vp": "12"}, "3",  # and UN units in North Korea
     {"roll": "3", "modifier": "-2", "modified": "1", "intervenes": "no"}),
    ("spi", "north_edge_return", {}, "2", {"roll": "2"}),
]


@pytest.mark.parametrize("system, check, inputs, dice, expected", COMPUTE_CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in COMPUTE_CASES])
def test_compute_a_check_with_dice(browser, url, system, check, inputs, dice, expected):
    from selenium.webdriver.common.by import By

    open_check(browser, url, system, check)
    fill(browser, check, {**inputs, "dice": dice})
    answer = submit(browser, check)
    assert browser.current_url.endswith(f"#answer-{check}")
    assert answer.find_elements(By.ID, f"result-{check}"), answer.text

    shown = outcome(browser, check)
    assert {key: shown.get(key) for key in expected} == expected
    steps = by_id(browser, f"steps-{check}").find_elements(By.TAG_NAME, "li")
    assert steps and all(step.text for step in steps)
    citations = [c.text for c in by_id(browser, f"steps-{check}").find_elements(By.TAG_NAME, "cite")]
    assert citations and all(c.startswith("(") and len(c) > 2 for c in citations)
    dice_used = by_id(browser, f"dice-{check}").find_elements(By.CSS_SELECTOR, "li .die")
    assert [d.text for d in dice_used] == [dice]
    # what was entered stays in the form, to adjust and resolve again
    assert by_id(browser, f"{check}-dice").get_attribute("value") == dice


def test_the_page_and_the_api_agree(browser, url, app):
    """The page validates and runs through the same model and function as the API."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    open_check(browser, url, "fireandice", "chinese_intervention")
    fill(browser, "chinese_intervention", {"un_vp": "15", "dice": "1"})
    Select(by_id(browser, "chinese_intervention-trigger")).select_by_value("foreign_aid")
    submit(browser, "chinese_intervention")
    shown_request = json.loads(by_id(browser, "request-chinese_intervention").get_attribute("textContent"))
    assert {k: shown_request[k] for k in ("un_vp", "trigger", "dice")} == {
        "un_vp": 15, "trigger": "foreign_aid", "dice": [1]}
    api = app.test_client().post("/api/v1/systems/fireandice/chinese_intervention",
                                 json=shown_request).get_json()
    steps = [li.text for li in by_id(browser, "steps-chinese_intervention").find_elements(By.TAG_NAME, "li")]
    assert steps == [f"{s['text']} ({s['rule']})" if s["rule"] else s["text"] for s in api["steps"]]
    assert outcome(browser, "chinese_intervention")["intervenes"] == ("yes" if api["outcome"]["intervenes"] else "no")


# -- mistakes are shown next to the field they are about ----------------------------------------

def test_a_die_out_of_range_is_shown_at_the_dice_field(browser, url):
    from selenium.webdriver.common.by import By

    open_check(browser, url, "kwb", "un_supply_shortage_end")
    fill(browser, "un_supply_shortage_end", {"game_turn": "5", "dice": "9"})
    answer = submit(browser, "un_supply_shortage_end")
    assert not answer.find_elements(By.ID, "result-un_supply_shortage_end")
    assert "1..6" in by_id(browser, "errors-un_supply_shortage_end").text
    field = by_id(browser, "field-un_supply_shortage_end-dice")
    assert "invalid" in field.get_attribute("class").split()
    assert "1..6" in field.find_element(By.CSS_SELECTOR, ".field-error").text
    assert "invalid" not in by_id(browser, "field-un_supply_shortage_end-game_turn").get_attribute("class")


def test_a_bad_hex_inside_a_unit_list_is_shown_at_that_field(browser, url):
    """Lists of units are rows of inputs (no JSON); an error names the row and the field."""
    from selenium.webdriver.common.by import By

    open_check(browser, url, "kwb", "combat")
    assert not browser.find_elements(By.CSS_SELECTOR, "#check-combat textarea")
    fill(browser, "combat", {"attackers-0-hex": "12", "dice": "3"})
    submit(browser, "combat")
    field = by_id(browser, "field-combat-attackers")
    assert "invalid" in field.get_attribute("class").split()
    message = field.find_element(By.CSS_SELECTOR, ".field-error").text
    assert "item 1 › hex" in message and "4 digits" in message
    assert by_id(browser, "combat-attackers-0-hex").get_attribute("value") == "12"
    problems = by_id(browser, "errors-combat").find_elements(By.CSS_SELECTOR, "li")
    assert [p.get_attribute("data-field") for p in problems] == ["attackers"]
    assert "{" not in problems[0].text  # words, not a raw JSON dump


def test_rows_are_added_and_removed_and_a_unit_offers_its_own_steps(browser, url):
    """With the keyboard: add a row, pick a unit by typing part of it, choose among its steps,
    remove a row; the request read back is what the rows say."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    open_check(browser, url, "holdfast", "combat")
    rows = by_id(browser, "combat-attackers")
    before = len(rows.find_elements(By.CSS_SELECTOR, "fieldset.row"))
    add = by_id(browser, "field-combat-attackers").find_element(By.CSS_SELECTOR, "button.add-row")
    add.send_keys(Keys.ENTER)  # a button: Enter works as a click
    assert len(rows.find_elements(By.CSS_SELECTOR, "fieldset.row")) == before + 1
    new = f"combat-attackers-{before}"
    unit = by_id(browser, f"{new}-unit")
    assert browser.switch_to.active_element == unit  # focus moves into the new row
    unit.send_keys("usmc-1-r", Keys.TAB)  # a 2/1 block: SP 2 or 1
    assert "Marine" in by_id(browser, f"{new}-unit-name").text
    assert [o.get_attribute("value") for o in Select(by_id(browser, f"{new}-sp")).options] == ["2", "1"]
    labels = browser.find_elements(By.CSS_SELECTOR, f"label[for='{new}-hex']")
    assert labels and labels[0].text.startswith("Hex")
    first = rows.find_elements(By.CSS_SELECTOR, "fieldset.row")[0]
    first.find_element(By.CSS_SELECTOR, "button.remove-row").send_keys(Keys.ENTER)
    assert by_id(browser, "combat-attackers-0-unit").get_attribute("value") == "usmc-1-r"  # renumbered
    assert by_id(browser, "combat-attackers-0-unit").get_attribute("name") == "attackers.0.unit"


def test_a_unit_typed_by_its_counters_name_is_that_unit(browser, url):
    """A player types the name he reads on the counter ("NKPA 1"), as the server accepts it (issue 51):
    the form names the unit and offers its steps; a name no counter reads is said to be no unit."""
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    open_check(browser, url, "holdfast", "combat")
    unit = by_id(browser, "combat-attackers-0-unit")
    unit.clear()
    unit.send_keys("nkpa  1", Keys.TAB)  # the counter's name, typed without care for case or spaces
    assert "1st NKPA Division" in by_id(browser, "combat-attackers-0-unit-name").text
    assert [o.get_attribute("value") for o in Select(by_id(browser, "combat-attackers-0-sp")).options] == ["3", "2", "1"]
    unit.clear()
    unit.send_keys("NKPA 99", Keys.TAB)
    assert by_id(browser, "combat-attackers-0-unit-name").text == "not a unit of this game"


# -- game mode: the ledger page -----------------------------------------------------------------

def receipt_status(driver, seq: int) -> str:
    from selenium.webdriver.common.by import By

    return by_id(driver, f"record-{seq}").find_element(By.CSS_SELECTOR, "td.receipt").text


def show_ledger(driver, url: str, game_id: str, token: str) -> None:
    """Open the game's page with `token`, logging out of the token the browser remembers first."""
    from selenium.webdriver.common.by import By

    driver.get(f"{url}/games/{game_id}")
    if driver.find_elements(By.ID, "logout"):
        by_id(driver, "logout").click()
        wait_for(driver, "token")
    by_id(driver, "token").send_keys(token)
    by_id(driver, "game-login").submit()
    wait_for(driver, "ledger")


def test_game_page_verifies_each_receipt_and_catches_tampering(browser, url, app):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(url + "/")
    Select(by_id(browser, "system-scenario")).select_by_value("kwb/pusan")
    by_id(browser, "create-submit").click()
    link = wait_for(browser, "game-link").get_attribute("href")
    game_id = link.rsplit("/", 1)[-1]
    tokens = {code.get_attribute("data-role"): code.text
              for code in by_id(browser, "tokens").find_elements(By.CSS_SELECTOR, "code[data-role]")}
    assert set(tokens) == {"un", "communist", "observer"}, tokens

    api = app.test_client()
    for turn in (1, 2):  # a turn-1 roll never ends the shortage, so the turn-2 roll is still to be made
        response = api.post(f"/api/v1/games/{game_id}/un_supply_shortage_end",
                            json={"game_turn": turn, "request_id": f"turn-{turn}"},
                            headers=bearer(tokens["un"]))
        assert response.status_code == 201, response.get_json()

    show_ledger(browser, url, game_id, tokens["observer"])
    assert by_id(browser, "verification").get_attribute("class") == "ok"
    rows = by_id(browser, "ledger").find_elements(By.CSS_SELECTOR, ":scope > tbody > tr")
    assert [r.get_attribute("id") for r in rows] == ["record-0", "record-1", "record-2"]
    for seq in (0, 1, 2):
        assert receipt_status(browser, seq).startswith("verified")
    assert "un_supply_shortage_end" in by_id(browser, "record-1").text

    store = app.extensions["adjudicator"].store
    with store.engine.begin() as conn:  # edit a stored record behind the server's back
        changed = conn.exec_driver_sql(
            "UPDATE ledger_records SET body = replace(body, '\"game_turn\":2', '\"game_turn\":1') "
            "WHERE game_id = ? AND seq = 2", (game_id,)).rowcount
    assert changed == 1

    show_ledger(browser, url, game_id, tokens["un"])
    assert by_id(browser, "verification").get_attribute("class") == "bad"
    assert receipt_status(browser, 2).startswith("not verified")
    assert receipt_status(browser, 1).startswith("verified")
    assert "record 2" in by_id(browser, "problems").text


def test_a_verify_link_opens_the_ledger_at_its_record(browser, url, app):
    """A chat line's `verify: <server>/games/<id>#record-<seq>`: after the token, the page is at it."""
    from adjudicator.testing import new_game

    api = app.test_client()
    game = new_game(api, "kwb", "pusan")
    for turn in (1, 2):
        api.post(f"/api/v1/games/{game['game_id']}/un_supply_shortage_end", json={"game_turn": turn},
                 headers=bearer(game["tokens"]["un"]))
    browser.get(f"{url}/games/{game['game_id']}#record-2")
    by_id(browser, "token").send_keys(game["tokens"]["observer"])
    by_id(browser, "game-login").submit()
    wait_for(browser, "ledger")
    assert browser.current_url.endswith(f"/games/{game['game_id']}#record-2")
    assert by_id(browser, "record-2").is_displayed()


def test_a_link_to_a_record_of_an_older_ledger_page_opens_that_page(browser, url, app, monkeypatch):
    """issue 52: the game's page shows its ledger a page at a time; a chat line's
    `verify: .../games/<id>#record-1` (an old ruling) opens the page that holds record 1."""
    from adjudicator.web import game_pages

    monkeypatch.setattr(game_pages, "LEDGER_PAGE_ROWS", 2)
    api = app.test_client()
    game = api.post("/api/v1/games", json={"system": "kwb", "scenario": "pusan"}).get_json()
    gid = game["game_id"]
    for n in range(4):
        answer = api.post(f"/api/v1/games/{gid}/counter_battery", headers=bearer(game["tokens"]["un"]),
                          json={"un_marker": "sf-un-3", "communist_marker": "sf-com-1", "request_id": f"cb-{n}"})
        assert answer.status_code == 201
    browser.get(f"{url}/games/{gid}")
    by_id(browser, "token").send_keys(game["tokens"]["observer"])
    by_id(browser, "game-login").submit()
    wait_for(browser, "record-4")
    assert not browser.find_elements("id", "record-1")  # the newest page: records 3 and 4
    browser.get(f"{url}/games/{gid}#record-1")  # from the page itself (the address's fragment changes)
    wait_for(browser, "record-1")
    assert browser.current_url.endswith(f"/games/{gid}?before=2#record-1")
    browser.get(f"{url}/")
    browser.get(f"{url}/games/{gid}#record-2")  # from elsewhere (a chat line's link opened)
    wait_for(browser, "record-2")
    assert browser.current_url.endswith(f"/games/{gid}?before=3#record-2")
