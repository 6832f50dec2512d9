"""The four modules as a player sees them in the real VASSAL engine (issues 19 and 28).

One engine run per module plays every predefined setup and then uses the module's toolbar:

- each setup opens with its own map in the main window (Korean War Battles: Pusan, Seoul or
  Changjin on the one main map), its own turn track and turn, and no other scenario's map, track
  or tracker anywhere; the main map opens on the scenario's units, zoomed to show them;
- the toolbar names everything as a player looks for it: a dice button per roll the rules make,
  each reporting in the chat what it rolled (HoldFast's combat pool asks how many dice), a Notes
  window whose notes are saved with the game, no "Menu", "2d6" or "Chart Window Menu";
- every setup puts its markers on their starting cells; every cup and random pool is a shuffled,
  face-down draw pile whose draws are random and show only as the rules say, and a Korean War
  Battles scratch unit is hidden from the other side and from observers, in the chat too.

The runs skip without VASSAL_ENGINE_JAR.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from modgen.artwork import collect_images
from modgen.buildfile import main_map_name, track_cell_name, turn_track_board_name, turn_track_map_name
from modgen.pieces import unit_piece_name
from modgen.places import locate
from modgen.view import SMALLEST_OPENING_ZOOM, VIEWPORT, start_view
from scenarios import load_game
from scenarios.model import DRAW_OPEN, Box, Game, Scenario
from scenarios.pools import pool_contents, shown_contents

pytestmark = pytest.mark.engine

GAMES = ["kwb", "spi", "fireandice", "holdfast"]
PROPS = ["MarkerId", "UnitId", "Values"]
POOL_DICE = 3  # what the player asks HoldFast's combat pool for
PUBLIC_NOTE = "UN: Pusan holds.\nYour move, turn 2."


@dataclass
class Session:
    """One module played in one engine run: the steps, and which step did what by name."""

    game: Game
    files: Path
    steps: list[dict] = field(default_factory=list)
    at: dict[str, int] = field(default_factory=dict)
    draws: dict[str, Box] = field(default_factory=dict)  # draw step name -> the pool drawn from
    run: object = None

    def add(self, step: dict, name: str = "") -> None:
        if name:
            self.at[name] = len(self.steps)
        self.steps.append(step)

    def result(self, name: str):
        return self.run.result(self.at[name])

    def step(self, name: str) -> dict:
        return self.run.step(self.at[name])


def play_every_setup(s: Session) -> None:
    s.add({"do": "toolbar"}, "toolbar before a game")
    for scenario in s.game.scenarios.values():
        s.add({"do": "setup", "name": scenario.name}, f"setup {scenario.id}")
        s.add({"do": "maps"}, f"maps {scenario.id}")
        s.add({"do": "toolbar"}, f"toolbar {scenario.id}")
        s.add({"do": "pieces", "properties": PROPS}, f"pieces {scenario.id}")


def use_the_toolbar(s: Session) -> None:
    """Every dice button pressed; the notes written, saved with the game and read back."""
    for roll in s.game.rolls:
        if roll.ask:
            s.add({"do": "answer", "answers": [{"title": f"^{re.escape(roll.name)}$", "button": "OK",
                                                "fields": [{"label": "[Nn]umber of dice", "value": str(POOL_DICE)}]}]})
        s.add({"do": "press", "text": roll.name}, f"roll {roll.name}")
    s.add({"do": "answer", "answers": [{"title": "^Notes$", "button": "Save",
                                        "fields": [{"tab": "Public", "value": PUBLIC_NOTE}]}]})
    s.add({"do": "press", "text": "Notes"}, "notes")
    s.add({"do": "save", "file": str(s.files / "game.vsav")})
    s.add({"do": "new_game"})
    s.add({"do": "load", "file": str(s.files / "game.vsav")})
    s.add({"do": "press", "text": "Notes"}, "notes after loading")


def pile_draws(s: Session, scenario: Scenario, to: dict) -> dict[str, Box]:
    """One draw from every pile the scenario fills, by the pile's side; step name -> pool."""
    draws = {}
    for box_id, contents in pool_contents(s.game, scenario).items():
        box = s.game.boxes[box_id]
        if not contents:
            continue
        s.add({"do": "side", "side": s.game.sides[box.side].name if box.side else "observer"})
        s.add({"do": "draw", "deck": box.name, "to": to, "properties": PROPS}, f"draw {box_id}")
        draws[f"draw {box_id}"] = box
    return draws


