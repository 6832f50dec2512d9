"""Board roles on every check: the fields a VASSAL game or a saved game fills (issue #18).

The VASSAL extension and the saved-game page fill requests from the `x-board` roles in
`GET /api/v1/systems`, so every field that holds what the board knows must carry one, and the
same kind of field must carry the same role in every game (docs/api.md "Fields the board fills").
"""

from __future__ import annotations

import pytest

from adjudicator.checks import BOARD_ROLES, all_checks, board_fields, track_marker

#: Lists of units a player chooses (not the selection, the target hex or the whole board):
#: they have no role, and the board leaves them to the player.
PLAYERS_CHOICE = {
    ("kwb.combat", "other_units"): "the few non-attacking units in the attacking hexes that matter",
    ("kwb.replacements", "undeplete"): "the depleted units the player chooses to bring back",
    ("kwb.replacements", "emergency"): "the units the player chooses for emergency replacements",
    ("spi.combat", "naval_guns"): "the Naval Guns the UN player chooses to fire",
    ("holdfast.replacements", "replacements"): "the steps the player chooses to buy",
}

#: Field names that mean the same thing in every game, and their role.
NAMED = {"scenario": "scenario", "game_turn": "turn", "turn": "turn", "month": "month", "positions": "positions"}


def _resolve(node: dict, defs: dict) -> dict:
    for key in ("anyOf", "allOf"):
        options = [o for o in node.get(key, ()) if o.get("type") != "null"]
        if len(options) == 1:
            node = {**options[0], **{k: v for k, v in node.items() if k != key}}
    if "$ref" in node:
        node = {**defs[node["$ref"].rsplit("/", 1)[-1]], **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def _unit_fields(spec):
    """(name, item pointer prefix, item properties) of every top-level field holding units at places."""
    schema = spec.request.model_json_schema()
    defs = schema.get("$defs", {})
    for name, prop in schema["properties"].items():
        node = _resolve(prop, defs)
        is_list = node.get("type") == "array"
        item = _resolve(node.get("items", {}), defs) if is_list else node
        props = item.get("properties", {})
        if "unit" in props and {"hex", "sp", "step"} & set(props):
            yield name, f"/{name}/-" if is_list else f"/{name}", props




@pytest.fixture(scope="module")
def checks():
    return all_checks()


def test_every_field_holding_units_at_places_carries_roles(checks):
    for spec in checks:
        roles = dict(spec.board)
        for name, prefix, props in _unit_fields(spec):
            if (spec.key, name) in PLAYERS_CHOICE:
                assert f"/{name}" not in roles, f"{spec.key}.{name} is listed as the player's choice"
                continue
            assert roles.get(f"/{name}") in ("positions", "attackers", "defenders"), f"{spec.key}.{name}"
            for item in ("unit", "hex", "step", "sp", "map"):
                if item in props:
                    assert roles.get(f"{prefix}/{item}") == item, f"{spec.key}{prefix}/{item}"


def test_every_positions_field_is_every_unit_on_the_board(checks):
    found = 0
    for spec in checks:
        for pointer, role in spec.board:
            if role == "positions":
                found += 1
                items = {p.rsplit("/", 1)[-1] for p, r in spec.board if p.startswith(pointer + "/-/")}
                assert {"unit", "hex"} <= items, spec.key
    assert found >= 15


def test_the_same_field_has_the_same_role_in_every_game(checks):
    for spec in checks:
        roles = dict(spec.board)
        for name in spec.request.model_fields:
            if name in NAMED:
                assert roles.get(f"/{name}") == NAMED[name], f"{spec.key}.{name}"


def test_attackers_and_defenders_name_their_units(checks):
    for spec in checks:
        roles = dict(spec.board)
        for pointer, role in spec.board:
            if role in ("attackers", "defenders") and pointer.count("/") == 1:
                inner = [p for p in roles if p.startswith(pointer + "/")]
                if inner:  # lists of ids carry the role alone
                    assert any(roles[p] == "unit" for p in inner), spec.key


def test_only_known_roles_are_used(checks):
    for spec in checks:
        assert {role for _, role in spec.board if track_marker(role) is None} <= set(BOARD_ROLES), spec.key
        assert tuple(board_fields(spec.request.model_json_schema())) == spec.board


def test_the_systems_document_shows_every_checks_roles(tmp_path, checks):
    from adjudicator.testing import make_app

    document = make_app(tmp_path).test_client().get("/api/v1/systems").get_json()
    assert document["board_roles"] == BOARD_ROLES
    listed = {f"{s['id']}.{c['name']}": c for s in document["systems"] for c in s["checks"]}
    for spec in checks:
        check = listed[spec.key]
        assert check["board"] == dict(spec.board)
        for pointer, role in spec.board:
            if pointer.count("/") == 1:
                assert check["request_schema"]["properties"][pointer[1:]]["x-board"] == role
    assert listed["kwb.combat"]["board"]["/attackers"] == "attackers"
    assert listed["spi.combat"]["board"]["/defender_hex"] == "target_hex"
    assert listed["holdfast.combat"]["board"]["/defender"] == "defenders"
    assert listed["fireandice.supply"]["board"]["/month"] == "month"


def test_a_check_must_say_who_acts():
    from adjudicator.checks import CheckRequest, register_check

    class Anything(CheckRequest):
        pass

    with pytest.raises(ValueError) as refused:
        register_check(system="kwb", name="nobody_acts", request=Anything, random=True, summary="", rule="")
    message = str(refused.value)
    assert "kwb.nobody_acts" in message and "actor=named_side(" in message and "either_side(" in message


def test_positions_must_be_a_list():
    from adjudicator.checks import CheckRequest, board, either_side, register_check

    class Wrong(CheckRequest):
        positions: str = board("positions", "")

    with pytest.raises(ValueError, match="list of units"):
        register_check(system="kwb", name="wrong_positions", request=Wrong, random=False, summary="", rule="",
                       actor=either_side(rule=""))
