"""A game's after-action report: what its page, its Markdown and its BBCode all say.

Wargamers write an after-action report (AAR) for their forum after a play-by-e-mail game, copying
dice and results out of logs by hand. The ledger already holds all of it, signed: this module
assembles it once, for one viewer, and the page (`report_pages`) and the forum texts
(`report_text`) only lay it out.

- the headline: the scenario, the sides, the dates, the turns played, the result and who won (the
  last victory ruling, `rulings.game_result`);
- turn by turn, each ruling's headline as the ledger page reads it (units by their counters'
  names; a unit the fog of war hides from the viewer by its side and hex while the game is open),
  with the address of its record's page;
- the losses of each side, from what the rulings did to units (`adjudicator.unit_changes`, the
  changes the ledger's board folds), by turn;
- the dice: each side's rolls, every die type against a fair die (`adjudicator.ledger.dicestats`),
  and luck in plain words: whether a side's dice ran high or low, and how often fair dice do that;
- the board at the end, where a saved game of the game was checked and is still kept for this
  viewer (`adjudicator.ledger.uploads`);
- how to verify it all: the keys, the ledger, the command.

The turn of a ruling is its request's field with board role `turn` (or `month`); a ruling that
names none belongs to the turn before it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from adjudicator import rulings
from adjudicator.api.dice_record import seen_values
from adjudicator.checks import get_check, side_label
from adjudicator.facts import GameResult
from adjudicator.fog import Part, reveal
from adjudicator.ledger.dicestats import DiceRecord, dice_record
from adjudicator.services import services
from adjudicator.systems import system_info
from adjudicator.unit_changes import BROKEN_DOWN, ELIMINATED, REPLACED, STEP, ruled_changes
from adjudicator.web.game_pages import ledger_rows
from adjudicator.bridge.errors import BridgeError
from adjudicator.bridge.games import load_system_game
from adjudicator.bridge.positions import read_positions
from adjudicator.bridge.upload import read_upload
from adjudicator.ledger.storage import OBSERVER
from adjudicator.ledger.uploads import is_sha256
from adjudicator.web.boardview import file_boards
from adjudicator.unit_changes import canonical_outcome
from adjudicator.words.names import UnitNames

#: The request roles that say which turn a ruling belongs to.
TURN_ROLES = ("turn", "month")
#: The turn fields of a result recorded outside the check registry (`bridge.rulings.record_supply`).
RECORDED_TURN_FIELDS = ("game_turn", "turn")
#: Beyond this many standard deviations of the mean, a side's dice "ran" high or low.
LUCK_NOTABLE = 1.0


@dataclass(frozen=True)
class ReportRuling:
    seq: int
    side: str
    time: str
    headline: str
    notices: list[str]


@dataclass
class TurnSection:
    label: str
    rulings: list[ReportRuling] = field(default_factory=list)


@dataclass(frozen=True)
class Loss:
    side: str
    unit: str  # the counter's name
    what: str  # "eliminated", "reduced to depleted", "replaced by NK 7 Rgt"
    seq: int
    turn: str


@dataclass
class SideDice:
    side: str
    label: str
    record: DiceRecord
    luck: str


@dataclass
class Report:
    game_id: str
    system_name: str
    scenario_name: str
    sides: list[tuple[str, str]]  # (id, label)
    created: str
    closed: str | None
    open: bool
    turns_played: str
    last_turn: int
    result: GameResult | None
    turns: list[TurnSection]
    losses: dict[str, list[Loss]]
    dice: DiceRecord
    dice_by_side: list[SideDice]
    boards: "FinalBoard | None" = None
    turn_boards: list = field(default_factory=list)  # TurnBoard, one per turn
    published_by: list[dict[str, str]] = field(default_factory=list)
    fog_kept: bool = False

    @property
    def result_words(self) -> str:
        if self.result is None:
            return ("No victory ruling yet: the game's result is not decided." if self.open
                    else "The game was closed without a victory ruling: no winner was named.")
        won = f"{side_label(self.result.winner)} won" if self.result.winner else "Nobody won"
        return f"{won}: {self.result.result}."

    @property
    def turns_words(self) -> str:
        """"14 of 14"; or, when no ruling named a turn, that, with the scenario's length."""
        if self.turns_played == "not stated":
            return "not named by any ruling" + (f" (the scenario lasts {self.last_turn})" if self.last_turn else "")
        return self.turns_played + (f" of {self.last_turn}" if self.last_turn and self.turns_played.isdigit() else "")

    def side_label(self, side: str) -> str:
        return dict(self.sides).get(side, side_label(side) if side else "the game")


