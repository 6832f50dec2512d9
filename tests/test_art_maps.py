"""Map boards, off-map boxes, turn tracks and charts."""

from __future__ import annotations

import dataclasses

import pytest
from PIL import Image

from art.canvas import rgb
from art.charts import render_table, stand_in_banner
from art.maps import (
    HEXSIDE_STYLES,
    PATH_STYLES,
    render_box,
    render_map,
    render_turn_track,
    track_layout,
    turn_slot_centres,
)
from scenarios.hexgrid import Hex, Hexside
from scenarios.model import MapPath, Source
from test_art_fixtures import GAME_IDS, game_or_skip


def _near(pixel, colour, tolerance: int = 12) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


@pytest.fixture(scope="module")
def example():
    return game_or_skip("example")


@pytest.fixture(scope="module")
def ridge(example):
    gmap = example.maps["ridge"]
    return gmap, render_map(gmap)


def test_map_image_is_the_grid_size(ridge):
    gmap, img = ridge
    assert img.size == (gmap.grid.width, gmap.grid.height)


def test_terrain_colour_fills_the_hex_around_its_centre(ridge):
    gmap, img = ridge
    busy = {f.hex for f in gmap.features} | {h for p in gmap.paths for h in p.hexes}
    checked = 0
    for hex_, terrain in gmap.terrain.items():
        if hex_ in busy:
            continue
        cx, cy = gmap.grid.center(hex_)
        colour = rgb(gmap.terrain_types[terrain].colour)
        # the centre and points a quarter hex left/right of it (labels are at the top)
        for dx in (0, -gmap.grid.dx // 4, gmap.grid.dx // 4):
            assert img.getpixel((cx + dx, cy + 5)) == colour, (hex_, dx)
        checked += 1
    assert checked > 10


def test_every_hex_has_its_label_drawn_near_the_top(ridge):
    gmap, img = ridge
    for hex_, terrain in gmap.terrain.items():
        cx, cy = gmap.grid.center(hex_)
        strip = img.crop((cx - 20, cy - gmap.grid.dy // 2 + 3, cx + 20, cy - gmap.grid.dy // 2 + 18))
        darkest = min(sum(colour) for _, colour in strip.getcolors(1 << 16))
        assert darkest < 300, f"no label ink in {gmap.grid.label(hex_)}"


def test_labels_are_the_grid_labels():
    """Two maps that differ only in numbering draw different label ink."""
    game = game_or_skip("example")
    gmap = game.maps["ridge"]
    shifted_grid = dataclasses.replace(gmap.grid, h_leading=2)  # "00101" instead of "0101"
    shifted = dataclasses.replace(gmap, grid=shifted_grid, features=[], hexside_features=[], paths=[])
    plain = dataclasses.replace(gmap, features=[], hexside_features=[], paths=[])
    assert render_map(plain).tobytes() != render_map(shifted).tobytes()


def test_river_hexside_is_drawn_along_the_shared_edge(ridge):
    gmap, img = ridge
    river = next(f for f in gmap.hexside_features if f.kind == "river")
    (ax, ay), (bx, by) = gmap.grid.hexside_segment(river.hexside)
    mid = (round((ax + bx) / 2), round((ay + by) / 2))
    assert _near(img.getpixel(mid), HEXSIDE_STYLES["river"].colour)


def test_road_runs_centre_to_centre(ridge):
    gmap, img = ridge
    road = next(p for p in gmap.paths if p.kind == "road")
    (ax, ay), (bx, by) = gmap.grid.center(road.hexes[1]), gmap.grid.center(road.hexes[2])
    mid = (round((ax + bx) / 2), round((ay + by) / 2))
    assert _near(img.getpixel(mid), PATH_STYLES["road"].colour)


def test_railway_has_ties():
    game = game_or_skip("example")
    gmap = game.maps["ridge"]
    a, b = Hex(1, 2), Hex(1, 3)
    railway = dataclasses.replace(gmap, paths=[MapPath("rail", (a, b))], features=[], hexside_features=[])
    road = dataclasses.replace(gmap, paths=[MapPath("road", (a, b))], features=[], hexside_features=[])
    no_path = dataclasses.replace(gmap, paths=[], features=[], hexside_features=[])
    base = render_map(no_path)
    road_ink = _changed(base, render_map(road))
    rail_ink = _changed(base, render_map(railway))
    # a vertical run: the railway's ties stick out sideways further than a road
    assert rail_ink[2] - rail_ink[0] > road_ink[2] - road_ink[0]
    assert render_map(road).tobytes() != render_map(railway).tobytes()


def _changed(a: Image.Image, b: Image.Image):
    from PIL import ImageChops

    return ImageChops.difference(a, b).getbbox()


def test_map_at_double_scale_matches_the_scaled_grid(example):
    gmap = example.maps["ridge"]
    img = render_map(gmap, scale=2)
    grid = gmap.grid.scaled(2)
    assert img.size == (grid.width, grid.height)
    hex_ = Hex(1, 2)
    assert img.getpixel(grid.center(hex_)) == rgb(gmap.terrain_types[gmap.terrain[hex_]].colour)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_map_of_every_game_renders_at_its_grid_size(game_id):
    game = game_or_skip(game_id)
    for gmap in game.maps.values():
        img = render_map(gmap)
        assert img.size == (gmap.grid.width, gmap.grid.height)
        # a hex without features shows its terrain colour at the centre
        busy = {f.hex for f in gmap.features} | {h for p in gmap.paths for h in p.hexes}
        for hex_, terrain in gmap.terrain.items():
            if hex_ not in busy and terrain in gmap.terrain_types:
                cx, cy = gmap.grid.center(hex_)
                assert img.getpixel((cx, cy + 5)) == rgb(gmap.terrain_types[terrain].colour), hex_
                break


# -- boxes and tracks --------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_box_and_turn_track_renders(game_id):
    game = game_or_skip(game_id)
    for box in game.boxes.values():
        img = render_box(game, box)
        assert img.width >= 5 * 75 and img.height >= 3 * 75
    for scenario in game.scenarios.values():
        img = render_turn_track(scenario)
        rows = -(-max(1, len(scenario.turns)) // 10)
        assert img.height >= rows * 75


def test_turn_slots_sit_in_empty_counter_space_of_each_cell(example):
    scenario = dataclasses.replace(next(iter(example.scenarios.values())),
                                   turns=next(iter(example.scenarios.values())).turns * 5)
    scenario = dataclasses.replace(scenario, turns=[dataclasses.replace(t, number=i + 1)
                                                    for i, t in enumerate(scenario.turns)])
    for scale in (1, 2):
        img = render_turn_track(scenario, scale)
        slots = turn_slot_centres(scenario, scale)
        assert sorted(slots) == [t.number for t in scenario.turns]
        centres = [c for cell in slots.values() for c in cell]
        assert len(set(centres)) == len(centres)
        half = 75 * scale // 2
        for x, y in centres:
            # a whole counter fits around the centre, on the plain counter-space fill
            box = img.crop((x - half + 2 * scale, y - half + 2 * scale, x + half - 2 * scale, y + half - 2 * scale))
            assert box.getcolors() == [(box.width * box.height, (238, 236, 228))]


def test_the_busiest_turn_gets_a_stack_slot_for_every_three_pieces(example):
    """Issue 19: a turn's reinforcements stand in stacks of at most three, side by side in
    its own cell, never spilling over a neighbour (Fire and Ice brings 19 units on turn 2)."""
    scenario = next(iter(example.scenarios.values()))
    many = [dataclasses.replace(scenario.schedule[0], unit=f"u{i}", turn=1) for i in range(10)]
    busy = dataclasses.replace(scenario, schedule=many)
    layout = track_layout(busy)
    assert len(layout.slots[1]) == 4 == len(layout.slots[2])
    cell = layout.cells[1]
    for x, y in layout.slots[1]:
        assert cell.left + 37 <= x <= cell.right - 37 and cell.top + 37 <= y <= cell.bottom - 37
    others = [c for n, c in layout.cells.items() if n != 1]
    assert all(c.left >= cell.right or c.top >= cell.bottom or c.right <= cell.left for c in others)


def test_turn_track_grows_with_turns(example):
    scenario = next(iter(example.scenarios.values()))
    longer = dataclasses.replace(scenario, turns=scenario.turns * 5)
    assert render_turn_track(longer).height > render_turn_track(scenario).height


# -- charts ----------------------------------------------------------------------------------------------


def _red_pixels(img: Image.Image) -> int:
    from PIL import ImageChops

    r, g, b = img.convert("RGB").split()
    strong_r = r.point(lambda v: 255 if v > 170 else 0)
    weak_g = g.point(lambda v: 255 if v < 50 else 0)
    weak_b = b.point(lambda v: 255 if v < 50 else 0)
    return ImageChops.multiply(ImageChops.multiply(strong_r, weak_g), weak_b).histogram()[255]


def test_stand_in_chart_carries_a_visible_banner(example):
    table = example.tables["crt"]
    assert table.source.is_stand_in
    assert stand_in_banner(table).startswith("STAND-IN \u2014 not the publisher's table: ")
    published = dataclasses.replace(table, source=Source("example 7.0"))
    assert _red_pixels(render_table(table)) > 500
    assert _red_pixels(render_table(published)) == 0
    assert stand_in_banner(published) == ""


def test_chart_grows_with_rows_and_wraps_long_cells(example):
    table = example.tables["crt"]
    more = dataclasses.replace(table, rows=table.rows + table.rows)
    assert render_table(more).height > render_table(table).height
    long_cell = dict(table.rows[0])
    long_cell["1:2"] = "attacker retreats two hexes and loses one step " * 4
    wrapped = render_table(dataclasses.replace(table, rows=(long_cell,) + table.rows[1:]))
    assert wrapped.width < 900


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_table_of_every_game_renders(game_id):
    game = game_or_skip(game_id)
    for table in game.tables.values():
        img = render_table(table)
        assert img.width > 100 and img.height > 50
        assert (_red_pixels(img) > 0) == table.source.is_stand_in, table.id


def test_sideways_grid_maps_draw_on_their_own_geometry(example):
    from scenarios.hexgrid import HexGrid

    gmap = example.maps["ridge"]
    g = gmap.grid
    sideways = HexGrid.build(first_col=g.first_col, last_col=g.last_col, first_row=g.first_row,
                             last_row=g.last_row, hex_height=g.dy, sideways=True)
    turned = dataclasses.replace(gmap, grid=sideways)
    img = render_map(turned)
    assert img.size == (sideways.width, sideways.height)
    busy = {f.hex for f in gmap.features} | {h for p in gmap.paths for h in p.hexes}
    for hex_, terrain in gmap.terrain.items():
        if hex_ not in busy:
            cx, cy = sideways.center(hex_)
            assert img.getpixel((cx, cy + 5)) == rgb(gmap.terrain_types[terrain].colour), hex_
