"""A maintainer corrects a derived map's roads (issue 33, "Maps"): through ``overrides.csv``, in a
copy of a game's data, with the commands docs/maps.md gives.

A road added there is in ``paths.csv`` after the rebuild and after the next one, the adjudicator's
supply and movement use it, and when its source is the published map ``scenarios standins`` does not
call it a stand-in.  A road removed there is gone.  A hand edit of ``paths.csv`` is kept by a rebuild
(not silently replaced), is not "out of date" for the test that holds the committed files to the
build, and ``--adopt-edits`` turns it into override rows.
"""

from __future__ import annotations

import shutil
from collections import deque
from fractions import Fraction
from pathlib import Path

import pytest

from adjudicator.rules.kwb import supply as kwb_supply
from adjudicator.rules.positions import UnitAt
from adjudicator.rules.spi import movement as spi_movement
from adjudicator.rules.spi.movement import MovementRequest
from scenarios.cli import main as scenarios_cli
from scenarios.hexgrid import Hex
from scenarios.loader import DATA_ROOT, load_game_dir
from scenarios.mapbuild.__main__ import main as mapbuild
from scenarios.mapbuild.build import build_map
from scenarios.model import GameMap

PUBLISHED = "published map: KWB Pusan Perimeter sheet"
ROADS = {"road", "trail"}


def copy_game(tmp_path: Path, game: str) -> Path:
    target = tmp_path / game
    shutil.copytree(DATA_ROOT / game, target)
    return target


def add_override(game_dir: Path, map_id: str, row: str) -> None:
    path = game_dir / "maps" / f"{map_id}.overrides.csv"
    path.write_text(path.read_text(encoding="utf-8") + row + "\n", encoding="utf-8")


def road_net(gm: GameMap, sources: list[Hex]) -> set[Hex]:
    """Hexes joined to the sources along road or trail hexsides (what KWB 9.0 traces along)."""
    net, todo = set(sources), list(sources)
    while todo:
        h = todo.pop()
        for n in gm.grid.neighbours(h):
            if n not in net and gm.hexside_kinds(h, n) & ROADS:
                net.add(n)
                todo.append(n)
    return net


def land_path(gm: GameMap, start: set[Hex], goal: Hex) -> list[Hex]:
    """The shortest chain of adjacent land hexes from any start hex to the goal."""
    parent: dict[Hex, Hex | None] = {h: None for h in start}
    queue = deque(start)
    while queue:
        h = queue.popleft()
        if h == goal:
            path = [h]
            while parent[path[-1]] is not None:
                path.append(parent[path[-1]])
            return path[::-1]
        for n in gm.grid.neighbours(h):
            if n not in parent and not gm.is_water(n):
                parent[n] = h
                queue.append(n)
    raise AssertionError(f"no land path to {goal}")


def un_supply(game_dir: Path, unit: str, hex_label: str):
    g = load_game_dir(game_dir)
    report = kwb_supply.trace_side(g, "pusan", "un", [UnitAt(unit, hex_label, "", "pusan")], {})
    return next(u for u in report.units if u.unit == unit)


def paths_rows(game_dir: Path, map_id: str) -> list[str]:
    text = (game_dir / "maps" / f"{map_id}.paths.csv").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line and not line.startswith("#")]


@pytest.mark.slow
def test_a_road_added_in_the_overrides_stays_through_rebuilds_and_puts_a_unit_in_supply(tmp_path, capsys):
    game_dir = copy_game(tmp_path, "kwb")
    g = load_game_dir(game_dir)
    gm = g.maps["pusan"]
    sources = kwb_supply.source_hexes(g, "pusan", "un")
    net = road_net(gm, sources)
    # The land hex farthest from the road net that a land path still reaches: cut off today.
    reachable = {h for h in gm.hexes() if not gm.is_water(h)}
    far = max(sorted(reachable), key=lambda h: min(gm.grid.distance(h, n) for n in net))
    unit = next(p.unit for p in g.scenarios["pusan"].setup if not p.is_marker and g.units[p.unit].side == "un")
    label = gm.grid.label(far)
    assert not un_supply(game_dir, unit, label).in_supply

    road = land_path(gm, net, far)
    hexes = [gm.grid.label(h) for h in road]
    add_override(game_dir, "pusan", f"add_path,{hexes[0]},{' '.join(hexes[1:])},road,Test road,"
                                    f"missing from the derived map,{PUBLISHED}")
    assert mapbuild([str(game_dir), "pusan"]) == 0
    row = f'road,Test road,{" ".join(hexes)},{PUBLISHED}'
    assert row in paths_rows(game_dir, "pusan")
    assert mapbuild([str(game_dir), "pusan"]) == 0  # the next rebuild keeps it
    assert row in paths_rows(game_dir, "pusan")
    assert build_map(game_dir, "pusan").stale() == []

    status = un_supply(game_dir, unit, label)
    assert status.in_supply, status.reason
    assert "road/trail net" in status.reason
    assert scenarios_cli(["check", str(game_dir)]) == 0
    capsys.readouterr()
    assert scenarios_cli(["standins", str(game_dir)]) == 0
    listed = capsys.readouterr().out
    assert "road Test road" not in listed  # taken from the published map: no stand-in
    assert "map pusan road Route 1" in listed  # the derived roads still are


