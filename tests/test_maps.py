"""The map builder (scenarios.mapbuild): the fit, the hexside and path geometry, and every built game map.

The game-map tests build each map in memory from the committed geography and settings, then check what
the rulebooks demand of it: named places on land and in their hexes, ports on the coast, Hagaru-ri by the
reservoir, residuals under half a hex, and the same bytes on every build.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from scenarios.mapbuild.calibrate import COAST_PULL

from scenarios import geodata
from scenarios.hexgrid import Blocked, Hex, Hexside, HexGrid, search
from scenarios.loader import DATA_ROOT, load_game_dir
from scenarios.mapbuild import SOURCE_PREFIX
from scenarios.mapbuild.build import BuildError, build_map
from scenarios.mapbuild.calibrate import Calibration
from scenarios.mapbuild.config import map_ids
from scenarios.mapbuild.fit import Constraint, Similarity, fit_affine, fit_similarity, residual
from scenarios.mapbuild.lines import around_water, chain, crossed_sides, hexes_along, parallel_sides, segments_cross
from scenarios.mapbuild.output import is_hand_edited, set_grid_convention, terrain_text
from scenarios.mapbuild.lines import PathLine
from scenarios.mapbuild.overrides import OverrideError, apply_overrides, apply_path_overrides, read_overrides
from scenarios.mapbuild.projection import Projection
from scenarios.mapbuild.warp import fit_warp

GAMES = ("kwb", "spi", "holdfast", "fireandice")
MAPS = [(g, m) for g in GAMES if (DATA_ROOT / g / "game.toml").exists() for m in map_ids(DATA_ROOT / g)]
PLACE_KINDS = ("city", "major_city", "capital", "town", "port", "airfield", "star_city", "village")


# --------------------------------------------------------------------------- the fit on synthetic anchors

def _synthetic(t: Similarity, n: int, seed: int) -> list[Constraint]:
    rng = random.Random(seed)
    pts = [(rng.uniform(0, 3000), rng.uniform(0, 4000)) for _ in range(n)]
    return [Constraint(p, t.apply(*p)) for p in pts]


@pytest.mark.parametrize("angle_deg", [0.0, 37.5, 93.2, -120.0, 181.0])
def test_fit_recovers_a_known_rotation_and_offset(angle_deg):
    truth = Similarity(scale=0.0625, angle=math.radians(angle_deg), tx=-40.0, ty=123.0)
    fitted = fit_similarity(_synthetic(truth, 6, 1), scale=0.0625)
    assert math.isclose(math.cos(fitted.angle), math.cos(truth.angle), abs_tol=1e-6)
    assert math.isclose(math.sin(fitted.angle), math.sin(truth.angle), abs_tol=1e-6)
    assert fitted.tx == pytest.approx(-40.0, abs=1e-3) and fitted.ty == pytest.approx(123.0, abs=1e-3)


def test_fit_recovers_the_scale_when_asked_and_reports_mirrored_numbering():
    truth = Similarity(scale=0.071, angle=math.radians(-80), tx=5.0, ty=-7.0, mirror=True)
    constraints = _synthetic(truth, 5, 2)
    fitted = fit_similarity(constraints, scale=None, mirror=True)
    assert fitted.scale == pytest.approx(0.071, rel=1e-6)
    assert max(residual(fitted, k) for k in constraints) < 1e-6
    # the same anchors cannot be fitted without mirroring: that is how a wrong row direction shows
    unmirrored = fit_similarity(constraints, scale=None, mirror=False)
    assert max(residual(unmirrored, k) for k in constraints) > 10


def test_fit_with_noise_leaves_residuals_of_the_noise_size():
    truth = Similarity(scale=0.05, angle=math.radians(15), tx=0.0, ty=0.0)
    rng = random.Random(3)
    noisy = [Constraint(k.pixel, (k.target[0] + rng.gauss(0, 0.5), k.target[1] + rng.gauss(0, 0.5)))
             for k in _synthetic(truth, 30, 3)]
    fitted = fit_similarity(noisy, scale=0.05)
    assert math.degrees(abs(fitted.angle - truth.angle)) < 0.5
    assert max(residual(fitted, k) for k in noisy) < 2.5


def test_a_line_constraint_fixes_only_its_normal_component():
    k = Constraint((0.0, 0.0), (0.0, 10.0), normal=(0.0, 1.0))
    t = Similarity(scale=1.0, angle=0.0, tx=500.0, ty=10.0)  # far off in x, exact in y
    assert residual(t, k) == pytest.approx(0.0)


def test_affine_fit_recovers_axes_scaled_apart():
    def truth(px, py):
        return 0.11 * px + 0.01 * py + 3.0, -0.005 * px - 0.15 * py + 40.0

    pts = [(0, 0), (1000, 0), (0, 1000), (800, 900), (300, 200)]
    fitted = fit_affine([Constraint(p, truth(*p)) for p in pts])
    for p in [(123, 456), (2000, -50)]:
        assert fitted.apply(*p) == pytest.approx(truth(*p), abs=1e-6)
        assert fitted.invert(*fitted.apply(*p)) == pytest.approx(p, abs=1e-6)
    assert not fitted.mirror


def test_warp_is_exact_at_anchors_and_fades_far_away():
    pixels = [(0.0, 0.0), (100.0, 0.0), (0.0, 100.0)]
    offsets = [(3.0, -2.0), (0.0, 1.0), (-1.5, 0.5)]
    warp = fit_warp(pixels, offsets, sigma_px=60.0)
    for p, o in zip(pixels, offsets):
        assert warp.displacement(*p) == pytest.approx(o, abs=1e-6)
    far = warp.displacement(2000.0, 2000.0)
    assert abs(far[0]) < 1e-9 and abs(far[1]) < 1e-9


def test_projection_round_trip_and_distances():
    proj = Projection(37.5, 127.0)
    for lat, lon in [(35.1, 129.03), (40.38, 127.25), (42.0, 124.5)]:
        x, y = proj.to_km(lat, lon)
        assert proj.to_latlon(x, y) == pytest.approx((lat, lon), abs=1e-7)
        assert math.hypot(x, y) == pytest.approx(geodata.distance_km(37.5, 127.0, lat, lon), rel=1e-6)


# --------------------------------------------------------------------------- hexsides and paths

def _flat_calibration(grid: HexGrid) -> Calibration:
    """North-up, 1 km per pixel, centred on 38 N 127 E: enough for geometry tests."""
    return Calibration(grid, "even", False, Similarity(1.0, 0.0, -grid.width / 2, grid.height / 2),
                       Projection(38.0, 127.0),
                       (), (), 0.5 * grid.dy)


def test_segments_cross():
    assert segments_cross((0, 0), (10, 0), (5, -5), (5, 5))
    assert not segments_cross((0, 0), (10, 0), (15, -5), (15, 5))
    assert not segments_cross((0, 0), (10, 0), (0, 1), (10, 1))


def test_a_straight_river_between_two_columns_makes_exactly_those_hexsides():
    grid = HexGrid.build(first_col=1, last_col=6, first_row=1, last_row=5)
    cal = _flat_calibration(grid)
    x = (grid.center(Hex(3, 1))[0] + grid.center(Hex(4, 1))[0]) / 2
    river = [(x, -50.0), (x, grid.height + 50.0)]
    sides = crossed_sides(cal, river, grid.is_on_map)
    expected = {Hexside.between(h, n) for h in grid.hexes() if h.col == 3
                for n in grid.neighbours(h) if n.col == 4}
    assert set(sides) == expected
    # every side has one hex on each bank
    assert all({s.a.col, s.b.col} == {3, 4} for s in sides)


def test_a_river_that_wanders_over_and_back_is_no_hexside():
    grid = HexGrid.build(first_col=1, last_col=4, first_row=1, last_row=4)
    cal = _flat_calibration(grid)
    (ax, ay), (bx, by) = grid.center(Hex(2, 2)), grid.center(Hex(3, 2))
    mx = (ax + bx) / 2
    # crosses the 0202-0302 centre line and comes back on the same side
    river = [(mx, ay - 30), (mx, ay + 5), (mx + 3, ay + 5), (mx + 3, ay - 30)]
    assert Hexside.between(Hex(2, 2), Hex(3, 2)) not in crossed_sides(cal, river, grid.is_on_map)


def test_paths_are_chains_of_adjacent_hexes():
    grid = HexGrid.build(first_col=1, last_col=12, first_row=1, last_row=10)
    cal = _flat_calibration(grid)
    line = [grid.center(Hex(1, 1)), grid.center(Hex(12, 9)), grid.center(Hex(2, 10))]
    hexes = chain(cal, hexes_along(cal, [(float(x), float(y)) for x, y in line]))
    assert hexes[0] == Hex(1, 1) and hexes[-1] == Hex(2, 10)
    assert all(grid.distance(a, b) == 1 for a, b in zip(hexes, hexes[1:]))


def test_paths_go_round_water_by_land():
    grid = HexGrid.build(first_col=1, last_col=8, first_row=1, last_row=6)
    cal = _flat_calibration(grid)
    straight = [Hex(c, 3) for c in range(1, 9)]
    water = {Hex(4, 3), Hex(5, 3)}
    detour = around_water(cal, straight, water)
    assert detour[0] == Hex(1, 3) and detour[-1] == Hex(8, 3)
    assert not water & set(detour)
    assert all(grid.distance(a, b) == 1 for a, b in zip(detour, detour[1:]))


def test_parallel_sides_separate_north_from_south():
    grid = HexGrid.build(first_col=1, last_col=5, first_row=1, last_row=8)
    cal = _flat_calibration(grid)
    terrain = {h: "clear" for h in grid.hexes()}
    sides = parallel_sides(cal, terrain, 38.0, "parallel_38", "38th")
    assert sides
    for s in sides:
        lats = sorted(cal.hex_latlon(h)[0] for h in (s.side.a, s.side.b))
        assert lats[0] < 38.0 <= lats[1]


# --------------------------------------------------------------------------- overrides and hand edits

def test_overrides_set_terrain_and_add_and_remove_hexsides(tmp_path):
    grid = HexGrid.build(first_col=1, last_col=4, first_row=1, last_row=4)
    path = tmp_path / "m.overrides.csv"
    path.write_text("# comment\naction,hex_a,hex_b,value,name,note\n"
                    "terrain,0202,,rough,,hill on the published map\n"
                    "add_hexside,0202,0302,river,Test,river on the published map\n"
                    "remove_hexside,0101,0201,,,no river there\n", encoding="utf-8")
    from scenarios.mapbuild.lines import SideLine
    fixes = read_overrides(path, grid, {"clear": ".", "rough": "^"})
    terrain, sides = apply_overrides(fixes, {h: "clear" for h in grid.hexes()},
                                     [SideLine(Hexside.between(Hex(1, 1), Hex(2, 1)), "river", "Old", "x")])
    assert terrain[Hex(2, 2)] == "rough"
    assert [(s.side, s.kind, s.name) for s in sides] == [(Hexside.between(Hex(2, 2), Hex(3, 2)), "river", "Test")]


def test_path_overrides_add_chains_and_cut_paths_where_steps_are_removed(tmp_path):
    grid = HexGrid.build(first_col=1, last_col=6, first_row=1, last_row=4)
    path = tmp_path / "m.overrides.csv"
    path.write_text("action,hex_a,hex_b,value,name,note,source\n"
                    "add_path,0101,0201 0301,road,New,published map shows it,published map: sheet 1\n"
                    "remove_path,0302,0402,rail,,no railway there,\n"
                    "remove_path,0502,,road,,no road through 0502,\n", encoding="utf-8")
    fixes = read_overrides(path, grid, {"clear": "."})
    line = [Hex(c, 2) for c in range(1, 7)]
    paths = apply_path_overrides(fixes, [PathLine("rail", "Line", tuple(line), "x"),
                                         PathLine("road", "Route", tuple(line), "y")])
    got = [(p.kind, p.name, [grid.label(h) for h in p.hexes], p.source) for p in paths]
    assert got == [
        ("rail", "Line", ["0102", "0202", "0302"], ""), ("rail", "Line", ["0402", "0502", "0602"], ""),
        ("road", "Route", ["0102", "0202", "0302", "0402"], ""),  # 0502 and its two steps gone; "0602" alone dropped
        ("road", "New", ["0101", "0201", "0301"], "published map: sheet 1"),
    ]


def test_path_overrides_reject_a_chain_with_a_gap(tmp_path):
    grid = HexGrid.build(first_col=1, last_col=6, first_row=1, last_row=4)
    path = tmp_path / "m.overrides.csv"
    path.write_text("action,hex_a,hex_b,value,name,note\nadd_path,0101,0201 0401,road,,gap\n", encoding="utf-8")
    with pytest.raises(OverrideError, match="0201 and 0401 are not adjacent"):
        read_overrides(path, grid, {"clear": "."})


def test_overrides_reject_bad_rows(tmp_path):
    grid = HexGrid.build(first_col=1, last_col=4, first_row=1, last_row=4)
    path = tmp_path / "m.overrides.csv"
    path.write_text("action,hex_a,hex_b,value,name,note\nadd_hexside,0101,0303,river,,not adjacent\n", encoding="utf-8")
    with pytest.raises(OverrideError, match="not adjacent"):
        read_overrides(path, grid, {"clear": "."})


def test_a_hand_edited_terrain_grid_is_recognised(tmp_path):
    grid = HexGrid.build(first_col=1, last_col=3, first_row=1, last_row=2)
    path = tmp_path / "m.terrain.txt"
    path.write_text(terrain_text(grid, {h: "clear" for h in grid.hexes()}, {"clear": ".", "rough": "^"}, ["x"]),
                    encoding="utf-8")
    assert not is_hand_edited(path)  # as generated
    path.write_text(path.read_text(encoding="utf-8") + "# a comment\n\n", encoding="utf-8")
    assert not is_hand_edited(path)  # comments and blank lines are no edit
    path.write_text(path.read_text(encoding="utf-8").replace("01 ...", "01 .^."), encoding="utf-8")
    assert is_hand_edited(path)


# --------------------------------------------------------------------------- every game map

@pytest.fixture(scope="module")
def built():
    cache = {}

    def get(game: str, map_id: str):
        if (game, map_id) not in cache:
            cache[(game, map_id)] = build_map(DATA_ROOT / game, map_id)
        return cache[(game, map_id)]

    return get


def test_a_wrong_anchor_fails_the_build_with_the_residual(tmp_path):
    if ("kwb", "pusan") not in MAPS:
        pytest.skip("no Pusan map")
    maps = tmp_path / "kwb" / "maps"
    maps.mkdir(parents=True)
    for f in (DATA_ROOT / "kwb" / "maps").glob("pusan.*"):
        (maps / f.name).write_bytes(f.read_bytes())
    cfg = maps / "pusan.geo.cfg"
    cfg.write_text(cfg.read_text(encoding="utf-8").replace('"3610" = "Andong"', '"3610" = "Pohang"'), encoding="utf-8")
    with pytest.raises(BuildError, match=r"anchor 3610 \(Pohang\) misses"):
        build_map(tmp_path / "kwb", "pusan")


def test_there_are_maps_to_check():
    assert MAPS, "no maps/<map>.geo.cfg found"


@pytest.mark.slow
@pytest.mark.parametrize("game,map_id", MAPS)
def test_calibration_puts_every_anchor_in_its_hex(built, game, map_id):
    b = built(game, map_id)
    cal = b.cal
    assert not cal.mirror
    for a in cal.anchors:
        assert a.residual_km < cal.half_hex_km, a
        if not a.place.startswith(COAST_PULL):  # a coast pull bends as far as the book's coast hex needs
            assert a.plain_km <= b.cfg.geo.max_plain_residual_hexes * b.cfg.geo.scale_km, a
        if a.fitted_hex:
            assert a.fitted_hex == a.label, a


@pytest.mark.parametrize("game,map_id", MAPS)
def test_named_places_are_on_land_and_ports_on_the_coast(built, game, map_id):
    b = built(game, map_id)
    water = {b.cfg.terrain_id("sea"), b.cfg.terrain_id("lake")}
    grid = b.cal.grid
    for f in b.book_features + b.geo_features:
        if f.kind in PLACE_KINDS:
            assert b.terrain[f.hex] not in water, f
        if f.kind == "port":  # the coastline runs through the hex or the hexes around it
            assert any(b.ground[h].land_fraction < 1 for h in [f.hex, *grid.neighbours(f.hex)]), f


@pytest.mark.parametrize("game,map_id", MAPS)
def test_book_places_named_after_towns_lie_in_or_next_to_their_hex(built, game, map_id):
    b = built(game, map_id)
    for c in b.cross_checks:
        assert c.hexes_apart <= 1, c


@pytest.mark.slow
@pytest.mark.parametrize("game,map_id", MAPS)
def test_build_is_deterministic_and_every_row_says_where_it_came_from(built, game, map_id):
    first = built(game, map_id)
    again = build_map(DATA_ROOT / game, map_id)
    assert again.files == first.files
    for suffix in (".hexsides.csv", ".paths.csv", ".geo-features.csv"):
        rows = [line for line in first.files[suffix].splitlines()[1:] if line and not line.startswith("#")]
        body = rows[1:]  # after the header
        assert all(SOURCE_PREFIX in line or "Glossary" in line or "inferred" in line for line in body), suffix


@pytest.mark.parametrize("game,map_id", MAPS)
def test_committed_map_files_are_what_the_build_makes(built, game, map_id):
    """A data change (a setup hex, a fact) must be followed by the map build, or the calibration report
    (what a maintainer reads) tells of facts as they no longer are: `python -m scenarios.mapbuild <game>`."""
    b = built(game, map_id)
    assert b.stale() == [], f"run python -m scenarios.mapbuild {game} {map_id}"


def _pusan_hexes(b) -> list[Hex]:
    return [f.hex for f in b.book_features if f.kind == "port" and f.name.lower().startswith("pusan")]


@pytest.mark.parametrize("game,map_id", [m for m in MAPS if m != ("kwb", "seoul") and m != ("kwb", "changjin")])
def test_pusan_is_a_port_city_on_land_next_to_the_sea(built, game, map_id):
    b = built(game, map_id)
    hexes = _pusan_hexes(b)
    assert hexes, "the map names no Pusan port"
    sea = b.cfg.terrain_id("sea")
    for h in hexes:
        assert b.terrain[h] != sea
        assert any(b.terrain[n] == sea for n in b.cal.grid.neighbours(h))
        kinds = {f.kind for f in b.book_features + b.geo_features if f.hex == h}
        assert {"city", "major_city", "star_city"} & kinds


def test_hagaru_ri_is_at_the_reservoir(built):
    if ("kwb", "changjin") not in MAPS:
        pytest.skip("no Changjin map")
    b = built("kwb", "changjin")
    grid = b.cal.grid
    hagaru = grid.parse("0907")
    assert b.terrain[hagaru] != "reservoir"
    assert any(b.terrain[n] == "reservoir" for n in grid.neighbours(hagaru))
    # Oro-ri far to the south is land; no road runs across the water
    assert b.terrain[grid.parse("1903")] != "reservoir"
    assert not any(b.terrain[h] == "reservoir" for p in b.paths for h in p.hexes)


def test_the_han_river_cuts_seoul_off_from_yongdungpo_and_anyang(built):
    if ("kwb", "seoul") not in MAPS:
        pytest.skip("no Seoul map")
    b = built("kwb", "seoul")
    grid = b.cal.grid
    han = {s.side for s in b.sides if s.kind == "han_river"}
    assert len(han) > 10
    seoul = [f.hex for f in b.geo_features if f.name == "Seoul"]
    assert len(seoul) > 1  # spread over its urban hexes
    north_bank = search(grid, seoul[:1], Blocked(hexsides=han)).cost
    assert all(h in north_bank for h in seoul)  # every urban hex on the north bank
    yongdungpo = next(f.hex for f in b.geo_features if f.name == "Yongdungpo")
    assert yongdungpo not in north_bank and grid.parse("1211") not in north_bank  # Anyang, 12.22


def test_the_38th_parallel_and_border_lines(built):
    for game, map_id, kind in [("spi", "korea", "parallel_38"), ("spi", "korea", "parallel_37"),
                               ("holdfast", "korea", "parallel_38"), ("fireandice", "korea", "border")]:
        if (game, map_id) not in MAPS:
            continue
        b = built(game, map_id)
        assert len([s for s in b.sides if s.kind == kind]) >= 10, (game, kind)
    if ("fireandice", "korea") in MAPS:
        b = built("fireandice", "korea")
        grid = b.cal.grid
        # 1.0 Glossary: 0743..3743 north of the border, 0643..3843 south; on the ground, the 38th parallel
        assert b.cal.hex_latlon(grid.parse("0743"))[0] > 38.0 > b.cal.hex_latlon(grid.parse("0643"))[0]
        assert b.cal.hex_latlon(grid.parse("3743"))[0] > 38.0 > b.cal.hex_latlon(grid.parse("3843"))[0]


def test_holdfast_has_red_lines(built):
    if ("holdfast", "korea") not in MAPS:
        pytest.skip("no HoldFast map")
    b = built("holdfast", "korea")
    assert any(s.kind == "red_line" for s in b.sides)


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted({g for g, _ in MAPS}))
def test_generated_files_load(game):
    game_data = load_game_dir(DATA_ROOT / game)
    for map_id in map_ids(DATA_ROOT / game):
        m = game_data.maps[map_id]
        assert len(m.terrain) == sum(1 for _ in m.grid.hexes())
        assert m.hexside_features or m.paths


@pytest.mark.parametrize("game,map_id", MAPS)
def test_every_book_fact_holds_on_the_built_map(built, game, map_id):
    """The calibration report's fact list: every fact the book states about the map holds."""
    b = built(game, map_id)
    assert b.verdicts, "no facts checked"
    broken = [(v.fact.where, v.broken) for v in b.verdicts if not v.holds and v.fact.is_book]
    assert not broken
    assert "book facts (" in b.files[".calibration.txt"]


