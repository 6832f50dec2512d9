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
  board too where the same ruling eliminates that counter (a Dummy);
* a retreat (KWB's CRT, SPI's Pursuit table, Fire and Ice's losses): the unit on a hex that many
  hexes from the one it stood in (a counter the same ruling placed: from its spot);
* a marker (Fire and Ice 5.4.2, 5.6; 6.2): a marker piece of that kind, showing that face, on the
  unit's hex (or one of the units its owner chooses among);
* a marker on a hex (Fire and Ice's News reporters, 5.5): a marker of the pool it is drawn from (any
  value: it is drawn at random) on that hex;
* a track marker moved (Fire and Ice's support levels, replacements, VPs): the marker on the cell
  ordered, or that many cells from the one it stood on when ruled (never below the first), showing
  the face ordered.

What is checked is each change's resolved piece actions (`adjudicator.piece_actions`), the step
names looked up there once; a choice still open (SPI's defender's losses) is its owner's, and his
own ruling's changes are checked in his file.

Units are known by the properties the generated modules give every unit piece (`UnitId`, and the
Step layer), as the saved-game reader knows them (`adjudicator.bridge.identify`); where a piece
stands is the engine's own bookkeeping (`adjudicator.logs.replay.board`), located on the game's maps
and boxes (`adjudicator.bridge.locate`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from adjudicator.bridge.locate import detect_scale
from adjudicator.bridge.positions import shown_boards
from adjudicator.logs.replay.board import Board
from adjudicator.logs.replay.views import Identifier, Place, Placer
from adjudicator.piece_actions import (
    DELETE, ELIMINATE, MOVE, MOVE_MARKER, ON_THE_BOARD, PLACE, PLACE_MARKER, REMOVE_MARKER, RETREAT_ORDER, SET_ASIDE,
    SHOW_STEP, PieceAction, marker_cell, marker_move_words,
)
from adjudicator.unit_changes import (
    BROKEN_DOWN, ELIMINATED, MARKED, MOVED, ON_HEX, RECOMBINED, REPLACED, RETREAT, REVEALED, TRACK, Placed, UnitChange,
)
from scenarios.boxboard import is_dead_pile_of
from scenarios.model import Game
from vassalfmt import SavedGame, VassalFormatError
from vassalfmt.commands import CHAT_PREFIX, Command, OtherCommand, parse_command, split_commands

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
    track: str = ""  # the player-aid track a marker stands on, and its cell there
    cell: str = ""

    def describe(self) -> str:
        if self.deleted:
            return "deleted"
        where = f"at {self.hex}" if self.hex else f"in {self.box}" if self.box else \
            f"on {self.cell} of its track" if self.track else "off the hex maps"
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

    def __init__(self, game: Game, saved: SavedGame, identify: Identifier | None = None):
        boards = shown_boards(saved)  # a map window showing one board is read as that board
        points = [(boards.get(p.map_id, p.map_id), p.x, p.y) for p in saved.pieces if p.map_id is not None]
        self.placer = Placer(game, detect_scale(game, points)[0], boards)
        self.identify = identify or Identifier(game)  # one of the same game's, its pieces read already

    def shown(self, board: Board, piece_id: str) -> tuple[str, Shown] | None:
        """(unit id, how it stands) of a unit piece on `board`, or (`marker_key`, the face it shows
        and where) of a marker piece; None for any other piece."""
        record, where = board.pieces.get(piece_id), board.where(piece_id)
        if record is None or where is None:
            return None
        identity = self.identify.of(record.type, record.state, board.splits)
        if identity.unit is None and identity.marker is not None:
            return marker_key(identity.marker.id, piece_id), shown_at(identity.face, self.placer.of(where))
        if identity.unit is None:
            return None
        return identity.unit.id, shown_at(identity.step or "", self.placer.of(where))


#: How a marker piece is kept among the units of a log (a marker the rules order onto a unit's hex).
MARKER_KEY = "marker:"


def marker_key(marker: str, piece_id: str) -> str:
    """A marker piece's key beside the units: its marker id and its piece (one marker type, many pieces)."""
    return f"{MARKER_KEY}{marker}#{piece_id}"


def shown_at(step: str, place: Place) -> Shown:
    """A unit piece showing `step` at `place` (a marker on a track: its cell)."""
    return Shown(step, place.map, place.hex, place.box, track=place.track, cell=place.cell)


#: What `log_events` reads of a log: its events in order, and every unit as the log begins.
Events = tuple[list[LogEvent], dict[str, Shown]]


def log_events(saved: SavedGame, game: Game) -> Events:
    """The log's chat texts and unit-piece changes in order, and every unit as the log begins.

    Pieces added while the log runs count from then on; a piece that is no unit is skipped."""
    reading = EventReading(game, saved)
    kept = saved.parsed_commands()
    board = Board(kept.splits if kept is not None else None)  # the states the reader split, not split again
    for logged, command in _commands(saved):
        if logged:
            reading.log_begins()
        if command is None:
            continue
        reading.applied(board, command, set() if isinstance(command, OtherCommand) else board.apply(command))
    return reading.result()


class EventReading:
    """`log_events`, told one command at a time by whoever applies the log's commands to a board:
    the replay's timeline walks a file's commands once, for its steps and for these (issue 53)."""

    def __init__(self, game: Game, saved: SavedGame, identify: Identifier | None = None):
        self.reader = PieceReader(game, saved, identify)
        self.last: dict[str, tuple[str, Shown]] = {}  # piece id -> (unit, how it stands)
        self.events: list[LogEvent] = []
        self.opening: list[LogEvent] = []  # the turn trackers' states the file opens with
        self.start: dict[str, Shown] | None = None

    def log_begins(self) -> None:
        """A logged command comes next: the units as the log begins are those standing now."""
        if self.start is None:
            self.start = _units_of(self.last)

    def applied(self, board: Board, command: Command, touched: set[str]) -> None:
        """`command` applied to `board`, where it touched the pieces `touched`."""
        if isinstance(command, OtherCommand):
            if command.text.startswith(CHAT_PREFIX):
                self.events.append(LogEvent(chat=command.text[len(CHAT_PREFIX):]))
            elif command.text.startswith(TURN_PREFIX):
                (self.events if self.start is not None else self.opening).append(LogEvent(turn=command.text))
            return
        last = self.last
        for piece_id in sorted(touched):
            now = self.reader.shown(board, piece_id)
            was = last.get(piece_id)
            if now is None and was is not None and piece_id not in board.pieces:
                now = (was[0], replace(was[1], deleted=True))
            if now is None or now == was:
                continue
            if now[1].deleted:
                last.pop(piece_id, None)
            else:
                last[piece_id] = now
            if self.start is not None:
                self.events.append(LogEvent(piece=PieceEvent(*now)))

    def result(self) -> Events:
        return self.opening + self.events, self.start if self.start is not None else _units_of(self.last)


def _commands(saved: SavedGame) -> Iterator[tuple[bool, Command | None]]:
    """(logged, its command) of each leaf of the file's stream, in order: those its reader kept
    (parsed once, `SavedGame.parsed_commands`), else parsed now (None: a command that cannot be)."""
    kept = saved.parsed_commands()
    if kept is not None:
        yield from zip((leaf.logged for leaf in kept.leaves), kept.commands)
        return
    for leaf in split_commands(saved.command_text):
        try:
            yield leaf.logged, parse_command(leaf.text)
        except VassalFormatError:
            yield leaf.logged, None


def _units_of(pieces: dict[str, tuple[str, Shown]]) -> dict[str, Shown]:
    """unit -> how it stands, of the unit pieces (a unit with two pieces: the first)."""
    out: dict[str, Shown] = {}
    for unit, shown in pieces.values():
        out.setdefault(unit, shown)
    return out


@dataclass(frozen=True)
class OrderedChange:
    """A change a ruling orders to a unit on the board, how the unit stood when it was ruled, and
    the piece actions it is checked on (`adjudicator.piece_actions`): those the pieces can show,
    a counter placed and taken off the board again by a later change of the same ruling held to
    that (a Dummy turned face up and eliminated at once: in its dead pile, not on the hex)."""

    change: UnitChange
    before: Shown
    actions: tuple[PieceAction, ...] = ()
    #: Where a retreat is counted from: the spot a counter placed by the same ruling takes (SPI: a
    #: part of a broken-down division that then retreats), else where the unit stood (`before`).
    origin: Shown | None = None
    #: Counters this change places that a later change orders to retreat: on a hex, no matter which.
    moving_on: frozenset[str] = frozenset()

    @property
    def unit(self) -> str:
        return self.change.unit

    def describe(self) -> str:
        change = self.change
        if change.kind == ELIMINATED:
            return f"{change.unit} eliminated (to its dead pile)"
        if change.kind == REPLACED:
            return f"{change.unit} replaced by {', '.join(_placed_words(p) for p in change.replacements)}"
        if change.kind == MOVED:
            return f"{change.unit} moved to {change.hex}"
        if change.kind == REVEALED:
            return f"{change.unit} turned face up: {change.revealed_as} in its place"
        if change.kind == BROKEN_DOWN:
            # every part may be lost at once (no part placed): no empty item where they would be
            placed = ", ".join(p.unit for p in change.replacements if p.unit)
            lost = ", ".join(unit for unit in change.lost if unit)
            return (f"{change.unit} broken down" + (f" into {placed}" if placed else "")
                    + (f", {lost} lost" if lost else ""))
        if change.kind == RECOMBINED:
            return f"{', '.join(change.parts)} recombined into {change.unit} in {change.hex}"
        if change.kind == RETREAT:
            return f"{change.unit} to retreat {change.hexes} hex{'es' if change.hexes != 1 else ''}"
        if change.kind == MARKED:
            return f"{change.unit} marked {' and '.join(change.markers)}"
        if change.kind == ON_HEX:
            return f"{' and '.join(change.markers)} marker on {change.hex} ({change.rule})"
        if change.kind == TRACK:
            return f"{'; '.join(marker_move_words(a) for a in self.actions)} ({change.rule})"
        return f"{change.unit} to show {_step_words(change.shows)}"


def _step_words(step: str | None) -> str:
    return step or "full strength"


def _placed_words(placed: Placed) -> str:
    return placed.unit + (f" showing {placed.shows}" if placed.shows else "")


#: Actions that take a unit off the board.
LEAVING = frozenset({ELIMINATE, DELETE, SET_ASIDE})


def checked_actions(change: UnitChange) -> tuple[PieceAction, ...]:
    """The actions of a change a log can show: every action on the board (a step its counter does
    not have resolves to none: nothing to show), and a retreat (the unit that far from where it
    stood); a choice still open is its owner's, nothing to check yet."""
    return tuple(a for a in change.actions if (a.does in ON_THE_BOARD and not (a.does == SHOW_STEP and a.step is None)
                                               and not _unseen_target(a)) or a.does == RETREAT_ORDER)


def _unseen_target(action: PieceAction) -> bool:
    """A marker order the pieces cannot show yet: onto a hex the ruling does not name (a Random Event
    rolled on its own: the combat hex), or one of several track markers, his choice."""
    return (action.does == PLACE_MARKER and not action.unit and not action.hex) or \
        (action.does == MOVE_MARKER and not action.marker)


def _before(change: UnitChange, units_now: dict[str, Shown]) -> Shown | None:
    """How the change's target stood when ruled: its unit; a hex ordered a marker (the hex alone); a
    track's marker (its piece, None when it is not on the board)."""
    if change.kind == ON_HEX:
        return Shown(hex=change.hex) if change.hex else None
    if change.kind == TRACK:
        prefix = f"{MARKER_KEY}{change.marker}#"
        return next((s for key, s in sorted(units_now.items()) if change.marker and key.startswith(prefix)
                     and not s.deleted), None)
    return units_now.get(change.unit)


def ordered_changes(game: Game, changes: list[UnitChange], units_now: dict[str, Shown]) -> list[OrderedChange]:
    """The changes a ruling orders (`adjudicator.unit_changes.ruled_changes`) that the board does
    not show yet, for units on the board (`units_now`: unit -> how it stands); a unit already so,
    or not on the board, needs nothing."""
    leaving: dict[str, int] = {}  # unit -> the last change that takes it off the board
    for number, change in enumerate(changes):
        for action in checked_actions(change):
            if action.does in LEAVING:
                leaving[action.unit] = number
    placed_at = {a.unit: units_now.get(a.beside) for c in changes for a in c.actions
                 if a.does == PLACE and a.beside and not a.hex}
    retreating = frozenset(a.unit for c in changes for a in c.actions if a.does == RETREAT_ORDER)
    out = []
    for number, change in enumerate(changes):
        before = _before(change, units_now)
        actions = tuple(a for a in checked_actions(change) if a.does in LEAVING or leaving.get(a.unit, -1) <= number)
        if before is None or before.deleted or not actions:
            continue
        ordered = OrderedChange(change, before, actions, origin=placed_at.get(change.unit) or before,
                                moving_on=retreating & {a.unit for a in actions if a.does == PLACE})
        if not reached(game, ordered, units_now):
            out.append(ordered)
    return out


def _same_step(game: Game, unit: str, shown: str, wanted: str | None) -> bool:
    found = game.units.get(unit)
    full = found.steps[0].name if found is not None and found.steps else ""
    return (shown or full) == (wanted or full)


def reached(game: Game, ordered: OrderedChange, units: dict[str, Shown]) -> bool:
    """Whether `units` (unit -> how it stands) show what the change ordered: every action it is
    checked on (`unmet` is empty)."""
    return not unmet(game, ordered, units)


def unmet(game: Game, ordered: OrderedChange, units: dict[str, Shown]) -> list[PieceAction]:
    """The actions of `ordered` the pieces in `units` do not show."""
    return [a for a in ordered.actions if not _shows_action(game, a, ordered, units)]


def _shows_action(game: Game, action: PieceAction, ordered: OrderedChange, units: dict[str, Shown]) -> bool:
    now = units.get(action.unit)
    if action.does == SHOW_STEP:
        return now is not None and not is_eliminated(game, action.unit, now) and \
            _same_step(game, action.unit, now.step, action.step)
    if action.does in (ELIMINATE, DELETE):
        return now is None or is_eliminated(game, action.unit, now) or (bool(action.box) and now.box == action.box)
    if action.does == SET_ASIDE:
        return _set_aside(now, action.box)
    if action.does == RETREAT_ORDER:
        return _retreated(game, now, ordered.origin or ordered.before, action.hexes)
    if action.does in (PLACE, MOVE):  # on the hex ordered (a placed counter: where the unit it replaces stood)
        if now is None or now.deleted or not now.hex:
            return False
        if action.hex and now.hex != action.hex:
            return False
        if not action.hex and action.beside == ordered.unit and ordered.before.hex and action.unit not in ordered.moving_on and \
                (now.hex, now.map) != (ordered.before.hex, ordered.before.map):
            return False
        return action.step is None or _same_step(game, action.unit, now.step, action.step)
    if action.does == PLACE_MARKER and not action.unit:
        return _on_hex(game, action, units)
    if action.does in (PLACE_MARKER, REMOVE_MARKER):
        return _marked(action, ordered, units) == (action.does == PLACE_MARKER)
    if action.does == MOVE_MARKER:
        return _on_cell(action, ordered.before, units)
    return True


def _on_hex(game: Game, action: PieceAction, units: dict[str, Shown]) -> bool:
    """A marker of the pool the action draws from (any of them: drawn at random) on the hex ordered."""
    box = game.boxes.get(action.box)
    pool = {m.id for m in game.markers.values() if box is not None and m.kind == box.holds and m.side in ("", box.side)}
    return any(key.startswith(MARKER_KEY) and key[len(MARKER_KEY):].partition("#")[0] in pool and not shown.deleted
               and shown.hex == action.hex for key, shown in units.items())


def _on_cell(action: PieceAction, before: Shown, units: dict[str, Shown]) -> bool:
    """The track marker on the cell ordered, or `by` cells from the one it stood on (never below 0),
    showing the face ordered when one is."""
    wanted = marker_cell(action, before.cell)
    if wanted is None:
        return False
    prefix = f"{MARKER_KEY}{action.marker}#"
    return any(key.startswith(prefix) and not shown.deleted and shown.track == action.track and shown.cell == wanted
               and (not action.face or shown.step == action.marker_name) for key, shown in units.items())


def _marked(action: PieceAction, ordered: OrderedChange, units: dict[str, Shown]) -> bool:
    """Whether a marker of the action's kind (showing its face, when it names one) lies on the hex of
    the unit, or of one of the units its owner chooses among (a quality marker, 5.4.2)."""
    spots = {(s.map, s.hex) for unit in (ordered.change.choices or (action.unit,))
             if (s := units.get(unit)) is not None and s.hex and not s.deleted}
    prefix = f"{MARKER_KEY}{action.marker}#"
    return any(key.startswith(prefix) and not shown.deleted and (shown.map, shown.hex) in spots
               and (not action.marker_name or shown.step == action.marker_name) for key, shown in units.items())


def _retreated(game: Game, now: Shown | None, before: Shown, hexes: int) -> bool:
    """A unit ordered to retreat stands `hexes` hexes from the hex it stood in when ruled (same map)."""
    if now is None or now.deleted or not now.hex or not before.hex or now.map != before.map or now.map not in game.maps:
        return False
    grid = game.maps[now.map].grid
    try:
        return grid.distance(grid.parse(before.hex), grid.parse(now.hex)) == hexes
    except (ValueError, KeyError):
        return False


def _set_aside(shown: Shown | None, box: str) -> bool:
    """A piece set aside: in the box of counters not in play (any box where the game names none)."""
    return shown is not None and not shown.deleted and not shown.hex and (shown.box == box or not box)


def missing_changes(game: Game, ordered: list[OrderedChange], units_after: dict[str, Shown]) -> list[str]:
    """What of `ordered` the pieces do not show in `units_after` (the units as they stand after the
    ruling's window: the log up to the next ruling, or the owner's next file), in words, naming
    each piece that is not as ordered; empty when every ordered change was applied."""
    missing = []
    for change in ordered:
        for action in unmet(game, change, units_after):
            now = units_after.get(action.unit)
            was = change.before if action.unit == change.unit else None
            wanted = _action_words(action)
            if now is None or now == was:
                missing.append(f"{change.describe()}: the log does not show it ({wanted})")
            else:
                who = "it" if action.unit == change.unit else action.unit
                missing.append(f"{change.describe()}: the log has {who} {now.describe()} (ordered: {wanted})")
    return missing


def _article(name: str) -> str:
    return "an" if name[:1].lower() in "aeiou" else "a"


def _action_words(action: PieceAction) -> str:
    """What an action wants the log to show, in words."""
    step = f", showing {_step_words(action.step)}" if action.step is not None else ""
    if action.does == SHOW_STEP:
        return f"{action.unit} showing {_step_words(action.step)}"
    if action.does == ELIMINATE:
        return f"{action.unit} in {action.box_name or 'its dead pile'}"
    if action.does == DELETE:
        return f"{action.unit} off the board"
    if action.does == SET_ASIDE:
        return f"{action.unit} set aside ({action.box_name or 'counters not in play'})"
    if action.does == RETREAT_ORDER:
        return f"{action.unit} {action.hexes} hex{'es' if action.hexes != 1 else ''} from where it stood"
    if action.does == PLACE:
        return f"{action.unit} in {action.hex or f'the hex {action.beside} stood in'}{step}"
    if action.does == MOVE:
        return f"{action.unit} in {action.hex}{step}"
    if action.does == PLACE_MARKER and not action.unit:
        return f"{_article(action.marker_name)} {action.marker_name} marker on {action.hex}"
    if action.does == PLACE_MARKER:
        marker = action.marker_name or action.marker
        return f"{_article(marker)} {marker} marker on the hex of {action.unit}"
    if action.does == MOVE_MARKER:
        return marker_move_words(action)
    if action.does == REMOVE_MARKER:
        return f"no {action.marker_name or action.marker} marker on the hex of {action.unit}"
    return action.unit


def applied(units: dict[str, Shown], events: list[PieceEvent]) -> dict[str, Shown]:
    """`units` with `events` applied in order (a copy)."""
    out = dict(units)
    for event in events:
        out[event.unit] = event.shown
    return out
