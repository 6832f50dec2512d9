"""The log check knows what players do to the board (issue 38), for the four games, in-process.

A recorded game's dice are chosen (adjudicator.testing.seed_where) so its ruling orders the
change a test is about: a step, an elimination, a replacement, a move to a hex the rules name. The
ruling is then applied three ways to the game's own setup, as logs: by the web write-back (the
page's "Download as VASSAL log"), by hand with the module's own commands as the engine writes them
(Step loss, Eliminate — or a drag into the dead pile, a deletion, a counter drawn from the cup), and
not at all. The verdicts: verified, verified, not applied. A change only the opponent can make (his
hidden HoldFast block) is his to make in his next file of the chain.
"""

from __future__ import annotations

import copy
import io
from dataclasses import dataclass, field

import pytest

from adjudicator.bridge import read_positions, read_upload
from adjudicator.bridge.fill import Pointed
from adjudicator.bridge.identify import step_layer
from adjudicator.bridge.locate import BOXES_MAP
from adjudicator.bridge.writeback import piece_changes, ruling_log
from adjudicator.checks import get_check, side_label
from adjudicator.logs.board import log_events
from adjudicator.logs.replay.timeline import TimelineBuilder
from adjudicator.logs.replay.views import Viewer
from adjudicator.testing import bearer, choose_seeds, make_app, seed_where
from tests.session_lines import session_line
from adjudicator.unit_changes import ELIMINATED, MOVED, REPLACED, RETREAT, STEP, ruled_changes
from adjudicator.unit_owners import owners_of
from adjudicator.words.names import UnitNames
from scenarios import load_game
from scenarios.boxboard import boxes_layout, dead_pile
from tests.engine.play import adjacent_combat, board_request, hex_label, player_fields, setup_hexes
from tests.replay_logs import saved_at_end
from vassalfmt import continue_log, read_saved_game
from vassalfmt.commands import ChangePiece, MovePiece, RemovePiece, chat_command


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("log-board"))


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def systems(client):
    return {s["id"]: s for s in client.get("/api/v1/systems").get_json()["systems"]}


# -- a recorded game whose dice are chosen, and the logs made from its setup ---------------------------

class Hand:
    """Piece commands as the engine writes them when a player uses the module's own commands or
    drags a piece: Step loss / Restore step (the piece's state, its Step layer moved), Eliminate
    (a move to the centre of its side's dead pile on the Boxes map), a drag, Delete."""

    def __init__(self, game, setup: bytes):
        self.game = game
        self.saved = read_saved_game(setup)
        self.pieces = {p.piece_id: p for p in self.saved.pieces}
        self.now = {pid: copy.deepcopy(p.piece) for pid, p in self.pieces.items()}
        self.at = {pid: (p.map_id, p.x, p.y) for pid, p in self.pieces.items()}
        self.unit_piece = {p.properties.get("UnitId"): p.piece_id for p in self.saved.pieces if p.properties.get("UnitId")}

    def piece(self, unit: str) -> str:
        return self.unit_piece[unit]

    def step_loss(self, unit: str, levels: int = 1) -> list[str]:
        pid = self.piece(unit)
        old = self.now[pid]
        new = copy.deepcopy(old)
        layer = step_layer(new)
        level = abs(layer.level) + levels
        layer.level = level if layer.level >= 0 else -level
        self.now[pid] = new
        word = "Step loss" if levels > 0 else "Restore step"
        return [ChangePiece(pid, new.state_string(), old.state_string()).encode(),
                chat_command(f"* {word}: {old.name} -> {new.name} (hand)")]

    def eliminate(self, unit: str) -> list[str]:
        box = dead_pile(self.game, self.game.units[unit].side)
        x, y = boxes_layout(self.game).centres[box.id]
        return self.drag(unit, BOXES_MAP, x, y) + [chat_command(f"* Eliminate: {unit} -> {unit} ({box.name})")]

    def drag_into_dead_pile(self, unit: str) -> list[str]:
        """A drag that drops the piece in its dead pile box, not on the box's centre."""
        box = dead_pile(self.game, self.game.units[unit].side)
        left, top = boxes_layout(self.game).positions[box.id]
        return self.drag(unit, BOXES_MAP, left + 40, top + 60)

    def drag(self, unit: str, map_id: str, x: int, y: int) -> list[str]:
        pid = self.piece(unit)
        old_map, old_x, old_y = self.at[pid]
        self.at[pid] = (map_id, x, y)
        basic = self.now[pid].basic
        basic.map_id, basic.x, basic.y = map_id, x, y
        return [MovePiece(pid, map_id, x, y, None, old_map, old_x, old_y, None).encode()]

    def onto(self, unit: str, other: str) -> list[str]:
        """`unit`'s piece dragged onto the spot `other`'s piece stood on when the file began."""
        spot = self.pieces[self.piece(other)]
        return self.drag(unit, spot.map_id, spot.x, spot.y)

    def delete(self, unit: str) -> list[str]:
        return [RemovePiece(self.piece(unit)).encode()]

    def retreat(self, unit: str, hexes: int) -> list[str]:
        """A drag of the unit's piece to a hex `hexes` hexes from the one it stands on (its owner's
        choice of hexes: any such hex)."""
        saved = self.saved
        placed = next(p for p in read_positions(self.game, saved).units if p.unit.id == unit)
        game_map = self.game.maps[placed.location.map]
        grid, board = game_map.grid, game_map.board_grid(read_positions(self.game, saved).scale)
        start = grid.parse(placed.location.hex)
        target = next(h for h in game_map.hexes() if grid.distance(start, h) == hexes)
        return self.drag(unit, self.at[self.piece(unit)][0], *board.center(board.parse(grid.label(target))))


