"""The replay of logs the real VASSAL 3.7.26 engine wrote (issue 31), in all four games.

One engine run per game (tests/replay_play.py): the side moving first, through the Adjudicator
extension against a real adjudicator (gunicorn, a SQLite file), creates a recorded game, begins a
log, moves a unit, types "checkpoint A" and saves, asks a combat and a supply report, draws from a
pile where the game has one, loses a step by hand, moves again, asks another supply report, types
"checkpoint B" and saves; after each save the harness lists every piece as each side sees it.

The opponent then opens the log on the replay page in headless Chromium and steps through it with
the arrow key: at the start and at each checkpoint the board drawn is the engine's own position at
that point, as the opponent's side sees it (his units by hex and step, the other side's hidden ones
by hex), and every unit shown stands where the engine's saved file (a.vsav, b.vsav) has it; every
ruling is verified, or, where the combat ordered a loss the player did not carry out, named not applied:
each game's dice are chosen (`VERDICTS`), so each ruling has one verdict.
Then the same log as a cheating player would send it — ruling 2 taken out, a line of ruling 3
edited, a ruling the ledger never made put in before ruling 1 — and each verdict shows where it
happened. Skipped without VASSAL_ENGINE_JAR.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from pathlib import Path

import pytest

from modgen.buildfile import main_map_name
import requests

from adjudicator.bridge import load_system_game
from adjudicator.testing import seeds_env
from adjudicator.words.names import UnitNames
from bench.server import Gunicorn
from replay_play import CHECKPOINTS, Turn, turn_steps
from test_pages_browser import browser  # noqa: F401 (fixture)
from test_replay import rewrite, units_of_file
from test_replay_browser import REPLAY_DATA_JS, board_of, press, step_shown, upload
from test_savedgame_browser import log_in
from tests.engine.play import player_fields

pytestmark = [pytest.mark.engine, pytest.mark.browser]

GAMES = ["kwb", "spi", "holdfast", "fireandice"]
#: The file the engine saved at each checkpoint (tests/replay_play.py).
SAVES = {CHECKPOINTS[0]: "a.vsav", CHECKPOINTS[1]: "b.vsav"}

#: The board as the page draws it for the hidden pieces: hex -> how many the viewer may not see.
HIDDEN_JS = """
const out = {};
for (const g of document.querySelectorAll('svg g.rstack')) {
  if (Number(g.dataset.hidden)) out[g.dataset.hex] = Number(g.dataset.hidden);
}
return out;
"""


#: The combat's verdict in the log of each game, on the dice `chosen` gives it: in KWB, HoldFast and
#: Fire and Ice the combat orders nothing the asker must apply (the step loss the player takes by hand
#: comes after the next ruling: no ruling ordered it); in SPI every result of the setup's combat
#: changes a unit: the defender's elimination the player never carries out is named not applied.
VERDICTS = {"kwb": "verified", "spi": "not-applied", "holdfast": "verified", "fireandice": "verified"}


def combat_request(game_id: str, modules, systems: dict) -> tuple[Turn, str, dict]:
    """The turn, the attacking side and the combat's request as the extension sends it: the setup's
    board after the turn's first move (a request that lists every unit's hex lists the mover's new one)."""
    from tests.engine.play import board_request, hex_label

    turn = turn_steps(game_id, "", player_fields(systems[game_id], "combat"), Path("unused"))
    combat = turn.combat
    setup = modules[(game_id, 1)][2][f"setups/{combat.scenario.id}.vsav"]
    side = combat.game.units[combat.attackers[0]].side
    request = board_request(game_id, combat.scenario.id, setup, "combat", side, combat.attackers,
                            hex_label(combat, combat.defender), player_fields(systems[game_id], "combat"))
    first = turn.steps[turn.at["first move"]]
    for placed in request.get("positions", []):
        if placed["unit"] == first["piece"]["id"]:
            placed["hex"] = first["to"]["location"]
    return turn, side, request