def build_report(game_id: str, system: str, viewer: str | None) -> Report:
    """The report of a game as `viewer` (a side, or None: an observer, or anyone once published)
    may see it: while the game is open, the fog of war keeps what it hides from that viewer."""
    document = rulings.game_ledger(game_id)
    game = document["game"]
    closed = game["status"] == "closed"
    seen = _records_as_seen(document, system, viewer, closed)
    data = load_system_game(system)
    scenario = data.scenarios.get(game["scenario"])
    info = system_info(system)
    turns, turn_of = _turn_sections(system, seen, ledger_rows(seen))
    numbers = [int(t) for t in turn_of.values() if str(t).isdigit()]
    played = (str(max(numbers)) if numbers else
              f"{len({t for t in turn_of.values() if t})} month(s)" if any(turn_of.values()) else "not stated")
    dice = dice_record(seen["records"], seen_values(game_id, viewer, closed))
    return Report(
        game_id=game_id, system_name=info.name if info else system,
        scenario_name=scenario.name if scenario else game["scenario"],
        sides=[(s, side_label(s)) for s in data.sides], created=game["created"], closed=game.get("closed"),
        open=not closed, turns_played=played, last_turn=scenario.length if scenario else 0,
        result=rulings.game_result(game_id, system), turns=turns,
        losses=_losses(system, data, seen["records"], turn_of),
        dice=dice, dice_by_side=_dice_by_side(data.sides, seen["records"], seen_values(game_id, viewer, closed)),
        boards=final_boards(game_id, system, data, game["scenario"], seen["records"], viewer, closed),
        turn_boards=turn_boards(game_id, system, seen["records"], viewer),
        published_by=services().store.report_consents(game_id), fog_kept=not closed and seen is not document)


@dataclass(frozen=True)
class FinalBoard:
    """The last saved game of the game that a ruling checked, drawn as the viewer may see it."""

    seq: int
    turn: str
    name: str
    boards: list  # (map, board) as `boardview.file_boards` gives them


@dataclass(frozen=True)
class TurnBoard:
    """A turn's last saved game a ruling checked, kept for this viewer: its record's page draws it."""

    turn: str
    seq: int
    sha256: str


def _savedgame_sha(body: dict[str, Any]) -> str | None:
    request = body.get("request") if isinstance(body.get("request"), dict) else {}
    saved = request.get("savedgame")
    sha = saved.get("sha256") if isinstance(saved, dict) else None
    return sha if isinstance(sha, str) and is_sha256(sha) else None


def turn_boards(game_id: str, system: str, records: list[dict[str, Any]], viewer: str | None) -> list[TurnBoard]:
    """Each turn's last saved game a ruling checked whose file this viewer's login uploaded and is
    still kept (the record page draws a board only from the viewer's own uploads)."""
    scope, found = f"{game_id}/{viewer or OBSERVER}", {}
    for record in records:
        body = record.get("body") if isinstance(record.get("body"), dict) else {}
        sha = _savedgame_sha(body)
        if sha and services().uploads.has(scope, sha):
            found[_turn_of(system, body)] = TurnBoard(_turn_of(system, body), record["seq"], sha)
    return list(found.values())


