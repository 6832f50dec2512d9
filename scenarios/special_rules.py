"""What a game's scenarios may say in their special rules, and whether each can be applied.

A scenario's `[special_rules.<name>]` tables are read by the rules code by name, from the scenario's
own data (its turns, sides, parameters and `source`), so a maintainer who copies one into a new
scenario gets it there. A rule the code cannot apply to a scenario must not pass in silence: a name
no code knows (a typo, a rule of another game), a key the code needs missing, a turn the scenario
does not have, a side or unit or hex that is not the game's. Each game says in
`special_rules.toml` which rules its scenarios may carry and what each needs:

    [shown]                           # rules the players apply; the adjudicator keeps them as text
    names = ["setup_options", ...]

    [applied.surprise]                # a rule the adjudicator applies
    by = "adjudicator/rules/kwb: supply.py, combat.py"
    required = ["source", "turns"]    # keys it must have
    turns = ["turns"]                 # keys whose values are game-turns of the scenario (a list, or a
                                      # table's values: `due_turn = { "us-5-1m" = 16 }`)
    sides = ["always_in_supply"]      # ... side ids of the game
    hexes = ["rr_hex"]                # ... hexes of the scenario's maps
    units = ["unit"]                  # ... unit ids of the game
    rules_from = "rules_from"         # the key naming a scenario that carries every rule of `rules`

`check` reports every problem at the line of the scenario's rule (`scenarios check`). A game without
the file is not checked (docs/example).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scenarios.model import Game
from scenarios.problems import Problems, TomlLines

FILE = "special_rules.toml"


@dataclass(frozen=True)
class RuleKind:
    """One special rule a game's scenarios may carry, as `special_rules.toml` declares it."""

    name: str
    applied_by: str = ""  # where the adjudicator applies it; "" = the players do (shown only)
    required: tuple[str, ...] = ()
    turns: tuple[str, ...] = ()
    sides: tuple[str, ...] = ()
    hexes: tuple[str, ...] = ()
    units: tuple[str, ...] = ()
    rules_from: str = ""


@dataclass(frozen=True)
class ScenarioFile:
    """A scenario TOML as read: its path, its data and its lines (for file:line)."""

    path: Path
    data: dict[str, Any]
    lines: TomlLines


def kinds_of(data: dict[str, Any], path: Path, lines: TomlLines, problems: Problems) -> dict[str, RuleKind]:
    """The rules `special_rules.toml` declares, name -> kind."""
    kinds: dict[str, RuleKind] = {}
    for name in (data.get("shown") or {}).get("names", []):
        kinds[str(name)] = RuleKind(str(name))
    for name, spec in (data.get("applied") or {}).items():
        if not isinstance(spec, dict) or not spec.get("by"):
            problems.add(path, lines.find("applied", name), f"applied rule {name}: say where it is applied (by = ...)")
            continue
        if name in kinds:
            problems.add(path, lines.find("applied", name), f"rule {name} is declared both shown and applied")
        kinds[name] = RuleKind(name, str(spec["by"]), *(tuple(str(k) for k in spec.get(key, ()))
                                                        for key in ("required", "turns", "sides", "hexes", "units")),
                               rules_from=str(spec.get("rules_from", "")))
    return kinds


def check(game: Game, kinds: dict[str, RuleKind], files: dict[str, ScenarioFile], problems: Problems) -> None:
    """Every special rule of every scenario against its declaration."""
    for scenario_id, found in files.items():
        scenario = game.scenarios.get(scenario_id)
        if scenario is None:
            continue
        for name, table in (found.data.get("special_rules") or {}).items():
            line = found.lines.find("special_rules", name)
            kind = kinds.get(name)
            if kind is None:
                problems.add(found.path, line, f"special rule {name}: not a rule of {game.name} ({FILE}): no code would "
                                              "apply it and nothing says the players do; correct its name, or declare "
                                              f"it in {FILE} (shown, or applied where the rules code reads it)")
                continue
            if isinstance(table, dict) and kind.applied_by:
                for message, key in _problems(game, scenario, kind, table, game.scenarios):
                    problems.add(found.path, found.lines.find("special_rules", name, key) if key else line,
                                 f"special rule {name}: {message} [applied by {kind.applied_by}]")


def _problems(game: Game, scenario, kind: RuleKind, table: dict[str, Any], scenarios: dict):
    """(message, key) for each way the rule's table does not fit the scenario."""
    for key in kind.required:
        if key not in table:
            yield f"needs {key!r}", ""
    last = len(scenario.turns)
    for key in kind.turns:
        for turn in _values(table.get(key)):
            if not isinstance(turn, int) or isinstance(turn, bool) or not 1 <= turn <= last:
                yield f"{key}: {turn!r} is not a game-turn of {scenario.name} (1-{last})", key
    for key in kind.sides:
        for side in _values(table.get(key)):
            if side not in game.sides:
                yield f"{key}: {side!r} is not a side ({', '.join(game.sides)})", key
    for key in kind.units:
        for unit in _values(table.get(key)):
            if unit not in game.units:
                yield f"{key}: {unit!r} is not a unit of units.csv", key
    maps = [game.maps[m] for m in scenario.maps if m in game.maps]
    for key in kind.hexes:
        for label in _values(table.get(key)):
            if not any(_on_map(gm, label) for gm in maps):
                yield f"{key}: {label!r} is not a hex of {' or '.join(scenario.maps)}", key
    if kind.rules_from and kind.rules_from in table:
        other = scenarios.get(str(table[kind.rules_from]))
        if other is None:
            yield f"{kind.rules_from}: no scenario {table[kind.rules_from]!r}", kind.rules_from
        else:
            for rule in _values(table.get("rules")):
                if rule not in other.special_rules:
                    yield f"{kind.rules_from}: {other.id} has no special rule {rule!r} to take", kind.rules_from


def _values(value: Any) -> list[Any]:
    """The values a key gives: one, a list, or a table's values (`due_turn = { "us-5-1m" = 16 }`)."""
    if value is None:
        return []
    if isinstance(value, dict):
        return list(value.values())
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _on_map(gm, label: Any) -> bool:
    try:
        return gm.grid.parse(str(label)) in gm.terrain
    except (ValueError, KeyError):
        return False
