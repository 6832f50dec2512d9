"""A game rewound and asked again is named wherever it hides (issue 50).

The files sent are the game's positions as a history (adjudicator.logs.history): where each file
begins, every position its board stands at, where each ruling was asked. A file that begins from a
position the game had before a ruling that was then made (a save taken in the middle of a log, an
autosave), or goes back to one (VASSAL's Undo), and asks again, is a re-roll: the check names the
ruling asked again, the ruling rewound and the file that shows it — in the API, the CLI and the
pages. A reload from the last position (a mid-turn save loaded again, a new log after "Start new
logfile?") passes. By e-mail (a chain of files) and live (the players' logs of one sitting).

KWB, Pusan: the Communist NK 83 attacks US 27/25 (0105 -> 0205); the first roll is chosen (an AD
depletes NK 83, the change the asker applies; or a "no effect"). Moves are the NK 1 HQ's.
Logs are written with the engine's own commands (tests/replay_logs.py).
"""

from __future__ import annotations

import io

import pytest
from lxml import html

from adjudicator.checks import get_check
from adjudicator.testing import bearer, choose_seeds, make_app, replay_settled, seed_for
from tests.session_lines import session_line
from tests.replay_logs import LogWriter, saved_at_end

ATTACK = {"scenario": "pusan", "attacking_side": "communist", "intensive": "none",
          "attackers": [{"unit": "nk-83-mot", "hex": "0105"}],
          "defenders": [{"unit": "us-27-25", "hex": "0205", "step": "depleted"}]}
START = "5e7a" * 8
LIVE = "live50sitting"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("rewinds"))


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def setup(modules) -> bytes:
    return modules[("kwb", 1)][2]["setups/pusan.vsav"]


def result(code: str):
    return lambda outcome: outcome["result"] == code


class Play:
    """One recorded game, its first roll chosen (`first`: the combat's result code), and the
    players' logs written as VASSAL writes them."""

    def __init__(self, app, client, setup: bytes, first: str = "AD", second: str = "AR"):
        spec = get_check("kwb", "combat")
        choose_seeds(app, {"kwb/pusan": seed_for((spec, ATTACK, result(first), 1), (spec, ATTACK, result(second), 2))})
        self.client, self.setup = client, setup
        self.game = client.post("/api/v1/games", json={"system": "kwb", "scenario": "pusan"}).get_json()
        self.id = self.game["game_id"]

    def writer(self, start: bytes, session: dict | None = None, chain: tuple[str, ...] = ()) -> LogWriter:
        writer = LogWriter("kwb", start)
        if session:
            writer.chat(session_line(self.id, session, list(chain)))
        return writer

    def attack(self, session: dict | None = None) -> dict:
        return self.ask("combat", ATTACK, session)

    def ask(self, check: str, body: dict, session: dict | None = None, side: str = "communist") -> dict:
        if session:
            body = {**body, "log_session": session}
        response = self.client.post(f"/api/v1/games/{self.id}/{check}?transcript=1", json=body,
                                    headers=bearer(self.game["tokens"][side]))
        assert response.status_code == 201, response.get_json()
        return response.get_json()

    def supply(self, session: dict | None = None) -> dict:
        return self.ask("supply", {"scenario": "pusan", "side": "communist", "game_turn": 1,
                                   "positions": [{"unit": "nk-1-hq", "hex": "2501"}]}, session)

    def check(self, *files: tuple[str, bytes]) -> dict:
        response = self.client.post(f"/api/v1/games/{self.id}/savedgame/log-check",
                                    data={"file": [(io.BytesIO(data), name) for name, data in files]},
                                    content_type="multipart/form-data", headers=bearer(self.game["tokens"]["observer"]))
        assert response.status_code == 200, response.get_json()
        return response.get_json()


def session(sid: str, parent: str | None, file: int, live: str | None = None) -> dict:
    out = {"id": sid, "parent": parent, "start": START, "file": file}
    return {**out, "live": live} if live else out


def hq_to(writer: LogWriter, hex_label: str) -> None:
    writer.move("nk-1-hq", hex_label)


def applied(writer: LogWriter, answer: dict) -> None:
    """The ruling's lines, and its change applied as the asker applies it (an AD depletes NK 83; an
    AR retreats it one hex, its owner's choice of hex: the CRT's retreat is an order, issue 49)."""
    writer.ruling(answer["transcript"])
    if answer["outcome"]["result"] == "AD":
        writer.step("nk-83-mot", "depleted")
    if answer["outcome"]["result"] == "AR":
        writer.move("nk-83-mot", "0104")


def rewinds_of(report: dict) -> list[tuple[int, list[int], list[str]]]:
    return [(r["seq"], r["rewound"], r["rewound_in"]) for r in report["rerolls"] if r.get("shown")]


