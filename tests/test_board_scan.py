"""A scanned board (issue 33): the published map's scan as a map's board, its grid calibrated to the scan.

What a maintainer does, in a copy of the example game: put the scan (drawn here with Pillow at a
known, odd calibration: tests/scan_fixtures.py) next to the map's toml, list a few hex centres read
off it in ``[board.points]``, run ``modgen board``; then ``scenarios check``, build the module, play.
The tests hold the calibration to the printed grid everywhere (not only at the listed hexes), the
module to the scan and that grid, the real engine to the data's hexes, and the saved-game bridge to
the engine's.
"""

from __future__ import annotations

import io
import math
import re
import shutil
import warnings
import zipfile
from pathlib import Path

import pytest
from PIL import Image

from adjudicator.bridge import read_positions, read_upload
from adjudicator.bridge.locate import HEX
from art.board import board_file
from modgen.artwork import collect_images
from modgen.build import build_entries, write_module
from modgen.buildfile import main_map_name
from modgen.cli import main as modgen
from scenarios.board import BoardError, calibrate, fit, image_size
from scenarios.hexgrid import Hex, HexGrid
from scenarios.loader import DATA_ROOT, check_game_dir, load_game_dir, read_game_dir
from scenarios.model import BoardPoint
from scan_fixtures import EXAMPLE_PRINT, PrintedGrid, board_table, draw_scan, flatbed, read_centres

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "example"
LISTED = ["0102", "0705", "0801", "0106"]  # near the corners: the fit holds over the whole map


def copy_example(tmp_path: Path, printed: PrintedGrid = EXAMPLE_PRINT, listed: list[str] = LISTED,
                 shifted: str = "even") -> Path:
    """docs/example with a scan of its map and the hex centres a maintainer read off it."""
    game_dir = tmp_path / "example"
    shutil.copytree(EXAMPLE, game_dir)
    toml = game_dir / "maps" / "ridge.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('shifted_columns = "even"',
                                                             f'shifted_columns = "{shifted}"'), encoding="utf-8")
    game, _ = read_game_dir(game_dir)
    gm = game.maps["ridge"]
    draw_scan(gm, printed, game_dir / "maps" / "ridge.board.png")
    toml.write_text(toml.read_text(encoding="utf-8") + board_table("ridge.board.png", read_centres(gm, printed, listed)),
                    encoding="utf-8")
    return game_dir


@pytest.fixture
def scanned(tmp_path, capsys) -> Path:
    """The copy, calibrated with the maintainer's command."""
    game_dir = copy_example(tmp_path)
    assert modgen(["board", str(game_dir), "ridge", "--out", str(tmp_path / "check")]) == 0
    capsys.readouterr()
    return game_dir


def test_the_calibration_puts_every_printed_hex_under_its_own_number(scanned, tmp_path):
    game = load_game_dir(scanned)
    gm = game.maps["ridge"]
    grid = gm.board.grid
    assert (grid.dx, grid.dy, grid.sideways) == (gm.grid.dx, gm.grid.dy, False)  # the map's own hexes
    to_board = gm.board.to_scan.inverse()  # a scan pixel's place on the straightened board
    for hex_ in gm.grid.hexes():  # every hex, listed or not
        x, y = to_board(*EXAMPLE_PRINT.centre(gm.grid, hex_))
        assert grid.hex_at(round(x), round(y)) == hex_
        assert math.dist(grid.center(hex_), (x, y)) < 1.5, gm.grid.label(hex_)
        px, py = EXAMPLE_PRINT.centre(gm.grid, hex_)
        for dx, dy in ((0.35, 0), (-0.35, 0), (0, 0.4), (0, -0.4)):  # well inside the printed hex
            bx, by = to_board(px + dx * EXAMPLE_PRINT.dx, py + dy * EXAMPLE_PRINT.dy)
            assert grid.hex_at(round(bx), round(by)) == hex_, (gm.grid.label(hex_), dx, dy)
    assert gm.grid.hex_at(*gm.grid.center(Hex(3, 3))) == Hex(3, 3)  # the drawn map's grid is untouched
    assert gm.board_grid(2) == grid  # a scan is not scaled with the art
    check = Image.open(tmp_path / "check" / "example-ridge-board-check.png")
    assert check.size == (grid.width, grid.height)


