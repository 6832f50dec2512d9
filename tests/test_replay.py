"""The replay (issue 31) without a browser: logs read step by step, every ruling judged where it
happened, each viewer shown only what his side may see, the after-action report, and the pages'
answers to bad input. The browser tests (test_replay_browser.py) and the engine's own logs
(test_replay_engine.py) walk the same pages as a player does.

Logs are written by our own writer (tests/replay_logs.py) on each module's setup, with rulings the
service really recorded (the API, ?transcript=1).
"""

from __future__ import annotations

import io
import json
import random
import re

import pytest

from adjudicator.bridge import load_system_game, read_positions, read_upload
from adjudicator.bridge.writeback import piece_changes
from adjudicator.testing import bearer, make_app, new_game, replay_settled
from adjudicator.words.names import UnitNames
from replay_logs import LogWriter
from vassalfmt import continue_log, read_saved_game
from vassalfmt.commands import join_commands
from vassalfmt.logsteps import log_steps
from vassalfmt.savedgame import SAVED_GAME_ENTRY, deobfuscate, obfuscate
from vassalfmt.sequence import ESC, decode, encode
from vassalfmt.zipwriter import build_zip

GAMES = ["kwb", "spi", "holdfast", "fireandice"]
SCENARIOS = {"kwb": "pusan", "spi": "campaign", "holdfast": "campaign", "fireandice": "campaign"}
COUNTER_BATTERY = {"un_marker": "sf-un-3", "communist_marker": "sf-com-1"}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("replay"))


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()


def setup_of(modules, system: str) -> bytes:
    return modules[(system, 1)][2][f"setups/{SCENARIOS[system]}.vsav"]


def roll(client, game: dict, side: str, check: str = "counter_battery", body: dict | None = None) -> dict:
    response = client.post(f"/api/v1/games/{game['game_id']}/{check}?transcript=1", json=body or COUNTER_BATTERY,
                           headers=bearer(game["tokens"][side]))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def replay_page(client, game: dict, side: str, *files: bytes, names: list[str] | None = None):
    """Log in with the side's token, upload the files, and return the replay page's data."""
    client.post(f"/games/{game['game_id']}", data={"token": game["tokens"][side]})
    names = names or [f"file{n}.vlog" for n in range(1, len(files) + 1)]
    response = client.post(f"/games/{game['game_id']}/replay",
                           data={"file": [(io.BytesIO(f), name) for f, name in zip(files, names)]},
                           content_type="multipart/form-data")
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    page = replay_settled(client, response.headers["Location"])
    assert page.status_code == 200
    return page_data(client, page.get_data(as_text=True)), response.headers["Location"]


