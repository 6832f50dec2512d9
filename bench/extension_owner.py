"""The checks another player asks after a combat, timed in a Player of his own (bench/extension.py's
second half): the combat's losses, asked by the side that lost it, and the owner of a hidden block
applying the change the opponent's combat ruled for it.

Both are played "by files", as two players at two computers do between sittings: the first
player's save is loaded by the second in a Player with its own preferences (a computer of his own),
who takes his side in the engine's wizard and joins the recorded game with his side's token.

- Fire and Ice's combat losses: the Invasion's save after the first player's combats (each the
  same attack, the server's dice the test app's fixed seed of the game, so the same run gives the
  same losers); the UN player right-clicks the defender, "Combat losses for this unit", ticks
  "eliminate every participating unit" (what satisfies any spread) and presses OK, once for each
  combat the UN lost (read from the ledger before his script is written); each ruling settles the
  last combat not yet settled (5.6).
- HoldFast's hidden block: the Communist player attacks the ROK 1st, a UN block hidden from him,
  in the Campaign Game; the game's dice are chosen (adjudicator.testing's seeds) so the ruling takes
  the block from 2 SP to 1. The UN player loads that save, Adjudicator > "Apply the rulings' changes
  to my pieces", and presses Yes in the dialog; timed from the robot's press on Yes to the chat line
  the extension writes once the block's own commands have run (the same event-thread task: the board
  changed just before it), then the block is read on the board (its third edge up). Each round loads
  the save again (the block back at 2 SP), so every round applies the same change.
"""

from __future__ import annotations

import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import requests

HOLDFAST = "holdfast"
LOSSES_FORM = "^Adjudicator: Combat losses"
APPLY_DIALOG = "apply the rulings' changes to your pieces"


@dataclass(frozen=True)
class HiddenBlock:
    """HoldFast's Campaign Game: the Communist `attacker` attacks the UN `block` (hidden from him)."""

    scenario: str       # scenario id
    scenario_name: str
    attacker: str
    block: str
    block_hex: str      # as printed
    communist: str      # the sides' roster names
    un: str


def hidden_block() -> HiddenBlock:
    """The attack of tests/test_vassal_live_play.py (the 4th NKPA on the ROK 1st), from the setup."""
    from tests.engine.play import adjacent_combat, hex_label

    counter = adjacent_combat(HOLDFAST, side="un")
    attack = adjacent_combat(HOLDFAST, skip=tuple(counter.attackers))
    sides = attack.game.sides
    return HiddenBlock(attack.scenario.id, attack.scenario.name, attack.attackers[0], attack.defender,
                       hex_label(attack, attack.defender), sides["communist"].name, sides["un"].name)


def holdfast_seeds(module: Path) -> dict[str, bytes]:
    """The Campaign Game's dice: record 1 (the attack, as the board and the form ask it) takes the
    block one SP down and leaves it on the board, the attacker unchanged."""
    from adjudicator.checks import get_check
    from adjudicator.testing import make_app, seed_where
    from tests.engine.play import board_request, player_fields

    block = hidden_block()
    with zipfile.ZipFile(module) as archive:
        setup = archive.read(f"setups/{block.scenario}.vsav")
    with tempfile.TemporaryDirectory(prefix="bench-systems-") as tmp:
        systems = make_app(Path(tmp)).test_client().get("/api/v1/systems").get_json()["systems"]
    fields = player_fields(next(s for s in systems if s["id"] == HOLDFAST), "combat")
    request = board_request(HOLDFAST, block.scenario, setup, "combat", "communist", [block.attacker],
                            block.block_hex, fields)

    def wanted(o) -> bool:
        d = o["defender"]
        return d["sp"] == d["sp_before"] - 1 and not d["eliminated"] and all(a["sp"] == a["sp_before"] for a in o["attackers"])

    return {f"{HOLDFAST}/{block.scenario}": seed_where(get_check(HOLDFAST, "combat"), request, wanted)}


