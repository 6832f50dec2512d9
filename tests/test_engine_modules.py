"""The four modules in the real VASSAL engine (issue 19): every setup puts its markers on their
starting cells, every cup and random pool is a shuffled, face-down draw pile whose draws are random
and show only as the rules say, and a Korean War Battles scratch unit is hidden from the other side
and from observers, in the chat too.

One engine run per module (all its setups and draws in it); they skip without VASSAL_ENGINE_JAR.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from modgen.buildfile import track_cell_name
from scenarios import load_game
from scenarios.model import DRAW_OPEN, Box, Game, Scenario
from scenarios.pools import pool_contents

pytestmark = pytest.mark.engine

PROPS = ["MarkerId", "UnitId", "Values"]


def expected_location(game: Game, location: str) -> str:
    """The engine's location name of a setup location."""
    if location.startswith("track:"):
        track_id, _, cell = location[len("track:"):].partition(":")
        return track_cell_name(game.tracks[track_id], cell)
    if location.startswith("turn:"):
        return f"Turn {location[len('turn:'):]}"
    if location.startswith("box:"):
        return game.boxes[location[len("box:"):]].name
    return location.split("@", 1)[0]


def expected_markers(game: Game, scenario: Scenario) -> Counter:
    pools = {box.id for box in game.boxes.values() if box.draw}
    return Counter((p.marker_id, expected_location(game, p.location)) for p in scenario.setup
                   if p.is_marker and p.location[len("box:"):] not in pools)


def setup_steps(game: Game) -> list[dict]:
    steps = []
    for scenario in game.scenarios.values():
        steps += [{"do": "setup", "name": scenario.name}, {"do": "pieces", "properties": PROPS}]
    return steps


def assert_markers_in_place(run, game: Game) -> None:
    for index, scenario in enumerate(game.scenarios.values()):
        pieces = run.result(2 * index + 1)["pieces"]
        seen = Counter((p["properties"]["MarkerId"], p["location"]) for p in pieces if p["properties"]["MarkerId"])
        want = expected_markers(game, scenario)
        assert want, scenario.id
        assert seen & want == want, (scenario.id, want - seen)


def pile_draws(game: Game, scenario: Scenario, to: dict, first: int) -> tuple[list[dict], dict[int, Box]]:
    """One draw from every pile the scenario fills, by the pile's side; the steps and, by step
    index (counted from ``first``), the pool each draw came from."""
    steps: list[dict] = []
    draws: dict[int, Box] = {}
    for box_id, contents in pool_contents(game, scenario).items():
        box = game.boxes[box_id]
        if not contents:
            continue
        steps.append({"do": "side", "side": game.sides[box.side].name if box.side else "observer"})
        draws[first + len(steps)] = box
        steps.append({"do": "draw", "deck": box.name, "to": to, "properties": PROPS})
    return steps, draws


@pytest.mark.parametrize("game_id", ["spi", "holdfast"])
def test_every_setup_places_its_markers(engine, engine_module, game_id):
    game = load_game(game_id)
    run = engine(engine_module(game_id), setup_steps(game), timeout=400)
    assert run.ok, run.failure()
    assert run.problems() == []
    assert_markers_in_place(run, game)


def test_fire_and_ice_markers_and_cups(engine, engine_module):
    game = load_game("fireandice")
    campaign = next(iter(game.scenarios.values()))
    steps = setup_steps(game) + [{"do": "setup", "name": campaign.name}, {"do": "pieces", "properties": PROPS}]
    first_draw = len(steps)
    to = {"map": game.maps[campaign.maps[0]].name, "location": "2549"}
    hasty = game.boxes["chits-hasty"].name
    steps += [{"do": "draw", "deck": hasty, "to": to, "count": 4, "properties": PROPS}]
    more, draws = pile_draws(game, campaign, to, len(steps))
    steps += more + [{"do": "pieces", "properties": PROPS, "as": "observer"}]
    run = engine(engine_module("fireandice"), steps, timeout=600)
    assert run.ok, run.failure()
    assert run.problems() == []
    assert_markers_in_place(run, game)
    decks = {d["name"]: d for d in run.result(first_draw - 1)["decks"]}
    assert_piles_face_down_and_shuffled(game, campaign, decks)
    assert_draw_is_random(decks[hasty], run.result(first_draw)["drawn"])
    assert {b.id for b in draws.values()} == {b.id for b in game.boxes.values() if b.draw}
    assert_draws_show_as_the_rules_say(run, draws, len(steps) - 1)