# -- by e-mail ---------------------------------------------------------------------------------------

@pytest.mark.slow
def test_a_save_taken_in_the_middle_of_a_log_loaded_again_and_asked_again_is_a_re_roll(app, client, setup):
    """A moves his HQ, saves (File > Save Game As), moves it on, attacks (#1, AD: applied), ends his
    log; loads the save, begins a new log (continuing his first, as the extension says), moves the
    HQ the same way and attacks again (#2)."""
    play = Play(app, client, setup)
    a1, a2 = session("a1", None, 1), session("a2", "a1", 2)
    first = play.writer(setup, a1)
    hq_to(first, "2502")
    saved_mid_log = saved_at_end(first.log())
    hq_to(first, "2503")
    one = play.attack(a1)
    applied(first, one)
    second = play.writer(saved_mid_log, a2, ("a1",))
    hq_to(second, "2503")
    two = play.attack(a2)
    applied(second, two)

    report = play.check(("a1.vlog", first.log()), ("a2.vlog", second.log()))
    assert not report["ok"] and report["breaks"] == [] and report["hidden"] == []
    assert rewinds_of(report) == [(two["seq"], [one["seq"]], ["a1.vlog"])]
    (reroll,) = report["rerolls"]
    assert reroll["why"] == ("re-roll: a2.vlog begins from a position the game had before record #1 (in a1.vlog) was "
                             "made (a save or an autosave taken before it, loaded again), and asks again")
    (asked_again,) = [r for r in report["files"][1]["rulings"] if r["seq"] == two["seq"]]
    assert asked_again["rewind"] == reroll["why"]  # the ruling's own verdict says so
    assert play.check(("a1.vlog", first.log()))["ok"]  # his first log alone is honest
    assert rewinds_of(play.check(("a2.vlog", second.log()))) == []  # alone, the second shows no history to rewind


def test_an_autosave_two_rulings_back_loaded_again_rewinds_both(app, client, setup):
    """VASSAL's autosave caught the board after the HQ's move; A attacks (#1, AD applied), asks a
    supply report (#2), moves; then loads the autosave and attacks again at once (#3)."""
    play = Play(app, client, setup, second="AD")
    first = play.writer(setup)
    hq_to(first, "2502")
    autosave = saved_at_end(first.log())
    one = play.attack()
    applied(first, one)
    two = play.supply()
    first.ruling(two["transcript"])
    hq_to(first, "2503")
    reloaded = play.writer(autosave)
    three = play.attack()
    applied(reloaded, three)
    report = play.check(("turn.vlog", first.log()), ("reloaded.vlog", reloaded.log()))
    assert rewinds_of(report) == [(three["seq"], [one["seq"], two["seq"]], ["turn.vlog", "turn.vlog"])]
    assert "begins from a position the game had before records #1 (in turn.vlog), #2 (in turn.vlog)" in \
        report["rerolls"][0]["why"]


def test_undo_back_over_a_ruling_and_asked_again_is_a_re_roll_in_the_file_alone(app, client, setup):
    """In one log: the attack (#1, AD: NK 83 depleted), then VASSAL's Undo (the engine writes the
    inverse command: NK 83 full again), and the attack asked again (#2)."""
    play = Play(app, client, setup)
    writer = play.writer(setup)
    hq_to(writer, "2502")
    one = play.attack()
    applied(writer, one)
    writer.step("nk-83-mot", "full")  # Undo
    two = play.attack()
    writer.ruling(two["transcript"])
    report = play.check(("turn.vlog", writer.log()))
    assert rewinds_of(report) == [(two["seq"], [one["seq"]], ["this file"])]  # one file sent: "this file"
    assert report["rerolls"][0]["why"] == (
        "re-roll: this file goes back to a position the game had before record #1 (in this file) was made "
        "(VASSAL's Undo, or the pieces put back), and asks again")
    assert not report["ok"]


@pytest.mark.slow
def test_a_no_effect_ruling_asked_again_after_a_reload_is_a_re_roll(app, client, setup):
    """The issue's case: #1 is "no effect" (the board does not change), A ends his log, loads the
    save taken just before it and asks the same attack again (#2): the position cannot tell, the
    ledger's "asked again" with the position it was asked at can."""
    play = Play(app, client, setup, first="NE")
    a1, a2 = session("a1", None, 1), session("a2", "a1", 2)
    first = play.writer(setup, a1)
    hq_to(first, "2502")
    before = saved_at_end(first.log())
    one = play.attack(a1)
    first.ruling(one["transcript"])
    second = play.writer(before, a2, ("a1",))
    two = play.attack(a2)
    applied(second, two)
    assert [n["kind"] for n in two["notices"]] == ["repeat"]
    report = play.check(("a1.vlog", first.log()), ("a2.vlog", second.log()))
    assert rewinds_of(report) == [(two["seq"], [one["seq"]], ["a1.vlog"])]
    assert report["rerolls"][0]["why"].startswith("re-roll: the same situation as record #1 (in a1.vlog), asked "
                                                  "again from the position it was asked at")


