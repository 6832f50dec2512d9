"""One or several logs of a game as a list of steps: what changed on the board at each, in words.

Each file begins with the position its log started from (step "begin"): the first file's is the
board the replay opens on; a later file's differences from where the one before it ended are that
file's first changes. Then one step per action the log recorded (`vassalfmt.logsteps`), except
that a ruling posted one line per log entry (the web pages' write-back) is one step, as it is one
action. For every step: the pieces whose place or look changed for this viewer, as (piece,
before, after) — before and after are what the browser draws, so stepping back is undoing the
same list — the moves with their path, the chat lines, and the changes in words.

Piece numbers are the replay's own (1, 2, ... in order of appearance), never VASSAL's ids: a
generated setup names each piece by its unit, and an id would tell a hidden block's identity.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from html import unescape
from typing import Callable

from adjudicator.bridge.locate import detect_scale
from adjudicator.bridge.positions import shown_boards
from adjudicator.bridge.turn import read_turn
from adjudicator.fog import Fog
from adjudicator.logs.board import EventReading, Events, Shown, shown_at
from adjudicator.logs.replay.board import Board
from adjudicator.logs.replay.views import Identifier, Identity, PieceView, Placer, Viewer, hidden_from, view_of
from adjudicator.logs.transcript import TranscriptEntry, parse_transcript
from scenarios.model import Game
from vassalfmt import SavedGame
from vassalfmt.commands import CHAT_PREFIX, MAX_COMMANDS, Command, OtherCommand, ParsedStream, parse_board_command
from vassalfmt.logsteps import NULL_COMMAND, LogSteps, saved_log_steps

#: A piece as drawn: (view number, map id, hex label, place off the maps); None = not on the board.
State = tuple[int, str, str, str] | None
TURN_PREFIX = "TURN"
PLAYER_PREFIX = "PLAYER\t"
#: How many earlier hexes of a piece's moves in a file a move's path shows.
TRAIL = 12

BEGIN, RULING, DRAW, MOVE, REMOVE, ADD, STEP, TURN, CHAT, PLAYER, OTHER = (
    "begin", "ruling", "draw", "move", "remove", "add", "step", "turn", "chat", "player", "other")
#: A step's kind is its most telling content, in this order.
KIND_ORDER = (RULING, DRAW, MOVE, REMOVE, ADD, STEP, TURN, CHAT, PLAYER, OTHER)


@dataclass
class Move:
    piece: int
    map: str
    path: list[str]  # hexes, the earlier ones of this file first, then from and to


@dataclass
class UnitEvent:
    """A unit's piece stands otherwise (another step, hex or box, or deleted): what a ruling orders."""

    unit: str
    shown: Shown
    piece: int


@dataclass
class LogStep:
    """One step of a log as the replay shows it (a command the player steps over, with what it did):
    not a counter's step (`scenarios.model.Step`) nor an explanation's (`adjudicator.checks.Step`)."""

    file: int
    kind: str = OTHER
    texts: list[str] = field(default_factory=list)
    chat: list[str] = field(default_factory=list)
    changes: list[tuple[int, State, State]] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    unit_events: list[UnitEvent] = field(default_factory=list)
    rulings: list[int] = field(default_factory=list)  # indexes into the replay's rulings
    turn: str = ""  # the turn the tracker shows from this step on, when it changed here
    marks: list[str] = field(default_factory=list)  # notes on its piece changes (ordered by a ruling...)
    kinds: set[str] = field(default_factory=set, repr=False)  # what it holds, for `kind`
    other_commands: int = 0  # commands of the module that change no piece (global properties, notes)

    def to_json(self) -> dict:
        out: dict = {"k": self.kind, "f": self.file}
        if self.texts:
            out["x"] = self.texts
        if self.chat:
            out["c"] = self.chat
        if self.changes:
            out["d"] = [[piece, list(before) if before else None, list(after) if after else None]
                        for piece, before, after in self.changes]
        if self.moves:
            out["m"] = [[m.piece, m.map, m.path] for m in self.moves]
        if self.rulings:
            out["r"] = self.rulings
        if self.turn:
            out["t"] = self.turn
        if self.marks:
            out["n"] = self.marks
        return out


