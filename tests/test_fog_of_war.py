"""Rulings keep the fog of war (issue 34).

HoldFast Korea: "The only time the opposing player may see the label side of an enemy unit is when
both sides reveal the type of unit for combat." Fire and Ice 12.1.3: Objective marker values are
hidden until revealed. (KWB's Scratch Units, unseen even by their owner, are sealed draws the
adjudicator settles: tests/test_sealed_draws.py.)

Each hidden part of a recorded ruling is a salted commitment in the ledger: the chat lines (what
goes into the log the opponent receives), the ledger and the game page read with the opponent's or
the observer's token show no hidden identity before the rules reveal it; its owner sees his own at
once; everything is revealed, and verifies, when the game is closed.
"""

from __future__ import annotations

import io
import json
import re

import pytest

from adjudicator.testing import bearer, make_app, new_game
from adjudicator.words.names import UnitNames

UN_BLOCKS = ["rok-1", "rok-6"]
COMMUNIST_BLOCKS = ["nkpa-1", "nkpa-3"]
SUPPLY = {"side": "un", "positions": [{"unit": "nkpa-1", "hex": "0818", "step": "3"},
                                      {"unit": "nkpa-3", "hex": "1018", "step": "2"},
                                      {"unit": "rok-1", "hex": "0920", "step": "2"},
                                      {"unit": "rok-6", "hex": "1220", "step": "3"}]}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("fog")).test_client()


def ledger(client, game, role):
    return client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(game["tokens"][role])).get_json()


def names_any(text: str, units: list[str]) -> list[str]:
    """The units `text` names, by id or by the name their counter reads (a transcript's words)."""
    def named(unit: str) -> bool:
        names = {unit} | {UnitNames.of(system).names[unit] for system in ("holdfast", "kwb", "fireandice")
                          if unit in UnitNames.of(system).names}
        return any(re.search(rf"(?<![\w/-]){re.escape(name)}(?![\w-])", text) for name in names)
    return [u for u in units if named(u)]


def game_page(client, game, role) -> str:
    page = client.application.test_client()
    page.log_in(game["game_id"], game["tokens"][role])
    return page.get(f"/games/{game['game_id']}").get_data(as_text=True)


def test_a_holdfast_supply_ruling_shows_each_side_only_its_own_blocks(client):
    game = new_game(client, "holdfast")
    answer = client.post(f"/api/v1/games/{game['game_id']}/supply?transcript=1", json=SUPPLY,
                         headers=bearer(game["tokens"]["un"])).get_json()
    public = json.dumps({k: answer[k] for k in ("request", "outcome", "steps", "warnings")})
    assert names_any(public, UN_BLOCKS + COMMUNIST_BLOCKS) == []  # the record as everyone sees it
    assert names_any("\n".join(answer["transcript"]), UN_BLOCKS + COMMUNIST_BLOCKS) == []  # the log's lines
    mine = json.dumps(answer["as_you_see_it"]) + "\n".join(answer["private_transcript"])
    assert set(names_any(mine, UN_BLOCKS)) == set(UN_BLOCKS) and names_any(mine, COMMUNIST_BLOCKS) == []
    assert client.post("/api/v1/verify", json={"answer": answer}).get_json()["ok"]

    for role, own, others in (("communist", COMMUNIST_BLOCKS, UN_BLOCKS), ("un", UN_BLOCKS, COMMUNIST_BLOCKS),
                              ("observer", [], UN_BLOCKS + COMMUNIST_BLOCKS)):
        document = ledger(client, game, role)
        seen = json.dumps(document)
        assert names_any(seen, others) == [], role
        assert set(names_any(seen, own)) == set(own), role
        page = game_page(client, game, role)
        assert names_any(page, others) == [], role
        assert client.post("/api/v1/verify", json={"ledger": document}).get_json()["ok"]