def test_the_calibration_is_written_into_the_map_toml_and_a_second_run_changes_nothing(scanned, tmp_path, capsys):
    text = (scanned / "maps" / "ridge.toml").read_text(encoding="utf-8")
    board = text[text.index("[board]"):]
    assert re.search(r"^origin = \[9[56]\.\d+, 5[67]\.\d+\] +# calibrated by `modgen board`", board, re.M), board
    assert re.search(r"^column = \[77\.\d+, -?0(\.\d+)?\] +# calibrated", board, re.M), board
    assert re.search(r"^row = \[-?0(\.\d+)?, 87\.\d+\] +# calibrated", board, re.M), board
    assert board.index("row =") < board.index("\n[board.points]")  # in [board], not in its points
    assert modgen(["board", str(scanned), "ridge", "--out", str(tmp_path / "check")]) == 0
    assert "unchanged: the calibration" in capsys.readouterr().out
    assert (scanned / "maps" / "ridge.toml").read_text(encoding="utf-8") == text


def test_four_hexes_are_enough_and_a_sideways_grid_is_fitted_in_its_own_frame():
    model = HexGrid.build(first_col=1, last_col=10, first_row=1, last_row=9, sideways=True, shifted_columns="odd")
    printed = PrintedGrid(dx=75.61, dy=87.9, x0=31.3, y0=-12.6, size=(920, 860))  # sideways: x0 runs down the page
    points = [BoardPoint(model.parse(label), *[round(v) for v in printed.centre(model, model.parse(label))])
              for label in ("0203", "0908", "1001", "0109")]
    board = fit(model, points, printed.size)
    assert board.misses() == [] and board.shape.problems(model, board.scan) == []
    to_board = board.to_scan.inverse()
    for hex_ in model.hexes():
        x, y = to_board(*printed.centre(model, hex_))
        assert board.grid.hex_at(round(x), round(y)) == hex_
        assert math.dist(board.grid.center(hex_), (x, y)) < 2