def final_boards(game_id: str, system: str, data, scenario: str, records: list[dict[str, Any]], viewer: str | None,
                 closed: bool) -> FinalBoard | None:
    """The board of the last ruling taken from a saved game (its request names the file's SHA-256)
    whose file is still kept: while the game is open only the viewer's own uploads (the opponent's
    file shows what the fog hides), once closed any side's."""
    scopes = [f"{game_id}/{r}" for r in ([*data.sides, OBSERVER] if closed else [viewer or OBSERVER])]
    for record in reversed(records):
        body = record.get("body") if isinstance(record.get("body"), dict) else {}
        sha = _savedgame_sha(body)
        if sha is None:
            continue
        kept = next((k for scope in scopes if (k := services().uploads.get(scope, sha)) is not None), None)
        if kept is None:
            continue
        try:
            file = read_upload(kept.data)
            boards = file_boards(read_positions(data, file), file, viewer, scenario)
        except BridgeError:
            continue
        return FinalBoard(record["seq"], _turn_of(system, body), kept.name, boards)
    return None


def _records_as_seen(document: dict[str, Any], system: str, viewer: str | None, closed: bool) -> dict[str, Any]:
    """The ledger with each record as `viewer` may see it (the fog of war until the close)."""
    parts: dict[int, list[Part]] = {}
    for seq, part in services().store.hidden_parts(document["game"]["id"]):
        parts.setdefault(seq, []).append(Part.from_json(part))
    if not parts:
        return document
    records = [{**r, "body": reveal(system, r["body"], parts[r["seq"]], viewer, closed)} if r["seq"] in parts else r
               for r in document["records"]]
    return {**document, "records": records}


def _turn_of(system: str, body: dict[str, Any]) -> str:
    """The turn (or month) a ruling's request names, '' when it names none."""
    spec = get_check(system, str(body.get("check", "")).partition(".")[2])
    request = body.get("request") if isinstance(body.get("request"), dict) else {}
    if spec is None:  # a result recorded outside the registry (a saved game's supply): its own turn field
        return next((str(request[k]) for k in RECORDED_TURN_FIELDS if request.get(k) not in (None, "")), "")
    for pointer, role in spec.board:
        if role in TURN_ROLES and pointer.count("/") == 1 and request.get(pointer[1:]) not in (None, ""):
            return str(request[pointer[1:]])
    return ""


def _turn_sections(system: str, seen: dict[str, Any], rows: dict) -> tuple[list[TurnSection], dict[int, str]]:
    """The rulings grouped by turn, in ledger order, and each ruling's turn (inherited when unsaid)."""
    sections: list[TurnSection] = []
    turn_of: dict[int, str] = {}
    current = ""
    for record in seen["records"]:
        body = record.get("body") if isinstance(record.get("body"), dict) else {}
        if str(body.get("check", "")).startswith("game."):
            continue
        current = _turn_of(system, body) or current
        turn_of[record["seq"]] = current
        label = (f"Turn {current}" if current.isdigit() else f"Month {current}" if current
                 else "Before a turn was named")
        if not sections or sections[-1].label != label:
            sections.append(TurnSection(label))
        row = rows.get(record["seq"])
        sections[-1].rulings.append(ReportRuling(record["seq"], str(body.get("side") or ""), str(body.get("time", "")),
                                                 row.headline if row else str(body.get("check")),
                                                 row.notices if row else []))
    return sections, turn_of


def _losses(system: str, data, records: list[dict[str, Any]], turn_of: dict[int, str]) -> dict[str, list[Loss]]:
    """Each side's units eliminated, replaced or reduced by the rulings, in ledger order (a step
    back to full strength or a strength raised is a gain, not a loss)."""
    names = UnitNames.of(system)
    out: dict[str, list[Loss]] = {s: [] for s in data.sides}
    for record in records:
        body = record.get("body") if isinstance(record.get("body"), dict) else {}
        result = body.get("result") if isinstance(body.get("result"), dict) else {}
        if str(body.get("check", "")).startswith("game.") or not result:
            continue
        stated = dict(_stated(body.get("request")))
        turn = turn_of.get(record["seq"], "")
        for change in ruled_changes(canonical_outcome(result)):
            unit = data.units.get(change.unit)
            if unit is None:
                continue
            if change.kind == BROKEN_DOWN:  # SPI: the parts lost at once go to the dead pile
                out.setdefault(unit.side, []).extend(
                    Loss(unit.side, names.name(part), f"eliminated (of {names.name(change.unit)}, broken down)",
                         record["seq"], turn) for part in change.lost)
            elif _a_loss(change, names, stated):
                out.setdefault(unit.side, []).append(Loss(unit.side, names.name(change.unit),
                                                          _loss_words(change, names), record["seq"], turn))
    return out


