"""The command stream of saved games and logs.

A saved game is one string of commands (``VASSAL/build/GameModule.java`` ``encode``/``decode``):
commands are joined by ESC, and a compound command is itself an ESC-sequence that is escaped
once more when nested, so real files mix levels (``begin_save ESC ... \\ESC ...``). Log files
(``.vlog``) wrap each recorded move as ``LOG\\t<command>`` (which may be compound again) and mark
undo steps with ``UNDO\\t<true|false>`` (``VASSAL/build/module/BasicLogger.java``).

:func:`split_commands` undoes all of that and yields the leaf commands in order, each flagged
whether it came from a log entry. The piece commands (``BasicCommandEncoder``) are parsed into
dataclasses; everything else (global properties, turn tracker, chat, ...) stays text.

Reading is bounded: nesting deeper than ``MAX_DEPTH`` and more than ``MAX_COMMANDS`` leaves are
refused, so no input can make the reader recurse or loop without end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as default_of

from .errors import VassalFormatError, VassalLimitError
from .piece import StateSplits
from .sequence import ESC, SequenceDecoder, decode, encode

BEGIN_SAVE = "begin_save"
END_SAVE = "end_save"
BEGIN_LOG = "begin_log"
END_LOG = "end_log"
#: Clears the "new game" flag so at-start stacks are not placed again (map/SetupStack.java).
SETUP_STACK = "SETUP_STACK\t"
LOG_PREFIX = "LOG\t"
UNDO_PREFIX = "UNDO\t"
#: A chat line (``Chatter.DisplayText``): the prefix, then the text as the chat shows it.
CHAT_PREFIX = "CHAT"

MAX_DEPTH = 40
MAX_COMMANDS = 2_000_000


@dataclass(frozen=True)
class CommandText:
    """One leaf command; ``logged`` when it was recorded as a step of a log file."""

    text: str
    logged: bool = False


def join_commands(commands: list[str]) -> str:
    """ESC-join commands the way the engine does (each escaped as a field)."""
    return encode(commands, ESC)


def chat_command(text: str) -> str:
    """The command that shows `text` in the chat (no control characters: a command cannot carry
    them, so they become spaces)."""
    return CHAT_PREFIX + "".join(" " if ord(c) < 32 or ord(c) == 127 else c for c in text)


def log_entry(command: str) -> str:
    """One step of a log (``BasicLogger``): ``LOG\t`` + one command. (VASSAL 3.7.26 replays a
    step whose command is a compound as a ClassCastException: write one command per step.)"""
    return LOG_PREFIX + command


def split_commands(text: str, max_depth: int = MAX_DEPTH, max_commands: int = MAX_COMMANDS,
                   tick: Callable[[], None] | None = None, entries: list[int] | None = None) -> list[CommandText]:
    """Flatten a saved-game/log command string into its leaf commands, in order.

    Mirrors ``GameModule.decode``: a string that is one ESC-field equal to itself is a leaf,
    otherwise each field is decoded again; ``LOG\\t`` leaves are decoded once more.
    Empty leaves (the engine's NullCommand) and ``UNDO`` markers are dropped. ``tick`` is called
    once per field taken apart (a time budget raises from it). ``entries``, when given, is told for
    each leaf the number of the stream's top-level field it came from when that field is a log entry
    (``LOG\\t``; the whole stream, when it is one), else -1: a reader of steps groups the leaves by
    it without splitting the text again (`vassalfmt.logsteps`).
    """
    out: list[CommandText] = []
    # Explicit stack of (text, depth, logged, log entry), processed in order (so pushed in reverse).
    pending: list[tuple[str, int, bool, int]] = [(text, 0, False, -1)]
    while pending:
        if tick is not None:
            tick()
        command, depth, logged, top = pending.pop()
        if depth > max_depth:
            raise VassalFormatError(
                f"the command stream is nested more than {max_depth} levels deep; refused")
        if command.startswith(LOG_PREFIX):
            pending.append((command[len(LOG_PREFIX):], depth + 1, True, 0 if depth == 0 else top))
            continue
        # A command with no ESC that is not quoted is a leaf as it stands (most are: no decoding).
        fields = [command] if ESC not in command and command[:1] != "'" else decode(command, ESC)
        if len(fields) == 1 and fields[0] == command:
            if command and not command.startswith(UNDO_PREFIX):
                out.append(CommandText(command, logged))
                if entries is not None:
                    entries.append(top)
                if len(out) > max_commands:
                    raise VassalLimitError(
                        f"the file holds more than {max_commands} commands; refused")
            continue
        if depth == 0:
            for index in range(len(fields) - 1, -1, -1):
                top = index if fields[index].startswith(LOG_PREFIX) else -1
                pending.append((fields[index], 1, logged, top))
            continue
        for field in reversed(fields):
            pending.append((field, depth + 1, logged, top))
    return out


# --- piece commands -----------------------------------------------------------------------------

@dataclass
class AddPiece:
    """``+/id/type/state`` — creates a piece (or a stack, type ``stack``)."""

    piece_id: str | None
    type: str
    state: str

    def encode(self) -> str:
        return "+/" + encode(["null" if self.piece_id is None else self.piece_id, self.type,
                              self.state], "/")


@dataclass
class RemovePiece:
    """``-/id``."""

    piece_id: str

    def encode(self) -> str:
        return "-/" + self.piece_id


@dataclass
class ChangePiece:
    """``D/id/newState[/oldState]``."""

    piece_id: str
    new_state: str
    old_state: str | None = None

    def encode(self) -> str:
        fields = [self.piece_id, self.new_state]
        if self.old_state is not None:
            fields.append(self.old_state)
        return "D/" + encode(fields, "/")


@dataclass
class MovePiece:
    """``M/id/newMap/x/y/underId/oldMap/x/y/underId/playerId`` (``null`` for no map/piece)."""

    piece_id: str
    new_map: str | None
    new_x: int
    new_y: int
    new_under: str | None
    old_map: str | None
    old_x: int
    old_y: int
    old_under: str | None
    player_id: str = ""

    def encode(self) -> str:
        def wrap(value: str | None) -> str:
            return "null" if value is None else value

        return "M/" + encode([self.piece_id, wrap(self.new_map), str(self.new_x), str(self.new_y),
                              wrap(self.new_under), wrap(self.old_map), str(self.old_x),
                              str(self.old_y), wrap(self.old_under), self.player_id], "/")


@dataclass
class OtherCommand:
    """Any command that is not a piece command, kept as text."""

    text: str

    def encode(self) -> str:
        return self.text


Command = AddPiece | RemovePiece | ChangePiece | MovePiece | OtherCommand


def _unwrap_null(value: str) -> str | None:
    return None if value == "null" else value


def _int_field(d: SequenceDecoder, what: str, command: str) -> int:
    return _int_text(d.next_token(""), what, command)


def parse_command(text: str) -> Command:
    """Parse one leaf command (see :func:`split_commands`)."""
    if text.startswith("+/"):
        d = SequenceDecoder(text[2:], "/")
        piece_id = _unwrap_null(d.next_token(""))
        type_string = d.next_token("")
        state = d.next_token("")
        return AddPiece(piece_id, type_string, state)
    if text.startswith("-/"):
        return RemovePiece(text[2:])
    if text.startswith("D/"):
        d = SequenceDecoder(text[2:], "/")
        piece_id = d.next_token("")
        new_state = d.next_token("")
        old_state = d.next_token() if d.has_more() else None
        return ChangePiece(piece_id, new_state, old_state)
    if text.startswith("M/"):
        if "\\" not in text and "'" not in text:  # nothing escaped or quoted (every move the engine
            return _plain_move(text)              # writes): its fields split as they stand
        d = SequenceDecoder(text[2:], "/")
        piece_id = d.next_token("")
        new_map = _unwrap_null(d.next_token(""))
        new_x = _int_field(d, "x", text)
        new_y = _int_field(d, "y", text)
        new_under = _unwrap_null(d.next_token(""))
        old_map = _unwrap_null(d.next_token(""))
        old_x = _int_field(d, "old x", text)
        old_y = _int_field(d, "old y", text)
        old_under = _unwrap_null(d.next_token(""))
        player = d.next_token("")
        return MovePiece(piece_id, new_map, new_x, new_y, new_under, old_map, old_x, old_y,
                         old_under, player)
    return OtherCommand(text)


@dataclass
class ParsedStream:
    """A command stream as the saved-game reader split and parsed it, kept for the readers that
    step through it again (a log's replay and its check): the leaves, each one's command, and the
    log entry it came from (``split_commands``' ``entries``). Parsing a long log is most of what
    reading it costs, so it is done once (issue 53)."""

    text: str  # the stream these were read from (`SavedGame.command_text`)
    leaves: list[CommandText]
    commands: list[Command]
    entries: list[int]
    #: Its pieces' states split at each trait's level, by whichever reader met each first.
    splits: StateSplits = default_of(default_factory=StateSplits)


def _plain_move(text: str) -> MovePiece:
    """`parse_command` of a move with no backslash and no quote, whose fields are split as they stand."""
    fields = text[2:].split("/", 10)[:10]
    fields += [""] * (10 - len(fields))
    piece_id, new_map, new_x, new_y, new_under, old_map, old_x, old_y, old_under, player = fields
    return MovePiece(piece_id, _unwrap_null(new_map), _int_text(new_x, "x", text), _int_text(new_y, "y", text),
                     _unwrap_null(new_under), _unwrap_null(old_map), _int_text(old_x, "old x", text),
                     _int_text(old_y, "old y", text), _unwrap_null(old_under), player)


def _int_text(token: str, what: str, command: str) -> int:
    try:
        return int(token)
    except ValueError:
        raise VassalFormatError(f"move command with a bad {what} {token!r}: {command[:80]!r}") \
            from None


# --- board layout ---------------------------------------------------------------------------------

BOARD_PICKER_SUFFIX = "BoardPicker"


@dataclass
class BoardPlacement:
    """One board of a map's layout: its name, grid cell (column, row) and whether reversed."""

    name: str
    column: int = 0
    row: int = 0
    reversed: bool = False


def board_command(map_id: str, boards: list[BoardPlacement]) -> str:
    """The command that sets a map's boards (``VASSAL/build/module/map/BoardPicker.java``).

    ``<mapName>BoardPicker TAB board[/rev] TAB column TAB row ...``. The engine writes it in
    every save; a map with exactly one board picks that board without it.
    """
    fields = [map_id + BOARD_PICKER_SUFFIX]
    for board in boards:
        fields.append(encode([board.name, "rev"] if board.reversed else [board.name], "/"))
        fields += [str(board.column), str(board.row)]
    return encode(fields, "\t")


def parse_board_command(text: str) -> tuple[str, list[BoardPlacement]] | None:
    """(map id, boards) if ``text`` is a board-layout command, else None."""
    d = SequenceDecoder(text, "\t")
    head = d.next_token("")
    if not head.endswith(BOARD_PICKER_SUFFIX) or not d.has_more():
        return None
    boards = []
    while d.has_more():
        name_field = decode(d.next_token(), "/")
        column, row = d.next_int(0), d.next_int(0)
        reversed_ = len(name_field) > 1 and name_field[1] == "rev"
        boards.append(BoardPlacement(name_field[0], column, row, reversed_))
    return head[: -len(BOARD_PICKER_SUFFIX)], boards
