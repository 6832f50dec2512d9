"""The replay page in a real browser (issue 31), with logs our own writer makes on each game's setup:
log in, upload, step through every step with the arrow keys and see the board the file gives at
each one; jump to the next ruling, to a turn, to the end and back to the start; every verdict where
it happened; a chain of two files; the page usable from the keyboard, every control labelled,
nothing loaded from elsewhere, no inline script. The engine's own logs: test_replay_engine.py.

Headless Chromium as in tests/test_pages_browser.py (its fixtures are reused).
"""

from __future__ import annotations

import random
import re

import pytest

from adjudicator.testing import bearer, new_game
from replay_logs import LogWriter, saved_at_end
from test_pages_browser import app, browser, by_id, url, wait_for  # noqa: F401 (fixtures)
from test_replay import COUNTER_BATTERY, SCENARIOS, kwb_turn, units_of_file
from test_savedgame_browser import UNLABELLED_JS, log_in
from vassalfmt import continue_log

pytestmark = pytest.mark.browser

GAMES = ["kwb", "spi", "holdfast", "fireandice"]

#: The board as the page draws it: hex -> "unit=step ..." of the units the viewer sees there.
BOARD_JS = """
const out = {};
for (const g of document.querySelectorAll('svg g.rstack')) {
  if (g.dataset.steps) out[g.dataset.hex] = g.dataset.steps;
}
return out;
"""


#: The replay's data with every piece of its steps fetched, put together as one document (as
#: tests/test_replay.py's `page_data` does): for execute_async_script.
REPLAY_DATA_JS = """
const done = arguments[arguments.length - 1];
const data = JSON.parse(document.getElementById('replay-data').textContent);
const config = JSON.parse(document.getElementById('replay-config').textContent);
Promise.all([...Array(data.pieces).keys()].map(n => fetch(config.pieces + n).then(r => r.json()))).then(pieces => {
  const rulings = {};
  data.views = {};
  for (const piece of pieces) { Object.assign(data.views, piece.views); Object.assign(rulings, piece.rulings); }
  data.rulings = Object.keys(rulings).map(Number).sort((a, b) => a - b).map(i => rulings[i]);
  data.initial = pieces[0].board;
  data.steps = pieces.flatMap(piece => piece.steps);
  done(data);
});
"""


def board_of(driver) -> dict[str, tuple[str, str]]:
    """unit -> (hex, step) as drawn."""
    out = {}
    for hex_, steps in driver.execute_script(BOARD_JS).items():
        for item in steps.split():
            unit, _, step = item.partition("=")
            out[unit] = (hex_, step)
    return out


def upload(driver, base: str, page: str, *paths) -> None:
    driver.get(f"{base}{page}")
    by_id(driver, "replay-files").send_keys("\n".join(str(p) for p in paths))
    by_id(driver, "replay-submit").click()
    wait_for(driver, "replay-data")
    wait_ready(driver)


def wait_ready(driver) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return document.body.dataset.replayReady") == "yes")


def press(driver, key, times: int = 1) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    for _ in range(times):
        ActionChains(driver).send_keys(key).perform()


def step_shown(driver) -> int:
    return int(by_id(driver, "replay-step").get_attribute("data-step"))


def a_turn(system: str, setup: bytes, moves: int = 12) -> tuple[LogWriter, list[int]]:
    """A writer's turn of moves and step losses; the command counts after each."""
    writer = LogWriter(system, setup)
    rng = random.Random(f"browser-{system}")
    on_map = [u for u in writer.pieces if writer.hex_of(u)]
    ends = []
    for n in range(moves):
        unit = rng.choice(on_map)
        grid = writer.game.maps[writer.map_of(unit)].grid
        writer.move(unit, grid.label(rng.choice(grid.neighbours(grid.parse(writer.hex_of(unit))))))
        if n % 4 == 1 and len(writer.game.units[unit].steps) > 1:
            writer.step(unit, writer.game.units[unit].steps[-1].name)
        ends.append(len(writer.commands))
    return writer, ends


