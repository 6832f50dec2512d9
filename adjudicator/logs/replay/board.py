"""The pieces of a VASSAL game as its commands change them, one command at a time.

The saved-game reader (`vassalfmt.read_saved_game`) gives the position at the end of a file; a
replay needs it after every step, and needs to know which pieces a step touched, so the browser
redraws those alone. `Board` applies the engine's piece commands as the engine does
(``VASSAL/command/{AddPiece,RemovePiece,ChangePiece,MovePiece}.java``): a stack or a draw pile
(deck) is a container whose members stand where it stands; a move takes a piece out of its
container and, onto a pile's spot or beside a piece already in one, into that pile. Decks matter
here as they do not to the reader: a piece inside a face-down pile is hidden from everyone.

Players' sides come from the roster's ``PLAYER`` commands, so a piece masked by a player (the
mask's ``player:`` access) can be shown to that player's side.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from vassalfmt.commands import AddPiece, ChangePiece, Command, MovePiece, OtherCommand, RemovePiece
from vassalfmt.piece import StateSplits, basic_state
from vassalfmt.sequence import SequenceDecoder, decode

STACK_TYPE = "stack"
DECK_TYPE_PREFIX = "deck;"
PLAYER_PREFIX = "PLAYER\t"
#: The deck type's field holding its name (``Deck.getType``: outline, colour, size, face down, ...).
_DECK_NAME_FIELD = 12


@dataclass
class PieceRecord:
    """A piece's definition (type, state) and where it stands when in no container."""

    type: str
    state: str
    map: str | None = None
    x: int = 0
    y: int = 0


@dataclass
class Container:
    """A stack, or a draw pile (``deck``): its members, bottom first, stand where it stands."""

    kind: str  # "stack" or "deck"
    map: str | None
    x: int
    y: int
    members: list[str] = field(default_factory=list)
    name: str = ""  # a deck's name (the DrawPile's)
    face_down: bool = False  # a deck whose cards lie face down now


class Where(NamedTuple):
    """Where a piece stands now: a map and pixel, and the pile it lies in ("" for none).

    A named tuple, not a frozen dataclass: one is made for every piece a command touches, three
    times (the step, the units, the log check's events), and each is a key of the placer's cache;
    making and hashing a frozen dataclass was a tenth of the largest log's replay (issue 53)."""

    map: str | None
    x: int
    y: int
    pile: str = ""
    face_down: bool = False