def wanted(game_id: str, turn: Turn, side: str, request: dict):
    """The outcome `VERDICTS` is about: in SPI the defender eliminated and nothing else; elsewhere no
    change the asker makes but a step (or SP) the request says the unit shows already."""
    from adjudicator.unit_changes import ELIMINATED, STEP, ruled_changes
    from adjudicator.unit_owners import owners_of
    from adjudicator.unit_changes import canonical_outcome

    listed = [request.get(key) for key in ("attackers", "defenders", "defender")]
    shown = {u["unit"]: u for units in listed if units for u in (units if isinstance(units, list) else [units])}

    def changes(outcome):
        return ruled_changes(canonical_outcome({"outcome": outcome}), owners_of(game_id), side)

    def already_so(change) -> bool:
        now = shown.get(change.unit, {})
        return change.kind == STEP and change.unit in shown and change.step in (None, now.get("step")) \
            and change.sp in (None, now.get("sp"))

    if VERDICTS[game_id] == "not-applied":
        return lambda o: [(c.unit, c.kind) for c in changes(o)] == [(turn.combat.defender, ELIMINATED)]
    return lambda o: all(c.applied_by not in ("", side) or already_so(c) for c in changes(o))


@pytest.fixture(scope="module")
def chosen(modules) -> dict[str, bytes]:
    """Each game's seed: its combat (record 1) has the outcome `wanted` says yes to."""
    from adjudicator.checks import get_check
    from adjudicator.testing import make_app, seed_where

    with tempfile.TemporaryDirectory() as folder:
        listed = make_app(Path(folder)).test_client().get("/api/v1/systems").get_json()["systems"]
    systems = {s["id"]: s for s in listed}
    seeds = {}
    for game_id in GAMES:
        turn, side, request = combat_request(game_id, modules, systems)
        seeds[f"{game_id}/{turn.combat.scenario.id}"] = seed_where(get_check(game_id, "combat"), request,
                                                                    wanted(game_id, turn, side, request))
    return seeds


@pytest.fixture(scope="module")
def server(tmp_path_factory, chosen):
    running = Gunicorn(workdir=tmp_path_factory.mktemp("replay-adjudicator"), app="adjudicator.testing:make_test_app()",
                       extra_env=seeds_env(chosen)).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def played(engine, engine_module, server, tmp_path_factory):
    """game id -> (the turn's steps, the engine's run), each game played once when first asked."""
    systems = {s["id"]: s for s in requests.get(server.url + "/api/v1/systems", timeout=30).json()["systems"]}
    done: dict[str, tuple[Turn, object]] = {}

    def play(game_id: str):
        if game_id not in done:
            files = tmp_path_factory.mktemp(f"replay-{game_id}")
            turn = turn_steps(game_id, server.url, player_fields(systems[game_id], "combat"), files)
            run = engine(engine_module(game_id), turn.steps, timeout=300, prefs_dir=files / "prefs")
            assert run.ok, run.failure()
            done[game_id] = (turn, run)
        return done[game_id]
    return play


def engine_board(game, listing: dict) -> tuple[dict[str, tuple[str, str]], Counter]:
    """(unit -> (hex, step) of the units the viewer sees, hex -> hidden pieces) from the engine's list."""
    hex_maps = {m.name for m in game.maps.values()} | {main_map_name(game)}  # the main map shows the scenario's
    seen, hidden = {}, Counter()
    for piece in listing["pieces"]:
        if piece["map"] not in hex_maps:
            continue
        if piece["obscured"]:
            hidden[piece["location"]] += 1
            continue
        unit = piece["properties"].get("UnitId")
        if unit:
            level = int(piece["properties"].get("Step_Level") or 1)
            seen[unit] = (piece["location"], game.units[unit].steps[level - 1].name)
    return seen, hidden


def log_in_afresh(driver, base: str, game_id: str, token: str) -> None:
    """Forget the token this browser remembers for the game (its cookie's path is the game's), then log in."""
    driver.get(f"{base}/games/{game_id}")
    driver.delete_all_cookies()
    log_in(driver, base, game_id, token)


def replay_data(driver) -> dict:
    return driver.execute_async_script(REPLAY_DATA_JS)


def assert_board_is(driver, game, listing: dict, where: str) -> None:
    seen, hidden = engine_board(game, listing)
    assert board_of(driver) == seen, where
    assert Counter(driver.execute_script(HIDDEN_JS)) == hidden, where