@pytest.mark.parametrize("system", GAMES)
def test_every_step_with_the_arrow_keys_is_the_board_the_file_gives(browser, url, app, modules, tmp_path, system):
    """As a closed game's observer (who sees every unit): each step forward draws the board the
    saved-game reader reads from the log cut there; Home is the start again, End the file's end."""
    from selenium.webdriver.common.keys import Keys

    setup = modules[(system, 1)][2][f"setups/{SCENARIOS[system]}.vsav"]
    writer, _ = a_turn(system, setup)
    path = tmp_path / "turn.vlog"
    path.write_bytes(writer.log())
    client = app.test_client()
    game = new_game(client, system, SCENARIOS[system])
    client.post(f"/api/v1/games/{game['game_id']}/close", headers=bearer(game["tokens"][next(iter(game["tokens"]))]))
    log_in(browser, url, game["game_id"], game["tokens"]["observer"])
    upload(browser, url, f"/games/{game['game_id']}/replay", path)
    start = board_of(browser)
    assert start == units_of_file(system, setup)
    for count in range(1, len(writer.commands) + 1):
        press(browser, Keys.ARROW_RIGHT)
        assert step_shown(browser) == count
        assert board_of(browser) == units_of_file(system, continue_log(setup, writer.commands[:count])), count
    moves = browser.find_elements("css selector", "polyline.move-path")
    kind = by_id(browser, "replay-step").get_attribute("data-kind")
    assert (kind == "move") == bool(moves)  # the last step's path, drawn when it is a move
    press(browser, Keys.HOME)
    assert step_shown(browser) == 0 and board_of(browser) == start
    press(browser, Keys.END)
    assert board_of(browser) == units_of_file(system, writer.log())
    off_map = by_id(browser, "replay-offmap").text  # the units there by their counters' names (issue 51)
    assert off_map and [u for u in writer.game.units if re.search(rf"(?<![\w/-]){re.escape(u)}(?![\w/-])", off_map)] == []
    press(browser, Keys.ARROW_LEFT, 3)
    assert step_shown(browser) == len(writer.commands) - 3
    assert board_of(browser) == units_of_file(system, continue_log(setup, writer.commands[:-3]))


def test_each_verdict_is_shown_where_it_happened(browser, url, app, modules, tmp_path):
    """A log that shows ruling 1, hides 2, alters 3 and forges one: N goes from ruling to ruling and
    the panel says each verdict, the hidden one with its time between the steps it falls between."""
    client = app.test_client()
    game, writer, (r1, r2, r3, r4) = kwb_turn(client, modules)
    path = tmp_path / "tampered.vlog"
    path.write_bytes(writer.log())
    log_in(browser, url, game["game_id"], game["tokens"]["communist"])
    upload(browser, url, f"/games/{game['game_id']}/replay", path)
    assert by_id(browser, "replay-verdict").get_attribute("data-ok") == "no"
    problems = by_id(browser, "replay-problems").text
    assert "hidden" in problems and "altered" in problems and "forged" in problems
    seen = []
    for _ in range(6):
        press(browser, "n")
        box = browser.find_element("css selector", "#replay-step section.ruling")
        seen.append((box.get_attribute("data-status"), box.get_attribute("data-seq"), step_shown(browser)))
    assert [(s, q) for s, q, _ in seen] == [("verified", str(r1["seq"])), ("hidden", str(r2["seq"])),
                                           ("altered", str(r3["seq"])), ("forged", "42"), ("unrecorded", ""),
                                           ("hidden", str(r4["seq"]))]
    steps = {status + seq: at for status, seq, at in seen}
    press(browser, "p", 4)  # back to the hidden one
    panel = by_id(browser, "replay-step").text
    assert step_shown(browser) == steps["hidden" + str(r2["seq"])]
    assert f"between step {steps['verified' + str(r1['seq'])]} and step {steps['altered' + str(r3['seq'])]}" in panel
    assert r2["time"] if "time" in r2 else True
    press(browser, "n")
    differs = browser.find_elements("css selector", "#replay-step .compare li.differs")
    assert differs and "roll" in differs[0].text  # the altered line, the log's beside the ledger's
    link = browser.find_element("css selector", f"#replay-problems a[data-step='{steps['forged42']}']")
    link.click()
    assert step_shown(browser) == steps["forged42"]


