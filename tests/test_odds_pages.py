"""The "Chances" button on the pages, in-process: every check page with dice has it beside "Resolve",
and the saved-game check page (a calculation, and a recorded game: bound as its rolls, nothing
recorded) shows a bar per outcome. The same in a real browser: tests/test_pages_browser.py."""

from __future__ import annotations

from fractions import Fraction

import pytest
from lxml import html
from werkzeug.datastructures import MultiDict

from adjudicator.checks import checks_for
from adjudicator.rulings import chances_withheld
from adjudicator.testing import bearer, first_scenario, make_app
from tests.engine.play import adjacent_combat
from test_savedgame_checks import hex_of, kept_upload, log_in, new_recorded_game, setup_file


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("odds-pages")).test_client()


def page_form(page: str, form_id: str) -> MultiDict:
    return MultiDict(list(html.fromstring(page).get_element_by_id(form_id).form_values()))


def bars(page: str, key: str) -> dict[str, str]:
    """Outcome label -> its fraction, as the chances table shows them."""
    table = html.fromstring(page).get_element_by_id(f"chances-table-{key}")
    return {row.find("th").text.strip(): row.find_class("fraction")[0].text_content().strip()
            for row in table.find_class("chance")}


@pytest.mark.slow
@pytest.mark.parametrize("system", ["kwb", "spi", "holdfast", "fireandice"])
def test_every_check_with_dice_has_a_chances_button_beside_resolve(client, system):
    page = html.fromstring(client.get(f"/systems/{system}").get_data(as_text=True))
    for spec in checks_for(system):
        buttons = page.get_element_by_id(f"check-{spec.name}").findall(".//button[@type='submit']")
        names = [b.text_content().strip() for b in buttons]
        assert names == (["Resolve", "Chances"] if spec.random else ["Resolve"]), spec.key
        if spec.random:
            assert buttons[1].get("formaction").startswith(f"/systems/{system}/{spec.name}/odds")


@pytest.mark.slow
@pytest.mark.parametrize("system", ["kwb", "spi", "holdfast", "fireandice"])
def test_chances_of_every_example_form_as_it_opens(client, system):
    """The form as it opens (the check's example), its Chances button pressed: a bar per outcome."""
    for spec in (s for s in checks_for(system) if s.random):
        opened = client.get(f"/systems/{system}/{spec.name}").get_data(as_text=True)
        form = page_form(opened, f"check-{spec.name}")
        response = client.post(f"/systems/{system}/{spec.name}/odds", data=form)
        assert response.status_code == 200, (spec.key, response.get_data(as_text=True)[-3000:])
        page = html.fromstring(response.get_data(as_text=True))
        odds = page.get_element_by_id(f"odds-{spec.name}")
        assert odds.find_class("chance"), spec.key
        assert page.get_element_by_id(f"odds-summary-{spec.name}").text_content()


def test_the_dice_box_is_not_read_and_the_fractions_sum_to_one(client):
    response = client.post("/systems/kwb/un_supply_shortage_end/odds", data={"game_turn": "3", "dice": "not dice"})
    assert response.status_code == 200
    shown = bars(response.get_data(as_text=True), "un_supply_shortage_end")
    assert shown == {"the shortage continues": "2/3", "the shortage ends": "1/3"}
    assert sum(Fraction(f) for f in shown.values()) == 1


def test_a_situation_the_rules_refuse_is_shown_as_problems(client):
    response = client.post("/systems/kwb/un_supply_shortage_end/odds", data={"game_turn": "0"})
    assert response.status_code == 422
    assert 'id="errors-un_supply_shortage_end"' in response.get_data(as_text=True)
    assert client.post("/systems/kwb/supply/odds", data={}).status_code == 404


def test_the_saved_game_page_shows_the_chances_beside_the_request_built(client, modules):
    combat = adjacent_combat("kwb")
    sha = kept_upload(client, "/systems/kwb/savedgame", setup_file(modules, "kwb", combat.scenario.id))
    opened = client.get(f"/systems/kwb/savedgame/{sha}/checks/combat").get_data(as_text=True)
    chances = html.fromstring(opened).get_element_by_id("chances")
    assert chances.text_content().strip() == "Chances"
    form = page_form(opened, "savedgame-check")
    form.setlist("_attackers", combat.attackers[:1])
    form["_target_hex"] = hex_of(combat.game, combat.scenario, combat.defender)
    response = client.post(chances.get("formaction").split("#")[0], data=form)
    assert response.status_code == 200, response.get_data(as_text=True)[-2000:]
    page = response.get_data(as_text=True)
    shown = bars(page, "combat")
    assert sum(Fraction(f) for f in shown.values()) == 1 and len(shown) > 1
    built = html.fromstring(page).get_element_by_id("savedgame-request").text_content()
    assert combat.defender in built and '"dice"' not in built


