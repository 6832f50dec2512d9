"""Hand corrections, applied after everything derived: ``maps/<map>.overrides.csv``.

Columns ``action, hex_a, hex_b, value, name, note, source`` (``source`` may be left out); actions:

- ``terrain``         set hex_a's terrain to the terrain id in ``value``;
- ``add_hexside``     add a hexside hex_a-hex_b of kind ``value`` (river, red_line, ...) named ``name``;
- ``remove_hexside``  remove hexside hex_a-hex_b (of kind ``value``, or of every kind when empty);
- ``add_path``        add a road, trail or railway (kind ``value``) named ``name`` running hex_a, then
                      the hexes of hex_b in order (one hex, or several separated by spaces), each
                      adjacent to the one before;
- ``remove_path``     take the steps hex_a-hex_b (hex_b: one or more hexes, as for add_path) out of
                      every path of kind ``value`` (every kind when empty) and, when ``name`` is
                      given, of that name only; with hex_b empty, every step into or out of hex_a.
                      A path cut in the middle becomes two.

Every row must say why in ``note``.  ``source`` says where the correction comes from: a correction
read off the published map says so (``published map: KWB Pusan sheet``) and the generated row
carries that source, so ``scenarios standins`` no longer lists it; without a source the row is
ours, a stand-in: ``stand-in: derived from geography (hand correction: <note>)``.

Why paths are corrected here and not in ``paths.csv``: the build regenerates ``paths.csv`` from
the geography every time, so a road added there is gone after the next rebuild; a row here is
applied again by every build.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from scenarios.hexgrid import Hex, Hexside, HexGrid
from scenarios.loader import read_csv
from scenarios.problems import Problems
from scenarios.mapbuild.lines import PathLine, SideLine

#: The file's columns (docs/maps.md section 5); a row without its action, hex or note says so.
COLUMNS = ("action", "hex_a", "hex_b", "value", "name", "note", "source")
REQUIRED = ("action", "hex_a", "note")
ACTIONS = ("terrain", "add_hexside", "remove_hexside", "add_path", "remove_path")
PATH_ACTIONS = ("add_path", "remove_path")


class OverrideError(Exception):
    pass


@dataclass(frozen=True)
class Override:
    line: int
    action: str
    hex_a: Hex
    hex_b: Hex | None  # the hexside's other hex; for paths, the first hex after hex_a (None: none given)
    value: str
    name: str
    note: str
    source: str = ""  # where the correction comes from ("published map: ..."); empty = a stand-in of ours
    chain: tuple[Hex, ...] = ()  # paths: hex_a and every hex of hex_b, in order

    @property
    def why(self) -> str:
        return f"hand correction: {self.note}"

    def steps(self) -> list[Hexside]:
        return [Hexside.between(a, b) for a, b in zip(self.chain, self.chain[1:])]


def read_overrides(path: Path, grid: HexGrid, legend: dict[str, str]) -> list[Override]:
    """The corrections of ``path``; OverrideError naming every bad row (and a header or encoding
    mistake once), each as ``file:line: what is wrong``, so one run lists them all."""
    if not path.exists():
        return []
    problems = Problems(root=path.parent.parent.parent if path.parent.name == "maps" else path.parent)
    rows = read_csv(path, problems, REQUIRED, COLUMNS)
    found = []
    for row in rows:
        try:
            found.append(_read_row({k: v or "" for k, v in row.cells.items()}, row.line, grid, legend))
        except OverrideError as err:
            problems.add(path, row.line, str(err))
    if problems:
        raise OverrideError("\n".join(str(p) for p in problems.items))
    return found


def _read_row(row: dict[str, str], number: int, grid: HexGrid, legend: dict[str, str]) -> Override:
    action = row.get("action", "").strip()
    if action not in ACTIONS:
        raise OverrideError(f"action {action!r} is not one of {', '.join(ACTIONS)}")
    a = _hex(grid, row.get("hex_a", ""))
    value = row.get("value", "").strip()
    note = row.get("note", "").strip()
    if not note:
        raise OverrideError("say why in 'note'")
    common = dict(line=number, action=action, hex_a=a, value=value, name=row.get("name", "").strip(), note=note,
                  source=row.get("source", "").strip())
    if action == "terrain":
        if value not in legend:
            raise OverrideError(f"terrain {value!r} is not in the legend ({', '.join(sorted(legend))})")
        return Override(hex_b=None, **common)
    if action in PATH_ACTIONS:
        rest = [_hex(grid, label) for label in row.get("hex_b", "").split()]
        if action == "add_path" and not value:
            raise OverrideError("add_path needs a kind in 'value' (road, trail, rail...)")
        if action == "add_path" and not rest:
            raise OverrideError("add_path needs the hexes after hex_a in 'hex_b' (space-separated)")
        chain = (a, *rest)
        for x, y in zip(chain, chain[1:]):
            if grid.distance(x, y) != 1:
                raise OverrideError(f"{grid.label(x)} and {grid.label(y)} are not adjacent")
        return Override(hex_b=rest[0] if rest else None, chain=chain, **common)
    b = _hex(grid, row.get("hex_b", ""))
    if grid.distance(a, b) != 1:
        raise OverrideError(f"{grid.label(a)} and {grid.label(b)} are not adjacent")
    if action == "add_hexside" and not value:
        raise OverrideError("add_hexside needs a kind in 'value'")
    return Override(hex_b=b, **common)


def _hex(grid: HexGrid, label: str) -> Hex:
    try:
        hex = grid.parse(label)
    except ValueError:
        raise OverrideError(f"bad hex label {label!r}") from None
    if not grid.is_on_map(hex):
        raise OverrideError(f"hex {label} is off the map")
    return hex


def apply_overrides(overrides: list[Override], terrain: dict[Hex, str],
                    sides: list[SideLine]) -> tuple[dict[Hex, str], list[SideLine]]:
    """Terrain and hexside corrections (paths come later: ``apply_path_overrides``)."""
    terrain = dict(terrain)
    sides = list(sides)
    for o in overrides:
        if o.action == "terrain":
            terrain[o.hex_a] = o.value
        elif o.action == "remove_hexside":
            side = Hexside.between(o.hex_a, o.hex_b)
            sides = [s for s in sides if not (s.side == side and (not o.value or s.kind == o.value))]
        elif o.action == "add_hexside":
            side = Hexside.between(o.hex_a, o.hex_b)
            sides = [s for s in sides if not (s.side == side and s.kind == o.value)]
            sides.append(SideLine(side, o.value, o.name, o.why, o.source))
    return terrain, sorted(sides, key=lambda s: (s.side, s.kind))


def apply_path_overrides(overrides: list[Override], paths: list[PathLine]) -> list[PathLine]:
    """Roads, trails and railways added and removed, in the order the rows come.

    Applied after the paths are traced from the geography (which needs the corrected terrain to
    go round water), so a hand-added road is there whatever the tracing gives.
    """
    paths = list(paths)
    for o in overrides:
        if o.action == "add_path":
            paths.append(PathLine(o.value, o.name, o.chain, o.why, o.source))
        elif o.action == "remove_path":
            paths = [piece for p in paths for piece in _without(p, o)]
    return paths


def _without(path: PathLine, o: Override) -> list[PathLine]:
    """The path with the override's steps taken out: the pieces left of two hexes or more."""
    if (o.value and path.kind != o.value) or (o.name and path.name != o.name):
        return [path]
    cut = set(o.steps())

    def removed(a: Hex, b: Hex) -> bool:
        if o.hex_b is None:
            return o.hex_a in (a, b)
        return Hexside.between(a, b) in cut

    pieces: list[list[Hex]] = [[path.hexes[0]]]
    for a, b in zip(path.hexes, path.hexes[1:]):
        if removed(a, b):
            pieces.append([b])
        else:
            pieces[-1].append(b)
    if len(pieces) == 1:
        return [path]
    return [PathLine(path.kind, path.name, tuple(p), path.why, path.source) for p in pieces if len(p) >= 2]