def test_a_supply_attrition_never_tells_the_opponent_a_hidden_blocks_strength(client):
    """Issue 44: a UN block out of supply loses 1 SP (10); the opponent and the observer read that a UN
    block in that hex is out of supply and loses 1 SP, never how strong it was or is now (Fog of War:
    the label side is shown only when both reveal for combat) — in the record, the ruling's lines and
    its page, live or by e-mail. Its owner reads both strengths."""
    game = new_game(client, "holdfast")
    cut_off = {"side": "un", "positions": [{"unit": "nkpa-1", "hex": "0818", "step": "3"},
                                           {"unit": "rok-1", "hex": "0101", "step": "2"},
                                           {"unit": "rok-6", "hex": "1220", "step": "3"}]}
    answer = client.post(f"/api/v1/games/{game['game_id']}/supply?transcript=1&changes=1", json=cut_off,
                         headers=bearer(game["tokens"]["un"])).get_json()
    assert answer["outcome"]["out_of_supply"] == 1
    public = [step["text"] for step in answer["steps"]] + answer["transcript"]
    (attrition,) = [text for text in public if text.startswith("End of turn")]
    assert attrition == "End of turn: a UN block is out of supply and loses 1 SP: now a UN block."
    assert not [text for text in public if re.search(r"\d+ SP\b", text) and "loses 1 SP" not in text]
    assert "rok-1 (2 SP) is out of supply and loses 1 SP: now rok-1 (1 SP)." in "\n".join(
        s["text"] for s in json.loads(json.dumps(answer["as_you_see_it"]))["steps"])  # the owner's own view
    for role in ("communist", "observer"):
        seen = json.dumps(ledger(client, game, role)) + game_page(client, game, role)
        assert "2 SP" not in seen and "now 1 SP" not in seen and names_any(seen, ["rok-1"]) == [], role


def test_a_combat_reveals_its_blocks_to_both(client):
    game = new_game(client, "holdfast")
    combat = json.loads(open("docs/examples/holdfast/combat.json").read())
    combat.pop("dice", None)
    answer = client.post(f"/api/v1/games/{game['game_id']}/combat?transcript=1", json=combat,
                         headers=bearer(game["tokens"]["communist"])).get_json()
    fighting = [a["unit"] for a in combat["attackers"]] + [combat["defender"]["unit"]]
    assert set(names_any("\n".join(answer["transcript"]), fighting)) == set(fighting)
    assert set(names_any(json.dumps(ledger(client, game, "un")), fighting)) == set(fighting)


def test_a_calculation_posts_lines_everyone_may_see_and_shows_the_asker_its_own(client):
    """A calculation's chat lines go into the log the opponent receives too: in a game with
    hidden units they name none (`transcript`), and the asking side (`?side=`) gets its own
    (`private_transcript`) and the changes to them; the answer's fields stay whole (the caller
    sent every value)."""
    asked = {**SUPPLY, "scenario": "campaign"}
    answer = client.post("/api/v1/systems/holdfast/supply?transcript=1&changes=1&side=un", json=asked).get_json()
    assert names_any("\n".join(answer["transcript"]), UN_BLOCKS + COMMUNIST_BLOCKS) == []
    assert answer["transcript"][0].endswith("Supply for UN: in supply 2, out of supply 0")  # no line per unit in supply
    assert "ROK 1 in 0920" in "\n".join(answer["details"])  # the whole ruling, as the asker may see it
    assert set(names_any("\n".join(answer["details"]), UN_BLOCKS)) == set(UN_BLOCKS)
    assert names_any("\n".join(answer["details"] + answer["private_transcript"]), COMMUNIST_BLOCKS) == []
    assert set(names_any(json.dumps(answer["outcome"]), UN_BLOCKS)) == set(UN_BLOCKS)
    unseen = client.post("/api/v1/systems/holdfast/supply?transcript=1", json=asked).get_json()  # no side: no one's
    assert names_any("\n".join(unseen["private_transcript"] + unseen["details"]), UN_BLOCKS + COMMUNIST_BLOCKS) == []
    combat = json.loads(open("docs/examples/holdfast/combat.json").read())
    fought = client.post("/api/v1/systems/holdfast/combat?transcript=1&side=communist",
                         json={**combat, "dice": [3] * 13}).get_json()
    fighting = [a["unit"] for a in combat["attackers"]] + [combat["defender"]["unit"]]
    assert set(names_any("\n".join(fought["transcript"]), fighting)) == set(fighting)  # combat reveals them
    plain = client.post("/api/v1/systems/spi/supply?transcript=1", json=json.loads(
        open("docs/examples/spi/supply.json").read())).get_json()
    assert "private_transcript" not in plain  # a game without hidden units: as before


