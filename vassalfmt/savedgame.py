"""Saved games (``.vsav``) and logs (``.vlog``): writing setups, reading uploads.

A saved game is a zip (``VASSAL/build/module/GameState.java``) with

* ``savedGame`` — the command stream (see :mod:`vassalfmt.commands`), *obfuscated*:
  ``!VCSK`` + a key byte as two hex digits + every UTF-8 byte XOR key as two hex digits
  (``VASSAL/tools/io/ObfuscatingOutputStream.java``; text without the header is read as is);
* ``savedata`` — save metadata, ``moduledata`` — a copy of the module's metadata
  (:mod:`vassalfmt.moduledata`).

A log file has the same container; its stream starts with the game as it was when logging began
and continues with ``LOG`` entries, one per recorded step.

Writing (module generator): :class:`SavedGameWriter` collects pieces (and stacks), then
``to_bytes``/``write`` give a deterministic ``.vsav``. It adds ``SETUP_STACK\\t`` so the
engine does not place the module's at-start stacks again on top of the saved pieces.

Reading (adjudicator): :func:`read_saved_game` accepts bytes or a path, applies every piece
command in order (adds, removes, state changes, moves, stacks) and returns each piece with its
map, position, traits and properties. Uploads are untrusted: see :mod:`vassalfmt.zipreader` for
the limits; every problem is a :class:`~vassalfmt.errors.VassalFormatError`.
"""

from __future__ import annotations

import binascii
import heapq
import os
import time
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from .commands import (
    MAX_COMMANDS,
    BEGIN_SAVE,
    BoardPlacement,
    END_SAVE,
    LOG_PREFIX,
    SETUP_STACK,
    AddPiece,
    ChangePiece,
    MovePiece,
    OtherCommand,
    ParsedStream,
    RemovePiece,
    join_commands,
    log_entry,
    parse_board_command,
    parse_command,
    split_commands,
)
from .deck import DeckSpec
from .errors import VassalFormatError, VassalLimitError, VassalTimeLimit
from .moduledata import ModuleData, SaveData
from .piece import (
    Piece,
    StateSplits,
    _split_nested,
    add_piece_command,
    expand_prototypes,
    nest_traits,
    parse_piece,
)
from .sequence import ESC, SequenceDecoder, decode, encode
from .traits import BasicPiece, Immobilized, RawTrait
from .zipreader import DEFAULT_LIMITS, SafeZip, ZipLimits
from .zipwriter import build_zip, write_atomic

SAVED_GAME_ENTRY = "savedGame"
SAVEDATA_ENTRY = "savedata"
MODULEDATA_ENTRY = "moduledata"

OBFUSCATION_HEADER = b"!VCSK"
DEFAULT_KEY = 0x5A
XZ_MAGIC = b"\xfd7zXZ\x00"
#: Memory the xz decoder may take. VASSAL's xz writer uses an 8 MiB dictionary; a header asking
#: for gigabytes is refused before the decoder allocates them.
XZ_MEMORY_LIMIT = 64 * 1024 * 1024
STACK_TYPE = "stack"
DECK_TYPE_PREFIX = "deck;"


# --- obfuscation --------------------------------------------------------------------------------

def obfuscate(text: str, key: int = DEFAULT_KEY) -> bytes:
    """``!VCSK`` + key + hex(XOR). A fixed key keeps the output reproducible."""
    if not 0 <= key <= 255:
        raise ValueError("the obfuscation key is one byte")
    table = bytes(i ^ key for i in range(256))
    body = binascii.hexlify(text.encode("utf-8").translate(table))
    return OBFUSCATION_HEADER + b"%02x" % key + body


def deobfuscate(data: bytes, max_bytes: int = DEFAULT_LIMITS.max_entry_bytes) -> str:
    """The text of a ``savedGame`` entry: obfuscated, plain, or (newer engines) xz-compressed."""
    if data.startswith(XZ_MAGIC):
        data = _unxz(data, max_bytes)
    if data.startswith(OBFUSCATION_HEADER):
        body = data[len(OBFUSCATION_HEADER):]
        if len(body) < 2:
            raise VassalFormatError("the saved game stream is damaged (no key after !VCSK)")
        try:
            key = int(body[:2], 16)
            raw = binascii.unhexlify(body[2:])
        except (ValueError, binascii.Error):
            raise VassalFormatError(
                "the saved game stream is damaged (bad hex after the !VCSK header)") from None
        data = raw.translate(bytes(i ^ key for i in range(256)))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise VassalFormatError(
            f"the saved game stream is not valid UTF-8 text (byte {exc.start})") from None


