"""Live play over a VASSAL server (issue 44): the server's part.

Two players at one board, one ledger, each player's own log:

* a player who was not there when a ruling was posted (his room connection down, or he joins late)
  catches up from the ledger: `GET /games/<id>/rulings` gives each ruling as its check answered,
  the very lines its asker's VASSAL posted, with the hidden parts his own side may see;
* the log check takes the two players' logs kept at the same time (one live session) each alone and
  as one session, and still names a re-roll, a missing file and a forged line
  (tests/test_log_chain.py: the e-mail chain);
* the ledger's view of a unit, not a stale board, is what the next ruling is read against.

The VASSAL side (two and three real Players in one room of VASSAL's own server) is
tests/test_vassal_live_play.py.
"""

from __future__ import annotations

import pytest

from adjudicator.testing import bearer, make_app, new_game

SUPPLY = {"side": "un", "positions": [{"unit": "nkpa-1", "hex": "0818", "step": "3"},
                                      {"unit": "rok-1", "hex": "0101", "step": "2"},
                                      {"unit": "rok-6", "hex": "1220", "step": "3"}]}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("live")).test_client()


def rulings(client, game, role, query=""):
    return client.get(f"/api/v1/games/{game['game_id']}/rulings{query}", headers=bearer(game["tokens"][role]))


def test_a_player_catches_up_the_rulings_as_they_were_posted_with_his_own_sides_view(client):
    game = new_game(client, "holdfast")
    url = f"/api/v1/games/{game['game_id']}"
    asked = [client.post(f"{url}/supply?transcript=1&changes=1", json=SUPPLY, headers=bearer(game["tokens"]["un"]))
             .get_json() for _ in range(3)]
    assert [a["seq"] for a in asked] == [1, 2, 3]

    mine = rulings(client, game, "un", "?transcript=1&changes=1").get_json()
    assert [r["seq"] for r in mine["rulings"]] == [1, 2, 3] and mine["next"] is None and mine["since"] == 0
    first = mine["rulings"][0]
    assert first["transcript"] == asked[0]["transcript"]  # the very lines the asker's VASSAL posted
    assert first["private_transcript"] == asked[0]["private_transcript"]  # his own blocks, as his side sees them
    assert first["piece_changes"] == asked[0]["piece_changes"] and first["receipt"] == asked[0]["receipt"]
    assert "ROK 1 (0101) out of supply" in "\n".join(first["private_transcript"])

    theirs = rulings(client, game, "communist", "?transcript=1&changes=1").get_json()["rulings"][0]
    assert theirs["transcript"] == asked[0]["transcript"]  # everyone's lines are everyone's
    assert "ROK 1" not in "\n".join(theirs["private_transcript"] + theirs["details"])  # the fog: not his to see
    assert theirs["piece_changes"] == []  # the block it reduces is not his to know of, nor to change
    observer = rulings(client, game, "observer", "?transcript=1").get_json()["rulings"][0]
    assert "ROK 1" not in "\n".join(observer["private_transcript"] + observer["details"])

    paged = rulings(client, game, "communist", "?since=1&limit=1").get_json()
    assert [r["seq"] for r in paged["rulings"]] == [2] and paged["next"] == 2 and "transcript" not in paged["rulings"][0]
    assert [r["seq"] for r in rulings(client, game, "communist", "?since=2").get_json()["rulings"]] == [3]
    assert rulings(client, game, "communist", "?since=3").get_json() == {
        "game_id": game["game_id"], "since": 3, "rulings": [], "next": None}


def test_the_rulings_list_refuses_what_it_cannot_answer(client):
    game = new_game(client, "holdfast")
    for query in ("?since=-1", "?since=x", "?limit=0", "?limit=101"):
        refused = rulings(client, game, "un", query)
        assert refused.status_code == 400 and refused.get_json()["type"].endswith(":bad-parameter"), query
    assert client.get(f"/api/v1/games/{game['game_id']}/rulings").status_code == 401
    other = new_game(client, "holdfast")
    assert client.get(f"/api/v1/games/{game['game_id']}/rulings", headers=bearer(other["tokens"]["un"])).status_code == 403
    assert client.post(f"/api/v1/games/{game['game_id']}/rulings", json={},
                       headers=bearer(game["tokens"]["un"])).status_code in (404, 405)


# -- the log check: each player's own log of one live session ---------------------------------------