def test_closing_reveals_everything_and_it_verifies(client):
    game = new_game(client, "holdfast")
    client.post(f"/api/v1/games/{game['game_id']}/supply", json=SUPPLY, headers=bearer(game["tokens"]["un"]))
    client.post(f"/api/v1/games/{game['game_id']}/close", headers=bearer(game["tokens"]["communist"]))
    document = ledger(client, game, "observer")
    report = client.post("/api/v1/verify", json={"ledger": document}).get_json()
    assert report["ok"], report["problems"]
    revealed = document["records"][-1]["body"]["result"]["revealed"]
    assert set(names_any(json.dumps(revealed), UN_BLOCKS + COMMUNIST_BLOCKS)) == set(UN_BLOCKS + COMMUNIST_BLOCKS)
    page = game_page(client, game, "observer")
    assert set(names_any(page, UN_BLOCKS + COMMUNIST_BLOCKS)) == set(UN_BLOCKS + COMMUNIST_BLOCKS)
    tampered = json.loads(json.dumps(document))
    tampered["records"][-1]["body"]["result"]["revealed"][0]["value"]["hex"] = "0101"
    report = client.post("/api/v1/verify", json={"ledger": tampered}).get_json()
    assert not report["ok"] and {p["code"] for p in report["problems"]} >= {"revealed_mismatch"}


def test_fire_and_ice_objective_draws_are_sealed_dice_and_all(client):
    game = new_game(client, "fireandice")
    answer = client.post(f"/api/v1/games/{game['game_id']}/objective_draw?transcript=1",
                         json={"side": "communist", "count": 3},
                         headers=bearer(game["tokens"]["communist"])).get_json()
    assert all(isinstance(v, dict) and "hidden" in v for v in answer["outcome"].values())
    assert all(str(d["value"]).startswith("hidden:") for d in answer["dice_used"])
    assert not re.search(r"= values: \d", "\n".join(answer["transcript"]))
    client.post(f"/api/v1/games/{game['game_id']}/close", headers=bearer(game["tokens"]["un"]))
    report = client.post("/api/v1/verify", json={"ledger": ledger(client, game, "observer")}).get_json()
    assert report["ok"] and report["dice_recomputed"] == 3, report


def test_the_saved_game_pages_do_not_name_the_enemys_blocks(client, modules):
    data = modules[("holdfast", 1)][2]["setups/campaign.vsav"]
    game = new_game(client, "holdfast", "campaign")
    browser = client.application.test_client()
    browser.post(f"/games/{game['game_id']}", data={"token": game["tokens"]["un"]})
    kept = browser.post(f"/games/{game['game_id']}/savedgame", data={"file": (io.BytesIO(data), "c.vsav")},
                        content_type="multipart/form-data")
    report = browser.get(kept.headers["Location"]).get_data(as_text=True)
    from scenarios import load_game

    units = load_game("holdfast").units
    communist = [u for u, unit in units.items() if unit.side == "communist"]
    un = [u for u, unit in units.items() if unit.side == "un"]
    assert names_any(report, communist) == []
    assert names_any(report, un)  # his own blocks are his to see
    sha = kept.headers["Location"].rsplit("/", 1)[-1].split("?")[0]
    check = browser.get(f"/games/{game['game_id']}/savedgame/{sha}/checks/combat").get_data(as_text=True)
    # The unit pickers list the game's counter manifest (what blocks exist, as the box does): it
    # says nothing of where any block stands, so it is left out of the comparison.
    check = re.sub(r'<datalist.*?</datalist>|<script type="application/json".*?</script>', "", check, flags=re.S)
    assert names_any(check, communist) == []
    assert names_any(check, un)


