"""SPI Korea victory levels from a position (Victory Conditions; each scenario's [victory])."""

import pytest

from adjudicator.rules.spi import board as sb
from adjudicator.rules.spi import victory
from adjudicator.rules.spi.victory import VictoryRequest
from test_rules_spi_fixtures import MAP_ID, REAL, board, validate

LINES = [("parallel_38", f"{c:02d}03", f"{c:02d}04") for c in range(1, 11)] + \
        [("parallel_37", f"{c:02d}07", f"{c:02d}08") for c in range(1, 11)]


def small():
    return board(soul="0505", features=[("0502", "capital", "Pyongyang"), ("0808", "port", "Masan")], lines=LINES)


def judge(g, scenario, units, **body):
    req = validate(VictoryRequest, g, scenario=scenario,
                   positions=[{"unit": u, "hex": h} for u, h in units], **body)
    return victory.evaluate(g, req)


def test_the_lines_split_the_test_map():
    g = small()
    line = sb.Line.of(g.maps[MAP_ID], "parallel_38")
    grid = g.maps[MAP_ID].grid
    assert not line.is_south(grid.parse("0503")) and line.is_south(grid.parse("0504"))


def test_intervention_game_un_marginal_victory_by_disparity():
    r = judge(small(), "intervention", [("us-d2", "0505"), ("cpv-a38", "0502")])
    assert r.outcome["levels"] == {"un": "tactical", "communist": "marginal"}
    assert r.outcome["winner"] == "un" and r.outcome["victory"] == "marginal"


def test_equal_levels_are_a_tie():
    r = judge(small(), "stalemate", [("us-d2", "0501"), ("cpv-a38", "0505")],
              last_occupied=[{"place": "Pyongyang", "side": "communist"}])
    # UN: Soul no, Communists south of 38 -> none; Communist: UN north of 38 -> not marginal; Soul -> tactical
    assert r.outcome["levels"]["communist"] == "tactical" and r.outcome["winner"] == "communist"
    tie = judge(small(), "intervention", [("us-d2", "0505"), ("cpv-a38", "0502"), ("nk-d1", "0506")])
    assert tie.outcome["levels"] == {"un": "marginal", "communist": "marginal"}
    assert tie.outcome["winner"] is None and tie.outcome["victory"] == "tie"


def test_last_occupied_is_needed_for_an_empty_objective():
    with pytest.raises(ValueError, match="last_occupied"):
        judge(small(), "intervention", [("us-d2", "0508"), ("cpv-a38", "0509")])
    r = judge(small(), "intervention", [("us-d2", "0508"), ("cpv-a38", "0509")],
              last_occupied=[{"place": "Soul", "side": "un"}, {"place": "Pyongyang", "side": "un"}])
    assert r.outcome["conditions"]["un"]["marginal"] and r.outcome["conditions"]["un"]["strategic"]


def test_invasion_port_held_throughout():
    g = small()
    r = judge(g, "invasion", [("rok-d1", "0510"), ("nk-d1", "0505")], un_port_held_throughout="Pusan",
              last_occupied=[{"place": "Pyongyang", "side": "communist"}])
    assert r.outcome["conditions"]["un"]["marginal"] is True
    with pytest.raises(ValueError, match="not a port"):
        judge(g, "invasion", [("rok-d1", "0510")], un_port_held_throughout="Soul")
    with pytest.raises(ValueError, match="Masan"):
        judge(g, "invasion", [("rok-d1", "0510"), ("nk-d1", "0808"), ("nk-d2", "0505")], un_port_held_throughout="Masan",
              last_occupied=[{"place": "Pyongyang", "side": "communist"}])


def test_campaign_strategic_needs_every_part():
    g = small()
    r = judge(g, "campaign", [("us-d2", "0502"), ("rok-d1", "0505"), ("nk-d1", "0501")])
    assert r.outcome["conditions"]["un"] == {"marginal": True, "tactical": True, "strategic": True}
    r = judge(g, "campaign", [("us-d2", "0502"), ("rok-d1", "0505"), ("nk-d1", "0506")])
    assert r.outcome["conditions"]["un"] == {"marginal": True, "tactical": False, "strategic": False}


def test_real_map_stalemate_setup():
    setup = [{"unit": p.unit, "hex": p.location} for p in REAL.scenarios["stalemate"].setup
             if p.is_on_map and not p.is_marker]
    req = VictoryRequest.model_validate({"scenario": "stalemate", "positions": setup,
                                         "last_occupied": [{"place": "Pyongyang", "side": "communist"}]})
    r = victory.evaluate(REAL, req)
    # January 1951: the Communists hold Soul and no UN unit stands north of the 38th (their marginal and
    # tactical conditions), UN units north of the 37th deny the strategic one; the UN meets none of its own.
    assert r.outcome["levels"] == {"communist": "tactical", "un": "none"} and r.outcome["winner"] == "communist"
    gm = REAL.maps["korea"]
    line = sb.Line.of(gm, "parallel_38")
    assert line.is_south(sb.place_hexes(gm, "Pusan")[0]) and not line.is_south(sb.place_hexes(gm, "Pyongyang")[0])


def test_partisans_bind_two_south_korean_divisions_near_chonju_or_taegu():
    from adjudicator.rules.spi import partisans

    g = board(features=[("0508", "city", "Chonju"), ("0808", "city", "Taegu")], lines=LINES)

    def check(units):
        req = validate(partisans.PartisansRequest, g, positions=[{"unit": u, "hex": h} for u, h in units])
        return partisans.evaluate(g, req).outcome

    assert check([("nk-d1", "0506"), ("rok-d1", "0101")])["in_force"] is False
    out = check([("nk-d1", "0502"), ("rok-d1", "0504"), ("rok-d2", "0101")])
    assert out["in_force"] and not out["compliant"] and out["qualifying"] == ["rok-d1"]
    assert check([("nk-d1", "0502"), ("rok-d1", "0504"), ("rok-d2", "0810")])["compliant"]