@dataclass
class Table:
    """A recorded game of one scenario, its seed chosen, and logs that continue its setup."""

    app: object
    client: object
    game_id: str
    scenario: str
    setup: bytes
    game: object = None
    recorded: dict = field(default_factory=dict)

    def start(self, seed: bytes | None = None) -> "Table":
        if seed is not None:
            choose_seeds(self.app, {f"{self.game_id}/{self.scenario}": seed})
        answer = self.client.post("/api/v1/games", json={"system": self.game_id, "scenario": self.scenario})
        self.recorded = answer.get_json()
        self.game = load_game(self.game_id)
        return self

    def roll(self, check: str, body: dict, side: str) -> dict:
        response = self.client.post(f"/api/v1/games/{self.recorded['game_id']}/{check}?transcript=1&changes=1",
                                    json=body, headers=bearer(self.recorded["tokens"][side]))
        assert response.status_code == 201, response.get_json()
        return response.get_json()

    def log(self, *parts: list[str]) -> bytes:
        return continue_log(self.setup, [command for part in parts for command in part])

    def written_back(self, answer: dict, before: list[str] = ()) -> bytes:
        """The web write-back's log of the ruling (the setup, `before` steps, the ruling)."""
        data = continue_log(self.setup, list(before)) if before else self.setup
        saved = read_upload(data)
        positions = read_positions(self.game, saved)
        changes = piece_changes(positions, answer["outcome"], answer["side"])
        return ruling_log(data, saved, positions, answer["transcript"], changes)

    def check(self, *files: bytes) -> dict:
        data = {"file": [(io.BytesIO(f), f"file{n}.vlog") for n, f in enumerate(files, start=1)]}
        response = self.client.post(f"/api/v1/games/{self.recorded['game_id']}/savedgame/log-check", data=data,
                                    content_type="multipart/form-data",
                                    headers=bearer(self.recorded["tokens"]["observer"]))
        assert response.status_code == 200, response.get_json()
        return response.get_json()


def lines(answer: dict) -> list[str]:
    return [chat_command(line) for line in answer["transcript"]]


def verdicts(report: dict) -> list[tuple[int, str]]:
    return [(r["seq"], r["status"]) for r in report["rulings"]]


def table(app, client, modules, game_id: str, scenario: str) -> Table:
    return Table(app, client, game_id, scenario, modules[(game_id, 1)][2][f"setups/{scenario}.vsav"])


def file_request(game_id: str, scenario: str, setup: bytes, check: str, pointed: Pointed, given: dict,
                 side: str) -> dict:
    """The check's request as the saved-game pages build it from the setup."""
    return board_request(game_id, scenario, setup, check, side, pointed.attackers, pointed.target_hex, given)


def kinds(outcome: dict, side: str, game_id: str) -> dict[str, str]:
    """unit -> the kind of change the outcome orders it."""
    return {c.unit: c.kind for c in ruled_changes(outcome, owners_of(game_id), side) if c.kind != RETREAT}


def combat(game_id: str, systems, scenario: str | None = None, attackers: list[str] | None = None,
           defender_hex: str | None = None, given: dict | None = None):
    """(table's scenario, side, the combat request built from the setup) of the setup's first combat
    (or of these attackers against a hex)."""
    fight = adjacent_combat(game_id, scenario)
    scenario = fight.scenario.id
    attackers = attackers or fight.attackers
    game = load_game(game_id)
    where = setup_hexes(game, game.scenarios[scenario])
    target = defender_hex or game.maps[where[fight.defender][0]].grid.label(where[fight.defender][1])
    side = game.units[attackers[0]].side
    return scenario, side, target, attackers, {**player_fields(systems[game_id], "combat"), **(given or {})}


def combat_request(app, client, modules, systems, game_id: str, intensive: bool = False,
                   **fight) -> tuple[Table, dict, str]:
    """A table (not started) for the setup's combat (or these attackers against a hex), the combat's
    request built from the setup (KWB, `intensive`: a declared intensive attack, every attacker
    doubled, 7.1), and the attacking side."""
    scenario, side, target, attackers, given = combat(game_id, systems, **fight)
    t = table(app, client, modules, game_id, scenario)
    request = file_request(game_id, scenario, t.setup, "combat", Pointed(attackers=attackers, target_hex=target), given,
                           side)
    if intensive:
        request = {**request, "intensive": "declared",
                   "attackers": [{**a, "doubled": True} for a in request["attackers"]]}
    return t, request, side


