"""What a log did to the board, in order: its chat lines, and each unit's piece as it changed.

A ruling is more than its chat lines: "nk-8 depleted" is a flip of the counter, "US 27/25
eliminated" a trip to the UN dead pile, and a player who keeps the lines but not the pieces plays
on with units the server weakened or killed. The log check (`adjudicator.logs.check`) reads a log as a
list of `LogEvent`s — a chat text, or a unit's piece standing otherwise (`Shown`: its step, the
hex or box it is in, or deleted) — and asks, for one ruling, whether the pieces reach what it
ordered (`adjudicator.unit_changes`) before the next ruling. What counts, whoever did it and
however (the extension's apply dialog, the web write-back, the module's own piece commands by
hand, a drag):

* a step: the unit's Step layer shows it (Step loss / Restore step);
* an elimination: the piece lies in a dead pile box of its side on the Boxes map (Eliminate sends
  it to its side's; a drag there counts the same), or was deleted;
* a replacement: the unit eliminated so, and each replacement unit standing on the hex it stood
  in (added there, or moved there out of a box or a cup);
* a move the rules order: the unit on that hex (showing the step it names, if it names one);
* a breakdown (SPI): the unit set aside in its side's box of counters not in play, each counter
  that replaces it on the hex it stood in, each part lost at once in a dead pile; a
  recombination: the whole on the hex, its parts set aside in that box;
* a placeholder revealed (KWB's '? 4' Scratch Units): the placeholder off the board (deleted), and
  the counter it turned out to be on the hex it stood in (moved there out of its box) — or off the
  board too where the same ruling eliminates that counter (a Dummy).

Units are known by the properties the generated modules give every unit piece (`UnitId`, and the
Step layer), as the saved-game reader knows them (`adjudicator.bridge.identify`); where a piece
stands is the engine's own bookkeeping (`adjudicator.logs.replay.board`), located on the game's maps
and boxes (`adjudicator.bridge.locate`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from adjudicator.bridge.locate import detect_scale
from adjudicator.bridge.positions import shown_boards
from adjudicator.logs.replay.board import Board
from adjudicator.logs.replay.views import Identifier, Place, Placer
from adjudicator.unit_changes import BROKEN_DOWN, ELIMINATED, MOVED, ON_BOARD, RECOMBINED, REPLACED, REVEALED, STEP, UnitChange
from scenarios.boxboard import is_dead_pile_of
from scenarios.model import Game
from vassalfmt import SavedGame, VassalFormatError
from vassalfmt.commands import CHAT_PREFIX, OtherCommand, parse_command, split_commands

#: A turn tracker's saved state (``TURN<tracker id>\t<state>``, adjudicator.bridge.turn).
TURN_PREFIX = "TURN"


@dataclass(frozen=True)
class Shown:
    """How a unit's piece stands at one moment of a log."""

    step: str = ""  # the step showing ("" = the first, full strength, or not said)
    map: str = ""  # the game map and hex it stands on ("" off the hex maps)
    hex: str = ""
    box: str = ""  # the box it lies in (on the Boxes map, or in a cup drawn from there)
    deleted: bool = False  # removed from the game

    def describe(self) -> str:
        if self.deleted:
            return "deleted"
        where = f"at {self.hex}" if self.hex else f"in {self.box}" if self.box else "off the hex maps"
        return f"{where}, showing {self.step or 'full strength'}"


@dataclass(frozen=True)
class PieceEvent:
    """A unit's piece standing otherwise than before: another step, place, or deleted."""

    unit: str
    shown: Shown


@dataclass(frozen=True)
class LogEvent:
    """One thing of a log, in order: a chat text, a unit's piece changing, or a turn tracker's state
    (the engine's ``TURN<tracker>\t<state>`` command: the game turn and phase; those of the file's
    opening state come first)."""

    chat: str | None = None
    piece: PieceEvent | None = None
    turn: str | None = None


def is_eliminated(game: Game, unit: str, shown: Shown) -> bool:
    """The piece is out of play: deleted, or in a dead pile box of its side."""
    if shown.deleted:
        return True
    found = game.units.get(unit)
    return bool(shown.box) and found is not None and is_dead_pile_of(game, shown.box, found.side)