@pytest.mark.parametrize("game_id", GAMES)
def test_the_engines_log_replays_step_by_step_as_the_engine_saved_it(played, browser, server, tmp_path, game_id):
    from selenium.webdriver.common.keys import Keys

    turn, run = played(game_id)
    created = run.result(turn.at["create"])["returned"]
    viewer = turn.defending_side
    game = load_system_game(game_id)
    name = game.sides[viewer].name
    log_in_afresh(browser, server.url, created["game_id"], created["tokens_for_others"][viewer])
    upload(browser, server.url, f"/games/{created['game_id']}/replay", turn.files / "turn.vlog")
    data = replay_data(browser)
    checkpoints = {text: next(i for i, s in enumerate(data["steps"]) if any(text in c for c in s.get("c", [])))
                   for text in CHECKPOINTS}
    assert_board_is(browser, game, run.result(turn.at[f"start as {name}"]), "start")
    boards = {"start": board_of(browser)}
    for step in range(1, len(data["steps"])):
        press(browser, Keys.ARROW_RIGHT)
        assert step_shown(browser) == step
        for text, at in checkpoints.items():
            if at == step:
                assert_board_is(browser, game, run.result(turn.at[f"{text} as {name}"]), text)
                boards[text] = board_of(browser)
                saved = units_of_file(game_id, (turn.files / SAVES[text]).read_bytes())  # the engine's own save
                assert {u: saved.get(u) for u in boards[text]} == boards[text], text
    # the comparisons above meant something: the side moving first moved (his units the viewer may see)
    moved = {u for u in boards["start"] if boards["start"][u] != boards[CHECKPOINTS[1]].get(u)}
    assert moved or game_id == "holdfast", "no move seen"  # HoldFast: the mover's blocks are hidden from the viewer
    rulings = data["rulings"]
    assert [r["seq"] for r in rulings] == [1, 2, 3]
    assert [r["status"] for r in rulings] == [VERDICTS[game_id], "verified", "verified"]
    if VERDICTS[game_id] == "not-applied":  # the loss the player did not carry out: named
        called = UnitNames.of(game_id).name(turn.combat.defender)  # the verdict names it as its counter reads
        assert "ordered" in rulings[0]["why"] and called in rulings[0]["why"]
    kinds = {s["k"] for s in data["steps"]}
    assert {"move", "ruling"} <= kinds and data["summary"]["moves"] >= 2
    if "draw" in turn.at:
        assert "draw" in kinds


def cheat(data: bytes, game_id: str, answers: list[dict]) -> bytes:
    """The engine's log as a cheating player sends it: ruling 2's entry taken out, ruling 3's
    second line edited, and a ruling the ledger never made (record 42) before ruling 1."""
    from vassalfmt.commands import chat_command

    first, second, third = answers
    fake = [line.replace(f"#{first['seq']}]", "#42]").replace(f"record {first['seq']} hash", "record 42 hash")
            for line in first["lines"]]

    def change(fields: list[str]) -> list[str]:
        out = []
        for field in fields:
            if second["lines"][-1] in field:
                continue
            if first["lines"][0] in field:
                out.append("LOG\t" + chat_command(fake[0]))
                out += ["LOG\t" + chat_command(line) for line in fake[1:]]
            if third["lines"][1] in field:
                field = field.replace(third["lines"][1], third["lines"][1] + " (as I remember it)")
            out.append(field)
        return out
    return rewrite(data, change)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_tampered_a_hidden_and_a_forged_ruling_each_shown_where_it_happened(played, browser, server, tmp_path,
                                                                             game_id):
    turn, run = played(game_id)
    created = run.result(turn.at["create"])["returned"]
    answers = [run.result(turn.at[name])["returned"] for name in ("combat", "supply 1", "supply 2")]
    path = tmp_path / "cheat.vlog"
    path.write_bytes(cheat((turn.files / "turn.vlog").read_bytes(), game_id, answers))
    log_in_afresh(browser, server.url, created["game_id"], created["tokens_for_others"]["observer"])
    upload(browser, server.url, f"/games/{created['game_id']}/replay", path)
    assert browser.find_element("id", "replay-verdict").get_attribute("data-ok") == "no"
    seen = []
    for _ in range(4):
        press(browser, "n")
        box = browser.find_element("css selector", "#replay-step section.ruling")
        seen.append((box.get_attribute("data-status"), box.get_attribute("data-seq"), step_shown(browser),
                     browser.find_element("id", "replay-step").text))
    assert [(s, q) for s, q, _, _ in seen][:1] == [("forged", "42")]
    assert seen[1][:2] == (VERDICTS[game_id], "1")  # ruling 1 judged as in the honest log
    assert [(s, q) for s, q, _, _ in seen][2:] == [("hidden", "2"), ("altered", "3")]
    forged, first, hidden, altered = seen
    assert forged[2] < first[2] < hidden[2] < altered[2]
    assert f"between step {first[2]} and step {altered[2]}" in hidden[3]
    assert "(as I remember it)" in altered[3] and "the ledger says" in altered[3].lower()
    assert "no ruling 42" in forged[3]
