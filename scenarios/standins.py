"""The stand-ins of a game, sorted for a maintainer: by kind and file, each with what to supply.

The loader records every stand-in as `where: what: reason` (`StandIn`). A maintainer who owns the
printed game wants more than the reason: which kind of datum it is (a table, a counter, a setup
line, a map hexside...) and what to put where to replace it. `kind` sorts them; `supply` says it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from scenarios.cells import describe
from scenarios.model import Game, StandIn

#: Every kind, in the order a listing shows them, with what a maintainer supplies for one of them.
SUPPLY = {
    "table": "",  # said per table (its CSV and the columns the rules read): see `supply`
    "unit": ("the counter's printed values: `steps` on this line of units.csv as printed (e.g. 10-9-3|5-4-3, "
             "each side in step order), then set `source` to where they are printed"),
    "marker": ("the marker as printed: `faces` (and `count`, the counter mix) on this line of markers.csv, "
               "then set `source` to where it is printed"),
    "setup": ("the printed set-up: the hex (or box:<id>) the scenario's set-up chart gives, in `location` "
              "(and `step`), then set `source` to the chart's section"),
    "schedule": ("the printed reinforcement/withdrawal chart: `turn` and `location` (entry hex or box) on this "
                 "line, then set `source` to the chart's section"),
    "special rule": ("the rule as printed: the values of this [special_rules.<name>] table (the keys the rules "
                     "read stay), then set its `source` to the rule's section"),
    "victory": ("the printed victory conditions: this [victory] schedule's entries (points, per, match), then "
                "set its `source` to the section"),
    "scenario": "the scenario's printed section: set `source` in this scenario's TOML",
    "turn record": "the printed turn record: this row's date and per-turn values, then its `source`",
    "track": ("the printed track: `cells` of this [[track]] in game.toml (labels, or a range \"0-19\"), then "
              "its `source`"),
    "box": ("the rule's own words for when a drawn piece returns or is revealed: `returns`/`reveal` of this "
            "[[box]] in game.toml"),
    "nationality": "the counters' printed colours: `background`, `text`, `symbol` of this [[nationality]]",
    "terrain ban": "the printed rule: `units`, `terrain`, `except_on` of this [[terrain_ban]], then its `source`",
    "map area": "the printed region: `beyond` (the rivers that bound it) of this [[map_area]], then its `source`",
    "map": ("the published map: paint maps/<map>.terrain.txt from it, or correct the derived map with "
            "maps/<map>.overrides.csv and rebuild (docs/maps.md \"Correcting a map\"); then this `source`"),
    "map terrain": "the published map's legend: this terrain type's `name`, `char`, `colour`, then its `source`",
    "map feature": ("the published map's place: its hex, kind and name on this line (move it, or delete a place "
                    "the map does not print), then set `source` to the map"),
    "map hexside": ("the published map's river or line: correct it with a row of maps/<map>.overrides.csv "
                    "(add_hexside/remove_hexside, note = the map) and rebuild (docs/maps.md)"),
    "map path": ("the published map's road, trail or railway: correct its chain of hexes from the map "
                 "(docs/maps.md \"Correcting a map\"), with the map as its source"),
}


def kind(s: StandIn) -> str:
    """The kind of datum a stand-in is, from the loader's `what` ("unit nk-6" -> "unit")."""
    words = s.what.split()
    head = words[0] if words else ""
    if head == "map":
        if len(words) < 3:
            return "map"
        return {"terrain": "map terrain", "feature": "map feature", "hexside": "map hexside"}.get(words[2], "map path")
    if head == "scenario":
        if len(words) < 3:
            return "scenario"
        return {"setup": "setup", "arrive": "schedule", "withdraw": "schedule", "rule": "special rule",
                "victory": "victory"}.get(words[2], "scenario")
    return {"map_area": "map area", "terrain": "terrain ban", "turn": "turn record"}.get(head, head)


def file_of(s: StandIn) -> str:
    """The file of a stand-in's `where` (`kwb/units.csv:20` -> `kwb/units.csv`)."""
    return s.where.rpartition(":")[0] or s.where


def supply(s: StandIn, game: Game | None = None) -> str:
    """What a maintainer supplies to replace the stand-in with the published datum."""
    k = kind(s)
    if k == "table":
        table = game.tables.get(s.what.split()[1]) if game is not None and len(s.what.split()) > 1 else None
        if table is None:
            return "the published table: overwrite its CSV as printed, then set `source` in tables.toml"
        read = [f"{'every cell' if c == '*' else c}: {describe(t)}" for c, t in table.column_types.items()]
        if table.needed_rows:
            read.append(f"rows {table.key} {', '.join(table.needed_rows)}")
        return (f"the published table: overwrite {table.file} with it as printed (header = the printed columns, "
                f"key column `{table.key}`" + (f"; the rules read {'; '.join(read)}" if read else "") + "), then "
                "set this `source` to its rulebook section; every ruling then cites that section")
    if k == "map feature" and "geo-features" in file_of(s):
        return ("the published map's place: this town is generated from the geography's town table by the map "
                "build (a hand edit here is lost on the next build): give the place its printed hex in "
                "maps/<map>.features.csv and rebuild the map, which leaves towns placed there out of this file "
                "(docs/maps.md)")
    if k == "unit" and game is not None:
        printed = (game.value_separator or " ").join(game.value_fields)
        return (f"the counter's printed values: `steps` on this line of units.csv as printed ({printed}; "
                f"its sides in the order {'|'.join(game.step_names)}), then set `source` to where they are printed")
    return SUPPLY.get(k, "the published datum, then set its `source` to where it is printed")


@dataclass(frozen=True)
class Summary:
    """How many stand-ins of each kind and in each file."""

    by_kind: list[tuple[str, int]]
    by_file: list[tuple[str, int]]


def summarise(items: list[StandIn]) -> Summary:
    order = list(SUPPLY)
    kinds = Counter(kind(s) for s in items)
    files = Counter(file_of(s) for s in items)
    return Summary(sorted(kinds.items(), key=lambda kv: (order.index(kv[0]) if kv[0] in order else len(order), kv[0])),
                   sorted(files.items(), key=lambda kv: (-kv[1], kv[0])))


def select(items: list[StandIn], kinds: list[str] | None = None, files: list[str] | None = None) -> list[StandIn]:
    """The stand-ins of any of `kinds` (exact kind names) and in a file containing any of `files`."""
    return [s for s in items
            if (not kinds or kind(s) in kinds) and (not files or any(f in file_of(s) for f in files))]
