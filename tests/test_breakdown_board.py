"""Every change a ruling orders can be made on the board (issue 45): SPI's breakdowns, Fire and Ice's combat
losses that follow the combat they settle, in-process, on the games' own setups and chosen dice.

SPI, Stacking & Unit Breakdown: "To break down or recombine unit(s), simply remove the unit(s) to be
replaced, and place the unit(s) which replace it on the same hex"; Combat (J): "D1, D2, D3 - defending
unit(s) lose one, two, or three regiments; units may be broken down to remove the exact losses". The
Intervention Game's setup puts ROK 6 (S 6, a 10-3) in 1706 next to the CPV 38th Army (1705); on the
Pursuit table at 5-1 a 6 is D1 r2: ROK 6 is broken down into three 3-3s (its own 7th and 2nd Regiments
and an unnumbered ROK regiment, lying in the UN's box of counters not in play), one is lost, and the
other two retreat two hexes. The ruling is applied by the web write-back, by hand with the module's own
commands (Set aside, a drag out of the box, Eliminate), and not at all: verified, verified, not applied.
"""

from __future__ import annotations

import pytest

from adjudicator.checks import get_check
from adjudicator.testing import seed_where
from adjudicator.unit_changes import BROKEN_DOWN, ELIMINATED, RETREAT
from scenarios.boxboard import boxes_layout, counters_box
from adjudicator.bridge.locate import BOXES_MAP
from tests.engine.play import board_request
from tests.test_log_board import Hand, lines, table, the_three_verdicts, verdicts

INTERVENTION = ("spi", "intervention")
ROK_6, CPV_38 = ("rok-d6", "1706"), ("cpv-a38", "1705")


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    from adjudicator.testing import make_app

    return make_app(tmp_path_factory.mktemp("breakdown-board"))


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()


class Setting(Hand):
    """Hand, with the module's "Set aside": the piece to the centre of its side's box of counters not in play."""

    def set_aside(self, unit: str) -> list[str]:
        box = counters_box(self.game, self.game.units[unit].side)
        return self.drag(unit, BOXES_MAP, *boxes_layout(self.game).centres[box.id])


def d1_on_rok_6(app, client, modules):
    """A recorded Intervention Game whose first ruling is CPV 38's attack on ROK 6 on the Pursuit table, D1 r2."""
    t = table(app, client, modules, *INTERVENTION)
    request = board_request(*INTERVENTION, t.setup, "combat", "communist", [CPV_38[0]], ROK_6[1],
                            {"table": "pursuit", "game_turn": 1})
    t.start(seed_where(get_check("spi", "combat"), request, lambda o: o["cell"] == "D1 r2"))
    return t, request, t.roll("combat", request, "communist")


def test_a_d1_breaks_rok_6_down_into_counters_of_the_box_and_orders_the_pursuit_retreat(app, client, modules):
    t, request, answer = d1_on_rok_6(app, client, modules)
    assert {"rok-r7", "rok-r2", "rok-r-1"} <= set(request["counters_not_in_play"])  # the UN box, read from the file
    assert answer["outcome"]["defender_losses"]["breakdowns"] == [
        {"unit": "rok-d6", "broken_down_into": ["rok-r7", "rok-r2", "rok-r-1"]}]
    changes = {c["unit"]: c for c in answer["piece_changes"]}
    assert changes["rok-d6"]["kind"] == BROKEN_DOWN and changes["rok-d6"]["box"] == "un-pool"
    assert [p["unit"] for p in changes["rok-d6"]["replacements"]] == ["rok-r2", "rok-r-1"]
    assert changes["rok-d6"]["lost"] == ["rok-r7"]
    assert [(c["unit"], c["hexes"]) for c in answer["piece_changes"] if c["kind"] == RETREAT] == \
        [("rok-r2", 2), ("rok-r-1", 2)]
    said = "\n".join(answer["transcript"])
    assert "S 6 broken down (S 2 III, South Korean regiment in its place, S 7 III lost)" in said  # identical counters by name
    assert "S 2 III retreats 2 hexes" in said