@pytest.fixture(scope="module")
def sessions(engine, engine_module, tmp_path_factory):
    """Each module played once (one engine run each, started when a test first asks for it)."""
    played: dict[str, Session] = {}

    def session(game_id: str) -> Session:
        if game_id in played:
            return played[game_id]
        s = Session(load_game(game_id), tmp_path_factory.mktemp(f"module-{game_id}"))
        play_every_setup(s)
        use_the_toolbar(s)
        if game_id == "fireandice":
            fire_and_ice_cups(s)
        elif game_id == "kwb":
            korean_war_battles_pools(s)
        s.run = engine(engine_module(game_id), s.steps, timeout=900)
        assert s.run.ok, s.run.failure()
        played[game_id] = s
        return s

    return session


def fire_and_ice_cups(s: Session) -> None:
    campaign = next(iter(s.game.scenarios.values()))
    s.add({"do": "setup", "name": campaign.name})
    s.add({"do": "pieces", "properties": PROPS}, "piles")
    to = {"map": main_map_name(s.game), "location": "2549"}
    s.add({"do": "draw", "deck": s.game.boxes["chits-hasty"].name, "to": to, "count": 4, "properties": PROPS},
          "four chits")
    s.draws = pile_draws(s, campaign, to)
    s.add({"do": "pieces", "properties": PROPS, "as": "observer"}, "seen by an observer")


def korean_war_battles_pools(s: Session) -> None:
    seoul = s.game.scenarios["seoul"]
    s.add({"do": "setup", "name": seoul.name})
    s.add({"do": "pieces", "properties": PROPS}, "piles")
    to = {"map": main_map_name(s.game), "location": "0905"}
    s.add({"do": "side", "side": "Communist"})
    s.add({"do": "draw", "deck": s.game.boxes["scratch-units"].name, "to": to, "count": 4, "properties": PROPS},
          "four chits")
    s.draws = pile_draws(s, seoul, to)
    s.add({"do": "side", "side": "Communist"})
    s.add({"do": "pieces", "properties": PROPS, "as": "United Nations"}, "seen by the UN")
    s.add({"do": "pieces", "properties": PROPS, "as": "observer"}, "seen by an observer")
    s.add({"do": "pieces", "properties": PROPS}, "seen by the Communist")


# ---- what a player sees of each setup ------------------------------------------------------------

def unexpected_problems(s: Session) -> list[dict]:
    """Every warning, error, bug report and dialog of the run but the dialogs the toolbar
    opened on purpose (the combat pool's question, the notes window)."""
    opened = {"Notes", *(roll.name for roll in s.game.rolls if roll.ask)}
    return [p for p in s.run.problems() if not (p["kind"] == "dialogs" and p["title"] in opened)]


def maps_by_name(s: Session, scenario: Scenario) -> dict[str, dict]:
    return {m["name"]: m for m in s.result(f"maps {scenario.id}")["maps"]}


def on_map_units(game: Game, scenario: Scenario, images) -> list[tuple[int, int]]:
    """Where the scenario's setup puts pieces on its hex map (map pixels)."""
    spots = (locate(game, scenario, p.location, images) for p in scenario.setup)
    return [(spot.x, spot.y) for spot in spots if spot is not None and spot.map_name == main_map_name(game)]


@pytest.mark.parametrize("game_id", GAMES)
def test_each_setup_opens_with_its_own_map_track_and_turn(sessions, game_id):
    s = sessions(game_id)
    game = s.game
    assert unexpected_problems(s) == []
    for scenario in game.scenarios.values():
        maps = maps_by_name(s, scenario)
        (main,) = [m for m in maps.values() if m["main_window"]]
        assert main["name"] == main_map_name(game) and main["showing"]
        assert main["boards"] == [game.maps[scenario.maps[0]].name], scenario.id
        track = maps[turn_track_map_name(game)]
        assert track["boards"] == [turn_track_board_name(scenario)], scenario.id
        # Nothing of another scenario: no other map window, board, turn track or tracker.
        assert set(maps) == {main_map_name(game), turn_track_map_name(game), "Boxes"} | (
            {"Tracks"} if game.tracks else set())
        buttons = [b for b in s.result(f"toolbar {scenario.id}")["buttons"] if b["showing"]]
        others = [o.name for o in game.scenarios.values() if o is not scenario]
        assert not [b["text"] for b in buttons if any(o in (b["text"] or "") for o in others)]
        turn = next(b for b in buttons if b["text"] == "Turn")
        first = scenario.turns[0]
        assert turn["tooltip"].startswith(f"Turn {first.number} ({first.date})" if first.date else f"Turn {first.number}")
        # Every unit the setup puts on the map stands on the main map.
        pieces = s.result(f"pieces {scenario.id}")["pieces"]
        units = [p for p in pieces if p["properties"]["UnitId"] and p["map"] == main["name"]]
        expected = sum(1 for p in scenario.setup if not p.is_marker and p.is_on_map)
        assert len(units) == expected, scenario.id


