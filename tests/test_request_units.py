"""What a request says a unit is (adjudicator.request_units): the one reader every other reads through."""

from __future__ import annotations

from adjudicator.request_units import Stated, states_before, stated_units, unit_ids, unit_objects, unit_of

COMBAT = {"attackers": [{"unit": "nk-83-mot", "step": "full", "hex": "0105"}, "nk-2"],
          "defenders": [{"unit": "us-27-25", "step": "", "sp": 3}, {"block": "rok-1", "sp": 2, "eliminated": True}],
          "support": {"unit": "nk-art", "sp": True, "note": {"unit": "nk-art", "step": "depleted"}},
          "target_hex": "0206"}


def test_a_unit_is_named_by_its_unit_else_its_block():
    assert [unit_of(node) for node in ({"unit": "a"}, {"block": "b"}, {"unit": "", "block": "b"}, {"unit": 3}, {})] == \
        ["a", "b", "b", None, None]


def test_every_object_naming_a_unit_in_document_order_an_object_before_those_inside_it():
    assert [unit_of(node) for node in unit_objects(COMBAT)] == ["nk-83-mot", "us-27-25", "rok-1", "nk-art", "nk-art"]


def test_what_each_object_says_of_its_unit():
    assert list(stated_units(COMBAT)) == [
        Stated("nk-83-mot", "full", None, "0105", False), Stated("us-27-25", "", 3, "", False),
        Stated("rok-1", None, 2, "", True), Stated("nk-art", None, None, "", False),  # sp true is no strength
        Stated("nk-art", "depleted", None, "", False)]


def test_the_state_a_unit_stood_at_the_later_naming_kept_an_empty_step_none():
    assert states_before(COMBAT) == {"nk-83-mot": "full", "rok-1": 2, "nk-art": "depleted"}


def test_the_units_a_field_names_ids_and_objects_alike():
    assert unit_ids(COMBAT["attackers"]) == ["nk-83-mot", "nk-2"]
    assert unit_ids(COMBAT["defenders"]) == ["us-27-25", "rok-1"]
    assert unit_ids(COMBAT["support"]) == ["nk-art"] and unit_ids(None) == [] and unit_ids(4) == []
