"""The pages' unit lists (issue 51): a recorded game's form offers each unit field the units that can
apply as its side fills it in (attackers its own, defenders the enemy's, the unit of a check only its
owner asks its own); the system page (no side) offers every unit, each labelled with its side."""

from __future__ import annotations

import re

import pytest

from adjudicator.checks import get_check
from adjudicator.testing import make_app, new_game
from adjudicator.words.unit_lists import ENEMY, OWN, field_sides
from scenarios import load_game


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("unit-lists")).test_client()


def datalists(page: str) -> dict[str, list[tuple[str, str]]]:
    """datalist id -> its options (value, text)."""
    return {m.group(1): re.findall(r'<option value="([^"]*)">([^<]*)</option>', m.group(2))
            for m in re.finditer(r'<datalist id="([^"]+)">(.*?)</datalist>', page, re.S)}


def field_list(page: str, name: str) -> str:
    """The datalist id the unit input named `name` offers."""
    return re.search(rf'<input name="{re.escape(name)}"[^>]*?list="([^"]+)"', page, re.S).group(1)


def form_as(client, game: dict, side: str, check: str) -> str:
    client.post(f"/games/{game['game_id']}", data={"token": game["tokens"][side]})
    response = client.get(f"/games/{game['game_id']}/checks/{check}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def sides_of(system: str, ids: list[str]) -> set[str]:
    units = load_game(system).units
    return {units[u].side for u in ids}


@pytest.mark.slow
@pytest.mark.parametrize("side, enemy", [("communist", "un"), ("un", "communist")])
def test_fire_and_ice_combat_offers_the_askers_units_to_attack_with_and_the_enemys_to_attack(client, side, enemy):
    game = new_game(client, "fireandice")
    page = form_as(client, game, side, "combat")
    lists = datalists(page)
    attackers = [value for value, _ in lists[field_list(page, "attackers.__i__.unit")]]
    defenders = [value for value, _ in lists[field_list(page, "defenders.__i__.unit")]]
    units = load_game("fireandice").units
    assert sides_of("fireandice", attackers) == {side}
    assert sorted(attackers) == sorted(u for u in units if units[u].side == side)
    assert sides_of("fireandice", defenders) == {enemy}
    assert sorted(defenders) == sorted(u for u in units if units[u].side == enemy)
    # a field whose units may be either side's keeps the whole list
    assert field_list(page, "attacking.air_used.__i__.unit") == "units-fireandice"
    assert len(lists["units-fireandice"]) == len(units)


@pytest.mark.slow
def test_a_check_only_a_units_owner_asks_offers_his_own_units(client):
    game = new_game(client, "fireandice")
    page = form_as(client, game, "un", "rebuild")
    offered = [value for value, _ in datalists(page)[field_list(page, "unit")]]
    assert offered and sides_of("fireandice", offered) == {"un"}


def test_whose_units_each_field_holds_follows_the_checks_roles_and_actor():
    assert field_sides(get_check("fireandice", "combat")) == {"attackers": OWN, "defenders": ENEMY}
    assert field_sides(get_check("holdfast", "combat")) == {"attackers": OWN, "defender": ENEMY}
    assert field_sides(get_check("fireandice", "air_attack")) == {"attacker": OWN, "target": ENEMY}
    assert field_sides(get_check("spi", "combat_losses")) == {"unit": OWN}
    # either side may ask for a combat's support: its attackers may be the asker's or not
    assert field_sides(get_check("fireandice", "combat_support")) == {}
    # the Communist moves the supply center, but the check is no unit owner's: the whole list
    assert field_sides(get_check("kwb", "supply_center_move")) == {}


@pytest.mark.slow
def test_the_system_page_offers_every_unit_with_its_side(client):
    page = client.get("/systems/fireandice").get_data(as_text=True)
    lists = datalists(page)
    assert [name for name in lists if name.startswith("units-")] == ["units-fireandice"]
    options = lists["units-fireandice"]
    assert len(options) == len(load_game("fireandice").units)
    units = load_game("fireandice").units
    for value, text in options:
        assert text.startswith("UN: " if units[value].side == "un" else "Communist: "), text
    # one side's units, then the other's
    sides = [units[value].side for value, _ in options]
    assert sides == sorted(sides, key=sides.index)
    assert set(re.findall(r'list="(units-[^"]+)"', page)) == {"units-fireandice"}


def test_no_side_asking_offers_the_whole_list():
    from adjudicator.words.forms import unit_choices
    from adjudicator.words.unit_lists import UnitLists, unit_lists

    spec, units = get_check("fireandice", "combat"), unit_choices("fireandice")
    assert unit_lists(spec, "fireandice", units, None) == UnitLists()
    assert unit_lists(spec, "fireandice", units, "observer") == UnitLists()
    assert set(unit_lists(spec, "fireandice", units, "un").fields) == {"attackers", "defenders"}