@pytest.mark.parametrize("game_id", GAMES)
def test_the_main_map_opens_on_the_scenarios_units(sessions, game_id, tmp_path_factory):
    """Not at full size on an empty corner: centred where the setup's view says, at its zoom
    (the largest that shows the units in a 1280 x 720 window, never below 0.4 so counters stay
    readable); units that fit such a window are all in view, and a spread-out setup shows a
    good part of its units."""
    s = sessions(game_id)
    images = collect_images(s.game, cache_dir=tmp_path_factory.mktemp("view-art"))
    for scenario in s.game.scenarios.values():
        main = maps_by_name(s, scenario)[main_map_name(s.game)]
        view = start_view(s.game, scenario, images)
        assert main["zoom"] == view.zoom, scenario.id
        x, y, width, height = main["view"]
        map_width, map_height = main["size"]
        # The engine centred the view on the setup's point, as far as the map's edges allow.
        assert abs(x + width / 2 - min(max(view.x, width / 2), map_width - width / 2)) <= 2 or width >= map_width
        assert abs(y + height / 2 - min(max(view.y, height / 2), map_height - height / 2)) <= 2 or height >= map_height
        units = on_map_units(s.game, scenario, images)
        seen = [u for u in units if x <= u[0] <= x + width and y <= u[1] <= y + height]
        xs, ys = [u[0] for u in units], [u[1] for u in units]
        margin = 2 * s.game.maps[scenario.maps[0]].grid.dy
        fits = (max(xs) - min(xs) + margin) * view.zoom <= VIEWPORT[0] and \
            (max(ys) - min(ys) + margin) * view.zoom <= VIEWPORT[1]
        if fits:
            assert len(seen) == len(units), (scenario.id, main["view"])
        else:
            assert view.zoom == SMALLEST_OPENING_ZOOM and len(seen) >= len(units) // 3, \
                (scenario.id, main["view"], len(seen), len(units))
        assert main["pieces_in_view"] > 0


@pytest.mark.parametrize("game_id", GAMES)
def test_the_toolbar_names_what_a_player_looks_for(sessions, game_id):
    s = sessions(game_id)
    scenario = next(iter(s.game.scenarios.values()))
    showing = {b["text"]: b for b in s.result(f"toolbar {scenario.id}")["buttons"] if b["showing"] and b["text"]}
    assert not {"Menu", "2d6", "Chart Window Menu"} & set(showing)
    expected = {"Boxes", "Counters", "Turn", "Charts", "Inventory", "Notes", "Scenario view",
                turn_track_map_name(s.game), *(roll.name for roll in s.game.rolls)}
    assert expected <= set(showing), expected - set(showing)
    for roll in s.game.rolls:
        assert roll.uses in showing[roll.name]["tooltip"]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_dice_button_rolls_its_dice_and_says_so(sessions, game_id):
    s = sessions(game_id)
    for roll in s.game.rolls:
        (line,) = s.step(f"roll {roll.name}")["chat"]
        count = POOL_DICE if roll.ask else roll.count
        label = f"{roll.name}: {count}d{roll.sides}" if roll.ask else (
            roll.name if roll.name == roll.dice else f"{roll.name} ({roll.dice})")
        found = re.fullmatch(rf"\*+ {re.escape(label)} = ([0-9,]+) \*+ <.*>", line)
        assert found, line
        dice = [int(d) for d in found.group(1).split(",")]
        assert len(dice) == count and all(1 <= d <= roll.sides for d in dice), line
        if roll.ask:
            assert s.step(f"roll {roll.name}")["dialogs"][0]["answered"] == "OK"
            assert dice == sorted(dice)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_notes_window_holds_the_scenarios_notes_and_saves_a_public_note(sessions, game_id):
    s = sessions(game_id)
    last = list(s.game.scenarios.values())[-1]
    (written,) = s.step("notes")["dialogs"]
    assert written["title"] == "Notes" and written["answered"] == "Save"
    for tab in ("Scenario", "Public", "Private", "Delayed"):
        assert f"[tab] {tab}" in written["text"]
    assert last.name in written["text"] and last.description.split(".")[0] in written["text"]
    (read_back,) = s.step("notes after loading")["dialogs"]
    assert PUBLIC_NOTE in read_back["text"]


# ---- markers, cups and hidden pieces --------------------------------------------------------------

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


@pytest.mark.parametrize("game_id", GAMES)
def test_every_setup_places_its_markers(sessions, game_id):
    s = sessions(game_id)
    for scenario in s.game.scenarios.values():
        pieces = s.result(f"pieces {scenario.id}")["pieces"]
        seen = Counter((p["properties"]["MarkerId"], p["location"]) for p in pieces if p["properties"]["MarkerId"])
        want = expected_markers(s.game, scenario)
        assert want, scenario.id
        assert seen & want == want, (scenario.id, want - seen)