def _unxz(data: bytes, max_bytes: int) -> bytes:
    import lzma

    decompressor = lzma.LZMADecompressor(memlimit=XZ_MEMORY_LIMIT)
    try:
        out = decompressor.decompress(data, max_length=max_bytes + 1)
    except lzma.LZMAError as exc:
        if "memory" in str(exc).lower():
            raise VassalFormatError("the saved game stream is xz data whose decoder would need more than "
                                    f"{XZ_MEMORY_LIMIT // (1024 * 1024)} MB of memory; refused") from None
        raise VassalFormatError(f"the saved game stream is damaged xz data ({exc})") from None
    if len(out) > max_bytes:
        raise VassalFormatError("the saved game stream unpacks to more than allowed; refused")
    return out


# --- writing ------------------------------------------------------------------------------------

@dataclass
class StackSpec:
    stack_id: str
    map_id: str
    x: int
    y: int
    member_ids: list[str]
    layer: int | None = None

    def state_string(self) -> str:
        fields = [self.map_id, str(self.x), str(self.y), *self.member_ids]
        if self.layer is not None:
            fields.append(f"@@{self.layer}")
        return encode(fields, ";")


class SavedGameWriter:
    """Builds a saved game (e.g. a scenario's predefined setup).

    >>> from vassalfmt.traits import BasicPiece, Marker
    >>> w = SavedGameWriter()
    >>> w.add_piece("u1", Piece([Marker.of(Side="UN"),
    ...                          BasicPiece(image="inf.png", name="1 Cav", map_id="Main Map",
    ...                                     x=150, y=232)]))
    >>> w.commands()[-2:]
    ['SETUP_STACK\\t', 'end_save']
    >>> data = w.to_bytes(ModuleData(name="Korea"))   # or w.write("dist/setup.vsav", ...)

    With ``auto_stack`` (the default) pieces at the same map position are put into one stack in
    the order added (first = bottom), as the engine itself saves them; pieces with a
    "never stacks" Immobilized trait stay on their own.

    Give the module's ``prototypes`` (name -> Piece, e.g. from
    :func:`vassalfmt.buildfile.prototypes_from_buildfile`) and every piece is written with its
    prototypes expanded, as the engine writes pieces; without expansion, the state of traits
    that live in prototypes (Dynamic Properties, layers) is neither saved nor sent to the
    other players (see :func:`vassalfmt.piece.expand_prototypes`).
    """

    def __init__(self, auto_stack: bool = True, prototypes: Mapping[str, Piece] | None = None):
        self.auto_stack = auto_stack
        self.prototypes = prototypes
        self._warned_unexpanded = False
        self._pieces: list[_SavedPiece] = []
        #: the prototypes' traits, and their (type, state) texts once encoded (see `_encoded`)
        self._prototype_trait_ids = {id(t) for p in (prototypes or {}).values() for t in p.traits}
        self._prototype_texts: dict[int, tuple[str, str]] = {}
        self._decks: list[tuple[str, DeckSpec, str, int, int, list[str]]] = []
        self._extra: list[str] = []
        self._ids: set[str] = set()

    def _claim(self, piece_id: str) -> None:
        if not piece_id or piece_id == "null":
            raise ValueError("a saved piece needs a unique, non-empty id (not 'null')")
        if piece_id in self._ids:
            raise ValueError(f"duplicate piece id {piece_id!r}")
        self._ids.add(piece_id)

    def add_piece(self, piece_id: str, piece: Piece) -> None:
        basic = piece.basic
        if basic is None:
            raise ValueError("a saved piece needs a BasicPiece as its innermost trait")
        self._claim(piece_id)
        if self.prototypes is not None:
            # Encoded right away (below), so the expansion may share the prototypes' traits.
            piece = expand_prototypes(piece, self.prototypes, copy_traits=False)
            command = add_piece_command(piece_id, *self._encoded(piece))
        else:
            command = piece.add_piece_command(piece_id)
        if self.prototypes is None and piece.prototypes() and not self._warned_unexpanded:
            self._warned_unexpanded = True
            warnings.warn(
                f"piece {piece_id!r} uses prototypes {piece.prototypes()} but the writer has no "
                "prototypes to expand them: the state of prototype traits (Dynamic Properties, "
                "layers, moved flags) will not be saved or sent to other players; pass "
                "SavedGameWriter(prototypes=...)", UserWarning, stacklevel=2)
        self._pieces.append(_SavedPiece(piece_id, command, basic.map_id, basic.x, basic.y, _stackable(piece)))

    def _encoded(self, piece: Piece) -> tuple[str, str]:
        """An expanded piece's type and state. The traits it shares with the prototypes are the
        same for every piece, so their texts are encoded once per writer (they were two thirds
        of encoding a setup)."""
        piece._check()  # what Piece.type_string checks
        texts = [self._trait_texts(trait) for trait in piece.traits]
        return nest_traits([t for t, _ in texts]), nest_traits([s for _, s in texts])

    def _trait_texts(self, trait) -> tuple[str, str]:
        key = id(trait)
        found = self._prototype_texts.get(key)
        if found is None:
            found = (trait.type_string(), trait.state_string())
            # Only the prototypes' traits: they live as long as self.prototypes (so the id stays
            # theirs), and the writer assumes they do not change while pieces are added.
            if key in self._prototype_trait_ids:
                self._prototype_texts[key] = found
        return found

    def add_deck(self, deck_id: str, spec: DeckSpec, map_id: str, x: int, y: int, card_ids: list[str]) -> None:
        """A draw pile holding already-added pieces (first = bottom). Its ``spec`` must be the
        module's DrawPile of the same name: the engine uses the saved configuration."""
        self._claim(deck_id)
        self._decks.append((deck_id, spec, map_id, x, y, list(card_ids)))

    def add_command(self, command: str) -> None:
        """Any other command text, e.g. a global property's restore command."""
        self._extra.append(command)

    def _auto_stacks(self) -> list[StackSpec]:
        explicit = {card for deck in self._decks for card in deck[5]}
        groups: dict[tuple[str, int, int], list[str]] = {}
        for saved in self._pieces:
            if saved.piece_id in explicit or saved.map_id is None or not saved.stackable:
                continue
            groups.setdefault((saved.map_id, saved.x, saved.y), []).append(saved.piece_id)
        stacks = []
        for n, ((map_id, x, y), members) in enumerate(groups.items(), start=1):
            stack_id = f"stack{n}"
            while stack_id in self._ids:
                stack_id += "_"
            stacks.append(StackSpec(stack_id, map_id, x, y, members))
        return stacks

    def commands(self, setup_stack_marker: bool = True) -> list[str]:
        out = [BEGIN_SAVE]
        out += [saved.command for saved in self._pieces]
        stacks = self._auto_stacks() if self.auto_stack else []
        out += [AddPiece(s.stack_id, STACK_TYPE, s.state_string()).encode() for s in stacks]
        out += [AddPiece(deck_id, spec.type_string(), spec.state_string(map_id, x, y, cards)).encode()
                for deck_id, spec, map_id, x, y, cards in self._decks]
        out += self._extra
        if setup_stack_marker:
            out.append(SETUP_STACK)
        out.append(END_SAVE)
        return out

    def command_text(self, setup_stack_marker: bool = True) -> str:
        return join_commands(self.commands(setup_stack_marker))

    def to_bytes(self, module: ModuleData, savedata: SaveData | None = None,
                 key: int = DEFAULT_KEY) -> bytes:
        if savedata is None:
            savedata = SaveData(game_version=module.version, vassal_version=module.vassal_version,
                                date_saved=module.date_saved)
        return build_zip({
            SAVED_GAME_ENTRY: obfuscate(self.command_text(), key),
            SAVEDATA_ENTRY: savedata.to_xml(),
            MODULEDATA_ENTRY: module.to_xml(),
        })

    def write(self, path: str | os.PathLike, module: ModuleData,
              savedata: SaveData | None = None) -> None:
        write_atomic(path, self.to_bytes(module, savedata))