def test_chances_are_not_a_peek_behind_the_fog(client):
    """The odds of a combat on an enemy block would give its strength away before the attack reveals
    it: a recorded game refuses them; a calculation, which hides nothing, is given them."""
    game = new_game(client, "holdfast")
    combat = json.loads(open("docs/examples/holdfast/combat.json").read())
    refused = client.post(f"/api/v1/games/{game['game_id']}/combat/odds", json=combat,
                          headers=bearer(game["tokens"]["communist"]))
    assert refused.status_code == 422 and refused.get_json()["type"].endswith(":fog-of-war"), refused.get_json()
    calculated = client.post("/api/v1/systems/holdfast/combat/odds", json=combat)  # no game: nothing is hidden
    assert calculated.status_code == 200, calculated.get_json()


def test_kwb_support_fire_draws_are_the_drawers_to_see_until_used(client):
    """KWB 8.1 "Support Fire markers are always drawn randomly from the pool of those available": a recorded
    draw goes into the drawer's hand; the markers and the dice that would tell them are his own to see, the
    opponent's and the observer's ledgers show commitments only; all is revealed, and verifies, at close."""
    from scenarios import load_game

    game = new_game(client, "kwb", "pusan")
    asked = {"side": "communist", "count": 2, "out_of_pool": {"sf-com-3": 1}}
    answer = client.post(f"/api/v1/games/{game['game_id']}/support_fire_draw?transcript=1", json=asked,
                         headers=bearer(game["tokens"]["communist"])).get_json()
    assert all(isinstance(v, dict) and "hidden" in v for v in answer["outcome"].values()), answer
    assert all(str(d["value"]).startswith("hidden:") for d in answer["dice_used"])
    drawn = answer["as_you_see_it"]["outcome"]["markers"]
    assert len(drawn) == 2 and "sf-com-3" not in drawn  # the one out of the pool is not drawn
    markers = [m for m in load_game("kwb").markers if m.startswith("sf-")]
    assert not [m for m in markers if m in "\n".join(answer["transcript"])]  # the log the UN receives
    for role in ("un", "observer"):
        assert not [m for m in markers if m in json.dumps(ledger(client, game, role))], role
    assert set(drawn) <= set(json.dumps(ledger(client, game, "communist")).split('"'))
    client.post(f"/api/v1/games/{game['game_id']}/close", headers=bearer(game["tokens"]["un"]))
    report = client.post("/api/v1/verify", json={"ledger": ledger(client, game, "observer")}).get_json()
    assert report["ok"] and report["dice_recomputed"] == 2, report


def test_one_rule_says_who_may_see_which_unit_and_one_place_words_it():
    """`adjudicator.fog.hidden_side` is the one visibility rule every page, chat line, refusal and
    replay asks; `adjudicator.words.names.unit_as_seen` the one wording of its answer."""
    from adjudicator.fog import Fog, fog_of, hidden_side
    from adjudicator.rules import register_all_games
    from adjudicator.words.names import unit_as_seen

    register_all_games()
    holdfast = fog_of("holdfast")
    assert [hidden_side(holdfast, "rok-1", viewer) for viewer in ("un", "communist", None)] == [None, "un", "un"]
    assert hidden_side(fog_of("kwb"), "nk-83-mot", None) is None and hidden_side(None, "rok-1", None) is None
    unseen = Fog(rule="drawn unseen", noun="unit", unit_owner=lambda unit: "un" if unit == "x" else None, owner_sees=False)
    assert hidden_side(unseen, "x", "un") == "un" and hidden_side(unseen, "y", "communist") is None
    assert unit_as_seen("holdfast", "rok-1", "communist", "0520") == "a UN block in 0520"
    assert unit_as_seen("holdfast", "rok-1", None) == "a UN block"
    assert unit_as_seen("holdfast", "rok-1", "un", "0520") == UnitNames.of("holdfast").name("rok-1") != "rok-1"


