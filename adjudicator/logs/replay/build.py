"""A replay put together: the files' steps, every ruling's verdict in place, the summary, the maps.

`build_replay` is what the replay page, its after-action report and the benchmark call. It needs
the system's scenario model, the files in order, whose eyes it is for (`Viewer`) and, for a
recorded game, its ledger document and the keys that verify it. The result is one `Replay`: what
the page shows at once (`page_json`, bounded whatever the log holds) and its steps in pieces of
`PIECE_STEPS` (`pieces`), each with the board where it begins, which the browser fetches as the
player steps. Neither holds a piece id or a hidden identity (`adjudicator.logs.replay.views`), and every
text a log supplies is cut (`adjudicator.logs.check.echo`). A replay is at most `MAX_REPLAY_COMMANDS`
commands, built within the request's time budget (`adjudicator.bridge.upload.Budget`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from adjudicator.bridge.errors import BridgeError
from adjudicator.bridge.upload import MAX_LOG_COMMANDS, TOO_LARGE_HINT, Budget
from adjudicator.fog import Fog, fog_of, hidden_side, redact
from adjudicator.logs.check import LogCheck, check_logs, echo
from adjudicator.logs.replay.timeline import DRAW, MOVE, REMOVE, STEP, ADD, LogStep, Timeline, TimelineBuilder
from adjudicator.logs.replay.verdicts import BAD, HIDDEN, REROLL, RulingView, place_rulings
from adjudicator.logs.replay.views import Viewer
from scenarios.model import Game
from vassalfmt import SavedGame, VassalLimitError

#: The most commands the files of one replay may hold together: a whole game's chain of turn logs
#: (a turn is a few hundred), built in about half a request's budget on a busy 2-core machine
#: (docs/performance.md, "Replay").
MAX_REPLAY_COMMANDS = MAX_LOG_COMMANDS  # the bound of every path that reads a log
#: Steps in a piece of the timeline (what the browser fetches at a time).
PIECE_STEPS = 500
#: What the page itself lists at most: the rulings' table, the problems, the turns to jump to; and
#: the after-action report shown in the page (longer ones are at their own addresses only).
MAX_TABLE_RULINGS = 300
MAX_PROBLEMS_LISTED = 100
MAX_TURNS_LISTED = 500
MAX_INLINE_REPORT_CHARS = 100_000
#: A step's chat lines and a ruling's lines the browser gets at most.
MAX_LINES = 40

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
    maps: list[str] = field(default_factory=list)  # GameMap ids to draw, in order (`adjudicator.web.boardview`)

    @property
    def steps(self) -> list[LogStep]:
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
        shown = [r for r in self.rulings if r.status not in (HIDDEN, REROLL) or r.lines]  # a rewind's re-roll is shown
        out = {
            "files": len(self.file_names), "steps": len(self.steps) - 1, "commands": self.timeline.command_count,
            "moves": counts[MOVE], "draws": counts[DRAW], "step_changes": counts[STEP],
            "removed": counts[REMOVE], "placed": counts[ADD], "rulings": len(shown),
            "verdicts": {status: n for status, n in self.verdicts.items()},
            "ok": not self.bad and (self.check is None or self.check.ok),
            "notices": sum(len(r.notices) for r in shown),  # while one stands, not "every ruling is the one"
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

    def label_of(self, piece: int, step: LogStep) -> str | None:
        """How the viewer knows a piece a step changed (its look after the step, or before if it
        left); None when the viewer sees no change of it (a hidden block's step)."""
        for number, before, after in step.changes:
            if number == piece:
                state = after or before
                return self.timeline.views[state[0]].called
        return None

    def page_json(self) -> dict[str, Any]:
        """What the page shows at once: bounded whatever the log holds (the steps are in `pieces`)."""
        summary = self.summary()
        summary["breaks"] = [echo(b) for b in summary.get("breaks", [])]
        return {
            "system": self.system, "system_name": self.system_name, "game": self.game_id,
            "viewer": self.viewer.label, "files": [echo(n) for n in self.file_names],
            "last_step": len(self.steps) - 1, "piece_steps": PIECE_STEPS, "pieces": len(self.pieces_bounds()),
            "turns": [[echo(label), index] for label, index in self.turns[:MAX_TURNS_LISTED]],
            "ruling_steps": sorted({r.step for r in self.rulings}),
            "maps": list(self.maps),
            "summary": summary, "verdict_words": self.verdict_words(),
            "bad": [_ruling_json(r) for r in self.bad[:MAX_PROBLEMS_LISTED]], "bad_total": len(self.bad),
            "table": [_ruling_json(r) for r in self.rulings[:MAX_TABLE_RULINGS]], "rulings_total": len(self.rulings),
        }

    def pieces_bounds(self) -> list[tuple[int, int]]:
        """(first, last) step of each piece."""
        last = len(self.steps) - 1
        return [(first, min(first + PIECE_STEPS - 1, last)) for first in range(0, last + 1, PIECE_STEPS)]

    def pieces(self) -> list[dict[str, Any]]:
        """The steps in pieces, each with the board after its first step and the looks and rulings
        its steps name: a piece alone draws any step of it."""
        state = dict(self.timeline.initial)
        views = self.timeline.views
        out = []
        for first, last in self.pieces_bounds():
            for step in self.steps[max(first, 1):first + 1]:  # the piece's first step, applied
                _apply(state, step)
            board = [[n, list(s)] for n, s in sorted(state.items())]
            steps = self.steps[first:last + 1]
            looks = {s[0] for _, s in board} | {s[0] for step in steps for _, before, after in step.changes
                                               for s in (before, after) if s}
            rulings = sorted({i for step in steps for i in step.rulings})
            out.append({"first": first, "last": last, "board": board,
                        "views": {str(i): _view_json(views[i]) for i in sorted(looks)},
                        "steps": [_step_json(step) for step in steps],
                        "rulings": {str(i): _ruling_json(self.rulings[i]) for i in rulings}})
            for step in self.steps[first + 1:last + 1]:
                _apply(state, step)
        return out


def _apply(state: dict[int, Any], step: LogStep) -> None:
    for number, _, after in step.changes:
        if after is None:
            state.pop(number, None)
        else:
            state[number] = after


def _lines(lines: list[str]) -> list[str]:
    cut = [echo(line) for line in lines[:MAX_LINES]]
    return cut + [f"… and {len(lines) - MAX_LINES} more lines"] if len(lines) > MAX_LINES else cut


def _step_json(step: LogStep) -> dict[str, Any]:
    out = step.to_json()
    for key in ("x", "c", "n"):
        if key in out:
            out[key] = _lines(out[key])
    for move in out.get("m", []):
        move[2] = move[2][-MAX_LINES:]
    return out


def _view_json(view) -> dict[str, Any]:
    out = view.to_json()
    out["l"], out["t"] = echo(out["l"]), echo(out["t"])
    if "n" in out:
        out["n"] = echo(out["n"])
    return out


def _ruling_json(ruling: RulingView) -> dict[str, Any]:
    out = ruling.to_json()
    out["lines"] = _lines(out["lines"])
    if "ledger_lines" in out:
        out["ledger_lines"] = _lines(out["ledger_lines"])
    for key in ("headline", "why", "receipt"):
        out[key] = echo(out[key] or "")
    return out


def hidden_units(game: Game, fog: Fog | None, viewer: Viewer) -> dict[str, str]:
    """unit id -> side, of the units the fog of war hides from the viewer (by the rules alone)."""
    if fog is None or viewer.sees_all:
        return {}
    return {unit_id: side for unit_id in game.units if (side := hidden_side(fog, unit_id, viewer.side)) is not None}


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


def too_long(detail: str) -> BridgeError:
    return BridgeError(413, "Too long to replay at once", f"{detail} {TOO_LARGE_HINT}", "replay-too-long")


def build_replay(system: str, system_name: str, game: Game, files: list[tuple[str, SavedGame]], viewer: Viewer,
                 scenario_id: str | None = None, ledger: LedgerContext | None = None,
                 budget: Budget | None = None, progress: Callable[[int], None] | None = None) -> Replay:
    """The replay of `files` for `viewer`: at most `MAX_REPLAY_COMMANDS` commands (413 otherwise),
    within `budget` (503 once it is spent); `progress` is told the steps built so far, now and then."""
    fog = fog_of(system)
    redact = text_redactor(system, game, fog, viewer)
    budget = budget or Budget()

    def watch(steps: int) -> None:
        if steps % 256 == 0:
            budget.check("building the replay")
            if progress is not None:
                progress(steps)
    builder = TimelineBuilder(game, viewer, fog, scenario_id, redact, watch=watch)
    for name, saved in files:
        left = MAX_REPLAY_COMMANDS - builder.timeline.command_count
        try:
            builder.add_file(name, saved, max_commands=left)
        except VassalLimitError:
            raise too_long(f"A replay holds at most {MAX_REPLAY_COMMANDS} commands; with {echo(name) or 'a file'} "
                           f"these files hold more.") from None
    timeline = builder.timeline
    check = check_logs(files, game, ledger.document, ledger.keys, budget,
                       [f.events for f in timeline.files]) if ledger is not None else None
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
