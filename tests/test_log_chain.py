"""Two honest players, many files (issue 34): a log check that tells a re-roll from a reload.

A creates the game and rolls in his first log; B loads it, begins his own log and rolls; A
continues. Each file names its log session and the sessions before it (the extension's first
line), and each ruling asked from VASSAL names the session it was asked in. So:

* each honest file verifies on its own: the earlier files' rulings are "earlier", not "hidden";
* a ruling asked in a session that began from the same position as a file sent, and shown in no
  file, is a re-roll, named as one (HoldFast-style: a ruling made, the game closed without saving,
  reloaded, rolled again);
* checking the whole chain names a missing file;
* a file that names no session is judged as before (every ruling it does not show is hidden).
"""

from __future__ import annotations

import io

import pytest

from adjudicator.testing import bearer, make_app, new_game
from adjudicator.words.transcript import session_line
from vassalfmt import continue_log
from vassalfmt.commands import chat_command

START = "5e7a" * 8  # the setup's position digest (what the extension computes)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("chain")).test_client()


@pytest.fixture(scope="module")
def setup(modules) -> bytes:
    return modules[("kwb", 1)][2]["setups/pusan.vsav"]


def session(sid: str, parent: str | None, file: int, start: str = START) -> dict:
    return {"id": sid, "parent": parent, "start": start, "file": file}


class Game:
    def __init__(self, client):
        self.client = client
        self.game = new_game(client, "kwb", "pusan")

    def roll(self, side: str, log_session: dict | None) -> dict:
        check, body = (("counter_battery", {"un_marker": "sf-un-3", "communist_marker": "sf-com-1"}) if side == "un"
                       else ("supply_center_move", {"supply_center": "nk-sc-1", "from_hex": "2501"}))
        if log_session:
            body["log_session"] = log_session
        response = self.client.post(f"/api/v1/games/{self.game['game_id']}/{check}?transcript=1", json=body,
                                    headers=bearer(self.game["tokens"][side]))
        assert response.status_code == 201, response.get_json()
        return response.get_json()

    def log(self, setup: bytes, log_session: dict | None, chain: list[str], *answers: dict) -> bytes:
        """A .vlog as the extension keeps it: its session line, then each ruling's chat lines."""
        lines = [session_line(self.game["game_id"], log_session, chain)] if log_session else []
        for answer in answers:
            lines += answer["transcript"]
        return continue_log(setup, [chat_command(line) for line in lines])

    def check(self, *files: bytes, token_side: str = "observer") -> dict:
        data = {"file": [(io.BytesIO(f), f"file{n}.vlog") for n, f in enumerate(files, start=1)]}
        response = self.client.post(f"/api/v1/games/{self.game['game_id']}/savedgame/log-check", data=data,
                                    content_type="multipart/form-data",
                                    headers=bearer(self.game["tokens"][token_side]))
        assert response.status_code == 200, response.get_json()
        return response.get_json()


def play_a_b_a(client, setup, reroll: bool = False):
    """A's file 1 (two rolls), B's file 2 (one roll), A's file 3 (one roll; with `reroll`, first a
    roll in a session from the same position that A then abandons)."""
    g = Game(client)
    a1 = session("a1", None, 1)
    r1, r2 = g.roll("un", a1), g.roll("un", a1)
    file1 = g.log(setup, a1, [], r1, r2)
    b1 = session("b1", "a1", 2)
    r3 = g.roll("communist", b1)
    file2 = g.log(setup, b1, ["a1"], r3)
    abandoned = None
    if reroll:
        abandoned = g.roll("un", session("a2-first", "b1", 3))  # reloaded before saving: never sent
    a2 = session("a2", "b1", 3)
    r5 = g.roll("un", a2)
    file3 = g.log(setup, a2, ["a1", "b1"], r5)
    return g, (file1, file2, file3), (r1, r2, r3, abandoned, r5)


@pytest.mark.slow
def test_each_honest_file_verifies_on_its_own(client, setup):
    g, (file1, file2, file3), (r1, r2, r3, _, r5) = play_a_b_a(client, setup)
    for number, log in enumerate((file1, file2, file3), start=1):
        report = g.check(log)
        assert report["ok"], (number, report)
        assert report["hidden"] == [] and report["rerolls"] == []
    later = g.check(file3)
    assert {h["seq"] for h in later["elsewhere"]} == {r1["seq"], r2["seq"], r3["seq"]}
    assert all("earlier file" in h["why"] for h in later["elsewhere"])
    assert later["files"][0]["session"] == "a2" and later["files"][0]["chain"] == ["a1", "b1"]