def test_korean_war_battles_markers_cups_and_hidden_scratch_units(engine, engine_module):
    game = load_game("kwb")
    seoul = game.scenarios["seoul"]
    steps = setup_steps(game) + [{"do": "setup", "name": seoul.name}, {"do": "pieces", "properties": PROPS}]
    first_draw = len(steps)
    to = {"map": game.maps["seoul"].name, "location": "0905"}
    steps += [{"do": "side", "side": "Communist"},
              {"do": "draw", "deck": game.boxes["scratch-units"].name, "to": to, "count": 4, "properties": PROPS}]
    more, draws = pile_draws(game, seoul, to, len(steps))
    steps += more + [{"do": "side", "side": "Communist"}]
    viewers = len(steps)
    steps += [{"do": "pieces", "properties": PROPS, "as": "United Nations"},
              {"do": "pieces", "properties": PROPS, "as": "observer"},
              {"do": "pieces", "properties": PROPS}]
    run = engine(engine_module("kwb"), steps, timeout=600)
    assert run.ok, run.failure()
    assert run.problems() == []
    assert_markers_in_place(run, game)
    decks = {d["name"]: d for d in run.result(first_draw - 1)["decks"]}
    assert_piles_face_down_and_shuffled(game, seoul, decks)
    scratch = run.result(first_draw + 1)["drawn"]
    assert_draw_is_random(decks[game.boxes["scratch-units"].name], scratch)
    assert_draws_show_as_the_rules_say(run, draws, viewers + 1)
    # The drawer's side sees its scratch units; the other side and observers see "NK ?-4" and "?".
    own = {p["id"]: p for p in run.result(viewers + 2)["pieces"]}
    for drawn in scratch:
        assert not own[drawn["id"]]["obscured"] and own[drawn["id"]]["name"].startswith("NK Scratch Unit")
        for view in (viewers, viewers + 1):
            seen = {p["id"]: p for p in run.result(view)["pieces"]}[drawn["id"]]
            assert seen["obscured"] and seen["name"] == "NK ?-4", run.result(view)["as"]
            assert seen["properties"]["Values"] == "?"
    for line in run.chat():  # the pile's own name ("NK Scratch Units (...)") may appear
        assert not re.search(r"NK Scratch Unit(?!s)|Dummy", line), line


def assert_piles_face_down_and_shuffled(game: Game, scenario: Scenario, decks: dict[str, dict]) -> None:
    """Every pile the scenario fills holds all it should, shuffled and face down: each piece
    shows the pool's back."""
    for box_id, contents in pool_contents(game, scenario).items():
        box = game.boxes[box_id]
        if contents:
            deck = decks[box.name]
            assert (deck["count"], deck["face_down"], deck["shuffle"]) == (len(contents), True, "Always"), box.id
            assert {p["name"] for p in deck["pieces"]} == {box.back}, box.id


def assert_draw_is_random(deck: dict, drawn: list[dict]) -> None:
    """A pile that dealt from the top would give its first pieces in order; a shuffled pile
    gives these four in this order with a chance below 1 in 10,000."""
    assert len(drawn) == 4 and deck["count"] >= 9
    tops = [p["id"] for p in deck["pieces"][:4]]
    assert [p["id"] for p in drawn] != tops


def assert_draws_show_as_the_rules_say(run, draws: dict[int, Box], observer: int) -> None:
    """The drawer sees what it drew.  An open pool's piece is face up for everyone; a secret or
    unseen pool's piece shows observers only the pool's back, and no chat line names it."""
    seen = {p["id"]: p for p in run.result(observer)["pieces"]}
    for index, box in draws.items():
        (piece,) = run.result(index)["drawn"]
        assert not piece["obscured"], box.id
        if box.draw == DRAW_OPEN:
            assert not seen[piece["id"]]["obscured"], box.id
            continue
        assert seen[piece["id"]]["obscured"] and seen[piece["id"]]["name"] == box.back, box.id
        for line in run.chat():
            assert piece["name"] not in line, (box.id, line)