@dataclass(frozen=True)
class _SavedPiece:
    """A piece as the writer keeps it: its command, encoded when added (a piece the caller
    changes afterwards is saved as it was), and where it stands, for the automatic stacks."""

    piece_id: str
    command: str
    map_id: str | None
    x: int
    y: int
    stackable: bool


def _stackable(piece: Piece) -> bool:
    return not any(isinstance(t, Immobilized) and not t.stacks for t in piece.traits)


# --- reading ------------------------------------------------------------------------------------

@dataclass
class PieceOnMap:
    """A piece as it stands at the end of the file."""

    piece_id: str
    map_id: str | None
    x: int
    y: int
    piece: Piece
    stack_id: str | None = None
    #: The piece with its prototypes expanded, when the module's prototypes were given.
    expanded: Piece | None = None

    @property
    def name(self) -> str:
        return self.piece.name

    @property
    def properties(self) -> dict[str, str]:
        """Property values as the engine would see them (prototype traits included if known)."""
        return (self.expanded or self.piece).properties()


@dataclass
class SavedGame:
    pieces: list[PieceOnMap] = field(default_factory=list)
    #: Non-piece commands (global properties, turn tracker, notes, chat lines ...), in order.
    other_commands: list[str] = field(default_factory=list)
    #: True when the stream has log entries (a ``.vlog``), whose moves have been applied.
    is_log: bool = False
    has_setup_stack_marker: bool = False
    savedata: SaveData | None = None
    moduledata: ModuleData | None = None
    #: Board layout per map, from the board-picker commands (empty when the file has none).
    boards: dict[str, list[BoardPlacement]] = field(default_factory=dict)
    #: Things that looked wrong but did not stop reading (unknown piece ids, bad definitions).
    warnings: list[str] = field(default_factory=list)
    #: The decoded command stream itself, for readers that follow it step by step (a log check).
    command_text: str = field(default="", repr=False)
    #: Its commands as the reader split and parsed them, when it was asked to keep them
    #: (`WorkLimits.keep_commands`): readers that step through the stream use these instead of
    #: parsing it again (`parsed_commands`).
    kept_commands: ParsedStream | None = field(default=None, repr=False, compare=False)

    def by_id(self) -> dict[str, PieceOnMap]:
        return {p.piece_id: p for p in self.pieces}

    def parsed_commands(self) -> ParsedStream | None:
        """The commands the reader kept of `command_text` (None when it kept none, or the text has
        changed since)."""
        kept = self.kept_commands
        return kept if kept is not None and kept.text is self.command_text else None

    @property
    def module_name(self) -> str:
        if self.moduledata and self.moduledata.name:
            return self.moduledata.name
        if self.savedata and self.savedata.module_name:
            return self.savedata.module_name
        return ""