def test_a_mislabelled_hex_fails_the_calibration_and_names_it(tmp_path, capsys):
    game_dir = copy_example(tmp_path)
    toml = game_dir / "maps" / "ridge.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('"0705" =', '"0605" ='), encoding="utf-8")
    before = toml.read_text(encoding="utf-8")
    assert modgen(["board", str(game_dir), "ridge", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "a listed centre is not where the others put it" in err and "0605 at (" in err
    assert toml.read_text(encoding="utf-8") == before  # nothing written


def test_the_wrong_shifted_columns_are_named(tmp_path):
    game_dir = copy_example(tmp_path, shifted="even")
    toml = game_dir / "maps" / "ridge.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('shifted_columns = "even"', 'shifted_columns = "odd"'),
                    encoding="utf-8")
    game, _ = read_game_dir(game_dir)
    gm = game.maps["ridge"]
    points = [BoardPoint(gm.grid.parse(k), *v) for k, v in
              read_centres(load_game_dir(EXAMPLE).maps["ridge"], EXAMPLE_PRINT, LISTED).items()]
    with pytest.raises(BoardError, match='fit a grid with shifted_columns = "even"'):
        calibrate(gm.grid, points, EXAMPLE_PRINT.size)


def test_too_few_or_collinear_points_are_refused():
    model = HexGrid.build(first_col=1, last_col=8, first_row=1, last_row=6)
    with pytest.raises(BoardError, match="at least 4 hexes"):
        fit(model, [BoardPoint(Hex(1, 1), 10, 10), BoardPoint(Hex(3, 3), 100, 150), BoardPoint(Hex(5, 2), 300, 90)],
            (500, 500))
    with pytest.raises(BoardError, match="one of the grid's columns"):
        fit(model, [BoardPoint(Hex(2, r), 80, 60 * r) for r in (1, 3, 4, 5)], (500, 500))
    with pytest.raises(BoardError, match="on one line of hexes"):  # a diagonal: cells (c, c) of even columns
        fit(model, [BoardPoint(Hex(c, c // 2), 76 * c, 44 * c) for c in (2, 4, 6, 8)], (700, 500))


def test_scenarios_check_says_when_the_board_is_not_calibrated_or_the_calibration_is_stale(scanned, tmp_path):
    uncalibrated = copy_example(tmp_path / "fresh")
    problems = check_game_dir(uncalibrated)
    assert any("[board] is not calibrated" in p and "modgen board example ridge" in p for p in problems), problems
    toml = scanned / "maps" / "ridge.toml"
    toml.write_text(re.sub(r'"0106" = \[(\d+),', lambda m: f'"0106" = [{int(m.group(1)) - 60},', toml.read_text()),
                    encoding="utf-8")
    problems = check_game_dir(scanned)
    assert any("calibration out of date" in p and "0106" in p for p in problems), problems
    (scanned / "maps" / "ridge.board.png").unlink()
    assert any("ridge.board.png is missing" in p for p in check_game_dir(scanned))


@pytest.mark.parametrize("fmt, suffix", [("PNG", ".png"), ("JPEG", ".jpg"), ("GIF", ".gif")])
def test_image_sizes_come_from_the_file_headers(tmp_path, fmt, suffix):
    path = tmp_path / f"scan{suffix}"
    Image.new("RGB", (613, 427), (200, 190, 170)).save(path, fmt)
    assert image_size(path) == (613, 427)


def test_a_jpeg_size_is_found_past_large_profile_segments_and_a_broken_file_is_an_error(tmp_path):
    path = tmp_path / "scan.jpg"
    Image.new("RGB", (801, 333)).save(path, "JPEG", icc_profile=b"\0" * 200_000, progressive=True)
    assert image_size(path) == (801, 333)
    (tmp_path / "cut.jpg").write_bytes(path.read_bytes()[:5000])
    with pytest.raises(BoardError, match="cut.jpg: unreadable image"):
        image_size(tmp_path / "cut.jpg")
    (tmp_path / "text.png").write_text("not an image")
    with pytest.raises(BoardError, match="not a PNG, JPEG or GIF"):
        image_size(tmp_path / "text.png")


def build_module(game_dir: Path, tmp_path: Path):
    game = load_game_dir(game_dir)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        images = collect_images(game, cache_dir=tmp_path / "art")
        result = build_entries(game, images, "1.0")
    return game, result, write_module(result, tmp_path / "dist", "example-scan.vmod")


def unit_hexes(game, scenario_id: str) -> dict[str, str]:
    return {p.unit: p.location for p in game.scenarios[scenario_id].setup if not p.is_marker and p.is_on_map}


def test_the_module_shows_the_scan_on_the_calibrated_grid_and_its_setup_reads_back_on_the_data_hexes(scanned, tmp_path):
    game, result, _ = build_module(scanned, tmp_path)
    grid = game.maps["ridge"].board.grid
    build_file = result.entries["buildFile.xml"].decode("utf-8")
    board = re.search(r'<VASSAL\.build\.module\.map\.boardPicker\.Board image="([^"]+)" name="Example Ridge"',
                      build_file)
    straightened, suffix = board_file(game.maps["ridge"].board)  # the scan, straightened onto the grid
    assert board and result.entries[f"images/{board.group(1)}"] == straightened and suffix == ".png"
    assert Image.open(io.BytesIO(straightened)).size == (grid.width, grid.height)
    assert f'dx="{float(grid.dx)}" dy="{float(grid.dy)}"' in build_file and f'x0="{grid.x0}" y0="{grid.y0}"' in build_file
    assert not any(name.startswith("images/example_map_ridge") for name in result.entries)  # nothing drawn for it
    positions = read_positions(game, read_upload(result.entries["setups/battle.vsav"]))
    placed = {u.unit.id: u.location for u in positions.units if u.location.kind == HEX}
    assert {u: loc.hex for u, loc in placed.items()} == unit_hexes(game, "battle")
    assert all(loc.on_centre for loc in placed.values())


def test_without_a_board_the_drawn_map_is_the_default(tmp_path):
    game = load_game_dir(EXAMPLE)
    assert game.maps["ridge"].board is None
    assert game.maps["ridge"].board_grid(2) == game.maps["ridge"].grid.scaled(2)


# -- in the real engine -----------------------------------------------------------------------------

@pytest.mark.engine
def test_the_real_engine_puts_the_setup_on_the_data_hexes_and_the_bridge_reads_its_save_alike(
        scanned, tmp_path, engine):
    """The setup's units stand on the data's hexes by the engine's own location names; then each is
    dropped off-centre on another printed hex, as a player drags it, and the engine snaps it where
    ``HexGrid.snap`` says, into that hex; the bridge reads the saved game with the same hexes."""
    game, _, module = build_module(scanned, tmp_path)
    grid = game.maps["ridge"].board.grid
    printed = game.maps["ridge"].grid
    moves = {"rd-1": ("0305", 14, -17), "rd-hq": ("0202", -20, 12), "bl-inf-1": ("0604", 9, 21),
             "bl-inf-2": ("0803", -6, -24)}
    drops = {}
    to_board = game.maps["ridge"].board.to_scan.inverse()
    for unit, (label, dx, dy) in moves.items():
        x, y = to_board(*EXAMPLE_PRINT.centre(printed, printed.parse(label)))  # the printed centre on the board
        drops[unit] = {"map": main_map_name(game), "x": round(x + dx), "y": round(y + dy)}
    saved = tmp_path / "after-moves.vsav"
    run = engine(module, [
        {"do": "setup", "name": "Battle of the Ridge"},
        {"do": "pieces", "properties": ["UnitId"]},
        *[{"do": "move", "piece": {"properties": {"UnitId": unit}}, "to": drop, "properties": ["UnitId"]}
          for unit, drop in drops.items()],
        {"do": "save", "file": str(saved)},
    ])
    assert run.ok, run.failure()
    assert run.problems() == []
    on_map = {p["properties"]["UnitId"]: p for p in run.result(1)["pieces"]
              if p["map"] == main_map_name(game) and p["properties"]["UnitId"]}
    want = unit_hexes(game, "battle")
    assert {u: p["location"] for u, p in on_map.items()} == want  # the engine's own location names
    for unit, label in want.items():
        assert (on_map[unit]["x"], on_map[unit]["y"]) == grid.center(grid.parse(label))
    for index, (unit, (label, _, _)) in enumerate(moves.items(), start=2):
        moved = run.result(index)
        assert moved["location"] == label, unit
        assert (moved["x"], moved["y"]) == grid.snap(drops[unit]["x"], drops[unit]["y"]), unit
    positions = read_positions(game, read_upload(saved.read_bytes()))
    read = {u.unit.id: u.location for u in positions.units if u.location.kind == HEX}
    assert {u: loc.hex for u, loc in read.items()} == {u: label for u, (label, _, _) in moves.items()}
    assert all(loc.on_centre for loc in read.values())


@pytest.mark.engine
def test_a_korean_war_battles_module_on_a_turned_jpeg_scan_calibrated_from_four_hexes(
        tmp_path, engine, modules, capsys):
    """The same on a real game: KWB's Seoul map as a JPEG scan turned 2 degrees on the glass,
    calibrated from the three hexes the book names (Inchon 0109, Kimpo 0805, Anyang 1211) and one
    near the north-east corner; every unit of the Battle for Seoul setup lands on its hex in the
    engine and reads back there through the bridge."""
    game_dir = tmp_path / "kwb"
    shutil.copytree(DATA_ROOT / "kwb", game_dir)
    printed = PrintedGrid(dx=77.12, dy=87.47, x0=55.3, y0=61.8, size=(1480, 1180))
    game, _ = read_game_dir(game_dir)
    gm = game.maps["seoul"]
    draw_scan(gm, printed, tmp_path / "print.png")
    with Image.open(tmp_path / "print.png") as image:
        scan, truth = flatbed(image, -2.0, 0.97, 0.4)
    scan.save(game_dir / "maps" / "seoul.board.jpg", quality=92)
    listed = {label: [round(v) for v in truth(*printed.centre(gm.grid, gm.grid.parse(label)))]
              for label in ("0109", "0805", "1211", "1702")}
    toml = game_dir / "maps" / "seoul.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + board_table(
        "seoul.board.jpg", listed, "published map: KWB Seoul sheet"), encoding="utf-8")
    assert modgen(["board", str(game_dir), "seoul", "--out", str(tmp_path / "check")]) == 0
    capsys.readouterr()
    game = load_game_dir(game_dir)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        result = build_entries(game, collect_images(game, cache_dir=modules.cache), "1.0")
    module = write_module(result, tmp_path / "dist", "kwb-scan.vmod")
    seoul = game.scenarios["seoul"]
    run = engine(module, [{"do": "setup", "name": seoul.name}, {"do": "pieces", "properties": ["UnitId"]},
                          {"do": "save", "file": str(tmp_path / "seoul.vsav")}], timeout=400)
    assert run.ok, run.failure()
    assert run.problems() == []
    want = {u: loc.split("@")[0] for u, loc in unit_hexes(game, "seoul").items()}
    seen = {p["properties"]["UnitId"]: p["location"] for p in run.result(1)["pieces"]
            if p["map"] == main_map_name(game) and p["properties"]["UnitId"]}
    assert want and seen == want
    positions = read_positions(game, read_upload((tmp_path / "seoul.vsav").read_bytes()))
    assert {u.unit.id: u.location.hex for u in positions.units if u.location.kind == HEX} == want
