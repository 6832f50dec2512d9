"""maps/<id>.toml (its grid, terrain types and scanned board) and the files beside it: the terrain
grid (.terrain.txt), features (.features.csv, and .geo-features.csv that the map builder writes),
hexsides (.hexsides.csv) and paths (.paths.csv). What a feature says about its hex is a hex fact."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scenarios import board as boards
from scenarios import facts, mapstamp
from scenarios.hexgrid import Hex, HexGrid, Hexside
from scenarios.model import BoardImage, Fact, GameMap, HexFeature, HexsideFeature, MapPath, TerrainType
from scenarios.problems import TomlLines
from scenarios.reading.context import COLOUR, Reading
from scenarios.reading.files import read_csv, read_data_text, read_toml

FEATURES_COLUMNS = ("hex", "kind", "name", "side", "source")
HEXSIDES_COLUMNS = ("hex_a", "hex_b", "kind", "name", "source")
PATHS_COLUMNS = ("kind", "name", "hexes", "source")


def read_maps(r: Reading) -> dict[str, GameMap]:
    maps: dict[str, GameMap] = {}
    for path in sorted((r.dir / "maps").glob("*.toml")):
        game_map = read_map(r, path)
        if game_map is not None:
            maps[game_map.id] = game_map
    return maps


def read_map(r: Reading, path: Path) -> GameMap | None:
    data, lines = read_toml(path, r.p)
    if not data:
        return None
    mid = str(data.get("id", path.stem))
    if mid != path.stem:
        r.p.add(path, lines.find("id"), f"map id {mid!r} differs from the file name {path.stem!r}")
    grid = _read_grid(r, data.get("grid") or {}, path, lines)
    terrain_types, by_char = _read_terrain_types(r, data, path, lines, mid)
    source = r.source(data.get("source"), path, lines.find("source"), f"map {mid}")
    if grid is None:
        return None
    stem = path.with_suffix("")
    terrain = _read_terrain(r, Path(f"{stem}.terrain.txt"), grid, by_char)
    # features.csv is transcribed from the rulebook; geo-features.csv is
    # generated from geography by scenarios.mapbuild (towns the book omits).
    features = _read_features(r, Path(f"{stem}.features.csv"), grid, mid)
    features += _read_features(r, Path(f"{stem}.geo-features.csv"), grid, mid)
    hexsides = _read_hexsides(r, Path(f"{stem}.hexsides.csv"), grid, mid)
    paths = _read_paths(r, Path(f"{stem}.paths.csv"), grid, mid)
    board = _read_board(r, data["board"], path, lines, mid, grid) if "board" in data else None
    _check_overrides_applied(r, stem, mid)
    return GameMap(
        id=mid, name=str(data.get("name", mid)), grid=grid, scale=str(data.get("scale", "")),
        terrain_types=terrain_types, terrain=terrain, features=features,
        hexside_features=hexsides, paths=paths, source=source, note=str(data.get("note", "")), board=board,
    )


def _check_overrides_applied(r: Reading, stem: Path, mid: str) -> None:
    """An overrides file edited since the map was built: its corrections are not in the map yet."""
    overrides, calibration = Path(f"{stem}.overrides.csv"), Path(f"{stem}.calibration.txt")
    if mapstamp.stale_overrides(overrides, calibration):
        r.p.add(overrides, 1, f"edited since map {mid} was built ({calibration.name} records other rows): its "
                              "corrections are not in the map, the module or the rules until the map is built "
                              f"again: python -m scenarios.mapbuild {r.game_id} {mid}")


def _read_terrain_types(r: Reading, data: dict, path: Path, lines: TomlLines,
                        mid: str) -> tuple[dict[str, TerrainType], dict[str, str]]:
    """``[[terrain]]``: the map's terrain types, and which one each grid character stands for."""
    terrain_types: dict[str, TerrainType] = {}
    by_char: dict[str, str] = {}
    for i, item, line, tid in r.entries(data, "terrain", path, lines, "terrain"):
        char = str(item.get("char", ""))
        char_line = lines.find("terrain", i, "char")
        if len(char) != 1 or char.isspace():
            r.p.add(path, char_line, f"terrain {tid}: char must be one visible character, got {char!r}")
        elif char in by_char:
            r.p.add(path, char_line, f"terrain {tid}: char {char!r} already used by {by_char[char]}")
        colour = str(item.get("colour", ""))
        if not COLOUR.match(colour):
            r.p.add(path, lines.find("terrain", i, "colour"), f"terrain {tid}: colour {colour!r} is not #rrggbb")
        by_char[char] = tid
        terrain_types[tid] = TerrainType(tid, str(item.get("name", tid)), char, colour,
                                         r.source(item.get("source"), path, line, f"map {mid} terrain {tid}",
                                                  required=False),
                                         water=bool(item.get("water", False)))
    return terrain_types, by_char