@dataclass
class _PieceRecord:
    type: str
    state: str
    map_id: str | None = None
    x: int = 0
    y: int = 0


@dataclass
class _StackRecord:
    map_id: str | None
    x: int
    y: int
    #: Members in stacking order (first = bottom); a dict so that one leaves in O(1).
    members: dict[str, None]

    @property
    def where(self) -> tuple[str | None, int, int]:
        return self.map_id, self.x, self.y


MAX_WARNINGS = 200


@dataclass(frozen=True)
class WorkLimits:
    """How much work reading one command stream may take: files from strangers must cost
    bounded time whatever they hold. The defaults bound nothing a real game reaches; callers
    that read uploads choose tighter ones (:mod:`adjudicator.bridge.upload`)."""

    max_commands: int = MAX_COMMANDS
    #: Pieces (not stacks) in the game at once.
    max_pieces: int = 1_000_000
    #: Move commands, saved and logged together.
    max_moves: int = 10_000_000
    #: Wall-clock seconds for reading the stream into pieces (None: no limit).
    seconds: float | None = None
    #: Called every few hundred commands: a server running requests as greenlets (gevent) passes
    #: its yield, so that a long read does not stop the other requests of its process.
    pause: Callable[[], None] | None = None
    #: Keep the parsed commands on the result (`SavedGame.kept_commands`) for a reader that steps
    #: through them next (a log's replay, its check), so they are parsed once; a stream that is
    #: itself one log entry (no engine writes one) is not kept, as `vassalfmt.logsteps` groups its
    #: steps otherwise. Off by default: a file kept for later views would keep many times its size.
    keep_commands: bool = False


DEFAULT_WORK_LIMITS = WorkLimits()


