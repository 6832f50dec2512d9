"""HoldFast Korea supply (10): the book's example on a test board, ZOC and red-line blocking, rails cut by the
enemy, ports, attrition, a property test over random positions, and a smoke test on the real map."""

from hypothesis import given, settings
from hypothesis import strategies as st
import pytest
from pydantic import ValidationError

from adjudicator.rules.holdfast import board as hf_board
from adjudicator.rules.holdfast.supply import SupplyRequest, run_supply, trace_side
from adjudicator.rules.positions import UnitAt, supply_tracer
from test_rules_holdfast_fixtures import REAL, board, parallel_between_rows, validate

EDGE = [(f"{c:02d}01", "map_edge", "", "") for c in range(1, 11)]
# Communist rail from the yellow north-edge hex 0501 down column 5 to 0506.
NORTH = board(features=EDGE, rails=[[f"05{r:02d}" for r in range(1, 7)]])


def status(g, side, positions, **options):
    report = trace_side(g, "campaign", side, [UnitAt(u, h, s) for u, h, s in positions], options)
    return {u.unit: u for u in report.units}


def test_book_example_nkpa_cut_off_by_zoc_chinese_near_the_rail():
    """10 example: the 1st NKPA Div's supply line is blocked by the ZOC of the 2nd Div and the 1st Div MAR; the
    Chinese 50th Army within 3 hexes of the rail line leading to the Chinese border is in supply."""
    positions = [("nkpa-1", "0509", "3"), ("cpa-50", "0806", "8"), ("un-2", "0408", "4"), ("usmc-1", "0608", "6")]
    s = status(NORTH, "communist", positions)
    assert not s["nkpa-1"].in_supply
    assert "un-2" in s["nkpa-1"].reason or "usmc-1" in s["nkpa-1"].reason
    assert s["cpa-50"].in_supply and s["cpa-50"].source in {"0505", "0506"} and len(s["cpa-50"].path) - 1 <= 3
    # Without the two UN divisions the NKPA unit traces 3 hexes up to the rail.
    alone = status(NORTH, "communist", positions[:2])
    assert alone["nkpa-1"].in_supply and alone["nkpa-1"].path == ["0509", "0508", "0507", "0506"]


def test_friendly_unit_negates_enemy_zoc_but_friendly_zoc_does_not():
    positions = [("nkpa-1", "0509", "3"), ("nkpa-2", "0508", "3"), ("un-2", "0408", "4"), ("usmc-1", "0608", "6")]
    assert status(NORTH, "communist", positions)["nkpa-1"].in_supply
    # nkpa-2 next to 0508 (not in it) projects friendly ZOC there, which does not help.
    positions[1] = ("nkpa-2", "0407", "3")
    assert not status(NORTH, "communist", positions)["nkpa-1"].in_supply


def test_within_three_hexes_of_the_north_edge_needs_no_chain():
    positions = [("nkpa-3", "0904", "3"), ("rok-1", "0903", "2"), ("rok-2", "0805", "2"), ("rok-3", "1004", "2")]
    s = status(NORTH, "communist", positions)["nkpa-3"]
    assert s.in_supply and s.source == "edge:north"
    far = status(NORTH, "communist", [("nkpa-3", "0906", "3")])["nkpa-3"]
    assert not far.in_supply


def test_red_hex_line_blocks_the_chain():
    g = board(features=EDGE, rails=[[f"05{r:02d}" for r in range(1, 7)]],
              red_lines=[("0508", "0507"), ("0508", "0407"), ("0508", "0607"), ("0508", "0408"), ("0508", "0608")])
    assert not status(g, "communist", [("nkpa-1", "0508", "3")])["nkpa-1"].in_supply
    assert status(NORTH, "communist", [("nkpa-1", "0508", "3")])["nkpa-1"].in_supply


SOUTH = board(rails=[[f"05{r:02d}" for r in range(10, 4, -1)]], un_rail_terminus="0510",
              features=[("0910", "port", "Pohang", "")], parallel=parallel_between_rows(3))


def test_un_traces_to_a_rail_line_running_to_pusan_and_the_enemy_cuts_it():
    positions = [("un-2", "0305", "4"), ("nkpa-1", "0508", "3")]
    cut = status(SOUTH, "un", positions)["un-2"]
    assert not cut.in_supply
    uncut = status(SOUTH, "un", positions, rail_cut_by_enemy=False)["un-2"]
    assert uncut.in_supply and uncut.path[-1] in {"0505", "0506"}
    free = status(SOUTH, "un", positions[:1])["un-2"]
    assert free.in_supply and len(free.path) == 3 and free.path[0] == "0305" and free.source == "0505"