def test_a_re_roll_from_the_same_position_is_named(client, setup):
    g, (file1, file2, file3), (_, _, _, abandoned, r5) = play_a_b_a(client, setup, reroll=True)
    report = g.check(file3)
    assert not report["ok"] and report["hidden"] == []
    (reroll,) = report["rerolls"]
    assert reroll["seq"] == abandoned["seq"] and reroll["session"] == "a2-first"
    assert "re-roll" in reroll["why"] and "same position as this file's log" in reroll["why"]
    assert g.check(file1)["ok"]  # the earlier files are not blamed for it
    chain = g.check(file1, file2, file3)
    assert [r["seq"] for r in chain["rerolls"]] == [abandoned["seq"]] and not chain["ok"]


def test_the_first_file_re_rolled_from_the_setup_is_named_too(client, setup):
    g = Game(client)
    g.roll("un", session("a1-first", None, 1))
    a1 = session("a1", None, 1)
    kept = g.roll("un", a1)
    report = g.check(g.log(setup, a1, [], kept))
    assert [r["session"] for r in report["rerolls"]] == ["a1-first"]
    other_setup = Game(client)  # the same session layout from another start is not a re-roll
    other_setup.roll("un", session("x1", None, 1, start="0f" * 16))
    y1 = session("y1", None, 1)
    kept = other_setup.roll("un", y1)
    assert other_setup.check(other_setup.log(setup, y1, [], kept))["rerolls"] == []


def test_a_ruling_of_the_files_own_session_left_out_is_hidden(client, setup):
    g, (file1, _, _), (r1, r2, *_) = play_a_b_a(client, setup)
    a1 = session("a1", None, 1)
    without_r2 = g.log(setup, a1, [], r1)
    report = g.check(without_r2)
    assert [h["seq"] for h in report["hidden"]] == [r2["seq"]] and not report["ok"]
    assert "this file's log session" in report["hidden"][0]["why"]


def test_the_whole_chain_names_a_missing_file(client, setup):
    g, (file1, file2, file3), (_, _, r3, _, _) = play_a_b_a(client, setup)
    assert g.check(file1, file2, file3)["ok"]
    report = g.check(file1, file3)
    assert not report["ok"]
    assert [m["seq"] for m in report["missing_files"]] == [r3["seq"]]
    assert report["breaks"] and "does not continue" in report["breaks"][0]


def test_a_log_of_no_session_is_judged_as_before(client, setup):
    g = Game(client)
    first, second = g.roll("un", None), g.roll("un", None)
    report = g.check(g.log(setup, None, [], first))
    assert [h["seq"] for h in report["hidden"]] == [second["seq"]] and not report["ok"]
    assert g.check(g.log(setup, None, [], first, second))["ok"]


@pytest.mark.slow
def test_a_ruling_asked_outside_vassal_must_be_in_the_chain(client, setup):
    g = Game(client)
    a1 = session("a1", None, 1)
    kept = g.roll("un", a1)
    from_the_api = g.roll("un", None)  # asked through the API, outside any log
    single = g.check(g.log(setup, a1, [], kept))
    assert single["ok"] and [h["seq"] for h in single["elsewhere"]] == [from_the_api["seq"]]
    b1 = session("b1", "a1", 2)
    chain = g.check(g.log(setup, a1, [], kept), g.log(setup, b1, ["a1"]))
    assert [h["seq"] for h in chain["hidden"]] == [from_the_api["seq"]] and not chain["ok"]


@pytest.mark.slow
def test_the_client_checks_a_chain(client, setup, tmp_path, capsys):
    from adjudicator.client.cli import main
    from test_bridge_helpers import running_server

    g, files, (_, _, _, abandoned, _) = play_a_b_a(client, setup, reroll=True)
    paths = []
    for number, data in enumerate(files, start=1):
        path = tmp_path / f"turn{number}.vlog"
        path.write_bytes(data)
        paths.append(str(path))
    with running_server(client.application) as url:
        status = main(["verify-log", *paths, "--game", g.game["game_id"], "--token", g.game["tokens"]["observer"],
                       "--server", url])
    out = capsys.readouterr().out
    assert status == 1 and f"record {abandoned['seq']}: re-roll" in out


# -- bounds: the order of a chain, loops, the documented limits, one budget, the answer's size (issue 39) ------