@dataclass
class FileSteps:
    """One file read into steps, with the rulings its chat holds and the step each stands at."""

    name: str
    first_step: int  # index of its "begin" step in the timeline
    entries: list[TranscriptEntry]
    entry_steps: list[int]  # timeline index of each entry's step
    start_units: dict[str, Shown] = field(default_factory=dict)  # unit -> how it stands as the file begins
    #: What the log check reads of the file (`adjudicator.logs.board.log_events`), read in the same
    #: walk of its commands as the steps; None where that walk could not tell it (it reads the file itself).
    events: Events | None = field(default=None, repr=False, compare=False)


@dataclass
class Timeline:
    views: list[PieceView] = field(default_factory=list)
    initial: dict[int, State] = field(default_factory=dict)
    steps: list[LogStep] = field(default_factory=list)
    files: list[FileSteps] = field(default_factory=list)
    maps_used: set[str] = field(default_factory=set)
    start_turn: str = ""
    command_count: int = 0
    counts: Counter = field(default_factory=Counter)  # piece changes by kind (move, draw, step...)


class TimelineBuilder:
    """Reads files in order into one `Timeline` for one viewer."""

    def __init__(self, game: Game, viewer: Viewer, fog: Fog | None, scenario_id: str | None,
                 redact: Callable[[str], str], watch: Callable[[int], None] | None = None):
        self.game = game
        self.watch = watch  # told the number of steps as each is added (a time budget looks at it)
        self.viewer = viewer
        self.fog = fog
        self.scenario_id = scenario_id if scenario_id in game.scenarios else None
        self.redact = redact
        self.identify = Identifier(game)
        self.placer: Placer | None = None
        self.timeline = Timeline()
        self._view_index: dict[PieceView, int] = {}
        self._views_made: dict[tuple, tuple] = {}
        self._numbers: dict[str, int] = {}  # VASSAL piece id -> replay piece number
        self._state: dict[int, State] = {}
        self._identity: dict[int, Identity] = {}
        self._seen: set[int] = set()  # pieces that stood on the board at some time
        self._unit_steps: dict[str, Shown] = {}
        self._turn_commands: list[str] = []
        self._trails: dict[tuple[int, int], list[str]] = {}  # (file, piece) -> hexes it moved through
        self._reading: EventReading | None = None  # the log check's reading of the file being added

    # -- files ------------------------------------------------------------------------------------------

    def add_file(self, name: str, saved: SavedGame, max_commands: int = MAX_COMMANDS) -> FileSteps:
        """The file's steps, added to the timeline (VassalLimitError past `max_commands` commands)."""
        game = self.game
        if self.placer is None:
            boards = shown_boards(saved)  # a map window showing one board is read as that board
            points = [(boards.get(p.map_id, p.map_id), p.x, p.y) for p in saved.pieces if p.map_id is not None]
            self.placer = Placer(game, detect_scale(game, points)[0], boards)
        parsed = saved_log_steps(saved, max_commands=max_commands)  # the reader's parse, when it kept it
        kept = saved.parsed_commands()
        self.timeline.command_count += parsed.command_count
        number = len(self.timeline.files)
        board = Board(kept.splits if kept is not None else None)
        self._reading = EventReading(game, saved, self.identify) if _log_begins_with_steps(kept, parsed) else None
        for command in parsed.start:
            touched = board.apply(command)
            if self._reading is not None:
                self._reading.applied(board, command, touched)
        begin = LogStep(number, BEGIN)
        first = not self.timeline.files
        now = {self._number(pid): self._state_of(board, pid) for pid in board.pieces}
        if first:
            self.timeline.initial = {n: s for n, s in now.items() if s is not None}
            self._state = dict(self.timeline.initial)
            self._seen |= set(self._state)
            begin.texts.append(f"The board as {name or 'the log'} begins")
        else:
            begin.changes = [(n, self._state.get(n), now.get(n)) for n in sorted(set(now) | set(self._state))
                             if self._state.get(n) != now.get(n)]
            begin.texts.append(f"{name or f'File {number + 1}'} begins" + (
                f": {len(begin.changes)} piece{'s' if len(begin.changes) != 1 else ''} stand otherwise than the "
                "file before left them" if begin.changes else ", where the file before ended"))
            for n, _, after in begin.changes:
                self._state[n] = after
        self._turn_commands = [c.text for c in parsed.start if isinstance(c, OtherCommand)
                               and c.text.startswith(TURN_PREFIX)] or self._turn_commands
        if first:
            self.timeline.start_turn = self._turn_now()
        self._refresh_unit_steps(board)
        start_units = dict(self._unit_steps)
        start_chat = [c.text[len(CHAT_PREFIX):] for c in parsed.start if _is_chat(c)]
        begin.chat = [unescape(self.redact(t)) for t in start_chat]
        begin_index = len(self.timeline.steps)
        self.timeline.steps.append(begin)

        chat_step: list[int] = [begin_index] * len(start_chat)  # chat index -> timeline step
        if self._reading is not None and parsed.steps:
            self._reading.log_begins()
        for group in self._groups(parsed.steps, start_chat):
            step = LogStep(number)
            self.timeline.steps.append(step)
            if self.watch is not None:
                self.watch(len(self.timeline.steps))
            for commands in group:
                self._apply(board, commands, step)
            if step.other_commands:
                many = step.other_commands != 1
                step.texts.append(f"{step.other_commands} other command{'s' if many else ''} of the module "
                                  "(global properties, notes, windows)")
            step.kind = next((k for k in KIND_ORDER if k in step.kinds), OTHER)
            chat_step += [len(self.timeline.steps) - 1] * sum(1 for cs in group for c in cs if _is_chat(c))
        texts = start_chat + [c.text[len(CHAT_PREFIX):] for cs in parsed.steps for c in cs if _is_chat(c)]
        entries = parse_transcript(texts)
        files = FileSteps(name, begin_index, entries, [chat_step[e.last] for e in entries], start_units,
                          self._reading.result() if self._reading is not None else None)
        self.timeline.files.append(files)
        return files

    @staticmethod
    def _groups(steps: list[list[Command]], start_chat: list[str]) -> list[list[list[Command]]]:
        """The log's steps, with the steps of one ruling's lines (one line per log entry) as one."""
        owner = [-1] * len(start_chat)  # chat index -> the raw step holding it (-1: the start)
        texts = list(start_chat)
        for index, commands in enumerate(steps):
            chats = [c.text[len(CHAT_PREFIX):] for c in commands if _is_chat(c)]
            owner += [index] * len(chats)
            texts += chats
        joined: set[int] = set()  # raw steps that continue the step before them
        for entry in parse_transcript(texts):
            first, last = owner[entry.first], owner[entry.last]
            if first >= 0:
                joined |= {raw for raw in range(first + 1, last + 1) if _only_chat(steps[raw])}
        groups: list[list[list[Command]]] = []
        for index, commands in enumerate(steps):
            if index in joined and groups:
                groups[-1].append(commands)
            else:
                groups.append([commands])
        return groups

    # -- one step -----------------------------------------------------------------------------------------

    def _apply(self, board: Board, commands: list[Command], step: LogStep) -> None:
        touched: dict[str, None] = {}  # in order, once each
        reading = self._reading
        for command in commands:
            if isinstance(command, OtherCommand):
                self._other(command.text, step)
                if reading is not None:
                    reading.applied(board, command, set())
                continue
            applied = board.apply(command)
            if reading is not None:
                reading.applied(board, command, applied)
            for pid in applied:
                touched.setdefault(pid)
        for pid in touched:
            number = self._number(pid)
            before, after = self._state.get(number), self._state_of(board, pid)
            if before == after:
                continue
            step.changes.append((number, before, after))
            self._describe(number, before, after, step)
            if after is None:
                self._state.pop(number, None)
            else:
                self._state[number] = after
                self._seen.add(number)
        self._unit_events(board, list(touched), step)

    def _other(self, text: str, step: LogStep) -> None:
        if text.startswith(CHAT_PREFIX):
            step.chat.append(unescape(self.redact(text[len(CHAT_PREFIX):])))
            step.kinds.add(CHAT)
        elif text.startswith(TURN_PREFIX):
            self._turn_commands = [c for c in self._turn_commands if c.split("\t", 1)[0] != text.split("\t", 1)[0]]
            self._turn_commands.append(text)
            step.turn = self._turn_now() or "the turn tracker moved"
            step.texts.append(f"Turn: {step.turn}")
            step.kinds.add(TURN)
        elif text.startswith(PLAYER_PREFIX):
            fields = text.split("\t")
            if len(fields) >= 4:
                step.texts.append(f"{fields[2] or 'A player'} plays {fields[3] or 'no side'}")
                step.kinds.add(PLAYER)
        elif parse_board_command(text) is None and text not in ("begin_save", "end_save", "SETUP_STACK\t"):
            step.other_commands += 1

    def _turn_now(self) -> str:
        if self.scenario_id is None:
            return ""
        reading = read_turn(self.game, self.scenario_id, self._turn_commands)
        if reading.turn is None:
            return ""
        turn = next((t for t in self.game.scenarios[self.scenario_id].turns if t.number == reading.turn), None)
        return f"Turn {reading.turn}" + (f" ({turn.date})" if turn and turn.date else "")

    # -- pieces ---------------------------------------------------------------------------------------------

    def _number(self, pid: str) -> int:
        number = self._numbers.get(pid)
        if number is None:
            number = self._numbers[pid] = len(self._numbers) + 1
        return number

    def _state_of(self, board: Board, pid: str) -> State:
        record, where = board.pieces.get(pid), board.where(pid)
        if record is None or where is None:
            return None
        identity = self.identify.of(record.type, record.state, board.splits)
        number = self._number(pid)
        self._identity[number] = identity
        hidden = hidden_from(identity, where, self.viewer, self.fog, board.players)
        view = self._view_of(identity, where, hidden)
        place = self.placer.of(where)
        if place.map:
            self.timeline.maps_used.add(place.map)
        return (self._view(view), place.map, place.hex, place.off)

    def _view_of(self, identity, where, hidden: bool) -> PieceView:
        """`view_of`, once per identity and what of its place it shows (a face-down pile's name):
        a piece keeps its look as it moves (its picture's name is costly to make)."""
        key = (id(identity), hidden, where.face_down, where.pile if where.face_down else "")
        found = self._views_made.get(key)
        if found is None or found[0] is not identity:
            found = self._views_made[key] = (identity, view_of(self.game, identity, where, hidden))
        return found[1]

    def _view(self, view: PieceView) -> int:
        index = self._view_index.get(view)
        if index is None:
            index = self._view_index[view] = len(self.timeline.views)
            self.timeline.views.append(view)
        return index

    def _refresh_unit_steps(self, board: Board) -> None:
        self._unit_steps = {}
        for pid in board.pieces:
            identity = self._identity.get(self._number(pid))
            if identity is not None and identity.unit is not None and (where := board.where(pid)) is not None:
                self._unit_steps[identity.unit.id] = shown_at(identity.step or "", self.placer.of(where))

    def _unit_events(self, board: Board, touched: list[str], step: LogStep) -> None:
        for pid in touched:
            number = self._number(pid)
            identity = self._identity.get(number)
            if identity is None or identity.unit is None:
                continue
            unit = identity.unit.id
            where = board.where(pid) if pid in board.pieces else None
            was = self._unit_steps.get(unit)
            if where is not None:
                now = shown_at(identity.step or "", self.placer.of(where))
            elif was is not None:
                now = replace(was, deleted=True)
            else:
                continue
            if was != now:
                step.unit_events.append(UnitEvent(unit, now, number))
                self._unit_steps[unit] = now

    def _describe(self, number: int, before: State, after: State, step: LogStep) -> None:
        views = self.timeline.views
        shown = views[after[0]] if after else views[before[0]]
        name = shown.title if not shown.hidden else shown.label
        if before is None:
            verb = "returned" if number in self._seen else "placed"
            step.texts.append(f"{name} {verb} {_at(after)}")
            step.kinds.add(ADD)
            self.timeline.counts[ADD] += 1
            return
        if after is None:
            step.texts.append(f"{views[before[0]].called} removed from {_words(before)}")
            step.kinds.add(REMOVE)
            self.timeline.counts[REMOVE] += 1
            return
        if before[1:] != after[1:]:
            if before[3].startswith("pile: ") and not after[3].startswith("pile: "):
                step.texts.append(f"{name} drawn from {before[3][len('pile: '):]} {_at(after)}")
                step.kinds.add(DRAW)
                self.timeline.counts[DRAW] += 1
            elif after[3].startswith("pile: "):
                step.texts.append(f"{views[before[0]].called} returned to {after[3][len('pile: '):]}")
                step.kinds.add(MOVE)
            else:
                step.texts.append(f"{name} moved {_words(before)} → {_words(after)}")
                step.kinds.add(MOVE)
                self.timeline.counts[MOVE] += 1
            if before[1] and before[1] == after[1]:
                self._add_move(step, number, after[1], before[2], after[2])
        if before[0] != after[0] and not before[3].startswith("pile: "):  # a draw's words name what it shows
            self._describe_look(views[before[0]], views[after[0]], step)

    def _describe_look(self, was: PieceView, now: PieceView, step: LogStep) -> None:
        if was.hidden and not now.hidden:
            step.texts.append(f"{was.called} revealed: {now.title}")
        elif now.hidden and not was.hidden:
            step.texts.append(f"{was.called} hidden ({now.called})")
        elif now.kind == "unit" and was.kind == "unit" and was.step != now.step:
            word = _step_word(self.game, now.label, was.step, now.step)
            step.texts.append(f"{now.called}: {word} ({was.step or 'full'} → {now.step or 'full'})")
            step.kinds.add(STEP)
            self.timeline.counts[STEP] += 1
        elif now.hidden:
            step.texts.append(f"{now.called} changed (you may not see how)")
        elif was.title != now.title:
            step.texts.append(f"{now.title} (was {was.title})")

    def _add_move(self, step: LogStep, number: int, map_id: str, origin: str, target: str) -> None:
        trail = self._trails.setdefault((step.file, number), [])
        if not trail or trail[-1] != origin:
            trail.append(origin)
        path = trail[-(TRAIL + 1):] + [target]
        trail.append(target)
        step.moves.append(Move(number, map_id, path))