def test_a_chain_of_two_files_turns_and_the_goto_box(browser, url, app, modules, tmp_path):
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    client = app.test_client()
    setup = modules[("kwb", 1)][2]["setups/pusan.vsav"]
    game = new_game(client, "kwb", "pusan")
    first, _ = a_turn("kwb", setup, moves=4)
    rulings = [client.post(f"/api/v1/games/{game['game_id']}/counter_battery?transcript=1", json=COUNTER_BATTERY,
                           headers=bearer(game["tokens"]["un"])).get_json() for _ in range(2)]
    first.ruling(rulings[0]["transcript"])
    one = first.log()
    second = LogWriter("kwb", saved_at_end(one))
    second.commands.append("TURNTurnTracker0\t0|1;0;0;true;0\\;0\\;0\\;true")  # the tracker moves on a turn
    second.ruling(rulings[1]["transcript"])  # the same counter-battery, a turn later (the same turn: a re-roll)
    paths = [tmp_path / "a.vlog", tmp_path / "b.vlog"]
    paths[0].write_bytes(one)
    paths[1].write_bytes(second.log())
    log_in(browser, url, game["game_id"], game["tokens"]["communist"])
    upload(browser, url, f"/games/{game['game_id']}/replay", *paths)
    assert by_id(browser, "replay-verdict").get_attribute("data-ok") == "yes"
    turns = Select(by_id(browser, "replay-turn"))
    assert [o.text.split(" (")[0] for o in turns.options] == ["Turn 1", "Turn 2"]
    turns.select_by_index(1)
    assert "Turn 2" in by_id(browser, "replay-step").text
    box = by_id(browser, "replay-goto")
    box.clear()
    box.send_keys("3", Keys.ENTER)
    assert step_shown(browser) == 3
    press(browser, Keys.END)  # in the box, End moves the caret, not the replay
    assert step_shown(browser) == 3
    browser.execute_script("document.activeElement.blur()")
    press(browser, Keys.END)
    assert "b.vlog" in by_id(browser, "replay-step").text


def test_the_page_is_keyboard_usable_labelled_self_contained_and_scriptless_inline(browser, url, app, modules, tmp_path):
    from selenium.webdriver.common.keys import Keys

    client = app.test_client()
    game, writer, _ = kwb_turn(client, modules)
    path = tmp_path / "t.vlog"
    path.write_bytes(writer.log())
    log_in(browser, url, game["game_id"], game["tokens"]["un"])
    upload(browser, url, f"/games/{game['game_id']}/replay", path)
    assert browser.execute_script(UNLABELLED_JS) == []
    scripts = browser.execute_script(
        "return [...document.scripts].map(s => [s.src, s.type, s.src ? '' : s.textContent.length])")
    assert all(src.startswith(url) or kind == "application/json" for src, kind, _ in scripts), scripts
    handlers = browser.execute_script(
        "return [...document.querySelectorAll('*')].flatMap(e => [...e.attributes].filter(a => a.name.startsWith('on'))"
        ".map(a => e.tagName + ' ' + a.name))")
    assert handlers == []
    loaded = browser.execute_script("return performance.getEntriesByType('resource').map(r => r.name)")
    assert loaded and all(name.startswith(url) or name.startswith("data:") for name in loaded), loaded
    forward = by_id(browser, "replay-forward")
    browser.execute_script("arguments[0].focus()", forward)
    forward.send_keys(Keys.ENTER)
    assert step_shown(browser) == 1
    forward.send_keys(Keys.SPACE)
    assert step_shown(browser) == 2
    start = by_id(browser, "replay-start")
    assert start.get_attribute("aria-keyshortcuts") == "Home"
    markdown = by_id(browser, "aar-markdown").get_attribute("value")
    assert markdown.startswith("# Korean War Battles") and "receipt: record" in markdown
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 10).until(lambda d: d.current_url.endswith("#at-2"))  # written once the player pauses
    browser.refresh()  # the address keeps the step: a refresh opens where the player was
    wait_ready(browser)
    assert step_shown(browser) == 2