@pytest.mark.slow
def test_reloads_from_the_last_position_pass(app, client, setup):
    """A mid-turn save after the attack loaded again, and a new log begun where the last ended
    ("Start new logfile?"), asking on; and an Undo of a move after the ruling: no re-roll."""
    play = Play(app, client, setup)
    a1, a2, a3 = session("a1", None, 1), session("a2", "a1", 2), session("a3", "a2", 3)
    first = play.writer(setup, a1)
    hq_to(first, "2502")
    one = play.attack(a1)
    applied(first, one)
    hq_to(first, "2503")
    hq_to(first, "2502")  # a move undone
    supply = play.supply(a1)
    first.ruling(supply["transcript"])
    second = play.writer(saved_at_end(first.log()), a2, ("a1",))  # the mid-turn save, loaded again
    two = play.supply(a2)
    second.ruling(two["transcript"])
    hq_to(second, "2503")
    third = play.writer(saved_at_end(second.log()), a3, ("a1", "a2"))  # a new log where the last ended
    three = play.supply(a3)
    third.ruling(three["transcript"])
    report = play.check(("a1.vlog", first.log()), ("a2.vlog", second.log()), ("a3.vlog", third.log()))
    assert report["ok"] and report["rerolls"] == [], report
    for name, log in (("a1.vlog", first.log()), ("a2.vlog", second.log()), ("a3.vlog", third.log())):
        assert play.check((name, log))["ok"]


# -- live: each player's log of one sitting ----------------------------------------------------------

class Sitting:
    """Alice (Communist) and Bob (UN) at one board, each keeping his own log; every move and ruling
    reaches both logs."""

    def __init__(self, play: Play, setup: bytes):
        self.play = play
        self.a1, self.b1 = session("a1", None, 1, LIVE), session("b1", "a1", 2, LIVE)
        self.alice, self.bob = play.writer(setup, self.a1), play.writer(setup, self.b1, ("a1",))

    def both(self, action, *args) -> None:
        for writer in (self.alice, self.bob):
            action(writer, *args)


@pytest.mark.slow
def test_live_a_player_who_reloads_a_save_before_a_ruling_and_asks_again_is_named(app, client, setup):
    play = Play(app, client, setup)
    sitting = Sitting(play, setup)
    sitting.both(hq_to, "2502")
    saved = saved_at_end(sitting.alice.log())
    one = play.attack(sitting.a1)
    sitting.both(applied, one)
    a2 = session("a2", "a1", 3, LIVE)
    again = play.writer(saved, a2, ("a1",))
    two = play.attack(a2)
    applied(again, two)
    report = play.check(("alice1.vlog", sitting.alice.log()), ("bob.vlog", sitting.bob.log()),
                        ("alice2.vlog", again.log()))
    assert rewinds_of(report) == [(two["seq"], [one["seq"]], ["alice1.vlog"])]
    assert not report["ok"]


@pytest.mark.slow
def test_live_a_new_log_from_the_sittings_last_position_passes(app, client, setup):
    play = Play(app, client, setup)
    sitting = Sitting(play, setup)
    sitting.both(hq_to, "2502")
    one = play.attack(sitting.a1)
    sitting.both(applied, one)
    sitting.both(hq_to, "2503")
    a2 = session("a2", "a1", 3, LIVE)
    after = play.writer(saved_at_end(sitting.alice.log()), a2, ("a1",))
    two = play.supply(a2)
    sitting.bob.ruling(two["transcript"])
    after.ruling(two["transcript"])
    report = play.check(("alice1.vlog", sitting.alice.log()), ("bob.vlog", sitting.bob.log()),
                        ("alice2.vlog", after.log()))
    assert report["ok"] and report["rerolls"] == [], report


# -- where it is named: the CLI and the pages ------------------------------------------------------------