def _log_begins_with_steps(kept: ParsedStream | None, parsed: LogSteps) -> bool:
    """Whether the log check's reading of a file (`log_events`: the log begins at its first logged
    command, a null one included) begins where its steps do, so one walk of its commands reads both.
    A null logged command followed by plain ones (no engine writes that) is read by the check itself."""
    if kept is None:
        return False
    before = 0  # commands before the first logged one, null commands left out
    for leaf, command in zip(kept.leaves, kept.commands):
        if leaf.logged:
            break
        if not (isinstance(command, OtherCommand) and command.text == NULL_COMMAND):
            before += 1
    return before == len(parsed.start)


def _is_chat(command: Command) -> bool:
    return isinstance(command, OtherCommand) and command.text.startswith(CHAT_PREFIX)


def _only_chat(commands: list[Command]) -> bool:
    return all(_is_chat(c) for c in commands)


def _words(state: State) -> str:
    return state[2] if state and state[2] else (state[3] if state else "")


def _at(state: State) -> str:
    return f"at {state[2]}" if state and state[2] else f"in {state[3]}" if state else ""


def _step_word(game: Game, unit_id: str, was: str, now: str) -> str:
    unit = game.units.get(unit_id)
    names = [s.name for s in unit.steps] if unit else []
    if was in names and now in names:
        return "step loss" if names.index(now) > names.index(was) else "step restored"
    return "step changed"