class _Budget:
    """Counts work against `WorkLimits`; every `CHECK_EVERY` steps looks at the clock."""

    CHECK_EVERY = 256

    def __init__(self, limits: WorkLimits):
        self.limits = limits
        self.deadline = None if limits.seconds is None else time.monotonic() + limits.seconds
        self.steps = 0

    def tick(self) -> None:
        self.steps += 1
        if self.steps % self.CHECK_EVERY == 0:
            self.check_time()

    def check_time(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise VassalTimeLimit(f"reading the file took longer than {self.limits.seconds:g} s; refused")
        if self.limits.pause is not None:
            self.limits.pause()


class _GameBuilder:
    """Applies piece commands in order, tracking stacks, like the engine's GameState.

    Every command costs time independent of the game's size: stacks are found by position
    through `_stacks_at` (a move used to scan every stack, so stacks x moves made a 214 KB log
    take longer than gunicorn's timeout)."""

    def __init__(self, limits: WorkLimits = DEFAULT_WORK_LIMITS, budget: _Budget | None = None,
                 splits: StateSplits | None = None) -> None:
        self.limits = limits
        self.budget = budget or _Budget(limits)
        self.splits = splits  # the states split, kept for the next readers (`WorkLimits.keep_commands`)
        self.pieces: dict[str, _PieceRecord] = {}
        self.stacks: dict[str, _StackRecord] = {}
        self.parent: dict[str, str] = {}
        self.order: list[str] = []
        self.warnings: list[str] = []
        self.moves = 0
        #: A stack's rank in `stacks` (insertion order: the first stack at a position wins).
        self._stack_rank: dict[str, int] = {}
        self._next_rank = 0
        #: Position -> heap of (rank, stack id); entries of stacks since moved away are dropped
        #: when met (`_first_stack_at`).
        self._stacks_at: dict[tuple[str | None, int, int], list[tuple[int, str]]] = {}

    def warn(self, text: str) -> None:
        if len(self.warnings) < MAX_WARNINGS:
            self.warnings.append(text)

    def apply(self, command) -> None:
        self.budget.tick()
        if isinstance(command, AddPiece):
            self._add(command)
        elif isinstance(command, RemovePiece):
            self._remove(command.piece_id)
        elif isinstance(command, ChangePiece):
            self._change(command)
        elif isinstance(command, MovePiece):
            self._move(command)

    def _add(self, c: AddPiece) -> None:
        if c.piece_id is None:
            self.warn("a piece was added without an id; ignored")
            return
        if c.type == STACK_TYPE:
            self._set_stack(c.piece_id, c.state)
            return
        if c.type.startswith(DECK_TYPE_PREFIX):
            return  # a card deck (DrawPile) is a container, not a unit; not modelled here
        record = _PieceRecord(c.type, c.state)
        self._position_from_state(record)
        if c.piece_id not in self.pieces:
            if len(self.pieces) >= self.limits.max_pieces:
                raise VassalLimitError(f"the file holds more than {self.limits.max_pieces} pieces; refused")
            self.order.append(c.piece_id)
        self.pieces[c.piece_id] = record

    def _position_from_state(self, record: _PieceRecord) -> None:
        if self.splits is not None:
            basic_state = self.splits.basic(record.state)
        else:
            basic_state = _split_nested(record.state, limit=10_000)[-1] if record.state else ""
        d = SequenceDecoder(basic_state or None, ";")
        map_id = d.next_token("null")
        record.map_id = None if map_id == "null" else map_id
        record.x = d.next_int(0)
        record.y = d.next_int(0)

    def _set_stack(self, stack_id: str, state: str) -> None:
        d = SequenceDecoder(state or None, ";")
        map_id = d.next_token("null")
        if map_id == "null":
            x = y = 0
        else:
            x, y = d.next_int(0), d.next_int(0)
        members: dict[str, None] = {}
        while d.has_more():
            token = d.next_token()
            if token.startswith("@@") or not token:
                continue
            if token not in self.pieces:
                self.warn(f"stack {stack_id!r} names an unknown piece {token!r}")
                continue
            members[token] = None
        old = self.stacks.get(stack_id)
        if old:
            for member in old.members:
                self.parent.pop(member, None)
        else:
            self._stack_rank[stack_id] = self._next_rank
            self._next_rank += 1
        for member in members:
            self._leave_stack(member)
            self.parent[member] = stack_id
        stack = _StackRecord(None if map_id == "null" else map_id, x, y, members)
        self.stacks[stack_id] = stack
        self._index_stack(stack_id, stack)

    def _index_stack(self, stack_id: str, stack: _StackRecord) -> None:
        heapq.heappush(self._stacks_at.setdefault(stack.where, []), (self._stack_rank[stack_id], stack_id))

    def _first_stack_at(self, where: tuple[str | None, int, int]) -> str | None:
        """The stack at `where` that came first in `stacks` (what a scan of them would find)."""
        heap = self._stacks_at.get(where)
        while heap:
            rank, stack_id = heap[0]
            stack = self.stacks.get(stack_id)
            if stack is not None and self._stack_rank.get(stack_id) == rank and stack.where == where:
                return stack_id
            heapq.heappop(heap)  # moved away or removed since
        return None

    def _leave_stack(self, piece_id: str) -> None:
        stack_id = self.parent.pop(piece_id, None)
        if stack_id and stack_id in self.stacks:
            self.stacks[stack_id].members.pop(piece_id, None)

    def _remove(self, piece_id: str) -> None:
        if piece_id in self.stacks:
            for member in self.stacks.pop(piece_id).members:
                self.parent.pop(member, None)
            del self._stack_rank[piece_id]
            return
        if piece_id not in self.pieces:
            self.warn(f"remove of an unknown piece {piece_id!r}")
            return
        self._leave_stack(piece_id)
        del self.pieces[piece_id]

    def _change(self, c: ChangePiece) -> None:
        if c.piece_id in self.stacks:
            self._set_stack(c.piece_id, c.new_state)
            return
        record = self.pieces.get(c.piece_id)
        if record is None:
            self.warn(f"state change of an unknown piece {c.piece_id!r}")
            return
        old_map = record.map_id
        record.state = c.new_state
        self._position_from_state(record)
        if record.map_id != old_map:
            self._leave_stack(c.piece_id)

    def _move(self, c: MovePiece) -> None:
        self.moves += 1
        if self.moves > self.limits.max_moves:
            raise VassalLimitError(f"the file holds more than {self.limits.max_moves} moves; refused")
        if c.piece_id in self.stacks:
            stack = self.stacks[c.piece_id]
            stack.map_id, stack.x, stack.y = c.new_map, c.new_x, c.new_y
            self._index_stack(c.piece_id, stack)
            return
        record = self.pieces.get(c.piece_id)
        if record is None:
            self.warn(f"move of an unknown piece {c.piece_id!r}")
            return
        self._leave_stack(c.piece_id)
        record.map_id, record.x, record.y = c.new_map, c.new_x, c.new_y
        if c.new_map is None:
            return
        target = None
        if c.new_under and c.new_under in self.parent:
            target = self.parent[c.new_under]
        if target is None:
            target = self._first_stack_at((c.new_map, c.new_x, c.new_y))
        if target is not None:
            stack = self.stacks[target]
            if stack.where == (c.new_map, c.new_x, c.new_y):
                stack.members[c.piece_id] = None
                self.parent[c.piece_id] = target

    def result(self, prototypes: Mapping[str, Piece] | None = None) -> list[PieceOnMap]:
        out = []
        for piece_id in self.order:
            record = self.pieces.get(piece_id)
            if record is None:
                continue
            self.budget.tick()
            try:
                piece = parse_piece(record.type, record.state)
            except VassalFormatError as exc:
                self.warn(f"piece {piece_id!r} has a definition we cannot read ({exc})")
                piece = Piece([RawTrait(type=record.type, state=record.state)])
            map_id, x, y = record.map_id, record.x, record.y
            stack_id = self.parent.get(piece_id)
            if stack_id in self.stacks:
                stack = self.stacks[stack_id]
                map_id, x, y = stack.map_id, stack.x, stack.y
            basic = piece.basic
            if isinstance(basic, BasicPiece):
                basic.map_id, basic.x, basic.y = map_id, x, y
            expanded = None
            if prototypes is not None and piece.prototypes():
                try:
                    expanded = expand_prototypes(piece, prototypes)
                except VassalFormatError as exc:
                    self.warn(f"piece {piece_id!r}: prototypes not expanded ({exc})")
            out.append(PieceOnMap(piece_id, map_id, x, y, piece, stack_id, expanded))
        return out


def read_command_text(text: str, prototypes: Mapping[str, Piece] | None = None,
                      work: WorkLimits = DEFAULT_WORK_LIMITS) -> SavedGame:
    """Read a decoded command stream (the text inside ``savedGame``).

    ``prototypes`` (the module's, name -> Piece) lets properties defined in prototypes be seen
    on pieces whose definition still uses them (hand-written setups do; the engine's don't).
    ``work`` bounds commands, pieces, moves and time (:class:`~vassalfmt.errors.VassalLimitError`),
    and says whether the parsed commands are kept (`WorkLimits.keep_commands`).
    """
    game = SavedGame()
    budget = _Budget(work)
    entries: list[int] | None = [] if work.keep_commands and not text.startswith(LOG_PREFIX) else None
    splits = StateSplits() if entries is not None else None
    builder = _GameBuilder(work, budget, splits)
    leaves = split_commands(text, max_commands=work.max_commands, tick=budget.tick, entries=entries)
    commands: list = []
    for leaf in leaves:
        if leaf.logged:
            game.is_log = True
        command = parse_command(leaf.text)
        if entries is not None:
            commands.append(command)
        if isinstance(command, OtherCommand):
            if command.text == SETUP_STACK:
                game.has_setup_stack_marker = True
            elif command.text not in (BEGIN_SAVE, END_SAVE):
                game.other_commands.append(command.text)
                layout = parse_board_command(command.text)
                if layout is not None:
                    game.boards[layout[0]] = layout[1]
            continue
        builder.apply(command)
    game.pieces = builder.result(prototypes)
    game.warnings = builder.warnings
    if entries is not None:
        game.kept_commands = ParsedStream(text, leaves, commands, entries, splits)
    return game


def read_saved_game(source: bytes | str | os.PathLike, limits: ZipLimits = DEFAULT_LIMITS,
                    prototypes: Mapping[str, Piece] | None = None,
                    work: WorkLimits = DEFAULT_WORK_LIMITS) -> SavedGame:
    """Read a ``.vsav`` or ``.vlog`` (bytes or a path) into pieces and positions.

    The result is the position at the end of the file: for a log, every logged step applied.
    ``limits`` bound the zip, ``work`` the command stream (see :class:`WorkLimits`).
    """
    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    with SafeZip(source, limits, what="saved game") as archive:
        if not archive.has(SAVED_GAME_ENTRY):
            if archive.has("buildFile.xml") or archive.has("buildFile"):
                raise VassalFormatError("this is a VASSAL module, not a saved game or log")
            raise VassalFormatError("the zip has no 'savedGame' entry, so it is not a VASSAL "
                                    "saved game or log")
        entry = archive.read(SAVED_GAME_ENTRY)
        if work.pause is not None:
            work.pause()
        text = deobfuscate(entry, limits.max_entry_bytes)
        if work.pause is not None:
            work.pause()
        game = read_command_text(text, prototypes, work)
        game.command_text = text
        if archive.has(SAVEDATA_ENTRY):
            try:
                game.savedata = SaveData.parse(archive.read(SAVEDATA_ENTRY))
            except VassalFormatError as exc:
                game.warnings.append(f"savedata ignored: {exc}")
        if archive.has(MODULEDATA_ENTRY):
            try:
                game.moduledata = ModuleData.parse(archive.read(MODULEDATA_ENTRY))
            except VassalFormatError as exc:
                game.warnings.append(f"moduledata ignored: {exc}")
    return game


def write_saved_game(path: str | os.PathLike, pieces: Iterable[tuple[str, Piece]],
                     module: ModuleData, extra_commands: Iterable[str] = (),
                     prototypes: Mapping[str, Piece] | None = None) -> None:
    """One-call writer: ``[(piece_id, piece), ...]`` to a ``.vsav`` at ``path``."""
    writer = SavedGameWriter(prototypes=prototypes)
    for piece_id, piece in pieces:
        writer.add_piece(piece_id, piece)
    for command in extra_commands:
        writer.add_command(command)
    writer.write(path, module)


def continue_log(source: bytes, commands: Iterable[str], limits: ZipLimits = DEFAULT_LIMITS) -> bytes:
    """A saved game or log continued by `commands`, one ``LOG`` step each (the engine's Step
    button replays them in order), so the result opens as a log. The other zip entries
    (savedata, moduledata) are kept as they were."""
    with SafeZip(source, limits, what="saved game") as archive:
        if not archive.has(SAVED_GAME_ENTRY):
            raise VassalFormatError("the zip has no 'savedGame' entry, so it is not a VASSAL "
                                    "saved game or log")
        entries = {name: archive.read(name) for name in archive.names()}
    text = deobfuscate(entries[SAVED_GAME_ENTRY], limits.max_entry_bytes)
    fields = [f for f in decode(text, ESC) if f] + [log_entry(command) for command in commands]
    entries[SAVED_GAME_ENTRY] = obfuscate(encode(fields, ESC))
    return build_zip(entries)
