"""Issue 19 without the engine: cups and random pools become draw piles holding what the scenario
puts in them, every pool piece wears the pool's back, Fire and Ice's combat chits come from their
table, sideways maps get a north arrow and Fire and Ice's China is shaded.  (The engine proves the
rest: tests/test_engine_modules.py.)"""

from __future__ import annotations

import io
import re
import zipfile
from collections import Counter

from lxml import etree

from art.decor import hexes_beyond, map_decor
from modgen.pools import PoolPlan
from scenarios import load_game
from scenarios.model import DRAW_OPEN
from scenarios.pools import pool_contents
from vassalfmt import Obscurable, ReturnToDeck, read_saved_game
from vassalfmt.commands import AddPiece, parse_command, split_commands
from vassalfmt.savedgame import deobfuscate
from vassalfmt.sequence import SequenceDecoder

DRAWPILE = "VASSAL.build.module.map.DrawPile"


def saved_decks(vsav: bytes) -> dict[str, list[str]]:
    """Deck name -> its card ids, from a setup's savedGame commands (``Deck.getType``: the name
    is the 13th field; ``getState``: map, x, y, face down, then the cards)."""
    with zipfile.ZipFile(io.BytesIO(vsav)) as archive:
        text = deobfuscate(archive.read("savedGame"))
    decks = {}
    for command in (parse_command(c.text) for c in split_commands(text)):
        if isinstance(command, AddPiece) and command.type.startswith("deck;"):
            name = SequenceDecoder(command.type, ";")
            fields = [name.next_token("") for _ in range(14)]
            state = command.state.split(";")
            decks[fields[13]] = state[4].split(",") if len(state) > 4 else []
    return decks


def test_every_pool_is_a_face_down_shuffled_pile_and_every_setup_fills_it(modules):
    game, _, entries = modules[("kwb", 1)]
    root = etree.fromstring(entries["buildFile.xml"])
    piles = {p.get("name"): p for p in root.iter(DRAWPILE)}
    pools = [b for b in game.boxes.values() if b.draw]
    assert set(piles) == {b.name for b in pools}
    for box in pools:
        pile = piles[box.name]
        assert (pile.get("faceDown"), pile.get("shuffle")) == ("Always", "Always")
        assert pile.get("drawFaceUp") == str(box.draw == DRAW_OPEN or bool(box.placeholders)).lower()
    for scenario in game.scenarios.values():
        decks = saved_decks(entries[f"setups/{scenario.id}.vsav"])
        for box_id, contents in pool_contents(game, scenario).items():
            box = game.boxes[box_id]
            if contents:
                assert len(decks[box.name]) == len(contents), (scenario.id, box_id)
            else:
                assert box.name not in decks


def test_pool_pieces_show_the_pools_back_and_return_when_the_rules_say(modules):
    game, images, _ = modules[("kwb", 1)]
    plan = PoolPlan.of(game, images.pool_backs)
    secret = plan.traits("marker:sf-com-2")
    mask = next(t for t in secret if isinstance(t, Obscurable))
    assert mask.mask_name == "Com Support Fire" and mask.access.startswith("sides:") and "8.1" in mask.description
    fire = plan.traits("marker:sf-un-2")
    assert next(t for t in fire if isinstance(t, ReturnToDeck)).deck_name == game.boxes["support-fire-pool-un"].name
    assert plan.traits("nk-1") == []


def test_the_scratch_units_are_twelve_alike_counters_that_say_nothing_of_which_is_which(modules):
    """KWB 12.21 "He selects them randomly and may not peek at them": the Seoul setup's pool holds
    twelve placeholders, each the same piece but for its id, with no mask and no value of the counter
    it stands for; the twelve counters lie face up in their own box, apart (which placeholder is which
    of them, the adjudicator draws)."""
    game, images, entries = modules[("kwb", 1)]
    seoul = game.scenarios["seoul"]
    deck = saved_decks(entries["setups/seoul.vsav"])[game.boxes["scratch-units"].name]
    assert sorted(deck) == sorted(f"nk-scratch-{n}" for n in range(1, 13))
    with zipfile.ZipFile(io.BytesIO(entries["setups/seoul.vsav"])) as archive:
        saved = deobfuscate(archive.read("savedGame"))
    counters = pool_contents(game, seoul)["scratch-units"]
    pieces = [parse_command(c.text) for c in split_commands(saved)]
    laid = {p.piece_id: p for p in read_saved_game(entries["setups/seoul.vsav"]).pieces if p.piece_id in counters}
    assert sorted(laid) == sorted(counters)
    assert {(p.map_id, p.x, p.y) for p in laid.values()} == {("Boxes", *images.box_centres["scratch-faces"])}
    placed = [p for p in pieces if isinstance(p, AddPiece) and p.piece_id in deck]
    assert len(placed) == 12
    types = {re.sub(r"nk-scratch-\d+", "nk-scratch-N", p.type) for p in placed}
    assert len(types) == 1  # one definition for all twelve, but for its own id (its image's name says it too)
    (definition,) = types
    for values in {s.text for c in counters for s in game.units[c].steps}:
        assert values not in definition  # 1-1-4, 2-2-4, 0-0-4 ...: not in the piece
    assert "Dummy" not in definition and "obs;" not in definition  # no counter's name, no mask
    assert PoolPlan.of(game, images.pool_backs).traits("nk-scratch-1") == []


def test_fire_and_ice_combat_chits_come_from_their_table_into_their_mugs():
    game = load_game("fireandice")
    table = game.tables["combat_chits"]
    contents = pool_contents(game, game.scenarios["campaign"])
    cups = Counter(row["cup"] for row in table.rows)
    assert len(contents["chits-hasty"]) == cups["hasty"] and len(contents["chits-prepared"]) == cups["prepared"]
    assert game.markers["chit-p01"].faces == ("D10 -1 RE B Spt C Adv 2",)  # the 5.6 example's chit


def test_sideways_maps_get_their_north_and_china_lies_beyond_the_yalu():
    kwb = load_game("kwb")
    assert 60 <= map_decor(kwb, kwb.maps["pusan"]).north <= 120  # columns run south to north
    assert 230 <= map_decor(kwb, kwb.maps["changjin"]).north <= 300  # column 01 is the north edge
    north = map_decor(kwb, kwb.maps["seoul"]).north
    assert min(north, 360 - north) < 20
    fi = load_game("fireandice")
    korea = fi.maps["korea"]
    china = set(hexes_beyond(korea, ("Yalu", "Tumen"), map_decor(fi, korea).north))
    assert china and all(h.row < 30 for h in china)
    assert korea.grid.parse("2549") not in china  # Seoul
