"""The saved-game commands of a module's own components: turn tracker, global property, notes.

A saved game restores every component from one command each (``getRestoreCommand``); a
predefined setup written by us carries the ones whose start differs per scenario, so that the
scenario's turns, its view and its notes are what the game opens with.

* ``TURN<id>\\t<state>`` (``VASSAL/build/module/turn/TurnTracker.java``): the state is
  ``|``-separated, the top level shown, then each top level's state; a list level's state
  (``ListTurnLevel.getState``) is ``;``-separated: the entry shown, the sub-level shown, the first
  entry, the active flags (a ``,``-list of ``true``/``false``), then each sub-level's state.
* ``GlobalProperty\\t;<name>;<value>;<container>`` (``properties/GlobalProperty.java``), the
  container ``Module`` for a module-level property.
* ``NOTES\\t<text>`` (``NotesWindow.java``), the scenario's notes, lines ``|``-separated as the
  engine's ``TextConfigurer.escapeNewlines`` writes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .sequence import encode

TURN_PREFIX = "TURN"
GLOBAL_PROPERTY_PREFIX = "GlobalProperty\t"
SCENARIO_NOTES_PREFIX = "NOTES\t"


@dataclass(frozen=True)
class ListLevelState:
    """One list level of a turn tracker: the entry shown, which entries are in play, its
    sub-levels (each a ListLevelState too)."""

    entries: int
    current: int = 0
    active: bool = True  # every entry in play (False: none, so the tracker skips the level)
    sub_levels: tuple[ListLevelState, ...] = field(default_factory=tuple)

    def encode(self) -> str:
        flags = encode(["true" if self.active else "false"] * self.entries, ",")
        return encode([str(self.current), "0", "0", flags, *(s.encode() for s in self.sub_levels)], ";")


def turn_tracker_command(tracker_id: str, shown: int, levels: list[ListLevelState]) -> str:
    """The tracker with id ``tracker_id`` (``TurnTracker0`` for a module's first) showing its
    top level ``shown``."""
    return TURN_PREFIX + tracker_id + "\t" + encode([str(shown), *(level.encode() for level in levels)], "|")


def global_property_command(name: str, value: str, container: str = "Module") -> str:
    return GLOBAL_PROPERTY_PREFIX + encode(["", name, value, container], ";")


def scenario_notes_command(text: str) -> str:
    """The notes window's scenario notes (blank lines kept as the engine keeps them)."""
    lines = text.replace("\r", "").split("\n")
    return SCENARIO_NOTES_PREFIX + encode(lines, "|")
