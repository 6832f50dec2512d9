"""Korean War Battles replacements (10.1.2), emergency replacements (10.1.3), Seoul and Changjin limits."""

import pytest
from pydantic import ValidationError

from adjudicator.rules.kwb import replacements
from test_rules_kwb_fixtures import REAL, validate


def req(**body):
    return validate(replacements.ReplacementsRequest, REAL, **body)


def unit(u, h="0505", in_supply=True):
    return {"unit": u, "hex": h, "in_supply": in_supply}


def test_un_one_unit_per_nationality():
    result = replacements.take(REAL, req(scenario="pusan", side="un", undeplete=[unit("us-5-1c"), unit("rok-17")]))
    assert result.outcome["undepleted"] == ["us-5-1c", "rok-17"]
    with pytest.raises(ValidationError, match="one unit of each nationality"):
        req(scenario="pusan", side="un", undeplete=[unit("us-5-1c"), unit("us-7-1c")])


def test_communist_emergency_replacements_burn_a_center():
    r = req(scenario="pusan", side="communist", undeplete=[unit("nk-766")], burned_supply_center="nk-sc-1",
            burned_supply_center_hex="0505", emergency=[unit("nk-6", "0506")])
    result = replacements.take(REAL, r)
    assert result.outcome == {"undepleted": ["nk-766", "nk-6"], "supply_center_burned": "nk-sc-1"}
    three = req(scenario="pusan", side="communist", burned_supply_center="nk-sc-1", burned_supply_center_hex="0505",
                emergency=[unit("nk-reg-1"), unit("nk-reg-2", "0504"), unit("nk-31", "0506")])
    assert len(replacements.take(REAL, three).outcome["undepleted"]) == 3


@pytest.mark.parametrize("body, message", [
    ({"scenario": "pusan", "side": "communist", "undeplete": [unit("nk-766"), unit("nk-31")]}, "only one"),
    ({"scenario": "pusan", "side": "un", "undeplete": [unit("cw-27")]}, "Commonwealth"),
    ({"scenario": "seoul", "side": "un", "undeplete": [unit("rok-1km")]}, "12.21"),
    ({"scenario": "changjin", "side": "communist", "undeplete": [unit("prc-reg-1")]}, "12.3"),
    ({"scenario": "pusan", "side": "un", "undeplete": [unit("us-5-1c", in_supply=False)]}, "out of supply"),
    ({"scenario": "pusan", "side": "un", "undeplete": [unit("rok-1")]}, "cadre, regiment or brigade"),
    ({"scenario": "pusan", "side": "communist", "burned_supply_center": "nk-sc-1", "burned_supply_center_hex": "0505",
      "emergency": [unit("nk-6", "0507")]}, "neither stacked with nor adjacent"),
    ({"scenario": "pusan", "side": "communist", "burned_supply_center": "nk-sc-1", "burned_supply_center_hex": "0505",
      "emergency": [unit("nk-6"), unit("nk-3")]}, "either one division or three regiments"),
    ({"scenario": "pusan", "side": "un", "burned_supply_center": "nk-sc-1", "burned_supply_center_hex": "0505",
      "emergency": [unit("rok-17")]}, "Communist rule"),
])
def test_replacement_limits(body, message):
    with pytest.raises(ValidationError, match=message):
        req(**body)