from tests.test_log_chain import Game, session  # noqa: E402  (the e-mail chain's helpers)

LIVE = "live01sitting"


def live(sid: str, parent: str | None, file: int, start: str) -> dict:
    return {**session(sid, parent, file, start), "live": LIVE}


@pytest.fixture(scope="module")
def setup(modules) -> bytes:
    return modules[("kwb", 1)][2]["setups/pusan.vsav"]


class Sitting:
    """Alice (Communist, the room's owner) and Bob (UN) at one board (KWB, Pusan), each keeping his
    own log: Alice's a1 from the setup; Bob's b1 begun after he synchronised from her (its parent is
    her session, the position's); Bob drops, Alice rolls, Bob returns, synchronises again and begins
    b2, where the ruling made while he was away is delivered (caught up from the ledger)."""

    def __init__(self, client, setup):
        g = self.g = Game(client)
        self.a1 = live("a1", None, 1, "00" * 16)
        self.b1 = live("b1", "a1", 2, "11" * 16)
        self.b2 = live("b2", "a1", 2, "22" * 16)
        r1 = g.roll("communist", self.a1)
        r2, r3, r4 = g.roll("un", self.b1), g.roll("communist", self.a1), g.roll("un", self.b1)
        r5 = g.roll("communist", self.a1)  # Bob's room connection is down
        r6 = g.roll("un", self.b2)
        self.rulings = (r1, r2, r3, r4, r5, r6)
        self.alice = g.log(setup, self.a1, [], r1, r2, r3, r4, r5, r6)  # every ruling reached her log live
        self.bob1 = g.log(setup, self.b1, ["a1"], r2, r3, r4)
        self.bob2 = g.log(setup, self.b2, ["a1"], r5, r6)  # r5 caught up after his return


@pytest.fixture
def sitting(client, setup):
    return Sitting(client, setup)


def test_each_players_log_of_a_live_session_passes_alone_and_with_the_others(sitting):
    g = sitting
    for number, log in enumerate((g.alice, g.bob1, g.bob2), start=1):
        report = g.g.check(log)
        assert report["ok"], (number, report)
        assert report["rerolls"] == [] and report["hidden"] == [] and report["breaks"] == []
        assert report["files"][0]["live"] == LIVE
    for files in ((g.alice, g.bob1), (g.bob1, g.alice), (g.alice, g.bob1, g.bob2), (g.alice, g.bob2)):
        report = g.g.check(*files)
        assert report["ok"] and report["breaks"] == [] and report["missing_files"] == [], report
    his_first = g.g.check(g.bob1)  # his honest ruling after his return is no re-roll of his first log
    r6 = g.rulings[5]["seq"]
    (later,) = [e for e in his_first["elsewhere"] if e["seq"] == r6]
    assert "UN player's log session b2 of the live session this file was kept in" in later["why"]


def test_a_partners_ruling_a_log_does_not_show_is_named_and_held_only_against_the_files_sent(client, setup):
    g = Game(client)
    a1, b1 = live("a1", None, 1, "00" * 16), live("b1", "a1", 2, "11" * 16)
    r1, r2 = g.roll("communist", a1), g.roll("un", b1)
    alice = g.log(setup, a1, [], r1)  # her connection was down: Bob's ruling never reached her log
    alone = g.check(alice)
    assert alone["ok"]
    (named,) = alone["elsewhere"]
    assert named["seq"] == r2["seq"] and "this file does not show it" in named["why"]
    bob = g.log(setup, b1, ["a1"], r2)
    assert g.check(alice, bob)["ok"]  # his log shows it
    third = g.log(setup, live("c1", "a1", 2, "33" * 16), ["a1"], r1)
    report = g.check(alice, third)  # the pair without Bob's log: a file is missing
    assert not report["ok"] and [m["seq"] for m in report["missing_files"]] == [r2["seq"]]
    assert "his log is not among those sent" in report["missing_files"][0]["why"]