def test_the_one_pass_readings_find_exactly_what_asking_id_by_id_finds(client):
    """issue 53: a record's texts are sealed with one pattern of the game's hidden ids, and the blocks a
    value names in the clear looked up in the game's one table of them (`Fog.hidden_units`), not
    by asking the scenario each word or string. Both must find what asking `unit_owner` id by id
    finds, whatever the texts hold: quotes, backslashes, punctuation, ids inside longer words, keys.
    Texts that name no unit to swap but those shown are copied without the pattern (`_names_any`); the
    units a record names in the clear are looked up in its canonical JSON (`named_in_clear`)."""
    import random

    from adjudicator.canonical import canonical_bytes
    from adjudicator.fog import _WORD, _hide, fog_of, hidden_side, named_in_clear, named_units, unit_in_fog

    fog = fog_of("holdfast")
    blocks = sorted(fog.hidden_units())
    pieces = blocks + ['"', "\\", '\\"', ",", ":", "[", "]", "{", "}", " ", "x", "nkpa", "-1", "é", "\n", " (3 SP)"]
    chosen = random.Random(53)

    def text() -> str:
        return "".join(chosen.choice(pieces) for _ in range(chosen.randint(0, 6)))

    def value(depth: int = 0):
        pick = chosen.random()
        if depth > 3 or pick < 0.4:
            return chosen.choice([text(), chosen.choice(blocks), 3, None, True, 1.5])
        if pick < 0.7:
            return [value(depth + 1) for _ in range(chosen.randint(0, 4))]
        return {chosen.choice([text(), chosen.choice(blocks)]): value(depth + 1) for _ in range(chosen.randint(0, 4))}

    def asked(node) -> set[str]:
        if isinstance(node, dict):
            return set().union(*(asked(k) | asked(v) for k, v in node.items()))
        if isinstance(node, list):
            return set().union(*(asked(v) for v in node))
        return {node} if isinstance(node, str) and fog.unit_owner(node) is not None else set()

    def word_by_word(node, viewer, shown=frozenset()):
        if isinstance(node, str):
            def swap(found):
                side = hidden_side(fog, found.group(1), viewer)
                return found.group(0) if side is None or found.group(1) in shown else unit_in_fog(fog, side)
            return _WORD.sub(swap, node)
        if isinstance(node, dict):
            return {word_by_word(k, viewer, shown): word_by_word(v, viewer, shown) for k, v in node.items()}
        return [word_by_word(v, viewer, shown) for v in node] if isinstance(node, list) else node

    for _ in range(1000):
        node = value()
        assert named_units(fog, node) == asked(node), node
        # the kept board's reading, in the node's canonical JSON, of the units a notice may name
        asked_of = chosen.sample(blocks, 5) + list(asked(node))[:2]
        assert named_in_clear(fog, node, canonical_bytes(node), asked_of) == asked(node) & set(asked_of), node
        for viewer in (None, "un"):
            assert _hide(node, fog, viewer, frozenset()) == word_by_word(node, viewer), node
            # the units a ruling revealed stay (a combat's steps naming only its combatants: no pattern run)
            shown = frozenset(chosen.sample(blocks, 3) + list(named_units(fog, node))[:2])
            assert _hide(node, fog, viewer, shown) == word_by_word(node, viewer, shown), (node, shown)