def _read_board(r: Reading, data: Any, path: Path, lines: TomlLines, mid: str, grid: HexGrid) -> BoardImage | None:
    """A scanned board (``[board]``, scenarios.board): problems at the toml key they are about."""
    if not isinstance(data, dict):
        r.p.add(path, lines.find("board"), "[board] must be a table (image, source, calibration, points)")
        return None
    source = r.source(data.get("source"), path, lines.find("board", "source"), f"map {mid} board image")
    board, problems = boards.read_board(data, path.parent, grid, source, f"modgen board {r.game_id} {mid}")
    for key, text in problems:
        r.p.add(path, lines.find(*key), text)
    return board


def _read_grid(r: Reading, g: dict, path: Path, lines: TomlLines) -> HexGrid | None:
    try:
        cols, rows = g["columns"], g["rows"]
        return HexGrid.build(
            first_col=int(cols[0]), last_col=int(cols[1]),
            first_row=int(rows[0]), last_row=int(rows[1]),
            hex_height=int(g.get("hex_height", 88)),
            shifted_columns=str(g.get("shifted_columns", "even")),
            stagger=bool(g.get("stagger", False)),
            sideways=bool(g.get("sideways", False)),
            col_digits=int(g.get("col_digits", 2)),
            row_digits=int(g.get("row_digits", 2)),
        )
    except (KeyError, IndexError, TypeError, ValueError) as err:
        r.p.add(path, lines.find("grid"), f"[grid] needs columns = [first, last], rows = [first, last] "
                                          f"and valid options ({err})")
        return None


def _parse_hex(r: Reading, text: str, grid: HexGrid, path: Path, line: int, what: str) -> Hex | None:
    try:
        hex = grid.parse(text)
    except ValueError:
        r.p.add(path, line, f"{what}: {text!r} is not a hex label")
        return None
    if not grid.is_on_map(hex):
        r.p.add(path, line, f"{what}: hex {text} is off the map "
                            f"(columns {grid.first_col}-{grid.last_col}, rows {grid.first_row}-{grid.last_row})")
        return None
    return hex


def _read_terrain(r: Reading, path: Path, grid: HexGrid, by_char: dict[str, str]) -> dict[Hex, str]:
    """One line per printed row: the row number, then one character per column."""
    terrain: dict[Hex, str] = {}
    if not path.exists():
        r.p.add(path, 1, "terrain grid file is missing")
        return terrain
    width = grid.last_col - grid.first_col + 1
    seen_rows: set[int] = set()
    grid_text = read_data_text(path, r.p)
    if grid_text is None:
        return terrain
    for number, text in enumerate(grid_text.splitlines(), start=1):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        parts = text.split(None, 1)
        if len(parts) != 2 or not parts[0].isdigit():
            r.p.add(path, number, "expected '<row number> <one character per column>'")
            continue
        row, chars = int(parts[0]), parts[1].rstrip()
        if row in seen_rows:
            r.p.add(path, number, f"row {row} appears twice")
        seen_rows.add(row)
        if not grid.first_row <= row <= grid.last_row:
            r.p.add(path, number, f"row {row} is outside rows {grid.first_row}-{grid.last_row}")
            continue
        if len(chars) != width:
            r.p.add(path, number, f"row {row} has {len(chars)} columns, expected {width}")
        for offset, char in enumerate(chars[:width]):
            if char not in by_char:
                r.p.add(path, number, f"row {row} column {grid.first_col + offset}: "
                                      f"unknown terrain character {char!r}")
                continue
            terrain[Hex(grid.first_col + offset, row)] = by_char[char]
    missing = [row for row in range(grid.first_row, grid.last_row + 1) if row not in seen_rows]
    if missing:
        r.p.add(path, 1, f"rows missing from the terrain grid: {', '.join(map(str, missing[:10]))}"
                         + ("..." if len(missing) > 10 else ""))
    return terrain