def combat_table(app, client, modules, systems, game_id: str, wanted, **fight) -> tuple[Table, dict, str]:
    """A table whose first ruling is a combat of the setup with an outcome `wanted` says yes to:
    (the table, the answer, the attacking side)."""
    t, request, side = combat_request(app, client, modules, systems, game_id, **fight)
    t.start(seed_where(get_check(game_id, "combat"), request, lambda outcome: wanted(outcome, side)))
    return t, t.roll("combat", request, side), side


def position_after(setup: bytes, commands: list[str]) -> bytes:
    """The saved game `setup` with piece `commands` applied as its position (not as log steps): what
    the next player's log begins from when he loads the file and begins his own log."""
    from vassalfmt.savedgame import SAVED_GAME_ENTRY, SafeZip, build_zip, deobfuscate, obfuscate
    from vassalfmt.sequence import ESC, decode, encode

    with SafeZip(setup, what="saved game") as archive:
        entries = {name: archive.read(name) for name in archive.names()}
    fields = [f for f in decode(deobfuscate(entries[SAVED_GAME_ENTRY]), ESC) if f]
    fields += [c for c in commands if not c.startswith("CHAT")]
    entries[SAVED_GAME_ENTRY] = obfuscate(encode(fields, ESC))
    return build_zip(entries)


# -- each game, each kind of change its rulings order: applied by the write-back, by hand, not at all ----

def the_three_verdicts(t: Table, answer: dict, by_hand: list[str], before: list[str] = ()) -> None:
    seq = answer["seq"]
    assert verdicts(t.check(t.written_back(answer, before))) == [(seq, "verified")]
    honest = t.check(t.log(list(before), lines(answer), by_hand))
    assert verdicts(honest) == [(seq, "verified")] and honest["ok"], honest
    dropped = t.check(t.log(list(before), lines(answer)))
    assert verdicts(dropped) == [(seq, "not-applied")] and not dropped["ok"]
    assert "the log does not show it" in dropped["rulings"][0]["why"]


@pytest.mark.slow
def test_kwb_an_attacker_eliminated_by_eliminate_by_a_drag_or_deleted(app, client, modules, systems):
    """Pusan: NK 83 attacks at 1:3 with a declared intensive attack; AD, and the doubled unit's own
    loss, send it to the deadpile (7.1, 7.6). The module's Eliminate, a drag into the dead pile
    and a deletion all count; a log that keeps the lines but not the kill is not applied."""
    t, answer, side = combat_table(app, client, modules, systems, "kwb",
                                   lambda o, s: ELIMINATED in kinds(o, s, "kwb").values(), intensive=True)
    (unit,) = [u for u, kind in kinds(answer["outcome"], side, "kwb").items() if kind == ELIMINATED]
    assert [c["kind"] for c in answer["piece_changes"] if c["unit"] == unit] == [ELIMINATED]
    hand = Hand(t.game, t.setup)
    the_three_verdicts(t, answer, hand.eliminate(unit))
    for other_hand in (Hand(t.game, t.setup).drag_into_dead_pile(unit), Hand(t.game, t.setup).delete(unit)):
        assert verdicts(t.check(t.log(lines(answer), other_hand))) == [(answer["seq"], "verified")]
    elsewhere = Hand(t.game, t.setup).drag(unit, BOXES_MAP, *boxes_layout(t.game).centres["reinforcements-communist"])
    report = t.check(t.log(lines(answer), elsewhere))  # a box that is no dead pile: not eliminated
    assert verdicts(report) == [(answer["seq"], "not-applied")] and "reinforcements" in report["rulings"][0]["why"]


@pytest.mark.slow
def test_kwb_a_step_loss_by_the_modules_step_loss(app, client, modules, systems):
    t, answer, side = combat_table(app, client, modules, systems, "kwb",
                                   lambda o, s: o["attackers"][0]["step"] == "depleted" and o["result"] == "AD")
    (change,) = [c for c in answer["piece_changes"] if c["unit"] == answer["request"]["attackers"][0]["unit"]]
    assert change["kind"] == STEP and change["step"] == "depleted"
    the_three_verdicts(t, answer, Hand(t.game, t.setup).step_loss(change["unit"]))
    hand = Hand(t.game, t.setup)
    undone = hand.step_loss(change["unit"]) + hand.step_loss(change["unit"], -1)  # flipped, then restored
    report = t.check(t.log(lines(answer), undone))
    assert verdicts(report) == [(answer["seq"], "not-applied")]


def communist_division_next_to_the_un(game_id: str = "kwb", scenario: str = "pusan") -> tuple[str, str]:
    """(an NK division of the setup, the hex of a UN unit next to it)."""
    game = load_game(game_id)
    where = setup_hexes(game, game.scenarios[scenario])
    for unit, (map_id, hex_) in where.items():
        found = game.units[unit]
        if found.side != "communist" or found.size != "XX" or not unit.startswith("nk-"):
            continue
        grid = game.maps[map_id].grid
        for other, (other_map, other_hex) in where.items():
            if other_map == map_id and game.units[other].side == "un" and grid.distance(hex_, other_hex) == 1 \
                    and game.units[other].type != "hq":
                return unit, grid.label(other_hex)
    raise LookupError("no NK division stands next to a UN unit in the setup")


