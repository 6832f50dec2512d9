"""A log file as the player steps through it: the position it starts from, then one step per action.

VASSAL's log (``VASSAL/build/module/BasicLogger.java``) records each thing a player does as one
``LOG`` entry of the command stream: a drag of a unit is one entry holding the move, the "moved"
marks, the new stack and the chat report together; a typed chat line is one entry; a ruling the
Adjudicator extension posts is one entry of all its lines. So a step here is one top-level field of
the stream that is a log entry, with every command inside it (:func:`split_commands` flattens the
nesting), and everything before the first entry is the position the log began from.

Files written one command per entry (``continue_log``) give one step per command; a reader that
wants to show a ruling of several lines as one step groups them itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .commands import (
    LOG_PREFIX,
    MAX_COMMANDS,
    Command,
    OtherCommand,
    ParsedStream,
    parse_command,
    split_commands,
)
from .errors import VassalFormatError, VassalLimitError
from .sequence import ESC, decode

if TYPE_CHECKING:
    from .savedgame import SavedGame

#: What the engine writes for a command that does nothing (``NullCommand`` in a log entry).
NULL_COMMAND = "null"


@dataclass
class LogSteps:
    """The commands of the position a log begins from, then its steps (each a list of commands)."""

    start: list[Command] = field(default_factory=list)
    steps: list[list[Command]] = field(default_factory=list)

    @property
    def command_count(self) -> int:
        return len(self.start) + sum(len(step) for step in self.steps)


def _parsed(texts: list[str]) -> list[Command]:
    out: list[Command] = []
    for text in texts:
        if text == NULL_COMMAND:
            continue
        try:
            out.append(parse_command(text))
        except VassalFormatError:
            out.append(OtherCommand(text))  # kept as text: shown, never applied to a piece
    return out


def log_steps(text: str, max_commands: int = MAX_COMMANDS) -> LogSteps:
    """The decoded command stream of a ``.vsav``/``.vlog`` (``SavedGame.command_text``) as steps.

    A saved game (no log entries) is all start and no step. Log entries nested inside a field
    that is not itself one (no engine writes that) become a step each.
    """
    result = LogSteps()
    fields = decode(text, ESC) if text else []
    total = 0
    for top in fields:
        leaves = split_commands(top, max_commands=max_commands - total)
        total += len(leaves)
        if top.startswith(LOG_PREFIX):
            commands = _parsed([leaf.text for leaf in leaves])
            if commands:
                result.steps.append(commands)
            continue
        for leaf in leaves:
            commands = _parsed([leaf.text])
            if not commands:
                continue
            if leaf.logged:
                result.steps.append(commands)
            elif result.steps:  # a plain command after the log began: a step of its own
                result.steps.append(commands)
            else:
                result.start += commands
    return result


def saved_log_steps(saved: SavedGame, max_commands: int = MAX_COMMANDS) -> LogSteps:
    """`log_steps` of a file read: from the commands its reader kept (`SavedGame.parsed_commands`),
    else from its text."""
    kept = saved.parsed_commands()
    return stream_steps(kept, max_commands) if kept is not None else log_steps(saved.command_text, max_commands)


def stream_steps(stream: ParsedStream, max_commands: int = MAX_COMMANDS) -> LogSteps:
    """`log_steps` of a stream split and parsed already: the same start and steps, grouped by the
    log entry each leaf came from instead of splitting the text again."""
    if len(stream.leaves) > max_commands:
        raise VassalLimitError(f"the file holds more than {max_commands} commands; refused")
    result = LogSteps()
    step_entry = -1  # the log entry the last step was made of
    for leaf, command, entry in zip(stream.leaves, stream.commands, stream.entries):
        if isinstance(command, OtherCommand) and command.text == NULL_COMMAND:
            continue
        if entry >= 0:  # a log entry: every command inside it is one step
            if entry == step_entry:
                result.steps[-1].append(command)
            else:
                result.steps.append([command])
                step_entry = entry
        elif leaf.logged or result.steps:  # a plain command after the log began: a step of its own
            result.steps.append([command])
            step_entry = -1
        else:
            result.start.append(command)
    return result