@pytest.mark.slow
def test_the_cli_and_the_pages_name_the_re_roll(app, client, setup, tmp_path, capsys):
    from adjudicator.client.cli import main
    from test_bridge_helpers import running_server

    play = Play(app, client, setup)
    writer = play.writer(setup)
    one = play.attack()
    applied(writer, one)
    writer.step("nk-83-mot", "full")  # Undo
    two = play.attack()
    writer.ruling(two["transcript"])
    log = writer.log()
    path = tmp_path / "turn.vlog"
    path.write_bytes(log)
    with running_server(client.application) as url:
        status = main(["verify-log", str(path), "--game", play.id, "--token", play.game["tokens"]["observer"],
                       "--server", url])
    out = capsys.readouterr().out
    assert status == 1 and "record 2: re-roll: this file goes back to a position the game had before record #1" in out

    pages = client.application.test_client()
    pages.post(f"/games/{play.id}", data={"token": play.game["tokens"]["un"]})
    page = html.fromstring(pages.post(f"/games/{play.id}/log-check", data={"file": (io.BytesIO(log), "turn.vlog")},
                                      content_type="multipart/form-data").get_data(as_text=True))
    (row,) = page.xpath('//tr[@class="rewind-row"]')
    assert row.get("data-rewind-of") == "2" and "before record #1 (in this file)" in row.text_content()
    (listed,) = page.xpath('//ul[@id="log-hidden"]/li[@data-kind="re-roll"]')
    assert listed.get("data-seq") == "2" and "re-roll" in listed.text_content()
    assert page.get_element_by_id("log-verdict").get("data-ok") == "no"

    address = pages.post(f"/games/{play.id}/replay", data={"file": (io.BytesIO(log), "turn.vlog")},
                         content_type="multipart/form-data").headers["Location"]
    replay = html.fromstring(replay_settled(pages, address).get_data(as_text=True))  # built beside the request
    assert replay.get_element_by_id("replay-verdict").get("data-ok") == "no"
    (problem,) = replay.xpath('//ul[@id="replay-problems"]/li[@data-status="re-roll"]')
    assert problem.get("data-seq") == "2" and "before record #1" in problem.text_content()



def test_a_position_that_comes_back_by_a_later_rulings_change_is_no_rewind(app, client, setup):
    """The board a ruling is asked on may be one the game had before earlier rulings when a later
    ruling's change brought it back (a step lost, then restored by a replacement). Going back in
    time would take that later ruling back too: where the board shows what the last ruling taken
    back ordered, nothing was taken back. The UN replacement (#1) undepletes US 27/25 (at setup
    depleted): on a board showing it full, #1 is no ruling taken back; showing it depleted, it is."""
    from adjudicator.bridge import load_system_game
    from adjudicator.logs.check import FileReading, _last_still_shown
    from adjudicator.logs.history import BEGINS, FileHistory, Rewind
    from adjudicator.logs.board import Shown

    play = Play(app, client, setup)
    replaced = play.ask("replacements", {"scenario": "pusan", "side": "un", "undeplete": [
        {"unit": "us-27-25", "hex": "0205", "in_supply": True}]}, side="un")
    ledger = client.get(f"/api/v1/games/{play.id}/ledger", headers=bearer(play.game["tokens"]["observer"])).get_json()
    records = {r["seq"]: r for r in ledger["records"]}
    game = load_system_game("kwb")
    depleted, full = Shown("depleted", "pusan", "0205"), Shown("", "pusan", "0205")

    def still_shown(board: Shown) -> bool:
        earlier = FileReading("a", history=FileHistory(units_at={replaced["seq"]: {"us-27-25": depleted}}))
        later = FileReading("b", history=FileHistory(units_at={99: {"us-27-25": board}}))
        return _last_still_shown(game, Rewind(99, 1, (replaced["seq"],), BEGINS), [earlier, later], records)
    assert still_shown(full) and not still_shown(depleted)  # full: nothing taken back; depleted: #1 taken back


TURN_2 = "TURNTurnTracker0\t0|1;0;0;true;0\\;0\\;0\\;true"  # the Pusan turn tracker a turn on


def a_turn_then_the_same_attack(play: Play, setup: bytes, turn_moves_on: bool) -> tuple[dict, dict, dict]:
    """#1 "no effect", the log ended; a new log where it ended (a turn on, or not) asks it again."""
    first = play.writer(setup)
    hq_to(first, "2502")
    one = play.attack()
    first.ruling(one["transcript"])
    later = play.writer(saved_at_end(first.log()))
    if turn_moves_on:
        later.commands.append(TURN_2)
    two = play.attack()
    applied(later, two)
    return one, two, play.check(("a1.vlog", first.log()), ("a2.vlog", later.log()))


def test_the_same_situation_a_turn_later_is_no_re_roll(app, client, setup):
    """The turn trackers are part of a position: the same "no effect" attack asked again from the
    same units a turn later (a new log begun where the last ended) is the game going on."""
    _, _, report = a_turn_then_the_same_attack(Play(app, client, setup, first="NE"), setup, turn_moves_on=True)
    assert rewinds_of(report) == [] and report["ok"], report


def test_the_same_situation_asked_again_in_the_same_turn_is_a_re_roll(app, client, setup):
    one, two, report = a_turn_then_the_same_attack(Play(app, client, setup, first="NE"), setup, turn_moves_on=False)
    assert rewinds_of(report) == [(two["seq"], [one["seq"]], ["a1.vlog"])]