def page_data(client, html: str) -> dict:
    """The page's data with every piece of its steps fetched as its script fetches them, put
    together as one document: the looks (`views`), the board at the start (`initial`), every step,
    every ruling."""
    data = json.loads(re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', html, re.S).group(1))
    config = json.loads(re.search(r'id="replay-config">(.*?)</script>', html, re.S).group(1))
    pieces = [client.get(config["pieces"] + str(number)).get_json() for number in range(data["pieces"])]
    views = {int(i): v for piece in pieces for i, v in piece["views"].items()}
    rulings = {int(i): r for piece in pieces for i, r in piece["rulings"].items()}
    data["views"] = [views.get(i) for i in range(max(views, default=-1) + 1)]
    data["rulings"] = [rulings[i] for i in sorted(rulings)]
    data["initial"] = pieces[0]["board"]
    data["steps"] = [step for piece in pieces for step in piece["steps"]]
    return data


def state_at(data: dict, step: int) -> dict[int, list]:
    """The pieces after `step`, applying the page's changes as its script does."""
    state = {n: s for n, s in data["initial"]}
    for s in data["steps"][1:step + 1]:
        for piece, _, after in s.get("d", []):
            if after is None:
                state.pop(piece, None)
            else:
                state[piece] = after
    return state


def units_on_hexes(data: dict, state: dict[int, list]) -> dict[str, tuple[str, str]]:
    """unit -> (hex, step) of the units the viewer sees on the hex maps."""
    views = data["views"]
    return {views[s[0]]["l"]: (s[2], views[s[0]].get("st", "")) for s in state.values()
            if s[2] and views[s[0]]["k"] == "unit"}


def units_of_file(system: str, data: bytes) -> dict[str, tuple[str, str]]:
    """unit -> (hex, step) as the saved-game reader reads the whole file (its end)."""
    positions = read_positions(load_system_game(system), read_upload(data))
    return {u.unit.id: (u.location.hex, u.step) for u in positions.on_map()}


def rewrite(data: bytes, change) -> bytes:
    """A log with its command stream's top-level entries passed through `change` (a player's edit)."""
    import zipfile

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        entries = {name: archive.read(name) for name in archive.namelist()}
    fields = decode(deobfuscate(entries[SAVED_GAME_ENTRY]), ESC)
    entries[SAVED_GAME_ENTRY] = obfuscate(encode(change(fields), ESC))
    return build_zip(entries)


# -- reading a log step by step ------------------------------------------------------------------------

def test_a_step_is_one_log_entry_however_the_engine_nests_it():
    """The engine writes a drag as one entry holding null commands, nested entries, the piece's
    changes, the move and its report (a real .vlog's shape); a typed chat line is one entry."""
    start = join_commands(["begin_save", "+/p1/type/state", "end_save"])
    drag = "LOG\t" + join_commands(["null", "LOG\tnull", "LOG\tD/p1/new", "LOG\tM/p1/Map/1/2/null/Map/3/4/null/",
                                    "LOG\tCHAT* p1 moves *"])
    text = encode([f for f in decode(start, ESC)] + [drag, "LOG\tCHAThello"], ESC)
    steps = log_steps(text)
    assert len(steps.start) == 3 and len(steps.steps) == 2
    assert [type(c).__name__ for c in steps.steps[0]] == ["ChangePiece", "MovePiece", "OtherCommand"]
    assert log_steps(start).steps == []  # a saved game: all start, no step


@pytest.mark.slow
@pytest.mark.parametrize("system", GAMES)
def test_every_step_is_the_board_the_file_gives_and_back_is_the_start(client, modules, system):
    """A turn of random moves, step losses and a removal: after each chosen step the replay's board
    is what the saved-game reader reads from the log cut there; at the end, the whole file's; and
    stepping back undoes every step to the start."""
    setup = setup_of(modules, system)
    writer = LogWriter(system, setup)
    rng = random.Random(system)
    on_map = [u for u in writer.pieces if writer.hex_of(u)]
    cuts = []
    for n in range(30):
        unit = rng.choice(on_map)
        grid = writer.game.maps[writer.map_of(unit)].grid
        near = grid.neighbours(grid.parse(writer.hex_of(unit)))
        writer.move(unit, grid.label(rng.choice(near)))
        if n % 7 == 3 and len(writer.game.units[unit].steps) > 1:
            writer.step(unit, writer.game.units[unit].steps[-1].name)
        if n % 10 == 9:
            cuts.append(len(writer.commands))
    gone, back_again = on_map[0], on_map[1]
    writer.remove(gone)
    where = writer.hex_of(back_again)
    writer.remove(back_again)
    writer.put_back(back_again, where)
    game = new_game(client, system, SCENARIOS[system])
    closed = client.post(f"/api/v1/games/{game['game_id']}/close", headers=bearer(game["tokens"][list(game["tokens"])[0]]))
    assert closed.status_code == 200  # a closed game: everyone sees every unit, so every unit is compared
    data, _ = replay_page(client, game, "observer", writer.log())
    assert len(data["steps"]) == len(writer.commands) + 1
    for cut in cuts:
        assert units_on_hexes(data, state_at(data, cut)) == units_of_file(
            system, continue_log(setup, writer.commands[:cut])), cut
    end = state_at(data, len(data["steps"]) - 1)
    assert units_on_hexes(data, end) == units_of_file(system, writer.log())
    assert gone not in units_on_hexes(data, end) and units_on_hexes(data, end)[back_again][0] == where
    texts = [t for s in data["steps"] for t in s.get("x", [])]
    called = UnitNames.of(system).name(back_again)  # the steps' words name units as their counters read
    assert any(t.startswith(f"{called} removed from {where}") for t in texts)
    assert any(f"({called}" in t and t.endswith(f"returned at {where}") for t in texts)
    back = dict(end)
    for s in reversed(data["steps"][1:]):
        for piece, before, _ in reversed(s.get("d", [])):
            if before is None:
                back.pop(piece, None)
            else:
                back[piece] = before
    assert back == {n: s for n, s in data["initial"]}
    moved = [s for s in data["steps"] if s["k"] == "move"]
    assert moved and all(len(s["m"][0][2]) >= 2 for s in moved)  # each move with its path
    assert data["summary"]["moves"] == 30 and data["summary"]["removed"] == 2 and data["summary"]["placed"] == 1


# -- every ruling where it happened -------------------------------------------------------------------------

def kwb_turn(client, modules):
    """A KWB turn with four recorded rulings; the log shows 1, hides 2, alters 3, and forges one."""
    setup = setup_of(modules, "kwb")
    game = new_game(client, "kwb", "pusan")
    r1, r2, r3, r4 = (roll(client, game, "un") for _ in range(4))
    writer = LogWriter("kwb", setup)
    unit = next(u for u in writer.pieces if writer.hex_of(u) and writer.game.units[u].side == "un")
    grid = writer.game.maps[writer.map_of(unit)].grid
    writer.move(unit, grid.label(grid.neighbours(grid.parse(writer.hex_of(unit)))[0]))
    writer.ruling(r1["transcript"])
    writer.chat("and now the second ruling (not shown)")
    altered = [line.replace(", roll ", ", roll 1", 1) for line in r3["transcript"]]  # the headline's roll
    writer.ruling(altered)
    forged = [line.replace(f"#{r4['seq']}]", "#42]").replace(f"record {r4['seq']} hash", "record 42 hash")
              for line in r4["transcript"]]
    writer.ruling(forged)
    writer.ruling(roll_computed(client))
    return game, writer, (r1, r2, r3, r4)


def roll_computed(client) -> list[str]:
    response = client.post("/api/v1/systems/kwb/counter_battery?transcript=1", json={**COUNTER_BATTERY, "dice": [4]})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["transcript"]


@pytest.mark.slow
def test_each_ruling_is_judged_at_its_step_and_a_hidden_one_between_its_neighbours(client, modules):
    game, writer, (r1, r2, r3, r4) = kwb_turn(client, modules)
    data, _ = replay_page(client, game, "communist", writer.log())
    rulings = data["rulings"]
    assert [(r["status"], r["seq"]) for r in rulings] == [
        ("verified", r1["seq"]), ("hidden", r2["seq"]), ("altered", r3["seq"]), ("forged", 42),
        ("unrecorded", None), ("hidden", r4["seq"])]  # the record the forged ruling stands in for: at the end
    steps = data["steps"]
    verified, hidden, altered, forged, computed, last = rulings
    assert last["step"] == len(steps) - 1 and "after step" in last["why"]
    assert steps[verified["step"]]["k"] == "ruling" and verified["step"] == 2  # the move, then the ruling
    assert hidden["step"] == verified["step"] + 1 < altered["step"]  # its own step, right after ruling #1
    assert f"between step {verified['step']} and step {altered['step']}" in hidden["why"]
    assert hidden["time"] and hidden["time"] in hidden["why"]
    assert "roll" in altered["why"] and altered["ledger_lines"] != altered["lines"]
    assert "no ruling 42" in forged["why"]
    assert computed["why"].startswith("computed")
    for r in (verified, altered):  # one step for all the lines of a ruling, and its receipt
        assert r["receipt"].startswith(f"receipt: record {r['seq']} hash ")
    assert verified["hash"].startswith(r1["hash"][:16])
    assert data["summary"]["verdicts"] == {"verified": 1, "hidden": 2, "altered": 1, "forged": 1, "unrecorded": 1}
    assert data["summary"]["ok"] is False and data["summary"]["rulings"] == 4


@pytest.mark.slow
def test_a_ruling_of_another_game_and_an_honest_log(client, modules):
    game, writer, (r1, _, _, _) = kwb_turn(client, modules)
    other = new_game(client, "kwb", "pusan")
    honest = LogWriter("kwb", setup_of(modules, "kwb"))
    honest.ruling(roll(client, other, "un")["transcript"])
    data, _ = replay_page(client, game, "un", honest.log())
    assert data["rulings"][0]["status"] == "other-game"
    clean = LogWriter("kwb", setup_of(modules, "kwb"))
    fresh = new_game(client, "kwb", "pusan")
    clean.ruling(roll(client, fresh, "un")["transcript"])
    clean.ruling(roll(client, fresh, "un")["transcript"])
    data, _ = replay_page(client, fresh, "observer", clean.log())
    assert [r["status"] for r in data["rulings"]] == ["verified", "verified"] and data["summary"]["ok"]


def ordering_combat(app, client, modules):
    """A KWB combat from the setup, rolled through the saved-game API on dice chosen so that its ruling
    orders a unit to lose a step or leave the board; the game, the answer and the changes."""
    from adjudicator.checks import get_check
    from adjudicator.testing import choose_seeds, seed_where
    from tests.engine.play import adjacent_combat, board_request

    setup = setup_of(modules, "kwb")
    combat = adjacent_combat("kwb")
    target = next(p for p in combat.scenario.setup if p.unit == combat.defender).location.partition("@")[0]
    positions = read_positions(load_system_game("kwb"), read_upload(setup))
    side = combat.game.units[combat.attackers[0]].side
    request = board_request("kwb", combat.scenario.id, setup, "combat", side, combat.attackers, target, {})
    orders_a_step = lambda outcome: any(c.step is not None for c in piece_changes(positions, outcome))  # noqa: E731
    choose_seeds(app, {f"kwb/{combat.scenario.id}": seed_where(get_check("kwb", "combat"), request, orders_a_step)})
    game = new_game(client, "kwb", combat.scenario.id)
    answer = client.post(f"/api/v1/games/{game['game_id']}/savedgame/checks/combat?transcript=1",
                         data={"file": (io.BytesIO(setup), "setup.vsav"), "attackers": ",".join(combat.attackers),
                               "target_hex": target, "request": "{}"},
                         content_type="multipart/form-data", headers=bearer(game["tokens"][side]))
    assert answer.status_code == 201, answer.get_json()
    changes = [c for c in piece_changes(positions, answer.get_json()["outcome"]) if c.step is not None]
    assert changes, answer.get_json()["outcome"]  # the dice chosen for it: a step loss ordered
    return game, answer.get_json(), changes


@pytest.mark.slow
def test_a_ruling_whose_step_loss_the_log_does_not_carry_is_not_applied(app, client, modules):
    game, answer, changes = ordering_combat(app, client, modules)
    writer = LogWriter("kwb", setup_of(modules, "kwb"))
    writer.ruling(answer["transcript"])
    data, _ = replay_page(client, game, "observer", writer.log())
    (ruling,) = data["rulings"]
    assert ruling["status"] == "not-applied" and UnitNames.of("kwb").name(changes[0].unit) in ruling["why"]
    assert changes[0].unit not in ruling["why"]  # the verdict's words name units as their counters read
    applied = LogWriter("kwb", setup_of(modules, "kwb"))
    applied.ruling(answer["transcript"])
    for change in changes:
        applied.step(change.unit, change.step)
    unasked = next(p.unit.id for p in applied.positions.on_map() if len(p.unit.steps) > 1
                   and p.step == p.unit.steps[0].name and p.unit.id not in {c.unit for c in changes})
    applied.step(unasked, applied.game.units[unasked].steps[1].name)
    data, _ = replay_page(client, game, "observer", applied.log())
    assert data["rulings"][0]["status"] == "verified"
    marks = [m for s in data["steps"] for m in s.get("n", [])]
    assert any(f"as ruling #{answer['seq']} ordered" in m for m in marks)
    assert any(m.startswith(UnitNames.of("kwb").name(unasked)) and "no ruling of this log ordered" in m for m in marks)


@pytest.mark.slow
def test_a_chain_of_files_a_missing_file_and_a_re_roll(client, modules):
    from test_log_chain import play_a_b_a

    setup = modules[("kwb", 1)][2]["setups/pusan.vsav"]
    g, (file1, file2, file3), (r1, r2, r3, abandoned, r5) = play_a_b_a(client, setup, reroll=True)
    data, _ = replay_page(client, g.game, "un", file1, file2, file3)
    begins = [s for s in data["steps"] if s["k"] == "begin"]
    assert len(begins) == 3 and [s["f"] for s in begins] == [0, 1, 2]
    statuses = [(r["status"], r["seq"]) for r in data["rulings"]]
    assert ("re-roll", abandoned["seq"]) in statuses
    assert [s for s, _ in statuses].count("verified") == 4
    reroll = next(r for r in data["rulings"] if r["status"] == "re-roll")
    assert data["steps"][reroll["step"]]["f"] == 2  # between the third file's rulings: its place in time
    data, _ = replay_page(client, g.game, "un", file1, file3)
    assert [m["seq"] for m in data["summary"]["missing_files"]] == [r3["seq"]]
    assert data["summary"]["breaks"] and not data["summary"]["ok"]


# -- the fog of war -------------------------------------------------------------------------------------------

def names_in(text: str, units) -> set[str]:
    return {u for u in units if re.search(rf"(?<![\w-]){re.escape(u)}(?![\w-])", text)}


@pytest.mark.slow
def test_holdfast_each_side_sees_its_own_blocks_an_observer_none_and_everyone_all_after_the_close(client, modules):
    setup = modules[("holdfast", 1)][2]["setups/campaign.vsav"]
    writer = LogWriter("holdfast", setup)
    game_data = writer.game
    sides = {s: [u for u in writer.pieces if game_data.units[u].side == s] for s in game_data.sides}
    for side, units in sides.items():  # one move each side
        unit = next(u for u in units if writer.hex_of(u))
        grid = game_data.maps[writer.map_of(unit)].grid
        writer.move(unit, grid.label(grid.neighbours(grid.parse(writer.hex_of(unit)))[0]))
    game = new_game(client, "holdfast", "campaign")
    log = writer.log()
    html_of = {}
    for role in ("un", "communist", "observer"):
        data, address = replay_page(client, game, role, log)
        page = (client.get(address).get_data(as_text=True) + client.get(address + "/report.md").get_data(as_text=True)
                + json.dumps(data, ensure_ascii=False))  # the page, its report and every piece of its steps
        html_of[role] = page
        own = sides.get(role, [])
        others = [u for s, units in sides.items() if s != role for u in units]
        assert names_in(page, others) == set(), role
        assert names_in(page, own) >= {u for u in own if writer.hex_of(u)}, role
        hidden = [v for v in data["views"] if v.get("h")]
        assert hidden and all(v["l"].endswith("block") for v in hidden), role
    client.post(f"/api/v1/games/{game['game_id']}/close", headers=bearer(game["tokens"]["un"]))
    data, address = replay_page(client, game, "observer", log)
    every = {u for units in sides.values() for u in units if writer.hex_of(u)}
    assert names_in(json.dumps(data), every) == every
    assert not [v for v in data["views"] if v.get("h")]


@pytest.mark.slow
def test_a_scratch_unit_drawn_is_the_same_placeholder_to_everyone(client, modules):
    """KWB 12.21: the Communist player "may not peek" at his Scratch Units: the module's pool holds
    identical '? 4' placeholders (which counter each is, the adjudicator draws when it is attacked),
    so a drawn one names no counter to anyone, its owner included (the twelve counters lie apart in
    their box, face up: which exist is no secret, which is which is)."""
    from vassalfmt.commands import MovePiece

    setup = modules[("kwb", 1)][2]["setups/seoul.vsav"]
    saved = read_saved_game(setup)
    card = next(p for p in saved.pieces if p.properties.get("UnitId", "").startswith("nk-scratch-"))
    game = load_system_game("kwb")
    game_map = game.maps["seoul"]
    x, y = game_map.grid.center(game_map.grid.parse("0906"))
    log = continue_log(setup, [MovePiece(card.piece_id, game_map.name, x, y, None, card.map_id, card.x, card.y,
                                         None, "").encode()])
    counters = [u for u, unit in game.units.items() if unit.has("scratch")]
    recorded = new_game(client, "kwb", "seoul")
    for role in ("communist", "un", "observer"):
        data, address = replay_page(client, recorded, role, log)
        drawn = [s for s in state_at(data, 1).values() if s[2] == "0906"]
        assert len(drawn) == 1 and not data["views"][drawn[0][0]].get("h"), role  # nothing to hide: '? 4' to all
        assert data["views"][drawn[0][0]]["l"] == card.properties["UnitId"]  # a placeholder: nk-scratch-<n>
        assert data["views"][drawn[0][0]]["l"] not in counters


# -- the after-action report -----------------------------------------------------------------------------------

@pytest.mark.slow
def test_the_after_action_report_lists_each_move_and_each_ruling_with_its_receipt(client, modules):
    game, writer, (r1, r2, r3, _) = kwb_turn(client, modules)
    writer.chat("<b>bold</b> & co")
    data, address = replay_page(client, game, "un", writer.log())
    markdown = client.get(address + "/report.md")
    assert markdown.status_code == 200 and markdown.mimetype == "text/markdown"
    text = markdown.get_data(as_text=True)
    move = next(s for s in data["steps"] if s["k"] == "move")["x"][0]
    assert re.sub(r"([\\`*_\[\]<>#|~])", r"\\\1", move) in text
    for r in data["rulings"]:
        assert r["receipt"].replace("_", "\\_") in text if r["receipt"] else True
    assert f"record {r1['seq']} hash {r1['hash'][:16]}" in text and "verified" in text
    assert "hidden" in text and "altered" in text and "forged" in text
    html = client.get(address + "/report.html")
    assert html.mimetype == "text/html"
    body = html.get_data(as_text=True)
    assert "<script" not in body and body.count("<li") >= len(data["rulings"])
    assert f"record {r2['seq']} hash {r2['hash'][:16]}" in body  # the hidden ruling's receipt, from the ledger


# -- the pages: a recorded game, no recorded game, bad input ------------------------------------------------------

@pytest.mark.slow
def test_without_a_recorded_game_rulings_are_shown_computed_and_unverified(client, modules):
    _, writer, _ = kwb_turn(client, modules)
    response = client.post("/systems/kwb/replay", data={"file": (io.BytesIO(writer.log()), "t.vlog"), "scenario": "pusan"},
                           content_type="multipart/form-data")
    assert response.status_code == 303
    page = replay_settled(client, response.headers["Location"]).get_data(as_text=True)
    data = page_data(client, page)
    assert {r["status"] for r in data["rulings"]} == {"unverified", "unrecorded"}
    assert "not verified" in page.lower() and data["game"] is None
    assert data["turns"][0][0].startswith("Turn 1")
    assert client.get(response.headers["Location"] + "/report.md").status_code == 200


def test_bad_uploads_and_unknown_replays_get_clear_answers(client, modules):
    game = new_game(client, "kwb", "pusan")
    client.post(f"/games/{game['game_id']}", data={"token": game["tokens"]["un"]})
    cases = [({}, 400, "No log"),
             ({"file": (io.BytesIO(b"not a zip"), "x.vlog")}, 422, "cannot be read"),
             ({"file": (io.BytesIO(setup_of(modules, "spi")), "spi.vsav")}, 422, "another system")]
    for data, status, words in cases:
        response = client.post(f"/games/{game['game_id']}/replay", data=data, content_type="multipart/form-data")
        if response.status_code == 303:  # kept, its build begun beside the request: the page says the refusal
            response = replay_settled(client, response.headers["Location"])
        assert response.status_code == status, response.get_data(as_text=True)[:500]
        assert words.lower() in response.get_data(as_text=True).lower()
        assert 'id="replay-error"' in response.get_data(as_text=True)
    assert client.get(f"/games/{game['game_id']}/replay/{'0' * 64}").status_code == 404
    assert client.get(f"/games/{game['game_id']}/replay/not-a-key").status_code == 404
    assert client.get("/systems/nosuch/replay").status_code == 404
    fresh = make_app_client_without_token(client, game)
    assert fresh.status_code == 303 and "/games/" in fresh.headers["Location"]  # to the token form


def make_app_client_without_token(client, game):
    from werkzeug.test import Client

    return Client(client.application).get(f"/games/{game['game_id']}/replay")


@pytest.mark.slow
def test_a_replay_address_opens_at_a_step_and_the_game_page_links_it(client, modules):
    _, writer, _ = kwb_turn(client, modules)
    game = new_game(client, "kwb", "pusan")
    _, address = replay_page(client, game, "un", writer.log())
    page = client.get(address + "?step=3").get_data(as_text=True)
    assert json.loads(re.search(r'id="replay-config">(.*?)</script>', page).group(1))["start"] == 3
    assert f"/games/{game['game_id']}/replay" in client.get(f"/games/{game['game_id']}").get_data(as_text=True)



# -- bounds: built once, a page that does not grow with the log, the work counted (issue 39) ------------------

def moves_log(setup: bytes, moves: int, seed: int = 39) -> bytes:
    """The Pusan setup continued by `moves` moves of units to a neighbouring hex."""
    writer = LogWriter("kwb", setup)
    rng = random.Random(seed)
    on_map = [u for u in writer.pieces if writer.hex_of(u)]
    for _ in range(moves):
        unit = rng.choice(on_map)
        grid = writer.game.maps[writer.map_of(unit)].grid
        writer.move(unit, grid.label(rng.choice(grid.neighbours(grid.parse(writer.hex_of(unit))))))
    return writer.log()


def uploaded(client, game, side: str, log: bytes, name: str = "long.vlog"):
    """The upload's answer (303 to the replay's address), once the build it began has ended."""
    client.post(f"/games/{game['game_id']}", data={"token": game["tokens"][side]})
    response = client.post(f"/games/{game['game_id']}/replay", data={"file": (io.BytesIO(log), name)},
                           content_type="multipart/form-data")
    if response.status_code == 303:
        replay_settled(client, response.headers["Location"])
    return response


def upload_refusal(client, game, side: str, log: bytes):
    """The page of an upload whose build was refused (the upload itself is kept: 303)."""
    client.post(f"/games/{game['game_id']}", data={"token": game["tokens"][side]})
    response = client.post(f"/games/{game['game_id']}/replay", data={"file": (io.BytesIO(log), "long.vlog")},
                           content_type="multipart/form-data")
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    return replay_settled(client, response.headers["Location"])


@pytest.mark.slow
def test_the_page_does_not_grow_with_the_log_and_its_steps_come_in_bounded_pieces(client, modules):
    from adjudicator.logs.replay.build import PIECE_STEPS

    setup = setup_of(modules, "kwb")
    sizes = {}
    for moves in (600, 6000):
        game = new_game(client, "kwb", "pusan")
        address = uploaded(client, game, "un", moves_log(setup, moves)).headers["Location"]
        page = client.get(address).get_data(as_text=True)
        data = page_data(client, page)
        assert len(data["steps"]) == moves + 1 and data["pieces"] == -(-(moves + 1) // PIECE_STEPS)
        config = json.loads(re.search(r'id="replay-config">(.*?)</script>', page).group(1))
        pieces = [client.get(config["pieces"] + str(n)).data for n in range(data["pieces"])]
        sizes[moves] = (len(page.encode("utf-8")), max(len(p) for p in pieces))
    (small_page, small_piece), (big_page, big_piece) = sizes[600], sizes[6000]
    assert big_page < 2 * 1024 * 1024 and big_page - small_page < 40_000, sizes  # ten times the steps, the same page
    assert big_piece < 200_000, sizes  # a piece: PIECE_STEPS steps, each of its moves


def test_a_replay_is_built_once_per_upload_viewer_and_ledger_state(client, modules, monkeypatch):
    from adjudicator.web import replay_pages as pages

    builds = []
    real = pages.build_replay

    def counted(*args, **kwargs):
        builds.append(args[4].label)  # the viewer
        return real(*args, **kwargs)
    monkeypatch.setattr(pages, "build_replay", counted)
    game = new_game(client, "kwb", "pusan")
    log = moves_log(setup_of(modules, "kwb"), 50)
    address = uploaded(client, game, "communist", log).headers["Location"]
    assert len(builds) == 1  # begun by the upload, beside it
    for path in ("", "", "/report.md", "/report.html", "?step=3"):
        assert client.get(address + path).status_code == 200
    page_data(client, client.get(address).get_data(as_text=True))
    assert uploaded(client, game, "communist", log).headers["Location"] == address  # the same file again
    assert len(builds) == 1  # every view, report, piece and the second upload from what was kept
    roll(client, game, "un")  # the ledger moved on: its rulings are judged again, once
    assert replay_settled(client, address).status_code == 200
    client.get(address + "/report.md")
    assert len(builds) == 2
    client.post(f"/api/v1/games/{game['game_id']}/close", headers=bearer(game["tokens"]["un"]))
    replay_settled(client, address)
    client.get(address)
    assert len(builds) == 3 and builds[-1].startswith("everyone")  # closed: seen by everyone, once


def test_a_replay_is_built_beside_the_request_and_its_page_shows_how_far_it_has_come(client, modules, monkeypatch):
    """The upload answers before the build ends; the page (202) and its JSON status say the build is
    under way; a client's third build at once is refused with what to do; the page opens the
    replay once it is built."""
    import threading

    from adjudicator.logs import background
    from adjudicator.web import replay_pages as pages

    release, began = threading.Event(), threading.Event()
    real = pages.build_replay

    def held(*args, **kwargs):
        began.set()
        assert release.wait(60)
        return real(*args, **kwargs)
    monkeypatch.setattr(pages, "build_replay", held)
    game = new_game(client, "kwb", "pusan")
    setup = setup_of(modules, "kwb")
    client.post(f"/games/{game['game_id']}", data={"token": game["tokens"]["un"]})

    def post(log: bytes):
        return client.post(f"/games/{game['game_id']}/replay", data={"file": (io.BytesIO(log), "turn.vlog")},
                           content_type="multipart/form-data")
    try:
        first = post(moves_log(setup, 30, seed=1))
        assert first.status_code == 303 and began.wait(60)
        address = first.headers["Location"]
        page = client.get(address)
        assert page.status_code == 202 and 'id="replay-progress"' in page.get_data(as_text=True)
        status = client.get(address + "/status").get_json()
        assert status["state"] == "running" and status["phase"].startswith("building the steps")
        assert client.get(address + "/report.md").status_code == 503  # not built yet: ask again
        assert post(moves_log(setup, 31, seed=2)).status_code == 303  # a second one waits its turn
        third = post(moves_log(setup, 32, seed=3))
        assert third.status_code == 429 and third.headers["Retry-After"]
        assert f"at most {background.MAX_PER_CLIENT} at once" in third.get_data(as_text=True)
    finally:
        release.set()
    assert replay_settled(client, address).status_code == 200
    assert client.get(address + "/status").get_json() == {"state": "ready"}


def test_one_bound_on_a_logs_length_for_every_path(modules, monkeypatch):
    """The replay, the log check and the saved-game pages read a log under the same bound, and a log
    over it is refused in words that say the bound and what to do."""
    from dataclasses import replace

    from adjudicator.bridge import upload as upload_module
    from adjudicator.bridge.errors import BridgeError
    from adjudicator.logs.replay import build

    assert upload_module.SAVEDGAME_WORK.max_commands == upload_module.MAX_LOG_COMMANDS == build.MAX_REPLAY_COMMANDS
    monkeypatch.setattr(upload_module, "SAVEDGAME_WORK", replace(upload_module.SAVEDGAME_WORK, max_commands=200))
    writer = LogWriter("kwb", setup_of(modules, "kwb"))
    for n in range(300):
        writer.chat(f"line {n}")
    with pytest.raises(BridgeError) as refused:
        upload_module.read_upload(writer.log())
    assert refused.value.status == 413 and "200 commands" in refused.value.detail and "End Logfile" in refused.value.detail


@pytest.mark.slow
def test_a_replay_over_its_bound_is_refused_with_what_to_do(client, modules, monkeypatch):
    from adjudicator.logs.replay import build

    monkeypatch.setattr(build, "MAX_REPLAY_COMMANDS", 300)
    game = new_game(client, "kwb", "pusan")
    setup = setup_of(modules, "kwb")
    assert replay_settled(client, uploaded(client, game, "un", moves_log(setup, 100)).headers["Location"]).status_code == 200
    refused = upload_refusal(client, game, "un", moves_log(setup, 400))
    page = refused.get_data(as_text=True)
    assert refused.status_code == 413 and 'id="replay-error"' in page
    assert "at most 300 commands" in page and "End Logfile" in page


def test_building_the_replay_is_counted_in_the_builds_time_budget(client, modules, monkeypatch):
    """Reading the file fits the budget; the build after it looks at the same budget and stops."""
    from adjudicator.bridge.upload import Budget
    from adjudicator.web import replay_pages as pages

    class SpentWhileBuilding(Budget):
        def check(self, doing: str) -> None:
            if doing == "building the replay":
                self.seconds = 0.0  # the reading took it all
            super().check(doing)
    monkeypatch.setattr(pages, "Budget", SpentWhileBuilding)
    game = new_game(client, "kwb", "pusan")
    refused = upload_refusal(client, game, "un", moves_log(setup_of(modules, "kwb"), 600))
    assert refused.status_code == 503 and refused.headers["Retry-After"]
    assert "Building the replay took longer than" in refused.get_data(as_text=True)


@pytest.mark.slow
def test_what_a_log_repeats_is_cut_in_the_page_its_pieces_and_its_report(client, modules):
    """A 1 MB chat line and 5,000 lines made to look like rulings: cut, and the forged ones listed only
    so far on the page (stepped to with N and P)."""
    from adjudicator.logs.replay.build import MAX_TABLE_RULINGS

    game = new_game(client, "kwb", "pusan")
    writer = LogWriter("kwb", setup_of(modules, "kwb"))
    writer.chat("B" * 1_000_000)
    for n in range(5000):
        writer.chat(f"[ADJ {game['game_id']}#{1000 + n}] RULING made up {n} " + "C" * 500)
    address = uploaded(client, game, "un", writer.log()).headers["Location"]
    page = client.get(address).get_data(as_text=True)
    assert len(page.encode("utf-8")) < 2 * 1024 * 1024 and "B" * 300 not in page and "C" * 300 not in page
    assert page.count('data-status="forged"') <= MAX_TABLE_RULINGS + 100 and 'id="replay-rulings-more"' in page
    data = page_data(client, page)
    assert len(data["rulings"]) == 5000 and all(len(line) <= 200 for r in data["rulings"] for line in r["lines"])
    assert max(len(json.dumps(s)) for s in data["steps"]) < 10_000
    report = client.get(address + "/report.md").get_data(as_text=True)
    assert "C" * 300 not in report and "B" * 300 not in report


@pytest.mark.parametrize("system", GAMES)
def test_a_counter_is_written_by_its_name_never_its_id(system):
    """Issue 51: the replay wrote a counter without a picture, and every unit off the hex maps, by its
    id ("usmc-1-r"). Each look carries the name players read ("n": a unit as its counter reads, a
    marker by its name), which the page writes; its id stays in "l" for the page's data attributes."""
    from adjudicator.logs.replay.board import Where
    from adjudicator.logs.replay.views import Identity, view_of

    game = load_system_game(system)
    names = UnitNames.of(system)
    for unit in game.units.values():
        look = view_of(game, Identity("unit", "", unit=unit), Where(None, 0, 0), False).to_json()
        assert (look["l"], look.get("n", look["l"])) == (unit.id, names.name(unit.id)), look
    for marker in game.markers.values():
        look = view_of(game, Identity("marker", "", marker=marker), Where(None, 0, 0), False).to_json()
        assert (look["l"], look.get("n", look["l"])) == (marker.id, marker.name), look