@pytest.mark.slow
def test_a_reversed_chain_is_named(client, setup):
    g, files, _ = play_a_b_a(client, setup)
    report = g.check(files[1], files[0])
    assert not report["ok"]
    assert report["breaks"] == ["file2.vlog is sent after file1.vlog, which continues it: the files are out of "
                                "order (send the game's logs oldest first)"]
    alone = g.check(files[0], g.log(setup, session("c1", None, 1), []))  # a second file that begins a chain
    assert any("file2.vlog does not continue file1.vlog: it begins a game's chain" in b for b in alone["breaks"])


def test_two_files_whose_session_lines_loop_are_named(client, setup):
    g = Game(client)
    x, y = session("x1", "y1", 1), session("y1", "x1", 2)
    rx, ry = g.roll("un", x), g.roll("communist", y)
    report = g.check(g.log(setup, x, ["y1"], rx), g.log(setup, y, ["x1"], ry))
    assert not report["ok"]
    assert any("a loop" in b and "x1" in b and "y1" in b for b in report["breaks"]), report["breaks"]
    selfish = g.check(g.log(setup, session("z1", "z1", 1), ["z1"]))
    assert any("its own log session" in b for b in selfish["breaks"]), selfish["breaks"]


def test_a_session_id_over_64_characters_is_refused(client, setup):
    g = Game(client)
    long_id = "s" * 5000
    for chain, line_session in ((["a1", long_id], session("b1", None, 3)), ([], {"id": long_id, "file": 1})):
        lines = [session_line(g.game["game_id"], line_session, chain)]
        log = continue_log(setup, [chat_command(line) for line in lines])
        response = client.post(f"/api/v1/games/{g.game['game_id']}/savedgame/log-check", data={
            "file": (io.BytesIO(log), "long.vlog")}, content_type="multipart/form-data",
            headers=bearer(g.game["tokens"]["un"]))
        body = response.get_json()
        assert response.status_code == 422 and body["type"].endswith(":bad-session-line"), body
        assert "at most 64" in body["detail"] and len(body["detail"]) < 400


def test_one_time_budget_for_the_whole_request_whatever_the_number_of_files(client, setup, monkeypatch):
    """Each file read costs 6 s of a (fake) clock: with 20 s for the request, the fourth file is not
    read and the answer says to send fewer files (today's 10 s per file would have read all 12)."""
    from adjudicator.bridge import upload

    now = [1000.0]
    reads = []
    real_read = upload._read

    def slow_read(data, limits, work):
        reads.append(work.seconds)
        now[0] += 6.0
        return real_read(data, limits, work)
    monkeypatch.setattr(upload.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(upload, "_read", slow_read)
    g, files, _ = play_a_b_a(client, setup)
    response = client.post(f"/api/v1/games/{g.game['game_id']}/savedgame/log-check",
                           data={"file": [(io.BytesIO(files[n % 3]), f"f{n}.vlog") for n in range(12)]},
                           content_type="multipart/form-data", headers=bearer(g.game["tokens"]["observer"]))
    body = response.get_json()
    assert response.status_code == 503 and body["type"].endswith(":request-too-slow"), body
    assert response.headers["Retry-After"] and "fewer files" in body["detail"]
    assert len(reads) == 4 and reads[:3] == [10.0, 10.0, 8.0]  # each file within what was left of 20 s


@pytest.mark.slow
def test_a_log_check_answer_does_not_grow_with_what_the_log_repeats(client, setup):
    """20,000 forged lines and one 8 MB line: the answer lists 20 of them, each cut, and counts the rest."""
    g = Game(client)
    forged = [f"[ADJ {g.game['game_id']}#{1000 + n}] RULING made up {n}" for n in range(20_000)]
    huge = f"[ADJ {g.game['game_id']}#9] RULING " + "A" * 8_000_000
    log = continue_log(setup, [chat_command(line) for line in forged + [huge]])
    assert len(log) < 1_000_000  # the log itself is small: it compresses
    report = g.check(log)
    text_size = len(repr(report))
    assert report["counts"]["forged"] == 20_001
    assert len(report["rulings"]) == 20 and report["not_listed"] == 20_001 - 20
    assert all(len(r["first_line"]) <= 200 and len(r["why"]) <= 200 for r in report["rulings"])
    assert text_size < 50_000, text_size
    page_client = client.application.test_client()
    page_client.post(f"/games/{g.game['game_id']}", data={"token": g.game["tokens"]["un"]})
    page = page_client.post(f"/games/{g.game['game_id']}/log-check", data={"file": (io.BytesIO(log), "f.vlog")},
                            content_type="multipart/form-data")
    assert page.status_code == 200 and len(page.data) < 100_000, len(page.data)
    assert 'data-not-listed="19981"' in page.get_data(as_text=True)
