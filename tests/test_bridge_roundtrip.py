"""Round trip: every predefined setup modgen writes, read back through the bridge, puts every
unit on its setup hex (or box, or turn-track cell, or the draw pile of its pool) showing its
starting step.

modgen is imported in the tests only (conftest's `modules`): the adjudicator itself must not depend
on it. Each game's module is built once per session (art cached in a session temp dir).
"""

from __future__ import annotations

import pytest

from adjudicator.bridge import read_positions, read_upload
from adjudicator.bridge.locate import BOX, HEX, TURN_TRACK
from scenarios import game_ids, load_game
from scenarios.pools import laid_faces, sealed_pools, shown_contents


def _scenario_params():
    params = []
    for game_id in game_ids():
        try:
            game = load_game(game_id)
        except Exception:  # noqa: BLE001 - a game whose data does not load yet is not tested
            continue
        params += [pytest.param(game_id, s, id=f"{game_id}-{s}") for s in game.scenarios]
    return params


def _check_setup(game, images, entries, scenario_id):
    scenario = game.scenarios[scenario_id]
    positions = read_positions(game, read_upload(entries[f"setups/{scenario_id}.vsav"]))
    assert positions.unidentified == []
    assert positions.scale == images.scale
    units = {u.unit.id: u for u in positions.units}
    markers = {m.piece_id: m for m in positions.markers}
    assert len(units) == len(positions.units), "a unit appears twice"
    expected_units = set()
    sealed = sealed_pools(game, scenario)  # the module shows placeholders; the counters lie in their faces box
    for box_id, counters in laid_faces(game, scenario).items():
        for unit_id in counters:
            assert units[unit_id].location.kind == BOX
            assert (units[unit_id].location.x, units[unit_id].location.y) == images.box_centres[box_id]
            expected_units.add(unit_id)
    for placement in scenario.setup:
        if placement.location.startswith("box:") and placement.location[4:] in sealed:
            continue
        if getattr(placement, "is_marker", False):
            marker = next(m for m in markers.values() if m.marker == placement.marker_id)
            assert marker.face == (placement.step or game.markers[placement.marker_id].faces[0])
            continue
        expected_units.add(placement.unit)
        placed = units[placement.unit]
        unit = game.units[placement.unit]
        assert placed.identified_by == "properties"
        assert placed.step == (placement.step or unit.steps[0].name), placement
        if placement.location.startswith("box:"):
            assert placed.location.kind == BOX
            assert (placed.location.x, placed.location.y) == images.box_centres[placement.location[4:]]
        else:
            label, _, map_hint = placement.location.partition("@")
            assert placed.location.kind == HEX, placement
            assert placed.location.hex == label, placement
            assert placed.location.on_centre
            assert placed.location.map in scenario.maps
            if map_hint:
                assert placed.location.map == map_hint
    for arrival in scenario.schedule:
        if arrival.action != "arrive" or arrival.unit in expected_units:
            continue
        placed = units[arrival.unit]
        assert placed.location.kind == TURN_TRACK
        assert placed.location.scenario == scenario_id
        assert placed.step == (arrival.step or game.units[arrival.unit].steps[0].name)
        expected_units.add(arrival.unit)
    for box_id, contents in shown_contents(game, scenario).items():  # a pool's units lie in its pile
        for unit_id in contents:
            if unit_id in game.units and unit_id not in expected_units:
                placed = units[unit_id]
                assert placed.location.kind == BOX
                assert (placed.location.x, placed.location.y) == images.box_centres[box_id]
                expected_units.add(unit_id)
    assert set(units) == expected_units
    assert positions.scenario_candidates() == [scenario_id]
    by_hex = positions.by_hex()
    assert sum(len(ids) for hexes in by_hex.values() for ids in hexes.values()) == len(positions.on_map())


@pytest.mark.parametrize("game_id,scenario_id", _scenario_params())
def test_every_setup_reads_back_unit_by_unit(modules, game_id, scenario_id):
    game, images, entries = modules[(game_id, 1)]
    _check_setup(game, images, entries, scenario_id)


@pytest.mark.slow
def test_double_size_art_is_detected_and_read_at_its_scale(modules):
    game_id = "holdfast" if "holdfast" in game_ids() else game_ids()[0]
    game, images, entries = modules[(game_id, 2)]
    for scenario_id in game.scenarios:
        _check_setup(game, images, entries, scenario_id)