def _read_features(r: Reading, path: Path, grid: HexGrid, mid: str) -> list[HexFeature]:
    if not path.exists():
        return []
    result = []
    for row in read_csv(path, r.p, ("hex", "kind"), FEATURES_COLUMNS):
        hex = _parse_hex(r, row.get("hex"), grid, path, row.line, "feature")
        if hex is None:
            continue
        kind, side = row.get("kind"), row.get("side")
        if not kind:
            r.p.add(path, row.line, "feature without a kind")
        if side and side not in r.sides:
            r.p.add(path, row.line, f"feature {kind} {row.get('hex')}: unknown side {side!r}")
        feature = HexFeature(hex, kind, row.get("name"), side,
                             r.source(row.get("source"), path, row.line,
                                      f"map {mid} feature {kind} {row.get('hex')}", required=False),
                             r.where(path, row.line))
        result.append(feature)
        name = f" {feature.name}" if feature.name else ""
        r.hex_facts.append(Fact(mid, hex, facts.feature_demands(kind), f"{kind}{name} ({row.get('hex')})",
                                feature.source, feature.where))
    return result


def _read_hexsides(r: Reading, path: Path, grid: HexGrid, mid: str) -> list[HexsideFeature]:
    if not path.exists():
        return []
    result = []
    for row in read_csv(path, r.p, ("hex_a", "hex_b", "kind"), HEXSIDES_COLUMNS):
        a = _parse_hex(r, row.get("hex_a"), grid, path, row.line, "hexside")
        b = _parse_hex(r, row.get("hex_b"), grid, path, row.line, "hexside")
        if a is None or b is None:
            continue
        if grid.distance(a, b) != 1:
            r.p.add(path, row.line, f"hexside {row.get('hex_a')}-{row.get('hex_b')}: the hexes are not adjacent")
            continue
        result.append(HexsideFeature(Hexside.between(a, b), row.get("kind"), row.get("name"),
                                     r.source(row.get("source"), path, row.line,
                                              f"map {mid} hexside {row.get('kind')}", required=False)))
    return result


def _read_paths(r: Reading, path: Path, grid: HexGrid, mid: str) -> list[MapPath]:
    if not path.exists():
        return []
    result = []
    for row in read_csv(path, r.p, ("kind", "hexes"), PATHS_COLUMNS):
        hexes = []
        for label in row.get("hexes").split():
            hex = _parse_hex(r, label, grid, path, row.line, f"{row.get('kind')} {row.get('name')}")
            if hex is not None:
                hexes.append(hex)
        for a, b in zip(hexes, hexes[1:]):
            if grid.distance(a, b) != 1:
                r.p.add(path, row.line, f"{row.get('kind')} {row.get('name')}: "
                                        f"{grid.label(a)} and {grid.label(b)} are not adjacent")
        if len(hexes) < 2:
            r.p.add(path, row.line, "a path needs at least two hexes")
            continue
        result.append(MapPath(row.get("kind"), tuple(hexes), row.get("name"),
                              r.source(row.get("source"), path, row.line,
                                       f"map {mid} {row.get('kind')} {row.get('name')}", required=False)))
    return result