def test_a_re_roll_made_in_live_play_is_named_though_the_partners_log_shows_it(client, setup):
    """Bob asks r3 in his log b2, dislikes it, synchronises again from Alice (nothing moved: the same
    position) and begins b3, where he asks again. Alice's log shows both rulings (live); Bob sends
    b1 and b3. The check names r3 a re-roll, in the chain and in his file alone."""
    g = Game(client)
    a1, b1 = live("a1", None, 1, "00" * 16), live("b1", "a1", 2, "11" * 16)
    b2, b3 = live("b2", "a1", 2, "22" * 16), live("b3", "a1", 2, "22" * 16)
    r1, r2 = g.roll("communist", a1), g.roll("un", b1)
    r3 = g.roll("un", b2)
    r4 = g.roll("un", b3)
    alice = g.log(setup, a1, [], r1, r2, r3, r4)
    bob1, bob3 = g.log(setup, b1, ["a1"], r2), g.log(setup, b3, ["a1"], r4)
    chain = g.check(alice, bob1, bob3)
    assert not chain["ok"] and [r["seq"] for r in chain["rerolls"]] == [r3["seq"]], chain
    assert "same position as file 3's log" in chain["rerolls"][0]["why"] and "partner's log shows it" in \
        chain["rerolls"][0]["why"]
    alone = g.check(bob3)
    assert not alone["ok"] and [r["seq"] for r in alone["rerolls"]] == [r3["seq"]]
    assert g.check(alice, bob1)["ok"]  # Alice is not blamed for it: b3 is not among her files
    forged = g.log(setup, b3, ["a1"], {**r4, "transcript": [line.replace(f"#{r4['seq']}]", "#99]") for line in
                                                          r4["transcript"]]})
    assert [r["status"] for r in g.check(forged)["rulings"]] == ["forged"]


def test_a_file_of_another_sitting_or_chain_still_breaks_the_chain(client, setup):
    g = Game(client)
    a1 = live("a1", None, 1, "00" * 16)
    r1 = g.roll("communist", a1)
    alice = g.log(setup, a1, [], r1)
    stranger = session("x1", "zz", 5)  # kept alone, continuing a session not sent
    r2 = g.roll("un", stranger)
    report = g.check(alice, g.log(setup, stranger, ["zz"], r2))
    assert any("does not continue" in b for b in report["breaks"]), report["breaks"]
    email = session("a2", "a1", 2)  # after the sitting, by e-mail: continues it
    r3 = g.roll("un", email)
    assert g.check(alice, g.log(setup, email, ["a1"], r3))["ok"]


def test_a_log_begun_before_the_game_went_live_says_its_live_session_when_it_does(client, setup):
    from adjudicator.words.transcript import parse_session_line, session_line
    from vassalfmt import continue_log
    from vassalfmt.commands import chat_command

    g = Game(client)
    before = session("a1", None, 1, "00" * 16)
    r1 = g.roll("communist", before)  # alone, before the room
    r2 = g.roll("communist", {**before, "live": LIVE})  # in the room: the same session, now live
    first, second = session_line(g.game["game_id"], before, []), session_line(g.game["game_id"], {**before, "live": LIVE}, [])
    assert parse_session_line(second).live == LIVE and parse_session_line(first).live is None
    assert second.endswith(f"live session {LIVE}, after the setup")
    log = continue_log(setup, [chat_command(line) for line in [first, *r1["transcript"], second, *r2["transcript"]]])
    report = g.check(log)
    assert report["ok"] and report["files"][0]["session"] == "a1" and report["files"][0]["live"] == LIVE


# -- the ledger's view of a unit, not the stale board -----------------------------------------------

ROK_CAP_ATTACKED = {"turn": 6, "weather": "clear", "attackers": [{"unit": "nkpa-1", "sp": 3, "across_river": False}],
                    "defender": {"unit": "rok-cap", "sp": 3}, "defender_terrain": "clear", "coastal": False,
                    "attacker_support": [], "defender_support": []}