class Board:
    """Every piece, stack and pile of a game, changed command by command."""

    def __init__(self, splits: StateSplits | None = None) -> None:
        #: The states of the file's pieces split once, shared with its other readers (None: split here).
        self.splits = splits
        self.pieces: dict[str, PieceRecord] = {}
        self.containers: dict[str, Container] = {}
        #: The containers that are draw piles (a few): a moved piece is looked for among them, not
        #: among every stack (moves x stacks was a tenth of a long log's replay).
        self._decks: dict[str, None] = {}
        self.parent: dict[str, str] = {}
        self.players: dict[str, str] = {}  # player id -> roster side name

    # -- reading --------------------------------------------------------------------------------------

    def where(self, piece_id: str) -> Where | None:
        record = self.pieces.get(piece_id)
        if record is None:
            return None
        box = self.containers.get(self.parent.get(piece_id, ""))
        if box is None:
            return Where(record.map, record.x, record.y)
        if box.kind == "deck":
            return Where(box.map, box.x, box.y, box.name, box.face_down)
        return Where(box.map, box.x, box.y)

    # -- applying commands ----------------------------------------------------------------------------

    def apply(self, command: Command) -> set[str]:
        """Apply one command; the ids of the pieces it may have moved or changed."""
        if isinstance(command, AddPiece):
            return self._add(command)
        if isinstance(command, RemovePiece):
            return self._remove(command.piece_id)
        if isinstance(command, ChangePiece):
            return self._change(command)
        if isinstance(command, MovePiece):
            return self._move(command)
        if isinstance(command, OtherCommand) and command.text.startswith(PLAYER_PREFIX):
            fields = command.text.split("\t")
            if len(fields) >= 4:
                self.players[fields[1]] = fields[3]
        return set()

    def _add(self, c: AddPiece) -> set[str]:
        if c.piece_id is None:
            return set()
        if c.type == STACK_TYPE:
            return self._set_container(c.piece_id, "stack", c.state)
        if c.type.startswith(DECK_TYPE_PREFIX):
            return self._set_container(c.piece_id, "deck", c.state, c.type)
        record = PieceRecord(c.type, c.state)
        _position_from_state(record, self.splits)
        self.pieces[c.piece_id] = record
        return {c.piece_id}

    def _set_container(self, container_id: str, kind: str, state: str, type_: str | None = None) -> set[str]:
        d = SequenceDecoder(state or None, ";")
        map_id = d.next_token("null")
        x, y = (0, 0) if map_id == "null" else (_int(d.next_token("0")), _int(d.next_token("0")))
        old = self.containers.get(container_id)
        box = Container(kind, None if map_id == "null" else map_id, x, y)
        if kind == "deck":
            box.face_down = d.next_token("false") == "true"
            tokens = decode(d.next_token(""), ",") if d.has_more() else []
            box.name = _deck_name(type_) if type_ else (old.name if old else "")
        else:
            tokens = []
            while d.has_more():
                tokens.append(d.next_token())
        touched = set(old.members) if old else set()
        if old:
            for member in old.members:
                self.parent.pop(member, None)
        for token in tokens:
            if not token or token.startswith("@@") or token not in self.pieces:
                continue
            self._leave(token)
            self.parent[token] = container_id
            box.members.append(token)
            touched.add(token)
        self.containers[container_id] = box
        if kind == "deck":
            self._decks[container_id] = None
        else:
            self._decks.pop(container_id, None)
        return touched

    def _leave(self, piece_id: str) -> None:
        container_id = self.parent.pop(piece_id, None)
        box = self.containers.get(container_id) if container_id else None
        if box is not None and piece_id in box.members:
            box.members.remove(piece_id)

    def _remove(self, piece_id: str) -> set[str]:
        if piece_id in self.containers:
            box = self.containers.pop(piece_id)
            self._decks.pop(piece_id, None)
            for member in box.members:  # a container goes when it is empty; members keep their spot
                self.parent.pop(member, None)
                record = self.pieces.get(member)
                if record is not None:
                    record.map, record.x, record.y = box.map, box.x, box.y
            return set(box.members)
        if piece_id not in self.pieces:
            return set()
        self._leave(piece_id)
        del self.pieces[piece_id]
        return {piece_id}

    def _change(self, c: ChangePiece) -> set[str]:
        if c.piece_id in self.containers:
            box = self.containers[c.piece_id]
            return self._set_container(c.piece_id, box.kind, c.new_state)
        record = self.pieces.get(c.piece_id)
        if record is None:
            return set()
        old_map = record.map
        record.state = c.new_state
        _position_from_state(record, self.splits)
        if record.map != old_map:
            self._leave(c.piece_id)
        return {c.piece_id}

    def _move(self, c: MovePiece) -> set[str]:
        if c.piece_id in self.containers:
            box = self.containers[c.piece_id]
            box.map, box.x, box.y = c.new_map, c.new_x, c.new_y
            return set(box.members)
        record = self.pieces.get(c.piece_id)
        if record is None:
            return set()
        self._leave(c.piece_id)
        record.map, record.x, record.y = c.new_map, c.new_x, c.new_y
        if c.new_map is not None:
            target = self._pile_at(c.new_under, c.new_map, c.new_x, c.new_y)
            if target is not None:
                self.containers[target].members.append(c.piece_id)
                self.parent[c.piece_id] = target
        return {c.piece_id}

    def _pile_at(self, under: str | None, map_id: str, x: int, y: int) -> str | None:
        """The container a moved piece joins: the one of the piece it is put on, else a pile lying
        exactly there (a piece returned to a pile)."""
        spot = (map_id, x, y)
        if under and under in self.parent:
            box = self.containers.get(self.parent[under])
            if box is not None and (box.map, box.x, box.y) == spot:
                return self.parent[under]
        if under and under in self.containers and self.containers[under].kind == "deck":
            return under
        piles = [cid for cid in self._decks if (self.containers[cid].map, self.containers[cid].x,
                                                self.containers[cid].y) == spot]
        if len(piles) > 1:  # piles on one spot: the first of the board's containers, as before
            return next(cid for cid in self.containers if cid in piles)
        return piles[0] if piles else None


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0


def _position_from_state(record: PieceRecord, splits: StateSplits | None = None) -> None:
    """A piece's own map and pixel, from its BasicPiece state (the innermost trait's)."""
    basic = splits.basic(record.state) if splits is not None else basic_state(record.state)
    d = SequenceDecoder(basic or None, ";")
    map_id = d.next_token("null")
    record.map = None if map_id == "null" else map_id
    record.x = _int(d.next_token("0"))
    record.y = _int(d.next_token("0"))


def _deck_name(type_: str) -> str:
    """A deck's name (the DrawPile's), from its type."""
    d = SequenceDecoder(type_[len(DECK_TYPE_PREFIX):] or None, ";")
    fields = [d.next_token("") for _ in range(_DECK_NAME_FIELD + 1)]
    return fields[_DECK_NAME_FIELD]
