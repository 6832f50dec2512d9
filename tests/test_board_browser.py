"""The board in a real browser, for each game (issue 41): the module's own map and counters, where VASSAL
puts them, on the saved-game pages and the replay.

For each game, from the module's setup: every unit of the file is drawn from its counter's picture (the
bytes ``art`` draws for the module) at its hex's centre as ``scenarios.hexgrid`` computes it, at the
page's zoom and at another; a hidden unit as its back only (HoldFast's enemy blocks), named nowhere on
the board; a click on a counter of a spread stack, a click on a stack and the keyboard pick into the
form's fields; the hex under the pointer is named and hex numbers are drawn over the hexes in view. The
replay draws each step's pieces the same way, lists what lies off the maps once per look with its count,
and its Turn list follows the step.

Screenshots of every kind of page go to ``.artifacts/screenshots/`` (git ignores it; ``BOARD_SCREENSHOTS``
names another folder) for a person to look at. Headless Chromium as in tests/test_pages_browser.py.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
import requests

from adjudicator.bridge import load_system_game, read_positions, read_upload
from adjudicator.testing import new_game
from art.render import block_back_image_name, counter_jobs, draw_and_encode, safe_part, unit_image_name
from replay_logs import LogWriter
from test_pages_browser import app, browser, by_id, url, wait_for  # noqa: F401 (fixtures)
from test_savedgame_browser import in_sight, log_in, open_check_page, setup_path
from tests.engine.play import adjacent_combat

pytestmark = pytest.mark.browser

GAMES = ["kwb", "spi", "holdfast", "fireandice"]
#: How far a counter's centre may be from where the module puts it, in screen pixels (rounding).
TOLERANCE = 1.5

#: Every piece drawn on the boards: its stack's map and hex, its place in the stack, what it shows,
#: and its picture's centre on the screen with the board's own top-left corner and zoom.
PIECES_JS = """
const out = [];
for (const root of document.querySelectorAll('figure.board')) {
  const box = root.querySelector('svg.board-svg').getBoundingClientRect();
  for (const stack of root.querySelectorAll('g.board-pieces > g.stack')) {
    [...stack.querySelectorAll(':scope > g.piece')].forEach((piece, index) => {
      const picture = piece.querySelector('.counter');
      const r = picture.getBoundingClientRect();
      out.push({map: root.dataset.map, hex: stack.dataset.hex, index: index, unit: piece.dataset.unit || '',
                hidden: piece.classList.contains('hidden-piece'), href: picture.getAttribute('href') || '',
                x: r.left + r.width / 2, y: r.top + r.height / 2, width: r.width,
                left: box.left, top: box.top, zoom: Number(root.dataset.zoom)});
    });
  }
}
return out;
"""


@pytest.fixture(scope="module")
def shots() -> Path:
    folder = Path(os.environ.get("BOARD_SCREENSHOTS") or Path(__file__).parents[1] / ".artifacts" / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def screenshot(driver, shots: Path, name: str) -> None:
    """The whole page, not only the window's part of it: the window made as tall as the page for the
    picture. (Chromium's own whole-page capture upsets the page's elements for the next click.)"""
    from selenium.webdriver.support.ui import WebDriverWait

    size = driver.get_window_size()
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(size["width"], min(max(height + 140, size["height"]), 5000))
    try:
        driver.save_screenshot(str(shots / f"{name}.png"))
    finally:
        driver.set_window_size(size["width"], size["height"])
        # Until the page has its window back: a click meanwhile may land on a layout being redone.
        WebDriverWait(driver, 10).until(lambda d: d.execute_script(
            "return new Promise(done => requestAnimationFrame(() => done([window.innerWidth, window.innerHeight])))") == inner)


def pieces_drawn(driver) -> list[dict]:
    return driver.execute_script(PIECES_JS)


def assert_where_the_module_puts_them(game, pieces: list[dict]) -> None:
    """Each piece's picture centred on its hex's centre (scenarios.hexgrid, the board's grid), the
    ones above the bottom 4 board pixels right and up each (the module's stacking), at the zoom shown."""
    assert pieces
    for piece in pieces:
        grid = game.maps[piece["map"]].board_grid(1)
        cx, cy = grid.center(grid.parse(piece["hex"]))
        zoom = piece["zoom"]
        expected = (piece["left"] + (cx + 4 * piece["index"]) * zoom, piece["top"] + (cy - 4 * piece["index"]) * zoom)
        assert abs(piece["x"] - expected[0]) <= TOLERANCE and abs(piece["y"] - expected[1]) <= TOLERANCE, (piece, expected)
        assert abs(piece["width"] - 75 * zoom) <= TOLERANCE  # a counter of the module's size (75 px at 100%)


def the_module_picture(game, name: str) -> bytes:
    """The PNG ``art`` draws under `name` for the module (scale 1)."""
    job = next(j for j in counter_jobs(game) if name in j.names)
    return draw_and_encode(job)[job.names.index(name)]


def zoom_in(driver) -> None:
    from selenium.webdriver.common.by import By

    before = driver.find_element(By.CSS_SELECTOR, "figure.board").get_attribute("data-zoom")
    driver.find_element(By.CSS_SELECTOR, "figure.board .board-zoom-in").click()
    assert driver.find_element(By.CSS_SELECTOR, "figure.board").get_attribute("data-zoom") != before


def hover(driver, element) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).move_to_element(element).perform()


@pytest.mark.parametrize("system", GAMES)
def test_the_check_page_draws_each_unit_as_its_counter_on_its_hex_and_picks_by_click(
        browser, url, modules, tmp_path, shots, system):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    combat = adjacent_combat(system)
    path = setup_path(modules, tmp_path, system, combat.scenario.id)
    game = load_system_game(system)
    placed = {u.unit.id: u for u in read_positions(game, read_upload(path.read_bytes())).on_map()}
    open_check_page(browser, url, system, path)
    # HoldFast hides every block from a calculation's unnamed viewer: seen as the attacking side, his own
    # blocks show their labels and the enemy's their backs.
    browser.get(browser.current_url + f"?as={combat.side or combat.scenario.first_player}")
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return document.documentElement.dataset.boardsReady"))
    screenshot(browser, shots, f"{system}-check")

    pieces = pieces_drawn(browser)
    assert_where_the_module_puts_them(game, pieces)
    shown = {p["unit"]: p for p in pieces if p["unit"]}
    hidden = [p for p in pieces if p["hidden"]]
    viewer = combat.side or combat.scenario.first_player
    for unit_id, unit in placed.items():
        if system == "holdfast" and unit.unit.side != viewer:
            assert unit_id not in shown  # an enemy block: its back, never its label
            continue
        piece = shown[unit_id]
        assert (piece["map"], piece["hex"]) == (unit.location.map, unit.location.hex), unit_id
        step = unit.step or unit.unit.steps[0].name
        assert piece["href"].endswith("/" + unit_image_name(game, unit.unit, step)), (unit_id, piece["href"])
    assert len(shown) + len(hidden) == len(pieces)
    if system == "holdfast":
        enemy = [u for u in placed.values() if u.unit.side != viewer]
        assert len(hidden) == len(enemy) > 0
        assert all(p["href"].endswith("/" + block_back_image_name(game, next(u for u in enemy).unit.side))
                   for p in hidden)
        board_text = browser.execute_script(
            "return [...document.querySelectorAll('figure.board')].map(f => f.outerHTML).join('')")
        assert not [u.unit.id for u in enemy if u.unit.id in board_text]  # not in the board, its data or alt texts
    else:
        assert not hidden

    # The picture is the module's own, from an address a browser may keep for good.
    one = next(iter(shown.values()))
    answer = requests.get(url + one["href"], timeout=30)
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert answer.content == the_module_picture(game, one["href"].rsplit("/", 1)[1])

    zoom_in(browser)
    assert_where_the_module_puts_them(game, pieces_drawn(browser))

    # A click on a counter of the spread stack picks that unit; on the stack, all of its own.
    attacker = combat.attackers[0]
    stack = in_sight(browser, browser.find_element(By.ID, f"stack-{placed[attacker].location.map}-"
                                                          f"{placed[attacker].location.hex}"))
    hover(browser, stack.find_element(By.CSS_SELECTOR, "g.piece:last-of-type"))
    spread = browser.find_element(By.CSS_SELECTOR, f"g.spread-piece[data-unit='{attacker}']")
    if browser.find_elements(By.ID, f"attacker-{attacker}"):
        box = by_id(browser, f"attacker-{attacker}")
        assert not box.is_selected()
        spread.click()
        assert box.is_selected()
        spread.click()
        assert not box.is_selected()
        stack.click()
        own = stack.get_attribute("data-units").split()
        assert attacker in own and all(by_id(browser, f"attacker-{u}").is_selected() for u in own)
        assert "attacker" in browser.find_element(
            By.CSS_SELECTOR, f"g.stack g.piece[data-unit='{attacker}']").get_attribute("class")
    else:  # a check that takes a hex only (Fire and Ice's combat): a counter picks its hex
        spread.click()
        assert by_id(browser, "target-hex").get_attribute("value") == placed[attacker].location.hex
    screenshot(browser, shots, f"{system}-check-picked")

    # The hex attacked: a click on the defender's stack, or Enter on it from the keyboard.
    browser.find_element(By.CSS_SELECTOR, "input[name=_mode][value=target]").click()
    defender_hex = next(p for p in combat.scenario.setup if p.unit == combat.defender).location.partition("@")[0]
    target = in_sight(browser, next(g for g in browser.find_elements(By.CSS_SELECTOR, "g.stack")
                                    if g.get_attribute("data-hex") == defender_hex))
    target.click()
    assert by_id(browser, "target-hex").get_attribute("value") == defender_hex
    assert browser.find_elements(By.CSS_SELECTOR, f"polygon.hex-mark.target[data-hex='{defender_hex}']")
    by_id(browser, "target-hex").clear()
    browser.execute_script("arguments[0].focus()", target)
    target.send_keys(Keys.ENTER)
    assert by_id(browser, "target-hex").get_attribute("value") == defender_hex
    assert browser.execute_script("return document.activeElement.closest('g.stack') !== null")

    # Hex numbers: the one under the pointer in the toolbar; over every hex in view once the map is
    # zoomed out so far that its own print of them reads small (at 100% the drawn map's print is there).
    grid = game.maps[placed[attacker].location.map].board_grid(1)
    labels_js = ("return [...document.querySelectorAll('.board-labels text')].map(t => [t.textContent,"
                 " Number(t.getAttribute('x')), Number(t.getAttribute('y'))])")
    browser.find_element(By.CSS_SELECTOR, "figure.board .board-zoom-actual").click()
    assert browser.execute_script(labels_js) == []
    browser.find_element(By.CSS_SELECTOR, "figure.board .board-zoom-out").click()
    labels = browser.execute_script(labels_js)
    assert len(labels) > 10
    for label, x, y in labels:
        cx, cy = grid.center(grid.parse(label))
        assert x == cx and cy - grid.dy / 2 <= y <= cy, label  # at the top of its own hex
    screenshot(browser, shots, f"{system}-check-zoomed-out")
    stack = in_sight(browser, stack)
    stack_hex = stack.get_attribute("data-hex")
    hover(browser, stack)
    readout = browser.find_element(By.CSS_SELECTOR, ".board-readout").text
    assert readout.startswith(f"Hex {stack_hex}")
    assert browser.find_element(By.CSS_SELECTOR, ".board-top .hover-label").text == stack_hex


@pytest.mark.parametrize("system", GAMES)
def test_the_report_draws_the_file_and_rings_what_is_out_of_supply(browser, url, modules, tmp_path, shots, system):
    """The saved game's report: every unit where the module puts it, each unit the supply report
    finds out of supply ringed in red on the board."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    scenario = next(iter(load_system_game(system).scenarios))
    browser.get(f"{url}/systems/{system}/savedgame")
    by_id(browser, "savedgame-file").send_keys(str(setup_path(modules, tmp_path, system, scenario)))
    Select(by_id(browser, "savedgame-check")).select_by_value("")
    by_id(browser, "savedgame-submit").click()
    wait_for(browser, "positions")
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return document.documentElement.dataset.boardsReady"))
    assert_where_the_module_puts_them(load_system_game(system), pieces_drawn(browser))
    out = []
    for section in browser.find_elements(By.CSS_SELECTOR, "section.supply"):
        prefix = section.get_attribute("id") + "-"
        out += [row.get_attribute("id").removeprefix(prefix)
                for row in section.find_elements(By.CSS_SELECTOR, "tr[data-in-supply=false][id]")]
    ringed = [ring.get_attribute("id").removeprefix("oos-")
              for ring in browser.find_elements(By.CSS_SELECTOR, "rect.ring[id^=oos-]")]
    assert sorted(ringed) == sorted(out)
    for ring in browser.find_elements(By.CSS_SELECTOR, "rect.ring[id^=oos-]"):
        assert ring.value_of_css_property("visibility") == "visible"
    screenshot(browser, shots, f"{system}-report")


def test_a_scratch_unit_shows_its_placeholder_and_nothing_else(browser, url, tmp_path, shots):
    """KWB 12.21: nobody may know which Scratch Unit a '? 4' counter is; the board shows the
    placeholder the file holds as itself, the one counter every placeholder shares the look of."""
    from test_bridge_helpers import kwb, savedgame_bytes, setup_units

    from scenarios.pools import placeholders

    game = kwb()
    placeholder = placeholders(game, game.boxes["scratch-units"])[0]
    units = setup_units(game, "seoul", 4)
    _, map_id, hex_, _ = units[0]
    grid = game.maps[map_id].grid
    free = next(grid.label(h) for h in grid.neighbours(grid.parse(hex_)) if grid.label(h) not in {u[2] for u in units})
    path = tmp_path / "scratch.vsav"
    path.write_bytes(savedgame_bytes(game, units + [(placeholder, map_id, free, 0)]))
    open_check_page(browser, url, "kwb", path)
    pieces = {p["unit"]: p for p in pieces_drawn(browser)}
    assert pieces[placeholder]["hex"] == free
    assert pieces[placeholder]["href"].endswith("/" + unit_image_name(game, game.units[placeholder],
                                                                      game.units[placeholder].steps[0].name))
    assert pieces[placeholder]["index"] == 0 and not pieces[placeholder]["hidden"]
    screenshot(browser, shots, "kwb-scratch-placeholder")


@pytest.mark.parametrize("system", GAMES)
def test_the_replay_draws_each_step_as_counters_groups_the_boxes_and_follows_the_turn(
        browser, url, app, modules, tmp_path, shots, system):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait

    client = app.test_client()
    scenario = next(iter(load_system_game(system).scenarios))
    setup = modules[(system, 1)][2][f"setups/{scenario}.vsav"]
    game = new_game(client, system, scenario)
    writer = LogWriter(system, setup)
    rng = random.Random(f"board-{system}")
    on_map = [u for u in writer.pieces if writer.hex_of(u)]
    for n in range(6):
        unit = rng.choice(on_map)
        grid = writer.game.maps[writer.map_of(unit)].grid
        writer.move(unit, grid.label(rng.choice(grid.neighbours(grid.parse(writer.hex_of(unit))))))
        if n == 2:  # the tracker of the game's first scenario moves on to its second turn
            writer.commands.append("TURNTurnTracker0\t0|1;0;0;true;0\\;0\\;0\\;true")
    log = tmp_path / "turn.vlog"
    log.write_bytes(writer.log())
    log_in(browser, url, game["game_id"], game["tokens"]["observer"])
    browser.get(f"{url}/games/{game['game_id']}/replay")
    by_id(browser, "replay-files").send_keys(str(log))
    by_id(browser, "replay-submit").click()
    wait_for(browser, "replay-data")
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return document.body.dataset.replayReady") == "yes")

    game_data = load_system_game(system)
    for _ in range(4):
        ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    WebDriverWait(browser, 20).until(lambda d: by_id(d, "replay-step").get_attribute("data-step") == "4")
    pieces = pieces_drawn(browser)
    assert_where_the_module_puts_them(game_data, pieces)
    for piece in pieces:  # a unit the observer sees shows its counter; a hidden one its back only
        if piece["unit"]:
            assert piece["href"].rsplit("/", 1)[1].startswith(f"{safe_part(system)}_{safe_part(piece['unit'])}_"), piece
        else:
            assert piece["hidden"] or "_marker_" in piece["href"], piece
    turns = browser.find_elements("id", "replay-turn")
    if turns:  # the turn in force at the step shown
        chosen = Select(turns[0]).first_selected_option
        assert int(chosen.get_attribute("value")) <= 4
    screenshot(browser, shots, f"{system}-replay")

    # Off the maps: one line per place, each look once with its count.
    places = browser.execute_script(
        "return [...document.querySelectorAll('#replay-offmap li')].map(li => [li.dataset.count,"
        " [...li.querySelectorAll('.off-look')].map(s => s.textContent)])")
    for count, looks in places:
        assert len(looks) == len(set(looks))
        assert sum(int(text.rsplit("×", 1)[1]) if "×" in text else 1 for text in looks) == int(count)
