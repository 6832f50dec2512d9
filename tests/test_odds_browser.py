"""The "Chances" button in a real browser (headless Chromium, the fixtures of tests/test_pages_browser.py):
a player opens a check, presses Chances, reads a bar per outcome with its exact chance, then resolves
the same situation with the dice rolled; on a saved game's check page, after pointing at the units.

Skipped, with the reason, when Chromium, chromedriver or selenium is missing.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from tests.engine.play import adjacent_combat
from test_pages_browser import app, browser, by_id, open_check, outcome, url, wait_for  # noqa: F401 (fixtures)
from test_savedgame_browser import open_check_page, setup_path, stack_of

pytestmark = pytest.mark.browser


def chances_shown(driver, key: str) -> dict[str, tuple[str, float]]:
    """Outcome label -> (its fraction, its bar's width in % of the track), as the page draws them."""
    from selenium.webdriver.common.by import By

    rows = by_id(driver, f"chances-table-{key}").find_elements(By.CSS_SELECTOR, "tr.chance")
    shown = {}
    for row in rows:
        label = row.find_element(By.TAG_NAME, "th").text.split(" (die ")[0]
        bar = row.find_element(By.CSS_SELECTOR, "rect.value")
        track = row.find_element(By.CSS_SELECTOR, "rect.track")
        width = 100 * bar.rect["width"] / track.rect["width"]
        shown[label] = (row.find_element(By.CSS_SELECTOR, "td.fraction").text, width)
    return shown


def test_chances_then_resolve_a_kwb_combat(browser, url):
    open_check(browser, url, "kwb", "combat")
    by_id(browser, "chances-combat").click()
    odds = wait_for(browser, "odds-combat")
    assert odds.get_attribute("data-exact") == "yes"
    shown = chances_shown(browser, "combat")
    assert set(shown) == {"NE", "EX", "DR", "DD", "DDR"}
    assert shown["DD"][0] == "1/3" and abs(shown["DD"][1] - 100 / 3) < 1  # the bar is a third of the track
    assert sum(Fraction(f) for f, _ in shown.values()) == 1
    assert "3:1" in by_id(browser, "odds-summary-combat").text
    assert by_id(browser, "losses-combat").text  # expected losses per side

    # the form kept the situation: now resolve it with the dice rolled (the example's)
    by_id(browser, "resolve-combat").click()
    wait_for(browser, "outcome-combat")
    assert outcome(browser, "combat")["result"] in shown


def test_chances_on_a_saved_games_check_page(browser, url, modules, tmp_path):
    combat = adjacent_combat("kwb")
    open_check_page(browser, url, "kwb", setup_path(modules, tmp_path, "kwb", combat.scenario.id))
    box = by_id(browser, f"attacker-{combat.attackers[0]}")
    if not box.is_selected():
        stack_of(browser, combat.attackers[0]).click()
    from selenium.webdriver.common.by import By
    for other in browser.find_elements(By.CSS_SELECTOR, "input[name=_attackers]:checked"):
        if other.get_attribute("value") != combat.attackers[0]:
            other.click()
    browser.find_element(By.CSS_SELECTOR, "input[name=_mode][value=target]").click()
    stack_of(browser, combat.defender).click()
    by_id(browser, "chances").click()
    wait_for(browser, "odds-combat")
    shown = chances_shown(browser, "combat")
    assert len(shown) > 1 and sum(Fraction(f) for f, _ in shown.values()) == 1
    assert abs(sum(width for _, width in shown.values()) - 100) < 1
    assert combat.defender in by_id(browser, "savedgame-request").get_attribute("textContent")