@pytest.mark.slow
def test_a_correction_without_a_source_is_listed_as_a_stand_in(tmp_path, capsys):
    game_dir = copy_game(tmp_path, "kwb")
    gm = load_game_dir(game_dir).maps["pusan"]
    a = next(h for h in sorted(gm.hexes()) if not gm.is_water(h))
    b = next(n for n in gm.grid.neighbours(a) if not gm.is_water(n))
    add_override(game_dir, "pusan", f"add_path,{gm.grid.label(a)},{gm.grid.label(b)},trail,Goat track,my guess,")
    assert mapbuild([str(game_dir), "pusan"]) == 0
    capsys.readouterr()
    scenarios_cli(["standins", str(game_dir)])
    assert "trail Goat track: derived from geography (hand correction: my guess)" in capsys.readouterr().out


@pytest.mark.slow
def test_a_road_removed_in_the_overrides_is_gone_and_movement_pays_full_terrain(tmp_path):
    game_dir = copy_game(tmp_path, "spi")
    g = load_game_dir(game_dir)
    gm = g.maps["korea"]
    towns = {f.hex for f in gm.features}

    def only_here(road, x: Hex, y: Hex) -> bool:
        """The step x-y is on no other path, and neither hex has a feature (a town on a road counts
        as a railroad hex, SPI TEC City)."""
        others = [q for q in gm.paths if q is not road and any({x, y} == {u, v} for u, v in zip(q.hexes, q.hexes[1:]))]
        return not others and x not in towns and y not in towns

    road, a, b = next((p, x, y) for p in gm.paths if p.kind == "road"
                      for x, y in list(zip(p.hexes, p.hexes[1:]))[2:-1] if only_here(p, x, y))
    def cost(game) -> Fraction:
        req = MovementRequest.model_validate(
            {"scenario": "stalemate", "unit": "us-r5c", "path": [gm.grid.label(a), gm.grid.label(b)]},
            context={"game": game})
        return spi_movement.plan(game, req).costs[0]

    assert cost(g) == Fraction(1, 2)  # on the road
    add_override(game_dir, "korea", f"remove_path,{gm.grid.label(a)},{gm.grid.label(b)},road,,"
                                    "no road there,published map: SPI Korea map")
    assert mapbuild([str(game_dir), "korea"]) == 0
    after = load_game_dir(game_dir).maps["korea"]
    assert not after.hexside_kinds(a, b) & {"road"}
    assert [p.hexes for p in after.paths if p.name == road.name and road.hexes[0] in p.hexes][0][-1] == a  # cut there
    assert any(p.name == road.name and p.hexes[0] == b for p in after.paths)  # and the rest goes on from b
    assert cost(load_game_dir(game_dir)) >= 1  # the terrain's full price


@pytest.mark.slow
def test_a_hand_edited_paths_file_is_kept_not_stale_and_adopted_into_overrides(tmp_path, capsys):
    game_dir = copy_game(tmp_path, "kwb")
    paths = game_dir / "maps" / "pusan.paths.csv"
    gm = load_game_dir(game_dir).maps["pusan"]
    a = next(h for h in sorted(gm.hexes()) if not gm.is_water(h) and not gm.path_kinds_at(h))
    b = next(n for n in gm.grid.neighbours(a) if not gm.is_water(n) and not gm.path_kinds_at(n))
    first_road = next(line for line in paths.read_text(encoding="utf-8").splitlines() if line.startswith("road,"))
    edited = paths.read_text(encoding="utf-8").replace(first_road + "\n", "")  # a road deleted by hand
    edited += f"road,Hand road,{gm.grid.label(a)} {gm.grid.label(b)},{PUBLISHED}\n"  # and one added
    paths.write_text(edited, encoding="utf-8")

    assert build_map(game_dir, "pusan").stale() == []  # the maintainer's file, not out of date
    assert mapbuild([str(game_dir), "pusan"]) == 0
    assert "kept pusan.paths.csv" in capsys.readouterr().err
    assert paths.read_text(encoding="utf-8") == edited  # not overwritten

    assert mapbuild([str(game_dir), "pusan", "--adopt-edits"]) == 0
    overrides = (game_dir / "maps" / "pusan.overrides.csv").read_text(encoding="utf-8")
    assert f"add_path,{gm.grid.label(a)},{gm.grid.label(b)},road,Hand road,moved from a hand edit of " \
           f"pusan.paths.csv,{PUBLISHED}" in overrides
    assert "remove_path," in overrides
    rebuilt = load_game_dir(game_dir).maps["pusan"]
    assert "road" in rebuilt.hexside_kinds(a, b)
    removed = first_road.split(",")[2].split()
    assert not rebuilt.hexside_kinds(gm.grid.parse(removed[0]), gm.grid.parse(removed[1])) & {"road"}
    assert build_map(game_dir, "pusan").stale() == []
    assert mapbuild([str(game_dir), "pusan"]) == 0  # now an ordinary rebuild, nothing kept
    assert "kept" not in capsys.readouterr().err