class PieceReader:
    """Which unit a piece is and where it stands in the game's terms (`adjudicator.logs.replay.views`)."""

    def __init__(self, game: Game, saved: SavedGame):
        boards = shown_boards(saved)  # a map window showing one board is read as that board
        points = [(boards.get(p.map_id, p.map_id), p.x, p.y) for p in saved.pieces if p.map_id is not None]
        self.placer = Placer(game, detect_scale(game, points)[0], boards)
        self.identify = Identifier(game)

    def shown(self, board: Board, piece_id: str) -> tuple[str, Shown] | None:
        """(unit id, how it stands) of a unit piece on `board`; None for any other piece."""
        record, where = board.pieces.get(piece_id), board.where(piece_id)
        if record is None or where is None:
            return None
        identity = self.identify.of(record.type, record.state)
        if identity.unit is None:
            return None
        return identity.unit.id, shown_at(identity.step or "", self.placer.of(where))


def shown_at(step: str, place: Place) -> Shown:
    """A unit piece showing `step` at `place`."""
    return Shown(step, place.map, place.hex, place.box)


def log_events(saved: SavedGame, game: Game) -> tuple[list[LogEvent], dict[str, Shown]]:
    """The log's chat texts and unit-piece changes in order, and every unit as the log begins.

    Pieces added while the log runs count from then on; a piece that is no unit is skipped."""
    reader = PieceReader(game, saved)
    board = Board()
    last: dict[str, tuple[str, Shown]] = {}  # piece id -> (unit, how it stands)
    events: list[LogEvent] = []
    opening: list[LogEvent] = []  # the turn trackers' states the file opens with
    start: dict[str, Shown] | None = None
    for leaf in split_commands(saved.command_text):
        if leaf.logged and start is None:
            start = _units_of(last)
        try:
            command = parse_command(leaf.text)
        except VassalFormatError:
            continue
        if isinstance(command, OtherCommand):
            if command.text.startswith(CHAT_PREFIX):
                events.append(LogEvent(chat=command.text[len(CHAT_PREFIX):]))
            elif command.text.startswith(TURN_PREFIX):
                (events if start is not None else opening).append(LogEvent(turn=command.text))
            continue
        for piece_id in sorted(board.apply(command)):
            now = reader.shown(board, piece_id)
            was = last.get(piece_id)
            if now is None and was is not None and piece_id not in board.pieces:
                now = (was[0], replace(was[1], deleted=True))
            if now is None or now == was:
                continue
            if now[1].deleted:
                last.pop(piece_id, None)
            else:
                last[piece_id] = now
            if start is not None:
                events.append(LogEvent(piece=PieceEvent(*now)))
    return opening + events, start if start is not None else _units_of(last)


def _units_of(pieces: dict[str, tuple[str, Shown]]) -> dict[str, Shown]:
    """unit -> how it stands, of the unit pieces (a unit with two pieces: the first)."""
    out: dict[str, Shown] = {}
    for unit, shown in pieces.values():
        out.setdefault(unit, shown)
    return out


@dataclass(frozen=True)
class OrderedChange:
    """A change a ruling orders to a unit on the board, and how the unit stood when it was ruled."""

    change: UnitChange
    before: Shown
    #: REVEALED: the same ruling takes the counter off the board again (a Dummy eliminated at once).
    counter_leaves: bool = False

    @property
    def unit(self) -> str:
        return self.change.unit

    def describe(self) -> str:
        change = self.change
        if change.kind == ELIMINATED:
            return f"{change.unit} eliminated (to its dead pile)"
        if change.kind == REPLACED:
            return f"{change.unit} replaced by {', '.join(p.unit for p in change.replacements)}"
        if change.kind == MOVED:
            return f"{change.unit} moved to {change.hex}"
        if change.kind == REVEALED:
            return f"{change.unit} turned face up: {change.revealed_as} in its place"
        if change.kind == BROKEN_DOWN:
            lost = f", {', '.join(change.lost)} lost" if change.lost else ""
            return f"{change.unit} broken down into {', '.join(p.unit for p in change.replacements)}{lost}"
        if change.kind == RECOMBINED:
            return f"{', '.join(change.parts)} recombined into {change.unit} in {change.hex}"
        return f"{change.unit} to show {change.step or (f'{change.sp} SP' if change.sp is not None else 'full strength')}"