def test_fire_and_ice_bombardment_coast_hexes_are_coast():
    """Fire and Ice 11.2: 2476, 2377, 1024, 2362 and 4804 are coast hexes; 2264 (Kunsan) is a port."""
    from scenarios import facts
    from scenarios.loader import load_game
    gm = load_game("fireandice").maps["korea"]
    for label in ("2476", "2377", "1024", "2362", "4804", "2264"):
        h = gm.grid.parse(label)
        assert not gm.is_water(h) and any(gm.is_water(n) for n in gm.grid.neighbours(h)), label
    fact = next(f for f in load_game("fireandice").hex_facts if f.unit is not None and f.unit.id == "us-7")
    assert not facts.unmet(fact, gm), "the intervention stand-in us-7 stands on land"


def test_calibration_rewrites_only_the_grids_shifted_columns_in_the_map_toml(tmp_path):
    """When calibration proves the other numbering convention, the build rewrites that one key."""
    toml = tmp_path / "m.toml"
    toml.write_text('id = "m"\nshifted_columns = "odd"\n[grid]\ncolumns = [1, 8]\nshifted_columns = "odd"\n'
                    '[other]\nshifted_columns = "odd"\n', encoding="utf-8")
    assert set_grid_convention(toml, "even") is True
    lines = toml.read_text(encoding="utf-8").splitlines()
    assert lines[4].startswith('shifted_columns = "even"') and lines[1] == lines[6] == 'shifted_columns = "odd"'
    assert set_grid_convention(toml, "even") is False  # already so: nothing written