def test_a_recorded_games_saved_game_chances_record_nothing(client, modules):
    combat = adjacent_combat("kwb")
    game = new_recorded_game(client, "kwb", combat.scenario.id)
    side = combat.game.units[combat.attackers[0]].side
    log_in(client, game, side)
    data = setup_file(modules, "kwb", combat.scenario.id)
    sha = kept_upload(client, f"/games/{game['game_id']}/savedgame", data, name="pusan.vsav")
    opened = client.get(f"/games/{game['game_id']}/savedgame/{sha}/checks/combat").get_data(as_text=True)
    form = page_form(opened, "savedgame-check")
    form.setlist("_attackers", combat.attackers)
    form["_target_hex"] = hex_of(combat.game, combat.scenario, combat.defender)
    response = client.post(f"/games/{game['game_id']}/savedgame/{sha}/checks/combat/odds", data=form,
                           follow_redirects=True)  # to the chances' own address (post/redirect/get)
    assert response.status_code == 200, response.get_data(as_text=True)[-2000:]
    page = response.get_data(as_text=True)
    assert sum(Fraction(f) for f in bars(page, "combat").values()) == 1
    assert "Nothing was recorded" in page
    ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(game["tokens"][side])).get_json()
    assert [r["seq"] for r in ledger["records"]] == [0]


def test_a_recorded_games_chances_do_not_peek_behind_the_fog(client, modules):
    """HoldFast: the defending block is hidden from the attacker until the combat reveals both, so
    its chances (which would give its strength away) are refused before the roll."""
    combat = adjacent_combat("holdfast")
    game = new_recorded_game(client, "holdfast", combat.scenario.id)
    side = combat.game.units[combat.attackers[0]].side
    log_in(client, game, side)
    data = setup_file(modules, "holdfast", combat.scenario.id)
    sha = kept_upload(client, f"/games/{game['game_id']}/savedgame", data, name="campaign.vsav")
    opened = client.get(f"/games/{game['game_id']}/savedgame/{sha}/checks/combat").get_data(as_text=True)
    assert 'id="chances"' not in opened  # no button that could only be refused; why, beside Roll
    assert 'id="chances-withheld"' in opened and "hidden from you until the roll reveals it" in opened
    form = page_form(opened, "savedgame-check")
    form.setlist("_attackers", combat.attackers)
    form["_target_hex"] = hex_of(combat.game, combat.scenario, combat.defender)
    response = client.post(f"/games/{game['game_id']}/savedgame/{sha}/checks/combat/odds", data=form,
                           follow_redirects=True)  # asked anyway (an old link): refused, beside the buttons
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and 'data-kind="fog-of-war"' in page
    assert page.index('data-kind="fog-of-war"') < page.index("</form>")
    roll_form = client.get(f"/games/{game['game_id']}/checks/combat").get_data(as_text=True)
    assert 'id="chances"' not in roll_form and 'id="chances-withheld"' in roll_form


WITHHELD = [(system, spec.name) for system in ("kwb", "spi", "holdfast", "fireandice") for spec in checks_for(system)
            if chances_withheld(spec)]


@pytest.mark.parametrize("system, check", WITHHELD)
def test_a_check_whose_pages_withhold_its_chances_is_refused_them_by_the_server(client, system, check):
    """The pages offer no Chances where the fog of war always hides a unit the check names from the
    side that asks (`rulings.chances_withheld`): the server itself refuses the example's chances to
    every side, as it would the button's. (HoldFast's naval assault may name no defender, an empty
    port: its page offers them, and the server judges the port picked.)"""
    assert WITHHELD == [("holdfast", "combat")]
    from adjudicator.checks import get_check
    from adjudicator.examples import situation

    spec = get_check(system, check)
    body = {k: v for k, v in situation(spec).items() if k != "dice"}
    scenario = body.get("scenario") or first_scenario(client, system)
    game = client.post("/api/v1/games", json={"system": system, "scenario": scenario}).get_json()
    kinds = set()
    for side in (s for s in game["tokens"] if s != "observer"):
        answer = client.post(f"/api/v1/games/{game['game_id']}/{check}/odds", json=body,
                             headers=bearer(game["tokens"][side]))
        kinds.add((answer.status_code, answer.get_json().get("type", "").rsplit(":", 1)[-1]))
    assert (422, "fog-of-war") in kinds and all(status != 200 for status, _ in kinds), kinds