def test_a_hidden_block_left_unapplied_on_the_board_is_read_against_the_ledger(tmp_path):
    """The live case of issue 44: ROK Cap (a UN block, hidden from the Communist asker) goes to 1 SP in
    #1; its owner has not applied it, so the board is stale: #2 is asked with it at 2 SP
    ("2 -> 1") and #3 has it attack with 2 SP. Each is read against the ledger's view of the block,
    not the stale board: a notice says so, in the record and in the lines everyone sees (a combat
    reveals its blocks to both, so its notice is in the clear; tests/test_ledger_notices.py seals one
    that names a block no ruling revealed)."""
    from adjudicator.checks import get_check
    from adjudicator.testing import choose_seeds, seed_for

    app = make_app(tmp_path)
    client = app.test_client()
    combat = get_check("holdfast", "combat")
    choose_seeds(app, {"holdfast": seed_for((combat, ROK_CAP_ATTACKED,
                                             lambda o: o["defender"]["sp"] == 1 and not o["defender"]["eliminated"], 1))})
    game = new_game(client, "holdfast")
    url = f"/api/v1/games/{game['game_id']}"
    communist, un = bearer(game["tokens"]["communist"]), bearer(game["tokens"]["un"])
    first = client.post(f"{url}/combat?transcript=1&changes=1", json=ROK_CAP_ATTACKED, headers=communist).get_json()
    assert first["outcome"]["defender"]["sp"] == 1 and first["notices"] == []
    # the attacker, left as it stood, is no change: nothing to apply, no owner asked (a combat names every block)
    assert [(c["unit"], c["sp"], c["applied_by"]) for c in first["piece_changes"]] == [("rok-cap", 1, "un")]
    assert first["outcome"]["attackers"][0]["sp"] == 3

    stale = {**ROK_CAP_ATTACKED, "defender": {"unit": "rok-cap", "sp": 2}}
    second = client.post(f"{url}/combat?transcript=1", json=stale, headers=communist).get_json()
    (notice,) = second["notices"]  # the combat reveals the block to both: its notice is in the clear
    assert notice == {"kind": "step", "record": 1, "unit": "rok-cap",
                      "text": "ROK Cap was left at 1 SP by record #1; this ruling treats it at 2 SP"}
    assert f"[ADJ {game['game_id']}#2] notice: ROK Cap was left at 1 SP by record #1; this ruling treats it at 2 SP" \
        in second["transcript"]

    attack = {**ROK_CAP_ATTACKED, "attackers": [{"unit": "rok-cap", "sp": 2, "across_river": False}],
              "defender": {"unit": "nkpa-1", "sp": 3}}
    third = client.post(f"{url}/combat?transcript=1", json=attack, headers=un).get_json()
    (cap,) = [n for n in third["notices"] if n["unit"] == "rok-cap"]
    assert cap["kind"] == "step" and cap["text"].startswith("ROK Cap was left at 1 SP by record #")
    assert cap["text"].endswith("this ruling treats it at 2 SP") and cap["text"] in third["notice_texts"]
    assert any("notice: ROK Cap was left at" in line for line in third["transcript"])


# -- words that say which file to add (issue 50) ---------------------------------------------------------

def test_the_words_say_which_file_to_add(client, setup, sitting):
    """A ruling in the same player's other log of the sitting is no dropped connection: the words
    say to send both files; one in the partner's log names that log; a file missing from those sent
    is named by its player and what it continues, for the e-mail chain too."""
    g = sitting
    r6 = g.rulings[5]["seq"]
    (own,) = [e for e in g.g.check(g.bob1)["elsewhere"] if e["seq"] == r6]
    assert "connection was down" not in own["why"]
    assert own["why"].endswith("this file does not show it: it is in this player's other log of the sitting (the "
                               "UN player's log session b2, begun after log session a1); send both files, in the "
                               "order they were begun, to check them together")

    other = Game(client)
    a1, b1 = live("a1", None, 1, "00" * 16), live("b1", "a1", 2, "11" * 16)
    r1, r2 = other.roll("communist", a1), other.roll("un", b1)
    alice = other.log(setup, a1, [], r1)
    (named,) = other.check(alice)["elsewhere"]
    assert named["why"].endswith("(posted while this player's room connection was down?): send the UN player's log "
                                 "of the sitting (the UN player's log session b1, begun after log session a1) with "
                                 "this one to check it")
    third = other.log(setup, live("c1", "a1", 2, "33" * 16), ["a1"], r1)
    (missing,) = other.check(alice, third)["missing_files"]
    assert missing["why"].endswith("add the UN player's log session b1, begun after log session a1 to the files sent")

    from tests.test_log_chain import play_a_b_a
    chain, (file1, _, file3), (_, _, r3, _, _) = play_a_b_a(client, setup)
    report = chain.check(file1, file3)
    (gap,) = report["missing_files"]
    assert gap["seq"] == r3["seq"] and gap["why"].endswith(
        "that file is not among those sent; add the Communist player's log session b1, begun after log session a1 "
        "to them, in its place in the chain")
    assert report["breaks"][0].endswith("(add the file of log session b1 between them)")