def losses_script(save: Path, server_url: str, game: dict, defender: str, un: str, seqs: list[int], shares: int = 0):
    """The UN player's Player: Alice's save loaded as the UN, the recorded game joined, then one
    losses ruling per combat the UN lost (`seqs`: the record numbers they will get), then `shares`
    more asked as the menu entry does without the form (the extension's `check`, its stamps: the
    board read and request, the server, the chat). Answers the script, each round's (OK clicked
    step, ruling shown step) and the stamped steps."""
    import json

    from bench.extension import ROLL_AGAIN
    from tests.engine.play import Script, call, menu_of, open_game, sign_in

    s = Script()
    s.add(*sign_in("Loser"), *open_game(save, None, side=un))
    s.add(call("connect", server_url), call("joinRecordedGame", game["game_id"], game["tokens_for_others"]["un"]))
    rounds = []
    for seq in seqs:
        s.add(menu_of(defender, "adjudicator/check:combat_losses"), {"do": "wait_window", "window": LOSSES_FORM})
        s.add({"do": "click", "window": LOSSES_FORM, "on": "/eliminate_all"})
        s.add({"do": "click", "window": LOSSES_FORM, "on": "OK"})
        clicked = len(s.steps) - 1
        s.add(ROLL_AGAIN)
        s.add({"do": "wait_chat", "match": rf"#{seq}\] verify: ", "timeout": 60})
        rounds.append((clicked, len(s.steps) - 1))
        s.add({"do": "click_if", "window": "^Adjudicator: (notice|the ruling orders|not yours to apply)", "on": "OK",
               "timeout": 1.0})
        s.add({"do": "click_if", "window": "apply the ruling", "on": "No", "timeout": 1.0})
    s.add({"do": "person", "on": False})  # the rulings' notices closed as they show: no person asks here
    stamped = []
    for _ in range(shares):
        s.add(call("check", "combat_losses", defender, json.dumps({"eliminate_all": True})))
        stamped.append(len(s.steps) - 1)
    s.add({"do": "person", "on": True})
    return s, rounds, stamped


def lost_by(server_url: str, game: dict, side: str) -> tuple[list[int], int]:
    """The combats of the recorded game `side` lost (record numbers), and the next record's number."""
    records = requests.get(f"{server_url}/api/v1/games/{game['game_id']}/ledger", timeout=60,
                           headers={"Authorization": f"Bearer {game['your_token']}"}).json()["records"]
    lost = [r["seq"] for r in records if r["body"]["check"] == "fireandice.combat"
            and (r["body"].get("result") or {}).get("outcome", {}).get("loser_side") == side]
    return lost, max(r["seq"] for r in records) + 1


def attack_script(server_url: str, block: HiddenBlock, save: Path):
    """The Communist player's Player: the Campaign Game, a recorded game created, the block attacked
    (record 1, its dice chosen), the game saved. Answers the script and the step that created the game."""
    from tests.engine.play import Script, call, menu_of, save_as, select, sign_in, start_scenario

    form = "^Adjudicator: Combat"
    s = Script()
    s.add(*sign_in("Attacker"), *start_scenario(block.scenario_name, block.communist, None))
    s.add(call("connect", server_url), call("createRecordedGame", "", ""), name="created")
    s.add(*select(block.attacker), menu_of(block.block, "adjudicator/check:combat"), {"do": "wait_window", "window": form})
    s.add({"do": "click", "window": form, "on": "OK"}, {"do": "wait_chat", "match": r"#1\] verify: ", "timeout": 60})
    s.add({"do": "click_if", "window": "^Adjudicator: not yours to apply", "on": "OK", "timeout": 5})
    s.add({"do": "click_if", "window": "apply the ruling", "on": "No", "timeout": 1.0})
    s.add(*save_as(save))
    return s


def apply_script(save: Path, server_url: str, game: dict, block: HiddenBlock, rounds: int):
    """The UN player's Player: each round the save loaded (the block at 2 SP again), the recorded game
    joined, Adjudicator > Apply the rulings' changes to my pieces, Yes; the block read afterwards.
    Answers the script and each round's steps: (the menu entry clicked: its press; the dialog waited
    for: its opening; Yes clicked: its press; the applied line)."""
    from tests.engine.play import Script, call, close_game, open_game, sign_in

    s = Script()
    s.add(*sign_in("Owner"))
    timed = []
    for i in range(rounds):
        if i:
            s.add(*close_game())
        s.add(*open_game(save, None, side=block.un))
        s.add(call("connect", server_url), call("joinRecordedGame", game["game_id"], game["tokens_for_others"]["un"]))
        s.add({"do": "toolbar_click", "button": "Adjudicator", "path": ["apply-owed"]})
        menu = len(s.steps) - 1
        s.add({"do": "wait_window", "window": APPLY_DIALOG})
        s.add({"do": "click", "window": APPLY_DIALOG, "on": "Yes"})
        s.add({"do": "wait_chat", "match": r"player applied the change of ruling #1 to his pieces", "count": i + 1,
               "timeout": 60})
        timed.append((menu, menu + 1, menu + 2, menu + 3))
        s.add({"do": "wait_piece", "piece": {"id": block.block}, "properties": {"Step_Level": "3"}, "timeout": 10})
    return s, timed


def board_changes_from_python(server_url: str, game: dict, repeat: int) -> list[float]:
    """The server's share of the apply: the owed changes the extension asks for (GET board-changes
    with the owner's token), from Python."""
    import time

    times = []
    url = f"{server_url}/api/v1/games/{game['game_id']}/board-changes"
    with requests.Session() as session:
        for _ in range(repeat):
            started = time.perf_counter()
            answer = session.get(url, headers={"Authorization": f"Bearer {game['tokens_for_others']['un']}"}, timeout=60)
            times.append((time.perf_counter() - started) * 1000)
            if answer.status_code != 200:
                raise RuntimeError(f"board-changes from Python: {answer.status_code} {answer.text[:300]}")
    return times