@pytest.mark.slow
def test_kwb_a_division_replaced_by_a_regiment_drawn_from_the_cup(app, client, modules, systems):
    """7.6: a depleted division's next loss sends it to the deadpile and puts a random unnumbered
    regiment in its place: here the declared intensive attack's own loss (7.1), the division flipped
    by an earlier loss in the log. The write-back moves the regiment's spare counter out of the cup
    onto the hex; by hand, a drag out of the cup and Eliminate."""
    division, target = communist_division_next_to_the_un()
    t, request, side = combat_request(app, client, modules, systems, "kwb", attackers=[division], defender_hex=target,
                                      intensive=True)
    request["attackers"] = [{**a, "step": "depleted"} for a in request["attackers"]]
    t.start(seed_where(get_check("kwb", "combat"), request,
                       lambda outcome: kinds(outcome, side, "kwb").get(division) == REPLACED
                       and not outcome["attacker_retreat_hexes"]))  # a retreat too is the next tests' business
    answer = t.roll("combat", request, side)
    (change,) = [c for c in answer["piece_changes"] if c["unit"] == division]
    regiment = change["replaced_by"]
    assert change["kind"] == REPLACED and change["replacements"] == [{"unit": regiment, "step": "full", "sp": None, "shows": "full"}]
    hand = Hand(t.game, t.setup)
    flipped = hand.step_loss(division)  # an earlier loss, in the log before the ruling
    the_three_verdicts(t, answer, hand.onto(regiment, division) + hand.eliminate(division), before=flipped)
    hand = Hand(t.game, t.setup)
    only_out = t.check(t.log(hand.step_loss(division), lines(answer), hand.eliminate(division)))
    assert verdicts(only_out) == [(answer["seq"], "not-applied")]
    assert UnitNames.of("kwb").name(regiment) in only_out["rulings"][0]["why"]  # as its counter reads


def test_kwb_a_supply_center_placed_where_the_rules_order(app, client, modules, systems):
    """12.1.1: a Supply Center that breaks down on a 6 is placed in the nearest supply-symbol hex: a
    move the rules order, to a hex they name."""
    t = table(app, client, modules, "kwb", "pusan")
    hand = Hand(load_game("kwb"), t.setup)
    game = load_game("kwb")
    grid = game.maps["pusan"].board_grid(1)
    moved_there = hand.drag("nk-sc-1", hand.pieces[hand.piece("nk-sc-1")].map_id, *grid.center(grid.parse("2403")))
    request = {"supply_center": "nk-sc-1", "from_hex": "2403"}
    t.start(seed_where(get_check("kwb", "supply_center_move"), request,
                       lambda outcome: bool(outcome.get("supply_center_placed"))))
    answer = t.roll("supply_center_move", request, "communist")
    (change,) = answer["piece_changes"]
    assert change["kind"] == MOVED and change["hex"] == answer["outcome"]["supply_center_placed"]["to_hex"]
    back = Hand(game, t.setup)
    back.drag("nk-sc-1", hand.pieces[hand.piece("nk-sc-1")].map_id, *grid.center(grid.parse("2403")))
    by_hand = back.drag("nk-sc-1", hand.pieces[hand.piece("nk-sc-1")].map_id, *grid.center(grid.parse(change["hex"])))
    the_three_verdicts(t, answer, by_hand, before=moved_there)


@pytest.mark.slow
def test_spi_a_unit_eliminated(app, client, modules, systems):
    t, answer, side = combat_table(app, client, modules, systems, "spi",
                                   lambda o, s: ELIMINATED in kinds(o, s, "spi").values())
    gone = [c["unit"] for c in answer["piece_changes"] if c["kind"] == ELIMINATED]
    hand = Hand(t.game, t.setup)
    the_three_verdicts(t, answer, [command for unit in gone for command in hand.eliminate(unit)])


@pytest.mark.slow
def test_fireandice_losses_eliminated_and_spent(app, client, modules, systems):
    """Combat losses (5.6): a fresh unit that retreats is flipped spent; one eliminated to satisfy
    the spread goes to the Destroyed Units box."""
    fight = adjacent_combat("fireandice")
    t = table(app, client, modules, "fireandice", fight.scenario.id)
    t.start()
    loser = t.game.units[fight.defender].side
    on_hexes = setup_hexes(t.game, fight.scenario)
    defender = next(p.unit for p in fight.scenario.setup if p.unit in on_hexes and p.step in ("", "fresh")
                    and t.game.units[p.unit].side == loser and len(t.game.units[p.unit].steps) == 2)
    spent = t.roll("combat_losses", {"loser": loser, "spread": 1, "participating": [defender],
                                     "retreats": [{"unit": defender, "hexes": 1, "fresh": True}]}, loser)
    assert [(c["unit"], c["kind"], c["step"]) for c in spent["piece_changes"]] == [(defender, STEP, "spent"),
                                                                                   (defender, RETREAT, None)]
    hand = Hand(t.game, t.setup)
    by_hand = hand.step_loss(defender) + hand.retreat(defender, 1)
    assert verdicts(t.check(t.log(lines(spent), by_hand))) == [(spent["seq"], "verified")]
    written = t.check(t.written_back(spent))  # the write-back flips it; the retreat is its owner's to make
    assert verdicts(written) == [(spent["seq"], "not-applied")] and "to retreat 1 hex" in written["rulings"][0]["why"]
    retreated = continue_log(t.written_back(spent), Hand(t.game, t.setup).retreat(defender, 1))
    assert verdicts(t.check(retreated)) == [(spent["seq"], "verified")]
    t.start()
    gone = t.roll("combat_losses", {"loser": loser, "spread": 1, "participating": [defender], "eliminate": [defender]},
                  loser)
    assert [(c["unit"], c["kind"]) for c in gone["piece_changes"]] == [(defender, ELIMINATED)]
    the_three_verdicts(t, gone, Hand(t.game, t.setup).eliminate(defender))


