"""A replay put together: the files' steps, every ruling's verdict in place, the summary, the maps.

`build_replay` is what the replay page, its after-action report and the benchmark call. It needs
the system's scenario model, the files in order, whose eyes it is for (`Viewer`) and, for a
recorded game, its ledger document and the keys that verify it. The result is one `Replay`, whose
`to_json` is everything the browser gets: no piece id, no hidden identity (`adjudicator.replay.views`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from adjudicator.fog import Fog, fog_of, redact
from adjudicator.logcheck import LogCheck, check_logs
from adjudicator.replay.timeline import DRAW, MOVE, REMOVE, STEP, ADD, Step, Timeline, TimelineBuilder
from adjudicator.replay.verdicts import BAD, HIDDEN, REROLL, RulingView, place_rulings
from adjudicator.replay.views import Viewer
from scenarios.model import Game
from vassalfmt import SavedGame

#: The verdicts in the order the summary lists them, with the words it uses.
VERDICT_WORDS = {
    "verified": "verified", "altered": "altered", "forged": "forged", "not-applied": "not applied",
    HIDDEN: "hidden", REROLL: "re-rolled", "other-game": "of another game", "unverified": "not verified here",
    "unrecorded": "computed (nothing recorded)",
}


@dataclass
class LedgerContext:
    """A recorded game's ledger as the log check reads it."""

    document: dict[str, Any]
    keys: dict

    @property
    def game_id(self) -> str:
        return self.document["game"]["id"]


@dataclass
class Replay:
    system: str
    system_name: str
    viewer: Viewer
    file_names: list[str]
    timeline: Timeline
    rulings: list[RulingView]
    check: LogCheck | None = None
    game_id: str | None = None
    maps: list[str] = field(default_factory=list)  # GameMap ids to draw, in order
    centres: dict[str, dict[str, tuple[int, int]]] = field(default_factory=dict)
    counter_size: dict[str, int] = field(default_factory=dict)

    @property
    def steps(self) -> list[Step]:
        return self.timeline.steps

    @property
    def verdicts(self) -> Counter:
        return Counter(r.status for r in self.rulings)

    @property
    def bad(self) -> list[RulingView]:
        return [r for r in self.rulings if r.status in BAD]

    @property
    def turns(self) -> list[tuple[str, int]]:
        """(turn, step index from which the tracker shows it), the start's first."""
        out = [(self.timeline.start_turn, 0)] if self.timeline.start_turn else []
        out += [(step.turn, index) for index, step in enumerate(self.steps) if step.turn]
        return out

    def summary(self) -> dict[str, Any]:
        counts = self.timeline.counts
        shown = [r for r in self.rulings if r.status not in (HIDDEN, REROLL)]
        out = {
            "files": len(self.file_names), "steps": len(self.steps) - 1, "commands": self.timeline.command_count,
            "moves": counts[MOVE], "draws": counts[DRAW], "step_changes": counts[STEP],
            "removed": counts[REMOVE], "placed": counts[ADD], "rulings": len(shown),
            "verdicts": {status: n for status, n in self.verdicts.items()},
            "ok": not self.bad and (self.check is None or self.check.ok),
        }
        if self.check is not None:
            out["ledger_ok"] = self.check.ledger_ok
            out["ledger_problems"] = self.check.ledger_problems
            out["missing_files"] = self.check.missing_files
            out["breaks"] = self.check.breaks
            out["elsewhere"] = len(self.check.elsewhere)
        return out

    def verdict_words(self) -> str:
        """The rulings' verdicts in one sentence."""
        counts = self.verdicts
        if not counts:
            return "The log holds no ruling."
        parts = [f"{counts[status]} {VERDICT_WORDS[status]}" for status in VERDICT_WORDS if counts.get(status)]
        return "Rulings: " + ", ".join(parts) + "."

    def label_of(self, piece: int, step: Step) -> str | None:
        """How the viewer knows a piece a step changed (its look after the step, or before if it
        left); None when the viewer sees no change of it (a hidden block's step)."""
        for number, before, after in step.changes:
            if number == piece:
                state = after or before
                return self.timeline.views[state[0]].label
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "system": self.system, "game": self.game_id, "viewer": self.viewer.label,
            "files": self.file_names, "views": [v.to_json() for v in self.timeline.views],
            "initial": [[n, list(s)] for n, s in sorted(self.timeline.initial.items())],
            "steps": [s.to_json() for s in self.steps],
            "rulings": [r.to_json() for r in self.rulings],
            "turns": [[label, index] for label, index in self.turns],
            "maps": {m: {"centres": {h: list(c) for h, c in self.centres.get(m, {}).items()},
                         "size": self.counter_size.get(m, 20)} for m in self.maps},
            "summary": self.summary(),
        }


def hidden_units(game: Game, fog: Fog | None, viewer: Viewer) -> dict[str, str]:
    """unit id -> side, of the units the fog of war hides from the viewer (by the rules alone)."""
    if fog is None or viewer.sees_all:
        return {}
    out = {}
    for unit_id in game.units:
        owner = fog.unit_owner(unit_id)
        if owner is not None and not (fog.owner_sees and owner == viewer.side):
            out[unit_id] = owner
    return out


def text_redactor(system: str, game: Game, fog: Fog | None, viewer: Viewer) -> Callable[[str], str]:
    """text -> the text with every unit the viewer may not see named by its side only (`fog.redact`;
    a log's many texts are first searched for any such unit at once, which most have none of)."""
    hidden = hidden_units(game, fog, viewer)
    if not hidden:
        return lambda text: text
    pattern = re.compile("|".join(rf"(?<![\w-]){re.escape(u)}(?![\w-])" for u in sorted(hidden, key=len, reverse=True)))

    def hide(text: str) -> str:
        return redact(system, text, viewer.side) if text and pattern.search(text) else text
    return hide


def build_replay(system: str, system_name: str, game: Game, files: list[tuple[str, SavedGame]], viewer: Viewer,
                 scenario_id: str | None = None, ledger: LedgerContext | None = None) -> Replay:
    fog = fog_of(system)
    redact = text_redactor(system, game, fog, viewer)
    builder = TimelineBuilder(game, viewer, fog, scenario_id, redact)
    for name, saved in files:
        builder.add_file(name, saved)
    timeline = builder.timeline
    check = check_logs(files, game, ledger.document, ledger.keys) if ledger is not None else None
    records = {r["seq"]: r for r in ledger.document["records"]} if ledger is not None else {}
    replay = Replay(system, system_name, viewer, [name for name, _ in files], timeline, [], check,
                    ledger.game_id if ledger else None)
    replay.rulings = place_rulings(timeline, game, check, records, system_name, redact, replay.label_of)
    _maps(replay, game, scenario_id)
    return replay


def _maps(replay: Replay, game: Game, scenario_id: str | None) -> None:
    used = [m for m in game.maps if m in replay.timeline.maps_used]
    if scenario_id in game.scenarios:
        used += [m for m in game.scenarios[scenario_id].maps if m not in used]
    replay.maps = used
    for map_id in used:
        grid = game.maps[map_id].grid
        centres = {}
        for label in replay.timeline.hexes_used.get(map_id, ()):
            try:
                centres[label] = grid.center(grid.parse(label))
            except ValueError:
                continue
        replay.centres[map_id] = centres
        replay.counter_size[map_id] = round(min(grid.dx, grid.dy) * 0.55)
