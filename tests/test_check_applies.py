"""When a check applies, as the catalog declares it with each check (GET /api/v1/systems,
`applies`): the scenarios it belongs to, the sides that may ask it, the units a check of one unit
takes. The VASSAL extension's menus offer checks by it alone (it holds no rules), so the
declarations must name the games' own words and agree with what the checks themselves refuse.
Also the chances of a calculation, which refuse a peek at what the fog of war hides from the side
asking, and a refusal placed beside its field with the values it allows."""

from __future__ import annotations

import json

import pytest

from adjudicator.checks import all_checks, get_check
from adjudicator.testing import make_app
from scenarios import load_game


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("applies")).test_client()


@pytest.fixture(scope="module")
def checks(client) -> dict[str, dict]:
    systems = client.get("/api/v1/systems").get_json()["systems"]
    return {f"{s['id']}.{c['name']}": c for s in systems for c in s["checks"]}


def test_the_catalog_says_who_may_ask_where_and_on_which_units(checks):
    assert checks["holdfast.naval_assault"]["applies"]["sides"] == ["un"]  # not offered to the Communist player
    assert checks["kwb.un_supply_shortage_end"]["applies"]["sides"] == ["un"]
    assert checks["kwb.combat"]["applies"]["sides"] is None  # the request names the attacking side
    assert checks["spi.chinese_intervention"]["applies"]["scenarios"] == ["campaign"]  # not the Intervention Game
    assert checks["spi.combat"]["applies"]["scenarios"] is None
    breakdown = checks["kwb.division_breakdown"]["applies"]
    assert breakdown["owner_of_units"] and breakdown["units"]["sizes"] == ["XX"]
    assert sorted(breakdown["units"]["nationalities"]) == ["nk", "prc", "rok"] and breakdown["units"]["on_map"] is True
    for name in ("interdiction", "stay_on_station"):
        assert checks[f"fireandice.{name}"]["applies"]["units"]["flags"] == ["aircraft"]  # not a ground division
    assert checks["fireandice.rebuild"]["applies"]["units"]["on_map"] is False  # a unit in the Replacements box
    assert checks["spi.movement_cost"]["applies"]["owner_of_units"]  # the mover's own unit, never the enemy's
    # issue 51: a unit showing its spent side is not offered to declare a combat (Glossary "Spent"; 9.3)
    declaring = checks["fireandice.declare_combat"]["applies"]["units"]
    assert declaring["steps"] == ["fresh"] and declaring["on_map"] is True
    assert checks["kwb.division_breakdown"]["applies"]["units"]["steps"] == []  # any step


def test_every_declared_unit_kind_is_in_the_games_data():
    for spec in all_checks():
        if spec.units is None:
            continue
        game = load_game(spec.system)
        units = game.units.values()
        for wanted, have in ((spec.units.types, {u.type for u in units}), (spec.units.sizes, {u.size for u in units}),
                             (spec.units.flags, {f for u in units for f in u.flags}),
                             (spec.units.nationalities, {u.nationality for u in units})):
            assert set(wanted) <= have, (spec.key, set(wanted) - have)
        assert set(spec.units.steps) <= {step.name for u in units for step in u.steps}, spec.key  # named as the data names them
        assert any(spec.units.fits(u) for u in units), spec.key  # it takes some unit


def test_a_declaration_fits_a_unit_showing_its_fresh_side_alone():
    spec = get_check("fireandice", "declare_combat")
    nk2 = load_game("fireandice").units["nk-2"]
    assert [spec.units.fits(nk2, True, step) for step in ("fresh", "spent", None)] == [True, False, True]
    assert not spec.units.fits(nk2, False, "fresh")  # off the map


@pytest.mark.parametrize("key, field, dice", [("kwb.division_breakdown", "division", [1, 1, 1]),
                                              ("fireandice.interdiction", "aircraft", [1] * 6)])
def test_a_unit_the_declaration_does_not_take_is_one_the_check_refuses(client, key, field, dice):
    """Whatever the menu leaves out is refused by the check itself: the declaration only keeps a
    player from asking what the rules refuse (on-map is the board's, not the request's)."""
    spec = get_check(*key.split("."))
    game = load_game(spec.system)
    refused = [u for u in game.units.values() if not spec.units.fits(u)]
    assert refused
    for unit in refused[:: max(1, len(refused) // 25)]:  # a spread of them: every arm and size
        body = {**spec.example, field: unit.id if isinstance(spec.example[field], str) else {**spec.example[field], "unit": unit.id},
                "dice": dice}
        answer = client.post(f"/api/v1/systems/{spec.system}/{spec.name}", json=body)
        assert answer.status_code == 422, (unit.id, answer.get_json())


def test_a_refusal_names_its_field_and_the_values_it_takes(client):
    combat = get_check("kwb", "combat").example
    answer = client.post("/api/v1/systems/kwb/combat", json={**combat, "attacker_support": ["zzz"]}).get_json()
    (error,) = answer["errors"]
    side = combat["attacking_side"]
    ids = sorted(m.id for m in load_game("kwb").markers.values() if m.kind == "support_fire" and m.side == side)
    assert error["pointer"] == "/attacker_support/0" and sorted(error["allowed"]) == ids and "zzz" in error["detail"]
    chit = client.post("/api/v1/systems/fireandice/combat", json={**get_check("fireandice", "combat").example,
                                                                   "chit": "Z99"}).get_json()["errors"][0]
    assert chit["pointer"] == "/chit" and "P01" in chit["allowed"] and "'Z99'" in chit["detail"]


def test_a_calculations_chances_refuse_a_peek_at_a_hidden_unit(client):
    """HoldFast's blocks: the chances of an attack on a hidden block would show its strength; the
    extension says the side asking (?side=, empty for none) and the server refuses as a recorded
    game does; the owner of every unit named, or a caller who says no side, gets them."""
    combat = json.loads(open("docs/examples/holdfast/combat.json").read())
    combat.pop("dice", None)
    attacking = load_game("holdfast").units[combat["attackers"][0]["unit"]].side
    for side in (attacking, ""):
        answer = client.post(f"/api/v1/systems/holdfast/combat/odds?side={side}", json=combat)
        assert answer.status_code == 422 and answer.get_json()["type"].endswith(":fog-of-war"), side
    assert client.post("/api/v1/systems/holdfast/combat/odds", json=combat).status_code == 200  # the API's own values
    assert client.post("/api/v1/systems/kwb/combat/odds?side=communist",  # a game without hidden units
                       json={k: v for k, v in get_check("kwb", "combat").example.items() if k != "dice"}).status_code == 200


def test_labels_are_the_rulebooks_words_on_the_pages_too():
    from adjudicator.words.forms import form_fields

    labels = {f.name: f.label for f in form_fields(get_check("spi", "supply"))}
    assert labels["soul_taken_by_communists"] == "Seoul (Soul) taken by the Communists"
    labels = {f.name: f.label for f in form_fields(get_check("spi", "chinese_intervention"))}
    assert labels["what_if"] == "What-if situation (Other Games)"
    assert labels["non_korean_un_combat_north_of_38th_turn"].startswith("Turn non-Korean UN units first fought")
    labels = {f.name: f.label for f in form_fields(get_check("fireandice", "victory_points"))}
    assert labels["macarthur_commands"] == "MacArthur commands"