def _a_loss(change, names: UnitNames, stated: dict[str, tuple[Any, Any]]) -> bool:
    """An elimination, a replacement, or a step or strength below the one the request stated (an
    echo of the unit as it stood, or a step back to full strength, is none)."""
    if change.kind in (ELIMINATED, REPLACED):
        return True
    if change.kind != STEP:
        return False
    step, sp = stated.get(change.unit, (None, None))
    if change.sp is not None:
        return sp is not None and change.sp < sp
    full = (None, "", "full", names.full_step(change.unit))
    return change.step not in full and change.step != step


def _stated(node: Any):
    """(unit, (step, sp)) of every unit a request states."""
    if isinstance(node, dict):
        unit = node.get("unit") or node.get("block")
        if isinstance(unit, str):
            yield unit, (node.get("step"), node.get("sp") if isinstance(node.get("sp"), int) else None)
        for value in node.values():
            yield from _stated(value)
    elif isinstance(node, list):
        for item in node:
            yield from _stated(item)


def _loss_words(change, names: UnitNames) -> str:
    if change.kind == ELIMINATED:
        return "eliminated"
    if change.kind == REPLACED:
        placed = ", ".join(names.name(p.unit) for p in change.replacements) or "nothing"
        return f"replaced by {placed}"
    if change.sp is not None:
        return f"reduced to {change.sp} SP"
    return f"reduced to {change.step}"


def _dice_by_side(sides, records: list[dict[str, Any]], seen: dict[str, Any]) -> list[SideDice]:
    """Each side's own rolls (the rulings it asked for), tested and said in plain words."""
    out = []
    for side in sides:
        mine = [r for r in records if isinstance(r.get("body"), dict) and r["body"].get("side") == side]
        record = dice_record(mine, seen)
        out.append(SideDice(side, side_label(side), record, luck_words(side_label(side), record)))
    return out


def luck_words(label: str, record: DiceRecord) -> str:
    """Whether a side's dice ran high or low, against fair dice of the same kinds.

    Each die is scaled to its own kind (a d6's 6 and a d10's 10 are both its highest face): the sum
    of (value - mean) / standard deviation over the n dice, divided by sqrt(n), is z, which fair dice
    give beyond |z| about a third of the time at 1 and one time in twenty at 2. Whether high dice
    were good depends on each table; the words say high or low, not good or bad."""
    values = [(r.value, r.sides) for r in record.rolls if r.value is not None and r.sides > 1]
    if not values:
        return f"The {label} player rolled no server dice."
    z = sum((v - (s + 1) / 2) / math.sqrt((s * s - 1) / 12) for v, s in values) / math.sqrt(len(values))
    two_sided = math.erfc(abs(z) / math.sqrt(2))
    count = f"{len(values)} {'die' if len(values) == 1 else 'dice'}"
    if abs(z) < LUCK_NOTABLE:
        return (f"The {label} player's {count} ran about as fair dice do (z = {z:+.1f}): nothing to blame "
                "on the dice.")
    way = "high" if z > 0 else "low"
    how = "remarkably " if abs(z) >= 2 else ""
    return (f"The {label} player's {count} ran {how}{way} (z = {z:+.1f}): fair dice run at least this far from "
            f"their average about {_one_in(two_sided)}. Whether {way} rolls helped depends on each table.")


def _one_in(p: float) -> str:
    if p >= 0.1:
        return f"{round(p * 100)}% of the time"
    return f"once in {round(1 / p):,} games"