def test_kwb_an_attacker_retreat_made_by_hand_verifies_and_one_not_made_is_named(app, client, modules, systems):
    """KWB's CRT: a result that retreats the attackers (AR) orders each surviving attacker back that
    many hexes, its owner choosing the hexes (here the asker's own units). The ruling's changes name
    the retreat; the log check finds each unit that far from the hex it stood in, or names it."""
    t, answer, side = combat_table(app, client, modules, systems, "kwb", lambda outcome, side: outcome["result"] == "AR")
    hexes = answer["outcome"]["attacker_retreat_hexes"]
    retreats = [c for c in answer["piece_changes"] if c["kind"] == RETREAT]
    assert {c["unit"] for c in retreats} == {a["unit"] for a in answer["outcome"]["attackers"]}
    assert all(c["hexes"] == hexes and c["applied_by"] == side for c in retreats)
    assert [a["does"] for c in retreats for a in c["actions"]] == ["retreat"] * len(retreats)
    assert f"retreats {hexes} hex" in " ".join(answer["transcript"])  # both players' chat names the order
    hand = Hand(t.game, t.setup)
    by_hand = [command for c in retreats for command in hand.retreat(c["unit"], hexes)]
    assert verdicts(t.check(t.log(lines(answer), by_hand))) == [(answer["seq"], "verified")]
    dropped = t.check(t.log(lines(answer)))
    assert verdicts(dropped) == [(answer["seq"], "not-applied")]
    names = UnitNames.of("kwb")  # verdicts name units as their counters read
    assert all(f"{names.name(c['unit'])} to retreat {hexes} hex" in dropped["rulings"][0]["why"] for c in retreats)
    short = Hand(t.game, t.setup)  # one hex too few (or too many): still not the retreat ordered
    wrong = [command for c in retreats for command in short.retreat(c["unit"], hexes + 1)]
    assert verdicts(t.check(t.log(lines(answer), wrong))) == [(answer["seq"], "not-applied")]


def test_holdfast_the_attackers_own_block_loses_sp(app, client, modules, systems):
    def attacker_loses(outcome, side):
        return any(c.applied_by == side and c.kind == STEP for c in ruled_changes(outcome, owners_of("holdfast"), side))

    t, answer, side = combat_table(app, client, modules, systems, "holdfast", attacker_loses)
    mine = [c for c in answer["piece_changes"] if c["applied_by"] == side and c["kind"] == STEP]
    hand = Hand(t.game, t.setup)
    by_hand = []
    for change in mine:
        names = [s.name for s in t.game.units[change["unit"]].steps]
        by_hand += hand.step_loss(change["unit"], names.index(str(change["sp"])))
    the_three_verdicts(t, answer, by_hand)


# -- a change only the opponent can make: his next file ------------------------------------------------

def session(sid: str, parent: str | None, file: int) -> dict:
    return {"id": sid, "parent": parent, "start": "5e7a" * 8, "file": file}


@pytest.mark.slow
def test_holdfast_a_hidden_block_eliminated_is_applied_by_its_owner_in_his_next_file(app, client, modules, systems):
    """The Communist attack eliminates ROK Cap, a block hidden from him: VASSAL lets only its owner
    change it. His file is verified with the change pending ("to be applied by the UN player in his
    next file"); the UN player's next file must show it: with Eliminate it passes, without it that
    file alone is the fault — alone or in the chain."""
    def defender_eliminated(outcome, side):
        return bool(outcome.get("defender")) and outcome["defender"]["eliminated"]

    t, request, side = combat_request(app, client, modules, systems, "holdfast")
    t.start(seed_where(get_check("holdfast", "combat"), request, lambda o: defender_eliminated(o, side)))
    game_id = t.recorded["game_id"]
    a1 = session("a1", None, 1)
    answer = t.roll("combat", {**request, "log_session": a1}, side)
    block = answer["outcome"]["defender"]["unit"]
    owner = t.game.units[block].side
    (change,) = [c for c in answer["piece_changes"] if c["unit"] == block]
    assert change["kind"] == ELIMINATED and change["applied_by"] == owner != side
    a_file = t.log([chat_command(session_line(game_id, {**a1, "side": side}, []))], lines(answer))
    alone = t.check(a_file)
    assert alone["ok"] and verdicts(alone) == [(answer["seq"], "verified")]
    assert [(o["seq"], o["unit"], o["status"]) for o in alone["owed"]] == [(answer["seq"], block, "pending")]
    assert "to be applied by the UN player in his next file" in alone["owed"][0]["why"]

    b1 = session("b1", "a1", 2)
    head = [chat_command(session_line(game_id, {**b1, "side": owner}, ["a1"]))]
    b_honest = t.log(head, Hand(t.game, t.setup).eliminate(block))
    b_forgot = t.log(head)
    chain = t.check(a_file, b_honest)
    assert chain["ok"] and [(o["status"], o["file"]) for o in chain["owed"]] == [("applied", 2)], chain
    bad = t.check(a_file, b_forgot)
    assert not bad["ok"] and [(o["status"], o["file"]) for o in bad["owed"]] == [("not-applied", 2)]
    assert "UN player's next file" in bad["owed"][0]["why"]
    assert all(r["status"] == "verified" for r in bad["rulings"])  # the attacker's file is not blamed
    assert t.check(b_honest)["ok"] and [o["status"] for o in t.check(b_honest)["owed"]] == ["applied"]
    single = t.check(b_forgot)
    assert not single["ok"] and [o["status"] for o in single["owed"]] == ["not-applied"]