@pytest.mark.parametrize("game_id", ["fireandice", "kwb"])
def test_cups_are_shuffled_face_down_piles_drawn_at_random(sessions, game_id):
    s = sessions(game_id)
    scenario = next(iter(s.game.scenarios.values())) if game_id == "fireandice" else s.game.scenarios["seoul"]
    decks = {d["name"]: d for d in s.result("piles")["decks"]}
    assert_piles_face_down_and_shuffled(s.game, scenario, decks)
    pile = s.game.boxes["chits-hasty" if game_id == "fireandice" else "scratch-units"].name
    assert_draw_is_random(decks[pile], s.result("four chits")["drawn"])
    if game_id == "fireandice":
        assert {b.id for b in s.draws.values()} == {b.id for b in s.game.boxes.values() if b.draw}
    assert_draws_show_as_the_rules_say(s, s.draws)


def test_the_cups_sit_on_top_of_a_boxes_board_wider_than_tall(sessions):
    """Fire and Ice has 58 boxes: laid out in rows a window's shape, the cups first."""
    s = sessions("fireandice")
    boxes = maps_by_name(s, next(iter(s.game.scenarios.values())))["Boxes"]
    width, height = boxes["size"]
    assert width > height
    for deck in s.result("piles")["decks"]:
        assert deck["map"] == "Boxes" and deck["y"] < height // 3, deck["name"]


def test_a_scratch_unit_is_the_same_placeholder_to_everyone_and_names_no_counter(sessions):
    """KWB 12.21 "He selects them randomly and may not peek at them": a drawn Scratch Unit is the '? 4'
    placeholder to its owner, the other side and an observer alike; which counter it is, nobody knows
    (the adjudicator draws it when its hex is attacked), and no chat line names one."""
    s = sessions("kwb")
    counters = [u for u in s.game.units.values() if u.has("scratch")]
    for drawn in s.result("four chits")["drawn"]:
        for view in ("seen by the Communist", "seen by the UN", "seen by an observer"):
            seen = {p["id"]: p for p in s.result(view)["pieces"]}[drawn["id"]]
            assert not seen["obscured"] and seen["name"] == "NK Scratch Unit (? 4)", view
            assert seen["properties"]["Values"] == "?-?-4" and seen["properties"]["UnitId"].startswith("nk-scratch-")
            assert seen["properties"]["UnitId"] not in {u.id for u in counters}
    for line in s.run.chat():
        assert not [u.name for u in counters if u.name in line], line


def assert_piles_face_down_and_shuffled(game: Game, scenario: Scenario, decks: dict[str, dict]) -> None:
    """Every pile the scenario fills holds all it should, shuffled and face down: each piece
    shows the pool's back (a sealed pool's: its placeholder, the same to everyone)."""
    for box_id, contents in shown_contents(game, scenario).items():
        box = game.boxes[box_id]
        if contents:
            deck = decks[box.name]
            assert (deck["count"], deck["face_down"], deck["shuffle"]) == (len(contents), True, "Always"), box.id
            shown = {unit_piece_name(game, game.units[u]) for u in contents} if box.placeholders else {box.back}
            assert {p["name"] for p in deck["pieces"]} == shown, box.id


def assert_draw_is_random(deck: dict, drawn: list[dict]) -> None:
    """A pile that dealt from the top would give its first pieces in order; a shuffled pile
    gives these four in this order with a chance below 1 in 10,000."""
    assert len(drawn) == 4 and deck["count"] >= 9
    tops = [p["id"] for p in deck["pieces"][:4]]
    assert [p["id"] for p in drawn] != tops


def assert_draws_show_as_the_rules_say(s: Session, draws: dict[str, Box]) -> None:
    """The drawer sees what it drew.  An open pool's piece is face up for everyone; a secret or
    unseen pool's piece shows observers only the pool's back, and no chat line names it."""
    seen = {p["id"]: p for p in s.result("seen by an observer")["pieces"]}
    for name, box in draws.items():
        (piece,) = s.result(name)["drawn"]
        assert not piece["obscured"], box.id
        if box.draw == DRAW_OPEN or box.placeholders:  # a placeholder is the same to everyone: nothing to hide
            assert not seen[piece["id"]]["obscured"], box.id
            continue
        assert seen[piece["id"]]["obscured"] and seen[piece["id"]]["name"] == box.back, box.id
        for line in s.run.chat():
            assert piece["name"] not in line, (box.id, line)