@pytest.mark.slow
def test_the_breakdown_is_verified_when_made_and_not_applied_when_left_whole(app, client, modules):
    t, _, answer = d1_on_rok_6(app, client, modules)
    hand = Setting(t.game, t.setup)
    by_hand = (hand.set_aside("rok-d6") + hand.onto("rok-r2", "rok-d6") + hand.onto("rok-r-1", "rok-d6")
               + hand.eliminate("rok-r7"))
    the_three_verdicts(t, answer, by_hand)  # written back, by hand: verified; the lines alone: not applied
    left_whole = t.check(t.log(lines(answer)))
    assert ("S 6 broken down into S 2 III, South Korean regiment, S 7 III lost: the log does not show it"
            in left_whole["rulings"][0]["why"])  # units as their counters read, never by id
    half = Setting(t.game, t.setup)
    aside_only = t.check(t.log(lines(answer), half.set_aside("rok-d6") + half.eliminate("rok-r7")))
    assert verdicts(aside_only) == [(answer["seq"], "not-applied")]  # the regiments never placed


def test_a_breakdown_by_choice_and_a_communist_division_refused(client, modules):
    """"Communist units (except 25-2's) may never be broken down voluntarily"; a UN division may, at the
    beginning of the Movement Phase."""
    data = modules[("spi", 1)][2]["setups/intervention.vsav"]
    request = board_request(*INTERVENTION, data, "division_breakdown", "un")
    assert list(request) == ["counters_not_in_play"] and "rok-r-1" in request["counters_not_in_play"]
    broken = client.post("/api/v1/systems/spi/division_breakdown?transcript=1&changes=1",
                         json={**request, "unit": "rok-d6", "hex": "1706"}).get_json()
    assert broken["outcome"]["breakdowns"] == [{"unit": "rok-d6", "broken_down_into": ["rok-r7", "rok-r2", "rok-r-1"]}]
    refused = client.post("/api/v1/systems/spi/division_breakdown", json={"unit": "nk-d8"})
    assert refused.status_code == 422 and "may never be broken down voluntarily" in refused.get_json()["detail"]


# -- Fire and Ice: the losses follow the combat they settle ---------------------------------------------------

INVASION = ("fireandice", "invasion")


def nk_2_beats_rok_6(app, client, modules, wanted):
    """A recorded Invasion game whose first ruling is NK 2's Hasty Attack on ROK 6 (spent), with an outcome
    `wanted` says yes to."""
    t = table(app, client, modules, *INVASION)
    request = board_request(*INVASION, t.setup, "combat", "communist", ["nk-2"], "3043", {"combat_type": "Hasty Attack"})
    t.start(seed_where(get_check("fireandice", "combat"), request, wanted))
    return t, t.roll("combat", request, "communist")


def test_the_losers_losses_take_the_spread_and_the_units_from_the_combats_record(app, client, modules):
    t, combat = nk_2_beats_rok_6(app, client, modules, lambda o: o["winner_side"] == "communist" and o["spread"] == 1
                                 and not o["quality_markers_placed"])  # a marker, 5.4.2, would be an order too
    assert combat["outcome"]["participants"] == {"attacker": ["nk-2"], "defender": ["rok-6"]}
    losses = board_request(*INVASION, t.setup, "combat_losses", "un", given={"unit": "ROK 6", "eliminate": ["ROK 6"]})
    answer = t.roll("combat_losses", losses, "un")
    built = answer["request"]
    assert (built["combat_record"], built["spread"], built["participating"], built["combat_hex"]) == (1, 1, ["rok-6"], "3043")
    assert built["eliminate"] == ["rok-6"] and built["unit"] == "rok-6"  # the counter's name read as its unit
    assert [(c["unit"], c["kind"]) for c in answer["piece_changes"]] == [("rok-6", ELIMINATED)]
    assert "These losses settle the combat of record 1: spread 1, participating ROK 6." in [s["text"] for s in answer["steps"]]
    hand = Hand(t.game, t.setup)
    assert verdicts(t.check(t.log(lines(combat), lines(answer), hand.eliminate("rok-6")))) == [(1, "verified"), (2, "verified")]
    again = t.client.post(f"/api/v1/games/{t.recorded['game_id']}/combat_losses", json={"combat_record": 1, "eliminate_all": True},
                          headers={"Authorization": f"Bearer {t.recorded['tokens']['un']}"})
    assert again.status_code == 422 and again.get_json()["type"].endswith(":not-followed")
    assert "settled by record 2" in again.get_json()["detail"]