@pytest.mark.slow
def test_an_a_b_a_b_chain_with_a_kill_passes_end_to_end(app, client, modules, systems):
    """Pusan by e-mail: A's attack kills NK 83 (his own unit, Eliminate), B attacks and flips a
    unit, A asks again, B answers: every file applied honestly, the chain of four is ok."""
    t, request, side = combat_request(app, client, modules, systems, "kwb", intensive=True)
    t.start(seed_where(get_check("kwb", "combat"), request, lambda o: ELIMINATED in kinds(o, side, "kwb").values()))
    game_id = t.recorded["game_id"]
    hand = Hand(t.game, t.setup)
    sessions = [session("a1", None, 1), session("b1", "a1", 2), session("a2", "b1", 3), session("b2", "a2", 4)]
    sides = ["communist", "un", "communist", "un"]
    files, before = [], []
    kill = t.roll("combat", {**request, "log_session": sessions[0]}, "communist")
    (dead,) = [c["unit"] for c in kill["piece_changes"] if c["kind"] == ELIMINATED]
    steps = [lines(kill) + hand.eliminate(dead)]
    for n in (1, 2, 3):
        body = ({"un_marker": "sf-un-3", "communist_marker": "sf-com-1"} if sides[n] == "un"
                else {"supply_center": "nk-sc-1", "from_hex": "2501"})
        answer = t.roll("counter_battery" if sides[n] == "un" else "supply_center_move",
                        {**body, "log_session": sessions[n]}, sides[n])
        steps.append(lines(answer))
    for n, s in enumerate(sessions):
        chain = [x["id"] for x in sessions[:n]]
        start = Table(t.app, t.client, "kwb", "pusan", position_after(t.setup, before), t.game, t.recorded)
        files.append(start.log([chat_command(session_line(game_id, {**s, "side": sides[n]}, chain))], steps[n]))
        before = before + steps[n]  # the next player loads the position the file ended at
    report = t.check(*files)
    assert report["ok"], report
    assert [r["status"] for r in report["rulings"]] == ["verified"] * 4
    without_the_kill = t.log([chat_command(session_line(game_id, {**sessions[0], "side": "communist"}, []))], lines(kill))
    assert not t.check(without_the_kill, *files[1:])["ok"]


# -- the two halves agree on the boxes ------------------------------------------------------------------

@pytest.mark.parametrize("game_id", ["kwb", "spi", "holdfast", "fireandice"])
def test_the_box_the_modules_eliminate_sends_a_unit_to_is_read_as_its_dead_pile(modules, game_id):
    """The module's "Eliminate" (a SendToLocation in each side's prototype, written by modgen) and
    the saved-game reader (adjudicator.bridge.locate) lay out the Boxes board by one geometry
    (scenarios.boxboard): where Eliminate puts a unit is read back as its side's dead pile."""
    from lxml import etree

    from adjudicator.bridge.locate import BOX, locate
    from vassalfmt import SendToLocation, parse_piece
    from vassalfmt.commands import parse_command

    game, _, entries = modules[(game_id, 1)]
    root = etree.fromstring(entries["buildFile.xml"])
    read = {}
    for element in root.iter("VASSAL.build.module.PrototypeDefinition"):
        command = parse_command(element.text)
        for trait in parse_piece(command.type, command.state).find(SendToLocation):
            if trait.command_name == "Eliminate":
                read[element.get("name")] = locate(game, trait.map_id, int(trait.x), int(trait.y), 1)
    for side in game.sides.values():
        where = read[f"{side.name} side"]
        assert where.kind == BOX and where.box == dead_pile(game, side.id).id, (side.id, where)


