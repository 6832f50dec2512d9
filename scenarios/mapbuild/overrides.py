"""Hand corrections, applied after everything derived: ``maps/<map>.overrides.csv``.

Columns ``action, hex_a, hex_b, value, name, note``; actions:

- ``terrain``         set hex_a's terrain to the terrain id in ``value``;
- ``add_hexside``     add a hexside hex_a-hex_b of kind ``value`` (river, red_line, ...) named ``name``;
- ``remove_hexside``  remove hexside hex_a-hex_b (of kind ``value``, or of every kind when empty).

Every row must say why in ``note``; the note becomes the generated row's source.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from scenarios.hexgrid import Hex, Hexside, HexGrid
from scenarios.mapbuild.lines import SideLine

ACTIONS = ("terrain", "add_hexside", "remove_hexside")


class OverrideError(Exception):
    pass


@dataclass(frozen=True)
class Override:
    line: int
    action: str
    hex_a: Hex
    hex_b: Hex | None
    value: str
    name: str
    note: str


def read_overrides(path: Path, grid: HexGrid, legend: dict[str, str]) -> list[Override]:
    if not path.exists():
        return []
    numbered = [(n, line) for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                if line.strip() and not line.lstrip().startswith("#")]
    if not numbered:
        return []
    header = next(csv.reader([numbered[0][1]]))
    out = []
    for number, text in numbered[1:]:
        row = dict(zip(header, next(csv.reader([text]))))
        where = f"{path.name}:{number}"
        action = row.get("action", "").strip()
        if action not in ACTIONS:
            raise OverrideError(f"{where}: action {action!r} is not one of {', '.join(ACTIONS)}")
        try:
            a = grid.parse(row.get("hex_a", ""))
            b = grid.parse(row["hex_b"]) if action != "terrain" else None
        except (ValueError, KeyError):
            raise OverrideError(f"{where}: bad hex label") from None
        if not grid.is_on_map(a) or (b is not None and not grid.is_on_map(b)):
            raise OverrideError(f"{where}: hex off the map")
        if b is not None and grid.distance(a, b) != 1:
            raise OverrideError(f"{where}: {grid.label(a)} and {grid.label(b)} are not adjacent")
        value = row.get("value", "").strip()
        if action == "terrain" and value not in legend:
            raise OverrideError(f"{where}: terrain {value!r} is not in the legend ({', '.join(sorted(legend))})")
        if action == "add_hexside" and not value:
            raise OverrideError(f"{where}: add_hexside needs a kind in 'value'")
        note = row.get("note", "").strip()
        if not note:
            raise OverrideError(f"{where}: say why in 'note'")
        out.append(Override(number, action, a, b, value, row.get("name", "").strip(), note))
    return out


def apply_overrides(overrides: list[Override], terrain: dict[Hex, str],
                    sides: list[SideLine]) -> tuple[dict[Hex, str], list[SideLine]]:
    terrain = dict(terrain)
    sides = list(sides)
    for o in overrides:
        if o.action == "terrain":
            terrain[o.hex_a] = o.value
            continue
        side = Hexside.between(o.hex_a, o.hex_b)
        if o.action == "remove_hexside":
            sides = [s for s in sides if not (s.side == side and (not o.value or s.kind == o.value))]
        else:
            sides = [s for s in sides if not (s.side == side and s.kind == o.value)]
            sides.append(SideLine(side, o.value, o.name, f"hand correction: {o.note}"))
    return terrain, sorted(sides, key=lambda s: (s.side, s.kind))