def ordered_changes(game: Game, changes: list[UnitChange], units_now: dict[str, Shown]) -> list[OrderedChange]:
    """The changes a ruling orders (`adjudicator.unit_changes.ruled_changes`) that the board does
    not show yet, for units on the board (`units_now`: unit -> how it stands); a unit already so,
    or not on the board, needs nothing."""
    out = []
    leaving = {c.unit for c in changes if c.eliminated}
    for change in changes:
        before = units_now.get(change.unit)
        if before is None or before.deleted or change.kind not in ON_BOARD:
            continue
        if change.kind == STEP and target_step(game, change) is None:
            continue  # a step its counter does not have: nothing a piece can show
        ordered = OrderedChange(change, before, counter_leaves=change.revealed_as in leaving)
        if not reached(game, ordered, units_now):
            out.append(ordered)
    return out


def target_step(game: Game, change: UnitChange) -> str | None:
    """The step's name a step change orders (an SP read as the step showing it), or None."""
    unit = game.units.get(change.unit)
    if unit is None:
        return None
    if change.sp is not None:
        return next((s.name for s in unit.steps if s.values.get("sp") == change.sp), None)
    names = [s.name for s in unit.steps]
    if change.step in ("", None):
        return names[0] if names else None
    return change.step if change.step in names else None


def _same_step(game: Game, unit: str, shown: str, wanted: str | None) -> bool:
    found = game.units.get(unit)
    full = found.steps[0].name if found is not None and found.steps else ""
    return (shown or full) == (wanted or full)


def reached(game: Game, ordered: OrderedChange, units: dict[str, Shown]) -> bool:
    """Whether `units` (unit -> how it stands) show what the change ordered."""
    change = ordered.change
    now = units.get(change.unit)
    if change.kind == STEP:
        return now is not None and not is_eliminated(game, change.unit, now) and \
            _same_step(game, change.unit, now.step, target_step(game, change))
    if change.kind == MOVED:
        return now is not None and not now.deleted and now.hex == change.hex and \
            (change.step is None or _same_step(game, change.unit, now.step, target_step(game, change)))
    if change.kind == RECOMBINED:
        return now is not None and not now.deleted and now.hex == change.hex and \
            all(_set_aside(units.get(part), change.box) for part in change.parts)
    if change.kind == BROKEN_DOWN and not (_set_aside(now, change.box) and all(
            (there := units.get(lost)) is None or is_eliminated(game, lost, there) for lost in change.lost)):
        return False
    gone = now is None or is_eliminated(game, change.unit, now) or change.kind == BROKEN_DOWN
    if change.kind == ELIMINATED or not gone:
        return gone
    if change.kind == REVEALED and ordered.counter_leaves:
        counter = units.get(change.revealed_as)
        if counter is None or is_eliminated(game, change.revealed_as, counter):
            return True  # placed and eliminated again, or put straight where the ruling sends it
    for placed in change.replacements:  # REPLACED, REVEALED: each counter on the hex the unit stood in
        there = units.get(placed.unit)
        if there is None or there.deleted or not there.hex:
            return False
        if ordered.before.hex and (there.hex, there.map) != (ordered.before.hex, ordered.before.map):
            return False
        wanted = target_step(game, UnitChange(STEP, placed.unit, step=placed.step, sp=placed.sp)) \
            if placed.step is not None or placed.sp is not None else None
        if wanted is not None and not _same_step(game, placed.unit, there.step, wanted):
            return False
    return True


def _set_aside(shown: Shown | None, box: str) -> bool:
    """A piece set aside: in the box of counters not in play (any box where the game names none)."""
    return shown is not None and not shown.deleted and not shown.hex and (shown.box == box or not box)


def missing_changes(game: Game, ordered: list[OrderedChange], units_after: dict[str, Shown]) -> list[str]:
    """What of `ordered` the pieces do not show in `units_after` (the units as they stand after the
    ruling's window: the log up to the next ruling, or the owner's next file), in words; empty when
    every ordered change was applied."""
    missing = []
    for change in ordered:
        if reached(game, change, units_after):
            continue
        now = units_after.get(change.unit)
        if now is None or now == change.before:
            missing.append(f"{change.describe()}: the log does not show it")
        else:
            missing.append(f"{change.describe()}: the log has it {now.describe()}")
    return missing


def applied(units: dict[str, Shown], events: list[PieceEvent]) -> dict[str, Shown]:
    """`units` with `events` applied in order (a copy)."""
    out = dict(units)
    for event in events:
        out[event.unit] = event.shown
    return out