def test_a_log_of_no_recorded_game_as_a_side(browser, url, modules, tmp_path):
    from selenium.webdriver.support.ui import Select

    setup = modules[("holdfast", 1)][2]["setups/campaign.vsav"]
    writer, _ = a_turn("holdfast", setup, moves=3)
    path = tmp_path / "hf.vlog"
    path.write_bytes(writer.log())
    browser.get(f"{url}/systems/holdfast/replay")
    by_id(browser, "replay-files").send_keys(str(path))
    Select(by_id(browser, "replay-as")).select_by_value("un")
    by_id(browser, "replay-submit").click()
    wait_ready(browser)
    assert by_id(browser, "replay-viewer").text == writer.game.sides["un"].name
    shown = board_of(browser)
    units = writer.game.units
    assert shown and all(units[u].side == "un" for u in shown)
    hidden = browser.execute_script(
        "return [...document.querySelectorAll('g.rstack')].reduce((n, g) => n + Number(g.dataset.hidden), 0)")
    assert hidden == sum(1 for u, (h, _) in units_of_file("holdfast", setup).items() if units[u].side != "un")


def test_the_replay_and_the_dice_record_fit_a_phone(browser, url, app, modules, tmp_path):
    client = app.test_client()
    game, writer, _ = kwb_turn(client, modules)
    path = tmp_path / "t.vlog"
    path.write_bytes(writer.log())
    log_in(browser, url, game["game_id"], game["tokens"]["un"])
    upload(browser, url, f"/games/{game['game_id']}/replay", path)
    replay = browser.current_url.split("#")[0]
    browser.set_window_size(375, 800)
    try:
        for page in (replay, f"{url}/games/{game['game_id']}/dice"):
            browser.get(page)
            overflow = browser.execute_script(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 1, f"{page} scrolls sideways by {overflow}px at 375px"
    finally:
        browser.set_window_size(1280, 1000)


def test_a_long_log_is_stepped_across_its_pieces(browser, url, app, modules, tmp_path):
    """1,200 moves: three pieces of steps, fetched as the player reaches them. At every place a
    piece begins or ends, forward and back, at a jump into another piece, at the end and the start,
    the board is the one the file gives there."""
    from selenium.webdriver.common.keys import Keys

    from adjudicator.logs.replay.build import PIECE_STEPS

    setup = modules[("kwb", 1)][2]["setups/pusan.vsav"]
    writer, _ = a_turn("kwb", setup, moves=1200)
    path = tmp_path / "long.vlog"
    path.write_bytes(writer.log())
    client = app.test_client()
    game = new_game(client, "kwb", "pusan")
    log_in(browser, url, game["game_id"], game["tokens"]["un"])
    upload(browser, url, f"/games/{game['game_id']}/replay", path)

    def board_at(step: int) -> dict:
        return units_of_file("kwb", continue_log(setup, writer.commands[:step]))

    def go(step: int) -> None:
        box = by_id(browser, "replay-goto")
        box.clear()
        box.send_keys(str(step), Keys.ENTER)
        browser.execute_script("document.activeElement.blur()")
        shown_at(step)

    def shown_at(step: int) -> None:  # a step in a piece not fetched yet is drawn once it has come
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(browser, 20).until(lambda d: step_shown(d) == step)

    fetched = lambda: browser.execute_script(  # noqa: E731
        "return performance.getEntriesByType('resource').filter(r => r.name.includes('/steps/')).length")
    assert fetched() <= 2  # the first piece, and the next one ahead
    press(browser, Keys.END)
    last = len(writer.commands)
    shown_at(last)
    assert board_of(browser) == board_at(last)
    for step in (PIECE_STEPS - 1, PIECE_STEPS, 2 * PIECE_STEPS + 7):
        go(step)
        assert step_shown(browser) == step and board_of(browser) == board_at(step), step
    go(PIECE_STEPS)
    press(browser, Keys.ARROW_LEFT)  # back into the piece before
    shown_at(PIECE_STEPS - 1)
    assert board_of(browser) == board_at(PIECE_STEPS - 1)
    press(browser, Keys.ARROW_RIGHT, 2)  # and forward across again
    shown_at(PIECE_STEPS + 1)
    assert board_of(browser) == board_at(PIECE_STEPS + 1)
    assert browser.find_elements("css selector", f"#replay-steplist li#step-{PIECE_STEPS + 1}")  # its piece's steps listed
    press(browser, Keys.HOME)
    shown_at(0)
    assert board_of(browser) == units_of_file("kwb", setup)