@pytest.mark.slow
def test_spi_the_defenders_losses_are_his_choice_made_in_his_next_file(app, client, modules, systems):
    """Combat (J) names no chooser of the units that lose a combat's regiments: each player takes his
    own. The attacker's combat against a stack whose owner said nothing leaves the choice open, owed
    by the defender (no server default): a change 'to_choose' of his, named in both players' chat. In
    his next file he makes it with 'Combat losses' (the combat's record read by the server); his
    ruling's changes are his to apply, and his file applying them verifies."""
    fight = adjacent_combat("spi", "campaign")
    t = table(app, client, modules, "spi", fight.scenario.id)
    t.game = load_game("spi")
    owner = t.game.units[fight.defender].side
    on_hexes = setup_hexes(t.game, fight.scenario)
    second = next(p.unit for p in fight.scenario.setup if p.unit in on_hexes and p.unit != fight.defender
                  and t.game.units[p.unit].side == owner and not t.game.units[p.unit].has("supply"))
    t.setup = position_after(t.setup, Hand(t.game, t.setup).onto(second, fight.defender))  # a stack of two
    side = t.game.units[fight.attackers[0]].side
    request = board_request("spi", fight.scenario.id, t.setup, "combat", side, fight.attackers,
                            hex_label(fight, fight.defender), player_fields(systems["spi"], "combat"))
    assert {d["unit"] for d in request["defenders"]} == {fight.defender, second}
    t.start(seed_where(get_check("spi", "combat"), request, lambda o: o["defender_losses_to_choose"] is not None))
    game_id = t.recorded["game_id"]
    answer = t.roll("combat", {**request, "log_session": session("a1", None, 1)}, side)
    (choice,) = [c for c in answer["piece_changes"] if c["kind"] == "to_choose"]
    assert choice["applied_by"] == owner != side and set(choice["choices"]) == {fight.defender, second}
    assert [(a["does"], a["chosen_by"]) for a in choice["actions"]] == [("choose", owner)]
    assert not [c for c in answer["piece_changes"] if {c["unit"]} & {fight.defender, second}]  # nothing decided for him
    assert any("chooses which of" in line for line in answer["transcript"])  # both players' chat says whose it is
    a_file = t.written_back(answer, [chat_command(session_line(game_id, {**session("a1", None, 1), "side": side}, []))])
    alone = t.check(a_file)
    assert verdicts(alone) == [(answer["seq"], "verified")]
    owed_words = (f"owed: {side_label(owner)} chooses which units lose {choice['regiments']} "
                  f"regiment{'s' if choice['regiments'] != 1 else ''} from combat record #{answer['seq']} (Combat (J))")
    assert [(o["seq"], o["kind"], o["owner"], o["status"]) for o in alone["owed"]] == \
        [(answer["seq"], "to_choose", owner, "pending")], alone["owed"]
    assert alone["owed"][0]["why"].startswith(owed_words) and alone["ok"]

    b1 = session("b1", "a1", 2)
    losses = t.roll("combat_losses", {"scenario": fight.scenario.id, "losses_from": [second], "log_session": b1}, owner)
    assert losses["request"]["combat_record"] == answer["seq"]  # the combat waiting for his choice, from the ledger
    assert losses["outcome"]["defender_losses"]["regiments_lost"] >= 1 and losses["piece_changes"]
    assert all(c["applied_by"] == owner for c in losses["piece_changes"])
    head = [chat_command(session_line(game_id, {**b1, "side": owner}, ["a1"]))]
    t.setup = saved_at_end(a_file)  # his file begins where the attacker's ended
    applied = t.check(a_file, t.written_back(losses, head))
    assert applied["ok"] and verdicts(applied) == [(answer["seq"], "verified"), (losses["seq"], "verified")], applied
    assert [(o["kind"], o["status"], o["file"]) for o in applied["owed"]] == [("to_choose", "applied", 2)]
    assert f"made by the {side_label(owner)} player with record #{losses['seq']}" in applied["owed"][0]["why"]
    forgot = t.check(a_file, t.log(head, lines(losses)))
    assert verdicts(forgot) == [(answer["seq"], "verified"), (losses["seq"], "not-applied")]
    # his next file without his choice: the choice is named as owed, in words, and the check fails
    unmade = t.check(a_file, t.log(head))
    assert not unmade["ok"] and verdicts(unmade) == [(answer["seq"], "verified")]
    assert [(o["kind"], o["status"], o["file"]) for o in unmade["owed"]] == [("to_choose", "not-applied", 2)]
    assert unmade["owed"][0]["why"] == f"{owed_words}: the {side_label(owner)} player's next file (file2.vlog) does not make it"
    single = t.check(t.log(head))  # his file alone: the combat is in the file before his, still owed by him
    assert not single["ok"] and [(o["seq"], o["status"]) for o in single["owed"]] == [(answer["seq"], "not-applied")]
    assert t.check(t.written_back(losses, head))["owed"][0]["status"] == "applied"
    again = client.post(f"/api/v1/games/{game_id}/combat_losses", json={"scenario": fight.scenario.id,
                        "losses_from": [fight.defender], "combat_record": answer["seq"]},
                        headers=bearer(t.recorded["tokens"][owner]))
    assert again.status_code == 422 and "were chosen by record" in again.get_json()["detail"]  # once


