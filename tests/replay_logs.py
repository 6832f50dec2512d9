"""Logs written by our own writer for the replay's tests and benchmark: a turn as a player's log reads.

`LogWriter` continues a saved game (a module's setup) with the engine's own commands, one log entry
each (`vassalfmt.continue_log`): a unit moved to a hex (``M``), shown at another step (``D`` with the
piece's whole state, its position included, as the engine sends it), removed (``-``), a chat line,
and a ruling's chat lines (the transcript the service returns, as the web write-back writes them:
one line per entry). It keeps every piece's state as the log changes it, so a later command carries
the piece where it stands.
"""

from __future__ import annotations

import copy

from adjudicator.bridge import load_system_game, read_positions, read_upload
from adjudicator.bridge.identify import step_layer
from adjudicator.bridge.positions import shown_boards
from vassalfmt import Piece, continue_log
from vassalfmt.commands import ChangePiece, MovePiece, RemovePiece, chat_command


class LogWriter:
    def __init__(self, system: str, setup: bytes):
        self.setup = setup
        self.game = load_system_game(system)
        saved = read_upload(setup)
        self.positions = read_positions(self.game, saved)
        self.scale = self.positions.scale
        by_id = saved.by_id()
        self.pieces: dict[str, tuple[str, Piece]] = {}  # unit -> (piece id, its piece now)
        for placed in self.positions.units:
            self.pieces.setdefault(placed.unit.id, (placed.piece_id, copy.deepcopy(by_id[placed.piece_id].piece)))
        self.commands: list[str] = []
        self.removed: dict[str, tuple[str, Piece]] = {}
        self.boards = shown_boards(saved)  # the module's main map shows the scenario's map as a board

    def game_map_of(self, vassal_map: str | None):
        """The game map a VASSAL map window shows (itself, or the one board it shows)."""
        name = self.boards.get(vassal_map, vassal_map)
        return next((m for m in self.game.maps.values() if m.name == name), None)

    def hex_of(self, unit: str) -> str | None:
        piece = self.pieces[unit][1].basic
        game_map = self.game_map_of(piece.map_id)
        if game_map is None:
            return None
        grid = game_map.board_grid(self.scale)
        return grid.label(grid.hex_at(piece.x, piece.y))

    def map_of(self, unit: str) -> str | None:
        game_map = self.game_map_of(self.pieces[unit][1].basic.map_id)
        return game_map.id if game_map else None

    def move(self, unit: str, hex_label: str) -> None:
        piece_id, piece = self.pieces[unit]
        basic = piece.basic
        game_map = self.game_map_of(basic.map_id)
        grid = game_map.board_grid(self.scale)
        x, y = grid.center(grid.parse(hex_label))
        self.commands.append(MovePiece(piece_id, basic.map_id, x, y, None, basic.map_id, basic.x, basic.y, None,
                                       "").encode())
        basic.x, basic.y = x, y

    def step(self, unit: str, step_name: str) -> None:
        piece_id, piece = self.pieces[unit]
        layer = step_layer(piece)
        level = [s.name for s in self.game.units[unit].steps].index(step_name) + 1
        layer.level = level if layer.level >= 0 else -level
        self.commands.append(ChangePiece(piece_id, piece.state_string()).encode())

    def remove(self, unit: str) -> None:
        piece_id, piece = self.pieces.pop(unit)
        self.removed[unit] = (piece_id, piece)
        self.commands.append(RemovePiece(piece_id).encode())

    def put_back(self, unit: str, hex_label: str) -> None:
        """A removed unit placed on the board again (``+``: the engine adds the piece anew)."""
        piece_id, piece = self.removed.pop(unit)
        basic = piece.basic
        game_map = self.game_map_of(basic.map_id)
        grid = game_map.board_grid(self.scale)
        basic.x, basic.y = grid.center(grid.parse(hex_label))
        self.pieces[unit] = (piece_id, piece)
        self.commands.append(piece.add_piece_command(piece_id))

    def chat(self, text: str) -> None:
        self.commands.append(chat_command(text))

    def ruling(self, lines: list[str]) -> None:
        for line in lines:
            self.chat(line)

    def log(self) -> bytes:
        return continue_log(self.setup, self.commands)


def saved_at_end(log: bytes) -> bytes:
    """The position a log ends at as a saved game (what the player saves, and begins his next log
    from): its steps' piece commands as the game's own, its chat left out."""
    import io
    import zipfile

    from vassalfmt.commands import CHAT_PREFIX, LOG_PREFIX
    from vassalfmt.savedgame import SAVED_GAME_ENTRY, deobfuscate, obfuscate
    from vassalfmt.sequence import ESC, decode, encode
    from vassalfmt.zipwriter import build_zip

    with zipfile.ZipFile(io.BytesIO(log)) as archive:
        entries = {name: archive.read(name) for name in archive.namelist()}
    fields = []
    for field in decode(deobfuscate(entries[SAVED_GAME_ENTRY]), ESC):
        command = field[len(LOG_PREFIX):] if field.startswith(LOG_PREFIX) else field
        if command and not command.startswith(CHAT_PREFIX):
            fields.append(command)
    entries[SAVED_GAME_ENTRY] = obfuscate(encode(fields, ESC))
    return build_zip(entries)