def test_un_controlled_port_is_a_source_unless_captured():
    s = status(SOUTH, "un", [("un-2", "0907", "4")])["un-2"]
    assert s.in_supply and s.source == "0910" and s.cost == 3
    lost = status(SOUTH, "un", [("un-2", "0907", "4")], communist_controlled_ports=["0910"])["un-2"]
    assert not lost.in_supply


def test_naval_assault_unit_is_in_supply_for_the_turn():
    s = status(SOUTH, "un", [("usmc-1", "0102", "6")], naval_assault_units=["usmc-1"])["usmc-1"]
    assert s.in_supply and s.source == "naval assault"


def test_end_of_turn_attrition():
    req = validate(SupplyRequest, NORTH, side="communist", positions=[
        {"unit": "nkpa-1", "hex": "0509", "step": "1"}, {"unit": "cpa-50", "hex": "0609", "step": "5"},
        {"unit": "nkpa-2", "hex": "0108", "step": ""},
        {"unit": "un-2", "hex": "0408", "step": "4"}, {"unit": "usmc-1", "hex": "0608", "step": "6"}])
    result = run_supply(NORTH, req)
    losses = {a["unit"]: a for a in result.outcome["attrition"]}
    assert losses["nkpa-1"]["eliminated"]  # out of supply at 1 SP
    assert losses["cpa-50"]["block"] == "cpa-50-r" and losses["cpa-50"]["sp"] == 4  # 5 -> 4: the 4-SP block
    assert losses["nkpa-2"]["sp"] == 2
    assert result.outcome["out_of_supply"] == 3
    assert all(step.rule for step in result.steps)


def test_bad_positions_are_rejected():
    with pytest.raises(ValidationError, match="one unit per hex"):
        validate(SupplyRequest, NORTH, side="un", positions=[{"unit": "un-2", "hex": "0505"}, {"unit": "un-7", "hex": "0505"}])
    with pytest.raises(ValidationError, match="unknown"):
        validate(SupplyRequest, NORTH, side="un", positions=[{"unit": "un-99", "hex": "0505"}])
    with pytest.raises(ValidationError, match="edges"):
        validate(SupplyRequest, NORTH, side="un", positions=[{"unit": "un-2", "hex": "0505", "step": "6"}])


COMMUNIST = ["nkpa-1", "nkpa-2", "nkpa-3", "nkpa-4", "nkpa-5"]
UN = ["un-2", "un-7", "un-24", "rok-1", "rok-2"]
HEXES = [f"{c:02d}{r:02d}" for c in range(1, 11) for r in range(1, 11)]
PROPERTY_BOARD = board(features=EDGE, rails=[[f"05{r:02d}" for r in range(1, 11)], [f"{c:02d}06" for c in range(1, 10)]],
                       red_lines=[("0304", "0305"), ("0704", "0705"), ("0705", "0805")], un_rail_terminus="0510",
                       parallel=parallel_between_rows(4))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(HEXES), min_size=10, max_size=10, unique=True), st.sampled_from(["un", "communist"]))
def test_supply_paths_never_enter_unnegated_enemy_zoc(hexes, side):
    positions = [UnitAt(u, h) for u, h in zip(COMMUNIST + UN, hexes)]
    report = trace_side(PROPERTY_BOARD, "campaign", side, positions, {})
    gm = PROPERTY_BOARD.maps["korea"]
    b = hf_board.Board(gm)
    for p in positions:
        h = gm.grid.parse(p.hex)
        b.side_of[h] = "communist" if p.unit in COMMUNIST else "un"
    enemy = "un" if side == "communist" else "communist"
    enemy_zoc = b.zoc_of(enemy)
    for u in report.units:
        if not u.in_supply or u.source == "edge:north":
            continue
        assert len(u.path) - 1 <= 3
        path = [gm.grid.parse(x) for x in u.path]
        for h in path:
            assert not b.occupied_by(h, enemy)
            assert h not in enemy_zoc or b.occupied_by(h, side)
        for a, c in zip(path, path[1:]):
            assert gm.grid.are_adjacent(a, c) and not hf_board.red_line_between(gm, a, c)


def test_real_map_smoke_the_registered_tracer_handles_the_campaign_setup():
    sc = REAL.scenarios["campaign"]
    positions = [UnitAt(p.unit, p.location, p.step) for p in sc.setup if p.is_on_map]
    tracer = supply_tracer("holdfast")
    for side in ("un", "communist"):
        report = tracer(REAL, "campaign", side, positions, {})
        mine = [p for p in positions if REAL.units[p.unit].side == side]
        assert len(report.units) == len(mine) == 10
        for u in report.units:
            assert (u.path[0] == u.hex) if u.in_supply else (u.path == [] and u.reason)