@pytest.mark.slow
def test_a_log_read_once_gives_the_events_its_text_gives(app, client, modules, systems):
    """The replay and the log check step through the commands the reader kept (issue 53: parsed
    once), the replay's walk of them reading the check's events too: the same chat lines, piece
    events and opening units as the log's text read again."""
    t, answer, side = combat_table(app, client, modules, systems, "kwb",
                                   lambda o, s: ELIMINATED in kinds(o, s, "kwb").values(), intensive=True)
    (unit,) = [u for u, kind in kinds(answer["outcome"], side, "kwb").items() if kind == ELIMINATED]
    hand = Hand(t.game, t.setup)
    data = t.log(lines(answer), hand.eliminate(unit))
    kept = read_upload(data, keep_commands=True)
    assert kept.parsed_commands() is not None and read_upload(data).parsed_commands() is None
    events, start = log_events(kept, t.game)
    assert (events, start) == log_events(read_upload(data), t.game)
    assert any(e.chat for e in events) and any(e.piece and e.piece.unit == unit for e in events)
    builder = TimelineBuilder(t.game, Viewer(sees_all=True), None, None, lambda text: text)
    assert builder.add_file("log", kept).events == (events, start)
    assert builder.add_file("again", read_upload(data)).events is None  # nothing kept: the check reads it


def test_a_breakdown_whose_parts_are_all_lost_reads_without_an_empty_item():
    """Issue 51: "rok-d8 broken down into , rok-r10, ..." (no part placed, every part lost: an empty
    item before them); it reads as a sentence, each unit as its counter reads in the verdict."""
    from adjudicator.logs.board import OrderedChange, Shown
    from adjudicator.unit_changes import BROKEN_DOWN, Placed, UnitChange

    names = UnitNames.of("spi")
    lost = OrderedChange(UnitChange(BROKEN_DOWN, "rok-d8", lost=("rok-r10", "rok-r21")), Shown(hex="1506"))
    assert names.text(lost.describe()) == "S 8 broken down, S 10, S 21 lost"
    placed = OrderedChange(UnitChange(BROKEN_DOWN, "rok-d8", replacements=(Placed("rok-r10"),), lost=("rok-r21",)),
                           Shown(hex="1506"))
    assert names.text(placed.describe()) == "S 8 broken down into S 10, S 21 lost"


def test_a_verdict_names_a_hidden_block_only_to_whom_the_fog_shows_it():
    """Issue 51: the log check named a hidden block by its counter for whoever asked, the observer
    included. Its sentences read as the ruling's page does: a block the ruling keeps sealed by its side
    to the opponent and the observer ("a UN block"), by its counter to its owner; a block the rules
    revealed (named in the clear: a combat's) by its counter to all; every block so once the game is
    closed. The JSON's fields keep the ids."""
    from adjudicator.fog import fog_of
    from adjudicator.logs.check import NOT_APPLIED, FileReading, LogCheck, LogRuling, in_players_words, verdict_words

    game = load_game("holdfast")
    block, revealed = [u for u in game.units if fog_of("holdfast").unit_owner(u) == "un"][:2]
    names = UnitNames.of("holdfast")
    records = [{"seq": 1, "body": {"request": {"replacements": [{"hidden": "0" * 64, "side": "un"}]}, "result": {}}},
               {"seq": 2, "body": {"request": {"defender": {"unit": revealed}}, "result": {"outcome": {}}}}]

    def read(viewer, status="open"):
        check = LogCheck("g", files=[FileReading("f", rulings=[
            LogRuling(NOT_APPLIED, "g", 1, "RULING", f"the ruling ordered {block} to show 3"),
            LogRuling(NOT_APPLIED, "g", 2, "RULING", f"the ruling ordered {revealed} eliminated")])],
            owed=[{"seq": 1, "unit": block, "why": f"{block} to show 3: to be applied by the UN player"}])
        read = in_players_words(check, verdict_words("holdfast", {"game": {"status": status}, "records": records}, viewer))
        return [r.why for r in read.rulings] + [read.owed[0]["why"]], read.owed[0]["unit"]

    assert read("un") == ([f"the ruling ordered {names.name(block)} to show 3",
                           f"the ruling ordered {names.name(revealed)} eliminated",
                           f"{names.name(block)} to show 3: to be applied by the UN player"], block)
    for viewer in ("communist", None):
        assert read(viewer) == (["the ruling ordered a UN block to show 3",
                                 f"the ruling ordered {names.name(revealed)} eliminated",
                                 "a UN block to show 3: to be applied by the UN player"], block), viewer
    assert read(None, "closed") == read("un")


def test_a_marker_ordered_reads_with_its_article():
    """Issue 51: "place a Elite marker"; a marker whose name begins with a vowel takes "an"."""
    from adjudicator.logs.board import _action_words
    from adjudicator.piece_actions import PLACE_MARKER, PieceAction

    def said(name: str) -> str:
        return _action_words(PieceAction(PLACE_MARKER, "nk-2", marker="m", marker_name=name))

    assert said("Elite Unit / Poor Unit") == "an Elite Unit / Poor Unit marker on the hex of nk-2"
    assert said("Disrupted / Routed") == "a Disrupted / Routed marker on the hex of nk-2"
