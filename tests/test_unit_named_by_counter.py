"""A unit named by its counter's name (issue 51): a request (the API, the VASSAL form, a page's form)
may name a unit as players read it ("S 17") instead of its id (``rok-r17``); the server reads it as
the id, so the answer and the record are the id's. A name several counters read is refused,
naming them as they read, never by ids."""

from __future__ import annotations

import copy
import re

import pytest

from adjudicator.checks import get_check
from adjudicator.testing import bearer, make_app, new_game
from adjudicator.words.names import UnitNameRefused, UnitNames, unit_id_named, with_unit_ids

#: An id-like word of a sentence ("rok-r17", "nk-d12"): never in a refusal.
ID = re.compile(r"\b[a-z]+-[a-z0-9-]+\b")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("unit-names")).test_client()


def test_a_counters_name_reads_as_its_units_id():
    assert unit_id_named("spi", "S 17") == "rok-r17"
    assert unit_id_named("spi", " s   17 ") == "rok-r17"  # typed without care for case or spaces
    assert unit_id_named("spi", "rok-r17") == "rok-r17"  # an id stays itself
    assert unit_id_named("spi", "S 99999") == "S 99999"  # not a unit: the rules refuse it, as before
    assert unit_id_named("fireandice", "1st RoK Infantry Division") == "rok-1"  # its long name


@pytest.mark.parametrize("system, name, could_be", [
    ("spi", "N 12", {"N 12 XX", "N 12 III"}),  # a division and a regiment
    ("kwb", "NK SC", {"NK SC"}),  # identical counters: one name, several units
])
def test_a_name_several_counters_read_is_refused_naming_them(system, name, could_be):
    with pytest.raises(UnitNameRefused) as refused:
        unit_id_named(system, name, "/unit")
    detail = refused.value.detail
    assert refused.value.pointer == "/unit"
    for read in could_be:
        assert read in detail
    assert not ID.search(detail), detail
    names = UnitNames.of(system)
    assert {names.name(u) for u in names.names} >= could_be


def test_the_units_of_a_request_are_read_wherever_it_names_them():
    model = get_check("kwb", "combat").request
    body = {"attackers": [{"unit": "NK 6", "hex": "0101"}], "defenders": [{"unit": "us-5-1m", "hex": "0201"}],
            "positions": [{"unit": "ROK 17", "hex": "0303"}], "scenario": "NK 6"}
    read = with_unit_ids("kwb", model, body)
    assert read["attackers"][0]["unit"] == "nk-6" and read["positions"][0]["unit"] == "rok-17"
    assert read["defenders"][0]["unit"] == "us-5-1m"
    assert read["scenario"] == "NK 6"  # not a unit's field: left as it is
    assert body["attackers"][0]["unit"] == "NK 6"  # the caller's request is not changed


def renamed(example: dict, unit: str, name: str) -> dict:
    """`example` with every object naming `unit` naming it by `name`."""
    body = copy.deepcopy(example)

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("unit", "block") and value == unit:
                    node[key] = name
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)
    walk(body)
    return body


@pytest.mark.slow
@pytest.mark.parametrize("system, check, unit, name", [
    ("kwb", "combat", "nk-6", "NK 6"),
    ("spi", "combat", "us-d2", "US 2"),
    ("holdfast", "combat", "nkpa-1", "NKPA 1"),
    ("fireandice", "air_attack", "com-air-4ad", "PRC 4"),
])
def test_a_calculation_names_a_unit_by_its_counters_name(client, system, check, unit, name):
    example = get_check(system, check).example
    by_name = renamed(example, unit, name)
    assert by_name != example
    by_id = client.post(f"/api/v1/systems/{system}/{check}", json=example)
    answer = client.post(f"/api/v1/systems/{system}/{check}", json=by_name)
    assert by_id.status_code == answer.status_code == 200, answer.get_json()
    assert answer.get_json() == by_id.get_json()  # read as the id: the same request, the same ruling


@pytest.mark.slow
def test_a_recorded_ruling_keeps_the_id_of_a_unit_named_by_its_counter(client):
    game = new_game(client, "fireandice")
    body = renamed(get_check("fireandice", "rebuild").example, "nk-1", "NK 1")
    body.pop("scenario", None)
    response = client.post(f"/api/v1/games/{game['game_id']}/rebuild", json=body,
                           headers=bearer(game["tokens"]["communist"]))
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["request"]["unit"] == "nk-1"
    ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(game["tokens"]["communist"]))
    assert ledger.get_json()["records"][-1]["body"]["request"]["unit"] == "nk-1"  # the record keeps the id


def test_the_api_refuses_a_name_several_counters_read(client):
    body = renamed(get_check("spi", "combat").example, "us-d2", "N 12")
    response = client.post("/api/v1/systems/spi/combat", json=body)
    assert response.status_code == 422
    problem = response.get_json()
    assert problem["type"].endswith(":ambiguous-unit") and response.mimetype == "application/problem+json"
    assert problem["errors"][0]["pointer"] == "/attackers/0/unit"
    assert "N 12 XX" in problem["detail"] and not ID.search(problem["errors"][0]["detail"])


def test_a_pages_form_takes_a_unit_typed_by_its_counters_name(client):
    form = {"turn": "6", "weather": "clear", "attackers.0.unit": "NKPA 1", "attackers.0.sp": "3",
            "attackers.0.hex": "0405", "defender.unit": "un-2", "defender.sp": "4", "defender.hex": "0406",
            "dice": "6, 6, 6, 6, 6, 6, 6"}
    typed = client.post("/systems/holdfast/combat", data=form)
    assert typed.status_code == 200, typed.get_data(as_text=True)[:2000]
    by_id = client.post("/systems/holdfast/combat", data={**form, "attackers.0.unit": "nkpa-1"})
    result = re.compile(r'id="result-combat".*?</div>', re.S)
    assert result.search(typed.get_data(as_text=True)).group(0) == result.search(by_id.get_data(as_text=True)).group(0)


def test_a_form_shown_again_names_the_unit_typed_by_its_counters_name(client):
    form = {"turn": "6", "weather": "clear", "attackers.0.unit": "NKPA 1", "attackers.0.sp": "3",
            "attackers.0.hex": "0405", "dice": "6"}  # no defender: the form comes back to be fixed
    page = client.post("/systems/holdfast/combat", data=form)
    assert page.status_code == 422
    text = page.get_data(as_text=True)
    assert re.search(r'id="combat-attackers-0-unit-name"[^>]*>NKPA 1 \(1st NKPA Division\)', text)
    sp = re.search(r'<select name="attackers.0.sp".*?</select>', text, re.S).group(0)
    assert re.findall(r'<option value="(\d+)"', sp) == ["3", "2", "1"]  # that block's steps, not 1 to 6