def test_a_loss_named_otherwise_than_the_combat_is_refused(app, client, modules):
    t, _ = nk_2_beats_rok_6(app, client, modules, lambda o: o["winner_side"] == "communist" and o["spread"] == 2)
    headers = {"Authorization": f"Bearer {t.recorded['tokens']['un']}"}
    url = f"/api/v1/games/{t.recorded['game_id']}/combat_losses"
    wrong_spread = t.client.post(url, json={"spread": 1, "eliminate": ["ROK 6"]}, headers=headers)
    assert wrong_spread.status_code == 422 and wrong_spread.get_json()["type"].endswith(":contradicts-game")
    assert "spread of 2" in wrong_spread.get_json()["detail"]
    stranger = t.client.post(url, json={"eliminate": ["ROK 1"], "retreats": [{"unit": "ROK 6", "hexes": 1}]},
                             headers=headers)
    assert stranger.status_code == 422 and "ROK 1 did not participate in the combat (5.6)" in stranger.get_json()["detail"]


def test_a_fresh_unit_that_retreats_is_moved_and_flipped_spent_in_one_change(client):
    """5.6: "If a fresh unit retreats, flip it to its spent side": the retreat's last hex and the spent side."""
    answer = client.post("/api/v1/systems/fireandice/combat_losses?transcript=1&changes=1", json={
        "loser": "un", "spread": 1, "participating": ["ROK 6"], "combat_hex": "3042", "dice": [],
        "retreats": [{"unit": "ROK 6", "hexes": 1, "path": ["3044"]}],
        "positions": [{"unit": "rok-6", "hex": "3043", "step": "fresh"}, {"unit": "nk-2", "hex": "3042"}]}).get_json()
    assert answer["outcome"]["retreated"] == [{"unit": "rok-6", "to_hex": "3044", "hexes": 1, "step": "spent"}]
    assert [(c["kind"], c["hex"], c["step"]) for c in answer["piece_changes"]] == [("moved", "3044", "spent")]


@pytest.mark.slow
def test_a_quality_marker_the_combat_orders_is_read_from_the_log(app, client, modules):
    """5.4.2: a natural 10 (or 1) places a quality marker on one of the roller's participating units:
    an order of the ruling (a change 'marked', the owner's), which the log check finds as a marker
    piece of that kind, showing that face, on the unit's hex; a log without it names it."""
    from modgen.pieces import marker_piece

    t, combat = nk_2_beats_rok_6(app, client, modules, lambda o: [p["side"] for p in o["quality_markers_placed"]]
                                 == ["communist"])
    (marked,) = [c for c in combat["piece_changes"] if c["kind"] == "marked"]
    assert marked["unit"] == "nk-2" and marked["applied_by"] == "communist"
    (action,) = marked["actions"]
    assert action["does"] == "place_marker" and action["marker"] == "guards-penal"
    face = list(t.game.markers["guards-penal"].faces).index(action["marker_name"])
    spot = Hand(t.game, t.setup).pieces[Hand(t.game, t.setup).piece("nk-2")]
    piece = marker_piece(t.game, t.game.markers["guards-penal"], ["guards.png", "penal.png"], face=face,
                         map_id=spot.map_id, x=spot.x, y=spot.y)
    placed = [piece.add_piece_command("placed-marker-1")]
    assert verdicts(t.check(t.log(lines(combat), placed))) == [(1, "verified")]
    left = t.check(t.log(lines(combat)))
    assert verdicts(left) == [(1, "not-applied")] and "marker on the hex of NK 2" in left["rulings"][0]["why"]
